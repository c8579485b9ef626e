// The bot library: every bot with its versions, ratings and statistics; the project's example
// bots to add in one click; an upload form; a match between bots (RunMatch), whose games are
// stored and listed with a link to each one's replay, and a game between bots to watch live
// (CreateGame with every seat a bot, paced so that a person can follow it).
import { bots, keepOwnerToken, ownerHeaders, why } from "../api";
import { ENGINES, kindName } from "../describe";
import { fill, h, ready } from "../dom";
import type { BotSummary, RunMatchResponse } from "../gen/clack/v1/bot_service_pb";
import { GameKind } from "../gen/clack/v1/types_pb";
import { games } from "../api";
import { go } from "../nav";

// The example bots of bots/, bundled at build time.
const examples = import.meta.glob("../../../bots/*.rhai", { query: "?raw", import: "default", eager: true }) as Record<string, string>;

function exampleBots(): Array<{ name: string; kind: GameKind; source: string }> {
  return Object.entries(examples).map(([path, source]) => {
    const name = path.split("/").pop()!.replace(/\.rhai$/, "");
    return { name, kind: name.startsWith("streets") ? GameKind.STREETS : GameKind.STRAIGHT, source };
  });
}

export function botsPage(root: HTMLElement, signal: AbortSignal): void {
  document.title = "Bots · Clack";
  const table = h("div", { "data-testid": "bots" });
  const note = h("p", { class: "message" });
  const matchBox = h("div", {});
  let library: BotSummary[] = [];

  async function load(): Promise<void> {
    try {
      library = (await bots.listBots({}, { signal })).bots;
    } catch (e) {
      fill(table, h("p", { class: "error" }, `Could not list bots: ${why(e)}`));
      return;
    }
    fill(table, library.length ? botTable(library) : h("p", { class: "muted" }, "The library is empty."));
    fill(matchBox, matchForm(library, signal, refreshTable));
    document.body.dataset.bots = String(library.length);
    ready();
  }

  /** The library's table again (ratings and statistics after a match), leaving the match's report in place. */
  async function refreshTable(): Promise<void> {
    try {
      library = (await bots.listBots({}, { signal })).bots;
      fill(table, library.length ? botTable(library) : h("p", { class: "muted" }, "The library is empty."));
    } catch {
      // The table stays as it was; the next visit lists the bots again.
    }
  }

  async function addExamples(): Promise<void> {
    note.textContent = "Uploading…";
    const done: string[] = [];
    for (const bot of exampleBots()) {
      try {
        const reply = await bots.uploadBot(bot, { signal, headers: ownerHeaders() });
        keepOwnerToken(reply.ownerToken);
        done.push(bot.name);
      } catch (e) {
        note.textContent = `${bot.name}: ${why(e)}`;
        await load();
        return;
      }
    }
    note.textContent = `Added ${done.join(", ")}.`;
    await load();
  }

  const upload = uploadForm(async () => load(), signal);
  root.append(
    h("h1", {}, "Bots"),
    h(
      "p",
      { class: "muted" },
      "Bots are Rhai scripts that take seats as players (",
      h("a", { href: "/bots/guide" }, "how to write one"),
      "). Ratings move with every match game. ",
      h("button", { onclick: () => void addExamples(), "data-testid": "add-examples" }, `Add the ${exampleBots().length} example bots`),
    ),
    note,
    table,
    h("div", { class: "two" }, h("section", {}, h("h2", {}, "Match"), matchBox), h("section", {}, h("h2", {}, "Upload a bot"), upload)),
  );
  void load();
}

