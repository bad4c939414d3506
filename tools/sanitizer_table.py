#!/usr/bin/env python3
"""sanitizer_table: the compute-sanitizer table of scripts/gpu-check.sh, from one or more of its
run lists (sanitizer/table.txt), as Markdown.

    tools/sanitizer_table.py [-o sanitizer.md] [--merged table.txt] TABLE.txt [TABLE.txt ...]

Each line of a run list is one run, "TOOL PROGRAM ERRORS RC SECONDS": ERRORS is the count of the
tool's ERROR SUMMARY (racecheck: errors + warnings of its RACECHECK SUMMARY), or TIMEOUT, CRASH or
not_run; RC and SECONDS are "-" for a run that was not reached. Several lists (gpu-check run in
parts) are merged run by run: a run (TOOL, PROGRAM) of a later list replaces the same run of an
earlier one, so that a part that reran a program supersedes the first attempt.

--merged writes the merged list back (sorted). The table has one row per program and one column
per tool; the last line counts the runs that are not clean (errors, a non-zero exit status, a
timeout, a crash or not reached). Exit status 0, 1 when a run is not clean, 2 on bad input (one
sentence naming the file and the line).
"""
import argparse
import sys

TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")


def read(paths):
    runs = {}
    for path in paths:
        try:
            lines = open(path, encoding="utf-8").read().splitlines()
        except OSError as e:
            raise ValueError(f"{path}: cannot be read ({e.strerror or e})")
        for i, line in enumerate(lines, 1):
            if not line.strip():
                continue
            f = line.split()
            if len(f) != 5 or f[0] not in TOOLS:
                raise ValueError(f"{path}:{i}: not a run line \"TOOL PROGRAM ERRORS RC SECONDS\" "
                                 f"with TOOL one of {', '.join(TOOLS)}: {line!r}")
            runs[(f[0], f[1])] = f[2:]
    return runs


def clean(errors, rc):
    return errors == "0" and rc == "0"


def cell(errors, rc, seconds):
    out = errors
    if errors.isdigit() and rc not in ("0", "-"):
        out += f" (rc {rc})"
    if seconds.isdigit():
        out += f" {seconds}s"
    return out


def markdown(runs):
    programs = sorted({p for _, p in runs})
    rows = ["| program | " + " | ".join(TOOLS) + " |", "| --- |" + " ---: |" * len(TOOLS)]
    for p in programs:
        rows.append(f"| {p} | " + " | ".join(cell(*runs[(t, p)]) if (t, p) in runs else "" for t in TOOLS) + " |")
    bad = sum(1 for e, rc, _ in runs.values() if not clean(e, rc))
    rows += ["",
             "Each cell: errors in the ERROR SUMMARY (racecheck: errors + warnings of its RACECHECK",
             "SUMMARY; memcheck without API errors), then seconds. TIMEOUT: over CUPROBE_SANITIZE_LIMIT;",
             "CRASH: no summary; not_run: the pass ran out of CUPROBE_SANITIZE_TOTAL first.",
             "",
             f"{len(runs)} runs over {len(programs)} programs; {bad} not clean or not run."]
    return "\n".join(rows) + "\n", bad


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("tables", nargs="+")
    p.add_argument("-o", "--output")
    p.add_argument("--merged")
    a = p.parse_args(argv)
    try:
        runs = read(a.tables)
    except ValueError as e:
        print(f"sanitizer_table: {e}", file=sys.stderr)
        return 2
    text, bad = markdown(runs)
    if a.merged:
        with open(a.merged, "w", encoding="utf-8") as f:
            f.writelines(f"{t} {p} {' '.join(v)}\n" for (t, p), v in sorted(runs.items()))
    if a.output:
        with open(a.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
