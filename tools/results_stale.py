"""The section "Code changed since this set was made" of tools/results_md.py's results page.

    staleness(RESULTS_DIR, summary, repo, results, more_writers) -> the section, as Markdown

Which figures are the older code's is computed, never written by hand, from git in the checkout
results_md.py belongs to (its --repo names another):
- the producer of a results file is the program of its meta.command_line (examples/NAME.cu for
  a command whose first word ends in /NAME); its console output (NAME.txt), files its command
  line names (timers.md) and the plots scripts/plots.sh draws from it (`p FILE.json ... -o
  "$dir/NAME.png"`) are its figures too. A file that records no cuprobe producer (an ncu CSV,
  sparse_peer.json, ctest.log) is listed as not traced.
- a key of summary.json comes from one of the programs its "sources" name (or its "command"):
  the one whose code (its own file and the suite/ headers it includes; the library's headers
  name keys only to read them) holds the string literal that is the key or its longest dotted
  prefix ("tensor." + name), a literal in the program's own file or a header nearer to it in
  the include graph winning a tie, then the program whose summary file's name starts the key
  (gemm_summary.json: gemm.*), then summary.json's own writer (device_report). A key no rule
  decides counts under each program still tied.
- the files a program compiles: examples/NAME.cu and its #include closure, found by a small
  scanner (not the preprocessor): every `#include "..."` (resolved against the including file's
  folder, then include/ and suite/) and every `#include <cuprobe/...>` or
  `#include <cuprobe_suite/...>` (include/, then suite/), whatever #if surrounds it, so the
  closure may hold more than a build compiles, never less.
  Build files (CMake flags) and the tools that only render (tools/*.py) are not counted.
- a file changed when `git diff --name-only COMMIT -- FILES`, run at the repo root, names it
  (the working tree against the commit the files record, so that the page written before a
  commit equals the one written after it) or when it is absent from COMMIT's tree (new since).
Without git, a git checkout, or the commit (a shallow clone), the section says so in a sentence
and the page is still written.

Standard library only. results_md.py imports it from the folder beside it (a sys.path entry), as it
imports validate_results.py: results_md.py reads and checks the results files and hands them over;
this module reads the checkout (its sources, scripts/plots.sh) and asks git.
"""
import os
import re
import subprocess

# ---- What a program compiles, and which keys it writes ------------------------------------------

INCLUDE_ROOTS = ("include", "suite")
_INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^>"\n]+)[>"]', re.M)
# String literals, with comments matched (and dropped) so that a key named in a comment is not one.
_TOKEN_RE = re.compile(r'"(?:[^"\\\n]|\\.)*"|//[^\n]*|/\*.*?\*/|\'(?:[^\'\\\n]|\\.)*\'', re.S)
_PLOT_RE = re.compile(r'^\s*p\s+(\S+\.json)\s.*?-o\s+"\$dir/([^"]+)"', re.M)


class CodeTree:
    """The C++ sources of a checkout as the staleness check reads them, each file read once."""

    def __init__(self, repo):
        self.repo = repo
        self._files = {}  # repo-relative path -> (includes, literals)

    def exists(self, rel):
        return os.path.isfile(os.path.join(self.repo, rel))

    def _resolve(self, rel, kind, name):
        where = ([os.path.dirname(rel)] if kind == '"' else []) + list(INCLUDE_ROOTS)
        if kind == "<" and not name.startswith(("cuprobe/", "cuprobe_suite/")):
            return None  # a system or toolkit header
        for base in where:
            cand = os.path.normpath(os.path.join(base, name)).replace(os.sep, "/")
            if not cand.startswith("../") and self.exists(cand):
                return cand
        return None

    def scan(self, rel):
        if rel not in self._files:
            try:
                with open(os.path.join(self.repo, rel), encoding="utf-8", errors="replace") as f:
                    src = f.read()
            except OSError:
                src = ""
            incs = [r for r in (self._resolve(rel, k, n) for k, n in _INCLUDE_RE.findall(src)) if r]
            lits = {m.group(0)[1:-1] for m in _TOKEN_RE.finditer(src) if m.group(0)[0] == '"'}
            self._files[rel] = (incs, lits)
        return self._files[rel]

    def closure(self, rel):
        """{file: include depth} of rel and everything it includes (rel: depth 0)."""
        depth, todo = {rel: 0}, [rel]
        for f in todo:  # breadth first: a file's depth is its shortest include chain
            for inc in self.scan(f)[0]:
                if inc not in depth:
                    depth[inc] = depth[f] + 1
                    todo.append(inc)
        return depth


