#!/usr/bin/env python3
"""The library's counters against Nsight Compute's, on the same launches (tools/ncu_counters.sh).

  ncu_counters.py COUNTED.json NCU.csv [--tolerance 0.01] [--markdown OUT.md]

COUNTED.json: an example's results (cuprobe.results/3) written with `--profile --counters SETS`
outside ncu: each benchmark's one profiled call, counted by the library's counter pass
(values per iteration, x `per_range` = the call's total).
NCU.csv: `ncu --csv --page raw --nvtx --print-nvtx-rename kernel` over the same program with
`--profile`: one row per kernel, named after the innermost NVTX push/pop range around it, which
is the benchmark's name (the runner opens one range per measurement).

Every metric both sides hold (counts: the `.sum` ones) is compared per benchmark name: the
library's total against the sum of ncu's rows of that name. A pair agrees when the two differ by
at most --tolerance of the larger (1 %), or by at most 64 KiB (a count that small is the
launch's own traffic: its parameters, its code), or, for a count that depends on what the L2
held when a kernel began, by at most the L2's size (--l2-bytes) per kernel of that name: DRAM
bytes read and written (lines the L2 still held from earlier work, and dirty lines written back
during the kernel or after it) and the L2's sectors read, written, hit and missed. Neither side
controls that state: ncu (--cache-control none) replays a kernel as the previous kernel or its
own previous pass left the L2, the library counts after the measurement's own call (after its
flush, where run_options::flush_l2). A DRAM count below 0.1 % of the launch's DRAM bytes (read +
written, the library's) is noise of the launch. Where the SMs received more than 1.01 x the
sectors the L2 read for them, on both sides (l1tex__m_xbar2l1tex_read_sectors against
lts__t_sectors_srcunit_tex_op_read: several SMs asked for the same sectors at once, and requests
merged before the L2), the L2's read sectors and lookup hits depend on timing, and two runs of the
same tool differ as much: those pairs are shown as timing, not a difference.
Benchmarks named on one side only are listed, not compared. So is a name whose kernels the two
sides count differently: ncu profiles every launch inside a range of that name, the library counts
only the measurements the example kept in its results (a sweep that keeps its best point ran
others under the same name), so where ncu holds another number of kernels of a name than the
kept measurements' kernel ranges (`ranges`) add up to (more: a sweep that kept its best point;
fewer: an ncu run cut short), the totals cover different launches; that name is listed with both
counts, not compared. Where the numbers match but the launches' shapes (grid and block, the
results' `launch` against ncu's Grid Size and Block Size) do not, the two runs chose different
launches under one name (a best point picked by its own run's timing): that name is listed with
the shapes each side alone holds, not compared. Exit status: 0 when every pair agrees (and at
least one was compared); 3 when nothing could be compared because ncu profiled no kernel inside any
range the library counted, although it named other kernels after their ranges (the measurements
launched no kernel of their own from the thread that opened the range: copies, which ncu does not
profile, or kernels launched from another thread); 1 otherwise or on bad input, with one sentence.
"""
import argparse
import collections
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from access_check import number  # noqa: E402  (ncu's numbers, thousands separators and all)

SMALL = 64 * 1024  # bytes, sectors or requests below which a count is the launch's own traffic


def shape(grid, block):
    """A launch's shape, (grid, block) as tuples of three ints, from the results' lists or
    ncu's "(x, y, z)" strings; None when either cannot be read."""
    def dims(v):
        if isinstance(v, str):
            v = v.strip("() ").split(",")
        try:
            t = tuple(int(str(x).strip()) for x in v)
        except (TypeError, ValueError):
            return None
        return t if len(t) == 3 else None
    g, b = dims(grid), dims(block)
    return (g, b) if g and b else None


