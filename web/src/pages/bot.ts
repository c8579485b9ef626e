// One bot's page: its versions with their statistics, its rating over time on each ladder of its
// game (GetRatingHistory), its recent games with links to their replays (ListGames by bot), and
// the faults in them, each linked to the decision that caused it (the BotFaulted event).
import { bots, games, replay, why } from "../api";
import { ratingChart, type Series } from "../chart";
import { kindName, statusName } from "../describe";
import { fill, h, ready } from "../dom";
import { Code, ConnectError } from "@connectrpc/connect";
import type { BotSummary, RatingPoint } from "../gen/clack/v1/bot_service_pb";
import type { BotFaulted } from "../gen/clack/v1/events_pb";
import { GameStatus, type GameSummary } from "../gen/clack/v1/game_service_pb";
import { GameKind } from "../gen/clack/v1/types_pb";
import { CONFIGURATIONS } from "./ladder";

const RECENT = 10;

export function botPage(root: HTMLElement, botId: string, signal: AbortSignal): void {
  document.title = `${botId} · Clack`;
  const head = h("div", {});
  const versions = h("div", { "data-testid": "bot-versions" });
  const chart = h("div", { "data-testid": "bot-ratings" }, h("p", { class: "muted" }, "Loading…"));
  const recent = h("div", { "data-testid": "bot-games" }, h("p", { class: "muted" }, "Loading…"));
  const faults = h("div", { "data-testid": "bot-faults" });
  root.append(
    head,
    h("h2", {}, "Versions"),
    versions,
    h("h2", {}, "Rating on the ladder"),
    chart,
    h("h2", {}, "Recent games"),
    recent,
    h("h2", {}, "Faults in these games"),
    faults,
  );

  void (async () => {
    let bot: BotSummary | undefined;
    try {
      bot = (await bots.getBot({ botId }, { signal })).bot;
    } catch (e) {
      fill(head, h("h1", {}, botId), h("p", { class: "error" }, `Could not read bot ${botId}: ${why(e)}`));
      return;
    }
    if (!bot) return;
    fill(head, h("h1", {}, bot.name), summaryLine(bot));
    fill(versions, versionTable(bot));
    ready();
    await Promise.all([drawRatings(chart, bot, signal), drawGames(recent, faults, bot.botId, signal)]);
  })();
}

function summaryLine(bot: BotSummary): HTMLElement {
  const what = bot.remote ? `a remote bot (${bot.connected.length ? `connected: ${bot.connected.join(", ")}` : "not connected"})` : "a Rhai script";
  return h("p", { class: "muted" }, `${kindName(bot.kind)} · ${what} · owned by ${bot.owner}${bot.retired ? " · retired" : ""}`);
}

function versionTable(bot: BotSummary): HTMLElement {
  const rows = bot.versions.map((v) =>
    h(
      "tr",
      { "data-version": v.version, class: v.retired ? "retired" : "" },
      h("td", {}, h("code", { title: v.version }, v.version.slice(0, 10)), v.retired ? " (retired)" : ""),
      h("td", { class: "muted" }, new Date(Number(v.uploadedUnixMillis)).toLocaleString()),
      h("td", { class: "num" }, String(v.games)),
      h("td", { class: "num" }, v.games ? `${((100 * Number(v.wins)) / Number(v.games)).toFixed(0)}%` : "–"),
      h("td", { class: "num" }, String(v.faults)),
      h("td", { class: "num" }, v.meanDecisionMicros ? `${v.meanDecisionMicros.toFixed(0)} µs` : "–"),
    ),
  );
  return h(
    "table",
    { class: "games" },
    h("thead", {}, h("tr", {}, ...["Version", "Added", "Match games", "Wins", "Faults", "Decision"].map((t) => h("th", {}, t)))),
    h("tbody", {}, ...rows),
  );
}

/** The ladders a bot of `kind` can be on. */
function laddersOf(kind: GameKind): string[] {
  return CONFIGURATIONS.map(([name]) => name).filter((name) => (kind === GameKind.STREETS ? name.startsWith("streets") : name.startsWith("straight")));
}

