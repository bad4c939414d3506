#!/usr/bin/env python3
"""torch_collectives: torch.distributed's NCCL collectives, the peer of examples/collectives.

One process per GPU (torch.multiprocessing), the NCCL backend, fp32 buffers, sizes doubling
from --min-bytes to --max-bytes, with the sizes and bandwidths of nccl-tests as
cuprobe_suite/collectives.cuh defines them: the size is the larger of a rank's two buffers,
algorithm bandwidth = size / time, bus bandwidth = algorithm bandwidth x 2(n-1)/n (all-reduce),
(n-1)/n (all-gather, reduce-scatter, all-to-all) or 1 (broadcast). Each rank times `reps`
calls of a size with CUDA events after `warmup` calls and a barrier; a sample is the slowest
rank's time per call (all-reduce of the per-rank times with MAX), and the median of the
samples is reported. Outputs are checked once per size (small integers: exact in fp32).

  python3 tools/torch_collectives.py --json torch_collectives.json [--gpus N]
      [--ops all_reduce,all_gather,reduce_scatter,broadcast,all_to_all]
      [--min-bytes 8] [--max-bytes 4294967296] [--samples 5] [--reps 10]

NCCL_NVLS_ENABLE is set to 0 unless already set (NVLink multicast stays off). Exit status 2
when PyTorch, NCCL or a GPU is missing (the reason is printed), 1 when an output is wrong.
"""
import argparse
import json
import os
import statistics
import sys

OPS = ["all_reduce", "all_gather", "reduce_scatter", "broadcast", "all_to_all"]


def bus_factor(op, n):
    """nccl-tests' factor from algorithm to bus bandwidth for n ranks."""
    if op == "all_reduce":
        return 2.0 * (n - 1) / n
    if op == "broadcast":
        return 1.0
    return (n - 1) / n


def sizes(lo, hi):
    """Doubling byte sizes from lo to hi (both included when hi is lo times a power of two)."""
    out, s = [], lo
    while s <= hi:
        out.append(s)
        s *= 2
    return out


def run_op(torch, dist, op, nbytes, n, rank, samples, reps, warmup):
    """(median seconds per call of the slowest rank, whether the output was right) or None."""
    per = nbytes // 4 // (n if op in ("all_gather", "reduce_scatter", "all_to_all") else 1)
    if per < 1:
        return None
    dev = torch.device("cuda", rank)
    # Rank r's element i is (r + 1) * (i % 7 + 1): sums of up to 1024 ranks are exact in fp32.
    base = (torch.arange(per * (n if op in ("reduce_scatter", "all_to_all") else 1),
                         device=dev) % 7 + 1).float()
    x = base * (rank + 1)
    if op == "all_reduce":
        buf = x.clone()
        call = lambda: dist.all_reduce(buf)  # noqa: E731
    elif op == "all_gather":
        out = torch.empty(per * n, device=dev)
        call = lambda: dist.all_gather_into_tensor(out, x)  # noqa: E731
    elif op == "reduce_scatter":
        out = torch.empty(per, device=dev)
        call = lambda: dist.reduce_scatter_tensor(out, x)  # noqa: E731
    elif op == "broadcast":
        buf = x.clone()
        call = lambda: dist.broadcast(buf, src=0)  # noqa: E731
    else:
        out = torch.empty(per * n, device=dev)
        call = lambda: dist.all_to_all_single(out, x)  # noqa: E731
    call()  # the check, on the first call's output
    torch.cuda.synchronize(dev)
    tot = n * (n + 1) // 2
    if op == "all_reduce":
        ok = torch.equal(buf, base * tot)
    elif op == "all_gather":
        ok = all(torch.equal(out[r * per:(r + 1) * per], base * (r + 1)) for r in range(n))
    elif op == "reduce_scatter":
        ok = torch.equal(out, base[rank * per:(rank + 1) * per] * tot)
    elif op == "broadcast":
        ok = torch.equal(buf, base)
    else:
        ok = all(torch.equal(out[r * per:(r + 1) * per], base[rank * per:(rank + 1) * per] * (r + 1))
                 for r in range(n))
    for _ in range(warmup):
        call()
    times = []
    for _ in range(samples):
        dist.barrier()
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        for _ in range(reps):
            call()
        b.record()
        b.synchronize()
        t = torch.tensor([a.elapsed_time(b) * 1e-3 / reps], device=dev)
        dist.all_reduce(t, op=dist.ReduceOp.MAX)
        times.append(t.item())
    flag = torch.tensor([0 if ok else 1], device=dev)
    dist.all_reduce(flag, op=dist.ReduceOp.MAX)
    return statistics.median(times), flag.item() == 0


