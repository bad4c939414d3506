#!/usr/bin/env python3
"""host tier: tools/validate_results.py, plot.py, results_md.py, ncu_table.py on bad and good
input, the pure parts and refusals of the peer tools (torch_collectives.py, sparse_peer.py), and
scripts/reference-set.sh on a set made of two parts (and refusing parts of two commits; without
OUT_DIR, into docs/results/<the summary's GPU model>), scripts/reference-part.sh's three parts
(every example once; one part packed, against a stand-in gpu-check.sh), tools/gpu_model.py's
folder rule, and
results_md.py's computed staleness section ("Code changed since this set was made") on a
throwaway git repository: a changed header, a new one, nothing changed, a commit the checkout
lacks, no git checkout, no git at all.

Each tool runs on an empty file, malformed JSON, a binary (non-UTF-8) file, a missing path, a
directory, a wrong field type, a valid cuprobe.results/1 file, a valid /2 file, several files
with bad ones in the middle (those after them are still checked) and a summary the validator
accepts that lacks the optional device fields. Every run is checked for its exit status, for no
"Traceback" in stdout or stderr, and for exactly one output line naming each bad file. The
checked-in H200 results (docs/results/h200) must still validate and render without a complaint,
and the page regenerated from them must equal the committed docs/results/h200/README.md (after
code changes: python3 tools/results_md.py docs/results/h200).

Only the plots that are drawn need matplotlib (refusals come before it is imported): without
it, everything else runs, then the test exits 77 (CTest: skipped) with a SKIPPED line.
"""
import copy
import glob
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOLS = os.path.join(root, "tools")
VALIDATE = [sys.executable, os.path.join(TOOLS, "validate_results.py")]
PLOT = [sys.executable, os.path.join(TOOLS, "plot.py")]
RESULTS_MD = [sys.executable, os.path.join(TOOLS, "results_md.py")]
GPU_MODEL = [sys.executable, os.path.join(TOOLS, "gpu_model.py")]
NCU_TABLE = [sys.executable, os.path.join(TOOLS, "ncu_table.py")]
HAVE_MPL = importlib.util.find_spec("matplotlib") is not None

failures, checks = [], 0


# ---- Fixtures ----------------------------------------------------------------------------------

META = {k: "x" for k in ("library_version", "date", "command_line", "compile_flags", "commit")}
DEVICE = {"name": "Test GPU", "compute_capability": "9.0", "uuid": "GPU-0", "sm_count": 2}


def import_tool(name):
    """The module tools/NAME.py, imported from the tools folder."""
    import importlib
    sys.path.insert(0, TOOLS)
    try:
        return importlib.import_module(name)
    finally:
        sys.path.pop(0)


