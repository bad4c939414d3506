#!/usr/bin/env python3
"""host tier: cuprobe.results/3 (docs/results-schema.md) in tools/validate_results.py, no GPU.

Valid: a /3 file whose benchmarks carry counters (values and a limiting unit; values and none
limiting; none collected, with the reason in "missing"), one whose counters are all null, and the
same benchmarks without "counters" as a /2 file. Each rule of /3 broken once: "counters" absent,
options.counters absent and not a string, counters not an object, a field of counters missing
or of the wrong type (passes < 0, per_range 0, a value that is text, a value without its unit,
limiting_unit absent), a metric named twice, "missing" said beside values, "missing" empty
without values, and a limiting unit whose metric was not counted. Every bad file must get exactly
one line from the validator, naming the file, exit status 1 and no traceback, and check_doc must
find exactly one problem, which names the field. compare.py must compare a /2 file with a /3
file, and plot.py draw from a /3 file (skipped, exit 77, without SciPy or matplotlib).
"""
import copy
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(root, "tools")
VALIDATE = [sys.executable, os.path.join(TOOLS, "validate_results.py")]
sys.path.insert(0, TOOLS)
import validate_results as schema  # noqa: E402

failures, skipped = [], []

# ---- Fixtures ----------------------------------------------------------------------------------

META = {k: "x" for k in ("library_version", "date", "command_line", "compile_flags", "commit")}
DEVICE = {"name": "Test GPU", "compute_capability": "9.0", "uuid": "GPU-0", "sm_count": 2}
SOL = [("dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM", 91.5),
       ("lts__t_sectors.avg.pct_of_peak_sustained_elapsed", "L2 slices", 40.0)]


def value(metric, label, v, unit):
    return {"metric": metric, "label": label, "value": v, "unit": unit}


COUNTED = {"spec": "dram,sol", "chip": "GH100", "passes": 2, "range": "kernel", "ranges": 3,
           "per_range": 8.0, "missing": "",
           "values": [value("dram__bytes_read.sum", "DRAM read", 1.0e9, "byte"),
                      value("dram__bytes_write.sum", "DRAM written", 0.0, "byte")]
           + [value(m, label, v, "percent") for m, label, v in SOL],
           "limiting_unit": {"unit": "DRAM", "percent": 91.5, "metric": SOL[0][0]}}
NO_SOL = dict(COUNTED, spec="dram", values=copy.deepcopy(COUNTED["values"][:2]), limiting_unit=None)
NOT_COLLECTED = {"spec": "dram", "chip": "", "passes": 0, "range": None, "ranges": 0,
                 "per_range": 1, "values": [],
                 "missing": "the driver lets only administrators read counters (ERR_NVGPUCTRPERM)",
                 "limiting_unit": None}


