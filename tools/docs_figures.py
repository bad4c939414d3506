#!/usr/bin/env python3
"""Figures in the docs, quoted from a reference set by key, never typed in.

In README.md and docs/*.md a measured figure is written as a marker

    <!--fig h200 dram.read.tbps .2f-->4.64<!--/fig--> TB/s

where `h200` names the reference set (docs/results/h200/summary.json, schema cuprobe.summary/1:
{"metrics": {key: number}}), `dram.read.tbps` a key of its "metrics" and `.2f` a Python format
spec (optional: without it the value is formatted with str()). The text between the two comments
is what a reader sees; it must equal format(value, spec). A figure whose key the reference set
does not hold yet is written as `<!--fig-todo KEY-->` (no text), to be turned into a marker when
the set has it.

    docs_figures.py --check     every marker names a key of its set and shows its value
                                (one line "page:line: ..." per problem, exit status 1)
    docs_figures.py --update    rewrites each marker's text from the set (unknown keys are
                                reported as in --check and leave the exit status 1)
    docs_figures.py --list      the keys the markers use, one per line ("set key"), sorted
    docs_figures.py --todo      the keys of the fig-todo markers, with their pages and lines

    --summary PATH    read every set from this file instead of docs/results/<set>/summary.json
    --docs FILE...    the pages to read instead of README.md and docs/*.md
    --root DIR        the repository (default: the folder above tools/)

Markers inside fenced code blocks and inside `inline code` are not figures and are skipped
(pages may show the syntax). Standard library only.
"""
import argparse
import glob
import json
import os
import re
import sys

MARKER = re.compile(r"<!--fig\s+(?P<set>[A-Za-z0-9_.-]+)\s+(?P<key>[^\s>]+)(?:\s+(?P<spec>[^\s>]+))?\s*-->"
                    r"(?P<text>.*?)<!--/fig-->")
OPENING = re.compile(r"<!--fig\s")
TODO = re.compile(r"<!--fig-todo\s+(?P<key>[^\s>]+)\s*-->")
FENCE = re.compile(r"^\s*(```|~~~)")
CODE_SPAN = re.compile(r"(`+)(?:.+?)\1")


def code_spans(line):
    """(start, end) of each `inline code` span of a line."""
    return [m.span() for m in CODE_SPAN.finditer(line)]


def inside(pos, spans):
    return any(a <= pos < b for a, b in spans)


def scan(path):
    """Yields (line number, line text, in code) for every line of a page."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fenced = False
    for n, line in enumerate(lines, 1):
        if FENCE.match(line):
            fenced = not fenced
            yield n, line, True
            continue
        yield n, line, fenced


class Sets:
    """The reference sets, read once each; --summary overrides every set's file."""

    def __init__(self, root, override):
        self.root, self.override, self.cache = root, override, {}

    def path(self, name):
        return self.override or os.path.join(self.root, "docs", "results", name, "summary.json")

    def metrics(self, name):
        if name not in self.cache:
            path = self.path(name)
            try:
                with open(path, encoding="utf-8") as f:
                    data = json.load(f)
                metrics = data.get("metrics") if isinstance(data, dict) else None
                if not isinstance(metrics, dict):
                    raise ValueError("no \"metrics\" object (schema cuprobe.summary/1)")
                self.cache[name] = (metrics, None)
            except (OSError, ValueError) as e:
                self.cache[name] = ({}, f"{path}: {e}")
        return self.cache[name]


def formatted(value, spec):
    if spec is None:
        return str(value)
    return format(value, spec)


def expected_text(sets, m):
    """(text the marker must show, problem) for one marker match."""
    metrics, error = sets.metrics(m.group("set"))
    key, spec = m.group("key"), m.group("spec")
    if error:
        return None, f"reference set '{m.group('set')}' unreadable: {error}"
    if key not in metrics:
        return None, f"unknown key '{key}' (not in {sets.path(m.group('set'))})"
    value = metrics[key]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None, f"key '{key}' is not a number ({value!r})"
    try:
        return formatted(value, spec), None
    except (ValueError, TypeError) as e:
        return None, f"key '{key}': format spec '{spec}' does not apply to {value!r} ({e})"


