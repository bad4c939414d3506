#!/usr/bin/env python3
"""host tier: tools/compare.py on summaries of different GPU models (tools/card_ceilings.py), no GPU.

Synthetic summaries: the same model (the old verdicts, "worse (regression)", exit 1, no fractions),
two models whose DRAM read follows their nominal figures ("as the models predict (x0.696)",
exit 0, never better or worse), a misaligned-load fraction 0.97 against 0.69 ("differs from the
models" with both fractions), measured ceilings on both sides (each model's reference set, in a
CUPROBE_REFERENCE_DIR of the test's own) and on one side only (both fall back to nominal), a
ceilings record found by UUID in CUPROBE_CEILINGS_DIR, a record compared as such, a model
without ceilings ("not comparable across models" with the reason; exit 2 with one sentence
when no metric is left), a summary without a device block and one with an unknown schema (exit 2,
one sentence naming the file), --json across models, and the committed H200 summary against an
H100-like one. Results files of two models: each measurement as the fraction of its own card's
ceiling recorded in it (agreeing, differing, one without a fraction, nothing comparable: exit 2).
Every run is checked for its exit status and for no traceback.
"""
import copy
import gzip
import json
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checks import check, failures, finish  # noqa: E402  (tests/host/checks.py)

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
COMPARE = [sys.executable, os.path.join(root, "tools", "compare.py")]
H200_SET = os.path.join(root, "docs", "results", "h200", "summary.json")


H200 = {"name": "NVIDIA H200", "compute_capability": "9.0", "uuid": "GPU-h200-a", "sm_count": 132,
        "l2_bytes": 62914560, "memory_bus_width_bits": 6016, "memory_clock_mhz": 3201,
        "sm_clock_max_mhz": 1980, "nominal_dram_gb_per_s": 4814.304}
H100 = {"name": "NVIDIA H100 80GB HBM3", "compute_capability": "9.0", "uuid": "GPU-h100-b",
        "sm_count": 132, "l2_bytes": 52428800, "memory_bus_width_bits": 5120,
        "memory_clock_mhz": 2619, "sm_clock_max_mhz": 1980, "nominal_dram_gb_per_s": 3352.32}
BARE = {"name": "NVIDIA Test X", "compute_capability": "9.0", "uuid": "GPU-x", "sm_count": 8}
M200 = {"dram.read.tbps": 4.6456, "access.misaligned4.fraction": 0.97, "latency.l2.cycles": 276.6,
        "l2.read.tbps": 11.12, "fma.f32.fraction_of_peak": 0.986}


def summary(device, metrics, commit="abc1234", date="2026-12-01T00:00:00Z"):
    return {"schema": "cuprobe.summary/1", "device": dict(device), "commit": commit,
            "command": "device_report --summary summary.json", "date": date, "metrics": dict(metrics)}


def write(d, name, doc):
    path = os.path.join(d, name)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(doc if isinstance(doc, str) else json.dumps(doc))
    return path


def run(cmd, env):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env=env)
    return r.returncode, r.stdout, r.stderr



def expect(what, cmd, rc, env):
    code, out, err = run(cmd, env)
    check(what, code == rc and "Traceback" not in out + err and (rc == 2 or not err.strip()),
          f"exit {code} (wanted {rc}); stderr {err.strip()[:400]!r}; stdout tail {out[-600:]!r}")
    return out, err


def line_with(out, text):
    hits = [line for line in out.splitlines() if line.startswith(text + " ") or line.startswith("  " + text + ":")]
    return hits[0] if len(hits) == 1 else ""