def summary_of(samples):
    s = sorted(samples)
    mean = sum(s) / len(s)
    sd = (sum((x - mean) ** 2 for x in s) / max(1, len(s) - 1)) ** 0.5
    return {"count": len(s), "min": s[0], "median": s[len(s) // 2], "mean": mean, "max": s[-1],
            "stdev": sd, "rel_stdev": sd / mean if mean else None}


def bench_v1(name, params, gbps, samples=(1e-3, 1.1e-3)):
    return {"name": name, "params": params, "work": {"accounting": "read: N bytes"},
            "samples_s": list(samples), "summary": summary_of(samples),
            "rates": {"seconds": sorted(samples)[len(samples) // 2], "gb_per_s": gbps},
            "environment": {"before": {}, "after": {}}, "flags": []}


def bench_v2(name, params, unit, samples, **rates):
    b = bench_v1(name, params, None, [1.0])
    del b["samples_s"]
    b.update(unit=unit, samples=list(samples), summary=summary_of(samples))
    median = b["summary"]["median"]
    seconds = {"seconds": median, "nanoseconds": median * 1e-9, "cycles": median / 1e9}.get(unit)
    b["rates"] = {"seconds": seconds, "clock_mhz": 1000.0, **rates}
    return b


def results_v1(benches, extra=None):
    return {"schema": "cuprobe.results/1", "meta": META, "device": DEVICE, "benchmarks": benches,
            "extra": extra or {}}


def results_v2(benches, extra=None):
    return dict(results_v1(benches, extra), schema="cuprobe.results/2")


V1 = results_v1([bench_v1("dram.read", {"threads": t, "bytes": t * 1024, "case": f"c{t % 3}"},
                          100.0 + t) for t in (64, 128, 256, 512)])
V2 = results_v2(
    [bench_v2("latency.chase", {"bytes": 4096 << i, "load": "ld.global"}, "cycles",
              [30.0 + i, 31.0 + i, 32.0 + i], cycles_per_op=31.0 + i) for i in range(4)]
    + [bench_v2("timer.tick", {"bytes": 1}, "nanoseconds", [32.0, 32.0]),
       bench_v2("timer.seconds", {"bytes": 2}, "seconds", [2e-6, 3e-6]),
       bench_v2("model.error", {"bytes": 3}, "value", [-1.5, 0.0, 2.5])])
SUMMARY = {"schema": "cuprobe.summary/1", "device": dict(DEVICE), "commit": "abc",
           "command": "device_report --summary summary.json", "date": "2026-11-29T00:00:00Z",
           "metrics": {"timer.globaltimer.tick_ns": 32.0, "dram.read.tbps": 4.6}}


def mutate(doc, fn):
    d = copy.deepcopy(doc)
    fn(d)
    return d


WRONG_TYPE = mutate(V1, lambda d: d["benchmarks"][1]["rates"].__setitem__("gb_per_s", "fast"))
# cuprobe.results/2 rules that a type alone cannot say, each broken once.
V2_BAD = {
    "v2_cycles_not_positive": lambda d: d["benchmarks"][0]["samples"].__setitem__(0, 0.0),
    "v2_count_mismatch": lambda d: d["benchmarks"][1]["summary"].__setitem__("count", 7),
    "v2_min_mismatch": lambda d: d["benchmarks"][2]["summary"].__setitem__("min", 1.0),
    "v2_unknown_unit": lambda d: d["benchmarks"][0].__setitem__("unit", "furlongs"),
    "v2_value_has_seconds": lambda d: d["benchmarks"][6]["rates"].__setitem__("seconds", 1.0),
    "v2_cycles_without_seconds": lambda d: d["benchmarks"][0]["rates"].__setitem__("seconds", None),
    "v2_seconds_not_the_median": lambda d: d["benchmarks"][5]["rates"].__setitem__("seconds", 1e-3),
    "v2_ns_seconds_not_the_median": lambda d: d["benchmarks"][4]["rates"].__setitem__("seconds", 32.0),
    "v2_samples_s_instead": lambda d: d["benchmarks"][0].update(samples_s=d["benchmarks"][0].pop("samples")),
    "v2_value_sample_text": lambda d: d["benchmarks"][6]["samples"].__setitem__(1, "n/a"),
}


def write(path, content):
    mode = "wb" if isinstance(content, bytes) else "w"
    with open(path, mode) as f:
        f.write(content if isinstance(content, (bytes, str)) else json.dumps(content))
    return path


def make_bad(d):
    """The bad kinds every tool must refuse with one line: name -> path."""
    os.makedirs(os.path.join(d, "directory.json"), exist_ok=True)
    return {
        "empty": write(os.path.join(d, "empty.json"), ""),
        "malformed": write(os.path.join(d, "malformed.json"), '{"schema": "cuprobe.results/1", '),
        "binary": write(os.path.join(d, "binary.json"), b"\x89PNG\r\n\x1a\n\xff\xfe\x00\x01"),
        "missing": os.path.join(d, "missing.json"),
        "directory": os.path.join(d, "directory.json"),
        "wrong_type": write(os.path.join(d, "wrong_type.json"), WRONG_TYPE),
    }


# ---- Running and checking ----------------------------------------------------------------------

def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    return r.returncode, r.stdout + r.stderr


def expect(what, cmd, rc, bad=(), good_line=(), absent=()):
    """Run cmd; rc: the exit status wanted; bad: paths named by exactly one line each;
    good_line: exact lines wanted once; absent: paths that must not exist afterwards."""
    global checks
    checks += 1
    for p in absent:  # left by an earlier run
        if os.path.isfile(p):
            os.remove(p)
    code, out = run(cmd)
    lines = out.splitlines()
    problems = []
    if code != rc:
        problems.append(f"exit status {code}, expected {rc}")
    if "Traceback" in out:
        problems.append("a traceback was printed")
    for p in bad:
        n = sum(p in line for line in lines)
        if n != 1:
            problems.append(f"{n} lines name {p}, expected exactly 1")
    for g in good_line:
        if lines.count(g) != 1:
            problems.append(f"the line {g!r} is not there exactly once")
    for p in absent:
        if os.path.exists(p):
            problems.append(f"{p} was written")
    if problems:
        failures.append(f"{what}: " + "; ".join(problems) + "\n    " + "\n    ".join(lines[:20]))
    return out


def is_png(path):
    if not os.path.isfile(path):
        return False
    with open(path, "rb") as f:
        return f.read(8) == b"\x89PNG\r\n\x1a\n" and os.path.getsize(path) > 2000


# ---- validate_results.py -----------------------------------------------------------------------

def check_validator(d):
    bad = make_bad(d)
    v1, v2 = write(os.path.join(d, "v1.json"), V1), write(os.path.join(d, "v2.json"), V2)
    s = write(os.path.join(d, "summary_min.json"), SUMMARY)
    for kind, path in bad.items():
        expect(f"validate {kind}", VALIDATE + [path], 1, bad=[path])
    # Cycles without a clock to convert them: rates.seconds is null, and that is valid.
    no_clock = write(os.path.join(d, "v2_cycles_no_clock.json"),
                     mutate(V2, lambda x: x["benchmarks"][0]["rates"].update(seconds=None, clock_mhz=None)))
    for path in (v1, v2, s, no_clock):
        expect(f"validate {os.path.basename(path)}", VALIDATE + [path], 0, good_line=[f"{path}: valid"])
    for name, fn in V2_BAD.items():
        path = write(os.path.join(d, name + ".json"), mutate(V2, fn))
        expect(f"validate {name}", VALIDATE + [path], 1, bad=[path])
    for name, fn in {
        "v1_zero_sample": lambda x: x["benchmarks"][0]["samples_s"].__setitem__(0, 0),
        "v1_sm_count_text": lambda x: x["device"].__setitem__("sm_count", "2"),
        "v1_bool_as_number": lambda x: x["benchmarks"][0]["summary"].__setitem__("median", True),
        "v1_unknown_schema": lambda x: x.__setitem__("schema", "cuprobe.results/9"),
        "v1_top_level_list": None,
        "summary_no_device_name": "summary",
    }.items():
        if fn is None:
            content = "[1, 2]"
        elif fn == "summary":
            content = mutate(SUMMARY, lambda x: x["device"].pop("name"))
        else:
            content = mutate(V1, fn)
        path = write(os.path.join(d, name + ".json"), content)
        expect(f"validate {name}", VALIDATE + [path], 1, bad=[path])
    # Bad files in the middle: the ones after them are still checked and reported.
    order = [v1, bad["empty"], v2, bad["malformed"], bad["binary"], s, bad["missing"],
             bad["directory"], bad["wrong_type"], v1]
    expect("validate several", VALIDATE + order[:-1], 1, bad=list(bad.values()),
           good_line=[f"{v1}: valid", f"{v2}: valid", f"{s}: valid"])
    expect("validate without files", VALIDATE, 2)
    real = sorted(glob.glob(os.path.join(root, "docs", "results", "h200", "*.json")))
    if real:
        expect("validate docs/results/h200", VALIDATE + real, 0, good_line=[f"{p}: valid" for p in real])


# ---- plot.py -----------------------------------------------------------------------------------

def check_plot(d):
    bad = make_bad(d)
    v1, v2 = write(os.path.join(d, "v1.json"), V1), write(os.path.join(d, "v2.json"), V2)
    s = write(os.path.join(d, "summary_min.json"), SUMMARY)
    out = os.path.join(d, "out.png")
    line = ["line", "--x", "bytes", "--y", "rates.gb_per_s", "-o", out]
    for kind, path in list(bad.items()) + [("summary", s)]:
        expect(f"plot {kind}", PLOT + line[:1] + [path] + line[1:], 1, bad=[path], absent=[out])
    expect("plot several", PLOT + ["line", v1, bad["empty"], v1, bad["binary"], bad["missing"],
                                   bad["wrong_type"]] + line[1:], 1,
           bad=[bad["empty"], bad["binary"], bad["missing"], bad["wrong_type"]], absent=[out])
    refusals = {
        "nothing selected": ["bar", v1, "--value", "rates.gb_per_s", "--where", "name=none"],
        "no value anywhere": ["line", v1, "--x", "bytes", "--y", "rates.tflop_per_s"],
        "text on a line's y": ["line", v2, "--x", "bytes", "--y", "params.load"],
        "list as a value": ["bar", v2, "--value", "samples"],
        "object as a heatmap axis": ["heatmap", v1, "--x", "environment.before", "--y", "threads", "--value", "rates.gb_per_s"],
        "non-positive on a log axis": ["line", v2, "--x", "bytes", "--y", "summary.min", "--logy",
                               "--name-prefix", "model"],
    }
    for what, args in refusals.items():
        named = [] if what in ("nothing selected", "no value anywhere") else [args[1]]
        text = expect(f"plot refuses {what}", PLOT + args + ["-o", out], 1, bad=named, absent=[out])
        if not named and len(text.strip().splitlines()) != 1:
            failures.append(f"plot refuses {what}: expected one line, got {text!r}")
    if not HAVE_MPL:
        return ["plot.py drawing valid /1 and /2 files"]
    draws = {
        "v1 line": ["line", v1, "--x", "bytes", "--y", "rates.gb_per_s", "--logx"],
        "v2 line in cycles": ["line", v2, "--x", "bytes", "--y", "summary.median", "--where", "unit=cycles", "--logx"],
        "v2 bar of values": ["bar", v2, "--label", "name", "--value", "summary.mean"],
        "v1 + v2 heatmap": ["heatmap", v1, v2, "--x", "bytes", "--y", "name", "--value", "summary.min"],
    }
    for i, (what, args) in enumerate(draws.items()):
        target = os.path.join(d, f"draw{i}.png")
        expect(f"plot {what}", PLOT + args + ["-o", target], 0)
        if not is_png(target):
            failures.append(f"plot {what}: {target} is not a PNG of some size")
    missing_dir = os.path.join(d, "no_such_dir", "x.png")
    expect("plot into a missing folder", PLOT + ["line", v1, "--x", "bytes", "--y", "rates.gb_per_s",
                                                 "-o", missing_dir], 1, bad=[missing_dir])
    return []


# ---- results_md.py -----------------------------------------------------------------------------

EXTRA = {
    "fma_throughput.json": {"fma_throughput": {
        "by_block": {"256": {"best_tflops": 60.5, "best_fraction_of_peak": 0.97, "chains_to_97pct": 4,
                             "first_chains_with_lower_occupancy": -1}},
        "peak_source": "test", "latency_cycles": 4.0}},
    "instruction_table.json": {"instruction_table": {"markdown": "| op |\n| --- |\n| fma |\n"}},
    "dram_bandwidth.json": {"dram_bandwidth": {
        "nominal_gb_per_s": 4800.0, "memcpy_gb_per_s": 4200.0,
        "best_by_case": {"read float": {"gb_per_s": 4600.0, "config": "4x256"}}}},
    "latency_ladder.json": {"latency_ladder": {"levels": {"L1": 32.0, "DRAM": 690.0},
                                               "sm_clock_mhz": 1980.0, "plateaus": "plateau 1\n"}},
    "cache_bandwidth.json": {"cache_bandwidth": {"l1_gb_per_s": 21796.5, "l2_gb_per_s": 7029.5,
                                                 "dram_gb_per_s": 4565.5}},
    "memory_ordering.json": {"memory_ordering": {"patterns": {"fence_then_atomic": 300},
                                                 "fence_cycles": {"fence.sc.gpu.x32": {"cycles_per_fence": 536.5}}}},
}


BENCHES = {
    "latency_ladder.json": [bench_v2("latency.tlb", {"load": "ld.global.cg", "bytes": 2**30, "pages_2mib": 512},
                                     "cycles", [700.0], cycles_per_op=700.0)],
    "dram_bandwidth.json": [dict(bench_v1("stream.read", {"case": "read float"}, 4900.0),
                                 flags=[{"code": "above_dram_peak", "message": "test"}])],
}
# An ncu --csv file: header, units, one kernel; most of the columns results_md shows are absent.
NCU = ('"ID","Kernel Name","l1tex__t_sector_hit_rate.pct"\n"","","%"\n'
       '"0","void stream_pass_kernel<0, float, 1, 1, 1>(float*)","99.5"\n')


def results_dir(d, name, files):
    folder = os.path.join(d, name)
    os.makedirs(folder)
    for f, content in files.items():
        if content == "dir":
            os.makedirs(os.path.join(folder, f))
        elif content is not None:
            os.makedirs(os.path.dirname(os.path.join(folder, f)), exist_ok=True)
            write(os.path.join(folder, f), content)
    return folder


def on_page(what, folder, wanted):
    """Each of wanted is on folder's README.md."""
    page = os.path.join(folder, "README.md")
    text = open(page, encoding="utf-8").read() if os.path.isfile(page) else ""
    for w in wanted:
        if w not in text:
            failures.append(f"{what}: {w!r} is not on the page")


def check_results_md(d):
    v2_parts = ("fma_throughput.json", "latency_ladder.json", "memory_ordering.json")
    good = {f: (results_v2 if f in v2_parts else results_v1)(BENCHES.get(f, []), extra)
            for f, extra in EXTRA.items()}
    # The folder itself: missing, a file, without summary.json.
    nowhere = os.path.join(d, "nowhere")
    expect("results_md missing folder", RESULTS_MD + [nowhere], 1, bad=[nowhere])
    a_file = write(os.path.join(d, "a_file.json"), SUMMARY)
    expect("results_md on a file", RESULTS_MD + [a_file], 1, bad=[a_file])
    folder = results_dir(d, "no_summary", {})
    expect("results_md without summary.json", RESULTS_MD + [folder], 1,
           bad=[os.path.join(folder, "summary.json")], absent=[os.path.join(folder, "README.md")])
    # A bad summary.json: no page, one line, and the file after it is still checked.
    wrong = mutate(SUMMARY, lambda x: x["metrics"].__setitem__("dram.read.tbps", "4.6"))
    for kind, content in {"empty": "", "malformed": "{", "binary": b"\xff\xfe\x00", "directory": "dir",
                          "wrong_type": wrong, "results_file": V1}.items():
        folder = results_dir(d, f"summary_{kind}", {"summary.json": content, "cache_bandwidth.json": ""})
        expect(f"results_md summary {kind}", RESULTS_MD + [folder], 1,
               bad=[os.path.join(folder, f) for f in ("summary.json", "cache_bandwidth.json")],
               absent=[os.path.join(folder, "README.md")])
    # A summary the validator accepts, without the optional device fields; no optional files.
    folder = results_dir(d, "summary_only", {"summary.json": SUMMARY})
    expect("validate the minimal summary", VALIDATE + [os.path.join(folder, "summary.json")], 0)
    expect("results_md minimal summary", RESULTS_MD + [folder], 0)
    on_page("results_md minimal summary", folder, ["Device: Test GPU, 2 SMs, compute capability 9.0."])
    # Every part valid, /1 and /2 mixed, with an ncu CSV.
    folder = results_dir(d, "all_good", {"summary.json": SUMMARY, **good, "ncu_dram.csv": NCU})
    expect("results_md all good", RESULTS_MD + [folder], 0)
    on_page("results_md all good", folder, [
        "| 256 | 60.5 | 97 | 4 | -1 |", "| ld.global.cg | 1024 MiB | 512 | 700 | 353.5 |",
        "| read float | 4600 | 95.8 | 4x256 |", "| read float .1, in_kernel | 99.5 | - |",
        "Results above the nominal peak (flag `above_dram_peak`): 1.", "| fence.sc.gpu.x32 | 536.5 |"])
    folder = results_dir(d, "bad_csv", {"summary.json": SUMMARY, **good, "ncu_dram.csv": "a,b\n1,2\n"})
    expect("results_md ncu_dram.csv without kernels", RESULTS_MD + [folder], 1,
           bad=[os.path.join(folder, "ncu_dram.csv")])
    # Bad files among good ones (the page's order: timers, fma, instruction_table, dram,
    # latency, cache, ordering): a good file after the bad ones is still rendered.
    ordering = mutate(good["memory_ordering.json"], lambda x: x["meta"].__setitem__("commit", 5))
    mixed = dict(good, **{"timers.json": "dir", "instruction_table.json": "{", "dram_bandwidth.json": None,
                          "latency_ladder.json": b"\xff\xd8\xff", "memory_ordering.json": ordering})
    folder = results_dir(d, "mixed", {"summary.json": SUMMARY, **mixed})
    names = ("timers.json", "instruction_table.json", "latency_ladder.json", "memory_ordering.json")
    expect("results_md bad files in the middle", RESULTS_MD + [folder], 1,
           bad=[os.path.join(folder, n) for n in names])
    on_page("results_md bad files in the middle", folder, [
        "| 256 | 60.5 | 97 | 4 | -1 |", "| DRAM (.cg, 1..4 GiB) | 4566 |  |  |",
        "Not rendered ([latency_ladder.json]", "Not rendered ([memory_ordering.json]"])
    # Valid files whose free-form extra lacks what a table needs: a note on the page, status 0.
    folder = results_dir(d, "no_extras", {"summary.json": SUMMARY, **{f: V2 for f in EXTRA}})
    expect("results_md valid files without extras", RESULTS_MD + [folder], 0)
    on_page("results_md valid files without extras", folder,
            ["Not rendered: extra.fma_throughput is missing.", "Not rendered: extra.memory_ordering is missing."])
    out = os.path.join(d, "no_such_dir", "README.md")
    folder = results_dir(d, "out_missing", {"summary.json": SUMMARY})
    expect("results_md -o into a missing folder", RESULTS_MD + [folder, "-o", out], 1, bad=[out])
    # The checked-in H200 results still render without a complaint, into the page committed.
    real = os.path.join(root, "docs", "results", "h200")
    if os.path.isfile(os.path.join(real, "summary.json")):
        folder = os.path.join(d, "h200")
        os.makedirs(folder)
        page = os.path.join(folder, "README.md")
        text = expect("results_md on docs/results/h200", RESULTS_MD + [real, "-o", page], 0)
        if text.strip() != f"wrote {page}":
            failures.append(f"results_md on docs/results/h200: unexpected output {text!r}")
        on_page("results_md on docs/results/h200", folder, [f"## {title}\n" for title in PAGE_SECTIONS])
        check_committed_page(os.path.join(real, "README.md"), page)


STALE_TITLE = "## Code changed since this set was made\n"
UNKNOWN = "Whether the code changed since this set was made is not known here: "
NOTHING = "Nothing changed: no file these programs compile differs from commit "


def without_staleness(text):
    """The page without its staleness section (from its title to the next section)."""
    head, _, rest = text.partition(STALE_TITLE)
    return head + rest[rest.find("\n## ") + 1:] if rest else text


def check_committed_page(committed, fresh):
    """docs/results/h200/README.md is what results_md.py writes now. Where this checkout cannot
    tell what changed (no git, a shallow clone), the staleness section is left out of the
    comparison, and a line says so."""
    global checks
    checks += 1
    old = open(committed, encoding="utf-8").read() if os.path.isfile(committed) else ""
    new = open(fresh, encoding="utf-8").read() if os.path.isfile(fresh) else ""
    if UNKNOWN in new:
        print("tools_check: this checkout cannot tell what changed since the H200 set (no git or "
              "not its commit); the committed page is compared without that section")
        old, new = without_staleness(old), without_staleness(new)
    if old != new:
        a, b = old.splitlines(), new.splitlines()
        i = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        failures.append(
            "docs/results/h200/README.md is not the page tools/results_md.py writes now (code or "
            "the tool changed since it was written); run `python3 tools/results_md.py "
            f"docs/results/h200` and commit the page. First difference, line {i + 1}:\n"
            f"      committed: {a[i] if i < len(a) else '(end of file)'!r}\n"
            f"      now:       {b[i] if i < len(b) else '(end of file)'!r}")


# ---- tools/gpu_model.py ------------------------------------------------------------------------

# Pairs beyond those of the C++ test (tests/host/ceilings.cu, read below so that the two rules
# are checked on the same names): the cards the project runs on, and the rule's edges.
MORE_FOLDERS = {"NVIDIA H100 80GB HBM3": "h100-80gb-hbm3", "NVIDIA H200": "h200",
                "Tesla T4": "tesla-t4", "NVIDIANVIDIA X": "nvidianvidia-x",
                "NVIDIA NVIDIA A100": "nvidia-a100"}


def cxx_folder_pairs():
    """The name -> folder pairs tests/host/ceilings.cu checks cuprobe::gpu_model_folder on."""
    import re
    text = open(os.path.join(root, "tests", "host", "ceilings.cu"), encoding="utf-8").read()
    return dict(re.findall(r'gpu_model_folder\(\s*"([^"]*)"\s*\)\s*==\s*"([^"]*)"', text))


def check_gpu_model(d):
    global checks
    gpu_model = import_tool("gpu_model")
    checks += 1
    pairs = cxx_folder_pairs()
    if not pairs:
        failures.append("gpu_model: no gpu_model_folder(\"NAME\") == \"FOLDER\" pair found in "
                        "tests/host/ceilings.cu; the Python rule is not checked against the C++ one")
    for name, want in {**pairs, **MORE_FOLDERS}.items():
        if gpu_model.folder(name) != want:
            failures.append(f"gpu_model.folder({name!r}) = {gpu_model.folder(name)!r}, expected "
                            f"{want!r} (cuprobe::gpu_model_folder's rule)")
    expect("gpu_model folder", GPU_MODEL + ["folder", "NVIDIA H100 80GB HBM3"], 0,
           good_line=["h100-80gb-hbm3"])
    for s in sorted(glob.glob(os.path.join(root, "docs", "results", "*", "summary.json"))):
        folder = os.path.basename(os.path.dirname(s))  # every committed set sits in its model's folder
        expect(f"gpu_model summary-folder {folder}", GPU_MODEL + ["summary-folder", s], 0,
               good_line=[folder])
    bad = make_bad(d)
    for kind in ("empty", "binary", "missing", "directory"):
        expect(f"gpu_model summary-folder {kind}", GPU_MODEL + ["summary-folder", bad[kind]], 2,
               bad=[bad[kind]])
    nameless = write(os.path.join(d, "nameless.json"), {"device": {"uuid": "GPU-0"}})
    expect("gpu_model summary-folder without a device name", GPU_MODEL + ["summary-folder", nameless],
           2, bad=[nameless])
    out = expect("gpu_model usage", GPU_MODEL + ["folders", "x"], 2)
    if "usage:" not in out:
        failures.append("gpu_model usage: the refusal does not give the usage")
    return []


# ---- results_md.py's staleness section on a throwaway git repository ---------------------------

def check_staleness(d):
    """A repo with two programs: prog (examples/prog.cu -> <cuprobe/a.cuh> -> "b.cuh"; its keys
    named in suite/cuprobe_suite/prog.cuh) and other (its own keys; includes neither)."""
    global checks
    git_ok = shutil.which("git") is not None
    repo = os.path.join(d, "repo")
    files = {
        "examples/prog.cu": '#include <cuprobe/a.cuh>\n#include <cuprobe_suite/prog.cuh>\n'
                            '#include <cstdio>\nint main() {}\n',
        "include/cuprobe/a.cuh": '#pragma once\n#include "b.cuh"\n',
        "include/cuprobe/b.cuh": '#pragma once\n// "other.x" in a comment is no key\n',
        "suite/cuprobe_suite/prog.cuh": '#pragma once\nconst char* k = "prog.key.";\n',
        "examples/other.cu": '#include <vector>\nconst char* k = "other.x";\nint main() {}\n',
    }
    for f, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(repo, f)), exist_ok=True)
        write(os.path.join(repo, f), text)
    sha = "0" * 40
    if git_ok:
        g = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
        for cmd in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "set"]):
            subprocess.run(g + cmd, check=True, capture_output=True)
        sha = subprocess.run(g + ["rev-parse", "HEAD"], check=True, capture_output=True,
                             text=True).stdout.strip()
    summary = dict(SUMMARY, commit=sha, metrics={"prog.key.one": 1.0, "prog.key.two": 2.0, "other.x": 3.0},
                   sources={"summary.json": "/b/examples/prog --summary summary.json",
                            "other_summary.json": "/b/examples/other --summary other_summary.json"})
    prog_json = mutate(V2, lambda x: x.__setitem__("meta", dict(META, commit=sha,
                                                                command_line="/b/examples/prog --json prog.json")))
    folder = results_dir(d, "set", {"summary.json": summary, "prog.json": prog_json,
                                    "prog.txt": "console\n", "ncu.csv": "a\n"})
    page = os.path.join(folder, "README.md")

    def section(what, argv=(), env=None):
        global checks
        checks += 1
        r = subprocess.run(RESULTS_MD + [folder, "--repo", repo, *argv], capture_output=True,
                           text=True, timeout=120, env=env)
        text = open(page, encoding="utf-8").read() if os.path.isfile(page) else ""
        if r.returncode != 0 or "Traceback" in r.stdout + r.stderr or STALE_TITLE not in text:
            failures.append(f"staleness {what}: exit {r.returncode}, no section or a traceback\n"
                            f"    {(r.stdout + r.stderr)[-800:]}")
            return ""
        body = text.split(STALE_TITLE, 1)[1]
        return body[:body.find("\n## ")]

    def wants(what, body, present, absent=()):
        for w in present:
            if w not in body:
                failures.append(f"staleness {what}: {w!r} is not in the section:\n{body}")
        for w in absent:
            if w in body:
                failures.append(f"staleness {what}: {w!r} should not be in the section:\n{body}")

    no_git = dict(os.environ, PATH=d)  # no git on PATH (results_md.py runs by its full path)
    wants("without git", section("without git", env=no_git), [UNKNOWN + "git is not installed."])
    if not git_ok:
        return []
    wants("nothing changed", section("nothing changed"), [NOTHING + f"`{sha}`"], [UNKNOWN, "**prog**"])
    # A header only prog compiles changes in the working tree: prog's keys and files, not other's.
    write(os.path.join(repo, "include/cuprobe/b.cuh"), '#pragma once\nint changed;\n')
    body = section("changed header")
    wants("changed header", body, [
        "- `prog`: `include/cuprobe/b.cuh` (1 file)",
        "- **prog**: summary.json keys `prog.*` (2 keys); files `prog.json`, `prog.txt`.",
        "Unchanged, their figures the current code's: `other`.",
        "Not traced (no cuprobe program and commit recorded in the file or in summary.json, so their "
        "age is not known here): `ncu.csv`."], [NOTHING, UNKNOWN, "**other**", "other.x"])
    # A header new since the commit (untracked: git diff alone would miss it) counts as changed.
    subprocess.run(["git", "-C", repo, "checkout", "-q", "--", "include/cuprobe/b.cuh"], check=True)
    write(os.path.join(repo, "include/cuprobe/new.cuh"), "#pragma once\n")
    write(os.path.join(repo, "include/cuprobe/a.cuh"), '#pragma once\n#include "b.cuh"\n#include "new.cuh"\n')
    wants("new header", section("new header"), ["`include/cuprobe/new.cuh`", "`include/cuprobe/a.cuh`",
                                                "- **prog**: summary.json keys `prog.*`"], [NOTHING])
    # The commit is not in this checkout (a shallow clone), and a tree without .git.
    write(os.path.join(folder, "summary.json"), dict(summary, commit="1" * 40))
    wants("missing commit", section("missing commit"),
          [UNKNOWN + f"commit {'1' * 40} is not in this checkout (a shallow clone?)."], [NOTHING])
    write(os.path.join(folder, "summary.json"), summary)
    shutil.rmtree(os.path.join(repo, ".git"))
    wants("no checkout", section("no checkout"), [UNKNOWN + f"{repo} is not a git checkout."], [NOTHING])
    return []