def load_counted(path):
    """{benchmark name: {metric: total of the profiled call}}, the benchmarks without counters,
    {name: kernels counted} (the kept measurements' kernel ranges; None where one was counted
    in one range per sample, "uncounted" where one of that name has no counts) and {name:
    Counter of launch shapes, one per kernel range} (None where a measurement of the name
    records no launch)."""
    with open(path) as f:
        doc = json.load(f)
    if not str(doc.get("schema", "")).startswith("cuprobe.results/3"):
        raise ValueError(f"{path}: not a cuprobe.results/3 file (schema {doc.get('schema')!r})")
    out, missing, kernels, shapes = {}, [], {}, {}
    for b in doc.get("benchmarks", []):
        c = b.get("counters")
        name = b.get("name")
        if not c or c.get("missing"):
            kernels[name] = "uncounted"  # launches of this name the library's totals leave out
            if c:
                missing.append(f"{name}: {c['missing']}")
            continue
        per = float(c.get("per_range") or 1)
        k = kernels.get(name, 0)
        if isinstance(k, int):
            kernels[name] = k + int(c.get("ranges") or 0) if c.get("range") == "kernel" else None
        launch = b.get("launch") or {}
        sh = shape(launch.get("grid"), launch.get("block"))
        if sh is None or c.get("range") != "kernel":
            shapes[name] = None
        elif shapes.get(name, collections.Counter()) is not None:
            shapes.setdefault(name, collections.Counter())[sh] += int(c.get("ranges") or 0)
        tot = out.setdefault(name, {})
        for v in c.get("values", []):
            if v["metric"].endswith(".sum") and isinstance(v.get("value"), (int, float)):
                tot[v["metric"]] = tot.get(v["metric"], 0.0) + v["value"] * per
    return out, missing, kernels, shapes


# Metrics that are times: shown beside the counts, never a disagreement.
TIMES = {"gpu__time_duration.sum"}
# The L2 reads of a kernel whose SMs ask for the same sectors at about the same time: requests
# merged before the L2 are not read there, and how many merge depends on timing. Shown when the
# SMs received more sectors (DELIVERED) than the L2 read for them (READ_AT_L2), on both sides.
DELIVERED, READ_AT_L2 = "l1tex__m_xbar2l1tex_read_sectors.sum", "lts__t_sectors_srcunit_tex_op_read.sum"
MERGED = {"lts__t_sectors_op_read.sum", READ_AT_L2, "lts__t_sectors_srcunit_tex_lookup_hit.sum"}


def merged_before_l2(a, b):
    """True when, on both sides, the SMs received more than 1.01 x the sectors the L2 read."""
    return all(DELIVERED in x and READ_AT_L2 in x and x[DELIVERED] > 1.01 * x[READ_AT_L2] for x in (a, b))


# Counts that depend on what the L2 held when the launch began, and bytes per count.
L2_STATE = {"dram__bytes_read.sum": 1, "dram__bytes_write.sum": 1,
            "lts__t_sectors_srcunit_tex_lookup_hit.sum": 32,
            "lts__t_sectors_srcunit_tex_lookup_miss.sum": 32, "lts__t_sectors_op_read.sum": 32,
            "lts__t_sectors_op_write.sum": 32}


