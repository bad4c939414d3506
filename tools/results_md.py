#!/usr/bin/env python3
"""Write the results page of one GPU from the files gpu-check.sh collected.

    tools/results_md.py RESULTS_DIR [-o RESULTS_DIR/README.md]

Every number on the page is read from the JSON/CSV files in RESULTS_DIR (written by the
examples on the GPU); nothing is typed in. The targets column quotes the issues' targets.
Standard library only.
"""
import argparse
import csv
import json
import os
import sys

TARGETS = {  # key: (comparison, value, source)
    "fma.f32.fraction_of_peak": (">=", 0.98, "issue 4"),
    "dram.read.tbps": (">=", 4.4, "issue 5"),
    "dram.write.tbps": (">=", 4.5, "issue 5"),
    "dram.copy.tbps": (">=", 4.2, "issue 5"),
}
UNITS = {
    "timer.clock.overhead_cycles": "cycles", "timer.clock64.overhead_cycles": "cycles",
    "timer.globaltimer.tick_ns": "ns", "timer.event.resolution_us": "us",
    "clock.sm.effective_mhz": "MHz", "clock.sm.nvml_mhz": "MHz", "fma.f32.tflops": "TFLOP/s",
    "fma.f32.fraction_of_peak": "of peak", "fma.f32.latency_cycles": "cycles",
    "dram.read.tbps": "TB/s", "dram.write.tbps": "TB/s", "dram.copy.tbps": "TB/s",
    "dram.memcpy.tbps": "TB/s", "dram.memset.tbps": "TB/s", "dram.copy_vs_memcpy": "ratio",
    "l2.read.tbps": "TB/s", "latency.l1.cycles": "cycles", "latency.l2.cycles": "cycles",
    "latency.dram.cycles": "cycles", "latency.smem.cycles": "cycles",
}


def load(d, name):
    p = os.path.join(d, name)
    if not os.path.exists(p):
        return None
    with open(p, encoding="utf-8") as f:
        return json.load(f)


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


def section_summary(s):
    rows = []
    for k, v in s["metrics"].items():
        t = TARGETS.get(k)
        target = f"{t[0]} {t[1]} ({t[2]})" if t else ""
        met = ""
        if t:
            met = "met" if (v >= t[1] if t[0] == ">=" else v <= t[1]) else "**not met**"
        rows.append([f"`{k}`", num(v, 4), UNITS.get(k, ""), target, met])
    return table(["metric", "value", "unit", "target", ""], rows)


def section_fma(doc):
    ex = doc["extra"]["fma_throughput"]
    rows = [[b, num(e["best_tflops"], 4), num(100 * e["best_fraction_of_peak"], 4),
             e["chains_to_97pct"], e["first_chains_with_lower_occupancy"]]
            for b, e in ex["by_block"].items()]
    return (table(["block", "best TFLOP/s", "% of peak", "chains to reach 97 % of best",
                   "first chains with lower occupancy (-1: none)"], rows)
            + f"\nPeak model: {ex['peak_source']}. Dependent FFMA latency: {num(ex['latency_cycles'], 4)} cycles.\n")


def section_dram(doc):
    ex = doc["extra"]["dram_bandwidth"]
    rows = [[k, num(v["gb_per_s"], 4), num(100 * v["gb_per_s"] / ex["nominal_gb_per_s"], 3), v["config"]]
            for k, v in sorted(ex["best_by_case"].items())]
    out = table(["case", "best GB/s", "% of nominal",
                 "best config (BxT: blocks/SM x threads; cover xT: one element per thread)"], rows)
    if "array_bytes" in ex:
        out += (f"\nArrays of {num(ex['array_bytes'] / 2**20, 5)} MiB each; in_kernel launches make "
                f"{ex['in_kernel_passes']} passes.")
    out += (f"\nNominal peak {num(ex['nominal_gb_per_s'], 4)} GB/s (bus width x memory clock x 2). "
            f"Peers in the same program, on the copy and write arrays: cudaMemcpy D2D "
            f"{num(ex['memcpy_gb_per_s'], 4)} GB/s (read + written), cudaMemset "
            f"{num(ex.get('memset_gb_per_s'), 4)} GB/s.")
    if "copy_vs_memcpy" in ex:
        out += f" Best copy kernel / cudaMemcpy: {num(ex['copy_vs_memcpy'], 3)}."
    flagged = [b["params"].get("case", b["name"]) for b in doc["benchmarks"]
               if any(f["code"] == "above_dram_peak" for f in b["flags"])]
    out += f"\n\nResults above the nominal peak (flag `above_dram_peak`): {len(flagged)}.\n"
    ll = ex.get("littles_law")
    if ll:
        out += ("\nLittle's law with the best read bandwidth and a 1 GiB pointer-chase latency of "
                f"{num(ll['latency_cycles'], 4)} cycles at {num(ll['clock_mhz'], 4)} MHz: "
                f"{num(ll['bytes_per_clock'], 5)} B/clock, {num(ll['bytes_in_flight'], 7)} B in flight, "
                f"{num(ll['bytes_in_flight_per_sm'], 5)} B per SM = "
                f"{num(ll['warp_loads_in_flight_per_sm'], 3)} warp loads of 128 B per SM.\n")
    return out