# tools/ncu_table.py (tools/ncu_wgmma.sh's table): an ncu raw CSV of a wgmma kernel, cuprobe's GEMM
# kernel (a ping-pong row with direct stores, a copy-only and a compute-only row: labels read off
# the template arguments, the variant as ncu may print it) and a cuBLASLt kernel, with the tensor pipe, a stall reason and a missing column.
NCU_WGMMA = (
    '"ID","Kernel Name","launch__grid_size","gpu__time_duration.sum","sm__cycles_elapsed.avg.per_second",'
    '"sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active",'
    '"smsp__average_warp_latency_issue_stalled_math_pipe_throttle.ratio",'
    '"smsp__average_warp_latency_issue_stalled_wait.ratio","smsp__average_warp_latency_issue_stalled_selected.ratio"\n'
    '"","","","usecond","cycle/nsecond","%","","",""\n'
    '"0","void cuprobe::suite::kernels::wgmma_bench_kernel<cuprobe::suite::kernels::wgmma_bench<'
    'cuprobe::ptx::wgmma::e4m3, 128, true, false, 4, 1>>(cuprobe::suite::kernels::wgmma_bench_args)",'
    '"132","1,020.5","1.98","97.3","3.2","1.5","9"\n'
    '"1","void gemm_kernel<5, 2, 0, (cuprobe::suite::gemm_variant)0, schedule<200, true>>(CUtensorMap)",'
    '"132","2000","1.9","80","0","0","0"\n'
    '"2","nvjet_hsh_256x128_64x4_2x1_v_bz_TNT","132","1900","1.9","85","","",""\n'
    '"3","void gemm_kernel<4, 2, 2, (cuprobe::suite::gemm_variant)1, schedule<256, false>>(CUtensorMap)",'
    '"132","1000","1.9","0","0","0","0"\n'
    '"4","void gemm_kernel<4, 2, 2, cuprobe::suite::gemm_variant::compute_only, schedule<256, false> >(x)",'
    '"132","1500","1.9","90","0","0","0"\n')