function botTable(list: BotSummary[]): HTMLElement {
  const rows = list.flatMap((bot) =>
    bot.versions.map((v, i) =>
      h(
        "tr",
        { "data-bot": bot.botId, class: v.retired ? "retired" : "" },
        i === 0 ? h("td", { rowspan: bot.versions.length }, h("a", { href: `/bots/${encodeURIComponent(bot.botId)}` }, h("b", {}, bot.name)), h("br"), h("small", { class: "muted" }, `${kindName(bot.kind)} · ${bot.owner}${bot.remote ? " · remote" : ""}`)) : null,
        h("td", {}, h("code", { title: v.version }, v.version.slice(0, 10)), v.retired ? " (retired)" : ""),
        h("td", { class: "num" }, v.rating.toFixed(0)),
        h("td", { class: "num" }, String(v.games)),
        h("td", { class: "num" }, v.games ? `${((100 * Number(v.wins)) / Number(v.games)).toFixed(0)}%` : "–"),
        h("td", { class: "num" }, String(v.faults)),
        h("td", { class: "num" }, v.meanDecisionMicros ? `${v.meanDecisionMicros.toFixed(0)} µs` : "–"),
        h("td", { class: "muted" }, new Date(Number(v.uploadedUnixMillis)).toLocaleDateString()),
      ),
    ),
  );
  return h(
    "table",
    { class: "games bots" },
    h("thead", {}, h("tr", {}, ...["Bot", "Version", "Rating", "Games", "Wins", "Faults", "Decision", "Uploaded"].map((t) => h("th", {}, t)))),
    h("tbody", {}, ...rows),
  );
}

/** The least time between two bot moves in a game made to be watched (`GameOptions.bot_pace_millis`). */
const WATCH_PACE_MILLIS = 800;

function matchForm(library: BotSummary[], signal: AbortSignal, played: () => Promise<void>): HTMLElement {
  const kind = h("select", {}, h("option", { value: "1" }, "Straight Dominoes"), h("option", { value: "2" }, "Streets and Avenues"));
  const players = h("select", {}, ...[2, 3, 4].map((n) => h("option", { value: n }, `${n} players`)));
  const count = h("input", { type: "number", min: 1, max: 200, value: 10, "data-testid": "match-games" });
  const target = h("input", { type: "number", min: 5, max: 1000, placeholder: "250", "data-testid": "match-target", title: "Straight Dominoes: the score that ends a game" });
  const targetBox = h("label", {}, "to ", target, " points");
  const seats = h("div", { class: "seat-specs" });
  const out = h("div", { "data-testid": "match-result" });
  function drawSeats(): void {
    const mine = library.filter((b) => b.kind === Number(kind.value) && !b.retired);
    fill(
      seats,
      ...Array.from({ length: Number(players.value) }, (_, i) => {
        const sel = h("select", { name: `entrant${i}` }, ...mine.map((b) => h("option", { value: b.botId }, b.name)), ...ENGINES.map(([id, label]) => h("option", { value: id }, label)));
        sel.selectedIndex = Math.min(i, mine.length - 1);
        return h("label", { class: "field" }, h("span", {}, `Seat ${i}`), sel);
      }),
    );
  }
  kind.addEventListener("change", () => ((targetBox.hidden = kind.value !== "1"), drawSeats()));
  players.addEventListener("change", drawSeats);
  drawSeats();
  const picks = () => [...seats.querySelectorAll("select")].map((s) => s.value);
  const options = () =>
    kind.value === "1"
      ? { rules: { case: "straight" as const, value: { players: Number(players.value), target: target.value ? Number(target.value) : undefined } } }
      : { rules: { case: "streets" as const, value: { players: Number(players.value) } } };

  async function run(): Promise<void> {
    if (picks().some((p) => !p)) return void (out.textContent = "Every seat needs a bot of this game.");
    fill(out, h("p", { class: "muted" }, "Playing…"));
    try {
      const reply = await bots.runMatch({ options: options(), entrants: picks().map((botId) => ({ botId })), games: Number(count.value) }, { signal });
      fill(out, matchReport(reply));
      await played();
    } catch (e) {
      fill(out, h("p", { class: "error" }, why(e)));
    }
  }

  async function watchOne(): Promise<void> {
    if (picks().some((p) => !p)) return void (out.textContent = "Every seat needs a bot of this game.");
    try {
      const seatsSpec = picks().map((botId) => ({ occupant: { case: "bot" as const, value: { botId, version: library.find((b) => b.botId === botId)?.versions.filter((v) => !v.retired).at(-1)?.version ?? "" } } }));
      // Bots left to full speed finish a game before its table has even opened. Paced at
      // WATCH_PACE_MILLIS, each move stays on screen long enough to see where the tile went
      // and what it scored, and a game still ends in a few minutes.
      const created = await games.createGame({ options: { ...options(), botPaceMillis: WATCH_PACE_MILLIS }, seats: seatsSpec }, { signal });
      go(`/table/${encodeURIComponent(created.gameId)}`);
    } catch (e) {
      fill(out, h("p", { class: "error" }, why(e)));
    }
  }

  return h(
    "div",
    {},
    h("div", { class: "filters" }, kind, players, h("label", {}, count, " games"), targetBox),
    seats,
    h("div", { class: "buttons" }, h("button", { class: "primary", onclick: () => void run(), "data-testid": "run-match" }, "Run the match"), h("button", { onclick: () => void watchOne() }, "Play one game to watch")),
    out,
  );
}

