#!/usr/bin/env python3
"""Nsight Compute views of tensor-core kernels as one CSV and one Markdown table.

  ncu_table.py NCU.csv [NCU.csv ...] [-o OUT.md] [--csv OUT.csv]

Reads the CSV files `ncu --csv --page raw` wrote (tools/ncu_wgmma.sh: examples/wgmma's
wgmma_bench_kernel launches, examples/gemm's kernel and cuBLASLt's) and writes one row per
kernel launch: a label read off the kernel's name (wgmma_bench<type, N, RS, sparse, group,
depth>, gemm_kernel<stages, cluster, epilogue buffers, variant, schedule<N, ping-pong>>, else
the name itself), grid,
duration, SM clock, the tensor-pipe utilisation (the first of TENSOR_PIPE that ncu filled), SM
and memory throughput, shared-memory wavefronts and their share of peak, and the three largest
warp-stall reasons of the WarpStateStats section (cycles per issued instruction). A column
ncu did not fill is "-". The Markdown goes to stdout without -o.

A file that cannot be read, is not an ncu --csv file or holds no kernel row gets one line
"PATH: reason" on stderr and the exit status is 1; the other files are still read and their
rows written. Standard library only (the CSV reader is results_md.py's, beside this file).
"""
import argparse
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from results_md import read_ncu  # noqa: E402  (the ncu CSV reader beside this file)

# Tensor-pipe utilisation: Hopper's wgmma runs on the gmma pipe; older names last.
TENSOR_PIPE = (
    "sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active",
    "sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active",
)
# (column, header, scale): what every row shows beside the label.
COLUMNS = (
    ("launch__grid_size", "grid", 1),
    ("gpu__time_duration.sum", "us", None),  # unit from the file's units row
    ("sm__cycles_elapsed.avg.per_second", "SM MHz", None),
    ("sm__throughput.avg.pct_of_peak_sustained_elapsed", "SM %", 1),
    ("sm__memory_throughput.avg.pct_of_peak_sustained_elapsed", "mem %", 1),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "smem wavefronts", 1),
    ("l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed", "smem %", 1),
    ("l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum", "bank conflicts", 1),
)
# WarpStateStats: smsp__average_warp_latency_issue_stalled_<reason>.ratio (or the
# ..._warps_issue_stalled_<reason>_per_issue_active form); "not_issued" and "selected" are not stalls.
STALL = re.compile(r"^smsp__average_warps?_(?:latency_)?issue_stalled_([a-z0-9_]+?)"
                   r"(?:_per_issue_active)?\.(?:ratio|pct)$")
NOT_STALLS = {"not_issued", "selected"}
TYPES = {"bf16": "bf16", "f16": "f16", "tf32": "tf32", "e4m3": "e4m3", "e5m2": "e5m2"}
UNIT_SCALE = {"nsecond": 1e-3, "usecond": 1.0, "msecond": 1e3, "second": 1e6,
              "hz": 1e-6, "khz": 1e-3, "mhz": 1.0, "ghz": 1e3, "cycle/nsecond": 1e3,
              "cycle/usecond": 1.0, "cycle/second": 1e-6}


def template_args(name, template):
    """The top-level template arguments of `template<...>` in a demangled name, or None."""
    at = name.find(template + "<")
    if at < 0:
        return None
    i, depth, args, cur = at + len(template) + 1, 1, [], ""
    while i < len(name) and depth:
        c = name[i]
        depth += (c == "<") - (c == ">")
        if depth == 1 and c == ",":
            args.append(cur.strip())
            cur = ""
        elif depth:
            cur += c
        i += 1
    args.append(cur.strip())
    return args if depth == 0 else None


def truthy(text):
    return text.strip() in ("true", "1")


def label(name):
    """(kind, label) of a kernel name: wgmma, gemm, cublas or other."""
    w = template_args(name, "wgmma_bench")
    if w and len(w) >= 2:
        t = TYPES.get(w[0].split("::")[-1], w[0].split("::")[-1])
        rs = len(w) > 2 and truthy(w[2])
        sp = len(w) > 3 and truthy(w[3])
        extra = f", {w[4]}/{w[5]}" if len(w) > 5 else ""
        return "wgmma", f"{t} m64n{w[1]} {'RS' if rs else 'SS'}{' sparse' if sp else ''}{extra}"
    g = template_args(name, "gemm_kernel")
    if g and len(g) >= 3:
        # <stages, cluster, epilogue buffers (0: direct stores), (gemm_variant)v, schedule<N, ping-pong>>
        text = f"gemm_kernel {g[0]} stages, cluster {g[1]}, " + ("direct stores" if g[2] == "0" else f"{g[2]} epi")
        if len(g) > 3:
            v = re.sub(r"^\(.*\)", "", g[3]).split("::")[-1]
            text += {"0": "", "full": "", "1": ", copy only", "copy_only": ", copy only",
                     "2": ", compute only", "compute_only": ", compute only"}.get(v, f", {v}")
        s = template_args(g[4], "schedule") if len(g) > 4 else None
        if s and len(s) == 2:
            text += f", {'ping-pong' if truthy(s[1]) else 'cooperative'} 128x{s[0]}"
        return "gemm", text
    if re.search(r"nvjet|xmma|cutlass|cublas", name, re.I):
        return "cublas", name.split("(")[0][:60]
    return "other", name.split("(")[0][:60]


