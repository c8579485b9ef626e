// Component tests of the board drawings: a known position gives the expected SVG elements.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { actionText } from "../src/describe";
import { drawStraight } from "../src/draw/straight";
import { drawStreets, findBlocks } from "../src/draw/streets";
import { domino } from "../src/draw/tile";
import { GameStatus, StraightBoardSchema, StreetsBoardSchema, ViewSchema } from "../src/gen/clack/v1/game_service_pb";
import { ActionSchema, Arm, SpotSchema, StraightAction_Kind, type Spot } from "../src/gen/clack/v1/types_pb";
import { seatsPanel } from "../src/pages/board";

const tile = (low: number, high: number) => ({ low, high });
const link = (inner: number, outer: number) => ({ inner, outer });
const avenue = (column: number, row: number): Spot => create(SpotSchema, { at: { case: "avenue", value: { column, row } } });
const street = (gap: number, halfRow: number): Spot => create(SpotSchema, { at: { case: "street", value: { gap, halfRow } } });
const tiles = (svg: Element) => [...svg.querySelectorAll("g.tile")].map((g) => g.getAttribute("data-tile"));

describe("dominoes", () => {
  it("draws one pip per point on each half, blank to twelve", () => {
    for (const [a, b] of [[0, 0], [1, 6], [9, 9], [10, 12], [12, 12]]) {
      const g = domino(a, b, 0, 0, true, 40);
      expect(g.querySelectorAll("circle.pip").length).toBe(a + b);
      expect(g.getAttribute("data-tile")).toBe(`${Math.min(a, b)}-${Math.max(a, b)}`);
    }
  });
});

describe("Straight layout", () => {
  // A 3-5 spinner; west 1-3; east the double 5-5 crosswise; north 6-3 against the spinner's 3.
  const board = create(StraightBoardSchema, {
    firstTile: tile(3, 5),
    spinner: true,
    west: [link(3, 1)],
    east: [link(5, 5)],
    north: [link(3, 6)],
    count: 17,
  });

  it("draws the spinner, each arm's tiles and the count", () => {
    const svg = drawStraight(board);
    expect(tiles(svg)).toEqual(["3-5", "1-3", "5-5", "3-6"]);
    expect(svg.querySelector("g.tile.spinner")?.getAttribute("data-tile")).toBe("3-5");
    expect(svg.querySelectorAll("circle.pip").length).toBe(3 + 5 + 1 + 3 + 5 + 5 + 3 + 6);
    expect(svg.getAttribute("data-count")).toBe("17");
    expect(svg.querySelectorAll(".end.legal").length).toBe(0);
  });

  it("lays a double crosswise and arm tiles end to end", () => {
    const svg = drawStraight(board);
    const face = (t: string) => svg.querySelector(`g.tile[data-tile='${t}'] rect.face`)!;
    const size = (t: string) => [Number(face(t).getAttribute("width")), Number(face(t).getAttribute("height"))];
    const [sw, sh] = size("3-5");
    expect(sw).toBeGreaterThan(sh); // the spinner lies west-east
    const [dw, dh] = size("5-5");
    expect(dh).toBeGreaterThan(dw); // the double stands across the east arm
    const [nw, nh] = size("3-6");
    expect(nh).toBeGreaterThan(nw); // a north tile runs north-south
    expect(Number(face("1-3").getAttribute("x"))).toBeLessThan(Number(face("3-5").getAttribute("x")));
    expect(Number(face("3-6").getAttribute("y"))).toBeLessThan(Number(face("3-5").getAttribute("y")));
  });

  it("highlights exactly the open ends a selected tile can go to", () => {
    const svg = drawStraight(board, new Set(["west@1", "east@5", "south@5"]));
    const ends = [...svg.querySelectorAll(".end.legal")].map((e) => e.getAttribute("data-end")).sort();
    expect(ends).toEqual(["east@5", "south@5", "west@1"]);
    expect(svg.querySelector("[data-end='west@1']")?.getAttribute("data-arm")).toBe("west");
  });

  it("draws ghost moves at their open ends, the matching half inward, a second one further out", () => {
    const ghost = (text: string, kind: "played" | "best") => {
      const [tileText, key] = text.split(" ");
      const [first, second] = tileText.split("-").map(Number);
      return { key: key ?? "lead", first, second, kind, title: text };
    };
    const face = (svg: Element, kind: string) => svg.querySelector(`[data-ghost=${kind}] rect.face`)!;
    const x = (el: Element) => Number(el.getAttribute("x"));
    const apart = drawStraight(board, new Set(), [ghost("1-4 west@1", "played"), ghost("2-5 south@5", "best")]);
    expect([...apart.querySelectorAll("g.ghost")].map((g) => g.getAttribute("data-key"))).toEqual(["west@1", "south@5"]);
    const spinner = apart.querySelector("g.tile.spinner rect.face")!;
    const west = apart.querySelector("g.tile[data-tile='1-3'] rect.face")!;
    expect(x(face(apart, "played"))).toBeLessThan(x(west)); // beyond the west arm's last tile
    expect(Number(face(apart, "best").getAttribute("y"))).toBeGreaterThan(Number(spinner.getAttribute("y"))); // south
    expect(Number(face(apart, "best").getAttribute("height"))).toBeGreaterThan(Number(face(apart, "best").getAttribute("width")));
    // The matching half faces the layout: on the west arm the 1 is the east half.
    const pipsX = [...apart.querySelectorAll("[data-ghost=played] circle.pip")].map((c) => Number(c.getAttribute("cx")));
    expect(pipsX.filter((p) => p > x(face(apart, "played")) + 40).length).toBe(1);
    const same = drawStraight(board, new Set(), [ghost("1-4 west@1", "played"), ghost("1-6 west@1", "best")]);
    expect(x(face(same, "best"))).toBeCloseTo(x(face(same, "played")) - 80);
    // A ghost at an end this board does not have is left out.
    expect(drawStraight(board, new Set(), [ghost("2-2 north@2", "best")]).querySelectorAll("g.ghost").length).toBe(0);
    expect(drawStraight(create(StraightBoardSchema, {}), new Set(), [ghost("6-6", "best")]).querySelectorAll("[data-key=lead]").length).toBe(1);
  });

  it("offers the lead on an empty table", () => {
    const svg = drawStraight(create(StraightBoardSchema, {}), new Set(["lead"]));
    expect(tiles(svg)).toEqual([]);
    expect(svg.querySelector("[data-end=lead]")).not.toBeNull();
  });
});