/** A match's standings, then its games, each a link to its replay. */
function matchReport(reply: RunMatchResponse): HTMLElement {
  const standings = h(
    "table",
    { class: "games" },
    h("thead", {}, h("tr", {}, ...["Seat in game 1", "Bot", "Wins", "Mean score", "Rating"].map((t) => h("th", {}, t)))),
    h(
      "tbody",
      {},
      ...reply.results.map((r, i) =>
        h("tr", {}, h("td", {}, String(i)), h("td", {}, r.botId), h("td", { class: "num" }, `${r.wins} / ${reply.games}`), h("td", { class: "num" }, `${r.meanScore.toFixed(1)} ± ${r.scoreCi95.toFixed(1)}`), h("td", { class: "num" }, r.rating.toFixed(0))),
      ),
    ),
  );
  const rows = reply.matchGames.map((g, i) => {
    const href = `/replay/${encodeURIComponent(g.gameId)}`;
    const seats = g.seats.map((s) => {
      const won = g.winners.includes(s.seat);
      return h("span", { class: `chip bot${won ? " winner" : ""}`, title: won ? "winner" : "" }, s.bot?.botId ?? `seat ${s.seat}`, won ? " ★" : "");
    });
    return h(
      "tr",
      { "data-game": g.gameId },
      h("td", { class: "num" }, String(i + 1)),
      h("td", { class: "seat-chips" }, ...seats),
      h("td", { class: "num" }, String(g.sequence)),
      h("td", {}, h("a", { href, class: "button small" }, "Replay")),
    );
  });
  return h(
    "div",
    {},
    standings,
    h("h3", {}, `The ${reply.matchGames.length} games`),
    h("p", { class: "muted" }, "Each game is stored like any other: step through it, every hand shown. Seats rotate from game to game; ★ marks the winner."),
    h(
      "table",
      { class: "games match-games", "data-testid": "match-game-list" },
      h("thead", {}, h("tr", {}, ...["Game", "Seats, in order", "Events", ""].map((t) => h("th", {}, t)))),
      h("tbody", {}, ...rows),
    ),
  );
}

function uploadForm(reload: () => Promise<void>, signal: AbortSignal): HTMLElement {
  // Browsers compile `pattern` with the `v` flag, where a bare `-` in a class is a syntax error
  // (the pattern is then ignored): the hyphen is escaped. The same rule as the server's.
  const name = h("input", { name: "name", placeholder: "my-bot", pattern: "[A-Za-z0-9_\\-]{1,64}", title: "1 to 64 letters, digits, - and _", required: true });
  const kind = h("select", { name: "kind" }, h("option", { value: "1" }, "Straight Dominoes"), h("option", { value: "2" }, "Streets and Avenues"));
  const source = h("textarea", { name: "source", rows: 8, placeholder: "fn choose(view) { 0 }", required: true });
  const out = h("p", { class: "message" });
  return h(
    "form",
    {
      onsubmit: async (e: Event) => {
        e.preventDefault();
        try {
          const reply = await bots.uploadBot({ name: name.value, kind: Number(kind.value) as GameKind, source: source.value }, { signal, headers: ownerHeaders() });
          keepOwnerToken(reply.ownerToken);
          out.textContent = `Stored ${reply.botId}, version ${reply.version.slice(0, 10)}.`;
          await reload();
        } catch (err) {
          out.textContent = why(err);
        }
      },
    },
    h("label", { class: "field" }, h("span", {}, "Name"), name),
    h("label", { class: "field" }, h("span", {}, "Game"), kind),
    h("label", { class: "field wide" }, h("span", {}, "Source (Rhai)"), source),
    h("p", { class: "muted" }, "What ", h("code", {}, "choose"), " is given and its limits: ", h("a", { href: "/bots/guide#the-view", "data-testid": "guide-link" }, "the bot guide"), "."),
    h("button", { type: "submit" }, "Upload"),
    out,
  );
}
