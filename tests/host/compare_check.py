#!/usr/bin/env python3
"""host tier: tools/compare.py and tools/merge_summaries.py on synthetic files, no GPU.

compare.py on results files: equal runs (no change, ratios ~1), B faster (exit 0, "faster"), B
slower (exit 1, "slower (regression)", also in --json), a noisy pair whose medians differ by 4%
but overlap (not significant), a "value" unit (changed, never a regression), /1 against /2,
params in another key order (still a match), repeated measurements (matched in order), flags
in one file only, measurements in one file only. On summary files: a regression (exit 1), an
improvement (exit 0), a key without a direction (changed, exit 0). Bad input: missing keys, a
results file against a summary file, an unknown schema, empty samples, NaN and null samples,
a file that is not JSON, a missing file, nothing in common, a bad option, and SciPy missing
(simulated): each exits 2 with exactly one line on stderr and no traceback.
merge_summaries.py: a good merge (validated, compared against its inputs), another GPU's file,
another commit, a key with two values, a bad input file.

Without SciPy the results-file cases cannot run: the rest runs, then the test exits 77 (CTest:
skipped) with a SKIPPED line.
"""
import copy
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, failures, finish  # noqa: E402  (tests/host/checks.py)

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARE = [sys.executable, os.path.join(root, "tools", "compare.py")]
MERGE = [sys.executable, os.path.join(root, "tools", "merge_summaries.py")]
VALIDATE = [sys.executable, os.path.join(root, "tools", "validate_results.py")]
try:
    import scipy.stats  # noqa: F401
    HAVE_SCIPY = True
except ImportError:
    HAVE_SCIPY = False


# ---- Fixtures ----------------------------------------------------------------------------------

META = {"library_version": "0.1.0", "date": "2026-12-01T00:00:00Z", "command_line": "test",
        "compile_flags": "-O3", "commit": "abc1234"}
DEVICE = {"name": "Test GPU", "compute_capability": "9.0", "uuid": "GPU-0000", "sm_count": 2}


def noisy(base, n, rel, seed):
    rng = random.Random(seed)
    return [base * (1.0 + rel * rng.gauss(0.0, 1.0)) for _ in range(n)]


def summary_of(samples):
    mean = statistics.fmean(samples)
    sd = statistics.stdev(samples) if len(samples) > 1 else 0.0
    return {"count": len(samples), "min": min(samples), "median": statistics.median(samples),
            "mean": mean, "max": max(samples), "stdev": sd, "rel_stdev": sd / mean if mean else None}


def bench(name, params, samples, unit="seconds", flags=()):
    median = statistics.median(samples) if samples else 1.0
    seconds = {"seconds": median, "nanoseconds": median * 1e-9, "cycles": median / 1e9}.get(unit)
    return {"name": name, "params": params, "work": {"accounting": "test: N bytes"}, "unit": unit,
            "samples": list(samples), "summary": summary_of(samples) if samples else {},
            "rates": {"seconds": seconds, "clock_mhz": 1000.0},
            "environment": {"before": {}, "after": {}},
            "flags": [{"code": c, "message": "test"} for c in flags]}


def results(benches, schema="cuprobe.results/2"):
    return {"schema": schema, "meta": META, "device": DEVICE, "benchmarks": benches, "extra": {}}


def as_v1(doc):
    d = copy.deepcopy(doc)
    d["schema"] = "cuprobe.results/1"
    for b in d["benchmarks"]:
        b["samples_s"] = b.pop("samples")
        del b["unit"]
    return d


def summary(metrics, uuid="GPU-0000", commit="abc1234", command="device_report --summary summary.json"):
    return {"schema": "cuprobe.summary/1", "device": dict(DEVICE, uuid=uuid), "commit": commit,
            "command": command, "date": "2026-12-01T00:00:00Z", "metrics": dict(metrics)}


def write(d, name, content):
    path = os.path.join(d, name)
    with open(path, "wb" if isinstance(content, bytes) else "w") as f:
        f.write(content if isinstance(content, (bytes, str)) else json.dumps(content))
    return path


