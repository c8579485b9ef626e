// Component tests of the forms' own checks: every `pattern` attribute must compile as browsers
// compile it (with the `v` flag, where `[A-Za-z0-9_-]` is a syntax error and the pattern is then
// ignored), and the bot upload form must refuse a bad name itself, before any call.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { botsPage } from "../src/pages/bots";

// The app's sources as text, to find every pattern set anywhere, on any page.
const sources = {
  ...import.meta.glob(["../src/**/*.ts", "!../src/gen/**"], { query: "?raw", import: "default", eager: true }),
  ...import.meta.glob("../index.html", { query: "?raw", import: "default", eager: true }),
} as Record<string, string>;

/** Every pattern the sources set: `pattern: "..."` in a DOM helper call, `pattern="..."` in HTML, `.pattern = "..."`. */
function sourcePatterns(): Array<[string, string]> {
  const found: Array<[string, string]> = [];
  for (const [file, text] of Object.entries(sources)) {
    for (const m of text.matchAll(/\bpattern["']?\s*[:=]\s*("(?:[^"\\]|\\.)*")/g)) found.push([file, JSON.parse(m[1]) as string]);
  }
  return found;
}

/** As the HTML standard compiles a pattern: the whole value, with the `v` flag. */
const compile = (p: string) => new RegExp(`^(?:${p})$`, "v");

describe("pattern attributes", () => {
  beforeEach(() => {
    // The page lists the library on load; here there is no server, and no call is needed.
    vi.stubGlobal("fetch", () => Promise.reject(new Error("no server in component tests")));
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    document.body.replaceChildren();
  });

  it("every pattern in the app's sources compiles with the v flag", () => {
    const patterns = sourcePatterns();
    expect(patterns.length).toBeGreaterThan(0);
    for (const [file, p] of patterns) expect(() => new RegExp(p, "v"), `${file}: ${p}`).not.toThrow();
  });

  it("every pattern attribute on the bots page compiles with the v flag", () => {
    const root = document.createElement("main");
    document.body.append(root);
    const stop = new AbortController();
    botsPage(root, stop.signal);
    const inputs = [...root.querySelectorAll<HTMLInputElement>("[pattern]")];
    expect(inputs.length).toBeGreaterThan(0);
    for (const input of inputs) expect(() => compile(input.getAttribute("pattern")!), input.name).not.toThrow();
    stop.abort();
  });

  it("the bot upload form refuses a bad name itself", () => {
    const root = document.createElement("main");
    document.body.append(root);
    const stop = new AbortController();
    botsPage(root, stop.signal);
    const name = root.querySelector<HTMLInputElement>("form input[name=name]")!;
    for (const bad of ["bad name", "é", "a/b", "x".repeat(65)]) {
      name.value = bad;
      expect(name.validity.patternMismatch, bad).toBe(true);
    }
    for (const good of ["my-bot", "A_1", "x".repeat(64)]) {
      name.value = good;
      expect(name.validity.patternMismatch, good).toBe(false);
    }
    stop.abort();
  });
});