def load_ncu(path):
    """{NVTX range (or kernel) name: {metric: sum over its rows}}, {name: rows (kernels)}, {name:
    Counter of launch shapes} (names without Grid Size and Block Size columns left out) and the
    number of kernels named after an NVTX range, from ncu's raw CSV page."""
    rows = [r for r in csv.reader(open(path, newline="")) if r]
    head = next((i for i, r in enumerate(rows) if "Kernel Name" in r), None)
    if head is None:
        raise ValueError(f"{path}: no ncu CSV header (a 'Kernel Name' column)")
    cols = rows[head]
    name_col = cols.index("Kernel Name")
    grid_col = cols.index("Grid Size") if "Grid Size" in cols else None
    block_col = cols.index("Block Size") if "Block Size" in cols else None
    out, rows_of, shapes, renamed = {}, {}, {}, 0
    for r in rows[head + 1:]:
        if len(r) != len(cols) or r[name_col] == "":
            continue
        if number(r[cols.index("ID")] if "ID" in cols else "0") is None:
            continue  # the units row
        # --print-nvtx-rename kernel names a kernel "range/kernel signature": keep the range
        name = r[name_col]
        head_part, sep, _ = name.partition("/")
        if sep and not any(c in head_part for c in " (<"):
            name = head_part
            renamed += 1
        tot = out.setdefault(name, {})
        rows_of[name] = rows_of.get(name, 0) + 1
        if grid_col is not None and block_col is not None:
            sh = shape(r[grid_col], r[block_col])
            if sh:
                shapes.setdefault(name, collections.Counter())[sh] += 1
        for i, c in enumerate(cols):
            x = number(r[i]) if c.endswith(".sum") else None
            if x is not None:
                tot[c] = tot.get(c, 0.0) + x
    return out, rows_of, shapes, renamed


def uneven(kernels, ncu_rows, counted):
    """{name: (library's kernels, ncu's kernels)} for the names both hold whose kernels differ
    in number (or that hold a measurement without counts): the totals cover other launches."""
    return {n: (k, ncu_rows[n]) for n, k in kernels.items()
            if n in ncu_rows and n in counted and k is not None and (k == "uncounted" or k != ncu_rows[n])}


def reshaped(lib_shapes, ncu_shapes, counted, skip=()):
    """{name: (shapes the library alone counted, shapes ncu alone profiled)} for the names both
    hold, not in `skip`, whose launches (grid, block) differ although their numbers match."""
    out = {}
    for n in sorted(set(counted) & set(ncu_shapes) - set(skip)):
        a, b = lib_shapes.get(n), ncu_shapes[n]
        if a is not None and a != b:
            out[n] = (a - b, b - a)
    return out


def shapes_text(c):
    """'3 x (264,1,1)x(512,1,1)' for each shape of a Counter."""
    return ", ".join(f"{k} x ({','.join(map(str, g))})x({','.join(map(str, b))})"
                     for (g, b), k in sorted(c.items()))