# ---- Running and checking ----------------------------------------------------------------------

def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout, r.stderr



def expect_ok(what, cmd, rc):
    """Run cmd, wanting exit status rc, an empty stderr and no traceback; returns stdout."""
    code, out, err = run(cmd)
    check(what, code == rc and not err.strip() and "Traceback" not in out,
          f"exit {code} (wanted {rc}); stderr {err.strip()[:400]!r}; stdout tail {out[-600:]!r}")
    return out


def expect_bad(what, cmd, *wanted):
    """Bad input: exit 2, exactly one line on stderr (holding each of wanted), no traceback."""
    code, out, err = run(cmd)
    lines = err.splitlines()
    ok = (code == 2 and len(lines) == 1 and "Traceback" not in out + err
          and all(w in err for w in wanted))
    check(what, ok, f"exit {code}; stderr {err[:600]!r}; wanted one line holding {wanted!r}")
    return err


def rows_of(out):
    """The table's lines of a results comparison: measurement text -> the line."""
    return [line for line in out.splitlines() if line and line[0] in " 0123456789-"]


def last_line(out):
    lines = out.strip().splitlines()
    return lines[-1] if lines else ""


def line_with(out, text):
    hits = [line for line in out.splitlines() if text in line]
    return hits[0] if len(hits) == 1 else None


# ---- compare.py on results files ---------------------------------------------------------------

