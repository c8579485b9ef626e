// The lobby: games a page at a time (ListGames with page tokens), filters, and a form that
// creates a game with any rule option, a turn clock if wanted, and bots from the library in any
// seat.
import { about, bots, games, holdSeat, why } from "../api";
import { ENGINES, kindName, statusName } from "../describe";
import { fill, h, ready } from "../dom";
import type { BotSummary } from "../gen/clack/v1/bot_service_pb";
import { SeatSpecSchema, type SeatSpec } from "../gen/clack/v1/events_pb";
import { GameStatus, type GameSummary } from "../gen/clack/v1/game_service_pb";
import { create as make } from "@bufbuild/protobuf";
import { BlockedScoring, DominoSet, GameKind, GameOptionsSchema, SpinnerRule, TimeControlSchema, TimeoutPolicy, type GameOptions, type TimeControl } from "../gen/clack/v1/types_pb";
import { go } from "../nav";

const PAGE_SIZE = 25;

/** What the create form takes for a turn clock: the server takes up to a week, a table far less. */
const LIMITS = { perMove: [1, 3600], base: [1, 180], increment: [0, 600] } as const;

function select(name: string, options: Array<[string, string]>, value = ""): HTMLSelectElement {
  const el = h("select", { name }, ...options.map(([v, label]) => h("option", { value: v }, label)));
  el.value = value;
  return el;
}

const yesNo = (name: string) => select(name, [["", "default"], ["true", "yes"], ["false", "no"]]);
const num = (name: string, placeholder: string, min: number, max: number) => h("input", { name, type: "number", min, max, placeholder });
const field = (label: string, input: HTMLElement, help = "") => h("label", { class: "field" }, h("span", {}, label), input, help ? h("small", {}, help) : null);

export function lobbyPage(root: HTMLElement, signal: AbortSignal): void {
  document.title = "Lobby · Clack";
  const params = new URLSearchParams(location.search);
  const filters = {
    kind: select("kind", [["0", "any game"], ["1", "Straight Dominoes"], ["2", "Streets and Avenues"]], params.get("kind") ?? "0"),
    status: select("status", [["0", "any status"], ["1", "waiting"], ["2", "playing"], ["3", "finished"]], params.get("status") ?? "0"),
    players: select("players", [["", "any players"], ...[2, 3, 4, 5, 6].map((n): [string, string] => [String(n), `${n} players`])], params.get("players") ?? ""),
    bots: select("bots", [["", "with or without bots"], ["with", "with bots"], ["without", "without bots"]], params.get("bots") ?? ""),
  };
  const list = h("div", { class: "game-list", "data-testid": "games" });
  const pager = h("div", { class: "pager" });
  // The page tokens of the pages before this one, to step back.
  const tokens: string[] = [];
  let token = "";

  async function load(): Promise<void> {
    document.body.dataset.lobby = "loading";
    fill(list, h("p", { class: "muted" }, "Loading…"));
    try {
      const reply = await games.listGames(
        { pageSize: PAGE_SIZE, pageToken: token, kind: Number(filters.kind.value) as GameKind, status: Number(filters.status.value) as GameStatus },
        { signal },
      );
      // Players and bots are filtered here, on the page the server sent.
      const shown = reply.games.filter((g) => {
        if (filters.players.value && g.seats.length !== Number(filters.players.value)) return false;
        const withBots = g.seats.some((s) => s.bot);
        return filters.bots.value === "with" ? withBots : filters.bots.value === "without" ? !withBots : true;
      });
      fill(list, shown.length ? gameTable(shown) : h("p", { class: "muted" }, "No games on this page match."));
      fill(
        pager,
        h("button", { disabled: tokens.length === 0, onclick: () => ((token = tokens.pop() ?? ""), void load()) }, "← Newer"),
        h("span", { class: "muted" }, `page ${tokens.length + 1} · ${reply.games.length} games${shown.length !== reply.games.length ? `, ${shown.length} shown` : ""}`),
        h("button", { disabled: !reply.nextPageToken, "data-testid": "older", onclick: () => (tokens.push(token), (token = reply.nextPageToken), void load()) }, "Older →"),
      );
      document.body.dataset.lobby = "loaded";
      ready();
    } catch (e) {
      if (!signal.aborted) fill(list, h("p", { class: "error" }, `Could not list games: ${why(e)}`));
    }
  }

  for (const f of Object.values(filters)) {
    f.addEventListener("change", () => {
      const q = new URLSearchParams();
      for (const [k, el] of Object.entries(filters)) if (el.value && el.value !== "0") q.set(k, el.value);
      history.replaceState(null, "", q.size ? `/?${q}` : "/");
      tokens.length = 0;
      token = "";
      void load();
    });
  }

  root.append(
    h(
      "div",
      { class: "lobby" },
      h("section", {}, h("h1", {}, "Games"), h("div", { class: "filters" }, ...Object.values(filters)), list, pager),
      h("section", { class: "create" }, h("h2", {}, "New game"), createForm(signal)),
    ),
  );
  void load();
}

