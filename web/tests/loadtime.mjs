// Page load times in Chromium against a running `clack serve`: from navigation start to the
// page's data on screen (the app's "clack:ready" performance mark), the median of five loads of each page. With CLACK_FILL=N it first stores
// N games (half of each kind) through gRPC-Web, plus one game of two bots played to its end for
// the table and the replay; the server must then run without quotas
// (`--quota-live-games 0 --quota-requests-per-second 0`).
//
//   CLACK_URL=http://127.0.0.1:50051 CLACK_FILL=1000 node web/tests/loadtime.mjs
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

const base = process.env.CLACK_URL;
if (!base) throw new Error("set CLACK_URL to a running clack serve");
const here = dirname(fileURLToPath(import.meta.url));

// Just enough protobuf to fill a store: varints, strings and nested messages.
const varint = (n) => {
  const out = [];
  for (let v = BigInt(n); ; ) {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    if (v === 0n) return out.push(b), out;
    out.push(b | 0x80);
  }
};
const field = (no, wire, bytes) => [...varint((no << 3) | wire), ...bytes];
const num = (no, n) => field(no, 0, varint(n));
const msg = (no, bytes) => field(no, 2, [...varint(bytes.length), ...bytes]);
const str = (no, s) => msg(no, [...new TextEncoder().encode(s)]);
/** The string fields of a reply, by number. */
function strings(bytes) {
  const out = {};
  for (let i = 0; i < bytes.length; ) {
    let key = 0, shift = 0, b;
    do (b = bytes[i++]), (key |= (b & 0x7f) << shift), (shift += 7); while (b & 0x80);
    if ((key & 7) === 0) { while (bytes[i++] & 0x80); continue; }
    let len = 0; shift = 0;
    do (b = bytes[i++]), (len |= (b & 0x7f) << shift), (shift += 7); while (b & 0x80);
    out[key >> 3] = new TextDecoder().decode(bytes.slice(i, i + len));
    i += len;
  }
  return out;
}
async function call(method, body) {
  const frame = new Uint8Array([0, 0, 0, 0, 0, ...body]);
  new DataView(frame.buffer).setUint32(1, body.length);
  const reply = await fetch(`${base}/clack.v1.${method}`, { method: "POST", headers: { "content-type": "application/grpc-web+proto", "x-grpc-web": "1" }, body: frame });
  const bytes = new Uint8Array(await reply.arrayBuffer());
  if (reply.headers.get("grpc-status") && reply.headers.get("grpc-status") !== "0") throw new Error(`${method}: ${reply.headers.get("grpc-message")}`);
  return strings(bytes.slice(5, 5 + new DataView(bytes.buffer).getUint32(1)));
}

let finished;
if (process.env.CLACK_FILL) {
  const n = Number(process.env.CLACK_FILL);
  const started = Date.now();
  for (let i = 0; i < n; i++) {
    const rules = i % 2 ? msg(2, num(2, 2)) : msg(1, num(1, 2)); // streets or straight, 2 players
    await call("GameService/CreateGame", msg(1, rules));
  }
  const source = readFileSync(resolve(here, "../../bots/straight-greedy.rhai"), "utf8");
  const bot = await call("BotService/UploadBot", [...str(1, "load-greedy"), ...num(2, 1), ...str(3, source)]);
  const seat = msg(2, msg(2, [...str(1, bot[1]), ...str(2, bot[2])]));
  finished = (await call("GameService/CreateGame", [...msg(1, msg(1, num(1, 2))), ...seat, ...seat]))[1];
  console.log(`stored ${n} games and one game of bots in ${Date.now() - started} ms`);
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"] });
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const pages = [
  ["lobby", "/", "tr[data-game]"],
  ["lobby, finished games", "/?status=3", "body[data-lobby=loaded]"],
  ...(finished ? [["table", `/table/${finished}`, "[data-sequence]"], ["replay", `/replay/${finished}`, "body[data-replay-at]"]] : []),
  ["bots", "/bots", "body[data-bots]"],
  ["rules", "/rules/streets", "article.rules h1"],
];
for (const [name, path, ready] of pages) {
  const times = [];
  for (let i = 0; i < 5; i++) {
    const page = await context.newPage();
    await page.goto(base + path);
    await page.locator(ready).first().waitFor();
    // The app marks the moment the page's data is first on screen.
    times.push(await page.evaluate(() => performance.getEntriesByName("clack:ready")[0].startTime));
    await page.close();
  }
  times.sort((a, b) => a - b);
  console.log(`${name.padEnd(22)} median ${times[2].toFixed(0).padStart(4)} ms  (min ${times[0].toFixed(0)}, max ${times[4].toFixed(0)})`);
}
await browser.close();
