// A complete Clack bot in Node.js over GameService.Play (connect-node; messages generated from
// proto/ into the starter's gen/ by `npm run generate`; it uses the starter's packages).
//
// It creates a two-player game, takes both seats and plays each on its own Play stream: the server
// pushes the events the seat may see and, when it is to act, a Turn with its legal actions; the
// bot answers with an index into them. Each seat drops its stream after a few moves and reconnects
// with the last sequence it saw, to show that nothing is missed or repeated. Exit status 0 means
// the game finished, both seats saw every event once, and the log verified.
//
//   node clients/node/examples/stream_bot.mjs --addr 127.0.0.1:50051 --game streets
//   (with CLACK_KEY set, every call carries the account's key as x-clack-key)
import { parseArgs } from "node:util";
import { createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { GameService } from "../gen/clack/v1/game_service_pb.js";
import { ReplayService } from "../gen/clack/v1/replay_service_pb.js";

const { values: args } = parseArgs({ options: { addr: { type: "string" }, game: { type: "string", default: "straight" } } });
const key = process.env.CLACK_KEY ? { "x-clack-key": process.env.CLACK_KEY } : {};
const transport = createGrpcTransport({ baseUrl: `http://${args.addr}`, interceptors: [] });
const games = createClient(GameService, transport);
const replay = createClient(ReplayService, transport);

/** An async queue of requests: what a seat sends on its stream. */
function outbox() {
  const waiting = [];
  let wake = null;
  return {
    push(message) { waiting.push(message); wake?.(); },
    async *[Symbol.asyncIterator]() {
      for (;;) {
        while (waiting.length) yield waiting.shift();
        await new Promise((resolve) => (wake = resolve));
      }
    },
  };
}

/** Plays one seat to the end of the game, dropping the stream every `dropEvery` moves. */
async function playSeat(gameId, token, dropEvery) {
  const seen = [];
  let moves = 0;
  for (;;) {
    const requests = outbox();
    const last = seen.length ? seen[seen.length - 1] : 0n;
    requests.push({ message: { case: "hello", value: { gameId, afterSequence: last } } });
    const abort = new AbortController();
    const headers = { ...key, authorization: `Bearer ${token}`, "x-clack-game": gameId };
    let dropped = false;
    try {
      for await (const reply of games.play(requests, { headers, signal: abort.signal })) {
        const { case: kind, value } = reply.message;
        if (kind === "event") seen.push(value.sequence);
        if (kind === "rejected") throw new Error(`move refused: ${value.message}`);
        if (kind === "turn") {
          // The bot: the last legal action (Straight: a play before drawing or passing).
          const move = { turnSequence: value.sequence, choice: { case: "index", value: value.actions.length - 1 } };
          requests.push({ message: { case: "move", value: move } });
          if (++moves % dropEvery === 0) { dropped = true; abort.abort(); break; }
        }
      }
    } catch (error) {
      if (!dropped) throw error;
    }
    if (!dropped) return seen;
  }
}

const rules = args.game === "straight"
  ? { case: "straight", value: { players: 2, target: 100 } }
  : { case: "streets", value: { players: 2 } };
const { gameId } = await games.createGame({ options: { rules }, seed: 9n }, { headers: key });
const tokens = [];
for (const seat of [0, 1]) {
  const joined = await games.joinGame({ gameId, seat, name: `node-${seat}` }, { headers: { ...key, "x-clack-game": gameId } });
  tokens.push(joined.seatToken);
}
const seen = await Promise.all([playSeat(gameId, tokens[0], 4), playSeat(gameId, tokens[1], 6)]);

const { view } = await games.getView({ gameId }, { headers: { ...key, "x-clack-game": gameId } });
const all = Array.from({ length: Number(view.sequence) }, (_, i) => BigInt(i + 1));
for (const [seat, sequences] of seen.entries()) {
  if (sequences.join() !== all.join()) throw new Error(`seat ${seat} missed or repeated events`);
}
const verified = await replay.verify({ gameId }, { headers: { ...key, "x-clack-game": gameId } });
if (!verified.ok) throw new Error(`verify failed: ${verified.detail}`);
console.log(`node stream bot: ${args.game} game ${gameId} finished, ${view.sequence} events, verified`);