def markers(line):
    """Marker matches of a line outside inline code, and unterminated openings."""
    spans = code_spans(line)
    found = [m for m in MARKER.finditer(line) if not inside(m.start(), spans)]
    covered = [(m.start(), m.end()) for m in found]
    broken = [o.start() for o in OPENING.finditer(line)
              if not inside(o.start(), spans) and not inside(o.start(), covered)]
    return found, broken


def check_page(path, label, sets, update):
    """Problems of one page; with update, the page is rewritten where a value differs."""
    problems, out, changed, count = [], [], False, 0
    for n, line, code in scan(path):
        if code:
            out.append(line)
            continue
        found, broken = markers(line)
        for _ in broken:
            problems.append(f"{label}:{n}: a '<!--fig' marker without its '<!--/fig-->' on the same "
                            "line, or without a set and a key")
        pieces, last = [], 0
        for m in found:
            count += 1
            want, problem = expected_text(sets, m)
            if problem:
                problems.append(f"{label}:{n}: {problem}")
                continue
            if m.group("text") != want:
                if update:
                    pieces.append(line[last:m.start("text")] + want)
                    last = m.end("text")
                    changed = True
                else:
                    problems.append(f"{label}:{n}: '{m.group('key')}' shows '{m.group('text')}', "
                                    f"the reference set gives '{want}'")
        pieces.append(line[last:])
        out.append("".join(pieces))
    if update and changed:
        with open(path, "w", encoding="utf-8") as f:
            f.write("\n".join(out))
    return problems, count, changed


def todos(path, label):
    for n, line, code in scan(path):
        if code:
            continue
        spans = code_spans(line)
        for m in TODO.finditer(line):
            if not inside(m.start(), spans):
                yield label, n, m.group("key")


def used_keys(path):
    for _, line, code in scan(path):
        if not code:
            for m in markers(line)[0]:
                yield m.group("set"), m.group("key")


def main(argv):
    p = argparse.ArgumentParser(description="Figures in the docs, quoted from a reference set by key.")
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="verify every marker (exit 1 on a problem)")
    mode.add_argument("--update", action="store_true", help="rewrite each marker's text from the set")
    mode.add_argument("--list", action="store_true", help="the keys the markers use")
    mode.add_argument("--todo", action="store_true", help="the keys of the fig-todo markers")
    p.add_argument("--summary", metavar="PATH", help="the summary JSON to read for every set")
    p.add_argument("--docs", metavar="FILE", nargs="+", help="pages (default: README.md and docs/*.md)")
    p.add_argument("--root", metavar="DIR", help="the repository (default: the folder above tools/)")
    a = p.parse_args(argv)

    root = os.path.abspath(a.root or os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    pages = a.docs or [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    missing = [d for d in pages if not os.path.isfile(d)]
    if missing:
        for d in missing:
            print(f"{d}: no such page", file=sys.stderr)
        return 2

    def label(path):
        rel = os.path.relpath(os.path.abspath(path), root)
        return path if rel.startswith("..") else rel

    if a.list:
        for s, k in sorted({sk for d in pages for sk in used_keys(d)}):
            print(f"{s} {k}")
        return 0
    if a.todo:
        for page, n, key in (t for d in pages for t in todos(d, label(d))):
            print(f"{page}:{n}: {key}")
        return 0

    sets = Sets(root, a.summary)
    problems, total, rewritten = [], 0, []
    for d in pages:
        pr, count, changed = check_page(d, label(d), sets, a.update)
        problems += pr
        total += count
        if changed:
            rewritten.append(label(d))
    for line in problems:
        print(line)
    for page in rewritten:
        print(f"docs_figures: updated {page}")
    if problems:
        print(f"docs_figures: FAILED ({len(problems)} problem(s) in {total} marker(s) of {len(pages)} page(s))")
        return 1
    print(f"docs_figures: OK ({total} marker(s) in {len(pages)} page(s))")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
