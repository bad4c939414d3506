#!/usr/bin/env python3
"""Validate a cuprobe JSON file against its documented schema (docs/results-schema.md).

    tools/validate_results.py FILE [FILE ...]

Knows "cuprobe.results/1" and "cuprobe.summary/1". Exits 1 with one line per problem.
Standard library only.
"""
import json
import math
import sys


def _is_num(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _need(obj, key, types, where, problems):
    if not isinstance(obj, dict) or key not in obj:
        problems.append(f"{where}: missing '{key}'")
        return None
    v = obj[key]
    if types is not None and not isinstance(v, types):
        problems.append(f"{where}.{key}: expected {types}, got {type(v).__name__}")
    return v


def check_results(d, problems):
    meta = _need(d, "meta", dict, "$", problems) or {}
    for k in ("library_version", "date", "command_line", "compile_flags", "commit"):
        _need(meta, k, str, "$.meta", problems)
    dev = _need(d, "device", dict, "$", problems) or {}
    for k in ("name", "compute_capability", "uuid"):
        _need(dev, k, str, "$.device", problems)
    _need(dev, "sm_count", int, "$.device", problems)
    benches = _need(d, "benchmarks", list, "$", problems) or []
    for i, b in enumerate(benches):
        w = f"$.benchmarks[{i}]"
        _need(b, "name", str, w, problems)
        _need(b, "params", dict, w, problems)
        work = _need(b, "work", dict, w, problems) or {}
        _need(work, "accounting", str, w + ".work", problems)
        samples = _need(b, "samples_s", list, w, problems) or []
        if not samples or not all(_is_num(s) and s > 0 for s in samples):
            problems.append(f"{w}.samples_s: must be a non-empty list of positive numbers")
        summ = _need(b, "summary", dict, w, problems) or {}
        for k in ("count", "min", "median", "mean", "max", "stdev", "rel_stdev"):
            _need(summ, k, (int, float), w + ".summary", problems)
        if samples and summ.get("count") != len(samples):
            problems.append(f"{w}.summary.count != len(samples_s)")
        if samples and _is_num(summ.get("min")) and not math.isclose(summ["min"], min(samples), rel_tol=1e-12):
            problems.append(f"{w}.summary.min does not match the samples")
        _need(b, "rates", dict, w, problems)
        env = _need(b, "environment", dict, w, problems) or {}
        _need(env, "before", dict, w + ".environment", problems)
        _need(env, "after", dict, w + ".environment", problems)
        flags = _need(b, "flags", list, w, problems) or []
        for f in flags:
            if not (isinstance(f, dict) and isinstance(f.get("code"), str)):
                problems.append(f"{w}.flags: each flag needs a 'code' string")
    _need(d, "extra", dict, "$", problems)


def check_summary(d, problems):
    _need(d, "device", dict, "$", problems)
    for k in ("commit", "command", "date"):
        _need(d, k, str, "$", problems)
    metrics = _need(d, "metrics", dict, "$", problems) or {}
    for k, v in metrics.items():
        if not _is_num(v) or not math.isfinite(v):
            problems.append(f"$.metrics.{k}: must be a finite number")


def validate(path):
    problems = []
    with open(path, encoding="utf-8") as f:
        d = json.load(f)
    schema = d.get("schema") if isinstance(d, dict) else None
    if schema == "cuprobe.results/1":
        check_results(d, problems)
    elif schema == "cuprobe.summary/1":
        check_summary(d, problems)
    else:
        problems.append(f"$.schema: unknown schema {schema!r}")
    return problems


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    bad = 0
    for path in argv[1:]:
        problems = validate(path)
        for p in problems:
            print(f"{path}: {p}")
        bad += bool(problems)
        if not problems:
            print(f"{path}: valid")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
