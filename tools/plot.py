#!/usr/bin/env python3
"""Plot cuprobe results files (schema cuprobe.results/1) as PNG.

  plot.py line    RESULTS.json --x PARAM --y METRIC [--series PARAM] [--logx] [--logy] -o OUT.png
  plot.py heatmap RESULTS.json --x PARAM --y PARAM --value METRIC [--agg max|median|min]
                  [--facet PARAM] -o OUT.png      (--facet: one heatmap per value, in a grid)
  plot.py bar     RESULTS.json --label FIELD --value METRIC [--horizontal] -o OUT.png

FIELD / PARAM / METRIC are dotted paths into one benchmark of the file: "params.threads",
"rates.gb_per_s", "summary.median", "name" (a bare word means "params.<word>").
Select benchmarks with --where KEY=VALUE (repeatable; KEY a dotted path, VALUE compared as
text) and --name-prefix PREFIX. Titles default to the device name and the selection.
Needs matplotlib; nothing else beyond the standard library.
"""
import argparse
import json
import math
import statistics
import sys


def field(bench, path):
    if "." not in path and path not in ("name",):
        path = "params." + path
    cur = bench
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


def load(paths, where, prefix):
    benches, device = [], None
    for p in paths:
        with open(p, encoding="utf-8") as f:
            doc = json.load(f)
        if doc.get("schema") != "cuprobe.results/1":
            sys.exit(f"{p}: not a cuprobe.results/1 file")
        device = device or doc.get("device", {}).get("name")
        for b in doc.get("benchmarks", []):
            if prefix and not b.get("name", "").startswith(prefix):
                continue
            if all(str(field(b, k)) == v for k, v in where):
                benches.append(b)
    if not benches:
        sys.exit("no benchmark matches the selection")
    return benches, device or "unknown GPU"


def label_of(path):
    return path.split(".")[-1].replace("_", " ")


def sort_key(v):
    return (0, float(v)) if isinstance(v, (int, float)) else (1, str(v))


def plot_line(ax, benches, a):
    series = {}
    for b in benches:
        x, y = field(b, a.x), field(b, a.y)
        if x is None or y is None:
            continue
        key = str(field(b, a.series)) if a.series else ""
        series.setdefault(key, []).append((x, y))
    for key in sorted(series, key=sort_key):
        pts = sorted(series[key], key=lambda p: sort_key(p[0]))
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", ms=3,
                label=f"{label_of(a.series)}={key}" if a.series else None)
    if a.logx:
        ax.set_xscale("log", base=2)
    if a.logy:
        ax.set_yscale("log")
    ax.set_xlabel(label_of(a.x))
    ax.set_ylabel(a.ylabel or label_of(a.y))
    ax.grid(True, which="both", alpha=0.3)
    if a.series:
        ax.legend(fontsize=8)


def plot_heatmap(fig, ax, benches, a, colorbar=True):
    agg = {"max": max, "min": min, "median": statistics.median}[a.agg]
    cells = {}
    for b in benches:
        x, y, v = field(b, a.x), field(b, a.y), field(b, a.value)
        if None in (x, y, v):
            continue
        cells.setdefault((x, y), []).append(v)
    xs = sorted({k[0] for k in cells}, key=sort_key)
    ys = sorted({k[1] for k in cells}, key=sort_key)
    grid = [[agg(cells[(x, y)]) if (x, y) in cells else math.nan for x in xs] for y in ys]
    im = ax.imshow(grid, origin="lower", aspect="auto", cmap="viridis")
    ax.set_xticks(range(len(xs)), [str(x) for x in xs])
    ax.set_yticks(range(len(ys)), [str(y) for y in ys])
    ax.set_xlabel(label_of(a.x))
    ax.set_ylabel(label_of(a.y))
    finite = [v for row in grid for v in row if not math.isnan(v)]
    top = max(finite) if finite else 0
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                ax.text(j, i, f"{v:.0f}" if abs(v) >= 100 else f"{v:.3g}", ha="center",
                        va="center", fontsize=7, color="black" if v > 0.6 * top else "white")
    if colorbar:
        fig.colorbar(im, ax=ax, label=a.ylabel or label_of(a.value))


def plot_bar(ax, benches, a):
    rows = [(str(field(b, a.label)), field(b, a.value)) for b in benches]
    rows = [r for r in rows if r[1] is not None]
    names, values = [r[0] for r in rows], [r[1] for r in rows]
    if a.horizontal:
        ax.barh(names, values)
        ax.set_xlabel(a.ylabel or label_of(a.value))
        ax.invert_yaxis()
    else:
        ax.bar(names, values)
        ax.set_ylabel(a.ylabel or label_of(a.value))
        ax.tick_params(axis="x", rotation=45)
    ax.grid(True, axis="x" if a.horizontal else "y", alpha=0.3)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=["line", "heatmap", "bar"])
    p.add_argument("results", nargs="+")
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--x")
    p.add_argument("--y")
    p.add_argument("--value")
    p.add_argument("--label", default="name")
    p.add_argument("--series")
    p.add_argument("--facet")
    p.add_argument("--agg", default="max", choices=["max", "min", "median"])
    p.add_argument("--logx", action="store_true")
    p.add_argument("--logy", action="store_true")
    p.add_argument("--horizontal", action="store_true")
    p.add_argument("--where", action="append", default=[])
    p.add_argument("--name-prefix")
    p.add_argument("--title")
    p.add_argument("--ylabel")
    a = p.parse_args(argv)
    where = []
    for w in a.where:
        if "=" not in w:
            p.error(f"--where expects KEY=VALUE, got {w!r}")
        k, v = w.split("=", 1)
        where.append((k, v))
    need = {"line": ("x", "y"), "heatmap": ("x", "y", "value"), "bar": ("value",)}[a.kind]
    for n in need:
        if getattr(a, n) is None:
            p.error(f"{a.kind} needs --{n}")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    benches, device = load(a.results, where, a.name_prefix)
    sel = ", ".join(f"{k}={v}" for k, v in where)
    if a.kind == "heatmap" and a.facet:
        groups = {}
        for b in benches:
            groups.setdefault(str(field(b, a.facet)), []).append(b)
        keys = sorted(groups, key=sort_key)
        cols = min(4, len(keys))
        rows = (len(keys) + cols - 1) // cols
        fig, axes = plt.subplots(rows, cols, figsize=(4.2 * cols, 3.4 * rows), dpi=110, squeeze=False)
        for i, key in enumerate(keys):
            ax = axes[i // cols][i % cols]
            plot_heatmap(fig, ax, groups[key], a, colorbar=False)
            ax.set_title(key, fontsize=8)
        for j in range(len(keys), rows * cols):
            axes[j // cols][j % cols].axis("off")
        fig.suptitle(a.title or f"{device}" + (f" ({sel})" if sel else ""), fontsize=10)
        fig.tight_layout()
        fig.savefig(a.output)
        print(f"wrote {a.output} ({len(benches)} benchmarks, {len(keys)} panels)")
        return 0
    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    if a.kind == "line":
        plot_line(ax, benches, a)
    elif a.kind == "heatmap":
        plot_heatmap(fig, ax, benches, a)
    else:
        plot_bar(ax, benches, a)
    ax.set_title(a.title or f"{device}" + (f" ({sel})" if sel else ""), fontsize=10)
    fig.tight_layout()
    fig.savefig(a.output)
    print(f"wrote {a.output} ({len(benches)} benchmarks)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