def check_ncu_table(d):
    good = write(os.path.join(d, "ncu_wgmma.csv"), NCU_WGMMA)
    md, table = os.path.join(d, "out.md"), os.path.join(d, "out.csv")
    expect("ncu_table good", NCU_TABLE + [good, "-o", md, "--csv", table], 0,
           good_line=[f"wrote {md} (5 kernel rows)"])
    text = open(md, encoding="utf-8").read() if os.path.isfile(md) else ""
    for want in ("| ncu_wgmma.csv | 0 | wgmma | e4m3 m64n128 RS, 4/1 | 97.3 | 132 | 1020 | 1980 |",
                 "math_pipe_throttle 3.2, wait 1.5 |", "| gemm | gemm_kernel 5 stages, cluster 2, direct stores, ping-pong 128x200 |",
                 "| gemm | gemm_kernel 4 stages, cluster 2, 2 epi, copy only, cooperative 128x256 |",
                 "| gemm | gemm_kernel 4 stages, cluster 2, 2 epi, compute only, cooperative 128x256 |",
                 "| cublas | nvjet_hsh_256x128_64x4_2x1_v_bz_TNT | 85 |",
                 "Tensor pipe column: sm__pipe_tensor_op_gmma_cycles_active"):
        if want not in text:
            failures.append(f"ncu_table good: {want!r} is not in the table")
    if "selected" in text:
        failures.append("ncu_table good: 'selected' (not a stall) is ranked as a stall")
    if not os.path.isfile(table) or len(open(table, encoding="utf-8").read().splitlines()) != 6:
        failures.append("ncu_table good: the CSV does not hold a header and 5 rows")
    bad = make_bad(d)
    bad["not_ncu"] = write(os.path.join(d, "not_ncu.csv"), "a,b\n1,2\n")
    bad["header_only"] = write(os.path.join(d, "header_only.csv"), NCU_WGMMA.split("\n", 1)[0] + "\n")
    for kind in ("empty", "binary", "missing", "directory", "not_ncu", "header_only"):
        expect(f"ncu_table {kind}", NCU_TABLE + [bad[kind]], 1, bad=[bad[kind]])
    # Bad files among good ones: each named once, the good rows still written, status 1.
    mixed = [good, bad["missing"], bad["binary"], good]
    out = expect("ncu_table bad files in the middle", NCU_TABLE + mixed, 1,
                 bad=[bad["missing"], bad["binary"]])
    if out.count("| wgmma | e4m3 m64n128 RS") != 2:
        failures.append("ncu_table bad files in the middle: the good files' rows are not both there")
    nowhere = os.path.join(d, "no_such_dir", "t.md")
    expect("ncu_table -o into a missing folder", NCU_TABLE + [good, "-o", nowhere], 1, bad=[nowhere])


