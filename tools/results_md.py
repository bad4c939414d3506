#!/usr/bin/env python3
"""Write the results page of one GPU from the files gpu-check.sh collected.

    tools/results_md.py RESULTS_DIR [-o RESULTS_DIR/README.md]

Every number on the page is read from the JSON/CSV files in RESULTS_DIR (written by the
examples on the GPU); nothing is typed in. The target column gives the project's target for a figure, where it has one.
summary.json (cuprobe.summary/1) is needed; the examples' files (cuprobe.results/1, /2 or /3) and
ncu_dram.csv are optional: a missing one leaves its section out.

Each file is read and checked with tools/validate_results.py's rules; a bad one (unreadable,
not JSON, failing its schema) gets one line "PATH: reason" on stderr and a note in its section,
the other files are still read, and the exit status is 1. Without a usable summary.json no page
is written. A valid file whose free-form "extra" section lacks what a table needs gets a note
in its section ("not rendered: ...") and one line on stderr, and does not change the exit
status: the validator accepts it, so this page must too. Device fields beyond name, SM count and
compute capability are optional. Standard library only.

Targets: a target is either a number (a ratio or a per-clock figure, the same on every card) or
a fraction of the card's nominal DRAM bandwidth (device.nominal_dram_gb_per_s of summary.json,
else memory clock x 2 x bus width), so that one page generator serves every card model.

Which figures are the older code's ("Code changed since this set was made") is computed, never
written by hand, from git in the checkout this script belongs to (--repo to name another), by
tools/results_stale.py beside this file: its docstring gives the rules.
"""
import argparse
import csv
import gzip
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import validate_results as schema  # noqa: E402  (the schema module beside this file)
import results_stale  # noqa: E402  (the section "Code changed since this set was made", beside it)
import card_ceilings  # noqa: E402  (the nominal DRAM rule, shared with compare.py across models)

TARGETS = {  # key: (comparison, value) or (comparison, fraction, "nominal_dram_tbps"): the
    # project's targets for this figure; the second kind is a fraction of this card's nominal
    "fma.f32.fraction_of_peak": (">=", 0.99),
    "dram.read.tbps": (">=", 0.96, "nominal_dram_tbps"),  # H200: 0.96 x 4.81 TB/s = 4.62
    "dram.copy_vs_memcpy": (">=", 1.0),
    "l1.read.bytes_per_clk_sm": (">=", 120),
    "tma.load.vs_ld": (">=", 0.95),
    "tma.store.vs_st": (">=", 0.95),
    "wgmma.bf16.fraction_of_peak": (">=", 0.95),
    "tensor.bf16.fraction_of_peak": (">=", 0.95),
    "gemm.bf16.8192.vs_cublas": (">=", 1.0),
    "gemm.bf16.4096.vs_cublas": (">=", 1.0),
    "gemm.bf16.8192x8192x2048.vs_cublas": (">=", 1.0),
}
SUFFIX_UNITS = (  # the unit of a key no entry of UNITS names, by its ending
    (".tbps", "TB/s"), (".gbps", "GB/s"), (".tflops", "TFLOP/s"), ("clock_mhz", "MHz"),
    ("_mhz", "MHz"), (".cycles", "cycles"), ("_cycles", "cycles"), (".ns", "ns"),
    ("bytes_per_clk_sm", "B/clk/SM"), ("bytes_per_clk", "B/clk"), ("fraction_of_peak", "of peak"),
    ("fraction_of_limit", "of limit"), ("_bytes", "bytes"), ("_us", "us"), ("_w", "W"),
)


def unit_of(key):
    if key in UNITS:
        return UNITS[key]
    for end, unit in SUFFIX_UNITS:
        if key.endswith(end):
            return unit
    return ""