async function drawRatings(el: HTMLElement, bot: BotSummary, signal: AbortSignal): Promise<void> {
  const series: Series[] = [];
  try {
    for (const configuration of laddersOf(bot.kind)) {
      for (const v of bot.versions) {
        const history = await ratingHistory(configuration, bot.botId, v.version, signal);
        const points = history.map((p) => ({ unixMillis: Number(p.unixMillis), rating: p.rating, ci95: p.ci95 }));
        if (points.length) series.push({ label: `${v.version.slice(0, 10)} on ${configuration}`, points });
      }
    }
  } catch (e) {
    fill(el, h("p", { class: "error" }, `Could not read its ratings: ${why(e)}`));
    return;
  }
  if (!series.length) return fill(el, h("p", { class: "muted" }, "No ladder deals yet (the ladder runs on servers started with --ladder)."));
  const last = series.map((x) => {
    const p = x.points[x.points.length - 1];
    return h("span", { class: "chip" }, `${x.label}: ${p.rating.toFixed(0)} ± ${p.ci95.toFixed(0)}`);
  });
  fill(el, ratingChart(series), h("p", {}, ...last, " ", h("a", { href: `/ladder/${laddersOf(bot.kind)[0]}` }, "the ladder")));
}

/** A version's ratings after each deal on one ladder: none if it has played no deal there. */
async function ratingHistory(configuration: string, botId: string, version: string, signal: AbortSignal): Promise<RatingPoint[]> {
  try {
    return (await bots.getRatingHistory({ configuration, botId, version }, { signal })).points;
  } catch (e) {
    if (e instanceof ConnectError && e.code === Code.NotFound) return [];
    throw e;
  }
}

async function drawGames(el: HTMLElement, faultsEl: HTMLElement, botId: string, signal: AbortSignal): Promise<void> {
  let list: GameSummary[];
  try {
    list = (await games.listGames({ botId, pageSize: RECENT }, { signal })).games;
  } catch (e) {
    fill(el, h("p", { class: "error" }, `Could not list its games: ${why(e)}`));
    return;
  }
  if (!list.length) {
    fill(el, h("p", { class: "muted" }, "No games yet."));
    fill(faultsEl, h("p", { class: "muted" }, "None."));
    return;
  }
  fill(el, gameTable(list, botId));
  const found: Array<{ game: string; sequence: bigint; fault: BotFaulted }> = [];
  for (const game of list.filter((g) => g.status === GameStatus.FINISHED)) {
    try {
      const log = await replay.getLog({ gameId: game.gameId }, { signal, headers: { "x-clack-game": game.gameId } });
      for (const event of log.events) {
        if (event.payload.case === "botFaulted" && event.payload.value.botId === botId) found.push({ game: game.gameId, sequence: event.sequence, fault: event.payload.value });
      }
    } catch {
      // A log that cannot be read is shown as such on its replay page.
    }
  }
  fill(
    faultsEl,
    found.length
      ? h(
          "ul",
          { class: "faults" },
          ...found.map(({ game, sequence, fault }) =>
            h(
              "li",
              { "data-game": game },
              h("a", { href: `/replay/${encodeURIComponent(game)}?at=${sequence}` }, `${game.slice(0, 12)} · event ${sequence}`),
              ` seat ${fault.seat}, ${fault.version.slice(0, 10)}: `,
              h("b", {}, fault.reason),
              ` ${fault.detail}`,
            ),
          ),
        )
      : h("p", { class: "muted" }, "None in its recent finished games."),
  );
}

function gameTable(list: GameSummary[], botId: string): HTMLElement {
  const rows = list.map((g) => {
    const href = g.status === GameStatus.FINISHED ? `/replay/${encodeURIComponent(g.gameId)}` : `/table/${encodeURIComponent(g.gameId)}`;
    const seats = g.seats.map((s) => {
      const won = g.winners.includes(s.seat);
      const name = s.bot?.botId ?? (s.name || `seat ${s.seat}`);
      return h("span", { class: `chip${s.bot?.botId === botId ? " bot" : ""}${won ? " winner" : ""}` }, name, won ? " ★" : "");
    });
    return h(
      "tr",
      { "data-game": g.gameId },
      h("td", { class: "muted" }, new Date(Number(g.createdUnixMillis)).toLocaleString()),
      h("td", {}, kindName(g.kind)),
      h("td", { class: "seat-chips" }, ...seats),
      h("td", {}, statusName(g.status)),
      h("td", {}, h("a", { href, class: "button small" }, g.status === GameStatus.FINISHED ? "Replay" : "Watch")),
    );
  });
  return h(
    "table",
    { class: "games" },
    h("thead", {}, h("tr", {}, ...["Created", "Game", "Seats (★ won)", "Status", ""].map((t) => h("th", {}, t)))),
    h("tbody", {}, ...rows),
  );
}