def program_of(command):
    """The example a command line ran ('/x/build/examples/gemm --json ...' -> 'gemm'), or None."""
    words = command.split() if isinstance(command, str) else []
    if not words:
        return None
    name = os.path.basename(words[0])
    return name if re.fullmatch(r"[A-Za-z0-9_]+", name) else None


def drop_dirty(commit):
    return commit[:-len("-dirty")] if commit.endswith("-dirty") else commit


def literals_of(tree, closure):
    """{string literal: the smallest include depth of a file of closure that holds it}, from the
    program's own file and the suite's headers: the library's blocks (include/) never write a
    program's headline keys, and name some of them only to read them (measure/ceilings.cuh)."""
    out = {}
    for f, depth in closure.items():
        if depth and not f.startswith("suite/"):
            continue
        for lit in tree.scan(f)[1]:
            if depth < out.get(lit, depth + 1):
                out[lit] = depth
    return out


def attribute_keys(keys, writers, literals):
    """{key: [programs]}: the program(s) each summary key comes from (the docstring's rules).
    writers: [(summary file name, program)], summary.json's own writer first; literals:
    {program: literals_of(its closure)}."""
    progs = sorted({p for _, p in writers if p in literals})
    out = {}
    for key in keys:
        parts = key.split(".")
        # the key itself, then its dotted prefixes with and without their dot, longest first
        cands = [key] + [c for i in range(len(parts) - 1, 0, -1)
                         for c in (".".join(parts[:i]) + ".", ".".join(parts[:i]))]
        ranked = []
        for name, p in writers:
            if p not in literals:
                continue
            hit = next((c for c in cands if c in literals[p]), None)
            stem = name[:-len("_summary.json")] if name.endswith("_summary.json") else None
            ranked.append(((len(hit.rstrip(".")) if hit else 0, -literals[p][hit] if hit else 0,
                            bool(stem) and key.startswith(stem + "."), name == "summary.json"), p))
        top = max((r for r, _ in ranked), default=None)
        if top is None or top[0] == 0:
            out[key] = progs  # no program names it: any of them may have written it
        else:
            out[key] = sorted({p for r, p in ranked if r == top})
    return out


def plot_sources(repo):
    """{plot file name or pattern (a regex): the results file scripts/plots.sh draws it from}."""
    try:
        with open(os.path.join(repo, "scripts", "plots.sh"), encoding="utf-8") as f:
            text = f.read().replace("\\\n", " ")
    except OSError:
        return {}
    var = r"\\\$(?:\\\{\w+\\\}|\w+)"  # $x or ${x}, as re.escape wrote it
    return {re.sub(var, ".+", re.escape(png)): src for src, png in _PLOT_RE.findall(text)}


# ---- git ----------------------------------------------------------------------------------------