def check_peer_tools(d):
    """tools/torch_collectives.py and sparse_peer.py without a GPU: nccl-tests' bus factors and
    the sizes (pure functions), a bad option refused in one line, and exit 2 with one sentence
    where PyTorch or a GPU is missing (their GPU runs are gpu.torch_collectives and
    gpu.sparse_peer)."""
    global checks
    tc = import_tool("torch_collectives")
    checks += 1
    want = {("all_reduce", 8): 1.75, ("all_gather", 4): 0.75, ("reduce_scatter", 2): 0.5,
            ("broadcast", 8): 1.0, ("all_to_all", 8): 0.875, ("all_reduce", 1): 0.0}
    for (op, n), f in want.items():
        if abs(tc.bus_factor(op, n) - f) > 1e-12:
            failures.append(f"torch_collectives bus_factor({op}, {n}) = {tc.bus_factor(op, n)}, expected {f}")
    if tc.sizes(8, 64) != [8, 16, 32, 64] or tc.sizes(8, 100) != [8, 16, 32, 64] or tc.sizes(16, 8) != []:
        failures.append("torch_collectives sizes: not the doubling list from min to max")
    tcpath = os.path.join(TOOLS, "torch_collectives.py")
    out = expect("torch_collectives unknown op", [sys.executable, tcpath, "--ops", "all_reduce,bogus"], 2)
    if "unknown collective 'bogus'" not in out:
        failures.append("torch_collectives unknown op: the refusal does not name the collective")
    have_torch = importlib.util.find_spec("torch") is not None
    if not have_torch:
        for tool in ("torch_collectives.py", "sparse_peer.py"):
            out = expect(f"{tool} without PyTorch", [sys.executable, os.path.join(TOOLS, tool),
                                                     "--json", os.path.join(d, "x.json")], 2,
                         absent=[os.path.join(d, "x.json")])
            if "PyTorch" not in out:
                failures.append(f"{tool} without PyTorch: the sentence does not say so")
    return []


