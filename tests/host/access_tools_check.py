#!/usr/bin/env python3
"""host tier: tools/access_check.py on hand-made expected and ncu CSVs: a match writes
access.model_matches_ncu = 1 (merged into an existing summary), a sector or request count off by
one, a kernel of the wrong width, or a missing launch writes 0 and exits 1; thousands
separators and the units row are read as ncu prints them."""
import json
import os
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
tool = os.path.join(root, "tools", "access_check.py")
EXPECTED = """launch,pattern,op,width,offset,stride,shape,lines,seed,sectors_per_request,lines_per_request,requests
0,w4 o0 s1,read,4,0,1,strided,1,0,4,1,1000
1,w16 o16 s1,copy,16,16,1,strided,1,0,17,5,500
"""
HEAD = ('"ID","Kernel Name","l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",'
        '"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum","l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",'
        '"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum","lts__t_sectors_srcunit_tex_op_read.sum",'
        '"dram__bytes_read.sum"\n"","","","sector","","sector","sector","byte"\n')


def row(i, kind, copy, ld_req, ld_sec, st_req, st_sec):
    return (f'"{i}","void access_kernel<{kind}, {int(copy)}, 4, cg, cg>(access_args)","{ld_req:,}",'
            f'"{ld_sec:,}","{st_req:,}","{st_sec:,}","{ld_sec:,}","4,096"\n')


GOOD = [row(0, "unsigned int", 0, 1000, 4000, 0, 0), row(1, "uint4", 1, 500, 8500, 500, 8500)]
failures = []


def run(rows, summary, want_rc, want_value):
    with tempfile.TemporaryDirectory() as d:
        e, n, s = (os.path.join(d, x) for x in ("e.csv", "n.csv", "s.json"))
        open(e, "w").write(EXPECTED)
        open(n, "w").write(HEAD + "".join(rows))
        if summary is not None:
            json.dump(summary, open(s, "w"))
        p = subprocess.run([sys.executable, tool, e, n, "--summary", s, "--markdown",
                            os.path.join(d, "t.md")], capture_output=True, text=True)
        got = json.load(open(s))
        value = got["metrics"]["access.model_matches_ncu"]
        if p.returncode != want_rc or value != want_value:
            failures.append(f"rows {rows!r}: rc {p.returncode}, value {value}\n{p.stdout}{p.stderr}")
        return got


run(GOOD, None, 0, 1)
merged = run(GOOD, {"schema": "cuprobe.summary/1", "metrics": {"access.stride2.fraction": 0.5}}, 0, 1)
if merged["metrics"].get("access.stride2.fraction") != 0.5:
    failures.append("the existing summary's metrics were not kept")
run([GOOD[0], row(1, "uint4", 1, 500, 8000, 500, 8500)], None, 1, 0)   # 16 sectors, model 17
run([GOOD[0], row(1, "uint4", 1, 500, 8500, 400, 6800)], None, 1, 0)   # store requests
run([GOOD[0], row(1, "unsigned int", 1, 500, 8500, 500, 8500)], None, 1, 0)  # wrong width
run([GOOD[0]], None, 1, 0)  # a launch missing
for f in failures:
    print("FAIL:", f)
print(f"access_tools_check: {6 - len(failures)} of 6 cases passed")
sys.exit(1 if failures else 0)
