#!/usr/bin/env python3
"""Compare two cuprobe runs: which measurements changed, by how much, and whether it is noise.

    compare.py A.json B.json [--threshold 0.02] [--alpha 0.05] [--json OUT]

A is the baseline, B the run under test; ratios are B/A. Both files are results files
(cuprobe.results/1, /2 or /3, mixed freely) or both are summary files (cuprobe.summary/1:
device_report --summary, or tools/merge_summaries.py's merged file). Comparing a card with the
reference H200:
    compare.py docs/results/h200/summary.json my_summary.json

Results files: a measurement of A matches the one of B with the same name and the same params
(compared as canonical JSON: sorted keys); a name and params that occur k times in a file match
by their order of occurrence. Per match the tool reports the median of the samples of A and of
B (in the samples' unit), the ratio of the medians B/A, a confidence interval of that ratio at
level 1 - alpha, the p-value of a two-sided Mann-Whitney U test between the two sample sets, and
the flag codes present in one file only (+code: B only, -code: A only). Measurements present in
one file only are listed. A match is significant when p < alpha AND |B/A - 1| > threshold (for
a zero median in A: any change counts as beyond the threshold).
- The interval: scipy.stats.bootstrap on the statistic median(B)/median(A), the two sample sets
  resampled independently (paired=False), 4999 resamples, percentile method, a fixed seed per
  match (the same files give the same interval). Percentile, not BCa: BCa's acceleration comes
  from the jackknife, which is unreliable for a median. Needs 2 or more samples on each side.
- The test: scipy.stats.mannwhitneyu, two-sided. It assumes nothing about the distribution (GPU
  timings are skewed and have outliers), only independent samples. With few samples it cannot
  reach p < alpha at all (3 against 3: p >= 0.1); such a match is marked "few samples".
- Direction from the unit: seconds, cycles and nanoseconds are times (bigger is slower); a unit
  that is a rate (per_s, bps, flops) is the other way; "value" (and any other unit) says
  "changed", never a regression. A match whose units differ is listed as skipped.
Summary files: compared key by key, ratio B/A of the values, no interval or test ("no samples").
A change of more than the threshold (|B - A| > threshold x |A|) is marked; its direction comes
from the key: .tbps, .tflops, .gbps, _per_s, fraction_of_peak, fraction_of_bus, bytes_per_clk,
vs_* are higher-is-better; .cycles, .ns, _us, latency are lower-is-better; any other key says
"changed". Keys present in one file only are listed.

Across GPU models (summaries or records whose device names give different reference-set folders,
tools/gpu_model.py): each metric is compared as a fraction of its own card's ceiling (the card's
ceilings record, else its model's reference set, else the nominal figure; the same kind on both
sides; a file is never its own ceiling), by tools/card_ceilings.py, whose docstring gives the
rules. A metric whose two fractions agree within the threshold is "as the models predict (xF)",
F the factor B/A the two ceilings predict; else "differs from the models (fA vs fB of
ceiling)"; never better or worse. The table names each side's ceiling, "ceilings used" says
where each comes from, and metrics without a ceiling on a side are listed as "not comparable
across models" with the reason. Exit status 0, or 2 when no metric has a ceiling on both sides.
Results files of two models: each measurement as the fraction of its own card's ceiling recorded
in it when it ran (its `ceiling` field), with the same verdicts (card_ceilings.results_across_models).

Output: the files' provenance, a table (one line per match, sorted by name then params), the
measurements in one file only, and a verdict line last; --json OUT writes the same as JSON
(schema "cuprobe.compare/1"; numbers that are not finite are null).
Exit status: 0 no significant regression; 1 a significant regression (results: significantly
slower; summaries: worse beyond the threshold); 2 bad input, said in one sentence on stderr.
Bad input: a missing or unreadable file, not JSON, an unknown schema, a results file against a
summary file, a file that fails tools/validate_results.py's schema checks (missing keys, wrong
types), a measurement with no samples or with a sample that is null, NaN or infinite (named by
name and params: the validator rejects such a file too, so it is not skipped), nothing in common.
SciPy (with NumPy) is needed for results files: without it the tool says how to install it
(python3 -m pip install scipy) and exits 2; summaries need the standard library only.
"""
import argparse
import gzip
import inspect
import json
import math
import os
import re
import sys
import warnings

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import validate_results as schema  # noqa: E402  (the schema module beside this file)
import card_ceilings  # noqa: E402  (each metric against its own card's ceiling, across models)

