#!/usr/bin/env python3
"""The roofline kind of plot.py: a user's measurements on THIS card's measured roofline.

  plot.py roofline RESULTS.json [RESULTS.json ...] [--ceilings RECORD.json] -o OUT.png

Left: the roofline, FLOP/s against arithmetic intensity (FLOP per byte), for every benchmark that
declares both FLOP and bytes: the card's measured memory roofs (DRAM read, L2 read, L1 read) and
compute roofs (fp32 FMA, each tensor type) as solid lines, the nominal roofs beside them as faint
dashed lines (DRAM: bus width x memory clock x 2; compute: the peak model, i.e. the measured
rate / its fraction of peak). Right: every benchmark that was placed against a ceiling
(results' "ceiling": measure/ceilings.cuh), as its fraction of that ceiling, coloured by the
ceiling's source (this card's record, the model's reference set, nominal).

The ceilings: --ceilings PATH (a cuprobe.ceilings/1 record or a cuprobe.summary/1 file), else
this card's record (CUPROBE_CEILINGS_DIR, $XDG_CACHE_HOME/cuprobe/ceilings or
~/.cache/cuprobe/ceilings, <GPU UUID>.json, the UUID from the results file), else the reference
set of its model (CUPROBE_REFERENCE_DIR, else docs/results/ beside this tool in a source tree,
or share/cuprobe/results in an install). One line on stderr and exit 1 when none can be read,
when a file is not a results file, or when nothing can be drawn.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import validate_results as schema  # noqa: E402

HERE = os.path.dirname(os.path.realpath(__file__))
MEMORY = (("dram.read.tbps", "DRAM read"), ("l2.read.tbps", "L2 read"),
          ("l1.read.bytes_per_clk_sm", "L1 read"))
TENSOR_TYPES = ("bf16", "f16", "tf32", "e4m3", "e5m2")
SOURCE_COLOUR = {"card": "tab:green", "reference": "tab:blue", "nominal": "tab:gray"}


def model_folder(name):
    name = name[7:] if name.startswith("NVIDIA ") else name
    return name.lower().replace(" ", "-")


def find_ceilings(device, given):
    """(path, metrics, clocks) of the ceilings to draw, or (None, reason)."""
    candidates = [given] if given else []
    if not given:
        cache = os.environ.get("CUPROBE_CEILINGS_DIR") or os.path.join(
            os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"),
            "cuprobe", "ceilings")
        candidates.append(os.path.join(cache, f"{device.get('uuid', '')}.json"))
        folder = model_folder(device.get("name", ""))
        for ref in (os.environ.get("CUPROBE_REFERENCE_DIR"), os.path.join(HERE, "..", "docs", "results"),
                    os.path.join(HERE, "results")):
            if ref:
                candidates.append(os.path.join(ref, folder, "summary.json"))
    for path in candidates:
        if not os.path.isfile(path):
            if given:
                return None, f"{path}: no such file"
            continue
        doc, reason = schema.load_checked(path, schema.SUMMARY_SCHEMAS + schema.CEILINGS_SCHEMAS)
        if reason:
            return None, f"{path}: {reason}"
        return (path, doc["metrics"], doc.get("clocks") or {}), None
    return None, ("no ceilings for this card: no record " + candidates[0] + " and no reference "
                  "set for " + device.get("name", "?") + " (run device_report --ceilings 1, or "
                  "give --ceilings)")


def roofs(metrics, clocks, device):
    """[(label, kind, value, measured)]: memory roofs in bytes/s, compute roofs in FLOP/s."""
    out = []
    sms = device.get("sm_count", 0)
    mhz = clocks.get("clock.sm.effective_mhz") or metrics.get("clock.sm.effective_mhz") or \
        device.get("sm_clock_max_mhz", 0)
    for key, label in MEMORY:
        v = metrics.get(key)
        if v:
            out.append((label, "memory", v * sms * mhz * 1e6 if key.endswith("_sm") else v * 1e12,
                        True))
    if device.get("nominal_dram_gb_per_s"):
        out.append(("DRAM nominal", "memory", device["nominal_dram_gb_per_s"] * 1e9, False))
    for prefix, label in [("fma.f32", "fp32 FMA")] + [(f"tensor.{t}", f"{t} tensor") for t in TENSOR_TYPES]:
        rate, frac = metrics.get(prefix + ".tflops"), metrics.get(prefix + ".fraction_of_peak")
        if rate:
            out.append((label, "compute", rate * 1e12, True))
            if frac:
                out.append((label + " nominal", "compute", rate * 1e12 / frac, False))
    return out


def draw(plt, benches, device, ceilings, output):
    path, metrics, clocks = ceilings
    lines = roofs(metrics, clocks, device)
    points = [b for b in benches if (b["work"].get("flops") or 0) > 0 and
              (b["work"].get("bytes_read") or 0) + (b["work"].get("bytes_written") or 0) > 0 and
              b["rates"].get("tflop_per_s")]
    placed = [b for b in benches if isinstance(b.get("ceiling"), dict)]
    if not lines or not (points or placed):
        return f"{output} not written: " + ("the ceilings hold no roof" if not lines else
                                            "no benchmark declares FLOP and bytes or was placed "
                                            "against a ceiling")
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(13, 5), dpi=110,
                                 gridspec_kw={"width_ratios": [3, 2]})
    xs = [2 ** (e / 4) for e in range(-24, 57)]
    mem = [l for l in lines if l[1] == "memory"]
    comp = [l for l in lines if l[1] == "compute"]
    top = max((c[2] for c in comp), default=max(m[2] for m in mem) * 100)
    for label, _, bw, measured in mem:
        ys = [min(bw * x, top) for x in xs]
        ax.plot(xs, ys, "-" if measured else "--", alpha=1 if measured else 0.35, label=label)
    for label, _, peak, measured in comp:
        ax.axhline(peak, ls="-" if measured else "--", alpha=0.9 if measured else 0.3, lw=1,
                   label=label)
    for b in points:
        w = b["work"]
        x = w["flops"] / ((w.get("bytes_read") or 0) + (w.get("bytes_written") or 0))
        ax.plot([x], [b["rates"]["tflop_per_s"] * 1e12], "o", ms=6)
        ax.annotate(b["name"], (x, b["rates"]["tflop_per_s"] * 1e12), fontsize=7,
                    xytext=(4, 4), textcoords="offset points")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("arithmetic intensity (FLOP per byte)")
    ax.set_ylabel("FLOP/s (memory roofs: bytes/s x intensity)")
    ax.set_title(f"{device.get('name', '?')}: measured roofs (solid), nominal (faint)", fontsize=9)
    ax.legend(fontsize=6, ncol=2)
    if placed:
        names = [f"{b['name']} ({b['ceiling']['what']})" for b in placed]
        fr = [b["ceiling"]["fraction"] for b in placed]
        bx.barh(range(len(placed)), fr, color=[SOURCE_COLOUR.get(b["ceiling"]["source"], "k")
                                               for b in placed])
        bx.set_yticks(range(len(placed)))
        bx.set_yticklabels(names, fontsize=6)
        bx.axvline(1.0, color="k", lw=0.8)
        bx.set_xlabel("fraction of the ceiling (green: this card's record, blue: reference "
                      "set, grey: nominal)", fontsize=7)
    else:
        bx.axis("off")
    fig.suptitle(f"ceilings: {path}", fontsize=7)
    try:
        fig.tight_layout()
        fig.savefig(output)
    except (OSError, ValueError) as e:
        return f"{output}: cannot be written ({e})"
    print(f"wrote {output} ({len(points)} on the roofline, {len(placed)} placed against a "
          f"ceiling; {len(lines)} roofs from {path})")
    return None


def main(results, ceilings_path, output):
    benches, device = [], None
    for path in results:
        doc, reason = schema.load_checked(path, schema.RESULTS_SCHEMAS)
        if reason:
            print(f"{path}: {reason}", file=sys.stderr)
            return 1
        device = device or doc["device"]
        benches += doc["benchmarks"]
    found, reason = find_ceilings(device, ceilings_path)
    if reason:
        print(f"plot.py roofline: {reason}; {output} not written", file=sys.stderr)
        return 1
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print(f"plot.py needs matplotlib (pip install matplotlib); {output} not written",
              file=sys.stderr)
        return 1
    problem = draw(plt, benches, device, found, output)
    if problem:
        print(f"plot.py roofline: {problem}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    print("run it as: plot.py roofline RESULTS.json [--ceilings RECORD.json] -o OUT.png",
          file=sys.stderr)
    sys.exit(2)
