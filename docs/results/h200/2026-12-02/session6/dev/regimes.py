#!/usr/bin/env python3
"""The head-to-head rounds of a gemm.json split where cuBLASLt's time steps, by the rule of
experiments/gemm_report.cuh (core/stats.cuh split_levels: max / min above 1.05, split at the
midpoint), and each row's median paired ratio (cuBLASLt's time / the row's) over all, the fast
and the slow rounds. For the development runs, whose binaries predate that code.

    regimes.py GEMM_JSON..."""
import json, statistics, sys

for path in sys.argv[1:]:
    bench = json.load(open(path))["benchmarks"]
    groups = {}
    for m in bench:
        g = m.get("params", {}).get("interleave_group", "")
        if g.startswith("gemm.head_to_head"):
            groups.setdefault(g, []).append(m)
    print(path)
    for g, ms in groups.items():
        peer = [m for m in ms if m["name"] == "cuBLASLt"][0]["samples"]
        lo, hi = min(peer), max(peer)
        mid = (lo + hi) / 2
        step = hi / lo - 1 > 0.05
        fast = [k for k, x in enumerate(peer) if x < mid] if step else []
        slow = [k for k, x in enumerate(peer) if x >= mid] if step else []
        print(f"  {g[len('gemm.head_to_head.bf16.'):]}: cuBLASLt {1e3 * lo:.3f} .. {1e3 * hi:.3f} ms, "
              + (f"{len(fast)} fast / {len(slow)} slow rounds" if step else "no step"))
        for m in ms:
            if m["name"] == "cuBLASLt":
                continue
            q = m["samples"]
            ratio = lambda ks: statistics.median(peer[k] / q[k] for k in ks) if ks else float("nan")
            allr = ratio(range(len(q)))
            print(f"    {m['params'].get('kernel', m['name'])[:72]:72s} all {allr:.3f}"
                  + (f"  fast {ratio(fast):.3f}  slow {ratio(slow):.3f}" if step else ""))
