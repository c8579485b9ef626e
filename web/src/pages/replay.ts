// The replay of a finished game: a scrubber and step buttons over GetStateAt, every hand shown,
// the event list beside the board, and a link to each event (`/replay/<id>?at=<sequence>`).
// The engine's review of the game (drawn by ../review) over the same scrubber: shown at once if
// the server keeps one, else on request; at a decision where the engine preferred another
// placement, the board is the position before the move with both moves drawn as ghosts. Beside
// each decision of a bot the viewer owns, ../explain runs that decision again.
import { about, replay, why } from "../api";
import { eventText, kindName } from "../describe";
import { fill, h, ready } from "../dom";
import type { Event as GameEvent } from "../gen/clack/v1/events_pb";
import type { View } from "../gen/clack/v1/game_service_pb";
import type { DecisionReview, GameReview } from "../gen/clack/v1/replay_service_pb";
import { decisionGhosts, decisionPanel, decisionsBySequence, labelBadge, markChart, progressView, reviewChart, seatsTable } from "../review";
import type { Ghost } from "../draw/tile";
import { decisionSeat, explainBox, ownBotSeats } from "../explain";
import { boardFacts, boardSvg, seatName, seatsPanel } from "./board";

export function replayPage(root: HTMLElement, gameId: string, signal: AbortSignal): void {
  document.title = `Replay ${gameId} · Clack`;
  const head = h("div", { class: "table-head" }, h("h1", {}, "Replay"), h("p", { class: "muted" }, "Loading…"));
  const controls = h("div", { class: "scrub" });
  const board = h("div", { class: "board-wrap", "data-testid": "board" });
  const facts = h("div", {});
  const seats = h("div", { class: "seats-wrap" });
  const list = h("ol", { class: "events replay-events", "data-testid": "events" });
  const reviewBox = h("section", { class: "review", "data-testid": "review" });
  const decision = h("div", { class: "review-at" });
  const boardNote = h("div", {});
  const summary = h("div", { class: "review-summary" });
  root.append(head, controls, reviewBox, h("div", { class: "table-layout" }, h("section", { class: "table-main" }, boardNote, board, decision, facts, summary), h("aside", { class: "table-side" }, seats, h("h3", {}, "Events"), list)));

  let events: GameEvent[] = [];
  let at = 1;
  let shown: View | undefined;
  let ticket = 0;
  // The review, once asked for: its decisions by event, and its chart to move the marker on.
  let judged = new Map<number, DecisionReview>();
  let chart: SVGSVGElement | undefined;
  // The seats played by the viewer's own bots: their decisions can be run again.
  let mine = new Set<number>();
  const name = (seat: number) => (shown ? seatName(shown, seat) : `seat ${seat}`);
  const slider = h("input", { type: "range", min: 1, max: 1, value: 1, "aria-label": "event", "data-testid": "scrubber" });
  const label = h("span", { class: "at", "data-testid": "at" });

  async function show(sequence: number, push = true): Promise<void> {
    at = Math.max(1, Math.min(events.length, sequence));
    slider.value = String(at);
    label.textContent = `event ${at} of ${events.length}`;
    if (push) history.replaceState(null, "", `/replay/${encodeURIComponent(gameId)}?at=${at}`);
    for (const li of list.children) li.classList.toggle("current", Number((li as HTMLElement).dataset.seq) === at);
    list.querySelector(".current")?.scrollIntoView({ block: "nearest" });
    if (chart) markChart(chart, at);
    showDecision();
    // At a reviewed decision where the engine preferred another placement, the board is the one
    // the mover faced, with the move played and the engine's best drawn on it.
    const decided = judged.get(at);
    const ghosts = decided ? decisionGhosts(decided) : [];
    // Only the answer to the latest request is drawn, however fast the scrubber moves.
    const mine = ++ticket;
    try {
      const sequence = ghosts.length ? at - 1 : at;
      const reply = await replay.getStateAt({ gameId, sequence: BigInt(sequence) }, about(gameId, undefined, signal));
      if (mine !== ticket || !reply.view) return;
      shown = reply.view;
      draw(shown, ghosts);
    } catch (e) {
      if (!signal.aborted) fill(board, h("p", { class: "error" }, why(e)));
    }
  }

  function draw(v: View, ghosts: Ghost[]): void {
    const legend = ghosts.length
      ? h("p", { class: "ghost-legend muted", "data-testid": "ghost-legend" }, "The board before the move: ", h("span", { class: "ghost-played" }, "played"), " and ", h("span", { class: "ghost-best" }, "the engine's best"), ".")
      : null;
    fill(boardNote, legend);
    fill(board, boardSvg(v, new Set(), [], ghosts));
    board.dataset.ghosts = String(ghosts.length);
    fill(facts, boardFacts(v));
    fill(seats, seatsPanel(v, undefined, true));
    document.body.dataset.replayAt = String(at);
    ready();
  }

  function showDecision(): void {
    const d = judged.get(at);
    const seat = decisionSeat(events[at - 1]);
    const explain = seat !== undefined && mine.has(seat) ? explainBox(gameId, at, signal) : null;
    fill(decision, d ? decisionPanel(d, name) : null, explain);
  }

  /** Shows the review the server keeps, if it has one; none (or no answer) leaves the button. */
  async function keptReview(): Promise<void> {
    try {
      for await (const reply of replay.reviewGame({ gameId, level: "default", keptOnly: true }, about(gameId, undefined, signal))) {
        if (reply.body.case === "review") return showReview(reply.body.value);
      }
    } catch {
      // NOT_FOUND: the game has not been reviewed yet, and the button asks for it.
    }
  }

  /** Asks for the review at `level` and shows its progress, then the review; a kept one comes at once. */
  async function runReview(button: HTMLButtonElement, level: string): Promise<void> {
    button.disabled = true;
    const status = h("div", {}, progressView(undefined));
    fill(reviewBox, button, status);
    try {
      for await (const reply of replay.reviewGame({ gameId, level }, about(gameId, undefined, signal))) {
        if (reply.body.case === "progress") fill(status, progressView(reply.body.value));
        if (reply.body.case === "review") return showReview(reply.body.value);
      }
      throw new Error("the review ended without a result");
    } catch (e) {
      if (signal.aborted) return;
      fill(status, h("p", { class: "error" }, why(e)));
      button.disabled = false;
    }
  }

  function showReview(review: GameReview): void {
    judged = decisionsBySequence(review);
    chart = reviewChart(review, events.length, at, (seq) => void show(seq), name);
    fill(reviewBox, h("h3", {}, `Review by the engine (${review.level || "default"} level, version ${review.engineVersion})`), chart);
    fill(summary, h("h3", {}, "Review by seat"), seatsTable(review, name));
    for (const li of list.children) {
      const d = judged.get(Number((li as HTMLElement).dataset.seq));
      const badge = d && labelBadge(d);
      if (badge) li.querySelector("a")?.append(" ", badge);
    }
    // The board at the scrubber gains the ghosts of its decision, if it is one.
    void show(at, false);
    document.body.dataset.review = "shown";
  }

  const step = (label: string, to: () => number, test: string) => h("button", { onclick: () => void show(to()), "data-step": test, title: test }, label);

  async function load(): Promise<void> {
    try {
      events = (await replay.getLog({ gameId }, about(gameId, undefined, signal))).events;
    } catch (e) {
      fill(head, h("h1", {}, "Replay"), h("p", { class: "error" }, `${why(e)}`), h("p", {}, h("a", { href: `/table/${encodeURIComponent(gameId)}` }, "Go to the table")));
      return;
    }
    const created = events[0]?.payload.case === "gameCreated" ? events[0].payload.value : undefined;
    fill(head, h("h1", {}, `Replay: ${created ? kindName(created.kind) : "game"}`), h("p", { class: "muted" }, `game ${gameId} · ${events.length} events · `, h("a", { href: `/table/${encodeURIComponent(gameId)}` }, "the table")));
    slider.max = String(events.length);
    slider.addEventListener("input", () => void show(Number(slider.value)));
    fill(controls, step("« First", () => 1, "first"), step("‹ Back", () => at - 1, "previous"), slider, step("Next ›", () => at + 1, "next"), step("Last »", () => events.length, "last"), label);
    fill(
      list,
      ...events.map((ev) => {
        const seq = Number(ev.sequence);
        return h("li", { "data-seq": seq }, h("a", { href: `/replay/${encodeURIComponent(gameId)}?at=${seq}`, onclick: (e: Event) => (e.preventDefault(), void show(seq)) }, h("span", { class: "seq" }, String(seq)), " ", h("span", { class: "text" }, eventText(ev, name))));
      }),
    );
    const wanted = Number(new URLSearchParams(location.search).get("at") ?? events.length);
    // Only an ended game has a log to replay (GetLog refuses others), so every replay offers it.
    // The judge spends sixteen times the default's worlds a decision: it audits the other levels.
    const level = h(
      "select",
      { "data-testid": "review-level", "aria-label": "Review level" },
      h("option", { value: "default" }, "default level"),
      h("option", { value: "strong" }, "strong level"),
      h("option", { value: "judge" }, "judge (16× the default's work)"),
    );
    const ask: HTMLButtonElement = h("button", { "data-testid": "review-button", onclick: () => void runReview(ask, level.value) }, "Review this game");
    fill(reviewBox, level, " ", ask, " ", h("span", { class: "muted" }, "The engine judges every decision and weighs every deal and draw; the first time takes a while."));
    await show(Number.isFinite(wanted) ? wanted : events.length, false);
    if (shown) mine = await ownBotSeats(shown, signal);
    showDecision();
    await keptReview();
    // Names come with the first view; the list is worded again with them.
    for (const li of list.children) {
      const seq = Number((li as HTMLElement).dataset.seq);
      const text = li.querySelector(".text");
      if (text) text.textContent = eventText(events[seq - 1], name);
    }
  }

  // The arrow keys step through the game from anywhere on the page, except from a field being
  // typed in, and from the scrubber itself: a focused slider steps on its own, and its `input`
  // event shows the event, so stepping here as well would move two events a press. With a
  // modifier the key is the browser's (Alt+← goes back).
  const keys = (e: KeyboardEvent) => {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.shiftKey) return;
    if (e.target === slider || (e.target as Element).closest?.("input, textarea, select")) return;
    if (e.key === "ArrowRight") void show(at + 1);
    if (e.key === "ArrowLeft") void show(at - 1);
  };
  document.addEventListener("keydown", keys);
  signal.addEventListener("abort", () => document.removeEventListener("keydown", keys));
  void load();
}