PROG = "compare.py"
N_RESAMPLES = 4999
SEED = 20260101
TIME_UNITS = ("seconds", "cycles", "nanoseconds")  # a bigger sample is slower
RATE_UNIT = re.compile(r"per_s|/s$|bps|flops")    # a bigger sample is faster
HIGHER_KEYS = re.compile(r"[._](tbps|tflops|gbps)$|_per_s$|fraction_of_(peak|bus)|bytes_per_clk|"
                         r"(^|[._])vs_")
LOWER_KEYS = re.compile(r"[._](cycles|ns|us)$|latency")


class BadInput(Exception):
    """One sentence for stderr; exit status 2."""


# ---- Reading -----------------------------------------------------------------------------------

def canonical(params):
    return json.dumps(params, sort_keys=True, separators=(",", ":"))


def who(b, i):
    """A measurement as a reader finds it: name and params."""
    name = b.get("name") if isinstance(b.get("name"), str) else f"benchmarks[{i}]"
    params = canonical(b["params"]) if isinstance(b.get("params"), dict) else ""
    return f"{name} {params[:160]}{'...' if len(params) > 160 else ''}".strip()


def samples_of(b):
    return b["samples"] if "samples" in b else b.get("samples_s")


def describe_bad(x):
    if x is None:
        return "null"
    if isinstance(x, float) and not math.isfinite(x):
        return "NaN" if math.isnan(x) else "infinite"
    return schema.kind_of(x)


def check_samples(doc, path):
    """A measurement without samples or with a non-finite one is bad input, named."""
    benches = doc.get("benchmarks")
    for i, b in enumerate(benches if isinstance(benches, list) else ()):
        s = samples_of(b) if isinstance(b, dict) else None
        if not isinstance(s, list):
            continue  # the schema check says what is wrong
        if not s:
            raise BadInput(f"{path}: measurement {who(b, i)} has no samples; each measurement "
                           "needs at least one to be compared")
        bad = [j for j, x in enumerate(s) if not schema.is_num(x)]
        if bad:
            raise BadInput(f"{path}: measurement {who(b, i)} has {len(bad)} of {len(s)} samples "
                           f"that are not finite numbers (first: [{bad[0]}] is "
                           f"{describe_bad(s[bad[0]])})")