UNITS = {
    # wgmma (examples/wgmma --summary wgmma_summary.json, merged below) and device_report's line
    **{f"wgmma.{k}.{m}": u for k in ("bf16", "bf16.zero", "bf16.random", "bf16.sustained",
                                     "bf16.sustained.random", "tf32", "e4m3", "bf16.sparse",
                                     "bf16.back_to_back", "tf32.back_to_back",
                                     "e4m3.back_to_back")
       for m, u in (("tflops", "TFLOP/s"), ("clock_mhz", "MHz"), ("run_ms", "ms"),
                    ("power_w", "W"))},
    "wgmma.bf16.fraction_of_peak": "of peak", "wgmma.clock_mhz": "MHz",
    "wgmma.bf16.latency_cycles": "cycles", "wgmma.bf16.sparse_vs_dense": "ratio",
    "tensor.bf16.tflops": "TFLOP/s", "tensor.bf16.fraction_of_peak": "of peak",
    "tensor.bf16.clock_mhz": "MHz",
    "timer.clock.overhead_cycles": "cycles", "timer.clock64.overhead_cycles": "cycles",
    "timer.globaltimer.tick_ns": "ns", "timer.event.resolution_us": "us",
    "clock.sm.effective_mhz": "MHz", "clock.sm.nvml_mhz": "MHz", "fma.f32.tflops": "TFLOP/s",
    "fma.f32.fraction_of_peak": "of peak", "fma.f32.latency_cycles": "cycles",
    "dram.read.tbps": "TB/s", "dram.write.tbps": "TB/s", "dram.copy.tbps": "TB/s",
    "dram.memcpy.tbps": "TB/s", "dram.memset.tbps": "TB/s", "dram.copy_vs_memcpy": "ratio",
    "dram.copy_vs_memcpy_sweep": "ratio",
    "l2.read.tbps": "TB/s", "latency.l1.cycles": "cycles", "latency.l2.cycles": "cycles",
    "latency.dram.cycles": "cycles", "latency.smem.cycles": "cycles",
    "tma.load.tbps": "TB/s", "tma.load.vs_ld": "ratio", "tma.store.tbps": "TB/s",
    "tma.store.vs_st": "ratio", "tma.copy.tbps": "TB/s", "tma.copy.vs_memcpy": "ratio",
    "tma.latency.l2.cycles": "cycles",
    "tma.latency.dram.cycles": "cycles", "tma.latency.l2.minus_ld_cycles": "cycles",
    "tma.latency.dram.minus_ld_cycles": "cycles", "dsm.latency.cycles": "cycles",
    "dsm.read.tbps": "TB/s", "tma.multicast.delivered_tbps": "TB/s",
    "tma.multicast.dram_tbps": "TB/s", "tma.multicast.cluster_size": "CTAs",
    # examples/gemm --summary gemm_summary.json (merged below)
    **{f"gemm.bf16.{n}.{m}": u for n in ("4096", "8192", "8192x8192x2048")
       for m, u in (("vs_cublas", "ratio"), ("tflops", "TFLOP/s"), ("cublas_tflops", "TFLOP/s"),
                    ("overlap_vs_max", "ratio"), ("kernel_clock_mhz", "MHz"),
                    ("fraction_of_peak", "of peak"), ("sweep_tflops", "TFLOP/s"),
                    ("sweep_vs_cublas", "ratio"), ("vs_cublas_of_medians", "ratio"),
                    ("vs_cublas_fast_rounds", "ratio"), ("vs_cublas_slow_rounds", "ratio"),
                    ("fast_rounds", "rounds"))},
}


NCU_COLUMNS = [
    ("l1tex__t_sector_hit_rate.pct", "L1 hit %"), ("lts__t_sector_hit_rate.pct", "L2 hit %"),
    ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "L1 requests (ld)"),
    ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "L1 sectors (ld)"),
    ("lts__t_requests_srcunit_tex_op_read.sum", "L2 requests (read)"),
    ("lts__t_sectors_srcunit_tex_op_read.sum", "L2 sectors (read)"),
    ("dram__bytes_read.sum", "DRAM bytes read"), ("dram__bytes_write.sum", "DRAM bytes written"),
    ("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM % of peak"),
]


class Incomplete(Exception):
    """A valid file lacks what a section needs; the message says what."""


def get(obj, path, kind=dict):
    """obj's value at a dotted path, of kind (dict, list, str or 'num'); else Incomplete."""
    cur = obj
    for part in path.split("."):
        if not isinstance(cur, dict) or cur.get(part) is None:
            raise Incomplete(f"{path} is missing")
        cur = cur[part]
    if kind == "num" and not schema.is_num(cur) or kind != "num" and not isinstance(cur, kind):
        raise Incomplete(f"{path} is {schema.kind_of(cur)}")
    return cur