# scripts/reference-set.sh: a set from gpu-check run in parts (one archive per part).
def check_reference_set(d):
    import tarfile

    def archive(name, files):
        folder = results_dir(d, name, files)
        path = os.path.join(d, name + ".tgz")
        with tarfile.open(path, "w:gz") as t:
            t.add(folder, arcname=".")
        return path

    script = ["bash", os.path.join(root, "scripts", "reference-set.sh")]
    part_summary = dict(SUMMARY, command="wgmma --summary wgmma_summary.json",
                        metrics={"tensor.bf16.tflops": 969.0})
    big = results_v1([bench_v1("dram.read", {"threads": t, "case": "c" * 200}, 100.0 + t)
                      for t in range(200)])  # over 64 KB as JSON: stored compressed
    # Each part's sanitizer runs: the later part's rerun of racecheck on gpu_a replaces the first
    # part's not_run; the set's sanitizer.md is the merged table, and the page shows it.
    first = archive("part1", {"summary.json": SUMMARY, "system_memory.json": V1, "ctest.xml": "<x/>",
                              "sanitizer/table.txt": "memcheck gpu_a 0 0 5\nracecheck gpu_a not_run - -\n",
                              "ctest.log": CTEST_LOG, "ncu_access": "dir", "ncu_wgmma": "dir"})
    later = archive("part2", {"wgmma_summary.json": part_summary, "system_memory.json": V2,
                              "sanitizer/table.txt": "racecheck gpu_a 0 0 9\nmemcheck ex 0 0 3\n",
                              "timers.json": big, "ncu_wgmma.md": "| kernel |\n"})
    out = os.path.join(d, "set")
    expect("reference-set from two parts", script + [out, first, later], 0)
    kept = sorted(os.listdir(out)) if os.path.isdir(out) else []
    for f in ("summary.json", "README.md", "system_memory.json", "timers.json.gz", "ncu_wgmma.md",
              "sanitizer.md", "ctest.log"):
        if f not in kept:
            failures.append(f"reference-set: {f} is not in the set ({kept})")
    for f in ("sanitizer", "ncu_access", "ncu_wgmma", "ctest.xml", "wgmma_summary.json", "timers.json"):
        if f in kept:
            failures.append(f"reference-set: {f} is in the set, it should not be")
    if "summary.json" in kept:
        merged = json.load(open(os.path.join(out, "summary.json")))["metrics"]
        if merged.get("tensor.bf16.tflops") != 969.0 or merged.get("dram.read.tbps") != 4.6:
            failures.append(f"reference-set: the parts' metrics are not merged: {merged}")
    if "system_memory.json" in kept:  # the later part's file replaces the earlier one's
        if json.load(open(os.path.join(out, "system_memory.json")))["schema"] != "cuprobe.results/2":
            failures.append("reference-set: the later part's system_memory.json did not replace the first's")
    page = open(os.path.join(out, "README.md"), encoding="utf-8").read() if "README.md" in kept else ""
    if "](timers.json.gz)" not in page or "](timers.json)" in page:
        failures.append("reference-set: the page does not link timers.json.gz, the file as stored")
    on_page("reference-set", out, ["## GPU tests and compute-sanitizer", "| gpu_a | 0 5s | 0 9s |  |  |",
                                   "3 runs over 2 programs; 0 not clean or not run.",
                                   "67% tests passed, 1 tests failed out of 3, in 3.05 s.",
                                   "Failed: `gpu.c` (Failed).", "Did not run: `gpu.b` (Skipped)."])
    # Parts of two commits are refused, and the set already there is left alone.
    other = archive("part3", {"wgmma_summary.json": dict(part_summary, commit="def")})
    expect("reference-set refuses two commits", script + [out, first, other], 2)
    if not os.path.isfile(os.path.join(out, "timers.json.gz")):
        failures.append("reference-set: a refused set replaced the one already there")
    # Without OUT_DIR: docs/results/<the summary's GPU model>, below the root the script is in
    # (a copy of the script in a scratch tree, so that the real docs/results is left alone).
    tree = os.path.join(d, "tree")
    os.makedirs(os.path.join(tree, "scripts"))
    for f in ("reference-set.sh", "plots.sh"):
        shutil.copy(os.path.join(root, "scripts", f), os.path.join(tree, "scripts", f))
    os.symlink(TOOLS, os.path.join(tree, "tools"))
    expect("reference-set without OUT_DIR", ["bash", os.path.join(tree, "scripts", "reference-set.sh"),
                                             first, later], 0)
    model = os.path.join(tree, "docs", "results", "test-gpu")  # DEVICE's "Test GPU"
    if not os.path.isfile(os.path.join(model, "README.md")):
        failures.append(f"reference-set without OUT_DIR: no set in {model}")
    expect("reference-set without archives", ["bash", os.path.join(tree, "scripts", "reference-set.sh"),
                                              os.path.join(d, "x")], 2)
    return []


