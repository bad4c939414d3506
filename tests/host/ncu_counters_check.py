#!/usr/bin/env python3
"""host tier: tools/ncu_counters.py (the library's counters against ncu's on the same launches)
on synthetic files, no GPU: a pair that agrees, one 2 % apart, counts the L2's state explains
(what it held when each kernel of the name began, per kernel, flushed or not; none without the
L2's size), DRAM writes apart by less than the L2 (dirty lines), the L2's read sectors of SMs
that read the same sectors at once (timing; a difference where none merged), DRAM noise (below 0.1 % of the
launch's DRAM bytes), a name whose kernels the two sides count differently (a sweep keeping its
best point; a measurement without counts), as many launches of other shapes (each run's own best
point; the same shapes are compared), nothing to compare (ncu saw no kernel inside the counted
ranges: exit 3), tiny counts, a benchmark on one side only, a results
file whose counters are missing, ncu's units row and thousands separators, and bad input (not a
results/3 file, no ncu header, no pair at all). Each run is checked for its exit status, its
verdicts and no traceback. Then scripts/ncu-crosscheck.sh (every example through
tools/ncu_counters.sh) against stand-ins: its table's verdicts, its limit, its deadline, its exit.
"""
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = [sys.executable, os.path.join(root, "tools", "ncu_counters.py")]
failures = []


def bench(name, values, per_range=4, missing="", flush_l2=False, ranges=1):
    return {"name": name, "options": {"flush_l2": flush_l2}, "counters": {
        "spec": "dram", "chip": "GH100", "passes": 1, "range": "kernel", "ranges": ranges,
        "per_range": per_range, "missing": missing,
        "values": [] if missing else [{"metric": m, "label": m, "value": v, "unit": "byte"}
                                      for m, v in values.items()]}}


def results(benches):
    return {"schema": "cuprobe.results/3", "device": {"name": "NVIDIA H100 80GB HBM3"},
            "benchmarks": benches}


def ncu_csv(rows):
    head = ['"ID"', '"Kernel Name"', '"dram__bytes_read.sum"', '"dram__bytes_write.sum"']
    lines = [",".join(head), '"","","byte","byte"']
    lines += [",".join(f'"{x}"' for x in r) for r in rows]
    return "\n".join(lines) + "\n"


