// Component tests of the documents rendered into the app at build time (vite.config.ts): the
// rules of both games and the bot author's guide. Every link in them must land on an app page
// and, where it names a section, on a heading of that page: a link left pointing at a markdown
// file opens whichever app page happens to own that path instead.
import { describe, expect, it } from "vitest";
import guide from "virtual:bot-guide";
import rules from "virtual:rules";

/** The app's document pages, by path, as main.ts routes them. */
const pages: Record<string, string> = { "/rules/straight": rules.straight, "/rules/streets": rules.streets, "/bots/guide": guide };

function parse(html: string): HTMLElement {
  const article = document.createElement("article");
  article.innerHTML = html;
  return article;
}

const idsOf = new Map<string, Set<string>>();
function ids(path: string): Set<string> {
  if (!idsOf.has(path)) idsOf.set(path, new Set([...parse(pages[path]).querySelectorAll("[id]")].map((e) => e.id)));
  return idsOf.get(path)!;
}

describe("documents in the app", () => {
  for (const [path, html] of Object.entries(pages)) {
    it(`every link on ${path} lands on an app page and section`, () => {
      const links = [...parse(html).querySelectorAll("a[href]")].map((a) => a.getAttribute("href")!);
      expect(links.length).toBeGreaterThan(0);
      for (const href of links) {
        if (/^(https?|mailto):/.test(href)) continue;
        const url = new URL(href, `http://app${path}`);
        expect(Object.keys(pages), `${path}: ${href}`).toContain(url.pathname);
        const anchor = decodeURIComponent(url.hash.slice(1));
        if (anchor) expect(ids(url.pathname).has(anchor), `${path}: ${href} names no heading there`).toBe(true);
      }
    });
  }

  it("the rules link to the bot guide's section on the view", () => {
    for (const html of [rules.straight, rules.streets]) {
      expect([...parse(html).querySelectorAll("a")].map((a) => a.getAttribute("href"))).toContain("/bots/guide#the-view");
    }
    expect(parse(guide).querySelector("h2#the-view")?.textContent).toBe("The view");
  });

  it("renders the bot guide from bots/README.md: its tables and code", () => {
    const article = parse(guide);
    expect(article.querySelector("h1")?.textContent).toBe("Writing a Clack bot");
    expect(article.querySelectorAll("table").length).toBeGreaterThanOrEqual(3);
    expect(article.querySelector("pre code")?.textContent).toContain("fn choose(view)");
  });
});
