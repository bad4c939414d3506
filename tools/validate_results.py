#!/usr/bin/env python3
"""Validate cuprobe JSON files against their documented schemas (docs/results-schema.md).

    tools/validate_results.py FILE [FILE ...]

Knows "cuprobe.results/1", "/2" and "/3" (the current one: /2 plus each benchmark's hardware
"counters" and "options.counters"), "cuprobe.summary/1", "cuprobe.ceilings/1" and the peer
tools' records. Checks every file it is given and prints one line per file: "PATH: valid", or
"PATH: REASON" (a file that cannot be read or parsed, or the schema problems found in it,
several joined by "; "). Exits 0 when every file is valid, 1 when any is not, 2 on a usage
error. Standard library only.

This file is also the schema module of tools/plot.py, results_md.py, compare.py, roofline.py
and merge_summaries.py (they import load_json, check_doc, load_checked and the schema lists
from it), so the tools agree on what a valid file is.

Choices:
- The field rules are data (RULES, below): an object is a dict of key -> rule; a key ending in
  "?" is optional (absent or null: cuprobe writes non-finite and unknown numbers as null), one
  ending in "~" must be present but may be null (/3's "counters": null when none were asked
  for); a rule is a type name from TYPES, a nested dict (an object with its own rules), a
  one-element list [rule] (a list whose items each follow rule) or a tuple (one of these
  strings). What cannot be said as a type (samples against their unit, summary against samples,
  rates.seconds against the median; /3: each counter metric named once, "missing" non-empty
  exactly when there are no values, the limiting unit read from a counted metric) is in CHECKS,
  per schema. Keys the rules do not name are allowed (adding keys keeps a schema's version).
- Device fields beyond name, compute_capability, uuid and sm_count are optional, but typed when
  present, so a reader may format them without guarding types, only presence.
- "num" is a finite number and never true/false; "int" is a JSON integer, "uint" one >= 0.
"""
import gzip
import json
import math
import os
import stat
import sys

# ---- Field rules -------------------------------------------------------------------------------

TYPES = {  # type name -> (test, what the message calls it)
    "str": (lambda v: isinstance(v, str), "a string"),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "an integer"),
    "uint": (lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0,
             "a non-negative integer"),
    "num": (lambda v: is_num(v), "a finite number"),
    "pos": (lambda v: is_num(v) and v > 0, "a positive number"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "obj": (lambda v: isinstance(v, dict), "an object"),
    "list": (lambda v: isinstance(v, list), "a list"),
}

# cuprobe.results/2 and /3: the unit of a benchmark's samples -> the type of each sample.
SAMPLE_UNITS = {"seconds": "pos", "cycles": "pos", "nanoseconds": "pos", "value": "num"}

META = {"library?": "str", "library_version": "str", "date": "str", "command_line": "str",
        "compile_flags": "str", "commit": "str"}
DEVICE = {
    "name": "str", "compute_capability": "str", "uuid": "str", "sm_count": "int",
    "pci_bus_id?": "str", "max_threads_per_sm?": "int", "max_blocks_per_sm?": "int",
    "regs_per_sm?": "int", "l2_bytes?": "int", "smem_per_sm_bytes?": "int",
    "smem_per_block_optin_bytes?": "int", "global_mem_bytes?": "int",
    "memory_bus_width_bits?": "int", "memory_clock_mhz?": "num", "sm_clock_max_mhz?": "num",
    "nominal_dram_gb_per_s?": "num", "ecc_enabled?": "bool", "driver_api_version?": "str",
    "runtime_version?": "str", "driver_version?": "str",
}
WORK = {"accounting": "str", "bytes_read?": "num", "bytes_written?": "num", "flops?": "num",
        "ops?": "num", "dram_working_set?": "bool", "working_set_bytes?": "num", "op_kind?": "str",
        "data_source?": "str", "tensor_type?": "str"}
# The rate placed against this card's ceiling (include/cuprobe/measure/ceilings.cuh); null: none.
CEILING = {"key": "str", "what": "str", "rate_per_s": "num", "ceiling_per_s": "pos",
           "fraction": "num", "source": ("card", "reference", "nominal"), "source_text": "str",
           "stale?": "str"}
