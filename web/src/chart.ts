// A rating-over-time chart in plain SVG: one line per series (a bot version on one ladder), with
// its 95% interval as a band. The geometry is pure (`layout`), so it is tested without a browser.
import { s } from "./dom";

export interface Point {
  unixMillis: number;
  rating: number;
  ci95: number;
}

export interface Series {
  label: string;
  points: Point[];
}

export interface Layout {
  /** One SVG path per series: the line, and the band of its interval; and a dot per point (a
   * series of one point has a line of no length). */
  lines: Array<{ label: string; line: string; band: string; dots: Array<[number, number]> }>;
  /** The rating axis: the rounded values drawn, with their heights. */
  ticks: Array<{ value: number; y: number }>;
}

const PAD = { left: 44, right: 8, top: 8, bottom: 18 };

/** Where every series goes on a `width` × `height` chart: time across, rating up. */
export function layout(series: Series[], width: number, height: number): Layout {
  const all = series.flatMap((x) => x.points);
  if (all.length === 0) return { lines: [], ticks: [] };
  const t0 = Math.min(...all.map((p) => p.unixMillis));
  const t1 = Math.max(...all.map((p) => p.unixMillis));
  const lo = Math.min(...all.map((p) => p.rating - p.ci95));
  const hi = Math.max(...all.map((p) => p.rating + p.ci95));
  const [r0, r1] = lo === hi ? [lo - 50, hi + 50] : [lo, hi];
  const x = (t: number) => PAD.left + (t1 === t0 ? 0.5 : (t - t0) / (t1 - t0)) * (width - PAD.left - PAD.right);
  const y = (r: number) => PAD.top + (1 - (r - r0) / (r1 - r0)) * (height - PAD.top - PAD.bottom);
  const fmt = (n: number) => n.toFixed(1);
  const lines = series.map(({ label, points }) => {
    const line = points.map((p, i) => `${i ? "L" : "M"}${fmt(x(p.unixMillis))},${fmt(y(p.rating))}`).join("");
    const upper = points.map((p, i) => `${i ? "L" : "M"}${fmt(x(p.unixMillis))},${fmt(y(p.rating + p.ci95))}`);
    const lower = [...points].reverse().map((p) => `L${fmt(x(p.unixMillis))},${fmt(y(p.rating - p.ci95))}`);
    const dots = points.map((p): [number, number] => [Number(fmt(x(p.unixMillis))), Number(fmt(y(p.rating)))]);
    return { label, line, band: points.length ? `${upper.join("")}${lower.join("")}Z` : "", dots };
  });
  const step = niceStep((r1 - r0) / 4);
  const ticks = [];
  for (let v = Math.ceil(r0 / step) * step; v <= r1; v += step) ticks.push({ value: v, y: y(v) });
  return { lines, ticks };
}

/** A round step (1, 2 or 5 times a power of ten) near `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(Math.max(raw, 1e-9)));
  const m = raw / power;
  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * power;
}

const COLOURS = ["#2563eb", "#16a34a", "#d97706", "#9333ea", "#dc2626", "#0891b2"];

/** The chart, with a legend of the series' labels. */
export function ratingChart(series: Series[], width = 640, height = 220): SVGElement {
  const { lines, ticks } = layout(series, width, height);
  const colour = (i: number) => COLOURS[i % COLOURS.length];
  return s(
    "svg",
    { viewBox: `0 0 ${width} ${height + 20 * series.length}`, class: "chart", role: "img", "aria-label": "rating over time", "data-testid": "rating-chart" },
    ...ticks.map((t) => s("g", {}, s("line", { x1: PAD.left, x2: width - PAD.right, y1: t.y, y2: t.y, stroke: "#e5e7eb" }), s("text", { x: PAD.left - 4, y: t.y + 4, "text-anchor": "end", "font-size": 10, fill: "#6b7280" }, String(Math.round(t.value))))),
    ...lines.map((l, i) => s("path", { d: l.band, fill: colour(i), "fill-opacity": 0.12, stroke: "none" })),
    ...lines.map((l, i) => s("path", { d: l.line, fill: "none", stroke: colour(i), "stroke-width": 2, "data-series": l.label })),
    ...lines.flatMap((l, i) => l.dots.map(([cx, cy]) => s("circle", { cx, cy, r: 3, fill: colour(i) }))),
    ...lines.map((l, i) => s("text", { x: PAD.left, y: height + 14 + 20 * i, "font-size": 12, fill: colour(i) }, `— ${l.label}`)),
  );
}