def section_ncu(path):
    if not os.path.exists(path):
        return "No ncu counters in this run.\n"
    rows = list(csv.reader(open(path, encoding="utf-8")))
    if len(rows) < 3:
        return "ncu wrote no kernel rows.\n"
    head = rows[0]
    cols = ["l1tex__t_sector_hit_rate.pct", "lts__t_sector_hit_rate.pct",
            "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
            "lts__t_requests_srcunit_tex_op_read.sum", "lts__t_sectors_srcunit_tex_op_read.sum",
            "dram__bytes_read.sum", "dram__bytes_write.sum"]
    idx = [head.index(c) for c in cols]
    kn = head.index("Kernel Name")
    pats = {"0": "read", "1": "write", "2": "copy", "3": "mixed"}
    out_rows = []
    for r in rows[2:]:
        name = r[kn]
        args = name[name.index("<") + 1:name.index(">")].split(", ")
        # stream_pass_kernel<P, T, Ld, St, Mode> or stream_covering_kernel<P, T, Ld, St>
        if "covering" in name or len(args) < 5:
            grid = "launches, covering"
        else:
            grid = "in_kernel" if args[4] == "1" else "launches"
        label = f"{pats.get(args[0], args[0])} {args[1]} .{args[2]}, {grid}"
        out_rows.append([label] + [r[i] for i in idx])
    short = ["L1 hit %", "L2 hit %", "L1 requests (ld)", "L1 sectors (ld)", "L2 requests (read)",
             "L2 sectors (read)", "DRAM bytes read", "DRAM bytes written"]
    return table(["kernel (persistent: 4 x 256 per SM; covering: 256 threads per block)"] + short,
                 out_rows)


def section_latency(doc):
    ex = doc["extra"]["latency_ladder"]
    rows = [[k, num(v, 4), num(v / ex["sm_clock_mhz"] * 1e3 if v else None, 4)] for k, v in ex["levels"].items()]
    out = (table(["level", "cycles", "ns"], rows)
           + f"\nPlateaus found by the detector in the ld.global curve:\n\n```\n{ex['plateaus']}```\n")
    mhz = ex["sm_clock_mhz"]
    tlb = [b for b in doc["benchmarks"] if b["name"] == "latency.tlb"]
    if tlb:
        rows = [[b["params"]["load"], num(b["params"]["bytes"] / 2**20, 6) + " MiB",
                 num(b["params"]["pages_2mib"], 5), num(b["rates"]["cycles_per_op"], 4),
                 num(b["rates"]["cycles_per_op"] / mhz * 1e3, 4)] for b in tlb]
        out += ("\n### TLB reach by stride (.cg loads, one node per stride, warm rings)\n\n"
                + table(["load", "working set", "2 MiB pages", "cycles/hop", "ns/hop"], rows))
    lanes = [b for b in doc["benchmarks"] if b["name"] == "latency.lanes"]
    if lanes:
        rows = [[b["params"]["level"], num(b["params"]["bytes"] / 2**10, 7) + " KiB",
                 b["params"]["lanes"], num(b["rates"]["cycles_per_op"], 4),
                 num(b["rates"]["cycles_per_op"] / mhz * 1e3, 4)] for b in lanes]
        out += ("\n### Who chases (one thread; a warp on one ring; a warp gathering from 32 rings)\n\n"
                + table(["level", "working set", "lanes", "cycles/hop", "ns/hop"], rows))
    return out