# scripts/reference-part.sh: the three parts of a set; together they run every example of
# `scripts/gpu-check.sh list` once, the gpu tier, the sanitizer pass and the three ncu views. One
# part runs against a stand-in gpu-check.sh (a scratch tree): its steps' archives are packed, in
# order, into one, with each step's log beside it.
def check_reference_parts(d):
    import tarfile
    part = ["bash", os.path.join(root, "scripts", "reference-part.sh")]
    code, out = run(part + ["--list"])
    steps = [line.split(": ", 1)[1].split() for line in out.splitlines() if line.startswith("part ")]
    code2, listed = run(["bash", os.path.join(root, "scripts", "gpu-check.sh"), "list"])
    examples = listed.split()
    ran = [e for s in steps if s[0] == "ex" for e in s[1:]]
    if code or code2 or sorted(ran) != sorted(examples) or len(examples) < 20:
        failures.append(f"reference-part --list: the parts' examples {ran} are not gpu-check's "
                        f"{examples} once each (exit {code}, {code2})")
    kinds = sorted(s[0] for s in steps)
    if kinds.count("tier") != 1 or kinds.count("san") != 1:
        failures.append(f"reference-part --list: not one tier and one sanitizer step: {steps}")
    viewed = sorted(e for s in steps if s[0] == "ncu" for e in s[1:])
    if viewed != ["device_report", "dram_bandwidth", "wgmma"]:
        failures.append(f"reference-part --list: the ncu views are {viewed}")
    expect("reference-part, a bad part", part + ["4"], 2)
    # One part against a stand-in gpu-check.sh that writes an archive named by its arguments.
    tree = os.path.join(d, "tree")
    os.makedirs(os.path.join(tree, "scripts"))
    shutil.copy(os.path.join(root, "scripts", "reference-part.sh"), os.path.join(tree, "scripts"))
    write(os.path.join(tree, "scripts", "gpu-check.sh"),
          '#!/usr/bin/env bash\n[ "$1" = list ] && { echo device_report; echo timers; echo wgmma; '
          'echo dram_bandwidth; echo access_patterns; echo collectives; exit 0; }\n'
          'sleep "${STANDIN_SLEEP:-0}"\n'
          'r=$(mktemp -d); n=$(echo "$*" | tr " " _); echo "$*" > "$r/$n.txt"; echo same > "$r/card.txt"\n'
          'tar -czf "$OUT/results.tgz" -C "$r" .; echo log > "$OUT/gpu-check.log"\n'
          'echo "==================== gpu-check summary ($1) ===================="\n')
    os.chmod(os.path.join(tree, "scripts", "gpu-check.sh"), 0o755)
    out_dir = os.path.join(d, "out")
    code, out = run(["env", f"OUT={out_dir}", "bash", os.path.join(tree, "scripts", "reference-part.sh"), "1"])
    arc = os.path.join(out_dir, "part-1.tgz")
    names = sorted(os.path.basename(n) for n in tarfile.open(arc).getnames()) if os.path.isfile(arc) else []
    want = ["card.txt", "full_device_report_timers.txt", "sanitize.txt"]
    if code or [n for n in names if n.endswith(".txt")] != want:
        failures.append(f"reference-part 1: exit {code}, the archive holds {names}, not {want}: {out}")
    logs = sorted(f for f in os.listdir(out_dir) if f.endswith(".log.gz")) if os.path.isdir(out_dir) else []
    if logs != ["part-1-1-tier.log.gz", "part-1-2-ex.log.gz"]:
        failures.append(f"reference-part 1: the steps' logs are {logs}")
    # A budget that the first step leaves too little of: the others are listed "not run", and
    # the archive holds the first one's files.
    short_dir = os.path.join(d, "short")
    code, out = run(["env", f"OUT={short_dir}", "STANDIN_SLEEP=3", "CUPROBE_PART_LIMIT=52", "bash",
                     os.path.join(tree, "scripts", "reference-part.sh"), "1"])
    arc = os.path.join(short_dir, "part-1.tgz")
    names = sorted(os.path.basename(n) for n in tarfile.open(arc).getnames()) if os.path.isfile(arc) else []
    skipped = [line for line in out.splitlines() if "not run (" in line and "of the part's budget left" in line]
    if code or [n for n in names if n.endswith(".txt")] != ["card.txt", "sanitize.txt"] or len(skipped) != 1:
        failures.append(f"reference-part 1, a short budget: exit {code}, the archive holds {names}, "
                        f"{len(skipped)} steps listed not run: {out}")
    return []


