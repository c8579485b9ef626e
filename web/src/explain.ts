// "Why did my bot do that?" on the replay page: beside each decision of a bot the viewer owns,
// a button that runs the decision again on the server (BotService.ExplainDecision) and shows
// the view the bot was given, what it printed, what it chose, and the operations and time it
// used. Whether the viewer owns a bot is the server's answer: GetBot sends a bot's source only to
// its owner, so a seat whose bot comes back with its source is the viewer's.
import { bots, ownerHeaders, why } from "./api";
import { h } from "./dom";
import type { Event as GameEvent } from "./gen/clack/v1/events_pb";
import type { ExplainDecisionResponse } from "./gen/clack/v1/bot_service_pb";
import type { View } from "./gen/clack/v1/game_service_pb";

/** The seats of `view` played by bots the viewer owns (engine seats are nobody's). */
export async function ownBotSeats(view: View, signal: AbortSignal): Promise<Set<number>> {
  const mine = new Set<number>();
  for (const seat of view.seats) {
    const bot = seat.bot;
    if (!bot || bot.botId.startsWith("engine:")) continue;
    try {
      const got = await bots.getBot({ botId: bot.botId, version: bot.version }, { headers: ownerHeaders(), signal });
      if (got.source) mine.add(seat.seat);
    } catch {
      // A bot the server no longer knows is nobody's to explain.
    }
  }
  return mine;
}

/** The seat whose decision event `ev` records: a move or a bot's fault; none for other events. */
export function decisionSeat(ev: GameEvent | undefined): number | undefined {
  if (ev?.payload.case === "actionApplied") return ev.payload.value.seat;
  if (ev?.payload.case === "botFaulted") return ev.payload.value.seat;
  return undefined;
}

/** The answer in words and blocks: the choice against the record, the cost, the output, the view. */
export function explanation(e: ExplainDecisionResponse): HTMLElement {
  const chose = e.faultReason ? `failed: ${e.faultReason} (${e.faultDetail})` : `chose ${e.action} (view.legal[${e.choice ?? 0}])`;
  const recorded = e.recordedFault ? `the game recorded a fault: ${e.recordedFault}, and played ${e.recordedAction} in its place` : `the game recorded ${e.recordedAction}`;
  const cost = `${e.operations.toLocaleString("en")} of ${e.maxOperations.toLocaleString("en")} operations · ${(Number(e.micros) / 1000).toFixed(1)} ms (deadline ${e.deadlineMillis} ms)`;
  let view = e.viewJson;
  try {
    view = JSON.stringify(JSON.parse(e.viewJson), null, 2);
  } catch {
    // Shown as it came.
  }
  return h(
    "div",
    { class: "explain-result", "data-testid": "explain-result", "data-same": String(e.same) },
    h("p", { "data-testid": "explain-choice" }, `${e.botId}@${e.version}, run again: ${chose}; ${recorded}. `, h("b", { class: e.same ? "same" : "differs" }, e.same ? "Same as in the game." : "Not what the game recorded.")),
    h("p", { class: "muted", "data-testid": "explain-cost" }, cost),
    h("h4", {}, "What it printed"),
    h("pre", { class: "explain-output", "data-testid": "explain-output" }, e.output || "(nothing)"),
    h("details", {}, h("summary", {}, "The view it was given (JSON)"), h("pre", { class: "explain-view", "data-testid": "explain-view" }, view)),
  );
}

/** The button that runs decision `sequence` of `gameId` again, and the place its answer goes. */
export function explainBox(gameId: string, sequence: number, signal: AbortSignal): HTMLElement {
  const out = h("div", {});
  const button: HTMLButtonElement = h(
    "button",
    {
      "data-testid": "explain-button",
      onclick: async () => {
        button.disabled = true;
        try {
          const headers = { ...ownerHeaders(), "x-clack-game": gameId };
          const answer = await bots.explainDecision({ gameId, sequence: BigInt(sequence) }, { headers, signal });
          out.replaceChildren(explanation(answer));
        } catch (e) {
          if (!signal.aborted) out.replaceChildren(h("p", { class: "error" }, why(e)));
          button.disabled = false;
        }
      },
    },
    "Why did my bot do that?",
  );
  return h("div", { class: "explain", "data-seq": sequence }, button, " ", h("span", { class: "muted" }, "runs your bot again on exactly the view it saw"), out);
}
