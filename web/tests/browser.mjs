// Browser tests: Debian's Chromium driven by playwright-core against a running `clack serve`.
// Plays a game against a bot to the end by clicking, watches another game update live from a
// third tab, steps through a replay, and checks on every step that no page shows another
// seat's tiles. Screenshots of each page go to $CLACK_SHOTS (default target/web-screenshots).
//
//   CLACK_URL=http://127.0.0.1:50051 node web/tests/browser.mjs
//
// Run by crates/clack/tests/web.rs, which starts the server first.
import assert from "node:assert/strict";
import { existsSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const base = process.env.CLACK_URL;
if (!base) throw new Error("set CLACK_URL to a running clack serve, e.g. http://127.0.0.1:50051");
const shots = resolve(process.env.CLACK_SHOTS ?? resolve(here, "../../target/web-screenshots"));
const chromiumPath = process.env.CHROMIUM ?? "/usr/bin/chromium";
if (!existsSync(chromiumPath)) throw new Error(`no Chromium at ${chromiumPath}: apt-get install -y chromium (or set CHROMIUM)`);
let chromium;
try {
  ({ chromium } = await import("playwright-core"));
} catch {
  throw new Error("playwright-core is missing: run `npm ci` in web/");
}
mkdirSync(shots, { recursive: true });

const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
const errors = [];
const results = [];

async function open(path) {
  const page = await context.newPage();
  page.on("pageerror", (e) => errors.push(`${path}: ${e.message}`));
  await page.goto(base + path);
  return page;
}

// CLACK_ONLY=<regex> runs only the scenarios it matches (to repeat one, e.g. a suspected flake:
// CLACK_ONLY='bots page|Straight game'); the Rust test runs them all.
const only = process.env.CLACK_ONLY ? new RegExp(process.env.CLACK_ONLY) : undefined;

/** Runs one scenario, once: a scenario that fails fails the run. */
async function step(name, body) {
  if (only && !only.test(name)) return;
  const started = Date.now();
  try {
    await body();
    results.push([name, true]);
    console.log(`ok   ${name} (${Date.now() - started} ms)`);
  } catch (e) {
    results.push([name, false]);
    console.log(`FAIL ${name}: ${e.stack ?? e}`);
  }
}

/** Tiles face up anywhere but the board, the viewer's own hand and a finished round's reveal. */
async function strayTiles(page) {
  // `.own-hand` is the viewer's own hand in its seat row once the game is over: the loop may read
  // the status just before the last move lands, so the finished table can be the one checked.
  return page.evaluate(() =>
    [...document.querySelectorAll("[data-tile]")]
      .filter((t) => !t.closest(".board-wrap, .my-hand, .own-hand, .revealed"))
      .map((t) => t.getAttribute("data-tile")),
  );
}

const sequence = (page) => page.locator("[data-sequence]").textContent().then(Number);
const status = (page) => page.locator("[data-status]").getAttribute("data-status");

/** Makes one move by clicking, if it is this page's turn; returns whether it moved. */
async function playOne(page, explain = false) {
  if ((await page.locator(".play .turn").count()) === 0) return false;
  const before = await sequence(page);
  const legal = page.locator(".my-hand .tile.legal");
  if (explain) {
    const illegal = page.locator(".my-hand .tile:not(.legal)");
    if ((await illegal.count()) > 0) {
      await illegal.first().click();
      const said = await page.locator("[data-testid=message]").textContent();
      assert.match(said, /cannot be played|fits no free place/, "an illegal tile says why");
    }
  }
  // A move that did not take is tried again by the caller (which asserts the game still ends),
  // and counted: the run prints how many, so that lost clicks show instead of hiding. A click
  // can miss because a new view redraws the board under it (the forced click on a target found
  // just before the redraw then meets a detached, invisible element): that is a lost click too.
  try {
    await clickMove(page, legal);
  } catch (e) {
    if (!/not visible|detached|Timeout/.test(String(e)) || ++lostMoves > 50) throw e;
    return false;
  }
  const took = await page
    .waitForFunction((b) => Number(document.querySelector("[data-sequence]")?.textContent) > b, before, { timeout: 10000 })
    .then(() => true, () => false);
  if (!took) lostMoves++;
  return took;
}

let lostMoves = 0;

/** Clicks one move: a legal tile (unless one is still selected) then its target, or draws or passes. */
async function clickMove(page, legal) {
  if ((await legal.count()) === 0) {
    await page.locator("[data-action=draw], [data-action=pass]").first().click({ timeout: 10000 });
    return;
  }
  // A tile still selected from an earlier try stays selected: clicking it again would unselect it.
  if ((await page.locator(".my-hand .tile.selected").count()) === 0) await legal.first().click({ timeout: 10000 });
  const targets = page.locator(".board-wrap .end.legal");
  const discard = page.locator("[data-action=discard]");
  await targets.or(discard).first().waitFor({ timeout: 10000 });
  if ((await targets.count()) > 0) {
    await targets.first().click({ force: true });
    const choice = page.locator("button.choice");
    if ((await choice.count()) > 0) await choice.first().click({ timeout: 10000 });
  } else await discard.click({ timeout: 10000 });
}

/** Creates a game from the lobby form: `fields` are select or input names and values. */
async function createFromLobby(page, game, fields, seats) {
  await page.locator("body[data-lobby=loaded]").waitFor();
  await page.selectOption("form[data-testid=create] select[name=game]", game);
  for (const [name, value] of Object.entries(fields)) {
    const el = page.locator(`form[data-testid=create] [name=${name}]`);
    if ((await el.evaluate((e) => e.tagName)) === "SELECT") await el.selectOption(value);
    else await el.fill(value);
  }
  // Seat selects fill in once the bot library has answered.
  await page.locator("form[data-testid=create] select[name=seat0]").waitFor();
  await page.waitForFunction(() => document.querySelectorAll("form[data-testid=create] select[name=seat1] option").length > 1, null, { timeout: 5000 }).catch(() => {});
  for (const [i, bot] of seats.entries()) await page.selectOption(`form[data-testid=create] select[name=seat${i}]`, bot);
  await page.fill("form[data-testid=create] input[name=name]", "ada");
  await page.click("form[data-testid=create] button[type=submit]");
  await page.waitForURL(/\/table\//);
  await page.locator("[data-sequence]").waitFor();
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop());
}

/** Plays the game on `page` to its end by clicking, checking hidden tiles on every step. */
async function playToEnd(page, shotName) {
  let moves = 0;
  let shot = false;
  for (let i = 0; i < 2000 && (await status(page)) !== "finished"; i++) {
    assert.deepEqual(await strayTiles(page), [], "no tile of another seat is shown");
    assert.equal(await page.locator("[data-hand-seat='1'] [data-tile]").count(), 0, "the bot's hand is face down");
    const told = await page.locator(".events li").allTextContents();
    assert.deepEqual(told.filter((line) => /\(bot\) drew \d/.test(line)), [], "the events never name a tile the bot drew");
    if (!shot && moves >= 6 && (await page.locator(".play .turn").count()) > 0 && (await page.locator(".my-hand .tile.legal").count()) > 0) {
      await page.locator(".my-hand .tile.legal").first().click();
      await page.locator(".board-wrap .end.legal, [data-action=discard]").first().waitFor();
      await page.screenshot({ path: `${shots}/${shotName}`, fullPage: true });
      await page.locator(".my-hand .tile.selected").first().click(); // unselect
      await page.locator(".my-hand .tile.selected").first().waitFor({ state: "detached" });
      shot = true;
    }
    if (await playOne(page, moves === 2)) moves++;
    else await page.waitForTimeout(50);
  }
  assert.equal(await status(page), "finished", "the game was played to its end");
  assert.ok(moves > 0, "moves were made by clicking");
  return moves;
}

let straightId;

await step("bots page: add the example bots from the library", async () => {
  const page = await open("/bots");
  await page.click("[data-testid=add-examples]");
  await page.locator("body[data-bots='6']").waitFor({ timeout: 15000 });
  assert.equal(await page.locator("tr[data-bot=straight-greedy]").count(), 1);
  await page.screenshot({ path: `${shots}/bots.png`, fullPage: true });
  await page.close();
});

await step("lobby: create a Straight game against a bot and play it to the end by clicking", async () => {
  const page = await open("/");
  straightId = await createFromLobby(page, "1", { target: "50" }, ["", "straight-greedy"]);
  const moves = await playToEnd(page, "table-straight.png");
  await page.screenshot({ path: `${shots}/table-straight-finished.png`, fullPage: true });
  console.log(`     ${moves} moves clicked in game ${straightId}`);
  await page.close();
});

await step("lobby: play a Straight game against the engine, seated from the seat picker", async () => {
  const page = await open("/");
  const id = await createFromLobby(page, "1", { target: "30" }, ["", "engine:fast"]);
  const moves = await playToEnd(page, "table-engine.png");
  assert.match(await page.locator("body").textContent(), /engine:fast/, "the engine's seat is named on the table");
  console.log(`     ${moves} moves clicked against engine:fast in game ${id}`);
  await page.close();
});

await step("lobby: a turn clock is checked in the form, sent with the game, and shown on the table", async () => {
  const page = await open("/");
  const form = "form[data-testid=create]";
  await page.locator("body[data-lobby=loaded]").waitFor();
  await page.selectOption(`${form} select[name=clock]`, "per_move");
  await page.fill(`${form} [name=per_move_seconds]`, "0");
  await page.click(`${form} button[type=submit]`);
  await page.locator("[data-testid=create-error]", { hasText: "Seconds per move" }).waitFor();
  assert.match(await page.locator("[data-testid=create-error]").textContent(), /Seconds per move: give a whole number from 1 to 3600 \(not 0\)/);
  assert.equal(new URL(page.url()).pathname, "/", "nothing was created");
  assert.equal(await page.locator(`${form} [name=per_move_seconds][aria-invalid=true]`).count(), 1, "the wrong field is marked");
  await page.locator(form).screenshot({ path: `${shots}/lobby-clock-refused.png` });
  await page.selectOption(`${form} select[name=clock]`, "fischer");
  await page.fill(`${form} [name=fischer_minutes]`, "5");
  await page.fill(`${form} [name=increment_seconds]`, "2");
  await page.locator(form).screenshot({ path: `${shots}/lobby-clock.png` });
  const id = await createFromLobby(page, "1", { target: "50" }, ["", "straight-greedy"]);
  // My seat has a clock; the bot's has none. On my turn it runs, counting down from the bank.
  await page.locator(".play .turn").waitFor({ timeout: 15000 });
  const mine = page.locator("[data-seat='0'] .clock.running");
  await mine.waitFor();
  assert.equal(await page.locator("[data-seat='1'] .clock").count(), 0, "a bot seat has no clock");
  const first = await mine.textContent();
  assert.match(first, /^[45]:\d\d$/, `a five-minute bank: ${first}`);
  await page.waitForFunction((t) => document.querySelector("[data-seat='0'] .clock.running")?.textContent !== t, first, { timeout: 5000 });
  await page.screenshot({ path: `${shots}/table-clock.png`, fullPage: true });
  // A move by clicking; the increment comes back with the next turn.
  for (let tries = 0; tries < 200 && !(await playOne(page)); tries++) await page.waitForTimeout(50);
  await page.locator(".play .turn").waitFor({ timeout: 15000 });
  assert.match(await mine.textContent(), /^[45]:\d\d$/);
  page.once("dialog", (d) => d.accept());
  await page.locator(".play button", { hasText: "Resign" }).click();
  await page.locator("[data-status=finished]").waitFor({ timeout: 10000 });
  console.log(`     clocked game ${id}`);
  await page.close();
});

await step("lobby: create a Streets and Avenues game against a bot and play it to the end", async () => {
  const page = await open("/");
  const id = await createFromLobby(page, "2", {}, ["", "streets-greedy"]);
  const moves = await playToEnd(page, "table-streets.png");
  const blocks = await page.locator("svg.board.streets").getAttribute("data-blocks");
  assert.equal(await page.locator("svg.board.streets .block").count(), Number(blocks), "every block is shaded");
  // Over, the table draws no hand below: the seats panel shows my tiles instead of pointing there.
  const mine = page.locator("[data-hand-seat='0']");
  assert.doesNotMatch(await mine.textContent(), /below|\b1 tiles\b/, "the finished table announces nothing below");
  const left = Number(await mine.locator("[data-hand-size='0']").textContent());
  assert.equal(await mine.locator(".own-hand [data-tile]").count(), left, "my tiles left are shown in my seat");
  await page.screenshot({ path: `${shots}/table-streets-finished.png`, fullPage: true });
  console.log(`     ${moves} moves clicked in game ${id}, ${blocks} blocks`);
  await page.close();
});

await step("watch: a spectator's tab updates live while two other tabs play", async () => {
  const alice = await open("/");
  const id = await createFromLobby(alice, "1", {}, ["", ""]);
  const bob = await open(`/table/${id}`);
  await bob.fill(".join input[name=name]", "bob");
  await bob.locator("[data-join='1']").click();
  await bob.locator(".my-hand").waitFor();
  const watcher = await open(`/table/${id}`);
  await watcher.locator("[data-status=playing]").waitFor({ timeout: 10000 });
  assert.equal(await watcher.locator("[data-seat='1'] .seat-name").textContent(), "bob", "the name typed is the seat's name");
  for (let i = 0; i < 6; i++) {
    const before = await sequence(watcher);
    let moved = false;
    for (let tries = 0; !moved && tries < 200; tries++) {
      moved = (await playOne(alice)) || (await playOne(bob));
      if (!moved) await alice.waitForTimeout(50);
    }
    assert.ok(moved, "one of the two seats could move");
    await watcher.waitForFunction((b) => Number(document.querySelector("[data-sequence]")?.textContent) > b, before, { timeout: 10000 });
    assert.deepEqual(await strayTiles(watcher), [], "the spectator sees no hand");
    assert.deepEqual(await strayTiles(alice), [], "a player sees only their own hand");
  }
  assert.equal(await watcher.locator(".my-hand").count(), 0, "the spectator has no hand");
  assert.ok((await watcher.locator(".board-wrap [data-tile]").count()) > 0, "the spectator's board shows the tiles played");
  await watcher.screenshot({ path: `${shots}/watch.png`, fullPage: true });
  await Promise.all([alice.close(), bob.close(), watcher.close()]);
});

await step("replay: open the finished game, step and scrub through it, every hand shown", async () => {
  const page = await open(`/replay/${straightId}?at=5`);
  await page.locator("body[data-replay-at='5']").waitFor();
  await page.click("[data-step=first]");
  await page.locator("body[data-replay-at='1']").waitFor();
  for (let i = 2; i <= 6; i++) {
    await page.click("[data-step=next]");
    await page.locator(`body[data-replay-at='${i}']`).waitFor();
    assert.equal(await page.locator(".events li.current").getAttribute("data-seq"), String(i));
  }
  const total = await page.locator("[data-testid=scrubber]").getAttribute("max");
  const middle = Math.floor(Number(total) / 2);
  await page.locator("[data-testid=scrubber]").fill(String(middle));
  await page.locator(`body[data-replay-at='${middle}']`).waitFor();
  const hands = await page.locator(".seats [data-hand-seat] [data-tile]").count();
  assert.ok(hands > 0, "the replay shows the hands");
  assert.match(page.url(), new RegExp(`at=${middle}$`), "the address links to the event shown");
  await page.screenshot({ path: `${shots}/replay.png`, fullPage: true });
  await page.click("[data-step=last]");
  await page.locator(`body[data-replay-at='${total}']`).waitFor();
  await page.close();
});

await step("replay: one arrow key press on the focused scrubber moves one event", async () => {
  const page = await open(`/replay/${straightId}?at=3`);
  await page.locator("body[data-replay-at='3']").waitFor();
  const scrubber = page.locator("[data-testid=scrubber]");
  await scrubber.click(); // jumps to where it was clicked, and takes the focus
  await page.waitForFunction(() => document.activeElement?.getAttribute("data-testid") === "scrubber");
  await page.waitForFunction(() => document.body.dataset.replayAt === (document.querySelector("[data-testid=scrubber]")).value);
  const at = () => page.evaluate(() => Number(document.body.dataset.replayAt));
  for (const [key, by] of [["ArrowRight", 1], ["ArrowRight", 1], ["ArrowLeft", -1]]) {
    const before = await at();
    await page.keyboard.press(key);
    await page.waitForFunction((b) => Number(document.body.dataset.replayAt) !== b, before);
    await page.waitForTimeout(300); // a second step, if any, lands by then
    assert.equal(await at(), before + by, `one ${key} moves one event`);
    assert.equal(Number(await scrubber.inputValue()), before + by, "the scrubber shows the event");
    assert.match(page.url(), new RegExp(`at=${before + by}$`));
  }
  // With the focus elsewhere on the page, the arrow keys step too, one event a press.
  await page.locator("h1").click();
  const before = await at();
  await page.keyboard.press("ArrowLeft");
  await page.waitForFunction((b) => Number(document.body.dataset.replayAt) !== b, before);
  await page.waitForTimeout(300);
  assert.equal(await at(), before - 1, "ArrowLeft away from the scrubber moves one event");
  await page.close();
});

await step("replay: review the finished game: progress, then the chart, the marks, the decision at the scrubber and the seats", async () => {
  const page = await open(`/replay/${straightId}`);
  await page.locator("body[data-replay-at]").waitFor();
  // The progress may be gone by the time a locator looks: note every count the page shows.
  await page.evaluate(() => {
    window.reviewProgress = [];
    new MutationObserver(() => {
      const bar = document.querySelector("[data-testid=review-progress]");
      if (bar) window.reviewProgress.push(`${bar.getAttribute("value")} of ${bar.getAttribute("max")}`);
    }).observe(document.body, { subtree: true, childList: true });
  });
  // The levels offered, the judge among them; the review asked for is the default's.
  const levels = await page.locator("[data-testid=review-level] option").evaluateAll((options) => options.map((o) => o.value));
  assert.deepEqual(levels, ["default", "strong", "judge"]);
  assert.equal(await page.locator("[data-testid=review-level]").inputValue(), "default");
  const started = Date.now();
  await page.click("[data-testid=review-button]");
  const chart = page.locator("[data-testid=review-chart]");
  await chart.waitFor({ timeout: 240000 });
  const seen = await page.evaluate(() => window.reviewProgress);
  assert.ok(seen.length > 0, "the progress was shown while the review was made");
  console.log(`     reviewed in ${Date.now() - started} ms; progress shown: ${[...new Set(seen)].slice(-3).join(", ")}`);
  const points = chart.locator(".point");
  assert.ok((await points.count()) > 0, "the chart has a point per decision");
  const seats = page.locator("[data-testid=review-seats] tbody tr");
  assert.equal(await seats.count(), 2, "one summary row per seat");
  for (const row of await seats.all()) assert.match(await row.textContent(), /\d+\.\d ± \d+\.\d.*\d+\.\d ± \d+\.\d/, "loss and luck with their intervals");
  const marks = await page.locator(".replay-events [data-label]").evaluateAll((ms) => ms.map((m) => m.getAttribute("data-label")));
  assert.ok(marks.every((m) => ["inaccuracy", "mistake", "blunder"].includes(m)), `only poor decisions are marked: ${marks}`);
  // A point of the chart jumps to its event, where the decision is told beside the board.
  const seq = await points.first().getAttribute("data-seq");
  await points.first().click();
  await page.locator(`body[data-replay-at='${seq}']`).waitFor();
  const told = page.locator("[data-testid=review-decision]");
  await told.waitFor();
  assert.match(await told.textContent(), /^played .+ · best .+ · loss -?\d+\.\d ± \d+\.\d$/);
  assert.equal(await chart.locator(".marker").getAttribute("data-at"), seq, "the chart marks the event shown");
  // The page's stepping still works, and the marker follows it.
  await page.click("[data-step=next]");
  await page.locator(`body[data-replay-at='${Number(seq) + 1}']`).waitFor();
  assert.equal(await chart.locator(".marker").getAttribute("data-at"), String(Number(seq) + 1));
  await page.click("[data-step=previous]");
  await told.waitFor();
  // At a decision where the engine would have placed another tile, the board is the one the
  // mover faced, with both moves drawn on it.
  const differ = await points.evaluateAll((ps) =>
    ps
      .map((p) => [p.getAttribute("data-seq"), /played (\S+(?: \S+)?) · best (\S+(?: \S+)?) · loss/.exec(p.querySelector("title")?.textContent ?? "")])
      .find(([, m]) => m && m[1] !== m[2] && /^\d+-\d+/.test(m[1]) && /^\d+-\d+/.test(m[2])),
  );
  assert.ok(differ, "some placement of the game was not the engine's best");
  await chart.locator(`.point[data-seq='${differ[0]}']`).click();
  await page.locator(`[data-testid=board][data-ghosts='2'] [data-ghost=best]`).waitFor();
  assert.equal(await page.locator("[data-testid=board] [data-ghost=played]").count(), 1, "the move played is drawn too");
  assert.match(await page.locator("[data-testid=ghost-legend]").textContent(), /before the move/);
  console.log(`     at event ${differ[0]}: ${differ[1][0]}`);
  await page.screenshot({ path: `${shots}/replay-review.png`, fullPage: true });
  console.log(`     ${await points.count()} decisions, ${marks.length} marked (${marks.join(" ")})`);
  await page.close();
  // Kept once made: the replay shows it at once, without being asked, and the lobby marks the
  // game as reviewed.
  const again = await open(`/replay/${straightId}`);
  await again.locator("body[data-review=shown] [data-testid=review-chart]").waitFor({ timeout: 5000 });
  assert.equal(await again.locator("[data-testid=review-button]").count(), 0, "no button once the review is shown");
  await again.close();
  // The ladder plays on beside the test, so the game may have moved to an older page by now.
  const lobby = await open("/?status=3");
  const row = lobby.locator(`tr[data-game='${straightId}']`);
  for (let pages = 1; ; pages++) {
    await lobby.locator("body[data-lobby=loaded]").waitFor();
    if ((await row.count()) > 0) break;
    assert.ok(pages < 40, "the game is listed among the finished games");
    await lobby.click("[data-testid=older]");
  }
  await lobby.locator(`tr[data-game='${straightId}'] [data-reviewed]`).waitFor();
  assert.equal(await lobby.locator(`tr[data-game='${straightId}'] [data-reviewed]`).getAttribute("data-reviewed"), "default");
  await lobby.close();
});

await step("replay: the owner of a bot runs one of its decisions again and sees its view, output and cost", async () => {
  // The Straight game was played against a library bot this browser added, so it is ours.
  const page = await open(`/replay/${straightId}`);
  await page.locator("body[data-replay-at]").waitFor();
  const moves = page.locator(".replay-events li", { hasText: /\(bot\): (?!draw)/ });
  const seq = await moves.first().getAttribute("data-seq");
  await moves.first().locator("a").click();
  await page.locator(`body[data-replay-at='${seq}']`).waitFor();
  await page.click("[data-testid=explain-button]");
  const result = page.locator("[data-testid=explain-result]");
  await result.waitFor({ timeout: 20000 });
  assert.equal(await result.getAttribute("data-same"), "true", await result.textContent());
  assert.match(await page.locator("[data-testid=explain-cost]").textContent(), /^[\d,]+ of [\d,]+ operations · \d+\.\d ms/);
  const view = JSON.parse(await page.locator("[data-testid=explain-view]").textContent());
  assert.ok(Array.isArray(view.legal) && Array.isArray(view.hand), "the view it was given");
  console.log(`     event ${seq}: ${(await page.locator("[data-testid=explain-choice]").textContent()).slice(0, 90)}`);
  // A person's move has no such button.
  const person = page.locator(".replay-events li", { hasText: /ada: / }).first();
  await person.locator("a").click();
  await page.locator(`body[data-replay-at='${await person.getAttribute("data-seq")}']`).waitFor();
  assert.equal(await page.locator("[data-testid=explain-button]").count(), 0);
  await page.close();
});

await step("lobby: lists the games, with filters", async () => {
  const page = await open("/");
  await page.locator("body[data-lobby=loaded]").waitFor();
  assert.ok((await page.locator("tr[data-game]").count()) >= 3);
  await page.selectOption("select[name=status]", "3");
  await page.locator("body[data-lobby=loaded] tr[data-game]").first().waitFor();
  const statuses = await page.locator("tr[data-game] .status").allTextContents();
  assert.ok(statuses.length > 0 && statuses.every((s) => s === "finished"), `only finished games: ${statuses}`);
  await page.selectOption("select[name=status]", "0");
  await page.locator("body[data-lobby=loaded] tr[data-game]").first().waitFor();
  await page.screenshot({ path: `${shots}/lobby.png`, fullPage: false });
  await page.close();
});

await step("rules: both games' rules, with their diagrams", async () => {
  const page = await open("/rules/straight");
  await page.locator("article.rules h1").waitFor();
  assert.ok((await page.locator("article.rules img").count()) >= 3);
  await page.screenshot({ path: `${shots}/rules.png` });
  await page.click("a.tab[href='/rules/streets']");
  await page.locator("article.rules h1", { hasText: "Streets and Avenues" }).waitFor();
  await page.close();
});

await step("rules: the link to the bot view lands on that section of the app's bot guide", async () => {
  for (const game of ["straight", "streets"]) {
    const page = await open(`/rules/${game}`);
    await page.locator("article.rules h1").waitFor();
    const link = page.locator("article.rules a[href='/bots/guide#the-view']");
    assert.equal(await link.count(), 1, `the ${game} rules link to the bot guide's view`);
    await link.click();
    await page.waitForURL((url) => url.pathname === "/bots/guide" && url.hash === "#the-view");
    const heading = page.locator("article.guide h2#the-view");
    await heading.waitFor();
    assert.equal(await heading.textContent(), "The view");
    await page.waitForFunction(() => {
      const r = document.getElementById("the-view")?.getBoundingClientRect();
      // Scrolled to the top of the window, give or take the pixel that fractional layout leaves.
      return !!r && r.top >= -1 && r.top < window.innerHeight / 2;
    }, null, { timeout: 5000 });
    assert.equal(await page.locator("nav a.active").getAttribute("data-nav"), "guide");
    assert.equal(await page.title(), "Writing a bot · Clack");
    if (game === "streets") await page.screenshot({ path: `${shots}/bot-guide.png` });
    await page.close();
  }
  // Opened directly, with the section in the address.
  const direct = await open("/bots/guide#limits");
  await direct.locator("article.guide h2#limits").waitFor();
  await direct.waitForFunction(() => (document.getElementById("limits")?.getBoundingClientRect().top ?? -2) >= -1 && document.getElementById("limits").getBoundingClientRect().top < window.innerHeight / 2);
  await direct.close();
});

await step("bots: the upload form links to the bot guide and refuses a bad name itself, with no console error", async () => {
  const page = await context.newPage();
  const logged = [];
  page.on("console", (m) => m.type() === "error" && logged.push(m.text()));
  page.on("pageerror", (e) => errors.push(`/bots: ${e.message}`));
  await page.goto(base + "/bots");
  await page.locator("body[data-bots]").waitFor();
  const form = page.locator("form", { has: page.locator("input[name=name]") });
  await form.locator("input[name=name]").fill("bad name!");
  await form.locator("textarea[name=source]").fill("fn choose(view) { 0 }");
  let uploads = 0;
  page.on("request", (r) => r.url().includes("UploadBot") && uploads++);
  await form.locator("button[type=submit]").click();
  assert.equal(await form.locator("input[name=name]").evaluate((e) => e.validity.patternMismatch), true, "the name breaks the pattern");
  assert.equal(await form.locator("input[name=name]:invalid").count(), 1);
  await page.waitForTimeout(300);
  assert.equal(uploads, 0, "the form itself refused the name: nothing was sent");
  assert.equal(await form.locator(".message").textContent(), "", "no server error shown");
  await form.locator("input[name=name]").fill("good-name_1");
  assert.equal(await form.locator("input[name=name]").evaluate((e) => e.validity.valid), true);
  assert.deepEqual(logged, [], "no console error (an invalid pattern logs one)");
  await form.locator("[data-testid=guide-link]").click();
  await page.waitForURL((url) => url.pathname === "/bots/guide" && url.hash === "#the-view");
  await page.locator("article.guide h2#the-view").waitFor();
  await page.close();
});

await step("bots: Play one game to watch opens a paced game that is still being played", async () => {
  const page = await open("/bots");
  await page.locator("body[data-bots]").waitFor();
  await page.selectOption("select[name=entrant0]", "straight-greedy");
  await page.selectOption("select[name=entrant1]", "straight-random");
  await page.locator("button", { hasText: "Play one game to watch" }).click();
  await page.waitForURL(/\/table\//);
  await page.locator("[data-status]").waitFor();
  const id = decodeURIComponent(new URL(page.url()).pathname.split("/").pop());
  // The game's own options carry the pace: the table reads it from the game's creation event.
  await page.locator("[data-pace]").waitFor({ timeout: 5000 });
  const pace = Number(await page.locator("[data-pace]").getAttribute("data-pace"));
  assert.ok(pace >= 500 && pace <= 2000, `a pace a person can follow: ${pace} ms`);
  assert.equal(await status(page), "playing", "the table opens on a game still being played");
  // And it plays on, live, at about that pace.
  const first = await sequence(page);
  await page.waitForFunction((b) => Number(document.querySelector("[data-sequence]")?.textContent) > b, first, { timeout: 10000 });
  assert.equal(await status(page), "playing", "still being played a move later");
  await page.screenshot({ path: `${shots}/watch-bots.png`, fullPage: true });
  console.log(`     paced game ${id} at ${pace} ms`);
  await page.close();
});

await step("match: run a match between two bots and open one of its games", async () => {
  const page = await open("/bots");
  await page.locator("body[data-bots]").waitFor();
  await page.fill("[data-testid=match-games]", "2");
  // Short games between quick bots: the whole match must end within the server's request deadline.
  await page.fill("[data-testid=match-target]", "50");
  await page.selectOption("select[name=entrant0]", "straight-greedy");
  await page.selectOption("select[name=entrant1]", "straight-random");
  await page.click("[data-testid=run-match]");
  await page.locator("[data-testid=match-result] table").first().waitFor({ timeout: 60000 });
  assert.equal(await page.locator("[data-testid=match-result] table:first-child tbody tr").count(), 2, "one row per entrant");
  // Every game of the match is stored and listed, each a link to its replay.
  const games = page.locator("[data-testid=match-game-list] tbody tr");
  assert.equal(await games.count(), 2, "both games of the match are listed");
  const id = await games.first().getAttribute("data-game");
  assert.equal(await games.first().locator(".chip.bot").count(), 2, "the game's seats are the bots");
  await page.screenshot({ path: `${shots}/match.png`, fullPage: true });
  await games.first().locator("a", { hasText: "Replay" }).click();
  await page.waitForURL((url) => url.pathname === `/replay/${encodeURIComponent(id)}`);
  await page.locator("body[data-replay-at]").waitFor();
  const total = await page.locator("[data-testid=scrubber]").getAttribute("max");
  assert.equal(await page.locator(".replay-events li").count(), Number(total), "the match game's whole log is there");
  assert.ok(Number(total) > 10, `a game played to its end: ${total} events`);
  assert.match(await page.locator(".replay-events li").last().textContent(), /game over/, "it ends as a finished game");
  await page.screenshot({ path: `${shots}/match-replay.png`, fullPage: true });
  await page.close();
});

await step("bot page and ladder: a bot's versions, rating chart, recent games and faults; the leaderboard links to it", async () => {
  // The server runs the straight-2 ladder (anchored to engine:fast): the example bots added in
  // the first step play rated deals in the background while the other steps run.
  const page = await open("/ladder");
  await page.locator("[data-testid=leaderboard] tbody tr[data-bot]").first().waitFor({ timeout: 60000 });
  assert.match(await page.locator("[data-testid=ladder-status]").textContent(), /^Running · \d+ deals played/);
  assert.equal(await page.locator(".tabs a.tab.active").textContent(), "straight-2");
  const anchor = page.locator("[data-testid=leaderboard] tbody tr[data-bot='engine:fast']");
  assert.equal(await anchor.locator("td").last().textContent(), "anchor", "the engine is the board's anchor");
  assert.equal(await anchor.locator("a").count(), 0, "the engine has no bot page");
  assert.equal(await page.locator("[data-testid=ladder-more]").isVisible(), false, "one page: no More");
  await page.screenshot({ path: `${shots}/ladder.png`, fullPage: true });
  // A bot's page, from its link on the board, once it has played a deal.
  const link = page.locator("[data-testid=leaderboard] tbody tr[data-bot='straight-greedy'] a");
  for (let i = 0; i < 60 && !(await link.count()); i++) {
    await page.waitForTimeout(1000);
    await page.reload();
    await page.locator("[data-testid=leaderboard] tbody tr").first().waitFor();
  }
  await link.click();
  await page.waitForURL((url) => url.pathname === "/bots/straight-greedy");
  await page.locator("[data-testid=bot-versions] tbody tr[data-version]").first().waitFor();
  // The chart is drawn from the ratings after each deal: until greedy has played one, the page
  // says so; it is read again until it has.
  const chart = page.locator("[data-testid=rating-chart] path[data-series]");
  for (let i = 0; i < 60; i++) {
    await page.locator("[data-testid=bot-ratings] :is(svg, p)").first().waitFor();
    if (await chart.count()) break;
    await page.waitForTimeout(1000);
    await page.reload();
  }
  assert.match(await page.locator("[data-testid=rating-chart] path[data-series]").first().getAttribute("data-series"), / on straight-2$/);
  // Its recent games (the match's and the ladder's among them), each a link to its replay or table.
  const games = page.locator("[data-testid=bot-games] tbody tr[data-game]");
  await games.first().waitFor();
  assert.ok((await games.count()) >= 2, "its recent games are listed");
  assert.ok((await games.first().locator(".chip.bot").count()) >= 1, "its seat is marked in each game");
  await page.locator("[data-testid=bot-faults] :is(p, ul)").first().waitFor();
  await page.screenshot({ path: `${shots}/bot-page.png`, fullPage: true });
  await page.click("nav a[data-nav=ladder]");
  await page.waitForURL((url) => url.pathname === "/ladder");
  await page.click(".tabs a:has-text('streets-3')");
  await page.waitForURL((url) => url.pathname === "/ladder/streets-3");
  await page.locator("[data-testid=ladder-status]").filter({ hasText: "deals played" }).waitFor();
  await page.close();
});

// Load times (reported, not asserted): navigation start to the page's data on screen.
await step("load times", async () => {
  const pages = [
    ["lobby", "/", "body[data-lobby=loaded] tr[data-game]"],
    ["table", `/table/${straightId}`, "[data-sequence]"],
    ["replay", `/replay/${straightId}`, "body[data-replay-at]"],
    ["bots", "/bots", "body[data-bots]"],
    ["rules", "/rules/streets", "article.rules h1"],
  ];
  for (const [name, path, ready] of pages) {
    const page = await context.newPage();
    await page.goto(base + path);
    await page.locator(ready).first().waitFor();
    const ms = await page.evaluate(() => performance.getEntriesByName("clack:ready")[0].startTime);
    console.log(`     load ${name}: ${ms.toFixed(0)} ms`);
    await page.close();
  }
});

await browser.close();
console.log(`     moves tried again after a click that did not take: ${lostMoves}`);
assert.deepEqual(errors, [], "no page threw");
const failed = results.filter(([, ok]) => !ok).length;
console.log(`browser: ${results.length - failed} passed, ${failed} failed; screenshots in ${shots}`);
process.exit(failed ? 1 : 0);