describe("Streets and Avenues table", () => {
  // Two avenues of two dominoes each, columns 0 and 1, closed at top and bottom by streets.
  const ring = [avenue(0, 0), avenue(0, 2), avenue(1, 0), avenue(1, 2), street(0, 0), street(0, 6)];

  it("finds the block a ring of dominoes encloses", () => {
    const blocks = findBlocks(ring);
    expect(blocks.length).toBe(1);
    expect(blocks[0].length).toBe(8); // two squares wide, four half-rows tall
  });

  it("counts two blocks when a street divides one, none when the ring is open", () => {
    expect(findBlocks([...ring, street(0, 3)]).map((b) => b.length)).toEqual([2, 2]);
    expect(findBlocks(ring.slice(0, 5))).toEqual([]);
  });

  it("draws avenues upright, streets across, and shades and numbers the blocks", () => {
    const pieces = ring.map((spot, i) => ({ spot, tile: tile(i % 3, 3), first: 3 }));
    const svg = drawStreets(create(StreetsBoardSchema, { pieces, blocks: 1 }));
    expect(svg.querySelectorAll("g.tile.avenue").length).toBe(4);
    expect(svg.querySelectorAll("g.tile.street").length).toBe(2);
    expect([...svg.querySelectorAll("g.tile")].map((g) => g.getAttribute("data-spot"))).toEqual(["a0:0", "a0:2", "a1:0", "a1:2", "s0:0", "s0:6"]);
    const a = svg.querySelector("[data-spot='a0:0'] rect.face")!;
    expect(Number(a.getAttribute("height"))).toBeGreaterThan(Number(a.getAttribute("width")));
    expect(svg.querySelectorAll("g.block").length).toBe(1);
    expect(svg.querySelector("g.block .block-number")?.textContent).toBe("1");
    expect(svg.querySelectorAll("g.block rect").length).toBe(8);
  });

  it("draws a target on each spot a selected tile may take", () => {
    const svg = drawStreets(create(StreetsBoardSchema, { pieces: [{ spot: avenue(0, 0), tile: tile(2, 4), first: 2 }] }), [
      { key: "a0:2", spot: avenue(0, 2) },
      { key: "a0:-2", spot: avenue(0, -2) },
    ]);
    expect([...svg.querySelectorAll(".end.legal")].map((e) => e.getAttribute("data-end"))).toEqual(["a0:2", "a0:-2"]);
  });
});

