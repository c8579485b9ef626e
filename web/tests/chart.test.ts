// The rating chart's geometry: time across, rating up, each interval a band around its line.
import { describe, expect, it } from "vitest";
import { layout } from "../src/chart";

describe("the rating chart", () => {
  it("puts the first point left, the last right, and the higher rating higher", () => {
    const points = [
      { unixMillis: 1000, rating: 1400, ci95: 100 },
      { unixMillis: 2000, rating: 1600, ci95: 50 },
    ];
    const { lines, ticks } = layout([{ label: "a@v1 on straight-2", points }], 200, 100);
    expect(lines).toHaveLength(1);
    // From x = 44 (the axis) to x = 192, from the lower rating to the higher (smaller y).
    const coords = [...lines[0].line.matchAll(/[ML]([\d.]+),([\d.]+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    expect(coords[0][0]).toBe(44);
    expect(coords[1][0]).toBe(192);
    expect(coords[1][1]).toBeLessThan(coords[0][1]);
    // The band runs along the upper bounds and back along the lower ones, and closes.
    expect(lines[0].band.startsWith("M")).toBe(true);
    expect(lines[0].band.endsWith("Z")).toBe(true);
    expect([...lines[0].band.matchAll(/[ML]/g)]).toHaveLength(4);
    // Round ticks inside the range 1300..1650, each higher value drawn higher.
    expect(ticks.map((t) => t.value)).toEqual([1300, 1400, 1500, 1600]);
    expect(ticks[3].y).toBeLessThan(ticks[0].y);
  });

  it("draws nothing without points and a flat series in the middle of a range of its own", () => {
    expect(layout([], 200, 100)).toEqual({ lines: [], ticks: [] });
    const flat = layout([{ label: "x", points: [{ unixMillis: 5, rating: 1500, ci95: 0 }] }], 200, 100);
    expect(flat.lines[0].line).toBe("M118.0,45.0");
    expect(flat.lines[0].dots).toEqual([[118, 45]]);
  });
});