def main(d):
    refs, records = os.path.join(d, "refs"), os.path.join(d, "records")
    os.makedirs(refs)
    os.makedirs(records)
    env = dict(os.environ, CUPROBE_REFERENCE_DIR=refs, CUPROBE_CEILINGS_DIR=records)
    a = write(d, "h200.json", summary(H200, M200))

    # The same model: the old behaviour, regressions and all, no fractions.
    same = write(d, "h200_other.json", summary(dict(H200, uuid="GPU-h200-c"), dict(M200, **{"dram.read.tbps": 4.0})))
    out, _ = expect("same model: exit 1", COMPARE + [a, same], 1, env)
    check("same model: worse (regression)", "worse (regression)" in line_with(out, "dram.read.tbps"), out)
    check("same model: no fractions", "across models" not in out and "of ceiling" not in out, out[-600:])
    check("same model: verdict line", out.strip().splitlines()[-1].startswith("verdict: REGRESSION"), out[-300:])

    # Two models that follow their nominal figures; one ratio that does not.
    h100 = dict(M200, **{"dram.read.tbps": 4.6456 * 0.697, "access.misaligned4.fraction": 0.69,
                         "l2.read.tbps": 8.0, "latency.l2.cycles": 260.0})
    b = write(d, "h100.json", summary(H100, h100))
    jpath = os.path.join(d, "models.json")
    out, _ = expect("two models: exit 0", COMPARE + [a, b, "--json", jpath], 0, env)
    row = line_with(out, "dram.read.tbps")
    check("two models: DRAM as the models predict", "as the models predict (x0.696)" in row, out)
    check("two models: each side's ceiling named", "nominal 4.814 TB/s" in row and "nominal 3.352 TB/s" in row, row)
    check("two models: ceilings used", "A: nominal DRAM 4.814 TB/s (device.nominal_dram_gb_per_s)" in out
          and "B: nominal DRAM 3.352 TB/s (device.nominal_dram_gb_per_s)" in out, out)
    check("two models: misaligned load differs", "differs from the models (0.97 vs 0.69 of ceiling)"
          in line_with(out, "access.misaligned4.fraction"), out)
    check("two models: fraction of peak predicted equal", "as the models predict (x1.000)"
          in line_with(out, "fma.f32.fraction_of_peak"), out)
    check("two models: never better or worse", not any(w in out for w in ("regression", "better", "worse")), out)
    check("two models: latency not comparable", "a latency or time: no model ceiling"
          in line_with(out, "latency.l2.cycles"), out)
    check("two models: L2 without a ceiling", "the L2 has no nominal figure" in line_with(out, "l2.read.tbps"), out)
    check("two models: verdict line", out.strip().splitlines()[-1].startswith(
        "verdict: across models: 3 compared: 2 as the models predict, 1 differ from the models; "
        "2 not comparable across models"), out[-400:])
    doc = json.load(open(jpath)) if os.path.isfile(jpath) else {}
    m = {r["name"]: r for r in doc.get("matches", [])}
    check("two models: json", doc.get("across_models") is True and doc.get("exit_status") == 0
          and abs(m.get("dram.read.tbps", {}).get("predicted", 0) - 3352.32 / 4814.304) < 1e-9
          and m.get("access.misaligned4.fraction", {}).get("agree") is False
          and {r["name"] for r in doc.get("not_comparable", [])} == {"latency.l2.cycles", "l2.read.tbps"},
          str(doc)[:600])

    # Measured ceilings on both sides: each model's reference set (another run of that model).
    write(refs, "h200/summary.json", summary(dict(H200, uuid="GPU-h200-ref"), {"dram.read.tbps": 4.70, "l2.read.tbps": 11.0},
                                             commit="ref"))
    write(refs, "h100-80gb-hbm3/summary.json", summary(dict(H100, uuid="GPU-h100-ref"),
                                                       {"dram.read.tbps": 3.25, "l2.read.tbps": 7.9}, commit="ref"))
    out, _ = expect("reference sets: exit 0", COMPARE + [a, b], 0, env)
    row = line_with(out, "dram.read.tbps")
    check("reference sets: measured on both sides", row.count("reference ") == 2
          and "as the models predict (x0.691)" in row, row)
    check("reference sets: the L2 has a ceiling now", "as the models predict" in line_with(out, "l2.read.tbps"), out)
    # A reference set compared as itself is never its own ceiling: nominal on both sides.
    out, _ = expect("reference set as A: exit 0", COMPARE + [os.path.join(refs, "h200", "summary.json"), b], 0, env)
    check("reference set as A: nominal on both sides", "nominal 4.814 TB/s" in line_with(out, "dram.read.tbps")
          and "is this file itself" in out, out)
    # One side with a record (by UUID), the other with nothing measured: nominal on both.
    os.remove(os.path.join(refs, "h200", "summary.json"))
    rec = {"schema": "cuprobe.ceilings/1", "device": {"name": H100["name"], "uuid": H100["uuid"],
                                                      "driver_version": "580", "sm_clock_max_mhz": 1980,
                                                      "memory_clock_mhz": 2619},
           "date": "2026-12-02T00:00:00Z", "commit": "rec", "clocks": {}, "metrics": {"dram.read.tbps": 3.2}}
    write(records, H100["uuid"] + ".json", rec)
    out, _ = expect("record on one side: exit 0", COMPARE + [a, b], 0, env)
    check("record on one side: its record is found", f"its record {os.path.join(records, H100['uuid'] + '.json')}" in out, out)
    check("record on one side: nominal on both", line_with(out, "dram.read.tbps").count("nominal ") == 2, out)
    # A record itself against another model's summary: its short device block takes the DRAM
    # figure from its model's reference set; without one, DRAM has no ceiling on that side.
    r = write(d, "record.json", dict(rec, metrics={"dram.read.tbps": 3.2, "fma.f32.fraction_of_peak": 0.97}))
    out, _ = expect("record compared: exit 0", COMPARE + [a, r], 0, env)
    check("record compared: fraction of peak compared", "as the models predict (x1.000)"
          in line_with(out, "fma.f32.fraction_of_peak"), out)
    check("record compared: DRAM from the reference set's device block", "nominal 3.352 TB/s"
          in line_with(out, "dram.read.tbps"), out)
    os.remove(os.path.join(records, H100["uuid"] + ".json"))
    os.remove(os.path.join(refs, "h100-80gb-hbm3", "summary.json"))
    out, _ = expect("record compared without a set: exit 0", COMPARE + [a, r], 0, env)
    check("record compared without a set: DRAM not comparable", "not comparable across models: 1" in out
          and "no nominal DRAM figure" in line_with(out, "dram.read.tbps"), out)

    # A model without ceilings: listed with the reason; exit 2 when nothing is left.
    x = write(d, "x.json", summary(BARE, {"dram.read.tbps": 1.0, "latency.l2.cycles": 300.0,
                                          "access.misaligned4.fraction": 0.96}))
    out, _ = expect("model without ceilings: exit 0", COMPARE + [a, x], 0, env)
    check("model without ceilings: DRAM not comparable", "no ceiling on NVIDIA Test X" in line_with(out, "dram.read.tbps")
          and "no nominal DRAM figure" in line_with(out, "dram.read.tbps"), out)
    check("model without ceilings: the ratio still compared", "as the models predict (x1.000)"
          in line_with(out, "access.misaligned4.fraction"), out)
    x2 = write(d, "x2.json", summary(BARE, {"dram.read.tbps": 1.0, "latency.l2.cycles": 300.0}))
    out, err = expect("nothing comparable: exit 2", COMPARE + [a, x2], 2, env)
    check("nothing comparable: one sentence", len(err.splitlines()) == 1 and "no metric has a ceiling on both sides"
          in err and "no nominal DRAM figure" in err, err)
    check("nothing comparable: the list still printed", "not comparable across models: 2" in out, out[-400:])

    # Bad input: one sentence naming the file and what is missing.
    nodev = summary(H200, M200)
    del nodev["device"]
    nd = write(d, "no_device.json", nodev)
    _, err = expect("no device block: exit 2", COMPARE + [nd, b], 2, env)
    check("no device block: one sentence", len(err.splitlines()) == 1 and nd in err and "device is missing" in err, err)
    unk = write(d, "unknown.json", dict(summary(H100, h100), schema="cuprobe.summary/7"))
    _, err = expect("unknown schema: exit 2", COMPARE + [a, unk], 2, env)
    check("unknown schema: one sentence", len(err.splitlines()) == 1 and unk in err and "cuprobe.summary/7" in err, err)

    # The committed H200 set against an H100 whose DRAM read is 0.697 of it.
    if os.path.isfile(H200_SET):
        ref = json.load(open(H200_SET))
        card = copy.deepcopy(ref)
        card["device"] = dict(ref["device"], **{k: H100[k] for k in ("name", "uuid", "l2_bytes",
                                                                     "memory_bus_width_bits", "memory_clock_mhz",
                                                                     "nominal_dram_gb_per_s")})
        card["metrics"]["dram.read.tbps"] = ref["metrics"]["dram.read.tbps"] * 0.697
        hb = write(d, "h100_like.json", card)
        real_env = dict(env, CUPROBE_REFERENCE_DIR=os.path.join(root, "docs", "results"))
        out, _ = expect("H200 set against an H100: exit 0", COMPARE + [H200_SET, hb], 0, real_env)
        check("H200 set against an H100: DRAM read", "as the models predict (x0.696)"
              in line_with(out, "dram.read.tbps"), out[-800:])
        check("H200 set against an H100: the set is not its own ceiling", "is this file itself" in out, out[:800])