def changed_files(repo, commit, files):
    """(the files of `files` that differ between commit and the working tree, None) or
    (None, why that is not known, as a sentence's clause)."""
    def git(*args):
        return subprocess.run(["git", "-C", repo, "-c", "core.quotepath=off", *args],
                              capture_output=True, text=True, timeout=60)
    try:
        top = git("rev-parse", "--show-toplevel")
        if not re.fullmatch(r"[0-9a-fA-F]{4,64}", commit):
            res = None, f"the commit the set records, {commit!r}, is not a commit id"
        elif top.returncode != 0 or os.path.realpath(top.stdout.strip()) != os.path.realpath(repo):
            res = None, f"{repo} is not a git checkout"
        elif git("cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
            res = None, f"commit {commit} is not in this checkout (a shallow clone?)"
        else:
            diff = git("diff", "--name-only", commit, "--", *files)
            tree = git("ls-tree", "-r", "--name-only", commit, "--", *files)
            if diff.returncode != 0 or tree.returncode != 0:
                res = None, f"git diff failed ({(diff.stderr or tree.stderr).strip()[:200]})"
            else:
                known = set(tree.stdout.split("\n"))
                res = set(diff.stdout.split("\n")) & set(files) | {f for f in files if f not in known}, None
    except FileNotFoundError:
        res = None, "git is not installed"
    except (OSError, subprocess.SubprocessError) as e:
        res = None, f"git could not be run ({e})"
    return res


# ---- The section's text -------------------------------------------------------------------------

def short_keys(mine, every):
    """mine (a list of keys) in few words: a dotted prefix whose keys in `every` are all mine,
    as `prefix.*` (N keys), else the key itself."""
    mine_set, out = set(mine), []
    for key in mine:
        parts, label = key.split("."), f"`{key}`"
        for i in range(1, len(parts)):
            prefix = ".".join(parts[:i]) + "."
            members = [k for k in every if k.startswith(prefix)]
            if len(members) >= 2 and all(k in mine_set for k in members):
                label = f"`{prefix}*` ({len(members)} keys)"
                break
        if label not in out:
            out.append(label)
    return out


def n_files(n):
    return f"{n} file" + ("" if n == 1 else "s")


def code_list(items):
    return ", ".join(f"`{x}`" for x in items)


def staleness(d, s, repo, results, more_writers=()):
    """The section "Code changed since this set was made", as Markdown.
    results: {stored file name: document or None} of the folder's JSON files but the summaries;
    more_writers: [(NAME_summary.json, its command)] of headline files merged into s here."""
    tree = CodeTree(repo)
    # What each producer wrote: (program, commit) -> {"keys": [...], "files": [...]}.
    units, untraced, meta_of = {}, [], {}
    for name, doc in sorted(results.items()):
        meta = doc.get("meta") if isinstance(doc, dict) else None
        prog = program_of(meta.get("command_line")) if isinstance(meta, dict) else None
        commit = meta.get("commit") if isinstance(meta, dict) else None
        if prog and isinstance(commit, str) and commit:
            meta_of[name] = (prog, drop_dirty(commit),
                             set(meta["command_line"].split()[1:]))
    stems = {n.split(".")[0]: v for n, v in meta_of.items()}
    plots = plot_sources(repo)
    for name in sorted(os.listdir(d)):
        if name in ("README.md", "summary.json") or name.endswith("_summary.json"):
            continue
        owner = meta_of.get(name) or stems.get(name.split(".")[0]) or next(
            (v for v in meta_of.values() if name in v[2]), None)
        if owner is None and name.endswith(".png"):
            src = next((src for pat, src in plots.items() if re.fullmatch(pat, name)), None)
            owner = stems.get(src.split(".")[0]) if src else None
        if owner is None:
            untraced.append(name)
        else:
            units.setdefault(owner[:2], {"keys": [], "files": []})["files"].append(name)
    sources = s.get("sources") if isinstance(s.get("sources"), dict) else {"summary.json": s["command"]}
    writers = [(n, program_of(c)) for n, c in list(sources.items()) + list(more_writers)]
    writers.sort(key=lambda w: w[0] != "summary.json")
    programs = {p for _, p in writers if p} | {p for p, _ in units}
    closures = {p: tree.closure(f"examples/{p}.cu") for p in sorted(programs)
                if tree.exists(f"examples/{p}.cu")}
    commit = drop_dirty(str(s.get("commit", "")))
    keys = list(s["metrics"])
    literals = {p: literals_of(tree, c) for p, c in closures.items()}
    for key, progs in attribute_keys(keys, [(n, p) for n, p in writers if p], literals).items():
        for p in progs:
            units.setdefault((p, commit), {"keys": [], "files": []})["keys"].append(key)
    out = ["## Code changed since this set was made\n",
           "Computed by `tools/results_md.py` from git, never written by hand: for each program "
           "that wrote figures of this set, the files it compiles (`examples/PROGRAM.cu` and its "
           "`#include` closure over `include/` and `suite/`) that differ between the commit its "
           "files record and this checkout's working tree. The figures listed are the older "
           "code's until the set is made again.\n"]
    no_source = sorted({p for p, _ in units if p not in closures})
    per_commit = {}  # one git call for all the programs of a commit
    for (p, c), u in units.items():
        if p in closures:
            per_commit.setdefault(c, set()).update(closures[p])
    diffs = {c: changed_files(repo, c, sorted(files)) if c and c != "unknown" else
             (None, "the set records no commit") for c, files in per_commit.items()}
    stale, fresh, unknown = [], [], []
    for (p, c), u in sorted(units.items()):
        if p not in closures:
            continue
        files = sorted(closures[p])
        changed, why = diffs[c]
        changed = changed & set(files) if changed is not None else None
        if why:
            unknown.append(why)
        elif changed:
            stale.append((p, c, sorted(changed), u))
        else:
            fresh.append(p)
    if unknown:
        out.append("Whether the code changed since this set was made is not known here: "
                   + "; ".join(sorted(set(unknown))) + ".\n")
    elif not stale:
        out.append(f"Nothing changed: no file these programs compile differs from commit `{commit}`"
                   " in this checkout, so every figure here is the current code's.\n")
    if stale:
        commits = sorted({x[1] for x in stale})
        since = (lambda c: f" since `{c}`") if len(commits) > 1 else (lambda c: "")
        groups = {}  # (commit, the changed files but the programs' own) -> programs
        for p, c, changed, u in stale:
            shared = tuple(f for f in changed if f != f"examples/{p}.cu")
            if shared:
                groups.setdefault((c, shared), []).append(p)
        if groups:
            out.append("Changed files, by the programs that compile them (a program's own "
                       "`examples/PROGRAM.cu` is named with its figures):\n")
            common = set.intersection(*(set(g) for _, g in groups)) if len(groups) > 1 else set()
            if common:
                out.append(f"- every program below: {code_list(sorted(common))} ({n_files(len(common))})")
            for (c, shared), progs in sorted(groups.items(), key=lambda g: (-len(g[1]), g[1])):
                rest = [f for f in shared if f not in common]
                out.append(f"- {code_list(progs)}{since(c)}: " + (
                    f"also {code_list(rest)} ({n_files(len(shared))} in all)" if common and rest else
                    f"{code_list(rest)} ({n_files(len(rest))})" if rest else "those above"))
            out.append("")
        out.append("The figures that are the older code's, by program:\n")
        for p, c, changed, u in stale:
            own = f"examples/{p}.cu"
            head = f"- **{p}**" + (f" (`{own}` changed{since(c)})" if own in changed else since(c))
            what = []
            if u["keys"]:
                what.append("summary.json keys " + ", ".join(short_keys(u["keys"], keys)))
            if u["files"]:
                what.append("files " + code_list(sorted(u["files"])))
            out.append(head + ": " + ("; ".join(what) or "no figure of this set") + ".")
        out.append("")
        if fresh:
            out.append(f"Unchanged, their figures the current code's: {code_list(sorted(fresh))}.\n")
    if no_source:
        out.append(f"Programs without a source in `examples/` (not checked): {code_list(no_source)}.\n")
    if untraced:
        def told(name):  # a file that names the command that wrote it (sparse_peer.json) says so
            cmd = results.get(name).get("command") if isinstance(results.get(name), dict) else None
            return f"`{name}`" + (f" (by `{cmd}`)" if isinstance(cmd, str) and cmd else "")
        out.append("Not traced (no cuprobe program and commit recorded in the file or in "
                   f"summary.json, so their age is not known here): {', '.join(map(told, untraced))}.\n")
    return "\n".join(out)