def check_results(d):
    n = 20
    base = {"dram.read": 1e-3, "dram.write": 2e-3, "latency.l2": 280.0}
    units = {"latency.l2": "cycles"}
    params = {"threads": 256, "bytes": 1 << 30, "load": "ld.global"}
    reordered = dict(reversed(list(params.items())))

    def run_of(scale, seed, rel=0.003, p=params, extra=()):
        return results([bench(k, p, noisy(v * scale, n, rel, seed + i), units.get(k, "seconds"))
                        for i, (k, v) in enumerate(base.items())] + list(extra))

    a = write(d, "a.json", run_of(1.0, 1))
    # Equal runs: the same distribution, another draw, params written in another key order.
    b_equal = write(d, "b_equal.json", run_of(1.0, 101, p=reordered))
    jpath = os.path.join(d, "equal.json")
    out = expect_ok("results: equal runs exit 0", COMPARE + [a, b_equal, "--json", jpath], 0)
    doc = json.load(open(jpath)) if os.path.isfile(jpath) else {}
    m = doc.get("matches", [])
    check("results: equal runs match all 3 (params in another order)", len(m) == 3, str(m)[:300])
    check("results: equal runs ratios ~1", all(abs(r["ratio"] - 1) < 0.01 for r in m), str(m)[:300])
    check("results: equal runs not significant", all(r["verdict"] == "no change" and not r["regression"]
                                                     for r in m), str([r["verdict"] for r in m]))
    check("results: equal runs interval holds the ratio",
          all(r["ci"] and r["ci"][0] <= r["ratio"] <= r["ci"][1] for r in m), str([r["ci"] for r in m]))
    check("results: equal runs verdict line", last_line(out).startswith("verdict: no regression"),
          out[-300:])
    check("results: equal runs json exit status", doc.get("exit_status") == 0 and doc.get("regressions") == 0)
    # A /1 file against a /2 file of the same measurements (seconds only: /1 has no unit).
    a1 = write(d, "a_v1.json", as_v1(results([bench("dram.read", params, noisy(1e-3, n, 0.003, 7))])))
    b2 = write(d, "b_v2.json", results([bench("dram.read", params, noisy(1e-3, n, 0.003, 8))]))
    out = expect_ok("results: /1 against /2 exit 0", COMPARE + [a1, b2], 0)
    check("results: /1 against /2 matched", "1 compared" in out and "no change" in out, out[-400:])
    # B faster: every time 20% lower.
    b_fast = write(d, "b_fast.json", run_of(0.8, 201))
    jpath = os.path.join(d, "fast.json")
    out = expect_ok("results: B faster exit 0", COMPARE + [a, b_fast, "--json", jpath], 0)
    m = json.load(open(jpath)).get("matches", []) if os.path.isfile(jpath) else []
    check("results: B faster marked faster", len(m) == 3 and all(r["verdict"] == "faster" for r in m),
          str([r.get("verdict") for r in m]))
    check("results: B faster ratio ~0.8, interval around it, p < 0.05",
          all(abs(r["ratio"] - 0.8) < 0.01 and r["ci"][0] < r["ratio"] < r["ci"][1] < 0.85 and r["p"] < 0.05
              for r in m), str(m)[:400])
    check("results: B faster table", len([x for x in rows_of(out) if " faster " in x]) == 3, out[-800:])
    # B slower: every time 25% higher; the latency only (cycles) 10%.
    b_slow = results([bench(k, params, noisy(v * (1.1 if k in units else 1.25), n, 0.003, 301 + i),
                            units.get(k, "seconds")) for i, (k, v) in enumerate(base.items())])
    b_slow_path = write(d, "b_slow.json", b_slow)
    jpath = os.path.join(d, "slow.json")
    out = expect_ok("results: B slower exit 1", COMPARE + [a, b_slow_path, "--json", jpath], 1)
    check("results: B slower marked", len([x for x in rows_of(out) if "slower (regression)" in x]) == 3,
          out[-800:])
    check("results: B slower verdict line",
          last_line(out).startswith("verdict: REGRESSION: 3 compared: 3 significantly slower"), last_line(out))
    doc = json.load(open(jpath)) if os.path.isfile(jpath) else {}
    lat = [r for r in doc.get("matches", []) if r["name"] == "latency.l2"]
    check("results: B slower json", doc.get("exit_status") == 1 and doc.get("regressions") == 3
          and lat and abs(lat[0]["ratio"] - 1.1) < 0.01 and lat[0]["unit"] == "cycles", str(doc)[:400])
    # The same two files the other way round: B faster.
    expect_ok("results: slower the other way round exit 0", COMPARE + [b_slow_path, a], 0)
    # Noisy: medians 4% apart, the sets overlapping: not significant.
    spread = [70.0, 80.0, 90.0, 100.0, 110.0, 120.0, 130.0, 95.0, 105.0, 85.0]
    na = write(d, "noisy_a.json", results([bench("chase", {"bytes": 4096}, spread, "cycles")]))
    nb = write(d, "noisy_b.json", results([bench("chase", {"bytes": 4096}, [x + 4 for x in spread], "cycles")]))
    jpath = os.path.join(d, "noisy.json")
    out = expect_ok("results: noisy exit 0", COMPARE + [na, nb, "--json", jpath], 0)
    m = json.load(open(jpath)).get("matches", []) if os.path.isfile(jpath) else []
    check("results: noisy not significant", len(m) == 1 and m[0]["ratio"] > 1.02 and m[0]["p"] > 0.05
          and m[0]["verdict"] == "not significant" and not m[0]["regression"], str(m)[:400])
    check("results: noisy interval spans 1", m and m[0]["ci"][0] < 1 < m[0]["ci"][1], str(m)[:400])
    # A "value" unit: changed, never a regression; few samples: marked.
    va = write(d, "value_a.json", results([bench("model.error", {}, noisy(10.0, n, 0.01, 5), "value"),
                                           bench("tiny", {}, [1.0, 1.1, 1.2], "cycles")]))
    vb = write(d, "value_b.json", results([bench("model.error", {}, noisy(20.0, n, 0.01, 6), "value"),
                                           bench("tiny", {}, [2.0, 2.1, 2.2], "cycles")]))
    out = expect_ok("results: value unit exit 0", COMPARE + [va, vb], 0)
    check("results: value unit changed", (line_with(out, "model.error") or "").find(" changed ") > 0, out[-600:])
    check("results: 3 against 3 samples cannot be significant",
          "not significant (few samples)" in (line_with(out, "tiny") or ""), out[-600:])
    # Flags in one file only; measurements in one file only; a measurement repeated (in order).
    fa = write(d, "flags_a.json", results([
        bench("dram.read", params, noisy(1e-3, n, 0.003, 11), flags=("noisy", "few_samples")),
        bench("rep", {"i": 1}, noisy(1e-3, n, 0.003, 12)), bench("rep", {"i": 1}, noisy(2e-3, n, 0.003, 13)),
        bench("only.a", {"x": 1}, noisy(1e-3, n, 0.003, 14))]))
    fb = write(d, "flags_b.json", results([
        bench("dram.read", params, noisy(1e-3, n, 0.003, 21), flags=("few_samples", "throttling")),
        bench("rep", {"i": 1}, noisy(1e-3, n, 0.003, 22)), bench("rep", {"i": 1}, noisy(2e-3, n, 0.003, 23)),
        bench("only.b", {"y": 2}, noisy(1e-3, n, 0.003, 24))]))
    jpath = os.path.join(d, "flags.json")
    out = expect_ok("results: flags exit 0", COMPARE + [fa, fb, "--json", jpath], 0)
    check("results: flags that differ on the line", "-noisy +throttling" in (line_with(out, "dram.read") or ""),
          out[-800:])
    doc = json.load(open(jpath)) if os.path.isfile(jpath) else {}
    dr = [r for r in doc.get("matches", []) if r["name"] == "dram.read"]
    check("results: flags that differ in json", dr and dr[0]["flags_only_in_a"] == ["noisy"]
          and dr[0]["flags_only_in_b"] == ["throttling"], str(dr)[:300])
    check("results: only in A listed", "only in A (" in out and line_with(out, 'only.a {"x":1}') is not None
          and [r["name"] for r in doc.get("only_in_a", [])] == ["only.a"], out[-800:])
    check("results: only in B listed", "only in B (" in out and line_with(out, 'only.b {"y":2}') is not None
          and [r["name"] for r in doc.get("only_in_b", [])] == ["only.b"], out[-800:])
    rep = sorted(r["ratio"] for r in doc.get("matches", []) if r["name"] == "rep")
    check("results: repeated measurements matched in order", len(rep) == 2 and all(abs(x - 1) < 0.01 for x in rep),
          str(rep))
    names = [r["name"] for r in doc.get("matches", [])]
    check("results: sorted by name", names == sorted(names), str(names))
    # Nothing in common.
    expect_bad("results: nothing in common", COMPARE + [na, va], "nothing to compare")


