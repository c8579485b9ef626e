// The engine's review of a finished game on the replay page: the progress while it is made, the
// evaluation chart over the game's events, the marks on poor decisions, the words for one
// decision, and the per-seat summary. Plain nodes like the board drawings; replay.ts places them.
import { h, s } from "./dom";
import type { Ghost } from "./draw/tile";
import { MoveLabel, type DecisionReview, type Estimate, type GameReview, type ReviewProgress } from "./gen/clack/v1/replay_service_pb";

/** The labels in the order SeatReview.labels counts them. */
export const LABELS = ["best", "good", "inaccuracy", "mistake", "blunder"] as const;

export function labelName(label: MoveLabel): string {
  return LABELS[label - MoveLabel.BEST] ?? "";
}

/** Labels worth a mark in the event list: the good and best moves need none. */
const MARKED = new Set<MoveLabel>([MoveLabel.INACCURACY, MoveLabel.MISTAKE, MoveLabel.BLUNDER]);

/** Half the width of a 95% interval: the review gives standard errors. */
const Z95 = 1.96;

const signed = (x: number): string => (x > 0 ? `+${x.toFixed(1)}` : x.toFixed(1));

/** `7.5 ± 4.1`: a mean and its 95% interval; `sign` puts a + on gains (luck, margins). */
export function estimateText(e: Estimate | undefined, sign = false): string {
  const mean = e?.mean ?? 0;
  return `${sign ? signed(mean) : mean.toFixed(1)} ± ${(Z95 * (e?.stderr ?? 0)).toFixed(1)}`;
}

/** The decisions of this game's own events (a fork's inherited ones have sequence 0), by event. */
export function decisionsBySequence(review: GameReview): Map<number, DecisionReview> {
  return new Map(review.decisions.filter((d) => d.sequence > 0n).map((d) => [Number(d.sequence), d]));
}

/** `played 5-3 east@5 · best 6-5 west@6 · loss 7.5 ± 4.1`. */
export function decisionText(d: DecisionReview): string {
  return `played ${d.played} · best ${d.best} · loss ${estimateText(d.loss)}`;
}

/** The loss in words, for a mark's title; near a match's end the loss in winning chances too. */
function lossTitle(d: DecisionReview): string {
  const points = `${labelName(d.label)}: loss ${estimateText(d.loss)} points (95%); best ${d.best}`;
  const chance = d.winLoss?.mean ?? 0;
  return chance !== 0 ? `${points}; ${(chance * 100).toFixed(0)}% less chance of winning` : points;
}

/** The mark on a poor decision in the event list; none for best and good moves. */
export function labelBadge(d: DecisionReview): HTMLElement | null {
  if (!MARKED.has(d.label)) return null;
  const name = labelName(d.label);
  return h("span", { class: `review-label label-${name}`, "data-label": name, title: lossTitle(d) }, name);
}

/** The decision at the scrubber, beside the board: what was played, the engine's best, the loss. */
export function decisionPanel(d: DecisionReview, name: (seat: number) => string): HTMLElement {
  const label = labelName(d.label);
  const facts = [`${name(d.seat)} to move`, `${d.choices} choices`, `expected margin ${estimateText(d.bestValue, true)}`];
  // Only Straight Dominoes reviews carry a winning chance; Streets leaves it at 0.
  if (d.win && (d.win.mean > 0 || d.win.stderr > 0)) facts.push(`win ${(d.win.mean * 100).toFixed(0)}%`);
  return h(
    "div",
    { class: "review-decision", "data-seq": Number(d.sequence) },
    h("p", { class: "review-words", "data-testid": "review-decision" }, decisionText(d)),
    h("p", { class: "muted review-facts" }, label ? h("span", { class: `review-label label-${label}`, "data-label": label }, label) : null, " ", facts.join(" · ")),
  );
}

