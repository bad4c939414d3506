#!/usr/bin/env python3
"""Merge several cuprobe.summary/1 files of one GPU and one commit into one.

    merge_summaries.py OUT.json IN1.json [IN2.json ...]

The inputs are headline files: device_report's summary.json and the --summary files of the
examples (wgmma, gemm, tma, system_memory, access_patterns, ...), or earlier merged files. The
output is one cuprobe.summary/1 file (tools/validate_results.py accepts it) holding:
- metrics: every metric of every input; a key that two inputs give different values is an error
  naming both files (the same value twice is kept once);
- device: the first input's device block; every input must name the same GPU UUID;
- commit: the commit all inputs name (they must name the same one, "-dirty" included);
- command: this merge's command line; date: the latest of the inputs' dates (when the last of
  the merged numbers was measured);
- sources: {input file name: the command that wrote it} (an input that is itself a merged file
  contributes its own sources; a file name seen twice with different commands is keyed by the
  path given instead);
- clocks: the clocks seen, {key: MHz}: every metric whose key starts with "clock." or ends with
  "clock_mhz" (clock.sm.effective_mhz, clock.sm.nvml_mhz, wgmma.bf16.clock_mhz,
  gemm.bf16.4096.kernel_clock_mhz, ...), and the clocks of merged inputs; present only when
  there is one. The clocks stay among the metrics too.
The inputs are all read before OUT is written, so OUT may be one of them.

Exit status: 0 written; 2 bad input (a file that cannot be read, is not a valid
cuprobe.summary/1 file, another GPU, another commit, a key with two values) or an OUT that
cannot be written, said in one sentence on stderr, and nothing is written. Standard library only.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import validate_results as schema  # noqa: E402  (the schema module beside this file)

PROG = "merge_summaries.py"


class BadInput(Exception):
    """One sentence for stderr; exit status 2."""


def is_clock(key):
    return key.startswith("clock.") or key.endswith("clock_mhz")


def merge(paths, command):
    docs = []
    for path in paths:
        doc, reason = schema.load_checked(path, schema.SUMMARY_SCHEMAS)
        if reason:
            raise BadInput(f"{path}: {reason}")
        docs.append(doc)
    first, first_path = docs[0], paths[0]
    for doc, path in zip(docs[1:], paths[1:]):
        if doc["device"]["uuid"] != first["device"]["uuid"]:
            raise BadInput(f"{first_path} is from GPU {first['device']['uuid']} but {path} is from "
                           f"GPU {doc['device']['uuid']}; merge the summaries of one GPU only")
        if doc["commit"] != first["commit"]:
            raise BadInput(f"{first_path} names commit {first['commit']} but {path} names commit "
                           f"{doc['commit']}; merge the summaries of one commit only")
    metrics, origin, sources, clocks, how = {}, {}, {}, {}, {}
    for doc, path in zip(docs, paths):
        for key, value in doc["metrics"].items():
            if key in metrics and metrics[key] != value:
                raise BadInput(f"metric {key} is {metrics[key]!r} in {origin[key]} but {value!r} in "
                               f"{path}; the inputs disagree")
            metrics.setdefault(key, value)
            origin.setdefault(key, path)
        own = doc.get("sources") if isinstance(doc.get("sources"), dict) else {
            os.path.basename(path): doc["command"]}
        for name, cmd in own.items():
            sources[path if sources.get(name, cmd) != cmd else name] = cmd
        for key, text in (doc.get("paths") or {}).items():  # the path behind a metric, in words
            how.setdefault(key, text)
        given = doc.get("clocks") if isinstance(doc.get("clocks"), dict) else {}
        for key, value in list(given.items()) + [(k, v) for k, v in doc["metrics"].items() if is_clock(k)]:
            if key in clocks and clocks[key] != value:
                raise BadInput(f"clock {key} is {clocks[key]!r} in {origin[key]} but {value!r} in "
                               f"{path}; the inputs disagree")
            clocks[key] = value
            origin.setdefault(key, path)
    out = {"schema": "cuprobe.summary/1", "device": first["device"], "commit": first["commit"],
           "command": command, "date": max(d["date"] for d in docs), "metrics": metrics,
           "sources": sources}
    if clocks:
        out["clocks"] = clocks
    if how:
        out["paths"] = how
    problems = schema.check_doc(out)
    if problems:  # every input was valid, so this is not expected; never write a bad file
        raise BadInput(f"the merged file would not be valid: {schema.one_line(problems)}")
    return out, len(docs)


def main(argv):
    if len(argv) > 1 and argv[1] in ("-h", "--help"):
        print(__doc__.strip())
        return 0
    if len(argv) < 3:
        raise BadInput("usage: merge_summaries.py OUT.json IN1.json [IN2.json ...]")
    out_path, inputs = argv[1], argv[2:]
    command = " ".join([PROG] + argv[1:])
    out, n = merge(inputs, command)
    text = json.dumps(out, indent=2, allow_nan=False) + "\n"
    try:
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(text)
    except OSError as e:
        raise BadInput(f"{out_path}: cannot be written ({e.strerror or e})") from None
    print(f"{PROG}: wrote {out_path} ({len(out['metrics'])} metrics from {n} files, "
          f"{len(out.get('clocks', {}))} clocks)")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except BadInput as e:
        print(f"{PROG}: {e}", file=sys.stderr)
        sys.exit(2)