def worker(rank, n, a, port, out_path):
    import torch
    import torch.distributed as dist
    torch.cuda.set_device(rank)
    dist.init_process_group("nccl", init_method=f"tcp://127.0.0.1:{port}", rank=rank,
                            world_size=n, device_id=torch.device("cuda", rank))
    rows, bad = [], 0
    for op in a.ops.split(","):
        for s in sizes(a.min_bytes, a.max_bytes):
            r = run_op(torch, dist, op, s, n, rank, a.samples, a.reps, a.warmup)
            if r is None:
                continue
            t, ok = r
            bad += not ok
            algbw = s / t
            rows.append({"op": op, "bytes": s, "ranks": n, "seconds": t, "algbw_gbps": algbw / 1e9,
                         "busbw_gbps": algbw * bus_factor(op, n) / 1e9, "valid": ok})
            if rank == 0:
                print(f"{op:15s} {s:>12d} B  {t * 1e6:10.1f} us  algbw {algbw / 1e9:8.2f} GB/s  "
                      f"busbw {algbw * bus_factor(op, n) / 1e9:8.2f} GB/s  {'ok' if ok else 'WRONG'}",
                      flush=True)
    if rank == 0:
        doc = {"schema": "cuprobe.torch_collectives/1", "device": torch.cuda.get_device_name(0),
               "torch": torch.__version__, "nccl": ".".join(map(str, torch.cuda.nccl.version())),
               "ranks": n, "command": " ".join(sys.argv), "rows": rows}
        if out_path:
            with open(out_path, "w") as f:
                json.dump(doc, f, indent=1)
    dist.destroy_process_group()
    if bad:
        sys.exit(1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--gpus", type=int, default=0, help="ranks: the first N GPUs (0: all)")
    ap.add_argument("--ops", default=",".join(OPS))
    ap.add_argument("--min-bytes", type=int, default=8)
    ap.add_argument("--max-bytes", type=int, default=4 << 30)
    ap.add_argument("--samples", type=int, default=5)
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--port", type=int, default=29517)
    ap.add_argument("--json", help="write the rows here")
    a = ap.parse_args()
    for op in a.ops.split(","):
        if op not in OPS:
            ap.error(f"--ops: unknown collective '{op}' (known: {', '.join(OPS)})")
    try:
        import torch
        import torch.distributed as dist
        import torch.multiprocessing as mp
    except ImportError as e:
        print(f"torch_collectives: PyTorch is not installed ({e})")
        return 2
    if not torch.cuda.is_available() or not dist.is_nccl_available():
        print("torch_collectives: no GPU visible to PyTorch, or PyTorch without NCCL")
        return 2
    os.environ.setdefault("NCCL_NVLS_ENABLE", "0")
    n = torch.cuda.device_count() if a.gpus == 0 else min(a.gpus, torch.cuda.device_count())
    ctx = mp.spawn(worker, args=(n, a, a.port, a.json), nprocs=n, join=False)
    try:
        while not ctx.join():  # returns when one more process ended; True when all have
            pass
    except (mp.ProcessExitedException, mp.ProcessRaisedException) as e:
        print(f"torch_collectives: a rank failed ({e})")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