PERCENTILES = {f"{p}?": "num" for p in ("p05", "p10", "p25", "p75", "p90", "p95", "p99")}
SUMMARY_V1 = {"count": "int", "min": "num", "median": "num", "mean": "num", "max": "num",
              "stdev": "num", "rel_stdev": "num", **PERCENTILES}
# /2: a summary of "value" samples may have a mean of 0, so rel_stdev may be null.
SUMMARY_V2 = {**{k: r for k, r in SUMMARY_V1.items() if k != "rel_stdev"}, "rel_stdev?": "num"}
RATES = {"seconds?": "pos", "gb_per_s?": "num", "tflop_per_s?": "num", "ops_per_s?": "num",
         "cycles_per_op?": "num", "clock_mhz?": "num", "clock_source?": "str"}
BENCH_COMMON = {
    "name": "str", "params": "obj", "launch?": "obj", "kernel?": "obj", "work": WORK,
    "options?": "obj", "rates": RATES,
    "environment": {"before": "obj", "after": "obj", "sm_clock_mhz_during?": "list",
                    "min_sm_clock_mhz?": "num", "throttle_reasons_seen?": "list"},
    "flags": [{"code": "str", "message?": "str"}], "stop?": "str", "wall_s?": "num",
    "launch_floor_s?": "num", "ceiling?": CEILING,
}
BENCH_V1 = {**BENCH_COMMON, "samples_s": ["pos"], "summary": SUMMARY_V1}
BENCH_V2 = {**BENCH_COMMON, "unit": tuple(SAMPLE_UNITS), "samples": "list", "summary": SUMMARY_V2}
# /3: the hardware counters of the pass after the timed samples (CUPTI); null: none asked for.
COUNTERS = {"spec": "str", "chip": "str", "passes": "uint", "range~": ("kernel", "sample"),
            "ranges": "uint", "per_range": "pos", "missing": "str",
            "values": [{"metric": "str", "label": "str", "value": "num", "unit": "str"}],
            "limiting_unit~": {"unit": "str", "percent": "num", "metric": "str"}}
BENCH_V3 = {**BENCH_V2, "options?": {"counters": "str"}, "counters~": COUNTERS}
RESULTS_COMMON = {"schema": "str", "meta": META, "device": DEVICE, "extra": "obj"}

RULES = {  # schema name -> rules of the whole document
    "cuprobe.results/1": {**RESULTS_COMMON, "benchmarks": [BENCH_V1]},
    "cuprobe.results/2": {**RESULTS_COMMON, "benchmarks": [BENCH_V2]},
    "cuprobe.results/3": {**RESULTS_COMMON, "benchmarks": [BENCH_V3]},
    # sources and clocks: written by tools/merge_summaries.py only.
    "cuprobe.summary/1": {"schema": "str", "device": DEVICE, "commit": "str", "command": "str",
                          "date": "str", "metrics": "obj", "sources?": "obj", "clocks?": "obj",
                          "paths?": "obj", "limits?": "obj"},
    # A card's ceilings record, written by device_report into the per-user cache.
    "cuprobe.ceilings/1": {"schema": "str", "device": {"name": "str", "uuid": "str",
                                                        "driver_version": "str",
                                                        "sm_clock_max_mhz": "num",
                                                        "memory_clock_mhz": "num"},
                           "date": "str", "commit": "str", "clocks": "obj", "metrics": "obj"},
    # tools/sparse_peer.py: PyTorch's 2:4 sparse matmul beside its dense one.
    "cuprobe.sparse_peer/1": {"schema": "str", "device": "str", "torch": "str", "command": "str",
                              "rows": [{"m": "num", "n": "num", "k": "num", "dense_s": "num",
                                        "dense_tflops": "num"}]},
    # tools/torch_collectives.py: torch.distributed's NCCL collectives, nccl-tests' bandwidths.
    "cuprobe.torch_collectives/1": {"schema": "str", "device": "str", "torch": "str",
                                    "nccl": "str", "ranks": "num", "command": "str",
                                    "rows": [{"op": "str", "bytes": "num", "ranks": "num",
                                              "seconds": "num", "algbw_gbps": "num",
                                              "busbw_gbps": "num", "valid": "bool"}]},
}
RESULTS_SCHEMAS = ("cuprobe.results/1", "cuprobe.results/2", "cuprobe.results/3")
SUMMARY_SCHEMAS = ("cuprobe.summary/1",)
CEILINGS_SCHEMAS = ("cuprobe.ceilings/1",)  # same metrics vocabulary as a summary
MAX_PROBLEMS = 8  # problems quoted in one line; the rest are counted


