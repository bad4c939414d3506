#!/usr/bin/env python3
"""host tier: tools/plot.py draws each kind of plot from a results file; the validator agrees.

Exits 77 (CTest: skipped) when matplotlib is missing, saying so.
"""
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
try:
    import matplotlib  # noqa: F401
except ImportError:
    print("SKIPPED: matplotlib is not installed; tools/plot.py was not exercised")
    sys.exit(77)


def bench(name, params, gbps):
    return {"name": name, "params": params, "work": {"accounting": "read: N bytes"},
            "samples_s": [1e-3, 1.1e-3], "summary": {"count": 2, "min": 1e-3, "median": 1.05e-3,
            "mean": 1.05e-3, "max": 1.1e-3, "stdev": 7e-5, "rel_stdev": 0.07},
            "rates": {"gb_per_s": gbps}, "environment": {"before": {}, "after": {}}, "flags": []}


doc = {"schema": "cuprobe.results/1",
       "meta": {k: "x" for k in ("library_version", "date", "command_line", "compile_flags", "commit")},
       "device": {"name": "Test GPU", "compute_capability": "9.0", "uuid": "GPU-0", "sm_count": 2},
       "benchmarks": [bench("dram.read", {"blocks_per_sm": b, "threads": t, "bytes": b * t * 1024},
                            100.0 * b + t) for b in (1, 2, 4) for t in (128, 256)],
       "extra": {}}
# examples/wgmma's throughput points (params of cuprobe_suite/wgmma.cuh), for the wgmma kind;
# tf32 has no fraction of peak here (null: a gap in the lower row, not a refusal).
wgmma_doc = dict(doc, benchmarks=[
    bench(f"wgmma.throughput.{t}.m64n{n}k16.{f.lower()}",
          {"type": t, "n": n, "form": f, "section": "sizes", "tflops": 2.0 * n + (f == "SS"),
           "fraction_of_peak": None if t == "tf32" else n / 300.0}, 1.0)
    for t in ("bf16", "tf32") for n in (64, 128, 256) for f in ("SS", "RS")]
    + [bench("wgmma.throughput.bf16.m64n256k32.ss.sp", {"type": "bf16", "n": 256, "form": "SS",
             "section": "sparse", "tflops": 900.0, "fraction_of_peak": 0.45}, 1.0)])
with tempfile.TemporaryDirectory() as d:
    wpath = os.path.join(d, "wgmma.json")
    with open(wpath, "w") as f:
        json.dump(wgmma_doc, f)
    path = os.path.join(d, "r.json")
    with open(path, "w") as f:
        json.dump(doc, f)
    plot = [sys.executable, os.path.join(root, "tools", "plot.py")]
    subprocess.run([sys.executable, os.path.join(root, "tools", "validate_results.py"), path], check=True)
    runs = {
        "line.png": ["line", path, "--x", "bytes", "--y", "rates.gb_per_s", "--series", "threads", "--logx"],
        "heat.png": ["heatmap", path, "--x", "threads", "--y", "blocks_per_sm", "--value", "rates.gb_per_s"],
        "facets.png": ["heatmap", path, "--x", "threads", "--y", "blocks_per_sm", "--value", "rates.gb_per_s",
                       "--facet", "threads"],
        "bar.png": ["bar", path, "--label", "threads", "--value", "rates.gb_per_s", "--where", "params.blocks_per_sm=2"],
        "wgmma.png": ["wgmma", wpath, "--where", "params.section=sizes"],
        "wgmma_sparse.png": ["wgmma", wpath, "--where", "params.section=sparse", "--ylabel", "TFLOP/s"],
    }
    for out, args in runs.items():
        target = os.path.join(d, out)
        subprocess.run(plot + args + ["-o", target], check=True)
        with open(target, "rb") as f:
            head = f.read(8)
        assert head == b"\x89PNG\r\n\x1a\n", f"{out} is not a PNG"
        assert os.path.getsize(target) > 2000, f"{out} is suspiciously small"
    # A selection that matches nothing is an error, not an empty plot.
    r = subprocess.run(plot + ["bar", path, "--value", "rates.gb_per_s", "--where", "name=none", "-o",
                               os.path.join(d, "none.png")], capture_output=True)
    assert r.returncode != 0
    # The wgmma kind on a file without wgmma points: nothing selected, refused.
    r = subprocess.run(plot + ["wgmma", path, "-o", os.path.join(d, "nowgmma.png")], capture_output=True)
    assert r.returncode != 0 and b"no benchmark matches" in r.stderr, r.stderr
    # The roofline: a FLOP+bytes benchmark on the roofs of a ceilings record, a placed one
    # beside them; without any ceilings the plot is refused with one line.
    roof = dict(doc, schema="cuprobe.results/2", benchmarks=[])
    for b in doc["benchmarks"][:2]:
        b2 = {k: v for k, v in b.items() if k not in ("samples_s",)}
        b2.update(unit="seconds", samples=[1e-3, 1.1e-3])
        b2["rates"] = dict(b2["rates"], seconds=1.05e-3)
        roof["benchmarks"].append(b2)
    roof["benchmarks"][0]["work"] = {"accounting": "fma", "flops": 4e9, "bytes_read": 1e9}
    roof["benchmarks"][0]["rates"] = {"tflop_per_s": 40.0, "gb_per_s": 10000.0, "seconds": 1.05e-3}
    roof["benchmarks"][1]["ceiling"] = {"key": "dram.read.tbps", "what": "DRAM read",
                                        "rate_per_s": 4.4e12, "ceiling_per_s": 4.6e12,
                                        "fraction": 0.957, "source": "card", "source_text": "x",
                                        "stale": ""}
    rpath = os.path.join(d, "roof.json")
    with open(rpath, "w") as f:
        json.dump(roof, f)
    subprocess.run([sys.executable, os.path.join(root, "tools", "validate_results.py"), rpath],
                   check=True)
    record = {"schema": "cuprobe.ceilings/1", "device": {"name": "Test GPU", "uuid": "GPU-0",
              "driver_version": "1", "sm_clock_max_mhz": 1980, "memory_clock_mhz": 3201},
              "date": "2026-12-04T00:00:00Z", "commit": "x", "clocks": {"clock.sm.effective_mhz": 1980},
              "metrics": {"dram.read.tbps": 4.6, "l2.read.tbps": 11.0, "fma.f32.tflops": 66.0,
                          "fma.f32.fraction_of_peak": 0.985, "tensor.bf16.tflops": 970.0,
                          "tensor.bf16.fraction_of_peak": 0.999}}
    cpath = os.path.join(d, "record.json")
    with open(cpath, "w") as f:
        json.dump(record, f)
    target = os.path.join(d, "roofline.png")
    r = subprocess.run(plot + ["roofline", rpath, "--ceilings", cpath, "-o", target],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert "1 on the roofline, 1 placed against a ceiling; 6 roofs" in r.stdout, r.stdout
    with open(target, "rb") as f:
        assert f.read(8) == b"\x89PNG\r\n\x1a\n", "roofline.png is not a PNG"
    env = dict(os.environ, CUPROBE_CEILINGS_DIR=os.path.join(d, "none"),
               CUPROBE_REFERENCE_DIR=os.path.join(d, "none"))
    r = subprocess.run(plot + ["roofline", rpath, "-o", os.path.join(d, "r2.png")],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 1 and "no ceilings for this card" in r.stderr, r.stderr
    assert "Traceback" not in r.stderr
print("plot.py: line, heatmap, bar, wgmma and roofline plots written and checked")