def loose_json(path):
    """The document with NaN/Infinity accepted (to name the measurement that holds one), or None."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
        raw = gzip.decompress(raw) if raw[:2] == b"\x1f\x8b" else raw
        doc = json.loads(raw.decode("utf-8"))
        return doc if isinstance(doc, dict) else None
    except (OSError, ValueError, RecursionError, EOFError):
        return None


def load(path):
    doc, reason = schema.load_json(path)
    if reason:
        loose = loose_json(path)
        if loose is not None:
            check_samples(loose, path)
        raise BadInput(f"{path}: {reason}")
    return doc


def family(doc, path):
    name = doc.get("schema")
    if name in schema.RESULTS_SCHEMAS:
        return "results"
    if name in schema.SUMMARY_SCHEMAS + schema.CEILINGS_SCHEMAS:
        return "summary"  # a ceilings record has a summary's metrics
    known = ", ".join(map(repr, schema.RESULTS_SCHEMAS + schema.SUMMARY_SCHEMAS +
                          schema.CEILINGS_SCHEMAS))
    raise BadInput(f"{path}: $.schema is {schema.kind_of(name)}, expected one of {known}")


def load_pair(path_a, path_b):
    docs = [load(path_a), load(path_b)]
    kinds = [family(d, p) for d, p in zip(docs, (path_a, path_b))]
    if kinds[0] != kinds[1]:
        raise BadInput(f"{path_a} is a {kinds[0]} file ({docs[0]['schema']}) but {path_b} is a "
                       f"{kinds[1]} file ({docs[1]['schema']}); compare two results files or two "
                       "summary files")
    for d, p in zip(docs, (path_a, path_b)):
        if kinds[0] == "results":
            check_samples(d, p)
        problems = schema.check_doc(d)
        if problems:
            raise BadInput(f"{p}: {schema.one_line(problems)}")
    return docs, kinds[0]


def provenance(doc):
    dev = doc.get("device", {})
    commit = doc.get("commit") or doc.get("meta", {}).get("commit")
    date = doc.get("date") or doc.get("meta", {}).get("date")
    return {"schema": doc["schema"], "device": dev.get("name"), "uuid": dev.get("uuid"),
            "commit": commit, "date": date}


# ---- Statistics --------------------------------------------------------------------------------

def need_scipy():
    try:
        import numpy  # noqa: F401
        from scipy import stats  # noqa: F401
    except ImportError:
        raise BadInput("SciPy is needed to compare the samples of results files and is not "
                       "installed; install it with: python3 -m pip install scipy") from None
    return numpy, stats


def min_p(na, nb):
    """The smallest two-sided p-value a rank test can give with na and nb samples."""
    return min(1.0, 2.0 / math.comb(na + nb, na))


def ratio_interval(np, stats, a, b, level):
    """Bootstrap percentile interval of median(b)/median(a), or None when it cannot be had."""
    if len(a) < 2 or len(b) < 2:
        return None

    def ratio(x, y, axis=-1):
        return np.median(y, axis=axis) / np.median(x, axis=axis)

    kw = {"n_resamples": N_RESAMPLES, "confidence_level": level, "method": "percentile",
          "paired": False, "vectorized": True, "batch": 500}
    try:
        seed_arg = "rng" if "rng" in inspect.signature(stats.bootstrap).parameters else "random_state"
        kw[seed_arg] = np.random.default_rng(SEED)
        res = stats.bootstrap((a, b), ratio, **kw)
    except ValueError:
        return None
    lo, hi = (float(v) for v in res.confidence_interval)
    return (lo, hi) if math.isfinite(lo) and math.isfinite(hi) else None


def direction_of_unit(unit):
    if unit in TIME_UNITS:
        return "lower"
    return "higher" if RATE_UNIT.search(unit) else None


def direction_of_key(key):
    if LOWER_KEYS.search(key) and not HIGHER_KEYS.search(key):
        return "lower"
    if HIGHER_KEYS.search(key):
        return "higher"
    return None


def relative(a, b):
    """(B - A) / |A|; infinite when A is 0 and B is not."""
    if a == 0:
        return 0.0 if b == 0 else math.inf
    return (b - a) / abs(a)


def change_word(rel, direction, better, worse):
    if direction is None:
        return "changed"
    return better if (rel < 0) == (direction == "lower") else worse


def index(doc):
    """Each measurement of a results file by (name, params, occurrence)."""
    out, seen = {}, {}
    for b in doc["benchmarks"]:
        base = (b["name"], canonical(b["params"]))
        k = seen[base] = seen.get(base, -1) + 1
        out[base + (k,)] = b
    return out


def compare_results(doc_a, doc_b, threshold, alpha):
    np, stats = need_scipy()
    ia, ib = index(doc_a), index(doc_b)
    common = sorted(set(ia) & set(ib))
    rows, skipped = [], []
    for key in common:
        ba, bb = ia[key], ib[key]
        ua, ub = ba.get("unit", "seconds"), bb.get("unit", "seconds")
        label = {"name": key[0], "params": json.loads(key[1]), "occurrence": key[2] + 1}
        if ua != ub:
            skipped.append(dict(label, reason=f"units differ ({ua} in A, {ub} in B)"))
            continue
        a = np.asarray(samples_of(ba), dtype=float)
        b = np.asarray(samples_of(bb), dtype=float)
        ma, mb = float(np.median(a)), float(np.median(b))
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            ci = ratio_interval(np, stats, a, b, 1.0 - alpha) if ma != 0 else None
            p = float(stats.mannwhitneyu(a, b, alternative="two-sided").pvalue)
        p = 1.0 if not math.isfinite(p) else p
        rel = relative(ma, mb)
        direction = direction_of_unit(ua)
        few = min_p(len(a), len(b)) >= alpha
        if abs(rel) <= threshold:
            verdict = "no change"
        elif p >= alpha:
            verdict = "not significant"
        else:
            verdict = change_word(rel, direction, "faster", "slower (regression)")
        fa = {f.get("code") for f in ba.get("flags", [])}
        fb = {f.get("code") for f in bb.get("flags", [])}
        rows.append(dict(label, unit=ua, n_a=len(a), n_b=len(b), median_a=ma, median_b=mb,
                         ratio=mb / ma if ma != 0 else None,
                         ci=list(ci) if ci else None, p=p, few_samples=few,
                         direction=direction, verdict=verdict,
                         regression=verdict == "slower (regression)",
                         flags_only_in_a=sorted(fa - fb), flags_only_in_b=sorted(fb - fa)))
    only = [[{"name": k[0], "params": json.loads(k[1]), "occurrence": k[2] + 1}
             for k in sorted(set(x) - set(y))] for x, y in ((ia, ib), (ib, ia))]
    return rows, skipped, only[0], only[1]


def compare_summaries(doc_a, doc_b, threshold):
    ma, mb = doc_a["metrics"], doc_b["metrics"]
    rows = []
    for key in sorted(set(ma) & set(mb)):
        a, b = ma[key], mb[key]
        rel = relative(a, b)
        direction = direction_of_key(key)
        verdict = "no change" if abs(rel) <= threshold else change_word(rel, direction, "better",
                                                                         "worse (regression)")
        rows.append({"name": key, "a": a, "b": b, "ratio": b / a if a != 0 else None,
                     "ci": None, "direction": direction, "verdict": verdict,
                     "regression": verdict == "worse (regression)"})
    return rows, [{"name": k} for k in sorted(set(ma) - set(mb))], [{"name": k} for k in sorted(set(mb) - set(ma))]


# ---- Output ------------------------------------------------------------------------------------

def num(v):
    if v is None:
        return "-"
    return f"{v:.4g}"


def table(headers, rows, right):
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]

    def line(cells):
        return "  ".join(c.rjust(w) if i in right else c.ljust(w)
                         for i, (c, w) in enumerate(zip(cells, widths))).rstrip()
    return [line(headers), line(["-" * w for w in widths])] + [line(r) for r in rows]


def label_of(r):
    params = canonical(r["params"]) if "params" in r else ""
    dup = f" #{r['occurrence']}" if r.get("occurrence", 1) > 1 else ""
    return (f"{r['name']} {params}" if params and params != "{}" else r["name"]) + dup


def results_lines(rows, alpha):
    level = f"{100 * (1 - alpha):g}% CI"
    cells = []
    for r in rows:
        ci = f"[{num(r['ci'][0])}, {num(r['ci'][1])}]" if r["ci"] else "-"
        flags = " ".join([f"-{c}" for c in r["flags_only_in_a"]] + [f"+{c}" for c in r["flags_only_in_b"]])
        verdict = r["verdict"] + (" (few samples)" if r["few_samples"] and r["verdict"] != "no change" else "")
        cells.append([num(r["median_a"]), num(r["median_b"]), r["unit"], num(r["ratio"]), ci,
                      f"{r['p']:.3g}", f"{r['n_a']}/{r['n_b']}", verdict, flags or "-", label_of(r)])
    return table(["A median", "B median", "unit", "B/A", level, "p", "n A/B", "verdict",
                  "flags -A +B", "measurement (name params)"], cells, right={0, 1, 3, 5, 6})


def summary_lines(rows):
    cells = [[r["name"], num(r["a"]), num(r["b"]), num(r["ratio"]), "no samples",
              {"lower": "lower is better", "higher": "higher is better"}.get(r["direction"], "-"),
              r["verdict"]] for r in rows]
    return table(["key", "A", "B", "B/A", "interval", "direction", "verdict"], cells, right={1, 2, 3})


def count(rows, verdict):
    return sum(r["verdict"] == verdict for r in rows)


def report(paths, docs, kind, rows, skipped, only_a, only_b, args):
    out = []
    for tag, path, doc in zip("AB", paths, docs):
        p = provenance(doc)
        out.append(f"{tag}: {path} ({p['schema']}; {p['device']} {p['uuid']}; commit {p['commit']}; {p['date']})")
    out.append("")
    out += results_lines(rows, args.alpha) if kind == "results" else summary_lines(rows)
    for tag, path, lst in (("A", paths[0], only_a), ("B", paths[1], only_b)):
        if lst:
            out.append("")
            out.append(f"only in {tag} ({path}): {len(lst)}")
            out += [f"  {label_of(r)}" for r in lst]
    if skipped:
        out.append("")
        out.append(f"skipped: {len(skipped)}")
        out += [f"  {label_of(r)}: {r['reason']}" for r in skipped]
    regressions = sum(r["regression"] for r in rows)
    if kind == "results":
        parts = [f"{regressions} significantly slower", f"{count(rows, 'faster')} faster",
                 f"{count(rows, 'changed')} changed", f"{count(rows, 'not significant')} not significant",
                 f"{count(rows, 'no change')} no change"]
        rule = f"p < {args.alpha:g} and |B/A - 1| > {args.threshold:g}"
    else:
        parts = [f"{regressions} worse", f"{count(rows, 'better')} better",
                 f"{count(rows, 'changed')} changed", f"{count(rows, 'no change')} no change"]
        rule = f"|B/A - 1| > {args.threshold:g}, no samples"
    word = "REGRESSION" if regressions else "no regression"
    out.append("")
    out.append(f"verdict: {word}: {len(rows)} compared: " + ", ".join(parts) +
               f"; {len(only_a)} only in A, {len(only_b)} only in B" +
               (f", {len(skipped)} skipped" if skipped else "") + f" ({rule})")
    return out, regressions


def models_report(paths, docs, cards, rows, only_a, only_b, args):
    """Two cards of different GPU models: each metric as a fraction of its own card's ceiling."""
    out = []
    for tag, path, doc in zip("AB", paths, docs):
        p = provenance(doc)
        out.append(f"{tag}: {path} ({p['schema']}; {p['device']} {p['uuid']}; commit {p['commit']}; {p['date']})")
    out.append(f"A and B are different GPU models ({cards[0].name}; {cards[1].name}): each metric is "
               "compared as a fraction of its own card's ceiling.")
    out += [f"ceilings {tag}: {card_ceilings.sources_line(c)}" for tag, c in zip("AB", cards)]
    out += [f"note: {n}" for c in cards for n in c.notes]
    out.append("")
    done = [r for r in rows if r["comparable"]]
    cells = [[r["name"], num(r["a"]), num(r["b"]), num(r["ratio"]), r["short_a"], num(r["fraction_a"]),
              r["short_b"], num(r["fraction_b"]), r["verdict"]] for r in done]
    out += table(["key", "A", "B", "B/A", "A ceiling", "A of ceiling", "B ceiling", "B of ceiling",
                  "verdict"], cells, right={1, 2, 3, 5, 7})
    how = sorted({(tag, r[f"ceiling_{tag.lower()}"]["text"]) for r in done for tag in "AB"
                  if r[f"ceiling_{tag.lower()}"]["kind"] != "ratio"})
    if how:
        out.append("")
        out.append("ceilings used:")
        out += [f"  {tag}: {text}" for tag, text in how]
    lost = [r for r in rows if not r["comparable"]]
    if lost:
        out.append("")
        out.append(f"not comparable across models: {len(lost)}")
        out += [f"  {r['name']}: {r['reason']}" for r in lost]
    for tag, path, lst in (("A", paths[0], only_a), ("B", paths[1], only_b)):
        if lst:
            out.append("")
            out.append(f"only in {tag} ({path}): {len(lst)}")
            out += [f"  {r['name']}" for r in lst]
    agree = sum(r.get("agree", False) for r in done)
    out.append("")
    out.append(f"verdict: across models: {len(done)} compared: {agree} as the models predict, "
               f"{len(done) - agree} differ from the models; {len(lost)} not comparable across models; "
               f"{len(only_a)} only in A, {len(only_b)} only in B (|fraction B / fraction A - 1| > "
               f"{args.threshold:g} differs)")
    return out