def number(text):
    try:
        return float(text.replace(",", ""))
    except (ValueError, AttributeError):
        return None


def fmt(v, digits=1):
    if v is None:
        return "-"
    if float(v).is_integer() or abs(v) >= 1000:
        return f"{v:,.0f}".replace(",", "")
    return f"{v:.{digits}f}"


def rows_of(rows):
    """The kernel rows of one ncu CSV as dicts of the output columns."""
    head, units = rows[0], rows[1] if len(rows) > 1 else []
    col = {c: i for i, c in enumerate(head)}
    unit = lambda c: units[col[c]].strip().lower() if c in col and col[c] < len(units) else ""  # noqa: E731
    stalls = [(m.group(1), col[c]) for c in head for m in [STALL.match(c)] if m and m.group(1) not in NOT_STALLS]
    pipe = next((c for c in TENSOR_PIPE if c in col), None)
    out = []
    for r in rows[2:]:
        cell = lambda c: number(r[col[c]]) if c in col and col[c] < len(r) else None  # noqa: E731
        name = r[col["Kernel Name"]] if col["Kernel Name"] < len(r) else ""
        kind, text = label(name)
        row = {"id": r[col["ID"]] if "ID" in col and col["ID"] < len(r) else "", "kind": kind, "kernel": text,
               "tensor_pipe_pct": cell(pipe) if pipe else None}
        for c, short, scale in COLUMNS:
            v = cell(c)
            if v is not None and scale is None:
                s = UNIT_SCALE.get(unit(c))
                v = v * s if s is not None else v
            row[short] = v
        ranked = sorted(((number(r[i]) or 0.0, reason) for reason, i in stalls if i < len(r)), reverse=True)
        row["stalls"] = ", ".join(f"{reason} {v:.1f}" for v, reason in ranked[:3] if v > 0) or "-"
        out.append(row)
    return out, pipe


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("csv_files", nargs="+", metavar="NCU.csv")
    p.add_argument("-o", "--output", help="the Markdown table (default: stdout)")
    p.add_argument("--csv", help="also write the rows as CSV here")
    a = p.parse_args(argv)
    bad, table, pipes = 0, [], set()
    for path in a.csv_files:
        rows, reason = read_ncu(path)
        if reason is None and (len(rows) < 3 or "Kernel Name" not in rows[0]):
            reason = "holds no kernel row (ncu wrote a header only, or nothing)"
        if reason:
            print(f"{path}: {reason}", file=sys.stderr)
            bad += 1
            continue
        found, pipe = rows_of(rows)
        pipes.add(pipe or "none of " + ", ".join(TENSOR_PIPE))
        table += [dict(r, file=os.path.basename(path)) for r in found]
    heads = ["file", "id", "kind", "kernel", "tensor pipe %"] + [s for _, s, _ in COLUMNS] + ["top stalls (cycles/issue)"]
    keys = ["file", "id", "kind", "kernel", "tensor_pipe_pct"] + [s for _, s, _ in COLUMNS] + ["stalls"]
    cells = [[r[k] if isinstance(r[k], str) else fmt(r[k]) for k in keys] for r in table]
    md = "| " + " | ".join(heads) + " |\n|" + " --- |" * len(heads) + "\n"
    md += "".join("| " + " | ".join(c) + " |\n" for c in cells)
    md += f"\nTensor pipe column: {'; '.join(sorted(pipes)) or '-'}.\n"
    try:
        if a.output:
            with open(a.output, "w", encoding="utf-8") as f:
                f.write(md)
        else:
            sys.stdout.write(md)
        if a.csv:
            with open(a.csv, "w", encoding="utf-8", newline="") as f:
                w = csv.writer(f)
                w.writerow(heads)
                w.writerows(cells)
    except OSError as e:
        print(f"{e.filename}: cannot be written ({e.strerror or e})", file=sys.stderr)
        return 1
    if a.output:
        print(f"wrote {a.output} ({len(table)} kernel rows)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
