// The Streets and Avenues table in SVG: avenue dominoes upright in their columns, streets lying
// across the gaps, and every enclosed block shaded and numbered. The view carries only the
// number of blocks, so the blocks themselves are found here from the pieces, by the rules'
// own definition (free half-squares that cannot reach the outside of the bounding rectangle).
import type { StreetsBoard } from "../gen/clack/v1/game_service_pb";
import type { Spot } from "../gen/clack/v1/types_pb";
import { s } from "../dom";
import { domino, ghostTile, type Ghost } from "./tile";

const U = 36;

/** The text name of a spot, as the rules' notation writes it: `a0:2`, `s0:7`. */
export function spotKey(spot: Spot | undefined): string {
  if (spot?.at.case === "avenue") return `a${spot.at.value.column}:${spot.at.value.row}`;
  if (spot?.at.case === "street") return `s${spot.at.value.gap}:${spot.at.value.halfRow}`;
  return "";
}

type SpotBox = { x: number; y: number; w: number; h: number; vertical: boolean };

/** The rectangle of avenue `column`, `row`, or of street `gap`, `halfRow`. */
function boxAt(avenue: boolean, a: number, b: number): SpotBox {
  return avenue ? { x: 3 * a, y: b, w: 1, h: 2, vertical: true } : { x: 3 * a + 1, y: b / 2, w: 2, h: 1, vertical: false };
}

/** A spot's rectangle in squares: x across (a column is 1 wide, a gap 2), y down in squares. */
export function spotBox(spot: Spot): SpotBox {
  if (spot.at.case === "avenue") return boxAt(true, spot.at.value.column, spot.at.value.row);
  if (spot.at.case === "street") return boxAt(false, spot.at.value.gap, spot.at.value.halfRow);
  throw new Error("a spot with no place");
}

/** The rectangle of a spot named as the notation writes it (`a0:2`, `s-1:7`); none for another text. */
function keyBox(key: string): SpotBox | undefined {
  const m = /^([as])(-?\d+):(-?\d+)$/.exec(key);
  return m ? boxAt(m[1] === "a", Number(m[2]), Number(m[3])) : undefined;
}

/** Half-square cells (column of squares, half-row) covered by a spot. */
function cells(spot: Spot): Array<[number, number]> {
  const b = spotBox(spot);
  const out: Array<[number, number]> = [];
  for (let x = b.x; x < b.x + b.w; x++) for (let hy = b.y * 2; hy < (b.y + b.h) * 2; hy++) out.push([x, hy]);
  return out;
}