describe("ghost moves on the Streets table", () => {
  it("draws each at its spot, upright on an avenue and across on a street", () => {
    const ghosts = [
      { key: "a0:2", first: 3, second: 5, kind: "played" as const, title: "played" },
      { key: "s-1:3", first: 6, second: 0, kind: "best" as const, title: "best" },
      { key: "nowhere", first: 1, second: 1, kind: "best" as const, title: "not a spot" },
    ];
    const svg = drawStreets(create(StreetsBoardSchema, { pieces: [{ spot: avenue(0, 0), tile: tile(2, 4), first: 2 }] }), [], ghosts);
    expect([...svg.querySelectorAll("g.ghost")].map((g) => g.getAttribute("data-key"))).toEqual(["a0:2", "s-1:3"]);
    const face = (kind: string) => svg.querySelector(`[data-ghost=${kind}] rect.face`)!;
    const size = (f: Element) => [Number(f.getAttribute("width")), Number(f.getAttribute("height"))];
    expect(size(face("played"))[1]).toBeGreaterThan(size(face("played"))[0]);
    expect(size(face("best"))[0]).toBeGreaterThan(size(face("best"))[1]);
    expect(Number(face("best").getAttribute("x"))).toBeLessThan(0); // gap -1 lies west of column 0
    expect(svg.querySelector("[data-ghost=played] g.tile")?.getAttribute("data-tile")).toBe("3-5");
  });
});

describe("hidden information", () => {
  it("shows a spectator every hand face down", () => {
    const view = create(ViewSchema, {
      handSizes: [7, 5],
      scores: [0n, 10n],
      seats: [{ seat: 0, taken: true, name: "ada" }, { seat: 1, taken: true, name: "bob" }],
    });
    const panel = seatsPanel(view, undefined, false);
    expect(panel.querySelectorAll("[data-tile]").length).toBe(0);
    expect(panel.querySelectorAll("[data-hand-seat='0'] .tile-back").length).toBe(7);
    expect(panel.querySelectorAll("[data-hand-seat='1'] .tile-back").length).toBe(5);
  });
});

describe("the seat's own hand in the seats panel", () => {
  const seats = [{ seat: 0, taken: true, name: "ada" }, { seat: 1, taken: true, name: "bob" }];

  it("points below to the hand while the game is played, in the singular for one tile", () => {
    const one = create(ViewSchema, { status: GameStatus.ACTIVE, hand: [tile(2, 5)], handSizes: [1, 4], seats });
    expect(seatsPanel(one, 0, false).querySelector("[data-hand-seat='0']")?.textContent).toContain("1 tile (below)");
    const two = create(ViewSchema, { status: GameStatus.ACTIVE, hand: [tile(2, 5), tile(0, 1)], handSizes: [2, 4], seats });
    expect(seatsPanel(two, 0, false).querySelector("[data-hand-seat='0']")?.textContent).toContain("2 tiles (below)");
  });

  it("shows a finished game's own tiles in the panel, since nothing is drawn below then", () => {
    const view = create(ViewSchema, { status: GameStatus.FINISHED, hand: [tile(2, 5)], handSizes: [1, 3], seats });
    const panel = seatsPanel(view, 0, false);
    const mine = panel.querySelector("[data-hand-seat='0']")!;
    expect(mine.textContent).not.toContain("below");
    expect([...mine.querySelectorAll("[data-tile]")].map((t) => t.getAttribute("data-tile"))).toEqual(["2-5"]);
    expect(panel.querySelectorAll("[data-hand-seat='1'] [data-tile]").length).toBe(0);
    expect(panel.querySelectorAll("[data-hand-seat='1'] .tile-back").length).toBe(3);
  });

  it("announces nothing below while the game waits for players", () => {
    const view = create(ViewSchema, { status: GameStatus.WAITING, handSizes: [0, 0], seats });
    expect(seatsPanel(view, 0, false).querySelector("[data-hand-seat='0']")?.textContent).not.toContain("below");
  });
});

describe("clocks", () => {
  it("shows each clocked seat's time, the seat to act counting down to its deadline", () => {
    const view = create(ViewSchema, { handSizes: [7, 7], toMove: 1, seats: [{ seat: 0 }, { seat: 1 }] });
    // The clock fields as the turn-clock proto adds them to View.
    Object.assign(view, { clocks: [{ seat: 0, remainingMillis: 65_000n }, { seat: 1, remainingMillis: 30_000n }], deadlineUnixMillis: BigInt(Date.now() + 9_500) });
    const panel = seatsPanel(view, 0, false);
    expect(panel.querySelector("[data-seat='0'] .clock")?.textContent).toBe("1:05");
    const running = panel.querySelector("[data-seat='1'] .clock.running");
    expect(running?.textContent).toBe("0:10");
  });

  it("shows no clock for a game without one", () => {
    const view = create(ViewSchema, { handSizes: [7, 7], seats: [{ seat: 0 }, { seat: 1 }] });
    expect(seatsPanel(view, 0, false).querySelectorAll(".clock").length).toBe(0);
  });
});

describe("notation", () => {
  it("writes actions as the rules do", () => {
    const play = create(ActionSchema, { game: { case: "straight", value: { kind: StraightAction_Kind.PLAY, tile: tile(1, 3), arm: Arm.WEST, matched: 3 } } });
    expect(actionText(play)).toBe("1-3 west@3");
  });
});