def opt(obj, path, kind="num"):
    """obj's value at a dotted path, or None where it is absent or not of kind."""
    try:
        return get(obj, path, kind)
    except Incomplete:
        return None


def as_num(v):
    return v if schema.is_num(v) else None


def text(v):
    return "-" if v is None else str(v)


def scale(v, by):
    return None if v is None else v * by


def ratio(a, b):
    return None if a is None or not b else a / b


def num(v, digits=3):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:.{digits}g}" if abs(v) < 1000 else f"{v:.0f}"
    return str(v)


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join(" --- " for _ in head) + "|"]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out) + "\n"


def provenance(doc):
    m = doc["meta"]
    return f"`{m['command_line']}` (commit `{m['commit']}`, {m['date']})"


def device_line(dev):
    """The device sentence from the fields the summary holds (name and SM count are required)."""
    parts = [dev["name"], f"{dev['sm_count']} SMs", f"compute capability {dev['compute_capability']}"]
    l2, bus, clk = opt(dev, "l2_bytes"), opt(dev, "memory_bus_width_bits"), opt(dev, "memory_clock_mhz")
    nominal, sm_clk = opt(dev, "nominal_dram_gb_per_s"), opt(dev, "sm_clock_max_mhz")
    ecc = opt(dev, "ecc_enabled", bool)
    if l2 is not None:
        parts.append(f"L2 {l2 / 1048576:.0f} MiB")
    mem = " ".join(x for x in (f"{bus}-bit" if bus is not None else "", "memory",
                               f"at {clk:.0f} MHz" if clk is not None else "") if x)
    if nominal is not None:
        mem += f" (nominal {nominal:.0f} GB/s)"
    if mem != "memory":
        parts.append(mem)
    if sm_clk is not None:
        parts.append(f"SM clock up to {sm_clk:.0f} MHz")
    if ecc is not None:
        parts.append(f"ECC {'on' if ecc else 'off'}")
    for key, label in (("driver_version", "driver"), ("runtime_version", "CUDA")):
        if opt(dev, key, str) is not None:
            parts.append(f"{label} {dev[key]}")
    missing = [k for k, v in (("L2 size", l2), ("memory bus width", bus), ("memory clock", clk),
                              ("nominal DRAM bandwidth", nominal), ("SM clock", sm_clk), ("ECC", ecc),
                              ("driver", opt(dev, "driver_version", str)),
                              ("CUDA version", opt(dev, "runtime_version", str))) if v is None]
    tail = f" Not in summary.json: {', '.join(missing)}." if missing else ""
    return "Device: " + ", ".join(parts) + "." + tail + "\n"


def nominal_dram_tbps(dev):
    """The card's nominal DRAM bandwidth in TB/s: device_report's figure, else memory clock x 2
    (double data rate) x bus width; None when the summary holds neither."""
    gbps, _ = card_ceilings.nominal_dram(dev)
    return gbps / 1e3 if gbps else None


def target_of(key, dev):
    """(comparison, value or None, how the target column says it), or None: no target."""
    t = TARGETS.get(key)
    if t is None:
        return None
    if len(t) == 2:
        return t[0], t[1], f"{t[0]} {t[1]}"
    base = {"nominal_dram_tbps": nominal_dram_tbps}[t[2]](dev)
    if base is None:
        return t[0], None, f"{t[0]} {t[1]} x nominal (not in summary.json)"
    return t[0], t[1] * base, f"{t[0]} {num(t[1] * base, 3)} ({t[1]} x nominal)"


def section_summary(s):
    rows = []
    for k, v in s["metrics"].items():
        t = target_of(k, s["device"])
        target, met = (t[2], "") if t else ("", "")
        if t and t[1] is not None:
            met = "met" if (v >= t[1] if t[0] == ">=" else v <= t[1]) else "**not met**"
        rows.append([f"`{k}`", num(v, 4), unit_of(k), target, met])
    return table(["metric", "value", "unit", "target", ""], rows)


def section_fma(doc):
    ex = get(doc, "extra.fma_throughput")
    rows = [[b, num(opt(e, "best_tflops"), 4), num(scale(opt(e, "best_fraction_of_peak"), 100), 4),
             text(opt(e, "chains_to_97pct", (str, int, float))),
             text(opt(e, "first_chains_with_lower_occupancy", (str, int, float)))]
            for b, e in get(ex, "by_block").items()]
    return (table(["block", "best TFLOP/s", "% of peak", "chains to reach 97 % of best",
                   "first chains with lower occupancy (-1: none)"], rows)
            + f"\nPeak model: {text(opt(ex, 'peak_source', str))}. Dependent FFMA latency: "
            f"{num(opt(ex, 'latency_cycles'), 4)} cycles.\n")