# ---- compare.py on summary files ---------------------------------------------------------------

REF = {"dram.read.tbps": 4.6, "latency.l1.cycles": 32.0, "clock.sm.effective_mhz": 1980.0,
       "fma.f32.fraction_of_peak": 0.98, "copy.h2d.latency_us": 2.0}


def check_summaries(d):
    a = write(d, "sa.json", summary(REF))
    worse = write(d, "s_worse.json", summary(dict(REF, **{"dram.read.tbps": 4.0, "latency.l1.cycles": 40.0})))
    better = write(d, "s_better.json", summary(dict(REF, **{"dram.read.tbps": 4.9, "latency.l1.cycles": 30.0,
                                                          "copy.h2d.latency_us": 1.5})))
    clock = write(d, "s_clock.json", summary(dict(REF, **{"clock.sm.effective_mhz": 1755.0, "new.key": 1.0})))
    jpath = os.path.join(d, "s.json")
    out = expect_ok("summary: regression exit 1", COMPARE + [a, worse, "--json", jpath], 1)
    check("summary: tbps lower is worse", "worse (regression)" in (line_with(out, "dram.read.tbps") or ""), out)
    check("summary: cycles higher is worse", "worse (regression)" in (line_with(out, "latency.l1.cycles") or ""), out)
    check("summary: no samples said", "no samples" in (line_with(out, "fma.f32.fraction_of_peak") or ""), out)
    check("summary: unchanged key", "no change" in (line_with(out, "fma.f32.fraction_of_peak") or ""), out)
    doc = json.load(open(jpath)) if os.path.isfile(jpath) else {}
    check("summary: json", doc.get("kind") == "summary" and doc.get("regressions") == 2
          and doc.get("exit_status") == 1 and len(doc.get("matches", [])) == 5, str(doc)[:400])
    out = expect_ok("summary: improvement exit 0", COMPARE + [a, better], 0)
    check("summary: improvement marked better", all("better" in (line_with(out, k) or "") for k in
                                                    ("dram.read.tbps", "latency.l1.cycles", "copy.h2d.latency_us")), out)
    out = expect_ok("summary: a clock change exit 0", COMPARE + [a, clock], 0)
    check("summary: clock without direction is changed", " changed" in (line_with(out, "clock.sm.effective_mhz") or ""),
          out)
    check("summary: key only in B listed", "only in B (" in out and line_with(out, "  new.key") is not None, out)
    # Within the threshold: a 4% drop passes with --threshold 0.05.
    small = write(d, "s_small.json", summary(dict(REF, **{"dram.read.tbps": 4.6 * 0.96})))
    expect_ok("summary: 4% drop with threshold 5% exit 0", COMPARE + [a, small, "--threshold", "0.05"], 0)
    expect_ok("summary: 4% drop with threshold 2% exit 1", COMPARE + [a, small], 1)
    # A summary against the checked-in H200 reference: itself, no change.
    ref = os.path.join(root, "docs", "results", "h200", "summary.json")
    if os.path.isfile(ref):
        out = expect_ok("summary: H200 reference against itself", COMPARE + [ref, ref], 0)
        check("summary: H200 reference no change", "0 worse, 0 better, 0 changed" in out, out[-300:])