/**
 * A placement in the action notation as a ghost: `3-5 east@5` (Straight, at an open end), `6-6`
 * (a lead), `3-5 a0:2` (Streets, at a spot). Draws, passes and discards place nothing: null.
 */
export function placement(text: string, kind: Ghost["kind"], title: string): Ghost | null {
  const m = /^(\d+)-(\d+)(?: (\S+))?$/.exec(text.trim());
  return m ? { key: m[3] ?? "lead", first: Number(m[1]), second: Number(m[2]), kind, title } : null;
}

/**
 * The ghosts of a decision where the engine preferred another move: the move played and the
 * engine's best, each where it goes on the board before the move. None when the move played was
 * the best: the board after it shows it.
 */
export function decisionGhosts(d: DecisionReview): Ghost[] {
  if (d.played === d.best) return [];
  const played = placement(d.played, "played", `played: ${d.played}`);
  const best = placement(d.best, "best", `the engine's best: ${d.best} (${labelName(d.label)}, loss ${estimateText(d.loss)})`);
  return [played, best].filter((g): g is Ghost => g !== null);
}

/** The progress of a review being made: a bar and "done of steps". */
export function progressView(p: ReviewProgress | undefined): HTMLElement {
  const done = p?.done ?? 0;
  const steps = p?.steps ?? 0;
  const words = steps ? `${done} of ${steps} steps judged` : "starting…";
  // A bar with no value is indeterminate: the right look before the first count arrives.
  return h("div", { class: "review-progress" }, h("progress", { "data-testid": "review-progress", max: Math.max(steps, 1), value: steps ? done : undefined }, words), " ", h("span", { class: "muted" }, words));
}

/** Per seat: decisions, points lost by play and won by luck (95%), decisions per label. */
export function seatsTable(review: GameReview, name: (seat: number) => string): HTMLTableElement {
  const head = h("tr", {}, h("th", {}, "seat"), h("th", {}, "decisions"), h("th", {}, "lost by play ± 95%"), h("th", {}, "won by luck ± 95%"), ...LABELS.map((l) => h("th", { class: `label-${l}` }, l)));
  const rows = review.seats.map((seat) =>
    h(
      "tr",
      { "data-seat": seat.seat },
      h("td", {}, name(seat.seat)),
      h("td", { class: "num" }, String(seat.decisions)),
      h("td", { class: "num", "data-loss": seat.seat }, estimateText(seat.loss)),
      h("td", { class: "num", "data-luck": seat.seat }, estimateText(seat.luck, true)),
      ...LABELS.map((l, i) => h("td", { class: "num", "data-count": l }, String(seat.labels[i] ?? 0))),
    ),
  );
  return h("table", { class: "games review-seats", "data-testid": "review-seats" }, h("thead", {}, head), h("tbody", {}, ...rows));
}

// The chart's frame, in its own units (the SVG scales to the page's width).
const W = 1000;
const H = 190;
const PAD = { left: 44, right: 12, top: 30, bottom: 20 };

/** Where event `seq` of `events` lies across the chart. */
function xOf(seq: number, events: number): number {
  return PAD.left + ((seq - 1) / Math.max(1, events - 1)) * (W - PAD.left - PAD.right);
}

/**
 * The evaluation over the game: at each decision, the mover's expected margin under the
 * engine's best play (best_value), placed by its event's sequence among the game's `events`.
 * Each seat gets its own line: the mover changes every turn, and one line through every mover
 * would jump between their points of view. Poor decisions are coloured by label; the current
 * event is a vertical marker; clicking a point calls `pick` with its event's sequence.
 */
