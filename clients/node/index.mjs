// A Clack remote bot in Node.js: register it, hold its connection, play every seat it is offered.
//
// The server offers a remote bot its seats (ordinary games, matches, ladder games) over one
// long-lived BotService.ConnectBot stream, each with its seat token; the bot plays each seat over
// GameService.Play, where the server pushes the events the seat may see and, when it is to act, a
// Turn with its legal actions. This module does all of that; the author writes one function,
// `choose(turn, seat)`, that returns an index into `turn.actions` (or `turn.notation`, the same
// actions in text), or a promise of one.
//
//   import { run } from "clack-bot";
//   await run({ name: "first-legal", game: "straight", choose: () => 0 });
//
// Ownership: on a server open to anonymous clients, the first registration of a name answers with
// an owner token, the only proof that the bot is yours; `run` keeps it in `tokenFile` (mode 0600)
// and sends it from then on. On a closed server pass an account's API key as `key` (or set
// CLACK_KEY).
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { BotService } from "./gen/clack/v1/bot_service_pb.js";
import { GameService } from "./gen/clack/v1/game_service_pb.js";
import { GameKind } from "./gen/clack/v1/types_pb.js";

const KINDS = { straight: GameKind.STRAIGHT, streets: GameKind.STREETS };

/** An async queue of requests: what a seat sends on its Play stream. */
function outbox() {
  const waiting = [];
  let wake = null;
  let closed = false;
  return {
    push(message) { waiting.push(message); wake?.(); },
    close() { closed = true; wake?.(); },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (waiting.length) yield waiting.shift();
        if (closed) return;
        await new Promise((resolve) => (wake = resolve));
      }
    },
  };
}

function ownerHeaders(key, token) {
  if (key) return { "x-clack-key": key };
  return token ? { "x-clack-owner-token": token } : {};
}

async function register(bots, { name, game, version, key, tokenFile }) {
  let token = null;
  if (!key && tokenFile && existsSync(tokenFile)) token = readFileSync(tokenFile, "ascii").trim();
  const kind = KINDS[game];
  if (kind === undefined) throw new Error(`game must be "straight" or "streets", not ${game}`);
  const registered = await bots.registerRemoteBot({ name, kind, version }, { headers: ownerHeaders(key, token) });
  if (registered.ownerToken) {
    token = registered.ownerToken;
    if (tokenFile) writeFileSync(tokenFile, token, { mode: 0o600 });
  }
  return { registered, owner: ownerHeaders(key, token) };
}

/** Plays one offered seat to the end of its game on its own Play stream. */
async function play(games, offer, choose, key, onError) {
  const headers = { authorization: `Bearer ${offer.seatToken}`, "x-clack-game": offer.gameId };
  if (key) headers["x-clack-key"] = key;
  const seat = {
    gameId: offer.gameId,
    seat: offer.seat,
    matchId: offer.matchId,
    events: [],
    /** The seat's whole view now (its hand, the board, the scores): one GetView call. */
    view: async () => (await games.getView({ gameId: offer.gameId, seat: offer.seat }, { headers })).view,
  };
  const requests = outbox();
  requests.push({ message: { case: "hello", value: { gameId: offer.gameId, seat: offer.seat } } });
  try {
    for await (const reply of games.play(requests, { headers })) {
      const { case: kind, value } = reply.message;
      if (kind === "event") seat.events.push(value);
      if (kind === "rejected") onError(`game ${offer.gameId}: move refused: ${value.message}`);
      if (kind === "turn") {
        const index = await choose(value, seat);
        requests.push({ message: { case: "move", value: { turnSequence: value.sequence, choice: { case: "index", value: index } } } });
      }
    }
  } catch (error) {
    onError(`game ${offer.gameId}: ${error.message}`);
  } finally {
    requests.close();
  }
}

/**
 * Registers `name` at `version` as a remote bot of `game` ("straight" or "streets"), connects it
 * and plays every seat offered, until the connection ends or `signal` aborts. `choose(turn,
 * seat)` returns an index into `turn.actions`; if it throws or is too slow, the server records a
 * fault and plays the first legal action for it.
 */
export async function run({
  choose,
  name,
  game = "straight",
  version = "v1",
  addr = process.env.CLACK_ADDR ?? "127.0.0.1:50051",
  key = process.env.CLACK_KEY,
  tokenFile = ".clack-owner-token",
  onError = (message) => console.error(message),
  signal,
}) {
  const transport = createGrpcTransport({ baseUrl: `http://${addr}` });
  const bots = createClient(BotService, transport);
  const games = createClient(GameService, transport);
  const { registered, owner } = await register(bots, { name, game, version, key, tokenFile });
  const request = { botId: registered.botId, version: registered.version };
  try {
    for await (const message of bots.connectBot(request, { headers: owner, signal, timeoutMs: 0 })) {
      if (message.message.case === "offer") play(games, message.message.value, choose, key, onError);
    }
  } catch (error) {
    if (!signal?.aborted) throw error;
  }
}