# ---- compare.py on bad input -------------------------------------------------------------------

def check_bad(d):
    n = 10
    good = results([bench("dram.read", {"t": 1}, noisy(1e-3, n, 0.01, 1)),
                    bench("dram.write", {"t": 1}, noisy(1e-3, n, 0.01, 2))])
    g = write(d, "good.json", good)
    s = write(d, "good_summary.json", summary(REF))

    def bad(name, fn):
        doc = copy.deepcopy(good)
        fn(doc)
        return write(d, name, doc)

    no_rates = bad("no_rates.json", lambda x: x["benchmarks"][1].pop("rates"))
    expect_bad("bad: missing keys", COMPARE + [g, no_rates], no_rates, "rates is missing")
    no_bench = bad("no_benchmarks.json", lambda x: x.pop("benchmarks"))
    expect_bad("bad: missing benchmarks", COMPARE + [no_bench, g], no_bench, "benchmarks is missing")
    expect_bad("bad: results against summary", COMPARE + [g, s], "results file", "summary file")
    expect_bad("bad: summary against results", COMPARE + [s, g], "summary file", "results file")
    unknown = bad("unknown.json", lambda x: x.__setitem__("schema", "cuprobe.results/9"))
    expect_bad("bad: unknown schema", COMPARE + [g, unknown], unknown, "cuprobe.results/9")
    empty = bad("empty_samples.json", lambda x: x["benchmarks"][1].__setitem__("samples", []))
    expect_bad("bad: empty samples", COMPARE + [g, empty], empty, 'dram.write {"t":1}', "no samples")
    nan = bad("nan.json", lambda x: x["benchmarks"][0]["samples"].__setitem__(3, float("nan")))
    expect_bad("bad: NaN sample", COMPARE + [nan, g], nan, 'dram.read {"t":1}', "NaN")
    null = bad("null.json", lambda x: x["benchmarks"][1]["samples"].__setitem__(0, None))
    expect_bad("bad: null sample", COMPARE + [g, null], null, 'dram.write {"t":1}', "null")
    text = bad("text_sample.json", lambda x: x["benchmarks"][1]["samples"].__setitem__(0, "fast"))
    expect_bad("bad: text sample", COMPARE + [g, text], text, "dram.write")
    nan_elsewhere = bad("nan_summary.json", lambda x: x["benchmarks"][0]["summary"].__setitem__("mean", float("nan")))
    expect_bad("bad: NaN outside the samples", COMPARE + [g, nan_elsewhere], nan_elsewhere, "not valid JSON")
    not_json = write(d, "not_json.json", "{\"schema\": \"cuprobe.results/2\", ")
    expect_bad("bad: not JSON", COMPARE + [g, not_json], not_json, "not valid JSON")
    binary = write(d, "binary.json", b"\x89PNG\r\n\x1a\n\xff\xfe")
    expect_bad("bad: binary", COMPARE + [binary, g], binary)
    missing = os.path.join(d, "missing.json")
    expect_bad("bad: missing file", COMPARE + [g, missing], missing, "no such file")
    expect_bad("bad: a folder", COMPARE + [d, g], d, "directory")
    other = write(d, "other_summary.json", summary({"other.key": 1.0}))
    expect_bad("bad: summaries with nothing in common", COMPARE + [s, other], "nothing to compare")
    wrong_metric = write(d, "wrong_metric.json", summary({"dram.read.tbps": "fast"}))
    expect_bad("bad: summary metric not a number", COMPARE + [s, wrong_metric], wrong_metric)
    expect_bad("bad: one file only", COMPARE + [g], "usage")
    expect_bad("bad: negative threshold", COMPARE + [s, s, "--threshold", "-1"], "--threshold")
    expect_bad("bad: alpha out of range", COMPARE + [s, s, "--alpha", "1.5"], "--alpha")
    expect_bad("bad: --json into a missing folder", COMPARE + [s, s, "--json", os.path.join(d, "no", "x.json")],
               "cannot be written")
    # SciPy missing (hidden from the tool): one sentence saying how to install it, exit 2.
    hide = ("import runpy, sys; sys.modules['scipy'] = None; sys.argv = sys.argv[1:]; "
            "runpy.run_path(sys.argv[0], run_name='__main__')")
    expect_bad("bad: SciPy missing", [sys.executable, "-c", hide, COMPARE[1], g, g],
               "python3 -m pip install scipy")
    # ... while summaries need no SciPy.
    code, out, err = run([sys.executable, "-c", hide, COMPARE[1], s, s])
    check("summaries without SciPy", code == 0 and not err and "no change" in out, f"exit {code} {err!r}")


