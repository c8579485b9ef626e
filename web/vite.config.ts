// Builds the single-page app into dist/, which the server embeds. The rules pages and the bot
// guide are the project's own markdown (docs/rules/, bots/README.md), rendered to HTML here at
// build time, their diagrams inlined, so the page needs no markdown library and no second copy
// of the documents.
import { readFileSync } from "node:fs";
import { posix, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { marked } from "marked";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const repo = fileURLToPath(new URL("..", import.meta.url));

/** The documents the app shows: their files (from the repository's root) and their app pages. */
const pages: Record<string, string> = {
  "docs/rules/straight-dominoes.md": "/rules/straight",
  "docs/rules/streets-and-avenues.md": "/rules/streets",
  "bots/README.md": "/bots/guide",
};

/**
 * A document as HTML. Links between the documents become links to their app pages (with the
 * section, if any): left as they are, `../../bots/README.md` would resolve against the page's
 * address and open whatever app page owns that path.
 */
function render(file: string): string {
  const dir = posix.dirname(file);
  let html = marked.parse(readFileSync(resolve(repo, file), "utf8"), { async: false }) as string;
  html = html.replace(/src="(img\/[\w-]+\.svg)"/g, (_, name: string) => {
    const svg = readFileSync(resolve(repo, dir, name));
    return `src="data:image/svg+xml;base64,${svg.toString("base64")}"`;
  });
  html = html.replace(/href="([^"#:]+\.md)(#[^"]*)?"/g, (whole, target: string, hash = "") => {
    const page = pages[posix.normalize(posix.join(dir, target))];
    return page ? `href="${page}${hash}"` : whole;
  });
  // Headings get ids so that the documents' own tables of contents, and links from the other
  // documents to their sections, work.
  html = html.replace(/<h([23])>(.*?)<\/h\1>/g, (_, level: string, text: string) => {
    const id = text.replace(/<[^>]+>/g, "").toLowerCase().replace(/&[a-z#0-9]+;/g, "").replace(/[^\w\s-]/g, "").trim().replace(/\s/g, "-");
    return `<h${level} id="${id}">${text}</h${level}>`;
  });
  return html;
}

/**
 * `virtual:rules` (both games' rules) and `virtual:bot-guide`: each its own chunk, loaded only
 * when its page is opened, since the rules are most of the app's bytes.
 */
function documents(): Plugin {
  const modules: Record<string, Record<string, string> | string> = {
    "virtual:rules": { straight: "docs/rules/straight-dominoes.md", streets: "docs/rules/streets-and-avenues.md" },
    "virtual:bot-guide": "bots/README.md",
  };
  return {
    name: "clack-documents",
    resolveId: (source) => (source in modules ? "\0" + source : null),
    load(loaded) {
      const files = loaded.startsWith("\0") ? modules[loaded.slice(1)] : undefined;
      if (files === undefined) return null;
      for (const file of typeof files === "string" ? [files] : Object.values(files)) this.addWatchFile(resolve(repo, file));
      const out = typeof files === "string" ? render(files) : Object.fromEntries(Object.entries(files).map(([k, f]) => [k, render(f)]));
      return `export default ${JSON.stringify(out)};`;
    },
  };
}

export default defineConfig({
  plugins: [documents()],
  build: { outDir: "dist", emptyOutDir: true, assetsInlineLimit: 0, chunkSizeWarningLimit: 800 },
  // The dev server and the component tests read the example bots and the docs from outside web/.
  server: { fs: { allow: [".", "../bots", "../docs"] } },
  test: { environment: "jsdom", include: ["tests/*.test.ts"] },
});