export function reviewChart(review: GameReview, events: number, at: number, pick: (seq: number) => void, name: (seat: number) => string): SVGSVGElement {
  const points = [...decisionsBySequence(review).values()].sort((a, b) => Number(a.sequence - b.sequence));
  const values = points.map((d) => d.bestValue?.mean ?? 0);
  let top = Math.max(0, ...values);
  let bottom = Math.min(0, ...values);
  if (top === bottom) [top, bottom] = [1, -1];
  const room = (top - bottom) * 0.08;
  [top, bottom] = [top + room, bottom - room];
  const y = (v: number) => PAD.top + ((top - v) / (top - bottom)) * (H - PAD.top - PAD.bottom);
  const x = (seq: number) => xOf(seq, events);

  const svg = s("svg", { class: "review-chart", viewBox: `0 0 ${W} ${H}`, "data-testid": "review-chart", "data-events": events, role: "img", "aria-label": "the engine's evaluation of each decision" }) as SVGSVGElement;
  svg.append(
    s(
      "g",
      { class: "axes" },
      s("line", { class: "zero", x1: PAD.left, x2: W - PAD.right, y1: y(0), y2: y(0) }),
    s("text", { class: "axis", x: PAD.left - 6, y: y(0) + 4, "text-anchor": "end" }, "0"),
    top - room > 0 && s("text", { class: "axis", x: PAD.left - 6, y: y(top - room) + 4, "text-anchor": "end" }, signed(top - room)),
    bottom + room < 0 && s("text", { class: "axis", x: PAD.left - 6, y: y(bottom + room) + 4, "text-anchor": "end" }, signed(bottom + room)),
    s("text", { class: "axis", x: PAD.left, y: H - 4 }, "event 1"),
    s("text", { class: "axis", x: W - PAD.right, y: H - 4, "text-anchor": "end" }, `event ${events}`),
    ),
  );
  const seats = [...new Set(points.map((d) => d.seat))].sort((a, b) => a - b);
  for (const seat of seats) {
    const mine = points.filter((d) => d.seat === seat);
    svg.append(s("polyline", { class: `series seat-${seat}`, "data-seat": seat, points: mine.map((d) => `${x(Number(d.sequence))},${y(d.bestValue?.mean ?? 0)}`).join(" ") }));
  }
  // The legend runs along the top, above every point.
  seats.forEach((seat, i) => svg.append(s("text", { class: `legend seat-${seat}`, x: PAD.left + 200 * i, y: 14 }, `— ${name(seat)}`)));
  svg.append(s("line", { class: "marker", x1: x(at), x2: x(at), y1: PAD.top - 6, y2: H - PAD.bottom + 4, "data-at": at }));
  for (const d of points) {
    const seq = Number(d.sequence);
    const label = labelName(d.label);
    // The visible dot is small; a wider clear circle around it takes the click.
    svg.append(
      s(
        "g",
        { class: `point seat-${d.seat} label-${label}${seq === at ? " current" : ""}`, "data-seq": seq, "data-seat": d.seat, "data-label": label, onclick: () => pick(seq) },
        s("circle", { class: "hit", cx: x(seq), cy: y(d.bestValue?.mean ?? 0), r: 9 }),
        s("circle", { class: "dot", cx: x(seq), cy: y(d.bestValue?.mean ?? 0), r: MARKED.has(d.label) ? 5 : 3.5 }),
        s("title", {}, `event ${seq} · ${name(d.seat)}: ${decisionText(d)} · expected margin ${estimateText(d.bestValue, true)} (${label})`),
      ),
    );
  }
  if (!points.length) svg.append(s("text", { class: "axis empty", x: W / 2, y: H / 2, "text-anchor": "middle" }, "no decision had more than one choice"));
  return svg;
}

/** Moves the chart's marker to event `at` and marks the point there, without redrawing. */
export function markChart(svg: SVGSVGElement, at: number): void {
  const x = xOf(at, Number(svg.getAttribute("data-events")));
  const marker = svg.querySelector(".marker");
  marker?.setAttribute("x1", String(x));
  marker?.setAttribute("x2", String(x));
  marker?.setAttribute("data-at", String(at));
  for (const p of svg.querySelectorAll(".point")) p.classList.toggle("current", Number(p.getAttribute("data-seq")) === at);
}