def section_dram(doc):
    ex = get(doc, "extra.dram_bandwidth")
    nominal = opt(ex, "nominal_gb_per_s")
    rows = [[k, num(opt(v, "gb_per_s"), 4), num(scale(ratio(opt(v, "gb_per_s"), nominal), 100), 3),
             text(opt(v, "config", str))]
            for k, v in sorted(get(ex, "best_by_case").items())]
    out = table(["case", "best GB/s", "% of nominal",
                 "best config (BxT: blocks/SM x threads; cover xT: one element per thread)"], rows)
    if opt(ex, "array_bytes") is not None:
        out += (f"\nArrays of {num(ex['array_bytes'] / 2**20, 5)} MiB each; in_kernel launches make "
                f"{text(opt(ex, 'in_kernel_passes'))} passes.")
    out += (f"\nNominal peak {num(nominal, 4)} GB/s (bus width x memory clock x 2). "
            f"Peers in the same program, on the copy and write arrays: cudaMemcpy D2D "
            f"{num(opt(ex, 'memcpy_gb_per_s'), 4)} GB/s (read + written), cudaMemset "
            f"{num(opt(ex, 'memset_gb_per_s'), 4)} GB/s.")
    if opt(ex, "copy_vs_memcpy") is not None:
        out += (f" Best copy point / cudaMemcpy, in alternating rounds on the same arrays (median "
                f"of the paired ratios): {num(ex['copy_vs_memcpy'], 3)}.")
    if opt(ex, "copy_vs_memcpy_sweep") is not None:
        out += f" The sweep's best copy / the one memcpy figure: {num(ex['copy_vs_memcpy_sweep'], 3)}."
    flagged = [b["params"].get("case", b["name"]) for b in doc["benchmarks"]
               if any(f["code"] == "above_dram_peak" for f in b["flags"])]
    out += f"\n\nResults above the nominal peak (flag `above_dram_peak`): {len(flagged)}.\n"
    ll = opt(ex, "littles_law", dict)
    if ll:
        out += ("\nLittle's law with the best read bandwidth and a 1 GiB pointer-chase latency of "
                f"{num(opt(ll, 'latency_cycles'), 4)} cycles at {num(opt(ll, 'clock_mhz'), 4)} MHz: "
                f"{num(opt(ll, 'bytes_per_clock'), 5)} B/clock, {num(opt(ll, 'bytes_in_flight'), 7)} B in flight, "
                f"{num(opt(ll, 'bytes_in_flight_per_sm'), 5)} B per SM = "
                f"{num(opt(ll, 'warp_loads_in_flight_per_sm'), 3)} warp loads of 128 B per SM.\n")
    return out


def read_ncu(path):
    """(rows, None), or (None, reason) for a file that is not an ncu --csv file."""
    try:
        with open(path, encoding="utf-8", newline="") as f:
            rows = list(csv.reader(f))
    except IsADirectoryError:
        return None, "is a directory, not a file"
    except OSError as e:
        return None, f"cannot be read ({e.strerror or e})"
    except UnicodeDecodeError as e:
        return None, f"is not UTF-8 text (offset {e.start}), not an ncu CSV file"
    except csv.Error as e:
        return None, f"is not a CSV file ({e})"
    if rows and "Kernel Name" not in rows[0]:
        return None, "has no 'Kernel Name' column in its first row, not an ncu --csv file"
    return rows, None


def kernel_label(name):
    """stream_pass_kernel<P, T, Ld, St, Mode> or stream_covering_kernel<P, T, Ld, St> in words."""
    lt, gt = name.find("<"), name.find(">")
    args = name[lt + 1:gt].split(", ") if 0 <= lt < gt else []
    if len(args) < 3:
        return name
    if "covering" in name or len(args) < 5:
        grid = "launches, covering"
    else:
        grid = "in_kernel" if args[4] == "1" else "launches"
    pats = {"0": "read", "1": "write", "2": "copy", "3": "mixed"}
    return f"{pats.get(args[0], args[0])} {args[1]} .{args[2]}, {grid}"


