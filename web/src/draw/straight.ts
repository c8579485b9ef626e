// The Straight Dominoes layout in SVG: the spinner in the middle, four arms running west, east,
// north and south, doubles laid crosswise, and the open-end count. Where a selected tile may go,
// the open ends are drawn as targets (`.end.legal`) carrying the arm and the number they match.
import type { StraightBoard } from "../gen/clack/v1/game_service_pb";
import { Arm } from "../gen/clack/v1/types_pb";
import { s } from "../dom";
import { domino, ghostTile, type Ghost } from "./tile";

const U = 40;

/** Where a tile may be laid: an arm and the number it would match; "lead" on an empty table. */
export function endKey(arm: Arm, matched: number): string {
  return `${Arm[arm].toLowerCase()}@${matched}`;
}

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

interface OpenEnd extends Box {
  key: string;
  arm: Arm;
  matched: number;
}

/** Lays out every tile and open end, and any ghost moves at their ends; returns the SVG element. */
export function drawStraight(board: StraightBoard, legal: ReadonlySet<string> = new Set(), ghosts: Ghost[] = []): SVGSVGElement {
  const layer = s("g", { class: "layout" });
  const ends: OpenEnd[] = [];
  const boxes: Box[] = [];
  const put = (a: number, b: number, box: Box, vertical: boolean, cls = "") => {
    boxes.push(box);
    layer.append(domino(a, b, box.x * U, box.y * U, vertical, U, { cls }));
  };
  const root = board.firstTile;
  if (!root) {
    const box = { x: -1, y: -0.5, w: 2, h: 1 };
    ends.push({ ...box, key: "lead", arm: Arm.UNSPECIFIED, matched: 0 });
    boxes.push(box);
  } else {
    const double = root.low === root.high;
    const spin = double ? { x: -0.5, y: -1, w: 1, h: 2 } : { x: -1, y: -0.5, w: 2, h: 1 };
    put(root.low, root.high, spin, double, board.spinner ? "spinner" : "first");
    // West and east run from the spinner's short ends.
    let x = spin.x;
    let open = root.low;
    for (const link of board.west) {
      const d = link.inner === link.outer;
      const w = d ? 1 : 2;
      x -= w;
      put(link.outer, link.inner, d ? { x, y: -1, w, h: 2 } : { x, y: -0.5, w, h: 1 }, d);
      open = link.outer;
    }
    ends.push({ x: x - 2, y: -0.5, w: 2, h: 1, key: endKey(Arm.WEST, open), arm: Arm.WEST, matched: open });
    x = spin.x + spin.w;
    open = root.high;
    for (const link of board.east) {
      const d = link.inner === link.outer;
      const w = d ? 1 : 2;
      put(link.inner, link.outer, d ? { x, y: -1, w, h: 2 } : { x, y: -0.5, w, h: 1 }, d);
      x += w;
      open = link.outer;
    }
    ends.push({ x, y: -0.5, w: 2, h: 1, key: endKey(Arm.EAST, open), arm: Arm.EAST, matched: open });
    if (board.spinner) {
      for (const [arm, links, dir] of [
        [Arm.NORTH, board.north, -1],
        [Arm.SOUTH, board.south, 1],
      ] as const) {
        // A non-double spinner takes each side arm against one of its halves: the half the
        // arm's first tile matched, or, while the arm is empty, either half.
        const halves = double ? [root.low] : links.length ? [links[0].inner] : [root.low, root.high];
        for (const half of halves) {
          const cx = double ? -0.5 : half === root.low ? -1 : 0;
          let y = dir < 0 ? spin.y : spin.y + spin.h;
          let openEnd = half;
          for (const link of links) {
            const d = link.inner === link.outer;
            const h = d ? 1 : 2;
            const top = dir < 0 ? y - h : y;
            if (d) put(link.inner, link.outer, { x: cx - 0.5, y: top, w: 2, h: 1 }, false);
            else if (dir < 0) put(link.outer, link.inner, { x: cx, y: top, w: 1, h: 2 }, true);
            else put(link.inner, link.outer, { x: cx, y: top, w: 1, h: 2 }, true);
            y += dir * h;
            openEnd = link.outer;
          }
          ends.push({ x: cx, y: dir < 0 ? y - 2 : y, w: 1, h: 2, key: endKey(arm, openEnd), arm, matched: openEnd });
        }
      }
    }
  }
  const targets = s("g", { class: "ends" });
  for (const end of ends) {
    if (!legal.has(end.key)) continue;
    boxes.push(end);
    targets.append(
      s(
        "rect",
        {
          class: "end legal",
          x: end.x * U + 2,
          y: end.y * U + 2,
          width: end.w * U - 4,
          height: end.h * U - 4,
          rx: 6,
          "data-end": end.key,
          "data-arm": Arm[end.arm].toLowerCase(),
          "data-matched": end.matched,
        },
        s("title", {}, end.key === "lead" ? "lead here" : `${Arm[end.arm].toLowerCase()} end, matching ${end.matched}`),
      ),
    );
  }
  const shown = ghostLayer(ends, ghosts, boxes);
  // At least 18 squares across, so that the first tiles are not drawn huge.
  const minX = Math.min(-9, ...boxes.map((b) => b.x)) - 0.5;
  const maxX = Math.max(9, ...boxes.map((b) => b.x + b.w)) + 0.5;
  const minY = Math.min(-3, ...boxes.map((b) => b.y)) - 0.5;
  const maxY = Math.max(3, ...boxes.map((b) => b.y + b.h)) + 0.5;
  const svg = s("svg", {
    class: "board straight",
    viewBox: `${minX * U} ${minY * U} ${(maxX - minX) * U} ${(maxY - minY) * U}`,
    "data-count": board.count,
  }) as SVGSVGElement;
  // The count is what a player scores on, so it sits on the table itself.
  const badge = s("text", { class: "count-badge", x: (minX + 0.4) * U, y: (minY + 0.9) * U }, `open-end count ${board.count}`);
  svg.append(layer, targets, shown, badge);
  return svg;
}

/** One step outward along each arm, for a second ghost at an end that already has one. */
const OUTWARD: Record<number, [number, number]> = { [Arm.WEST]: [-2, 0], [Arm.EAST]: [2, 0], [Arm.NORTH]: [0, -2], [Arm.SOUTH]: [0, 2] };

/**
 * The ghost moves, each at its open end with the matching half inward (a lead lies where the
 * first tile would); a second ghost at the same end is drawn one tile further out. A ghost whose
 * end is not open on this board is left out.
 */
function ghostLayer(ends: OpenEnd[], ghosts: Ghost[], boxes: Box[]): SVGElement {
  const layer = s("g", { class: "ghosts" });
  const used = new Set<string>();
  for (const ghost of ghosts) {
    const end = ends.find((e) => e.key === ghost.key);
    if (!end) continue;
    const [dx, dy] = used.has(ghost.key) ? (OUTWARD[end.arm] ?? [0, 1.25]) : [0, 0];
    used.add(ghost.key);
    const box = { x: end.x + dx, y: end.y + dy, w: end.w, h: end.h };
    boxes.push(box);
    const other = ghost.first === end.matched ? ghost.second : ghost.first;
    // Drawn west to east and north to south: the matching half faces the layout.
    const [a, b] = end.arm === Arm.WEST || end.arm === Arm.NORTH ? [other, end.matched] : end.arm === Arm.UNSPECIFIED ? [ghost.first, ghost.second] : [end.matched, other];
    layer.append(ghostTile(ghost, a, b, box.x * U, box.y * U, box.h > box.w, U));
  }
  return layer;
}
