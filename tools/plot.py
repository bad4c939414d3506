#!/usr/bin/env python3
"""Plot cuprobe results files (schema cuprobe.results/1, /2 or /3) as PNG.

  plot.py line    RESULTS.json --x PARAM --y METRIC [--series PARAM] [--logx] [--logy] -o OUT.png
  plot.py heatmap RESULTS.json --x PARAM --y PARAM --value METRIC [--agg max|median|min]
                  [--facet PARAM] -o OUT.png      (--facet: one heatmap per value, in a grid)
  plot.py bar     RESULTS.json --label FIELD --value METRIC [--horizontal] -o OUT.png
  plot.py roofline RESULTS.json [--ceilings RECORD.json] -o OUT.png
                  the measurements on this card's measured roofline, nominal roofs faint, and
                  each measurement's fraction of its ceiling (tools/roofline.py says how)
  plot.py wgmma   RESULTS.json [--where params.section=sizes] -o OUT.png
                  examples/wgmma's throughput points: one column per --facet (params.type), bars
                  at each --x (params.n) per --series (params.form: SS / RS); top row --y
                  (params.tflops), bottom row --value x 100 (params.fraction_of_peak: % of peak);
                  benchmarks named wgmma.throughput.* unless --name-prefix; repeats: --agg

FIELD / PARAM / METRIC are dotted paths into one benchmark of the file: "params.threads",
"rates.gb_per_s", "summary.median", "name", "unit" (a bare word other than name, unit and
samples means "params.<word>"). In a /1 file each benchmark also reads as /2 and /3 do: "unit"
is "seconds" and "samples" are its samples_s.
Select benchmarks with --where KEY=VALUE (repeatable; KEY a dotted path, VALUE compared as
text) and --name-prefix PREFIX. Titles default to the device name and the selection.

Refuses, with one line per bad file and exit status 1, files that cannot be read or are not
results files, values that are not numbers (x and y of a line, --value of a heatmap or bar; a
heatmap's axes and bar labels may also be text), non-positive values on a log axis, and a
selection that leaves nothing to plot. A benchmark without the value (absent or null) is
skipped. Needs matplotlib; nothing else beyond the standard library and validate_results.py
beside it.
"""
import argparse
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import validate_results as schema  # noqa: E402  (the schema module beside this file)

# kind -> (option, what its values must be, whether a benchmark without it is skipped)
ROLES = {
    "line": (("x", "num", True), ("y", "num", True), ("series", "scalar", False)),
    "heatmap": (("x", "scalar", True), ("y", "scalar", True), ("value", "num", True),
                ("facet", "scalar", False)),
    "bar": (("label", "scalar", False), ("value", "num", True)),
    "wgmma": (("x", "scalar", True), ("y", "num", True), ("value", "num", False),
              ("series", "scalar", False), ("facet", "scalar", False)),
}
# The wgmma kind's fields unless given (examples/wgmma's params, cuprobe_suite/wgmma.cuh).
WGMMA_DEFAULTS = {"x": "params.n", "y": "params.tflops", "value": "params.fraction_of_peak",
                  "series": "params.form", "facet": "params.type", "name_prefix": "wgmma.throughput."}


TOP_LEVEL = ("name", "unit", "samples")  # bare words that are not params


def field(bench, path):
    if "." not in path and path not in TOP_LEVEL:
        path = "params." + path
    cur = bench
    for part in path.split("."):
        if not isinstance(cur, dict) or part not in cur:
            return None
        cur = cur[part]
    return cur


is_num = schema.is_num


def as_v2(bench):
    """A /1 benchmark also answers the /2 paths "unit" and "samples"."""
    if "samples" not in bench and "samples_s" in bench:
        bench.setdefault("unit", "seconds")
        bench["samples"] = bench["samples_s"]


