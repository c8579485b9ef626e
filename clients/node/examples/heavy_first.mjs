// A remote bot for Straight Dominoes: it plays its heaviest tile, so that what it is caught
// holding at the end of a round counts as little as possible.
//
//   npm ci --prefix clients/node
//   node clients/node/examples/heavy_first.mjs --addr 127.0.0.1:50051 --name heavy-node
import { parseArgs } from "node:util";
import { run } from "../index.mjs";

/** The pips of the tile an action places ("6-4 east@5" has 10); 0 for a draw or a pass. */
function pips(notation) {
  const tile = notation.split(" ")[0];
  if (!tile.includes("-")) return 0;
  const [high, low] = tile.split("-");
  return Number(high) + Number(low);
}

/** The index of the legal action that places the most pips. */
function choose(turn) {
  let best = 0;
  turn.notation.forEach((notation, i) => { if (pips(notation) > pips(turn.notation[best])) best = i; });
  return best;
}

const { values: args } = parseArgs({
  options: { addr: { type: "string", default: "127.0.0.1:50051" }, name: { type: "string", default: "heavy-node" } },
});
await run({ choose, name: args.name, game: "straight", addr: args.addr });