# ---- The rule walker ---------------------------------------------------------------------------

def is_num(v):
    """A finite JSON number, never true/false; an integer too large for a double is not one."""
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        return False
    return math.isfinite(v) if isinstance(v, float) else -1.7e308 < v < 1.7e308


def kind_of(v):
    """What a JSON value is, for messages: "the string 'abc'", "the number 3", "null", "a list"."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return f"the number {v!r}" if len(repr(v)) < 40 else f"a number of {len(repr(v))} digits"
    if isinstance(v, str):
        return f"the string {v[:40]!r}" + ("..." if len(v) > 40 else "")
    return "a list" if isinstance(v, list) else "an object"


def check_value(v, rule, where, problems):
    """Append to problems one sentence per way v breaks rule (see the module's choices)."""
    if isinstance(rule, dict):
        if not isinstance(v, dict):
            problems.append(f"{where} is {kind_of(v)}, expected an object")
            return
        for key, sub in rule.items():
            name, mark = key.rstrip("?~"), key[-1]
            if v.get(name) is None:
                if name not in v and mark != "?":
                    problems.append(f"{where}.{name} is missing"
                                    + (" (it may be null, never absent)" if mark == "~" else ""))
                elif mark not in "?~":
                    problems.append(f"{where}.{name} is null")
                continue
            check_value(v[name], sub, f"{where}.{name}", problems)
    elif isinstance(rule, list):
        if not isinstance(v, list):
            problems.append(f"{where} is {kind_of(v)}, expected a list")
            return
        if isinstance(rule[0], str):  # a list of scalars: one sentence for all bad items
            test, what = TYPES[rule[0]]
            bad = [i for i, x in enumerate(v) if not test(x)]
            if bad:
                problems.append(f"{where}: {len(bad)} of {len(v)} items are not {what} "
                                f"(first: [{bad[0]}] is {kind_of(v[bad[0]])})")
            return
        for i, x in enumerate(v):
            check_value(x, rule[0], f"{where}[{i}]", problems)
    elif isinstance(rule, tuple):
        if v not in rule:
            problems.append(f"{where} is {kind_of(v)}, expected one of " + ", ".join(map(repr, rule)))
    else:
        test, what = TYPES[rule]
        if not test(v):
            problems.append(f"{where} is {kind_of(v)}, expected {what}")


# ---- Checks that are not types -----------------------------------------------------------------

def _samples_agree(b, samples, key, w, problems):
    if not samples:
        problems.append(f"{w}.{key} is empty; a benchmark has at least one sample")
        return
    summ = b.get("summary") if isinstance(b.get("summary"), dict) else {}
    if not all(is_num(s) for s in samples):
        return  # already reported as a type problem
    if "count" in summ and summ["count"] != len(samples):
        problems.append(f"{w}.summary.count is {kind_of(summ['count'])} but {w}.{key} holds "
                        f"{len(samples)} samples")
    if is_num(summ.get("min")) and not math.isclose(summ["min"], min(samples), rel_tol=1e-12,
                                                     abs_tol=1e-300):
        problems.append(f"{w}.summary.min is {summ['min']!r} but the smallest of {w}.{key} is "
                        f"{min(samples)!r}")


def _benchmarks(d):
    benches = d.get("benchmarks")
    return [(i, b) for i, b in enumerate(benches) if isinstance(b, dict)] if isinstance(benches, list) else []


def checks_results_v1(d, problems):
    for i, b in _benchmarks(d):
        if isinstance(b.get("samples_s"), list):
            _samples_agree(b, b["samples_s"], "samples_s", f"$.benchmarks[{i}]", problems)


def checks_results_v2(d, problems):
    for i, b in _benchmarks(d):
        w, unit, samples = f"$.benchmarks[{i}]", b.get("unit"), b.get("samples")
        if unit not in SAMPLE_UNITS or not isinstance(samples, list):
            continue  # reported by the rules
        test, what = TYPES[SAMPLE_UNITS[unit]]
        bad = [k for k, s in enumerate(samples) if not test(s)]
        if bad:
            problems.append(f"{w}.samples: {len(bad)} of {len(samples)} samples are not {what} "
                            f"(unit {unit!r}; first: [{bad[0]}] is {kind_of(samples[bad[0]])})")
        _samples_agree(b, samples, "samples", w, problems)
        _seconds_agree(b, unit, w, problems)


def _seconds_agree(b, unit, w, problems):
    """/2 and /3: rates.seconds is the median time per iteration: null for 'value', and for
    'cycles' without a clock (rates.clock_mhz null: nothing to convert with)."""
    rates, summ = b.get("rates"), b.get("summary")
    if not isinstance(rates, dict):
        return
    seconds, clock = rates.get("seconds"), rates.get("clock_mhz")
    median = summ.get("median") if isinstance(summ, dict) else None
    if unit == "value":
        if seconds is not None:
            problems.append(f"{w}.rates.seconds is {kind_of(seconds)}; it is null for unit 'value'")
        return
    if seconds is None:
        if unit != "cycles" or clock is not None:
            problems.append(f"{w}.rates.seconds is null; it is the median time per iteration for "
                            f"unit {unit!r}" + (" with rates.clock_mhz known" if unit == "cycles" else ""))
        return
    if not (is_num(seconds) and is_num(median)) or unit == "cycles" and not (is_num(clock) and clock > 0):
        return  # a type problem, reported by the rules
    if unit == "seconds":
        expected = median
    elif unit == "nanoseconds":
        expected = median * 1e-9
    else:
        expected = median / (clock * 1e6)
    if not math.isclose(seconds, expected, rel_tol=1e-9):
        problems.append(f"{w}.rates.seconds is {seconds!r} but the median of unit {unit!r} makes "
                        f"{expected!r} s")


def checks_results_v3(d, problems):
    """/3 = /2 plus each benchmark's counters (null, or an object whose types the rules check)."""
    checks_results_v2(d, problems)
    for i, b in _benchmarks(d):
        c, w = b.get("counters"), f"$.benchmarks[{i}].counters"
        if not isinstance(c, dict) or not isinstance(c.get("values"), list):
            continue  # null (none asked for), or reported by the rules
        values = c["values"]
        metrics = [x["metric"] for x in values
                   if isinstance(x, dict) and isinstance(x.get("metric"), str)]
        twice = sorted({m for m in metrics if metrics.count(m) > 1})
        if twice:
            more = f" (and {len(twice) - 1} other metrics more than once)" if len(twice) > 1 else ""
            problems.append(f"{w}.values names {twice[0]!r} {metrics.count(twice[0])} times{more}; "
                            f"each metric is counted once")
        missing = c.get("missing")
        if isinstance(missing, str) and not values and not missing:
            problems.append(f"{w}.values is empty but {w}.missing is ''; it says why there are "
                            f"no values")
        elif isinstance(missing, str) and values and missing:
            n = f"{len(values)} value" + "s" * (len(values) > 1)
            problems.append(f"{w}.missing is {kind_of(missing)} but {w}.values holds {n}; it is "
                            f"'' when there are values")
        lim = c.get("limiting_unit")
        lim_metric = lim.get("metric") if isinstance(lim, dict) else None
        if isinstance(lim_metric, str) and lim_metric not in metrics:
            problems.append(f"{w}.limiting_unit.metric is {lim_metric!r}, not among the "
                            f"metrics of {w}.values")


def checks_summary_v1(d, problems):
    for field, test, what in (("metrics", is_num, "a finite number"), ("clocks", is_num, "a finite number"),
                              ("sources", lambda v: isinstance(v, str), "a string (a command line)"),
                              ("paths", lambda v: isinstance(v, str), "a string (a path in words)")):
        values = d.get(field)
        for k, v in (values.items() if isinstance(values, dict) else ()):
            if not test(v):
                problems.append(f"$.{field}.{k} is {kind_of(v)}, expected {what}")


CHECKS = {"cuprobe.results/1": checks_results_v1, "cuprobe.results/2": checks_results_v2,
          "cuprobe.results/3": checks_results_v3,
          "cuprobe.summary/1": checks_summary_v1, "cuprobe.ceilings/1": checks_summary_v1,
          "cuprobe.sparse_peer/1": lambda doc, problems: None,
          "cuprobe.torch_collectives/1": lambda doc, problems: None}


# ---- Files -------------------------------------------------------------------------------------

def _no_constant(name):
    raise ValueError(f"{name} is not JSON; cuprobe writes a non-finite number as null")


def load_json(path):
    """(document, None) or (None, reason): reason is one sentence, never a traceback."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return None, "no such file"
    except OSError as e:
        return None, f"cannot be read ({e.strerror or e})"
    if stat.S_ISDIR(st.st_mode):
        return None, "is a directory, not a file"
    if not stat.S_ISREG(st.st_mode):
        return None, "is not a regular file"
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        return None, f"cannot be read ({e.strerror or e})"
    if raw[:2] == b"\x1f\x8b":  # gzip (a large file of a reference set: NAME.json.gz)
        try:
            raw = gzip.decompress(raw)
        except (OSError, EOFError) as e:
            return None, f"is not a complete gzip file ({e})"
    if not raw.strip():
        return None, "is empty, not JSON"
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        return None, f"is not UTF-8 text (byte 0x{raw[e.start]:02x} at offset {e.start}), not JSON"
    try:
        doc = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        return None, f"is not valid JSON ({e.msg} at line {e.lineno} column {e.colno})"
    except ValueError as e:
        return None, f"is not valid JSON ({e})"
    except RecursionError:
        return None, "is not usable JSON (nested too deeply)"
    if not isinstance(doc, dict):
        return None, f"holds {kind_of(doc)} at the top level, not a JSON object"
    return doc, None


def check_doc(doc, schemas=None):
    """The problems of a loaded document (empty: valid). schemas: the schema names accepted."""
    schema = doc.get("schema")
    known = tuple(RULES) if schemas is None else schemas
    if schema not in known:
        return [f"$.schema is {kind_of(schema)}, expected one of " + ", ".join(map(repr, known))]
    problems = []
    check_value(doc, RULES[schema], "$", problems)
    CHECKS[schema](doc, problems)
    return problems


def one_line(problems):
    """Problems as one line: the first MAX_PROBLEMS, then how many more."""
    head = "; ".join(problems[:MAX_PROBLEMS])
    more = len(problems) - MAX_PROBLEMS
    return (f"{len(problems)} problems: " if len(problems) > 1 else "") + head + (
        f"; and {more} more" if more > 0 else "")


def load_checked(path, schemas=None):
    """(document, None) for a valid file, else (None, reason as one line)."""
    doc, reason = load_json(path)
    if reason:
        return None, reason
    problems = check_doc(doc, schemas)
    return (None, one_line(problems)) if problems else (doc, None)


def main(argv):
    if len(argv) < 2 or argv[1] in ("-h", "--help"):
        print("\n\n".join(__doc__.strip().split("\n\n")[:3]), file=sys.stderr)
        return 2 if len(argv) < 2 else 0
    bad = 0
    for path in argv[1:]:
        _, reason = load_checked(path)
        print(f"{path}: {reason or 'valid'}", flush=True)
        bad += reason is not None
    return 1 if bad else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BrokenPipeError:  # the reader went away (`... | head -1`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
