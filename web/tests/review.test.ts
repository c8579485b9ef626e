// Component tests of the review's drawing and words: a hand-made review gives the expected
// chart, marks, decision text and per-seat summary.
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { EstimateSchema, GameReviewSchema, MoveLabel, ReviewProgressSchema } from "../src/gen/clack/v1/replay_service_pb";
import { decisionGhosts, decisionPanel, decisionText, placement, decisionsBySequence, estimateText, labelBadge, markChart, progressView, reviewChart, seatsTable } from "../src/review";

const est = (mean: number, stderr: number) => ({ mean, stderr });
const name = (seat: number) => ["ada", "bob"][seat] ?? `seat ${seat}`;

// Four decisions over a 20-event game: two each, one a mistake, one a blunder; one inherited
// from a fork's parent (sequence 0), which has no event here.
const review = create(GameReviewSchema, {
  gameId: "g1",
  level: "default",
  engineVersion: "0.1.0",
  decisions: [
    { sequence: 0n, seat: 1, played: "1-1", best: "1-1", bestValue: est(1, 0.5), loss: est(0, 0), label: MoveLabel.BEST, choices: 2 },
    { sequence: 5n, seat: 0, played: "5-3 east@5", best: "6-5 west@6", bestValue: est(4, 1), loss: est(7.5, 1.07), winLoss: est(0, 0), win: est(0.62, 0.01), label: MoveLabel.MISTAKE, choices: 3 },
    { sequence: 7n, seat: 1, played: "2-4 west@4", best: "2-4 west@4", bestValue: est(-3, 1), loss: est(0, 0), label: MoveLabel.BEST, choices: 2 },
    { sequence: 9n, seat: 0, played: "draw", best: "3-3 north@3", bestValue: est(10, 2), loss: est(20, 3), winLoss: est(0.12, 0.02), label: MoveLabel.BLUNDER, choices: 4 },
    { sequence: 12n, seat: 1, played: "4-6 east@6", best: "0-6 east@6", bestValue: est(-6, 1), loss: est(1, 0.5), label: MoveLabel.GOOD, choices: 2 },
  ],
  chances: [{ sequence: 3n, seat: 0, kind: "deal", luck: est(2, 1) }],
  seats: [
    { seat: 0, decisions: 2, loss: est(27.5, 3.2), luck: est(2, 1), labels: [0, 0, 0, 1, 1] },
    { seat: 1, decisions: 3, loss: est(1, 0.5), luck: est(-2, 1), labels: [2, 1, 0, 0, 0] },
  ],
});

describe("review words", () => {
  it("writes an estimate as a mean and its 95% interval", () => {
    const e = (mean: number, stderr: number) => create(EstimateSchema, est(mean, stderr));
    expect(estimateText(e(7.5, 1.07))).toBe("7.5 ± 2.1");
    expect(estimateText(e(2, 1), true)).toBe("+2.0 ± 2.0");
    expect(estimateText(e(-2, 1), true)).toBe("-2.0 ± 2.0");
    expect(estimateText(undefined)).toBe("0.0 ± 0.0");
  });

  it("says what was played, the engine's best and the loss", () => {
    expect(decisionText(review.decisions[1])).toBe("played 5-3 east@5 · best 6-5 west@6 · loss 7.5 ± 2.1");
    const panel = decisionPanel(review.decisions[1], name);
    expect(panel.querySelector("[data-testid=review-decision]")?.textContent).toBe("played 5-3 east@5 · best 6-5 west@6 · loss 7.5 ± 2.1");
    expect(panel.textContent).toContain("ada to move");
    expect(panel.textContent).toContain("win 62%");
    expect(panel.querySelector("[data-label]")?.getAttribute("data-label")).toBe("mistake");
  });

  it("marks inaccuracies, mistakes and blunders only, the loss in the title", () => {
    const [, mistake, best, blunder, good] = review.decisions;
    expect(labelBadge(best)).toBeNull();
    expect(labelBadge(good)).toBeNull();
    const m = labelBadge(mistake)!;
    expect(m.className).toBe("review-label label-mistake");
    expect(m.dataset.label).toBe("mistake");
    expect(m.title).toContain("loss 7.5 ± 2.1");
    const b = labelBadge(blunder)!;
    expect(b.dataset.label).toBe("blunder");
    expect(b.title).toContain("12% less chance of winning");
  });

  it("keeps only the decisions of this game's own events", () => {
    expect([...decisionsBySequence(review).keys()]).toEqual([5, 7, 9, 12]);
  });

  it("shows the progress as done of steps", () => {
    const bar = progressView(create(ReviewProgressSchema, { done: 16, steps: 40 }));
    const progress = bar.querySelector("progress[data-testid=review-progress]")!;
    expect(progress.getAttribute("value")).toBe("16");
    expect(progress.getAttribute("max")).toBe("40");
    expect(bar.textContent).toContain("16 of 40");
    expect(progressView(undefined).querySelector("progress")?.hasAttribute("value")).toBe(false);
  });
});