/** The blocks: each a list of free half-square cells no path of free cells leads out of. */
export function findBlocks(spots: Spot[]): Array<Array<[number, number]>> {
  if (spots.length === 0) return [];
  const taken = new Set<string>();
  let minX = Infinity, maxX = -Infinity, minY = Infinity, maxY = -Infinity;
  for (const spot of spots) {
    for (const [x, y] of cells(spot)) {
      taken.add(`${x},${y}`);
      minX = Math.min(minX, x); maxX = Math.max(maxX, x);
      minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
  }
  const seen = new Set<string>();
  const blocks: Array<Array<[number, number]>> = [];
  for (let x = minX; x <= maxX; x++) {
    for (let y = minY; y <= maxY; y++) {
      const start = `${x},${y}`;
      if (taken.has(start) || seen.has(start)) continue;
      // Flood one region; it is a block unless it touches the rectangle's edge.
      const region: Array<[number, number]> = [];
      let outside = false;
      const stack: Array<[number, number]> = [[x, y]];
      seen.add(start);
      while (stack.length) {
        const [cx, cy] = stack.pop()!;
        region.push([cx, cy]);
        if (cx === minX || cx === maxX || cy === minY || cy === maxY) outside = true;
        for (const [nx, ny] of [[cx + 1, cy], [cx - 1, cy], [cx, cy + 1], [cx, cy - 1]] as const) {
          const k = `${nx},${ny}`;
          if (nx < minX || nx > maxX || ny < minY || ny > maxY || taken.has(k) || seen.has(k)) continue;
          seen.add(k);
          stack.push([nx, ny]);
        }
      }
      if (!outside) blocks.push(region);
    }
  }
  return blocks;
}

/** A spot a selected tile may take, with the actions (one per way round) that put it there. */
export interface Target {
  spot: Spot;
  key: string;
}

const BLOCK_COLOURS = ["#f6d8a8", "#c9e4c5", "#cfdcf2", "#f2cfd9", "#e5d6f2", "#d7efe9"];

export function drawStreets(board: StreetsBoard, targets: Target[] = [], ghosts: Ghost[] = []): SVGSVGElement {
  const spots = board.pieces.map((p) => p.spot!).filter(Boolean);
  const blocks = findBlocks(spots);
  // Ghost moves: the first half north (avenue) or west (street), as the notation writes them.
  const placed = ghosts.flatMap((g) => {
    const box = keyBox(g.key);
    return box ? [{ g, box }] : [];
  });
  const boxes = [...[...spots, ...targets.map((t) => t.spot)].map(spotBox), ...placed.map((p) => p.box)];
  if (boxes.length === 0) boxes.push({ x: 0, y: 0, w: 1, h: 2, vertical: true });
  // At least 19 squares across and 12 down, so that the first tiles are not drawn huge.
  const minX = Math.min(-9, ...boxes.map((b) => b.x)) - 1;
  const maxX = Math.max(10, ...boxes.map((b) => b.x + b.w)) + 1;
  const minY = Math.min(-5, ...boxes.map((b) => b.y)) - 1;
  const maxY = Math.max(7, ...boxes.map((b) => b.y + b.h)) + 1;
  const svg = s("svg", {
    class: "board streets",
    viewBox: `${minX * U} ${minY * U} ${(maxX - minX) * U} ${(maxY - minY) * U}`,
    "data-blocks": board.blocks,
  }) as SVGSVGElement;
  // Avenue columns as faint lanes, so the grid reads as a city plan.
  const lanes = s("g", { class: "lanes" });
  for (let a = Math.ceil(minX / 3); 3 * a <= maxX; a++) {
    lanes.append(s("rect", { class: "lane", x: 3 * a * U, y: minY * U, width: U, height: (maxY - minY) * U }));
    lanes.append(s("text", { class: "lane-label", x: (3 * a + 0.5) * U, y: (minY + 0.6) * U }, `a${a}`));
  }
  const shaded = s("g", { class: "blocks" });
  blocks.forEach((block, i) => {
    const g = s("g", { class: "block", "data-block": i + 1 });
    for (const [x, y] of block) {
      g.append(s("rect", { x: x * U, y: (y * U) / 2, width: U + 0.5, height: U / 2 + 0.5, fill: BLOCK_COLOURS[i % BLOCK_COLOURS.length] }));
    }
    // The number sits on the cell nearest the block's middle.
    const mx = block.reduce((t, c) => t + c[0], 0) / block.length;
    const my = block.reduce((t, c) => t + c[1], 0) / block.length;
    const [lx, ly] = block.reduce((best, c) => (Math.hypot(c[0] - mx, c[1] - my) < Math.hypot(best[0] - mx, best[1] - my) ? c : best));
    g.append(s("text", { class: "block-number", x: (lx + 0.5) * U, y: ((ly + 1) * U) / 2 - 3 }, String(i + 1)));
    shaded.append(g);
  });
  const pieces = s("g", { class: "pieces" });
  for (const piece of board.pieces) {
    if (!piece.spot || !piece.tile) continue;
    const b = spotBox(piece.spot);
    const other = piece.first === piece.tile.low ? piece.tile.high : piece.tile.low;
    const kind = piece.spot.at.case === "avenue" ? "avenue" : "street";
    pieces.append(domino(piece.first, other, b.x * U, b.y * U, b.vertical, U, { cls: kind, data: { spot: spotKey(piece.spot) } }));
  }
  const aims = s("g", { class: "targets" });
  for (const t of targets) {
    const b = spotBox(t.spot);
    aims.append(
      s(
        "rect",
        { class: "end legal", x: b.x * U + 2, y: b.y * U + 2, width: b.w * U - 4, height: b.h * U - 4, rx: 5, "data-end": t.key },
        s("title", {}, t.key),
      ),
    );
  }
  const moves = s("g", { class: "ghosts" });
  for (const { g, box } of placed) moves.append(ghostTile(g, g.first, g.second, box.x * U, box.y * U, box.vertical, U));
  svg.append(lanes, shaded, pieces, aims, moves);
  return svg;
}
