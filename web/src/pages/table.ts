// The table: a live game drawn from the Watch stream, and, for the seat this tab holds, play by
// clicking. A tile from the hand is chosen first; the ends or spots it can go to light up; a
// click there plays it. Clicks that cannot be played say why.
import { ConnectError, Code } from "@connectrpc/connect";
import { about, games, heldSeat, holdSeat, why, type HeldSeat } from "../api";
import { actionText, eventText, kindName, statusName, tileText } from "../describe";
import { fill, h, ready } from "../dom";
import { endKey } from "../draw/straight";
import { spotKey, type Target } from "../draw/streets";
import type { Event } from "../gen/clack/v1/events_pb";
import { ActView, GameStatus, type View } from "../gen/clack/v1/game_service_pb";
import { StraightAction_Kind, StreetsAction_Kind, type Action, type Tile } from "../gen/clack/v1/types_pb";
import { boardFacts, boardSvg, clockText, handRow, seatName, seatsPanel } from "./board";

interface Legal {
  actions: Action[];
  sequence: bigint;
}

const key = (t: Tile | undefined) => (t ? `${t.low}-${t.high}` : "");

/** The tile an action moves, if any. */
function actionTile(a: Action): Tile | undefined {
  return a.game.case === "straight" || a.game.case === "streets" ? a.game.value.tile : undefined;
}

/** Where an action puts its tile, as a board target key. */
function actionTarget(a: Action): string | undefined {
  if (a.game.case === "straight") {
    const v = a.game.value;
    if (v.kind === StraightAction_Kind.LEAD) return "lead";
    if (v.kind === StraightAction_Kind.PLAY) return endKey(v.arm, v.matched ?? 0);
  }
  if (a.game.case === "streets" && a.game.value.kind === StreetsAction_Kind.PLACE) return spotKey(a.game.value.spot);
  return undefined;
}

function isKind(a: Action, straight: StraightAction_Kind | null, streets: StreetsAction_Kind | null): boolean {
  return (a.game.case === "straight" && a.game.value.kind === straight) || (a.game.case === "streets" && a.game.value.kind === streets);
}

/** The open numbers of a Straight layout, to explain a tile that fits none. */
function openEnds(view: View): number[] {
  if (view.board.case !== "straight" || !view.board.value.firstTile) return [];
  const b = view.board.value;
  const last = (arm: typeof b.west, fallback: number) => (arm.length ? arm[arm.length - 1].outer : fallback);
  const ends = [last(b.west, b.firstTile!.low), last(b.east, b.firstTile!.high)];
  if (b.spinner && b.west.length && b.east.length) {
    ends.push(last(b.north, b.firstTile!.low), last(b.south, b.firstTile!.high));
  }
  return [...new Set(ends)].sort((x, y) => x - y);
}