def section_cache(doc):
    ex = doc["extra"]["cache_bandwidth"]
    def mib(v):
        return "-" if v is None else f"{v / 1048576:.1f} MiB" if v >= 1048576 else f"{v / 1024:.0f} KiB"
    rows = [["L1 (replicated read, peak)", num(ex["l1_gb_per_s"], 4), num(ex["l1_bytes_per_clock_per_sm"], 3), mib(ex["l1_capacity_bytes"])],
            ["L2 (.cg, 2..16 MiB)", num(ex["l2_gb_per_s"], 4), num(ex["l2_bytes_per_clock_per_sm"], 3), mib(ex["l2_capacity_bytes"])],
            ["DRAM (.cg, 1..4 GiB)", num(ex["dram_gb_per_s"], 4), "", ""]]
    return table(["level", "GB/s", "bytes/clock/SM", "capacity (derived)"], rows)


def section_ordering(doc):
    ex = doc["extra"]["memory_ordering"]
    out = table(["pattern", "exact sums"], [[k, v] for k, v in ex["patterns"].items()])
    rows = [[k, num(v["cycles_per_fence"], 4)] for k, v in ex["fence_cycles"].items()]
    return out + "\n" + table(["fence (x threads)", "cycles per fence"], rows)


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("dir")
    p.add_argument("-o", "--output")
    a = p.parse_args(argv)
    d = a.dir
    s = load(d, "summary.json")
    if not s:
        sys.exit(f"{d}: no summary.json")
    dev = s["device"]
    md = [f"# Results: {dev['name']}\n",
          f"Made by `scripts/gpu-check.sh full` on the lent GPU at commit `{s['commit']}` on {s['date']}; "
          "this page by `tools/results_md.py` from the files beside it. Every figure below is read "
          "from those files. Each example's JSON holds every sample, the environment (clocks, "
          "power, temperature, throttle reasons) and the flags; its .txt holds its console output.\n",
          f"Device: {dev['name']}, {dev['sm_count']} SMs, compute capability {dev['compute_capability']}, "
          f"L2 {dev['l2_bytes'] / 1048576:.0f} MiB, {dev['memory_bus_width_bits']}-bit memory at "
          f"{dev['memory_clock_mhz']:.0f} MHz (nominal {dev['nominal_dram_gb_per_s']:.0f} GB/s), "
          f"SM clock up to {dev['sm_clock_max_mhz']:.0f} MHz, ECC {'on' if dev['ecc_enabled'] else 'off'}, "
          f"driver {dev['driver_version']}, CUDA {dev['runtime_version']}.\n",
          "## Headline metrics (summary.json, from device_report)\n", section_summary(s),
          f"\nCommand: `{s['command']}`.\n"]
    parts = [
        ("timers.json", "Timers", lambda doc: "See [timers.md](timers.md).\n"),
        ("fma_throughput.json", "FP32 FMA throughput (fma_throughput)", section_fma),
        ("instruction_table.json", "Instruction latency and throughput (instruction_table)",
         lambda doc: doc["extra"]["instruction_table"]["markdown"]),
        ("dram_bandwidth.json", "DRAM bandwidth (dram_bandwidth)", section_dram),
        ("latency_ladder.json", "Latency ladder (latency_ladder)", section_latency),
        ("cache_bandwidth.json", "Bandwidth against working set (cache_bandwidth)", section_cache),
        ("memory_ordering.json", "Memory ordering and fence cost (memory_ordering)", section_ordering),
    ]
    for f, title, fn in parts:
        doc = load(d, f)
        if not doc:
            continue
        md.append(f"\n## {title}\n")
        md.append(f"Made by {provenance(doc)}; data: [{f}]({f}).\n\n")
        md.append(fn(doc))
        if f == "dram_bandwidth.json":
            md.append("\n### DRAM kernels under Nsight Compute (tools/ncu_dram.sh, `--clock-control none`)\n\n")
            md.append(section_ncu(os.path.join(d, "ncu_dram.csv")))
    pngs = sorted(x for x in os.listdir(d) if x.endswith(".png"))
    if pngs:
        md.append("\n## Plots (scripts/plots.sh)\n")
        for png in pngs:
            md.append(f"\n![{png}]({png})\n")
    out = a.output or os.path.join(d, "README.md")
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(x.rstrip("\n") + "\n" for x in md))
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