describe("the played and best moves on the board", () => {
  it("reads a placement from the notation, and nothing from a draw, a pass or a discard", () => {
    expect(placement("5-3 east@5", "played", "t")).toEqual({ key: "east@5", first: 5, second: 3, kind: "played", title: "t" });
    expect(placement("6-6", "best", "t")).toEqual({ key: "lead", first: 6, second: 6, kind: "best", title: "t" });
    expect(placement("3-5 a0:-2", "best", "t")?.key).toBe("a0:-2");
    for (const other of ["draw", "pass", "discard 4-4"]) expect(placement(other, "best", "t")).toBeNull();
  });

  it("draws both moves of a decision the engine would have played otherwise, none of a best one", () => {
    const [, mistake, best, blunder] = review.decisions;
    expect(decisionGhosts(mistake).map((g) => [g.kind, g.key])).toEqual([["played", "east@5"], ["best", "west@6"]]);
    expect(decisionGhosts(mistake)[1].title).toBe("the engine's best: 6-5 west@6 (mistake, loss 7.5 ± 2.1)");
    expect(decisionGhosts(best)).toEqual([]);
    // A draw places nothing: only the engine's best is drawn.
    expect(decisionGhosts(blunder).map((g) => g.kind)).toEqual(["best"]);
  });
});

describe("review chart", () => {
  const y = (svg: Element, seq: number) => Number(svg.querySelector(`.point[data-seq='${seq}'] .dot`)!.getAttribute("cy"));
  const x = (svg: Element, seq: number) => Number(svg.querySelector(`.point[data-seq='${seq}'] .dot`)!.getAttribute("cx"));

  it("puts one point per decision by its event, higher for a better margin, a line per seat", () => {
    const svg = reviewChart(review, 20, 9, () => {}, name);
    expect(svg.getAttribute("data-testid")).toBe("review-chart");
    expect([...svg.querySelectorAll(".point")].map((p) => p.getAttribute("data-seq"))).toEqual(["5", "7", "9", "12"]);
    expect(x(svg, 5)).toBeLessThan(x(svg, 7));
    expect(x(svg, 9)).toBeLessThan(x(svg, 12));
    expect(y(svg, 9)).toBeLessThan(y(svg, 5)); // +10 above +4
    expect(y(svg, 5)).toBeLessThan(y(svg, 12)); // +4 above -6
    const zero = Number(svg.querySelector(".zero")!.getAttribute("y1"));
    expect(y(svg, 7)).toBeGreaterThan(zero);
    expect(svg.querySelectorAll("polyline.series").length).toBe(2);
    expect(svg.querySelector("polyline.seat-0")?.getAttribute("points")?.split(" ").length).toBe(2);
    expect(svg.querySelector(".point[data-seq='9']")?.classList.contains("label-blunder")).toBe(true);
    expect(svg.textContent).toContain("ada");
  });

  it("marks the current event and moves the mark with the scrubber", () => {
    const svg = reviewChart(review, 20, 9, () => {}, name);
    const marker = svg.querySelector(".marker")!;
    expect(Number(marker.getAttribute("x1"))).toBe(x(svg, 9));
    expect(svg.querySelector(".point.current")?.getAttribute("data-seq")).toBe("9");
    markChart(svg, 12);
    expect(Number(marker.getAttribute("x1"))).toBe(x(svg, 12));
    expect(svg.querySelector(".point.current")?.getAttribute("data-seq")).toBe("12");
    markChart(svg, 13);
    expect(svg.querySelector(".point.current")).toBeNull();
  });

  it("jumps to a point's event when it is clicked", () => {
    const picked: number[] = [];
    const svg = reviewChart(review, 20, 1, (seq) => picked.push(seq), name);
    svg.querySelector(".point[data-seq='7']")!.dispatchEvent(new MouseEvent("click", { bubbles: true }));
    expect(picked).toEqual([7]);
  });

  it("draws a game without decisions", () => {
    const svg = reviewChart(create(GameReviewSchema, {}), 10, 1, () => {}, name);
    expect(svg.querySelectorAll(".point").length).toBe(0);
    expect(svg.textContent).toContain("no decision");
  });
});

describe("review by seat", () => {
  it("gives per seat the decisions, loss and luck with 95% intervals, and the labels", () => {
    const table = seatsTable(review, name);
    expect(table.getAttribute("data-testid")).toBe("review-seats");
    const row = (seat: number) => [...table.querySelectorAll(`tr[data-seat='${seat}'] td`)].map((td) => td.textContent);
    expect(row(0)).toEqual(["ada", "2", "27.5 ± 6.3", "+2.0 ± 2.0", "0", "0", "0", "1", "1"]);
    expect(row(1)).toEqual(["bob", "3", "1.0 ± 1.0", "-2.0 ± 2.0", "2", "1", "0", "0", "0"]);
    expect([...table.querySelectorAll("th")].map((th) => th.textContent)).toContain("blunder");
  });
});

describe("review chart axes", () => {
  it("labels zero and the extremes, and no extreme on the wrong side of zero", () => {
    const losing = create(GameReviewSchema, { decisions: [{ sequence: 2n, seat: 0, bestValue: est(-4, 1), label: MoveLabel.BEST }] });
    const labels = [...reviewChart(losing, 5, 1, () => {}, name).querySelectorAll(".axis")].map((t) => t.textContent);
    expect(labels).toEqual(["0", "-4.0", "event 1", "event 5"]);
  });
});
