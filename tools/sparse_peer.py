#!/usr/bin/env python3
"""sparse_peer: a framework's 2:4 semi-structured sparse matmul beside its dense one.

The peer for cuprobe's sparse wgmma figure (wgmma.sparse_vs_dense.*): PyTorch's
torch.sparse.to_sparse_semi_structured on bf16, through each backend this PyTorch has
(cuSPARSELt, CUTLASS), against torch.mm on the same dense operands, in one process. The
rate is counted as the dense product's 2 M N K FLOP per second for both, so sparse / dense is
the speed-up a user sees, the figure to set beside cuprobe's instruction-level ratio.

  python3 tools/sparse_peer.py --json sparse_peer.json [--sizes 4096,8192,16384] [--reps 30]

Method: A (M x K) is random with two of every four elements of a row zeroed (the 2:4 pattern),
B (K x N) random; each product runs `warmup` times, then `reps` times, each timed alone by CUDA
events; the median is reported, with min and max. The sparse result is checked against the
dense one (relative Frobenius error). Exit status 2 when PyTorch or a GPU is missing (the
reason is printed), 1 when a result is wrong.
"""
import argparse
import json
import statistics
import sys


def timed(torch, fn, warmup, reps):
    for _ in range(warmup):
        fn()
    torch.cuda.synchronize()
    out = []
    for _ in range(reps):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        fn()
        b.record()
        b.synchronize()
        out.append(a.elapsed_time(b) * 1e-3)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="4096,8192,16384", help="M = N = K values, comma-separated")
    ap.add_argument("--reps", type=int, default=30)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--json", help="write the rows here")
    a = ap.parse_args()
    try:
        import torch
        from torch.sparse import SparseSemiStructuredTensor, to_sparse_semi_structured
    except ImportError as e:
        print(f"sparse_peer: PyTorch with semi-structured sparsity is not installed ({e})")
        return 2
    if not torch.cuda.is_available():
        print("sparse_peer: no GPU visible to PyTorch")
        return 2
    dev = torch.cuda.get_device_properties(0)
    rows, status = [], 0
    backends = ["cusparselt", "cutlass"]
    for n in [int(x) for x in a.sizes.split(",")]:
        g = torch.Generator(device="cuda").manual_seed(n)
        A = torch.randn(n, n, device="cuda", dtype=torch.bfloat16, generator=g)
        keep = torch.tensor([1, 1, 0, 0], device="cuda", dtype=torch.bfloat16).repeat(n, n // 4)
        A = A * keep
        B = torch.randn(n, n, device="cuda", dtype=torch.bfloat16, generator=g)
        flop = 2.0 * n * n * n
        ref = torch.mm(A, B)
        dense = timed(torch, lambda: torch.mm(A, B), a.warmup, a.reps)
        row = {"m": n, "n": n, "k": n, "dense_s": statistics.median(dense),
               "dense_tflops": flop / statistics.median(dense) / 1e12}
        for be in backends:
            try:
                SparseSemiStructuredTensor._FORCE_CUTLASS = be == "cutlass"
                As = to_sparse_semi_structured(A)
                got = torch.mm(As, B)
                err = (torch.linalg.norm((got - ref).float()) / torch.linalg.norm(ref.float())).item()
                t = timed(torch, lambda: torch.mm(As, B), a.warmup, a.reps)
                med = statistics.median(t)
                row[be] = {"median_s": med, "min_s": min(t), "max_s": max(t),
                           "tflops_dense_equivalent": flop / med / 1e12,
                           "vs_dense": statistics.median(dense) / med, "rel_error": err,
                           "valid": err < 1e-2}
                if err >= 1e-2:
                    status = 1
            except Exception as e:  # a backend this build lacks: say so, go on
                row[be] = {"unavailable": f"{type(e).__name__}: {e}"[:200]}
        rows.append(row)
        line = f"{n}^3 bf16: dense {row['dense_tflops']:.0f} TFLOP/s"
        for be in backends:
            r = row[be]
            line += (f"; {be} {r['tflops_dense_equivalent']:.0f} ({r['vs_dense']:.3f} x dense, "
                     f"error {r['rel_error']:.1e})" if "vs_dense" in r else f"; {be}: unavailable")
        print(line, flush=True)
    doc = {"schema": "cuprobe.sparse_peer/1", "device": dev.name, "torch": torch.__version__,
           "cuda": torch.version.cuda, "command": " ".join(sys.argv), "rows": rows}
    if a.json:
        with open(a.json, "w") as f:
            json.dump(doc, f, indent=1)
    return status


if __name__ == "__main__":
    sys.exit(main())