export function tablePage(root: HTMLElement, gameId: string, signal: AbortSignal): void {
  let held: HeldSeat | undefined = heldSeat(gameId);
  let view: View | undefined;
  let legal: Legal | undefined;
  let selected: string | undefined;
  let message = "";
  let choice: Action[] = [];
  const events: Event[] = [];
  let lastSeq = 0n;
  let busy = false;
  // The game's bot pace (GameOptions.bot_pace_millis), from its creation event: the view does
  // not carry the options, and a watcher should know why the bots take their time.
  let pace = 0;

  const el = {
    head: h("div", { class: "table-head" }),
    seats: h("div", { class: "seats-wrap" }),
    board: h("div", { class: "board-wrap", "data-testid": "board" }),
    facts: h("div", {}),
    play: h("div", { class: "play" }),
    join: h("div", { class: "join" }),
    log: h("ol", { class: "events" }),
  };
  root.append(
    el.head,
    h(
      "div",
      { class: "table-layout" },
      h("section", { class: "table-main" }, el.board, el.facts, el.play, el.join),
      h("aside", { class: "table-side" }, el.seats, h("h3", {}, "Events"), el.log),
    ),
  );
  el.board.addEventListener("click", onBoardClick);
  const nameInput = h("input", { name: "name", placeholder: "your name", maxlength: 64, value: localStorage.getItem("clack.name") ?? "" });
  document.title = `Table ${gameId} · Clack`;

  function say(text: string): void {
    message = text;
    render();
  }

  /**
   * The held seat's moves in `v`, or undefined when it is not to act there; changes nothing, so
   * that what is on screen (the view, its moves, the tile selected) stays whole while it loads.
   */
  async function movesFor(v: View): Promise<Legal | undefined> {
    if (!held || v.status !== GameStatus.ACTIVE || v.toMove !== held.seat) return undefined;
    const reply = await games.listLegalActions({ gameId, seat: held.seat }, about(gameId, held, signal));
    // Moves listed for another position than the view's are no use with it; the events of the
    // newer position are on their way, and their refresh brings both together.
    if (reply.sequence !== v.sequence) return undefined;
    return { actions: reply.actions, sequence: reply.sequence };
  }

  /**
   * Shows a view and its moves together, unless the view is older than the one shown (replies
   * can overtake each other). The tile selected stays selected while it still has a move.
   */
  function show(next: View | undefined, moves: Legal | undefined): boolean {
    if (!next || (view && next.sequence < view.sequence)) return false;
    view = next;
    legal = moves;
    if (selected && !legal?.actions.some((a) => key(actionTile(a)) === selected)) selected = undefined;
    return true;
  }

  // Refreshes can overlap (events keep coming while one is in flight); only the latest draws.
  // A refresh reads the view, then the moves, and only then changes what is shown: the moves
  // on screen are never taken away while new ones load, so a click made meanwhile still counts.
  let ticket = 0;
  async function refresh(): Promise<void> {
    const mine = ++ticket;
    try {
      const reply = await games.getView({ gameId, seat: held?.seat }, about(gameId, held, signal));
      if (mine !== ticket || !reply.view) return;
      const moves = await movesFor(reply.view);
      if (mine !== ticket || !show(reply.view, moves)) return;
    } catch (e) {
      if (!signal.aborted) say(`Could not load the game: ${why(e)}`);
      return;
    }
    render();
  }

  // Many events can come at once (a bot answering, a deal); one refresh covers them all.
  let pending: ReturnType<typeof setTimeout> | undefined;
  function soon(): void {
    if (pending) return;
    pending = setTimeout(() => {
      pending = undefined;
      void refresh();
    }, 60);
  }

  async function watch(stop: AbortSignal): Promise<void> {
    while (!stop.aborted) {
      try {
        const stream = games.watch({ gameId, seat: held?.seat, fromSequence: lastSeq + 1n }, about(gameId, held, stop));
        for await (const reply of stream) {
          if (!reply.event) continue;
          if (reply.event.payload.case === "gameCreated") pace = reply.event.payload.value.options?.botPaceMillis ?? 0;
          events.push(reply.event);
          lastSeq = reply.event.sequence;
          soon();
        }
        if (view?.status === GameStatus.FINISHED) return;
      } catch (e) {
        if (stop.aborted) return;
        if (e instanceof ConnectError && (e.code === Code.NotFound || e.code === Code.InvalidArgument)) {
          say(`No such game: ${why(e)}`);
          return;
        }
      }
      // The stream ended or broke: resume from the last event seen.
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  function myTurn(): boolean {
    return !!view && !!held && view.status === GameStatus.ACTIVE && view.toMove === held.seat;
  }

  /** Whether the moves of the position shown are loaded: only then is the turn shown as playable. */
  function movesShown(): boolean {
    return myTurn() && !!legal && legal.sequence === view?.sequence;
  }

  function onTileClick(t: Tile): void {
    const k = key(t);
    choice = [];
    if (!held) return say("You are watching. Take a seat to play.");
    if (!view || view.status !== GameStatus.ACTIVE) return say("The game is not being played now.");
    if (!myTurn()) return say(`It is ${view.toMove !== undefined ? seatName(view, view.toMove) : "nobody"}'s turn, not yours.`);
    if (!legal) return say("Loading your moves…");
    const moves = legal.actions.filter((a) => key(actionTile(a)) === k);
    if (moves.length === 0) {
      selected = undefined;
      return say(explainNoMove(t));
    }
    selected = selected === k ? undefined : k;
    say(selected ? hint(moves) : "");
  }

  function hint(moves: Action[]): string {
    if (moves.every((m) => isKind(m, null, StreetsAction_Kind.DISCARD))) return `${selected} fits nowhere; you may discard it.`;
    return `${selected}: click a highlighted place on the table.`;
  }

  function explainNoMove(t: Tile): string {
    const others = legal?.actions ?? [];
    const draw = others.some((a) => isKind(a, StraightAction_Kind.DRAW, null));
    if (view?.board.case === "straight") {
      const ends = openEnds(view);
      const fit = ends.length ? `the open ends show ${ends.join(", ")}` : "it cannot lead now";
      return `${tileText(t)} cannot be played: ${fit}.${draw ? " Draw from the boneyard." : others.some((a) => isKind(a, StraightAction_Kind.PASS, null)) ? " Pass." : " Another tile fits."}`;
    }
    return `${tileText(t)} fits no free place on the table now${others.length ? "; another move is possible" : ""}.`;
  }

  function onBoardClick(e: MouseEvent): void {
    const target = (e.target as Element).closest?.("[data-end]") as SVGElement | null;
    if (!target) {
      if (!held || !myTurn()) return;
      return say(selected ? `${selected} cannot go there: the highlighted places are where it fits.` : "Choose a tile from your hand first.");
    }
    const end = target.getAttribute("data-end");
    const moves = (legal?.actions ?? []).filter((a) => key(actionTile(a)) === selected && actionTarget(a) === end);
    if (moves.length === 1) void act(moves[0]);
    else if (moves.length > 1) {
      choice = moves;
      say("Which way round?");
    }
  }

  async function act(action: Action): Promise<void> {
    if (!view || !held || busy) return;
    busy = true;
    choice = [];
    try {
      const reply = await games.act(
        { gameId, seat: held.seat, expectedSequence: view.sequence, action, view: ActView.FULL },
        about(gameId, held, signal),
      );
      selected = undefined;
      message = reply.points ? `You scored ${reply.points}.` : "";
      const moves = reply.view ? await movesFor(reply.view) : undefined;
      show(reply.view, moves);
    } catch (e) {
      message = `Refused: ${why(e)}`;
      await refresh();
    } finally {
      busy = false;
    }
    render();
  }

  async function join(seat: number, name: string): Promise<void> {
    try {
      const reply = await games.joinGame({ gameId, seat, name }, about(gameId, undefined, signal));
      held = { seat: reply.seatToken ? reply.seat : seat, token: reply.seatToken };
      holdSeat(gameId, held);
      // Watch again as the seat, to get its own tiles in the stream.
      events.length = 0;
      lastSeq = 0n;
      restart();
    } catch (e) {
      say(`Could not take the seat: ${why(e)}`);
    }
  }

  async function resign(): Promise<void> {
    if (!held || !confirm("Resign? Your side loses the game.")) return;
    try {
      await games.resign({ gameId, seat: held.seat }, about(gameId, held, signal));
    } catch (e) {
      say(`Could not resign: ${why(e)}`);
    }
  }

  let watcher: AbortController | undefined;
  function restart(): void {
    watcher?.abort();
    watcher = new AbortController();
    signal.addEventListener("abort", () => watcher?.abort());
    void refresh();
    void watch(watcher.signal);
  }

  function render(): void {
    if (!view) {
      fill(el.head, h("h1", {}, "Table"), h("p", { class: "message" }, message || "Loading…"));
      return;
    }
    const v = view;
    const me = held?.seat;
    ready();
    const finished = v.status === GameStatus.FINISHED;
    fill(
      el.head,
      h("h1", {}, kindName(v.kind)),
      h(
        "div",
        { class: "meta" },
        h("span", { class: `status ${statusName(v.status)}`, "data-status": statusName(v.status) }, statusName(v.status)),
        h("span", { class: "muted" }, `game ${gameId} · event `, h("b", { "data-sequence": "" }, String(v.sequence))),
        finished ? h("a", { class: "button", href: `/replay/${encodeURIComponent(gameId)}` }, "Open the replay") : null,
        pace ? h("span", { class: "muted", "data-pace": pace, title: "the least time between two bot moves" }, `bots paced at ${(pace / 1000).toFixed(1)} s a move`) : null,
        me === undefined ? h("span", { class: "muted" }, "watching as a spectator") : h("span", { class: "muted" }, `you hold seat ${me}`),
      ),
    );
    fill(el.seats, seatsPanel(v, me, false));

    const moves = legal?.actions ?? [];
    const forTile = moves.filter((a) => key(actionTile(a)) === selected);
    const targets = new Set(forTile.map(actionTarget).filter((t): t is string => !!t));
    const streetsTargets: Target[] = [];
    for (const a of forTile) {
      const spot = a.game.case === "streets" ? a.game.value.spot : undefined;
      if (spot && !streetsTargets.some((t) => t.key === spotKey(spot))) streetsTargets.push({ key: spotKey(spot), spot });
    }
    fill(el.board, boardSvg(v, targets, streetsTargets));
    fill(el.facts, boardFacts(v), lastRound(v));

    const playable = new Set(moves.map((a) => key(actionTile(a))).filter(Boolean));
    const buttons: HTMLElement[] = [];
    const simple = (label: string, pick: (a: Action) => boolean) => {
      const a = moves.find(pick);
      if (a) buttons.push(h("button", { onclick: () => void act(a), "data-action": label.toLowerCase() }, label));
    };
    simple("Draw", (a) => isKind(a, StraightAction_Kind.DRAW, null));
    simple("Pass", (a) => isKind(a, StraightAction_Kind.PASS, StreetsAction_Kind.PASS));
    const discard = forTile.find((a) => isKind(a, null, StreetsAction_Kind.DISCARD));
    if (discard) buttons.push(h("button", { onclick: () => void act(discard), "data-action": "discard" }, `Discard ${selected}`));
    for (const a of choice) buttons.push(h("button", { class: "choice", onclick: () => void act(a) }, actionText(a)));
    if (me !== undefined && !finished) buttons.push(h("button", { class: "quiet", onclick: () => void resign() }, "Resign"));

    if (finished) {
      const winners = v.winners.map((w) => (w === me ? "you" : seatName(v, w)));
      fill(
        el.play,
        h(
          "div",
          { class: "result", "data-testid": "result" },
          h("b", {}, winners.length ? `Game over: ${winners.join(" and ")} won.` : "Game over: no winner."),
          " Scores ",
          v.scores.join(" – "),
          ". ",
          h("a", { href: `/replay/${encodeURIComponent(gameId)}` }, "Step through the replay"),
          ", every hand shown.",
        ),
        message && !message.startsWith("You scored") ? h("p", { class: "message" }, message) : null,
      );
    } else if (v.status === GameStatus.WAITING) {
      fill(
        el.play,
        h("p", {}, h("b", {}, "Waiting for players. "), "Send this page's address to whoever should take the open seats; the game starts when every seat is taken."),
        message ? h("p", { class: "message", "data-testid": "message" }, message) : null,
      );
    } else if (me !== undefined) {
      const hand = handRow(v.hand, 34, (t) => {
        const k = key(t);
        return [playable.has(k) ? "legal" : "", selected === k ? "selected" : ""].join(" ");
      });
      hand.classList.add("my-hand");
      hand.querySelectorAll<SVGElement>(".tile").forEach((g, i) => g.addEventListener("click", () => onTileClick(v.hand[i])));
      fill(
        el.play,
        h(
          "div",
          { class: "play-head" },
          h("h3", {}, "Your hand"),
          movesShown() ? h("span", { class: "turn" }, "your turn") : myTurn() ? h("span", { class: "muted" }, "your turn: loading your moves…") : null,
        ),
        hand,
        h("div", { class: "buttons" }, ...buttons),
        h("p", { class: "message", "data-testid": "message", role: "status" }, message),
      );
    } else {
      fill(el.play, message ? h("p", { class: "message", "data-testid": "message" }, message) : null);
    }

    const open = v.seats.filter((seat) => !seat.taken);
    const offered = me === undefined && v.status === GameStatus.WAITING ? open.map((seat) => seat.seat).join(" ") : "";
    // The name field is kept across redraws, so that events arriving do not wipe what is typed;
    // and the form stays in place while the same seats are open: taken out of the page, even to
    // be put straight back, the field loses the focus and with it whatever is being typed.
    if (offered !== el.join.dataset.offered) {
      el.join.dataset.offered = offered;
      fill(
        el.join,
        ...(offered
          ? [
              h("h3", {}, "Take a seat"),
              h(
                "div",
                { class: "buttons" },
                nameInput,
                ...open.map((seat) =>
                  h("button", { "data-join": seat.seat, onclick: () => (localStorage.setItem("clack.name", nameInput.value), void join(seat.seat, nameInput.value || "guest")) }, `Sit in seat ${seat.seat}`),
                ),
              ),
            ]
          : []),
      );
    }

    const name = (seat: number) => seatName(v, seat);
    fill(el.log, ...events.slice(-60).map((ev) => h("li", { "data-seq": String(ev.sequence) }, h("span", { class: "seq" }, String(ev.sequence)), " ", eventText(ev, name))));
    el.log.scrollTop = el.log.scrollHeight;
  }

  /** The last Straight round's reckoning: every hand shown then is public. */
  function lastRound(v: View): HTMLElement | null {
    if (v.board.case !== "straight" || !v.board.value.lastRound) return null;
    const r = v.board.value.lastRound;
    return h(
      "details",
      { class: "revealed" },
      h("summary", {}, `Round ${r.round}: ${r.winner !== undefined ? `${seatName(v, r.winner)} won ${r.points}` : "no winner"} — hands at its end`),
      ...r.hands.map((hand) => h("div", { class: "revealed-hand" }, h("span", {}, seatName(v, hand.seat)), handRow(hand.tiles, 16))),
    );
  }

  // Running clocks count down between events.
  const ticker = setInterval(() => {
    for (const el of root.querySelectorAll<HTMLElement>(".clock.running")) el.textContent = clockText(Number(el.dataset.deadline) - Date.now());
  }, 250);
  signal.addEventListener("abort", () => clearInterval(ticker));

  render();
  restart();
}