def finite(v):
    """JSON-safe: non-finite numbers become null."""
    if isinstance(v, float) and not math.isfinite(v):
        return None
    if isinstance(v, dict):
        return {k: finite(x) for k, x in v.items()}
    if isinstance(v, list):
        return [finite(x) for x in v]
    return v


def write_json(path, paths, docs, kind, rows, skipped, only_a, only_b, regressions, args, verdict,
               extra=None):
    doc = {"schema": "cuprobe.compare/1", "kind": kind,
           "a": dict(provenance(docs[0]), path=paths[0]), "b": dict(provenance(docs[1]), path=paths[1]),
           "threshold": args.threshold, "alpha": args.alpha,
           "method": ({"interval": f"scipy.stats.bootstrap percentile, median(B)/median(A), "
                                   f"{N_RESAMPLES} resamples, seed {SEED}",
                       "test": "scipy.stats.mannwhitneyu two-sided"} if kind == "results"
                      else {"interval": "no samples", "test": "none"}),
           "matches": rows, "only_in_a": only_a, "only_in_b": only_b, "skipped": skipped,
           "regressions": regressions, "verdict": verdict, "exit_status": 1 if regressions else 0,
           "across_models": False, **(extra or {})}
    try:
        with open(path, "w", encoding="utf-8") as f:
            json.dump(finite(doc), f, indent=2, allow_nan=False)
            f.write("\n")
    except OSError as e:
        raise BadInput(f"{path}: cannot be written ({e.strerror or e})") from None