def load(paths, where, prefix):
    """(selected [(path, index, benchmark)], device name, bad-file lines)."""
    selected, device, bad = [], None, []
    for p in paths:
        doc, reason = schema.load_json(p)
        benches = doc.get("benchmarks") if doc else None
        if reason is None and doc.get("schema") not in schema.RESULTS_SCHEMAS:
            reason = (f"$.schema is {schema.kind_of(doc.get('schema'))}, not a results schema "
                      f"(plot.py reads {', '.join(schema.RESULTS_SCHEMAS)})")
        elif reason is None and not isinstance(benches, list):
            reason = f"$.benchmarks is {schema.kind_of(benches)}, expected a list"
        elif reason is None:
            odd = [i for i, b in enumerate(benches) if not isinstance(b, dict)]
            if odd:
                reason = f"$.benchmarks[{odd[0]}] is {schema.kind_of(benches[odd[0]])}, expected an object"
        if reason:
            bad.append(f"{p}: {reason}")
            continue
        dev = doc.get("device")
        name = dev.get("name") if isinstance(dev, dict) else None
        device = device or (name if isinstance(name, str) else None)
        for i, b in enumerate(benches):
            as_v2(b)
            n = b.get("name")
            if prefix and not (isinstance(n, str) and n.startswith(prefix)):
                continue
            if all(str(field(b, k)) == v for k, v in where):
                selected.append((p, i, b))
    return selected, device or "unknown GPU", bad


def fits(v, want):
    if want == "num":
        return is_num(v)
    if want == "positive":  # only on a log axis; a non-number is reported by "num"
        return not is_num(v) or v > 0
    return not isinstance(v, (dict, list))  # "scalar": a number, text or true/false


def check_values(selected, a):
    """(benchmarks to plot, how many lacked a value, bad-file lines) for the options of a.kind."""
    roles = [(o, want, skip) for o, want, skip in ROLES[a.kind] if getattr(a, o)]
    if a.kind == "line":
        roles += [(o, "positive", True) for o, on in (("x", a.logx), ("y", a.logy)) if on]
    what = {"num": "not a number", "scalar": "not a number or text", "positive": "not positive"}
    found, usable, skipped = {}, [], 0
    for p, i, b in selected:
        missing = wrong = False
        for o, want, skip in roles:
            v = field(b, getattr(a, o))
            if v is None:
                missing = missing or skip
            elif not fits(v, want):
                wrong = True
                first, count = found.get(p, (None, 0))
                axis = f" (--{o} is on a log axis)" if want == "positive" else ""
                found[p] = (first or f"--{o} {getattr(a, o)} is {schema.kind_of(v)}, {what[want]}"
                            f"{axis}, in benchmarks[{i}] ({b.get('name')!r})", count + 1)
        if not wrong:
            skipped += missing
            if not missing:
                usable.append(b)
    bad = [f"{p}: {first}" + (f"; {count - 1} more such values in this file" if count > 1 else "")
           for p, (first, count) in found.items()]
    return usable, skipped, bad


def label_of(path, benches=()):
    """The last part of a path; of a summary or samples path, with the samples' unit if one."""
    text = path.split(".")[-1].replace("_", " ")
    units = {b.get("unit") for b in benches}
    if (path.startswith("summary.") or path == "samples") and len(units) == 1:
        unit = units.pop()
        text += f" ({unit})" if isinstance(unit, str) else ""
    return text


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
    ax.set_ylabel(a.ylabel or label_of(a.y, benches))
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
        fig.colorbar(im, ax=ax, label=a.ylabel or label_of(a.value, benches))


def plot_bar(ax, benches, a):
    rows = [(str(field(b, a.label)), field(b, a.value)) for b in benches]
    rows = [r for r in rows if r[1] is not None]
    names, values = [r[0] for r in rows], [r[1] for r in rows]
    if a.horizontal:
        ax.barh(names, values)
        ax.set_xlabel(a.ylabel or label_of(a.value, benches))
        ax.invert_yaxis()
    else:
        ax.bar(names, values)
        ax.set_ylabel(a.ylabel or label_of(a.value, benches))
        ax.tick_params(axis="x", rotation=45)
    ax.grid(True, axis="x" if a.horizontal else "y", alpha=0.3)


