// Builds the single-page app into dist/, which the server embeds. The rules pages are the
// project's own markdown (docs/rules/), rendered to HTML here at build time, their diagrams
// inlined, so the page needs no markdown library and no second copy of the rules.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { marked } from "marked";
import type { Plugin } from "vite";
import { defineConfig } from "vitest/config";

const rulesDir = fileURLToPath(new URL("../docs/rules", import.meta.url));
const docs = { straight: "straight-dominoes.md", streets: "streets-and-avenues.md" } as const;

function renderRules(file: string): string {
  let html = marked.parse(readFileSync(resolve(rulesDir, file), "utf8"), { async: false }) as string;
  html = html.replace(/src="img\/([\w-]+\.svg)"/g, (_, name: string) => {
    const svg = readFileSync(resolve(rulesDir, "img", name));
    return `src="data:image/svg+xml;base64,${svg.toString("base64")}"`;
  });
  html = html.replace(/href="straight-dominoes\.md(#[^"]*)?"/g, (_, hash = "") => `href="/rules/straight${hash}"`);
  html = html.replace(/href="streets-and-avenues\.md(#[^"]*)?"/g, (_, hash = "") => `href="/rules/streets${hash}"`);
  // Headings get ids so that the documents' own tables of contents work.
  html = html.replace(/<h([23])>(.*?)<\/h\1>/g, (_, level: string, text: string) => {
    const id = text.replace(/<[^>]+>/g, "").toLowerCase().replace(/&[a-z#0-9]+;/g, "").replace(/[^\w\s-]/g, "").trim().replace(/\s/g, "-");
    return `<h${level} id="${id}">${text}</h${level}>`;
  });
  return html;
}

function rules(): Plugin {
  const id = "virtual:rules";
  return {
    name: "clack-rules",
    resolveId: (source) => (source === id ? "\0" + id : null),
    load(loaded) {
      if (loaded !== "\0" + id) return null;
      for (const file of Object.values(docs)) this.addWatchFile(resolve(rulesDir, file));
      const out = Object.fromEntries(Object.entries(docs).map(([k, f]) => [k, renderRules(f)]));
      return `export default ${JSON.stringify(out)};`;
    },
  };
}

export default defineConfig({
  plugins: [rules()],
  build: { outDir: "dist", emptyOutDir: true, assetsInlineLimit: 0, chunkSizeWarningLimit: 800 },
  test: { environment: "jsdom", include: ["tests/*.test.ts"] },
});