# tools/sanitizer_table.py: a run list merged and tabulated; a bad line refused with one sentence.
def check_sanitizer_table(d):
    tool = [sys.executable, os.path.join(TOOLS, "sanitizer_table.py")]
    a = write(os.path.join(d, "a.txt"), "memcheck gpu_a 0 0 5\ninitcheck gpu_a TIMEOUT 124 240\n")
    b = write(os.path.join(d, "b.txt"), "initcheck gpu_a 0 0 7\n")
    md, merged = os.path.join(d, "s.md"), os.path.join(d, "m.txt")
    expect("sanitizer_table, a timeout", tool + ["-o", md, a], 1)
    on_page_text = open(md, encoding="utf-8").read() if os.path.isfile(md) else ""
    if "| gpu_a | 0 5s |  |  | TIMEOUT 240s |" not in on_page_text:
        failures.append(f"sanitizer_table: the timeout's row is wrong: {on_page_text!r}")
    expect("sanitizer_table, the timeout rerun", tool + ["-o", md, "--merged", merged, a, b], 0)
    if open(merged).read() != "initcheck gpu_a 0 0 7\nmemcheck gpu_a 0 0 5\n":
        failures.append(f"sanitizer_table: the merged list is wrong: {open(merged).read()!r}")
    # The page's tally of a tier that passed: CTest writes no "N tests failed" then.
    results_md = import_tool("results_md")
    os.makedirs(os.path.join(d, "green"))
    write(os.path.join(d, "green", "ctest.log"), "100% tests passed out of 36\n\nTotal Test time (real) = 212.57 sec\n")
    if "CTest ([ctest.log](ctest.log)): 100% tests passed out of 36, in 212.57 s." not in \
            results_md.section_checks(os.path.join(d, "green")):
        failures.append("results_md: a green tier's tally is not on the page")
    bad = write(os.path.join(d, "bad.txt"), "memcheck gpu_a 0\n")
    expect("sanitizer_table, a bad line", tool + [bad], 2, bad=["bad.txt:1: not a run line"])
    return []


CTEST_LOG = """ 1/3 Test  #1: gpu.a ....................   Passed    1.00 sec
 2/3 Test  #2: gpu.b ....................***Skipped   0.01 sec
 3/3 Test  #3: gpu.c ....................***Failed    2.00 sec

67% tests passed, 1 tests failed out of 3

Total Test time (real) =   3.05 sec

The following tests did not run:
	  2 - gpu.b (Skipped)
The following tests FAILED:
	  3 - gpu.c (Failed)                     gpu
Errors while running CTest
"""

PAGE_SECTIONS = ("Timers", "FP32 FMA throughput (fma_throughput)", "DRAM bandwidth (dram_bandwidth)",
                 "Latency ladder (latency_ladder)", "Memory ordering and fence cost (memory_ordering)")


with tempfile.TemporaryDirectory() as tmp:
    sections = {}
    for name, fn in (("validate", check_validator), ("plot", check_plot), ("results_md", check_results_md),
                     ("ncu_table", check_ncu_table), ("peer_tools", check_peer_tools),
                     ("reference_set", check_reference_set), ("reference_parts", check_reference_parts),
                     ("sanitizer_table", check_sanitizer_table), ("gpu_model", check_gpu_model),
                     ("staleness", check_staleness)):
        os.makedirs(os.path.join(tmp, name))
        sections[name] = fn(os.path.join(tmp, name)) or []

for f in failures:
    print("FAILED:", f)
print(f"tools_check: {checks} runs, {len(failures)} failures")
if failures:
    sys.exit(1)
skipped = [s for v in sections.values() for s in v]
if skipped:
    print(f"SKIPPED: matplotlib is not installed; not exercised: {', '.join(skipped)}")
    sys.exit(77)
print("tools_check: every tool refused each bad file with one line and no traceback")