# ---- merge_summaries.py ------------------------------------------------------------------------

def check_merge(d):
    dev = write(d, "summary.json", summary({"clock.sm.effective_mhz": 1980.0, "dram.read.tbps": 4.6,
                                            "latency.l1.cycles": 32.0}))
    wg = write(d, "wgmma_summary.json", summary({"wgmma.bf16.tflops": 966.0, "wgmma.bf16.clock_mhz": 1755.0,
                                                 "dram.read.tbps": 4.6},
                                                command="wgmma --summary wgmma_summary.json"))
    gm = write(d, "gemm_summary.json", summary({"gemm.bf16.4096.kernel_clock_mhz": 1740.0,
                                                "gemm.bf16.4096.vs_cublas": 1.01},
                                               command="gemm --summary gemm_summary.json"))
    out_path = os.path.join(d, "merged.json")
    code, out, err = run(MERGE + [out_path, dev, wg, gm])
    check("merge: good merge exit 0", code == 0 and not err and "wrote" in out, f"exit {code} {err!r}")
    code, vout, _ = run(VALIDATE + [out_path])
    check("merge: the merged file is valid", code == 0 and vout.strip() == f"{out_path}: valid", vout)
    m = json.load(open(out_path)) if os.path.isfile(out_path) else {}
    check("merge: every metric", set(m.get("metrics", {})) == {
        "clock.sm.effective_mhz", "dram.read.tbps", "latency.l1.cycles", "wgmma.bf16.tflops",
        "wgmma.bf16.clock_mhz", "gemm.bf16.4096.kernel_clock_mhz", "gemm.bf16.4096.vs_cublas"}, str(m)[:400])
    check("merge: device, commit", m.get("device", {}).get("uuid") == "GPU-0000" and m.get("commit") == "abc1234")
    check("merge: sources", m.get("sources") == {"summary.json": "device_report --summary summary.json",
                                                 "wgmma_summary.json": "wgmma --summary wgmma_summary.json",
                                                 "gemm_summary.json": "gemm --summary gemm_summary.json"},
          str(m.get("sources")))
    check("merge: clocks seen", m.get("clocks") == {"clock.sm.effective_mhz": 1980.0, "wgmma.bf16.clock_mhz": 1755.0,
                                                    "gemm.bf16.4096.kernel_clock_mhz": 1740.0}, str(m.get("clocks")))
    # The merged file compares with its parts and with itself; merging it again changes nothing.
    out = expect_ok("merge: merged against device_report's summary", COMPARE + [dev, out_path], 0)
    check("merge: compare lists the added keys", "only in B (" in out and "wgmma.bf16.tflops" in out, out[-400:])
    again = os.path.join(d, "again.json")
    code, _, err = run(MERGE + [again, out_path, wg])
    a2 = json.load(open(again)) if code == 0 else {}
    check("merge: a merged file merges again", code == 0 and a2.get("metrics") == m.get("metrics")
          and a2.get("sources") == m.get("sources") and a2.get("clocks") == m.get("clocks"), f"{code} {err!r}")
    # The output may be one of the inputs.
    inplace = write(d, "inplace.json", json.load(open(dev)))
    code, _, err = run(MERGE + [inplace, inplace, gm])
    check("merge: OUT among the inputs", code == 0 and "gemm.bf16.4096.vs_cublas" in json.load(open(inplace))["metrics"],
          f"{code} {err!r}")
    # Refusals: exit 2, one line, nothing written.
    refused = os.path.join(d, "refused.json")
    other_gpu = write(d, "other_gpu.json", summary({"x.tbps": 1.0}, uuid="GPU-9999"))
    expect_bad("merge: another GPU", MERGE + [refused, dev, other_gpu], dev, other_gpu, "GPU-9999")
    other_commit = write(d, "other_commit.json", summary({"x.tbps": 1.0}, commit="def5678"))
    expect_bad("merge: another commit", MERGE + [refused, dev, other_commit], other_commit, "def5678")
    clash = write(d, "clash.json", summary({"dram.read.tbps": 4.2}, command="dram --summary clash.json"))
    expect_bad("merge: a key with two values", MERGE + [refused, dev, clash], dev, clash, "dram.read.tbps")
    broken = write(d, "broken.json", "{")
    expect_bad("merge: not JSON", MERGE + [refused, dev, broken], broken)
    expect_bad("merge: a results file", MERGE + [refused, dev, write(d, "r.json", results([]))], "r.json")
    expect_bad("merge: no inputs", MERGE + [refused], "usage")
    check("merge: nothing written when refused", not os.path.exists(refused))
    # The validator types the optional fields (and still accepts files without them).
    bad_sources = write(d, "bad_sources.json", dict(summary(REF), sources={"a.json": 5}))
    code, vout, _ = run(VALIDATE + [bad_sources, dev])
    check("validate: sources must be commands", code == 1 and "$.sources.a.json" in vout
          and f"{dev}: valid" in vout, vout)


with tempfile.TemporaryDirectory() as tmp:
    parts = [("summaries", check_summaries), ("bad", check_bad), ("merge", check_merge)]
    if HAVE_SCIPY:
        parts.insert(0, ("results", check_results))
    for name, fn in parts:
        os.makedirs(os.path.join(tmp, name))
        fn(os.path.join(tmp, name))

if not HAVE_SCIPY:
    for f in failures:
        print("FAILED:", f)
    if failures:
        sys.exit(1)
    print("SKIPPED: SciPy is not installed (python3 -m pip install scipy); compare.py on results "
          "files was not exercised")
    sys.exit(77)
finish("compare_check", "compare.py and merge_summaries.py behaved on every case")