function gameTable(list: GameSummary[]): HTMLElement {
  const rows = list.map((g) => {
    const finished = g.status === GameStatus.FINISHED;
    const href = `/${finished ? "replay" : "table"}/${encodeURIComponent(g.gameId)}`;
    const seats = g.seats.map((s) => {
      const label = s.bot ? s.bot.botId : s.taken ? s.name || `seat ${s.seat}` : "open seat";
      const cls = ["chip", s.taken ? "" : "open", s.bot ? "bot" : "", g.winners.includes(s.seat) ? "winner" : ""].filter(Boolean).join(" ");
      return h("span", { class: cls, title: g.winners.includes(s.seat) ? "winner" : "" }, s.bot ? h("small", { class: "bot-tag" }, "BOT") : null, label, g.winners.includes(s.seat) ? " ★" : "");
    });
    return h(
      "tr",
      { "data-game": g.gameId },
      h("td", {}, h("a", { href }, kindName(g.kind))),
      h(
        "td",
        {},
        h("span", { class: `status ${statusName(g.status)}` }, statusName(g.status)),
        // Reviewed by the engine: the replay shows the review at once.
        g.reviewed.length ? h("span", { class: "chip reviewed", "data-reviewed": g.reviewed.join(" "), title: `reviewed by the engine (${g.reviewed.join(", ")})` }, "reviewed") : null,
      ),
      h("td", { class: "seat-chips" }, ...seats),
      h("td", { class: "num" }, String(g.sequence)),
      h("td", { class: "muted" }, new Date(Number(g.createdUnixMillis)).toLocaleString()),
      h("td", {}, h("a", { href, class: "button small" }, finished ? "Replay" : g.status === GameStatus.WAITING ? "Join" : "Watch")),
    );
  });
  return h(
    "table",
    { class: "games" },
    h("thead", {}, h("tr", {}, ...["Game", "Status", "Seats", "Events", "Created", ""].map((t) => h("th", {}, t)))),
    h("tbody", {}, ...rows),
  );
}

