// The rules of both games: the project's own docs/rules markdown, rendered at build time. They
// are most of the app's bytes, so they load only when this page is opened.
import { h, ready } from "../dom";

export async function rulesPage(root: HTMLElement, which: string): Promise<void> {
  const rules = (await import("virtual:rules")).default;
  const game = which === "streets" ? "streets" : "straight";
  const article = h("article", { class: "rules" });
  article.innerHTML = rules[game];
  root.append(
    h(
      "div",
      { class: "tabs" },
      h("a", { href: "/rules/straight", class: game === "straight" ? "tab active" : "tab" }, "Straight Dominoes"),
      h("a", { href: "/rules/streets", class: game === "streets" ? "tab active" : "tab" }, "Streets and Avenues"),
    ),
    article,
  );
  ready();
  document.title = `Rules · ${game === "straight" ? "Straight Dominoes" : "Streets and Avenues"} · Clack`;
  if (location.hash) document.getElementById(decodeURIComponent(location.hash.slice(1)))?.scrollIntoView();
}
