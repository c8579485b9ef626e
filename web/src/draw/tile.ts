// One domino drawn in SVG: a rounded ivory tile, a dividing line and real pips, from blank to 12.
import { s } from "../dom";

/** Pip centres in a unit square, for each number (a double-twelve set needs up to 12). */
const P = { l: 0.25, c: 0.5, r: 0.75, t: 0.25, m: 0.5, b: 0.75 };
const PIPS: ReadonlyArray<ReadonlyArray<readonly [number, number]>> = [
  [],
  [[P.c, P.m]],
  [[P.l, P.t], [P.r, P.b]],
  [[P.l, P.t], [P.c, P.m], [P.r, P.b]],
  [[P.l, P.t], [P.r, P.t], [P.l, P.b], [P.r, P.b]],
  [[P.l, P.t], [P.r, P.t], [P.c, P.m], [P.l, P.b], [P.r, P.b]],
  [[P.l, P.t], [P.r, P.t], [P.l, P.m], [P.r, P.m], [P.l, P.b], [P.r, P.b]],
  [[P.l, P.t], [P.r, P.t], [P.l, P.m], [P.c, P.m], [P.r, P.m], [P.l, P.b], [P.r, P.b]],
  [[P.l, P.t], [P.c, P.t], [P.r, P.t], [P.l, P.m], [P.r, P.m], [P.l, P.b], [P.c, P.b], [P.r, P.b]],
  [[P.l, P.t], [P.c, P.t], [P.r, P.t], [P.l, P.m], [P.c, P.m], [P.r, P.m], [P.l, P.b], [P.c, P.b], [P.r, P.b]],
  // 10 to 12: three columns of four rows.
  [[P.l, 0.2], [P.l, 0.4], [P.l, 0.6], [P.l, 0.8], [P.c, 0.35], [P.c, 0.65], [P.r, 0.2], [P.r, 0.4], [P.r, 0.6], [P.r, 0.8]],
  [[P.l, 0.2], [P.l, 0.4], [P.l, 0.6], [P.l, 0.8], [P.c, 0.3], [P.c, 0.5], [P.c, 0.7], [P.r, 0.2], [P.r, 0.4], [P.r, 0.6], [P.r, 0.8]],
  [[P.l, 0.2], [P.l, 0.4], [P.l, 0.6], [P.l, 0.8], [P.c, 0.2], [P.c, 0.4], [P.c, 0.6], [P.c, 0.8], [P.r, 0.2], [P.r, 0.4], [P.r, 0.6], [P.r, 0.8]],
];

/** The pips of one half: a unit square at (x, y), `size` wide. */
export function pips(n: number, x: number, y: number, size: number): SVGElement[] {
  const r = size * (n > 9 ? 0.065 : 0.085);
  return (PIPS[n] ?? []).map(([px, py]) => s("circle", { class: "pip", cx: x + px * size, cy: y + py * size, r }));
}

export interface TileOptions {
  /** Extra classes, e.g. "legal", "selected", "ghost". */
  cls?: string;
  /** Extra data attributes (without the data- prefix). */
  data?: Record<string, string | number>;
}

/**
 * A domino whose top-left corner is at (x, y), `u` per square. Horizontal: `first` on the west
 * half, `second` on the east; vertical: `first` north, `second` south.
 */
export function domino(first: number, second: number, x: number, y: number, vertical: boolean, u: number, opts: TileOptions = {}): SVGElement {
  const w = vertical ? u : 2 * u;
  const hgt = vertical ? 2 * u : u;
  const [lo, hi] = first <= second ? [first, second] : [second, first];
  const attrs: Record<string, string | number> = { class: `tile ${opts.cls ?? ""}`.trim(), "data-tile": `${lo}-${hi}` };
  for (const [k, v] of Object.entries(opts.data ?? {})) attrs[`data-${k}`] = v;
  const inset = u * 0.04;
  const g = s("g", attrs);
  g.append(
    s("rect", { class: "face", x: x + inset, y: y + inset, width: w - 2 * inset, height: hgt - 2 * inset, rx: u * 0.12 }),
    vertical
      ? s("line", { class: "divider", x1: x + u * 0.15, y1: y + u, x2: x + u * 0.85, y2: y + u })
      : s("line", { class: "divider", x1: x + u, y1: y + u * 0.15, x2: x + u, y2: y + u * 0.85 }),
    ...pips(first, x, y, u),
    ...(vertical ? pips(second, x, y + u, u) : pips(second, x + u, y, u)),
  );
  return g;
}

/**
 * A move drawn on the board as a ghost tile beside the real ones: where it goes (an open end's
 * key, `east@5` or `lead`, or a spot's, `a0:2`), its halves as the move's notation writes them,
 * and what it is (`played`, `best`), which gives its class and, with `title`, its tooltip.
 */
export interface Ghost {
  key: string;
  first: number;
  second: number;
  kind: "played" | "best";
  title: string;
}

/** A ghost domino at (x, y): the tile, outlined and see-through, with its tooltip. */
export function ghostTile(ghost: Ghost, first: number, second: number, x: number, y: number, vertical: boolean, u: number): SVGElement {
  return s("g", { class: `ghost ghost-${ghost.kind}`, "data-ghost": ghost.kind, "data-key": ghost.key }, domino(first, second, x, y, vertical, u), s("title", {}, ghost.title));
}

/** A face-down domino: what the table shows of another seat's tiles. */
export function back(x: number, y: number, vertical: boolean, u: number): SVGElement {
  const w = vertical ? u : 2 * u;
  const hgt = vertical ? 2 * u : u;
  return s("rect", { class: "tile-back", x: x + u * 0.04, y: y + u * 0.04, width: w - u * 0.08, height: hgt - u * 0.08, rx: u * 0.12 });
}

/** An SVG element of its own holding one domino, for hands and lists. */
export function tileSvg(first: number, second: number, u: number, vertical = true, opts: TileOptions = {}): SVGElement {
  const w = vertical ? u : 2 * u;
  const hgt = vertical ? 2 * u : u;
  const svg = s("svg", { class: "tile-svg", width: w, height: hgt, viewBox: `0 0 ${w} ${hgt}` });
  svg.append(domino(first, second, 0, 0, vertical, u, opts));
  return svg;
}