def section_ncu(rows):
    if len(rows) < 3:
        return "ncu wrote no kernel rows.\n"
    head = rows[0]
    idx = [head.index(c) if c in head else None for c, _ in NCU_COLUMNS]
    kn = head.index("Kernel Name")
    cell = lambda r, i: r[i] if i is not None and i < len(r) else "-"  # noqa: E731
    out_rows = [[kernel_label(cell(r, kn))] + [cell(r, i) for i in idx] for r in rows[2:]]
    out = table(["kernel (persistent: 4 x 256 per SM; covering: 256 threads per block)"]
                + [short for _, short in NCU_COLUMNS], out_rows)
    absent = [c for (c, _), i in zip(NCU_COLUMNS, idx) if i is None]
    return out + (f"\nNot in the CSV: {', '.join(absent)}.\n" if absent else "")


def section_latency(doc):
    ex = get(doc, "extra.latency_ladder")
    mhz = opt(ex, "sm_clock_mhz")
    per_ns = lambda v: scale(ratio(v, mhz), 1e3)  # noqa: E731  (cycles -> ns at the SM clock)
    rows = [[k, num(as_num(v), 4), num(per_ns(as_num(v)) if v else None, 4)]
            for k, v in get(ex, "levels").items()]
    out = table(["level", "cycles", "ns"], rows)
    if opt(ex, "plateaus", str) is not None:
        out += f"\nPlateaus found by the detector in the ld.global curve:\n\n```\n{ex['plateaus']}```\n"
    tlb = [b for b in doc["benchmarks"] if b["name"] == "latency.tlb"]
    if tlb:
        rows = [[text(opt(b, "params.load", str)), num(scale(opt(b, "params.bytes"), 2**-20), 6) + " MiB",
                 num(opt(b, "params.pages_2mib"), 5), num(opt(b, "rates.cycles_per_op"), 4),
                 num(per_ns(opt(b, "rates.cycles_per_op")), 4)] for b in tlb]
        out += ("\n### TLB reach by stride (.cg loads, one node per stride, warm rings)\n\n"
                + table(["load", "working set", "2 MiB pages", "cycles/hop", "ns/hop"], rows))
    lanes = [b for b in doc["benchmarks"] if b["name"] == "latency.lanes"]
    if lanes:
        rows = [[text(opt(b, "params.level", str)), num(scale(opt(b, "params.bytes"), 2**-10), 7) + " KiB",
                 text(opt(b, "params.lanes", (str, int, float))), num(opt(b, "rates.cycles_per_op"), 4),
                 num(per_ns(opt(b, "rates.cycles_per_op")), 4)] for b in lanes]
        out += ("\n### Who chases (one thread; a warp on one ring; a warp gathering from 32 rings)\n\n"
                + table(["level", "working set", "lanes", "cycles/hop", "ns/hop"], rows))
    return out


def section_cache(doc):
    ex = get(doc, "extra.cache_bandwidth")

    def mib(v):
        return "-" if v is None else f"{v / 1048576:.1f} MiB" if v >= 1048576 else f"{v / 1024:.0f} KiB"
    def reach(level):  # files older than the rename call the same derived size "capacity"
        v = opt(ex, f"{level}_reach_bytes")
        return v if v is not None else opt(ex, f"{level}_capacity_bytes")
    rows = [["L1 (replicated read, peak)", num(opt(ex, "l1_gb_per_s"), 4),
             num(opt(ex, "l1_bytes_per_clock_per_sm"), 3), mib(reach("l1"))],
            ["L2 (.cg, 2..16 MiB)", num(opt(ex, "l2_gb_per_s"), 4),
             num(opt(ex, "l2_bytes_per_clock_per_sm"), 3), mib(reach("l2"))],
            ["DRAM (.cg, 1..4 GiB)", num(opt(ex, "dram_gb_per_s"), 4), "", ""]]
    return table(["level", "GB/s", "bytes/clock/SM", "reach (derived)"], rows)


def section_ordering(doc):
    ex = get(doc, "extra.memory_ordering")
    out = table(["pattern", "exact sums"], [[k, v] for k, v in get(ex, "patterns").items()])
    rows = [[k, num(opt(v, "cycles_per_fence"), 4)] for k, v in get(ex, "fence_cycles").items()]
    return out + "\n" + table(["fence (x threads)", "cycles per fence"], rows)


