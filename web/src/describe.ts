// Words for what happened: actions in the rules' text notation and events as one line each.
import type { Event } from "./gen/clack/v1/events_pb";
import { GameStatus } from "./gen/clack/v1/game_service_pb";
import { Arm, GameKind, StraightAction_Kind, StreetsAction_Kind, type Action, type Tile } from "./gen/clack/v1/types_pb";
import { spotKey } from "./draw/streets";

export const tileText = (t: Tile | undefined): string => (t ? `${t.low}-${t.high}` : "?");

export const kindName = (k: GameKind): string => (k === GameKind.STRAIGHT ? "Straight Dominoes" : k === GameKind.STREETS ? "Streets and Avenues" : "?");

export const statusName = (s: GameStatus): string => (s === GameStatus.WAITING ? "waiting" : s === GameStatus.ACTIVE ? "playing" : s === GameStatus.FINISHED ? "finished" : "?");

/** An action as the rules' notation writes it: `3-5`, `1-3 west@3`, `draw`, `3-5 a0:2`. */
export function actionText(action: Action | undefined): string {
  const game = action?.game;
  if (game?.case === "straight") {
    const a = game.value;
    switch (a.kind) {
      case StraightAction_Kind.LEAD:
        return tileText(a.tile);
      case StraightAction_Kind.PLAY:
        return `${tileText(a.tile)} ${Arm[a.arm].toLowerCase()}@${a.matched ?? "?"}`;
      case StraightAction_Kind.DRAW:
        return "draw";
      case StraightAction_Kind.PASS:
        return "pass";
    }
  }
  if (game?.case === "streets") {
    const a = game.value;
    switch (a.kind) {
      case StreetsAction_Kind.PLACE:
        return `${tileText(a.tile)} ${spotKey(a.spot)}${a.first !== undefined ? ` (${a.first} ${a.spot?.at.case === "street" ? "west" : "north"})` : ""}`;
      case StreetsAction_Kind.DISCARD:
        return `discard ${tileText(a.tile)}`;
      case StreetsAction_Kind.PASS:
        return "pass";
    }
  }
  return "?";
}

/** One event as a line of text; `name` names a seat. */
export function eventText(event: Event, name: (seat: number) => string): string {
  const p = event.payload;
  switch (p.case) {
    case "gameCreated":
      return `${kindName(p.value.kind)} created, ${p.value.seats.length} seats`;
    case "seatJoined":
      return `${p.value.name || "someone"} took seat ${p.value.seat}`;
    case "leadDrawn":
      return `tiles drawn for the lead: ${p.value.tiles.map(tileText).join(", ")}; ${name(p.value.leader)} leads`;
    case "dealt":
      return `round ${p.value.round} dealt${p.value.first !== undefined ? `; ${name(p.value.first)} plays first` : ""}`;
    case "tileDrawn":
      return `${name(p.value.seat)} drew ${p.value.tile ? tileText(p.value.tile) : "a tile"}`;
    case "actionApplied":
      return `${name(p.value.seat)}: ${actionText(p.value.action)}${p.value.points ? ` (+${p.value.points})` : ""}`;
    case "botFaulted":
      return `${name(p.value.seat)}'s bot failed (${p.value.reason}); a fallback was played`;
    case "roundEnded":
      return `round ${p.value.round} over${p.value.winner !== undefined ? `: ${name(p.value.winner)} wins ${p.value.points}` : ""}; scores ${p.value.scores.join(" – ")}`;
    case "seatResigned":
      return `${name(p.value.seat)} resigned`;
    case "gameEnded":
      return `game over (${p.value.reason.replace("_", " ")})${p.value.winners.length ? `: ${p.value.winners.map(name).join(" and ")} won` : ""}; scores ${p.value.scores.join(" – ")}`;
    case "gameAbandoned":
      return `game abandoned (${p.value.reason.replace("_", " ")})`;
    default:
      return "?";
  }
}

/** Clack's own engine players, seated like bots by these ids (either game, no upload). */
export const ENGINES: [string, string][] = [
  ["engine:fast", "engine: fast"],
  ["engine:default", "engine: default"],
  ["engine:strong", "engine: strong"],
];
