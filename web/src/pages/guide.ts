// The bot author's guide: the project's bots/README.md, rendered at build time like the rules,
// so that what a bot is given and its limits are beside the upload form, and the rules' links
// to "the view" land on that section here.
import { h, ready } from "../dom";

export async function guidePage(root: HTMLElement): Promise<void> {
  const guide = (await import("virtual:bot-guide")).default;
  const article = h("article", { class: "rules guide" });
  article.innerHTML = guide;
  root.append(h("p", { class: "muted" }, "Upload a bot, run a match or watch bots play on the ", h("a", { href: "/bots" }, "Bots page"), "."), article);
  ready();
  document.title = "Writing a bot · Clack";
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}