def compare(counted, ncu, tolerance, l2_bytes, kernels=None, skip=()):
    """Rows (name, metric, library, ncu, relative difference, verdict) and whether all agree;
    `kernels`: {name: kernels counted} (the L2's state may differ once per kernel; 1 where not
    known); the names in `skip` are left out."""
    rows, ok = [], True
    kernels = kernels or {}
    for name in sorted((set(counted) & set(ncu)) - set(skip)):
        dram = sum(counted[name].get(m, 0.0) for m in ("dram__bytes_read.sum", "dram__bytes_write.sum"))
        k = kernels.get(name)
        launches = k if isinstance(k, int) and k > 0 else 1
        merged = merged_before_l2(counted[name], ncu[name])
        for metric in sorted(set(counted[name]) & set(ncu[name])):
            a, b = counted[name][metric], ncu[name][metric]
            diff = abs(a - b)
            rel = diff / max(abs(a), abs(b)) if max(abs(a), abs(b)) > 0 else 0.0
            if metric in TIMES:
                verdict = "a time, not a count (each run has its own)"
            elif rel <= tolerance:
                verdict = "agrees"
            elif diff <= SMALL:
                verdict = "agrees (both below 64 KiB apart: the launch's own traffic)"
            elif metric.startswith("dram__bytes_") and diff <= 1e-3 * dram:
                verdict = "agrees (below 0.1 % of the launch's DRAM bytes)"
            elif metric in L2_STATE and l2_bytes and diff * L2_STATE[metric] <= launches * l2_bytes:
                verdict = (f"within the L2's state ({launches} x the L2: what it held when each kernel "
                           "began, or left dirty)")
            elif merged and metric in MERGED:
                verdict = (f"timing (the SMs received {counted[name][DELIVERED]:.4g} sectors, the L2 read "
                           f"{counted[name][READ_AT_L2]:.4g}: requests merged before the L2 by timing)")
            else:
                verdict, ok = "DIFFERS", False
            rows.append((name, metric, a, b, rel, verdict))
    return rows, ok and bool(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("counted")
    ap.add_argument("ncu")
    ap.add_argument("--tolerance", type=float, default=0.01)
    ap.add_argument("--l2-bytes", type=float, default=0, help="the card's L2 size, bytes")
    ap.add_argument("--markdown")
    a = ap.parse_args()
    try:
        counted, missing, kernels, lib_shapes = load_counted(a.counted)
        ncu, ncu_rows, ncu_shapes, renamed = load_ncu(a.ncu)
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as e:
        print(f"ncu_counters: {e}", file=sys.stderr)
        return 1
    apart = uneven(kernels, ncu_rows, counted)
    other = reshaped(lib_shapes, ncu_shapes, counted, apart)
    rows, ok = compare(counted, ncu, a.tolerance, a.l2_bytes, kernels, set(apart) | set(other))
    lines = ["| benchmark | metric | library | ncu | difference | verdict |", "|---|---|---|---|---|---|"]
    lines += [f"| {n} | {m} | {x:.6g} | {y:.6g} | {100 * r:.3f} % | {v} |" for n, m, x, y, r, v in rows]
    only_lib = sorted(set(counted) - set(ncu))
    only_ncu = sorted(set(ncu) - set(counted))
    notes = []
    if only_lib:
        notes.append(f"Counted by the library only (no ncu kernel of that NVTX name): {', '.join(only_lib)}.")
    if only_ncu:
        notes.append(f"Profiled by ncu only (kernels outside the measurements' ranges): {', '.join(only_ncu[:20])}"
                     + (" ..." if len(only_ncu) > 20 else "") + ".")
    if apart:
        notes.append("Not compared, different launches on each side (the results keep fewer measurements "
                     "of the name than ran under it): " + "; ".join(
                         f"{n}: the library counted {'not every one of its' if k == 'uncounted' else k} kernel(s), ncu profiled {m}" for n, (k, m) in sorted(apart.items())) + ".")
    if other:
        notes.append("Not compared, as many launches on each side but of other shapes (each run chose "
                     "its own, e.g. a best point by its own timing): " + "; ".join(
                         f"{n}: the library alone counted {shapes_text(x)}, ncu alone profiled {shapes_text(y)}"
                         for n, (x, y) in other.items()) + ".")
    if missing:
        notes.append("Without counters: " + "; ".join(missing[:10]) + ".")
    text = "\n".join(lines + [""] + notes) + "\n"
    print(text, end="")
    if a.markdown:
        with open(a.markdown, "w") as f:
            f.write(text)
    nothing = not rows and counted and renamed and not (set(counted) & set(ncu))
    if nothing:
        print(f"ncu_counters: nothing to compare: ncu profiled no kernel inside the {len(counted)} "
              f"ranges the library counted ({', '.join(sorted(counted)[:5])}"
              f"{' ...' if len(counted) > 5 else ''}), though it named {renamed} other kernel(s) "
              "after their ranges: those measurements launched no kernel of their own from the "
              "thread that opened the range (copies, which ncu does not profile, or kernels "
              "launched from another thread)", file=sys.stderr)
    elif not rows:
        print("ncu_counters: no benchmark was counted on both sides: ncu names kernels by their NVTX "
              "range only with --nvtx --print-nvtx-rename kernel, and the library counts only outside "
              "ncu with --counters", file=sys.stderr)
    agreeing = sum(1 for r in rows if r[5] != "DIFFERS")
    print(f"ncu_counters: {agreeing} of {len(rows)} pairs agree", file=sys.stderr)
    return 3 if nothing else 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