def results_files(d):
    """Results files of two models: each measurement as the fraction of its own card's ceiling it
    was placed against when it ran; no SciPy needed."""
    with gzip.open(os.path.join(root, "docs", "results", "h200", "dram_bandwidth.json.gz")) as f:
        template = json.load(f)  # a valid results file: its first measurement is the pattern

    def bench(name, fraction, ceiling_per_s, source="nominal"):
        b = copy.deepcopy(template["benchmarks"][0])
        b["name"], b["params"] = name, {}
        b["ceiling"] = None if fraction is None else dict(
            b["ceiling"], ceiling_per_s=ceiling_per_s, fraction=fraction,
            rate_per_s=fraction * ceiling_per_s, source=source, source_text=source)
        return b

    def results(device, benches):
        doc = copy.deepcopy(template)
        doc["device"] = dict(doc["device"], **device)
        doc["benchmarks"] = benches
        return doc

    env = dict(os.environ)
    a = write(d, "ra.json", results(H200, [bench("read", 0.96, 4.8e12), bench("gather", 0.97, 4.8e12),
                                           bench("chase", None, 0), bench("onlya", 0.5, 4.8e12)]))
    b = write(d, "rb.json", results(H100, [bench("read", 0.96, 3.35e12), bench("gather", 0.69, 3.35e12),
                                           bench("chase", 0.1, 3.35e12)]))
    out, _ = expect("results across models: exit 0", COMPARE + [a, b], 0, env)
    check("results across models: as predicted", "as the models predict (x0.698)" in line_with(out, "read"),
          out[-900:])
    check("results across models: differs", "differs from the models (0.97 vs 0.69 of ceiling)"
          in line_with(out, "gather"), out[-900:])
    check("results across models: not comparable", "chase: no fraction of its card's ceiling in A" in out,
          out[-900:])
    check("results across models: verdict", "verdict: across models: 2 compared: 1 as the models predict, "
          "1 differ from the models; 1 not comparable; 1 only in A, 0 only in B" in out, out[-400:])
    check("results across models: never a regression", "regression" not in out.lower(), out[-400:])
    c = write(d, "rc.json", results(H100, [bench("chase", None, 0)]))
    _, err = expect("results across models, nothing comparable: exit 2", COMPARE + [a, c], 2, env)
    check("results across models, nothing comparable: one sentence",
          len(err.strip().splitlines()) == 1 and "no measurement of both has a fraction" in err, err)


with tempfile.TemporaryDirectory() as tmp:
    main(tmp)
    results_files(tmp)

finish("compare_models_check", "compare.py across GPU models behaved on every case")