# ---- Main --------------------------------------------------------------------------------------

class Parser(argparse.ArgumentParser):
    def error(self, message):
        raise BadInput(f"{message}; usage: {PROG} A.json B.json [--threshold 0.02] [--alpha 0.05] "
                       "[--json OUT]")


def main(argv):
    p = Parser(prog=PROG, description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("a", metavar="A.json", help="the baseline")
    p.add_argument("b", metavar="B.json", help="the run under test")
    p.add_argument("--threshold", type=float, default=0.02,
                   help="smallest relative change of the median that counts (default 0.02)")
    p.add_argument("--alpha", type=float, default=0.05,
                   help="significance level of the test; the interval is at 1 - alpha (default 0.05)")
    p.add_argument("--json", metavar="OUT", help="also write the comparison as JSON")
    args = p.parse_args(argv)
    if not (math.isfinite(args.threshold) and args.threshold >= 0):
        raise BadInput(f"--threshold {args.threshold:g} is not a relative change >= 0 (0.02 is 2%)")
    if not 0 < args.alpha < 1:
        raise BadInput(f"--alpha {args.alpha:g} is not a significance level between 0 and 1")
    paths = (args.a, args.b)
    docs, kind = load_pair(*paths)
    if kind == "summary" and card_ceilings.different_models(*docs):
        return main_models(paths, docs, args)
    if kind == "results" and card_ceilings.different_models(*docs):
        lines = [f"{tag}: {path} ({provenance(d)['schema']}; {provenance(d)['device']})"
                 for tag, path, d in zip("AB", paths, docs)]
        lines += card_ceilings.results_across_models(index(docs[0]), index(docs[1]), args.threshold,
                                                     label_of)
        print("\n".join(lines), flush=True)
        if lines[-1].startswith("verdict: across models: 0 compared"):
            raise BadInput(f"{paths[0]} and {paths[1]} are different GPU models and no measurement "
                           "of both has a fraction of its card's ceiling")
        return 0
    if kind == "results":
        rows, skipped, only_a, only_b = compare_results(docs[0], docs[1], args.threshold, args.alpha)
        what = "measurement (name and params)"
    else:
        (rows, only_a, only_b), skipped = compare_summaries(docs[0], docs[1], args.threshold), []
        what = "metric key"
    if not rows and not skipped:
        raise BadInput(f"{paths[0]} and {paths[1]} have no {what} in common; nothing to compare")
    lines, regressions = report(paths, docs, kind, rows, skipped, only_a, only_b, args)
    print("\n".join(lines), flush=True)
    if args.json:
        write_json(args.json, paths, docs, kind, rows, skipped, only_a, only_b, regressions, args,
                   lines[-1][len("verdict: "):])
    if not rows:
        raise BadInput(f"{paths[0]} and {paths[1]} have no match that can be compared "
                       f"({len(skipped)} skipped)")
    return 1 if regressions else 0


def main_models(paths, docs, args):
    cards = [card_ceilings.Card(p, d) for p, d in zip(paths, docs)]
    ma, mb = docs[0]["metrics"], docs[1]["metrics"]
    only_a = [{"name": k} for k in sorted(set(ma) - set(mb))]
    only_b = [{"name": k} for k in sorted(set(mb) - set(ma))]
    rows = card_ceilings.compare_cards(cards[0], cards[1], args.threshold)
    if not rows:
        raise BadInput(f"{paths[0]} and {paths[1]} have no metric key in common; nothing to compare")
    lines = models_report(paths, docs, cards, rows, only_a, only_b, args)
    print("\n".join(lines), flush=True)
    if args.json:
        write_json(args.json, paths, docs, "summary", [r for r in rows if r["comparable"]], [],
                   only_a, only_b, 0, args,
                   lines[-1][len("verdict: "):],
                   extra={"across_models": True, "not_comparable": [r for r in rows if not r["comparable"]],
                          "ceilings": [card_ceilings.sources_line(c) for c in cards]})
    if not any(r["comparable"] for r in rows):
        missing = "; ".join(sorted({r["reason"] for r in rows}))[:600]
        raise BadInput(f"{paths[0]} and {paths[1]} are different GPU models and no metric has a "
                       f"ceiling on both sides ({missing})")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BadInput as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:  # the reader went away (`... | head -1`): no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(1)