PARTS = [  # file, section title, how to render its (valid) document
    ("timers.json", "Timers", lambda doc: "See [timers.md](timers.md).\n"),
    ("fma_throughput.json", "FP32 FMA throughput (fma_throughput)", section_fma),
    ("instruction_table.json", "Instruction latency and throughput (instruction_table)",
     lambda doc: get(doc, "extra.instruction_table.markdown", str)),
    ("dram_bandwidth.json", "DRAM bandwidth (dram_bandwidth)", section_dram),
    ("latency_ladder.json", "Latency ladder (latency_ladder)", section_latency),
    ("cache_bandwidth.json", "Bandwidth against working set (cache_bandwidth)", section_cache),
    ("memory_ordering.json", "Memory ordering and fence cost (memory_ordering)", section_ordering),
]


def section_checks(d):
    """The GPU tier's outcome (ctest.log) and the compute-sanitizer table (sanitizer.md), as run."""
    out = []
    log = os.path.join(d, "ctest.log")
    if os.path.isfile(log):
        text = open(log, encoding="utf-8", errors="replace").read()
        tally = re.findall(r"\d+% tests passed(?:, \d+ tests? failed)? out of \d+", text)
        took = re.findall(r"Total Test time \(real\) = +([0-9.]+) sec", text)
        def listed(heading):  # the names CTest lists under one of its closing headings
            part = text.split(heading)[-1] if heading in text else ""
            return re.findall(r"^\s+\d+ - (\S+) \(([^)]+)\)", re.split(r"\n\s*\n|The following", part)[0], re.M)
        failed, skipped = listed("The following tests FAILED:"), listed("The following tests did not run:")
        out.append(f"CTest ([ctest.log](ctest.log)): {tally[-1] if tally else 'no tally in the log'}"
                   + (f", in {took[-1]} s" if took else "") + ".\n")
        if failed:
            out.append("Failed: " + ", ".join(f"`{n}` ({why})" for n, why in failed) + ".\n")
        if skipped:
            out.append("Did not run: " + ", ".join(f"`{n}` ({why})" for n, why in skipped) + ".\n")
    san = os.path.join(d, "sanitizer.md")
    if os.path.isfile(san):
        out.append("\ncompute-sanitizer (memcheck, racecheck, synccheck, initcheck) over every GPU test and "
                   "every example with `--small` ([sanitizer.md](sanitizer.md)):\n\n"
                   + open(san, encoding="utf-8").read())
    return "".join(x + ("" if x.endswith("\n") else "\n") for x in out)