def plot_wgmma(plt, benches, a):
    """Grouped bars per facet (type): --y on top, --value x 100 below; repeats aggregated."""
    agg = {"max": max, "min": min, "median": statistics.median}[a.agg]
    cells = {}
    for b in benches:
        key = (str(field(b, a.facet)), field(b, a.x), str(field(b, a.series)))
        top, low = cells.setdefault(key, ([], []))
        top.append(field(b, a.y))
        if field(b, a.value) is not None:
            low.append(100 * field(b, a.value))
    facets = sorted({k[0] for k in cells}, key=sort_key)
    series = sorted({k[2] for k in cells}, key=sort_key)
    fig, axes = plt.subplots(2, len(facets), figsize=(3.2 * len(facets) + 1, 6), dpi=110,
                             squeeze=False, sharey="row")
    width = 0.8 / len(series)
    for j, f in enumerate(facets):
        xs = sorted({k[1] for k in cells if k[0] == f}, key=sort_key)
        for row, (pick, ylabel) in enumerate(((0, a.ylabel or label_of(a.y, benches)),
                                              (1, f"% of peak ({label_of(a.value)})"))):
            ax = axes[row][j]
            for s_i, s in enumerate(series):
                vals = [cells.get((f, x, s), ([], []))[pick] for x in xs]
                hs = [agg(v) if v else 0 for v in vals]
                bars = ax.bar([i + (s_i - (len(series) - 1) / 2) * width for i in range(len(xs))],
                              hs, width, label=s)
                for bar, v in zip(bars, vals):
                    if v:
                        ax.annotate(f"{agg(v):.0f}", (bar.get_x() + bar.get_width() / 2, bar.get_height()),
                                    ha="center", va="bottom", fontsize=6)
            ax.set_xticks(range(len(xs)), [str(x) for x in xs])
            ax.grid(True, axis="y", alpha=0.3)
            if row == 0:
                ax.set_title(f, fontsize=9)
            else:
                ax.set_xlabel(label_of(a.x))
            if j == 0:
                ax.set_ylabel(ylabel)
    axes[0][0].legend(fontsize=7, title=label_of(a.series), title_fontsize=7)
    return fig


def fail(line):
    print(line, file=sys.stderr)
    return 1


def save(fig, path, what):
    try:
        fig.tight_layout()
        fig.savefig(path)
    except (OSError, ValueError) as e:
        return fail(f"{path}: cannot be written ({e})")
    print(f"wrote {path} ({what})")
    return 0


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kind", choices=["line", "heatmap", "bar", "wgmma", "roofline"])
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
    p.add_argument("--ceilings", help="roofline: a ceilings record or summary (default: this "
                   "card's record, else the reference set of its model)")
    a = p.parse_args(argv)
    if a.kind == "roofline":
        import roofline  # the module beside this file
        return roofline.main(a.results, a.ceilings, a.output)
    where = []
    for w in a.where:
        if "=" not in w:
            p.error(f"--where expects KEY=VALUE, got {w!r}")
        k, v = w.split("=", 1)
        where.append((k, v))
    if a.kind == "wgmma":
        for k, v in WGMMA_DEFAULTS.items():
            setattr(a, k, getattr(a, k) or v)
    need = {"line": ("x", "y"), "heatmap": ("x", "y", "value"), "bar": ("value",), "wgmma": ()}[a.kind]
    for n in need:
        if getattr(a, n) is None:
            p.error(f"{a.kind} needs --{n}")

    selected, device, bad = load(a.results, where, a.name_prefix)
    benches, skipped, bad_values = check_values(selected, a)
    for line in bad + bad_values:
        print(line, file=sys.stderr)
    if bad or bad_values:
        return fail(f"{a.output} not written: {len(bad) + len(bad_values)} of {len(a.results)} "
                    "results files refused")
    if not selected:
        sel = [f"--where {k}={v}" for k, v in where] + (
            [f"--name-prefix {a.name_prefix}"] if a.name_prefix else [])
        return fail("no benchmark matches the selection" + (f" ({', '.join(sel)})" if sel else "")
                    + f" in {', '.join(a.results)}; {a.output} not written")
    if not benches:
        paths = [getattr(a, o) for o, _, skip in ROLES[a.kind] if skip and getattr(a, o)]
        return fail(f"none of the {len(selected)} selected benchmarks has a value at "
                    f"{' and '.join(paths)}; {a.output} not written")
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return fail(f"plot.py needs matplotlib (pip install matplotlib); {a.output} not written")

    done = f"{len(benches)} benchmarks" + (f", {skipped} selected without a value skipped" if skipped else "")
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
        return save(fig, a.output, f"{done}, {len(keys)} panels")
    if a.kind == "wgmma":
        fig = plot_wgmma(plt, benches, a)
        fig.suptitle(a.title or f"{device}" + (f" ({sel})" if sel else ""), fontsize=10)
        return save(fig, a.output, done)
    fig, ax = plt.subplots(figsize=(8, 5), dpi=120)
    if a.kind == "line":
        plot_line(ax, benches, a)
    elif a.kind == "heatmap":
        plot_heatmap(fig, ax, benches, a)
    else:
        plot_bar(ax, benches, a)
    ax.set_title(a.title or f"{device}" + (f" ({sel})" if sel else ""), fontsize=10)
    return save(fig, a.output, done)


if __name__ == "__main__":
    sys.exit(main())
