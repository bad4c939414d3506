#!/usr/bin/env python3
"""host tier: the installed tools/compare.py (PREFIX/share/cuprobe) runs from the package alone:
it finds its modules (validate_results.py, card_ceilings.py, gpu_model.py) and the installed
reference sets (share/cuprobe/results/<model>/summary.json). The installed H200 set against a
copy relabelled as an H100 with the H100's nominal DRAM figure: exit 0, compared across models,
the H200's set found among the installed ones, and DRAM read "as the models predict".

  installed_compare_check.py PREFIX
"""
import json
import os
import subprocess
import sys
import tempfile

share = os.path.join(sys.argv[1], "share", "cuprobe")
a = os.path.join(share, "results", "h200", "summary.json")
problems = []
with tempfile.TemporaryDirectory() as d:
    doc = json.load(open(a))
    doc["device"]["name"] = "NVIDIA H100 80GB HBM3"
    doc["device"]["uuid"] = "GPU-00000000-0000-0000-0000-000000000000"
    doc["device"]["nominal_dram_gb_per_s"] = doc["device"]["nominal_dram_gb_per_s"] * 3352.32 / 4814.304
    doc["metrics"]["dram.read.tbps"] *= 3352.32 / 4814.304
    b = os.path.join(d, "h100.json")
    json.dump(doc, open(b, "w"))
    env = dict(os.environ, CUPROBE_CEILINGS_DIR=d)
    env.pop("CUPROBE_REFERENCE_DIR", None)
    p = subprocess.run([sys.executable, os.path.join(share, "compare.py"), a, b], cwd=d, env=env,
                       capture_output=True, text=True)
    out = p.stdout + p.stderr
    if p.returncode != 0:
        problems.append(f"exit {p.returncode}")
    for want in ("different GPU models", os.path.join("results", "h200", "summary.json")):
        if want not in out:
            problems.append(f"no '{want}'")
    line = next((l for l in out.splitlines() if l.startswith("dram.read.tbps")), "")
    if "as the models predict" not in line:
        problems.append(f"dram.read.tbps: {line!r}")
    if "Traceback" in out:
        problems.append("a traceback")
if problems:
    print("installed_compare_check: " + "; ".join(problems) + "\n" + out[-3000:])
    sys.exit(1)
print("installed_compare_check: the installed compare.py compared an H200 set with an H100 across models")