def bench(name, samples, counters, spec):
    s = sorted(samples)
    mean = sum(s) / len(s)
    return {"name": name, "params": {"bytes": 1 << 20}, "work": {"accounting": "read: N bytes"},
            "options": {"warmup": 1, "counters": spec}, "unit": "seconds", "samples": samples,
            "summary": {"count": len(s), "min": s[0], "median": s[len(s) // 2], "mean": mean,
                        "max": s[-1], "stdev": 0.0, "rel_stdev": 0.0},
            "rates": {"seconds": s[len(s) // 2], "gb_per_s": 1.0}, "counters": counters,
            "environment": {"before": {}, "after": {}}, "flags": []}


def results(benches, name="cuprobe.results/3"):
    return {"schema": name, "meta": META, "device": DEVICE, "benchmarks": benches, "extra": {}}


V3 = results([bench("dram.read", [1e-3, 1e-3, 1e-3], COUNTED, "dram,sol"),
              bench("dram.write", [2e-3, 2e-3, 2e-3], NO_SOL, "dram"),
              bench("dram.copy", [3e-3, 3e-3, 3e-3], NOT_COLLECTED, "")])
V3_NULL = results([bench(f"dram.read{i}", [1e-3 * i] * 3, None, "") for i in (1, 2)])
V2 = results([{k: v for k, v in b.items() if k != "counters"} for b in V3["benchmarks"]],
             "cuprobe.results/2")


def counters(i):
    return lambda d: d["benchmarks"][i]["counters"]


# name -> (how the valid /3 file is broken, a text the one problem must hold)
BAD = {
    "no_counters_key": (lambda d: d["benchmarks"][2].pop("counters"),
                        "$.benchmarks[2].counters is missing (it may be null"),
    "no_options_counters": (lambda d: d["benchmarks"][1]["options"].pop("counters"),
                            "$.benchmarks[1].options.counters is missing"),
    "options_counters_null": (lambda d: d["benchmarks"][0]["options"].update(counters=None),
                              "$.benchmarks[0].options.counters is null"),
    "options_counters_list": (lambda d: d["benchmarks"][0]["options"].update(counters=["dram"]),
                              "$.benchmarks[0].options.counters is a list, expected a string"),
    "counters_list": (lambda d: d["benchmarks"][0].update(counters=[]),
                      "$.benchmarks[0].counters is a list, expected an object"),
    "no_chip": (lambda d: counters(0)(d).pop("chip"), "$.benchmarks[0].counters.chip is missing"),
    "passes_negative": (lambda d: counters(0)(d).update(passes=-1),
                        "counters.passes is the number -1, expected a non-negative integer"),
    "passes_fraction": (lambda d: counters(1)(d).update(passes=1.5),
                        "counters.passes is the number 1.5, expected a non-negative integer"),
    "per_range_zero": (lambda d: counters(0)(d).update(per_range=0),
                       "counters.per_range is the number 0, expected a positive number"),
    "value_text": (lambda d: counters(0)(d)["values"][1].update(value="n/a"),
                   "counters.values[1].value is the string 'n/a', expected a finite number"),
    "value_without_unit": (lambda d: counters(1)(d)["values"][0].pop("unit"),
                           "$.benchmarks[1].counters.values[0].unit is missing"),
    "no_limiting_unit_key": (lambda d: counters(1)(d).pop("limiting_unit"),
                             "$.benchmarks[1].counters.limiting_unit is missing (it may be null"),
    "limiting_unit_no_percent": (lambda d: counters(0)(d)["limiting_unit"].pop("percent"),
                                 "$.benchmarks[0].counters.limiting_unit.percent is missing"),
    "metric_twice": (lambda d: counters(0)(d)["values"].append(dict(counters(0)(d)["values"][0])),
                     "$.benchmarks[0].counters.values names 'dram__bytes_read.sum' 2 times"),
    "missing_beside_values": (lambda d: counters(1)(d).update(missing="CUPTI is not loaded"),
                              "$.benchmarks[1].counters.missing is the string 'CUPTI is not "
                              "loaded' but $.benchmarks[1].counters.values holds 2 values"),
    "missing_empty_without_values": (lambda d: counters(2)(d).update(missing=""),
                                     "$.benchmarks[2].counters.values is empty but "
                                     "$.benchmarks[2].counters.missing is ''"),
    "limiting_metric_not_counted": (lambda d: counters(0)(d)["limiting_unit"].update(
        metric="l1tex__throughput.avg.pct_of_peak_sustained_elapsed"),
        "$.benchmarks[0].counters.limiting_unit.metric is "
        "'l1tex__throughput.avg.pct_of_peak_sustained_elapsed', not among the metrics"),
    "limiting_without_values": (lambda d: d["benchmarks"][2]["counters"].update(
        limiting_unit=COUNTED["limiting_unit"]), "not among the metrics of $.benchmarks[2]"),
}


def mutate(doc, fn):
    d = copy.deepcopy(doc)
    fn(d)
    return d


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return r.returncode, (r.stdout + r.stderr).splitlines()


# ---- Checks ------------------------------------------------------------------------------------

def check_validator(d):
    good = {n: write(os.path.join(d, n + ".json"), doc)
            for n, doc in (("v3_counters", V3), ("v3_counters_null", V3_NULL), ("v2", V2))}
    code, lines = run(VALIDATE + list(good.values()))
    if code != 0 or lines != [f"{p}: valid" for p in good.values()]:
        failures.append(f"valid files: exit {code}\n    " + "\n    ".join(lines))
    # The /2 file's benchmarks lack "counters": under /3 that is one problem per benchmark.
    as_v3 = write(os.path.join(d, "v2_as_v3.json"), dict(V2, schema="cuprobe.results/3"))
    code, lines = run(VALIDATE + [as_v3])
    if code != 1 or len(lines) != 1 or "3 problems" not in lines[0]:
        failures.append(f"/2 benchmarks named /3: exit {code}\n    " + "\n    ".join(lines))
    bad = {n: write(os.path.join(d, n + ".json"), mutate(V3, fn)) for n, (fn, _) in BAD.items()}
    code, lines = run(VALIDATE + list(bad.values()))
    text = "\n".join(lines)
    if code != 1 or "Traceback" in text:
        failures.append(f"bad files: exit {code} (expected 1)" + (", a traceback" * ("Traceback" in text)))
    for name, path in bad.items():
        mine = [line for line in lines if line.startswith(path + ":")]
        want = BAD[name][1]
        if len(mine) != 1 or want not in mine[0]:
            failures.append(f"{name}: wanted one line holding {want!r}, got {mine}")
        problems = schema.check_doc(mutate(V3, BAD[name][0]))
        if len(problems) != 1:
            failures.append(f"{name}: {len(problems)} problems, expected 1: {problems}")


def check_readers(d):
    v2, v3 = write(os.path.join(d, "a.json"), V2), write(os.path.join(d, "b.json"), V3)
    if importlib.util.find_spec("scipy") is None:
        skipped.append("compare.py on a /2 and a /3 file (SciPy)")
    else:
        code, lines = run([sys.executable, os.path.join(TOOLS, "compare.py"), v2, v3])
        if code != 0 or "Traceback" in "\n".join(lines):
            failures.append(f"compare.py /2 against /3: exit {code}\n    " + "\n    ".join(lines))
    if importlib.util.find_spec("matplotlib") is None:
        skipped.append("plot.py on a /3 file (matplotlib)")
    else:
        out = os.path.join(d, "bar.png")
        code, lines = run([sys.executable, os.path.join(TOOLS, "plot.py"), "bar", v3, "--label",
                           "name", "--value", "rates.gb_per_s", "-o", out])
        if code != 0 or not os.path.isfile(out):
            failures.append(f"plot.py on /3: exit {code}\n    " + "\n    ".join(lines))


with tempfile.TemporaryDirectory() as tmp:
    check_validator(tmp)
    check_readers(tmp)

for f in failures:
    print("FAILED:", f)
print(f"results_schema_check: {len(BAD)} broken /3 files, {len(failures)} failures")
if failures:
    sys.exit(1)
if skipped:
    print("SKIPPED: not exercised: " + ", ".join(skipped))
    sys.exit(77)
print("results_schema_check: /3 files validate, and each broken rule gives one line")
