"""Draws docs/charts/store-soak.svg from the `soak:` lines of `clack store fill --every N` runs.

Usage: python3 docs/charts/soak_chart.py OUT.svg LABEL=LOG [LABEL=LOG ...]

Two panels, disk (MB) and resident memory (MB), against finished games; one line per run.
Plain SVG, no libraries, so that it runs wherever Python does.
"""
import re
import sys

LINE = re.compile(r"soak: (\d+) finished, (\d+) live, [\d.]+ s, disk ([\d.]+) MB .* rss (\d+) MB")
COLOURS = ["#c0392b", "#2471a3", "#229954", "#8e44ad", "#d68910"]


def read(path):
    points = []
    for line in open(path):
        match = LINE.search(line)
        if match and int(match.group(2)) > 0:
            points.append((int(match.group(1)), float(match.group(3)), float(match.group(4))))
    return points


def panel(runs, index, title, x0, width, height, top):
    xmax = max(p[0] for _, pts in runs for p in pts)
    ymax = max(p[index] for _, pts in runs for p in pts) * 1.1
    out = [f'<text x="{x0 + width / 2}" y="{top - 8}" text-anchor="middle" font-size="13">{title}</text>',
           f'<rect x="{x0}" y="{top}" width="{width}" height="{height}" fill="none" stroke="#999"/>']
    for i in range(5):
        y = top + height - i * height / 4
        out.append(f'<text x="{x0 - 6}" y="{y + 4}" text-anchor="end" font-size="10">{ymax * i / 4:.0f}</text>')
    for i in range(5):
        x = x0 + i * width / 4
        out.append(f'<text x="{x}" y="{top + height + 14}" text-anchor="middle" font-size="10">{xmax * i / 4:,.0f}</text>')
    out.append(f'<text x="{x0 + width / 2}" y="{top + height + 30}" text-anchor="middle" font-size="11">games finished</text>')
    for n, (label, pts) in enumerate(runs):
        coords = " ".join(f"{x0 + p[0] / xmax * width:.1f},{top + height - p[index] / ymax * height:.1f}" for p in pts)
        out.append(f'<polyline points="{coords}" fill="none" stroke="{COLOURS[n % len(COLOURS)]}" stroke-width="2"/>')
    return out


def main():
    out_path, specs = sys.argv[1], sys.argv[2:]
    runs = [(label, read(path)) for label, path in (spec.split("=", 1) for spec in specs)]
    width, height = 360, 220
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="880" height="330" font-family="sans-serif">']
    parts += panel(runs, 1, "data directory on disk (MB)", 60, width, height, 30)
    parts += panel(runs, 2, "resident memory (MB)", 500, width, height, 30)
    for n, (label, _) in enumerate(runs):
        y = 300 + 0 * n
        x = 60 + n * 210
        parts.append(f'<rect x="{x}" y="{y}" width="14" height="4" fill="{COLOURS[n % len(COLOURS)]}"/>')
        parts.append(f'<text x="{x + 20}" y="{y + 6}" font-size="11">{label}</text>')
    parts.append("</svg>")
    open(out_path, "w").write("\n".join(parts) + "\n")


if __name__ == "__main__":
    main()
