// The ladder: one board per configuration, best first, a page at a time (GetLeaderboard). Each
// bot links to its page; the engine anchor, fixed at 1500, has none.
import { bots, why } from "../api";
import { h, ready } from "../dom";
import type { LadderEntry } from "../gen/clack/v1/bot_service_pb";

export const CONFIGURATIONS: Array<[string, string]> = [
  ["straight-2", "Straight Dominoes, 2 players"],
  ["straight-4-teams", "Straight Dominoes, 4 players in teams"],
  ["streets-3", "Streets and Avenues, 3 players (double-nine)"],
];

const PAGE = 25;

/** A bot's name as a link to its page; an engine level as plain text. */
export function botLink(botId: string): HTMLElement {
  return botId.startsWith("engine:") ? h("span", {}, botId) : h("a", { href: `/bots/${encodeURIComponent(botId)}` }, botId);
}

export function ladderPage(root: HTMLElement, configuration: string, signal: AbortSignal): void {
  const known = CONFIGURATIONS.find(([name]) => name === configuration) ?? CONFIGURATIONS[0];
  document.title = `Ladder ${known[0]} · Clack`;
  const status = h("p", { class: "muted", "data-testid": "ladder-status" });
  const body = h("tbody", {});
  // Shown by its style, not the `hidden` attribute, which the buttons' display rule overrides.
  const more = h("button", { style: "display: none", "data-testid": "ladder-more" }, "More");
  let token = "";

  async function page(): Promise<void> {
    try {
      const board = await bots.getLeaderboard({ configuration: known[0], pageSize: PAGE, pageToken: token }, { signal });
      status.textContent = `${board.running ? "Running" : "Not running on this server (clack serve --ladder)"} · ${board.deals} deals played`;
      body.append(...board.entries.map(row));
      if (!token && board.entries.length === 0) body.append(h("tr", {}, h("td", { colspan: 7, class: "muted" }, "No one is on this ladder yet.")));
      token = board.nextPageToken;
      more.style.display = token ? "" : "none";
      ready();
    } catch (e) {
      status.textContent = `Could not read the ladder: ${why(e)}`;
    }
  }
  more.addEventListener("click", () => void page());

  root.append(
    h("h1", {}, "Ladder"),
    h(
      "p",
      { class: "muted" },
      "Every active bot version plays rated deals against the others in the background, each deal once from every seat. Ratings are on the Elo scale, anchored to an engine level (marked anchor) held at 1500; ± is the 95% interval.",
    ),
    h("div", { class: "tabs" }, ...CONFIGURATIONS.map(([name, label]) => h("a", { href: `/ladder/${name}`, class: name === known[0] ? "tab active" : "tab", title: label }, name))),
    h("h2", {}, known[1]),
    status,
    h(
      "table",
      { class: "games ladder", "data-testid": "leaderboard" },
      h("thead", {}, h("tr", {}, ...["Rank", "Bot", "Version", "Rating", "Games", "Win share", ""].map((t) => h("th", {}, t)))),
      body,
    ),
    more,
  );
  void page();
}

function row(e: LadderEntry): HTMLElement {
  const note = e.anchor ? "anchor" : e.retired ? "retired" : "";
  return h(
    "tr",
    { "data-bot": e.botId, class: e.retired ? "retired" : "" },
    h("td", { class: "num" }, String(e.rank)),
    h("td", {}, botLink(e.botId)),
    h("td", {}, h("code", { title: e.version }, e.version.slice(0, 10))),
    h("td", { class: "num" }, e.anchor ? e.rating.toFixed(0) : `${e.rating.toFixed(0)} ± ${e.ci95.toFixed(0)}`),
    h("td", { class: "num" }, String(e.games)),
    h("td", { class: "num" }, e.games ? `${(100 * e.winShare).toFixed(1)}%` : "–"),
    h("td", { class: "muted" }, note),
  );
}