def render(path, fn, doc, notes, bad):
    """fn(doc), or a note saying why not (one stderr line per file either way)."""
    try:
        return fn(doc)
    except Incomplete as e:
        notes.append(f"{path}: valid, but its section is not rendered: {e}")
        return f"Not rendered: {e}.\n"
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError) as e:
        bad.append(f"{path}: results_md.py could not render it ({type(e).__name__}: {e})")
        return f"Not rendered: results_md.py could not read this file ({type(e).__name__}).\n"


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir")
    p.add_argument("-o", "--output")
    p.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.realpath(__file__))),
                   help="the checkout whose code the set's staleness is measured against "
                        "(default: the one this script is in)")
    a = p.parse_args(argv)
    d = a.dir
    if not os.path.isdir(d):
        reason = "is a file" if os.path.exists(d) else "does not exist"
        print(f"{d}: {reason}; results_md.py takes the folder of a GPU's results files", file=sys.stderr)
        return 1
    bad, notes, docs, loaded = [], [], {}, {}

    def load(path):  # every file is read once
        if path not in loaded:
            loaded[path] = schema.load_json(path)
        return loaded[path]

    def load_checked(path, schemas):  # schema.load_checked on the file as load() read it
        doc, reason = load(path)
        problems = [] if reason else schema.check_doc(doc, schemas)
        return (None, reason or schema.one_line(problems)) if reason or problems else (doc, None)

    s_path = os.path.join(d, "summary.json")
    if not os.path.lexists(s_path):
        s, s_reason = None, "no such file; it is needed (device_report --summary)"
    else:
        s, s_reason = load_checked(s_path, schema.SUMMARY_SCHEMAS)
    if s_reason:
        bad.append(f"{s_path}: {s_reason}; no page written")
    for f, _, _ in PARTS:
        path = os.path.join(d, f)
        if not os.path.lexists(path) and os.path.lexists(path + ".gz"):
            path += ".gz"  # a large results file stored compressed
        if os.path.lexists(path):
            docs[f] = load_checked(path, schema.RESULTS_SCHEMAS) + (os.path.basename(path),)
            if docs[f][1]:
                bad.append(f"{path}: {docs[f][1]}")
    ncu_path = os.path.join(d, "ncu_dram.csv")
    ncu = read_ncu(ncu_path) if os.path.lexists(ncu_path) else None
    if ncu and ncu[1]:
        bad.append(f"{ncu_path}: {ncu[1]}")
    if s is None:
        for line in bad:
            print(line, file=sys.stderr)
        return 1
    # Examples that write their own headline file (examples/wgmma: wgmma_summary.json) join the
    # table; summary.json's keys win.
    merged, more_writers = [], []
    for f in sorted(x for x in os.listdir(d) if x.endswith("_summary.json")):
        e, e_reason = load_checked(os.path.join(d, f), schema.SUMMARY_SCHEMAS)
        if e_reason:
            bad.append(f"{os.path.join(d, f)}: {e_reason}")
            continue
        for k, v in e["metrics"].items():
            s["metrics"].setdefault(k, v)
        merged.append(f"[{f}]({f}) (`{e['command']}`)")
        more_writers.append((f, e["command"]))
    results = {name: load(os.path.join(d, name))[0] for name in sorted(os.listdir(d))
               if name.endswith((".json", ".json.gz")) and name != "summary.json"
               and not name.endswith("_summary.json")}
    md = [f"# Results: {s['device']['name']}\n",
          f"Made by `scripts/gpu-check.sh full` and `scripts/reference-set.sh` at commit `{s['commit']}` on {s['date']}; "
          "this page by `tools/results_md.py` from the files beside it. Every figure below is read "
          "from those files. Each example's JSON holds every sample, the environment (clocks, "
          "power, temperature, throttle reasons) and the flags; its .txt holds its console output.\n",
          device_line(s["device"]),
          results_stale.staleness(d, s, a.repo, results, more_writers),
          "## Headline metrics (summary.json, from device_report)\n", section_summary(s),
          f"\nCommand: `{s['command']}`." + (f" Also from {', '.join(merged)}." if merged else "") + "\n"]
    for f, title, fn in PARTS:
        if f not in docs:
            continue
        doc, reason, stored = docs[f]  # stored: the file's name as stored (NAME.json.gz)
        md.append(f"\n## {title}\n")
        if reason:
            md.append(f"Not rendered ([{stored}]({stored}): {reason}).\n")
            continue
        md.append(f"Made by {provenance(doc)}; data: [{stored}]({stored}).\n\n")
        md.append(render(os.path.join(d, stored), fn, doc, notes, bad))
        if f == "dram_bandwidth.json":
            md.append("\n### DRAM kernels under Nsight Compute (tools/ncu_dram.sh, `--clock-control none`)\n\n")
            md.append("No ncu counters in this run.\n" if ncu is None else
                      f"Not rendered (ncu_dram.csv: {ncu[1]}).\n" if ncu[1] else section_ncu(ncu[0]))
    checks = section_checks(d)
    if checks:
        md.append("\n## GPU tests and compute-sanitizer\n")
        md.append(checks)
    try:
        pngs = sorted(x for x in os.listdir(d) if x.endswith(".png"))
    except OSError:
        pngs = []
    if pngs:
        md.append("\n## Plots (scripts/plots.sh)\n")
        for png in pngs:
            md.append(f"\n![{png}]({png})\n")
    out = a.output or os.path.join(d, "README.md")
    try:
        with open(out, "w", encoding="utf-8") as f:
            f.write("\n".join(x.rstrip("\n") + "\n" for x in md))
    except OSError as e:
        bad.append(f"{out}: cannot be written ({e.strerror or e})")
        out = None
    for line in bad + notes:
        print(line, file=sys.stderr)
    if out:
        print(f"wrote {out}" + (f" ({len(bad)} bad files left out)" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