def run(d, counted, ncu, *extra):
    a, b = os.path.join(d, "a.json"), os.path.join(d, "b.csv")
    with open(a, "w") as f:
        f.write(counted if isinstance(counted, str) else json.dumps(counted))
    with open(b, "w") as f:
        f.write(ncu)
    p = subprocess.run(TOOL + [a, b, *extra], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def expect(what, got, rc, present=(), absent=()):
    code, out = got
    problems = []
    if code != rc:
        problems.append(f"exit {code}, wanted {rc}")
    if "Traceback" in out:
        problems.append("a traceback")
    problems += [f"no '{s}'" for s in present if s not in out]
    problems += [f"'{s}' present" for s in absent if s in out]
    if problems:
        failures.append(f"{what}: {'; '.join(problems)}\n    " + out.replace("\n", "\n    "))


with tempfile.TemporaryDirectory() as d:
    r, w = "dram__bytes_read.sum", "dram__bytes_write.sum"
    # 1e8 bytes per iteration x per_range 4 = 4e8 in the call; ncu's two kernels add to 4.002e8.
    good = results([bench("copy", {r: 1e8, w: 1e8})])
    two = results([bench("copy", {r: 1e8, w: 1e8}, ranges=2)])
    expect("agreeing pair", run(d, two, ncu_csv([[0, "copy", "200100000",
                                                    "200000000"],
                                                   [1, "copy", "200100000", "200000000"]])),
           0, ["| copy | dram__bytes_read.sum |", "agrees", "2 of 2 pairs agree"], ["DIFFERS"])
    expect("ncu's range/kernel names", run(d, good, ncu_csv([
        [0, "copy/void copy4<float4>(const float4 *, float4 *, unsigned long)", "4e8", "4e8"],
        [1, "void fill<float>(float *, int)", "5", "5"]])),
           0, ["2 of 2 pairs agree", "Profiled by ncu only", "void fill<float>"])
    timed = results([bench("copy", {r: 1e8, "gpu__time_duration.sum": 1e6})])
    timed_csv = ('"ID","Kernel Name","dram__bytes_read.sum","gpu__time_duration.sum"\n'
                 '"","","byte","nsecond"\n"0","copy","4e8","9e6"\n')
    expect("a time is no disagreement", run(d, timed, timed_csv),
           0, ["a time, not a count"], ["DIFFERS"])
    expect("thousands separators", run(d, good, ncu_csv([[0, "copy", "400,000,000", "400,000,000"]])),
           0, ["2 of 2 pairs agree"])
    expect("2 % apart", run(d, good, ncu_csv([[0, "copy", "408000000", "400000000"]])),
           1, ["DIFFERS", "1 of 2 pairs agree"])
    expect("writes within the L2", run(d, good, ncu_csv([[0, "copy", "400000000", "380000000"]]),
                                       "--l2-bytes", str(50 << 20)),
           0, ["within the L2's state (1 x the L2"])
    expect("writes beyond the L2", run(d, good, ncu_csv([[0, "copy", "400000000", "300000000"]]),
                                       "--l2-bytes", str(50 << 20)),
           1, ["DIFFERS"])
    # a read beside a write of 4e8 bytes: 0.05 % of the launch's DRAM bytes is noise, 1 % is not
    wr = results([bench("write", {r: 5e3, w: 1e8})])
    expect("DRAM noise", run(d, wr, ncu_csv([[0, "write", "220000", "4e8"]])),
           0, ["below 0.1 % of the launch's DRAM bytes"], ["DIFFERS"])
    expect("DRAM beyond noise", run(d, wr, ncu_csv([[0, "write", "4400000", "4e8"]])), 1, ["DIFFERS"])
    # a measurement that flushes the L2: reads apart by less than the L2 are its state; without
    # the flush, or beyond the L2, they differ
    cold = results([bench("chase", {r: 4.5e6}, per_range=1, flush_l2=True)])
    warm = results([bench("chase", {r: 4.5e6}, per_range=1)])
    expect("the L2's state", run(d, cold, ncu_csv([[0, "chase", "100000", "0"]]),
                                 "--l2-bytes", str(50 << 20)), 0, ["within the L2's state"])
    l2w = "lts__t_sectors_op_write.sum"
    cold_w = results([bench("chase", {l2w: 16984}, per_range=1, flush_l2=True)])
    cold_w_csv = f'"ID","Kernel Name","{l2w}"\n"","","sector"\n"0","chase","85836"\n'
    expect("the L2's state: sectors written", run(d, cold_w, cold_w_csv, "--l2-bytes", str(50 << 20)),
           0, ["within the L2's state"])
    expect("no flush: the L2's state all the same", run(d, warm, ncu_csv([[0, "chase", "100000", "0"]]),
                                                        "--l2-bytes", str(50 << 20)),
           0, ["within the L2's state (1 x the L2"])
    expect("no L2 size given: no allowance", run(d, warm, ncu_csv([[0, "chase", "100000", "0"]])),
           1, ["DIFFERS"])
    # the allowance counts each kernel of the name: 3 kernels, 120 MB apart (below 3 x 50 MiB);
    # one kernel, the same 120 MB: beyond it
    three = results([bench("sweep", {r: 4e7}, per_range=1, ranges=3)])
    expect("the L2's state, per kernel", run(d, three, ncu_csv([[0, "sweep", "1.6e8", "0"], [1, "sweep", "0", "0"],
                                                                [2, "sweep", "0", "0"]]),
                                             "--l2-bytes", str(50 << 20)),
           0, ["within the L2's state (3 x the L2"])
    one = results([bench("sweep", {r: 4e7}, per_range=1)])
    expect("the L2's state, one kernel", run(d, one, ncu_csv([[0, "sweep", "1.6e8", "0"]]),
                                             "--l2-bytes", str(50 << 20)), 1, ["DIFFERS"])
    expect("beyond the L2's state", run(d, results([bench("chase", {r: 4.5e8}, per_range=1,
                                                          flush_l2=True)]),
                                        ncu_csv([[0, "chase", "100000", "0"]]),
                                        "--l2-bytes", str(50 << 20)), 1, ["DIFFERS"])
    tiny = results([bench("chase", {r: 1000.0}, per_range=1)])
    expect("tiny counts", run(d, tiny, ncu_csv([[0, "chase", "30000", "0"]])),
           0, ["the launch's own traffic"])
    both = results([bench("copy", {r: 1e8, w: 1e8}), bench("only_here", {r: 1.0}),
                    bench("refused", {}, missing="another tool owns the profiler")])
    expect("one side only, and missing", run(d, both, ncu_csv([[0, "copy", "4e8", "4e8"],
                                                               [1, "fill_kernel", "5", "5"]])),
           0, ["Counted by the library only", "only_here", "Profiled by ncu only", "fill_kernel",
               "Without counters: refused: another tool owns the profiler"])
    # a sweep that keeps its best point: ncu profiled three kernels of the name, the results hold
    # one measurement of one kernel; a name with a measurement the library did not count
    kept = results([bench("copy", {r: 1e8, w: 1e8}), bench("stream.read", {r: 1e8}),
                    bench("tma.copy", {r: 1e8}), bench("tma.copy", {}, missing="no counters")])
    expect("launches the results do not hold", run(d, kept, ncu_csv([
        [0, "copy", "4e8", "4e8"], [1, "stream.read", "4e8", "0"], [2, "stream.read", "4e8", "0"],
        [3, "stream.read", "4e8", "0"], [4, "tma.copy", "4e8", "0"], [5, "tma.copy", "4e8", "0"]])),
           0, ["2 of 2 pairs agree", "Not compared, different launches on each side",
               "stream.read: the library counted 1 kernel(s), ncu profiled 3",
               "tma.copy: the library counted not every one of its kernel(s), ncu profiled 2"],
           ["| stream.read |", "| tma.copy |", "DIFFERS"])
    # several SMs reading the same sectors: the SMs received more sectors than the L2 read, so the
    # L2's read sectors depend on timing; without that (delivered = read) they differ
    dl, rd, opr = "l1tex__m_xbar2l1tex_read_sectors.sum", "lts__t_sectors_srcunit_tex_op_read.sum", \
        "lts__t_sectors_op_read.sum"
    shared = results([bench("tile", {dl: 4.2e6, rd: 2.77e6, opr: 3.1e6}, per_range=1)])
    own = results([bench("tile", {dl: 2.77e6, rd: 2.77e6, opr: 3.1e6}, per_range=1)])
    head = f'"ID","Kernel Name","{dl}","{rd}","{opr}"\n"","","sector","sector","sector"\n'
    expect("merged before the L2: timing", run(d, shared, head + '"0","tile","4.2e6","2.87e6","3.53e6"\n'),
           0, ["3 of 3 pairs agree", "timing (the SMs received 4.2e+06 sectors, the L2 read 2.77e+06"],
           ["DIFFERS"])
    expect("read at the L2 as delivered: a difference", run(d, own, head + '"0","tile","2.77e6","2.87e6","3.53e6"\n'),
           1, ["DIFFERS"], ["timing ("])
    # the same number of launches of a name, of other shapes (each run picked its own best point):
    # not compared; the same shapes: compared
    def shaped(name, grid, block):
        b = bench(name, {r: 1e8}, per_range=1)
        b["launch"] = {"grid": grid, "block": block, "dynamic_smem_bytes": 0}
        return b
    pick = results([shaped("stream.copy", [264, 1, 1], [512, 1, 1]),
                    shaped("stream.copy", [204800, 1, 1], [1024, 1, 1]), shaped("read", [528, 1, 1], [256, 1, 1])])
    shaped_head = ('"ID","Kernel Name","Grid Size","Block Size","dram__bytes_read.sum"\n'
                   '"","","","","byte"\n')
    expect("other launch shapes", run(d, pick, shaped_head + '"0","stream.copy","(264, 1, 1)","(512, 1, 1)","1e8"\n'
                                      '"1","stream.copy","(264, 1, 1)","(512, 1, 1)","4e8"\n'
                                      '"2","read","(528, 1, 1)","(256, 1, 1)","1e8"\n'),
           0, ["1 of 1 pairs agree", "as many launches on each side but of other shapes",
               "stream.copy: the library alone counted 1 x (204800,1,1)x(1024,1,1), ncu alone profiled "
               "1 x (264,1,1)x(512,1,1)"], ["| stream.copy |", "DIFFERS"])
    expect("the same launch shapes", run(d, pick, shaped_head + '"0","stream.copy","(264, 1, 1)","(512, 1, 1)","1e8"\n'
                                         '"1","stream.copy","(204800, 1, 1)","(1024, 1, 1)","1e8"\n'
                                         '"2","read","(528, 1, 1)","(256, 1, 1)","1e8"\n'),
           0, ["2 of 2 pairs agree", "| stream.copy |"], ["other shapes"])
    # ncu named kernels after ranges, none inside the library's: nothing to compare (exit 3)
    coll = results([bench("nccl.all_reduce", {r: 768}, per_range=1)])
    expect("nothing to compare", run(d, coll, ncu_csv([[0, "ncclCommInitAll/void fill<void>(float *)", "5", "0"],
                                                      [1, "ncclDevKernel_SendRecv(args)", "5", "0"]])),
           3, ["nothing to compare: ncu profiled no kernel inside the 1 ranges the library counted "
               "(nccl.all_reduce), though it named 1 other kernel(s) after their ranges"],
           ["no benchmark was counted on both sides"])
    expect("not results/3", run(d, {"schema": "cuprobe.results/2", "benchmarks": []}, ncu_csv([])),
           1, ["not a cuprobe.results/3 file"])
    expect("not JSON", run(d, "{", ncu_csv([])), 1, ["ncu_counters:"])
    expect("no ncu header", run(d, good, "==PROF== nothing profiled\n"), 1, ["no ncu CSV header"])
    expect("no pair", run(d, good, ncu_csv([[0, "void copy4<float>(...)", "4e8", "4e8"]])),
           1, ["no benchmark was counted on both sides", "--print-nvtx-rename kernel"])


# scripts/ncu-crosscheck.sh: every example through tools/ncu_counters.sh, against stand-ins in a
# scratch tree (a gpu-check.sh that lists four examples, an ncu_counters.sh that agrees, differs,
# skips or hangs by the example's name): one row per example with its verdict, the hung one cut at
# the limit, a deadline that leaves every example `not run`, and the exit status.
def check_crosscheck(d):
    import shutil
    import tarfile
    tree = os.path.join(d, "tree")
    for sub in ("scripts", "tools"):
        os.makedirs(os.path.join(tree, sub))
    shutil.copy(os.path.join(root, "scripts", "ncu-crosscheck.sh"), os.path.join(tree, "scripts"))
    stand_ins = {
        "scripts/gpu-check.sh": '[ "$1" = list ] && printf "good\\nbad\\nnone\\nslow\\nlost\\ntimers\\ncopies\\n"\n',
        "tools/ncu_counters.sh":
            'touch "$2.md"; case "$3" in\n'
            '  good) echo "ncu_counters: 12 of 12 pairs agree" >&2 ;;\n'
            '  bad) echo "ncu_counters: 3 of 4 pairs agree" >&2; exit 1 ;;\n'
            '  none) echo "ncu_counters: skipped: ncu not found" >&2; exit 77 ;;\n'
            '  slow) sleep 30 ;;\n'
            '  lost) echo "ncu_counters: build/hopper/examples/lost not built" >&2; exit 1 ;;\n'
            '  timers) echo "ncu_counters: 9 of 9 pairs agree ($*)" >&2 ;;\n'
            '  copies) echo "ncu_counters: nothing to compare: ncu profiled no kernel inside" >&2\n'
            '          echo "ncu_counters: 0 of 0 pairs agree" >&2; exit 3 ;;\n'
            'esac\n'}
    for name, body in stand_ins.items():
        path = os.path.join(tree, name)
        with open(path, "w") as f:
            f.write("#!/usr/bin/env bash\n" + body)
        os.chmod(path, 0o755)
    script = os.path.join(tree, "scripts", "ncu-crosscheck.sh")

    def crosscheck(out, *env):
        p = subprocess.run(["env", f"OUT={out}", "CUPROBE_CROSSCHECK_LIMIT=2", *env, "bash", script],
                           capture_output=True, text=True, timeout=120)
        table = open(os.path.join(out, "ncu-crosscheck.md")).read() if os.path.isfile(
            os.path.join(out, "ncu-crosscheck.md")) else ""
        return p.returncode, table, p.stdout + p.stderr

    out = os.path.join(d, "all")
    code, table, text = crosscheck(out)
    want = ["| good | agrees | 12 of 12 |", "| bad | DIFFERS (see bad.md) | 3 of 4 |",
            "| none | skipped: ncu not found |", "| slow | timed out after 2 s |",
            "| lost | failed: ncu_counters: build/hopper/examples/lost not built |",
            "| good | agrees | 12 of 12 |", "`--quick` |", "| timers | agrees | 9 of 9 |", "`--small` |",
            "| copies | nothing to compare: ncu profiled no kernel inside | 0 of 0 |"]
    missing = [w for w in want if w not in table]
    if code != 1 or missing or "Traceback" in text:
        failures.append(f"ncu-crosscheck: exit {code} (want 1), rows missing {missing}: {table}{text}")
    arc = os.path.join(out, "ncu-crosscheck.tgz")
    names = sorted(os.path.basename(n) for n in tarfile.open(arc).getnames()) if os.path.isfile(arc) else []
    if "good.md" not in names or "bad.stderr" not in names:
        failures.append(f"ncu-crosscheck: the archive holds {names}")
    code, table, text = crosscheck(os.path.join(d, "late"), "CUPROBE_CROSSCHECK_DEADLINE=1")
    if code != 0 or table.count("not run (the deadline)") != 7:
        failures.append(f"ncu-crosscheck, past its deadline: exit {code}: {table}{text}")
    code, table, text = crosscheck(os.path.join(d, "given"), "CUPROBE_CROSSCHECK_ARGS=--full --x")
    if "| timers | agrees | 9 of 9 | " not in table or "`--full --x` |" not in table or "`--small`" in table:
        failures.append(f"ncu-crosscheck, CUPROBE_CROSSCHECK_ARGS for every example: {table}{text}")
    p = subprocess.run(["env", f"OUT={os.path.join(d, 'one')}", "bash", script, "none"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 77:
        failures.append(f"ncu-crosscheck, every example skipped: exit {p.returncode}, not 77")
    p = subprocess.run(["env", f"OUT={os.path.join(d, 'two')}", "bash", script, "good", "copies"],
                       capture_output=True, text=True, timeout=60)
    if p.returncode != 0 or "1 had nothing to compare" not in p.stdout:
        failures.append(f"ncu-crosscheck, one agrees and one has nothing to compare: exit "
                        f"{p.returncode}, not 0: {p.stdout}{p.stderr}")


with tempfile.TemporaryDirectory() as d:
    check_crosscheck(d)

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("ncu_counters_check: every case behaved")
