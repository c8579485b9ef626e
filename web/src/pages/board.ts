// Pieces shared by the table and the replay: the board of either game, the seats with their
// scores and hand sizes, and hands (face up only where the viewer may see them).
import { GameStatus, type View } from "../gen/clack/v1/game_service_pb";
import type { Tile } from "../gen/clack/v1/types_pb";
import { h, s } from "../dom";
import { drawStraight } from "../draw/straight";
import { drawStreets, type Target } from "../draw/streets";
import { back, tileSvg, type Ghost } from "../draw/tile";
import { tileText } from "../describe";

export function seatName(view: View, seat: number): string {
  const summary = view.seats[seat];
  if (!summary) return `seat ${seat}`;
  if (summary.bot) return `${summary.bot.botId} (bot)`;
  return summary.name || (summary.taken ? `seat ${seat}` : `seat ${seat} (open)`);
}

/** Which side a seat scores for: with teams (four Straight players) seats 0/2 and 1/3 share. */
export function sideOf(view: View, seat: number): number {
  return view.scores.length < view.seats.length && view.scores.length > 0 ? seat % view.scores.length : seat;
}

/**
 * The board drawing; `legal` are the keys of the targets to highlight for a selected tile, and
 * `ghosts` moves drawn as see-through tiles (the replay's played and best moves).
 */
export function boardSvg(view: View, legal: ReadonlySet<string>, streetsTargets: Target[], ghosts: Ghost[] = []): SVGSVGElement | HTMLElement {
  if (view.board.case === "straight") return drawStraight(view.board.value, legal, ghosts);
  if (view.board.case === "streets") return drawStreets(view.board.value, streetsTargets, ghosts);
  return h("pre", {}, view.boardText);
}

/** The facts under the board: the count, the boneyard, blocks, discards. */
export function boardFacts(view: View): HTMLElement {
  const facts: Array<[string, string | number]> = [];
  if (view.board.case === "straight") {
    const b = view.board.value;
    facts.push(["open-end count", b.count], ["round", b.round], ["boneyard", view.boneyard], ["drawable", b.drawable]);
  } else if (view.board.case === "streets") {
    const b = view.board.value;
    facts.push(["blocks", b.blocks], ["boneyard", view.boneyard], ["discards", b.discards.length ? b.discards.map(tileText).join(" ") : "none"]);
  }
  return h("dl", { class: "facts" }, ...facts.flatMap(([k, v]) => [h("dt", {}, k), h("dd", { "data-fact": k }, String(v))]));
}

/** A row of tiles face up. */
export function handRow(tiles: Tile[], u = 26, cls: (t: Tile) => string = () => ""): HTMLElement {
  return h("div", { class: "tiles" }, ...tiles.map((t) => tileSvg(t.low, t.high, u, true, { cls: cls(t) })));
}

/** A row of face-down tiles: all anyone but their owner sees of a hand. */
export function backsRow(count: number, u = 14): HTMLElement {
  const shown = Math.min(count, 14);
  const svg = s("svg", { class: "backs", width: shown * (u + 3), height: 2 * u, viewBox: `0 0 ${shown * (u + 3)} ${2 * u}` });
  for (let i = 0; i < shown; i++) svg.append(back(i * (u + 3), 0, true, u));
  return h("div", { class: "tiles" }, svg, count > shown ? h("span", { class: "more" }, `+${count - shown}`) : null);
}

export function clockText(millis: number): string {
  const total = Math.max(0, Math.ceil(millis / 1000));
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, "0")}`;
}

/**
 * A seat's turn clock, where the view carries one (a game with a time control; bot seats have
 * none): the time left, counting down towards the deadline while the seat is to act.
 */
function clock(view: View, seat: number): HTMLElement | null {
  const mine = view.clocks.find((c) => c.seat === seat);
  if (!mine) return null;
  const deadline = view.toMove === seat && view.deadlineUnixMillis !== undefined ? Number(view.deadlineUnixMillis) : undefined;
  const left = deadline !== undefined ? deadline - Date.now() : Number(mine.remainingMillis);
  // A running clock carries its deadline; the table page counts it down.
  return h("span", { class: deadline !== undefined ? "clock running" : "clock", "data-deadline": deadline, "data-clock": seat, title: deadline !== undefined ? "time left for this move" : "time left" }, clockText(left));
}

const tilesText = (n: number): string => (n === 1 ? "1 tile" : `${n} tiles`);

/**
 * The viewer's own hand in the seats panel. While the game is played the table draws it below,
 * to play from, and the panel only points there; before and after, nothing is drawn below, so
 * the panel shows the tiles themselves (the viewer's own, face up).
 */
function ownHand(view: View, handSize: number): HTMLElement {
  if (view.status === GameStatus.ACTIVE) return h("span", { class: "muted" }, `${tilesText(handSize)} (below)`);
  if (view.hand.length) {
    const row = handRow(view.hand, 24);
    row.classList.add("own-hand");
    return row;
  }
  return h("span", { class: "muted" }, handSize ? tilesText(handSize) : "no tiles");
}

/** The seats: name, score, hand size, whose turn it is; `hands` (replay) shows every hand. */
export function seatsPanel(view: View, me: number | undefined, showHands: boolean): HTMLElement {
  const rows = view.seats.map((_, i) => {
    const handSize = view.handSizes[i] ?? 0;
    const everyHand = view.hands.find((hand) => hand.seat === i);
    const turn = view.toMove === i;
    const won = view.winners.includes(i);
    const cls = ["seat", turn ? "to-move" : "", i === me ? "me" : "", won ? "winner" : ""].join(" ").trim();
    let hand: HTMLElement;
    if (showHands && everyHand && everyHand.tiles.length) hand = handRow(everyHand.tiles, 24);
    else if (i === me) hand = ownHand(view, handSize);
    else hand = backsRow(handSize);
    return h(
      "div",
      { class: cls, "data-seat": i, "data-hand-seat": i },
      h(
        "div",
        { class: "seat-head" },
        h("span", { class: "seat-name" }, seatName(view, i), i === me ? h("span", { class: "you" }, "you") : null),
        turn ? h("span", { class: "turn" }, "to move") : null,
        won ? h("span", { class: "won" }, "winner") : null,
        clock(view, i),
      ),
      h(
        "div",
        { class: "seat-stats" },
        h("span", {}, "score ", h("b", { "data-score": i }, String(view.scores[sideOf(view, i)] ?? 0))),
        h("span", {}, "hand ", h("b", { "data-hand-size": i }, String(handSize))),
      ),
      hand,
    );
  });
  return h("div", { class: "seats" }, ...rows);
}
