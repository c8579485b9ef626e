// Small helpers to build DOM and SVG nodes without a framework: the app is a handful of pages
// that redraw from one View at a time, so plain nodes keep the bundle small.

type Attrs = Record<string, string | number | boolean | undefined | null | EventListener>;
type Child = Node | string | number | null | undefined | false;

function apply(el: Element, attrs: Attrs, children: Child[]): void {
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (typeof value === "function") el.addEventListener(key.replace(/^on/, ""), value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/** An HTML element. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  apply(el, attrs, children);
  return el;
}

export const SVG_NS = "http://www.w3.org/2000/svg";

/** An SVG element. */
export function s(tag: string, attrs: Attrs = {}, ...children: Child[]): SVGElement {
  const el = document.createElementNS(SVG_NS, tag) as SVGElement;
  apply(el, attrs, children);
  return el;
}

/** Replaces everything in `el`. */
export function fill(el: Element, ...children: Child[]): void {
  el.replaceChildren();
  apply(el, {}, children);
}

/** Marks the moment a page first shows its data (`performance` mark "clack:ready"), for load timing. */
export function ready(): void {
  if (performance.getEntriesByName("clack:ready").length === 0) performance.mark("clack:ready");
}