function createForm(signal: AbortSignal): HTMLElement {
  const kind = select("game", [["1", "Straight Dominoes"], ["2", "Streets and Avenues"]], "1");
  const straight = {
    players: select("players", [["2", "2"], ["3", "3"], ["4", "4"]], "2"),
    teams: yesNo("teams"),
    target: num("target", "250", 5, 1000),
    spinner: select("spinner", [["0", "default (first tile)"], ["1", "first tile"], ["2", "first double"], ["3", "none"]], "0"),
    sidesOpen: yesNo("spinner_sides_open_immediately"),
    mayDraw: yesNo("may_draw_when_able"),
    blocked: select("blocked_scoring", [["0", "default (net)"], ["1", "net"], ["2", "opponents"]], "0"),
    reserve: num("boneyard_reserve", "2", 0, 20),
    finishRound: yesNo("finish_round_at_target"),
  };
  const streets = {
    set: select("set", [["0", "default (double-nine)"], ["1", "double-nine"], ["2", "double-twelve"]], "0"),
    players: select("players", [2, 3, 4, 5, 6, 7].map((n): [string, string] => [String(n), String(n)]), "2"),
    mayPass: yesNo("may_pass_when_able"),
  };
  // The turn clock, checked here (timeControl) so that a wrong value is named before anything is sent.
  const clock = {
    kind: select("clock", [["", "none"], ["per_move", "per move"], ["fischer", "Fischer"]], ""),
    perMove: h("input", { name: "per_move_seconds", type: "number", step: 1, value: 30 }),
    base: h("input", { name: "fischer_minutes", type: "number", step: 1, value: 5 }),
    increment: h("input", { name: "increment_seconds", type: "number", step: 1, value: 2 }),
    onTimeout: select("on_timeout", [[String(TimeoutPolicy.AUTO_MOVE), "move for them"], [String(TimeoutPolicy.FORFEIT), "their side loses"]], String(TimeoutPolicy.AUTO_MOVE)),
  };
  const clockBox = h("div", { class: "options clock-options" });
  function drawClock(): void {
    const k = clock.kind.value;
    fill(
      clockBox,
      field("Turn clock", clock.kind, k === "fischer" ? "a bank of time, plus an increment after each move; for people's seats (bots are never clocked)" : "for people's seats; bots are never clocked"),
      k === "per_move" ? field("Seconds per move", clock.perMove, `a fresh allowance each move, ${LIMITS.perMove[0]} to ${LIMITS.perMove[1]}`) : null,
      k === "fischer" ? field("Bank, minutes", clock.base, `${LIMITS.base[0]} to ${LIMITS.base[1]}`) : null,
      k === "fischer" ? field("Increment, seconds", clock.increment, `added after each move, ${LIMITS.increment[0]} to ${LIMITS.increment[1]}`) : null,
      k ? field("When time runs out", clock.onTimeout, clock.onTimeout.value === String(TimeoutPolicy.FORFEIT) ? "the seat's side loses the game" : "their first legal move is played for them") : null,
    );
  }
  // A message about the clock goes once the clock is changed.
  const changed = (input?: HTMLElement) => () => {
    input?.removeAttribute("aria-invalid");
    error.textContent = "";
  };
  clock.kind.addEventListener("change", () => (changed()(), drawClock()));
  clock.onTimeout.addEventListener("change", drawClock);
  for (const input of [clock.perMove, clock.base, clock.increment]) input.addEventListener("input", changed(input));
  drawClock();
  const seed = h("input", { name: "seed", type: "number", min: 0, placeholder: "random" });
  const me = h("input", { name: "me", type: "checkbox", checked: true });
  const name = h("input", { name: "name", placeholder: "your name", maxlength: 64, value: localStorage.getItem("clack.name") ?? "" });
  const seatsBox = h("div", { class: "seat-specs" });
  const optionsBox = h("div", { class: "options" });
  const error = h("p", { class: "error", role: "alert", "data-testid": "create-error" });
  let library: BotSummary[] = [];

  const players = () => Number((kind.value === "1" ? straight.players : streets.players).value);
  function drawSeats(): void {
    const mine = library.filter((b) => b.kind === Number(kind.value) && !b.retired);
    const previous = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    fill(
      seatsBox,
      ...Array.from({ length: players() }, (_, i) => {
        const choices: [string, string][] = [["", i === 0 ? "open (you, if ticked below)" : "open: a person"], ...mine.map((b): [string, string] => [b.botId, `bot: ${b.name}`]), ...ENGINES];
        const bot = select(`seat${i}`, choices, previous[i] ?? (i > 0 && mine.length ? mine[0].botId : ""));
        return field(`Seat ${i}`, bot);
      }),
      library.length === 0 ? h("small", { class: "muted" }, "No bots in the library yet: add some on the ", h("a", { href: "/bots" }, "Bots"), " page.") : null,
    );
  }
  function drawOptions(): void {
    const st = kind.value === "1";
    fill(
      optionsBox,
      ...(st
        ? [
            field("Players", straight.players),
            field("Teams", straight.teams, "four players only"),
            field("Target", straight.target, "points to win"),
            field("Spinner", straight.spinner),
            field("Spinner sides open at once", straight.sidesOpen),
            field("May draw when able", straight.mayDraw),
            field("Blocked round scoring", straight.blocked),
            field("Boneyard reserve", straight.reserve, "tiles that stay"),
            field("Finish the round at target", straight.finishRound),
          ]
        : [field("Set", streets.set), field("Players", streets.players), field("May pass when able", streets.mayPass)]),
    );
    drawSeats();
  }
  kind.addEventListener("change", drawOptions);
  straight.players.addEventListener("change", drawSeats);
  streets.players.addEventListener("change", drawSeats);
  bots
    .listBots({}, { signal })
    .then((r) => ((library = r.bots), drawSeats()))
    .catch(() => undefined);
  drawOptions();

  const bool = (el: HTMLSelectElement) => (el.value === "" ? undefined : el.value === "true");
  const int = (el: HTMLInputElement) => (el.value === "" ? undefined : Number(el.value));
  /** The clock asked for, or what is wrong with it (the field is marked). */
  function timeControl(openSeats: number): { control?: TimeControl; problem?: string } {
    const k = clock.kind.value;
    if (!k) return {};
    if (openSeats === 0) return { problem: "Every seat is a bot, and bots are never clocked: choose no turn clock, or open a seat." };
    const whole = (input: HTMLInputElement, [lo, hi]: readonly [number, number], what: string): number | string => {
      const text = input.value.trim();
      const n = Number(text);
      if (text !== "" && Number.isInteger(n) && n >= lo && n <= hi) return n;
      input.setAttribute("aria-invalid", "true");
      return `${what}: give a whole number from ${lo} to ${hi}${text === "" ? "" : ` (not ${text})`}.`;
    };
    const onTimeout = Number(clock.onTimeout.value) as TimeoutPolicy;
    if (k === "per_move") {
      const seconds = whole(clock.perMove, LIMITS.perMove, "Seconds per move");
      if (typeof seconds === "string") return { problem: seconds };
      return { control: make(TimeControlSchema, { clock: { case: "perMoveMillis", value: BigInt(seconds * 1000) }, onTimeout }) };
    }
    const minutes = whole(clock.base, LIMITS.base, "Bank, minutes");
    const increment = whole(clock.increment, LIMITS.increment, "Increment, seconds");
    if (typeof minutes === "string") return { problem: minutes };
    if (typeof increment === "string") return { problem: increment };
    const fischer = { initialMillis: BigInt(minutes * 60_000), incrementMillis: BigInt(increment * 1000) };
    return { control: make(TimeControlSchema, { clock: { case: "fischer", value: fischer }, onTimeout }) };
  }

  function options(): GameOptions {
    if (kind.value === "1") {
      return make(GameOptionsSchema, {
        rules: {
          case: "straight",
          value: {
            players: players(),
            teams: bool(straight.teams),
            target: int(straight.target),
            spinner: Number(straight.spinner.value) as SpinnerRule,
            spinnerSidesOpenImmediately: bool(straight.sidesOpen),
            mayDrawWhenAble: bool(straight.mayDraw),
            blockedScoring: Number(straight.blocked.value) as BlockedScoring,
            boneyardReserve: int(straight.reserve),
            finishRoundAtTarget: bool(straight.finishRound),
          },
        },
      });
    }
    return make(GameOptionsSchema, {
      rules: { case: "streets", value: { set: Number(streets.set.value) as DominoSet, players: players(), mayPassWhenAble: bool(streets.mayPass) } },
    });
  }

  async function create(e: SubmitEvent): Promise<void> {
    e.preventDefault();
    error.textContent = "";
    const picks = [...seatsBox.querySelectorAll("select")].map((s) => s.value);
    const seats: SeatSpec[] = picks.map((botId) => {
      const bot = library.find((b) => b.botId === botId);
      const version = bot?.versions.filter((v) => !v.retired).at(-1)?.version ?? "";
      return make(SeatSpecSchema, botId ? { occupant: { case: "bot", value: { botId, version } } } : { occupant: { case: "open", value: {} } });
    });
    const clocked = timeControl(picks.filter((p) => p === "").length);
    if (clocked.problem) {
      error.textContent = clocked.problem;
      return;
    }
    try {
      const chosen = options();
      chosen.timeControl = clocked.control;
      const created = await games.createGame({ options: chosen, seats, seed: seed.value ? BigInt(seed.value) : undefined }, { signal });
      const id = created.gameId;
      if (me.checked && picks.includes("")) {
        localStorage.setItem("clack.name", name.value);
        const joined = await games.joinGame({ gameId: id, seat: picks.indexOf(""), name: name.value || "guest" }, about(id, undefined, signal));
        holdSeat(id, { seat: joined.seat, token: joined.seatToken });
      }
      go(`/table/${encodeURIComponent(id)}`);
    } catch (err) {
      error.textContent = `Could not create the game: ${why(err)}`;
    }
  }

  return h(
    "form",
    { onsubmit: (e: Event) => void create(e as SubmitEvent), "data-testid": "create" },
    field("Game", kind),
    optionsBox,
    clockBox,
    h("h3", {}, "Seats"),
    seatsBox,
    field("Seed", seed, "the same seed gives the same deal"),
    h("label", { class: "check" }, me, " Take the first open seat myself as ", name),
    h("button", { type: "submit", class: "primary" }, "Create game"),
    error,
  );
}
