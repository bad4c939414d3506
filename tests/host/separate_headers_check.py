#!/usr/bin/env python3
"""host tier: tools/separate_headers.py. On the tree, --check finds nothing to move (every larger
host function of the host layers is in its impl/ part). On a scratch copy of include/ with a new
function of several lines in a header, --check names it and fails; --apply moves it into the
header's impl/ part (a declaration left behind, the part listed in implementation.cuh); --check
then passes. A header without an impl/ part gets one, included under #if CUPROBE_HEADER_BODIES."""
import os
import shutil
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = [sys.executable, os.path.join(root, "tools", "separate_headers.py")]
failures = []


def run(args):
    r = subprocess.run(TOOL + args, capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


code, out = run(["--check"])
if code != 0 or "0 definition(s) to move" not in out:
    failures.append(f"--check on the tree: exit {code}: {out.strip()[-400:]}")

with tempfile.TemporaryDirectory() as d:
    inc = os.path.join(d, "include")
    shutil.copytree(os.path.join(root, "include"), inc)
    header = os.path.join(inc, "cuprobe", "core", "format.cuh")
    text = open(header).read()
    end = text.rindex("}  // namespace cuprobe")
    added = ("/// A function added for this test.\n"
             "inline int added_for_the_test(int x) {\n  int y = x * 2;\n  for (int i = 0; i < x; ++i) y += i;\n"
             "  return y + 1;\n}\n\n")
    open(header, "w").write(text[:end] + added + text[end:])
    code, out = run(["--check", "--include", inc])
    if code != 1 or "added_for_the_test" not in out:
        failures.append(f"--check with a new body: exit {code}, expected 1 naming it: {out.strip()[-400:]}")
    code, out = run(["--apply", "cuprobe/core/format.cuh", "--include", inc])
    impl = open(os.path.join(inc, "cuprobe", "core", "impl", "format.cuh")).read()
    head = open(header).read()
    if code != 0 or "int added_for_the_test(int x) {" not in impl or \
            "CUPROBE_DECL int added_for_the_test(int x);" not in head:
        failures.append(f"--apply: exit {code}; the definition did not move: {out.strip()[-300:]}")
    code, out = run(["--check", "--include", inc])
    if code != 0:
        failures.append(f"--check after --apply: exit {code}: {out.strip()[-300:]}")

    # A header without an impl/ part yet: --apply writes one, and the header includes it where
    # CUPROBE_HEADER_BODIES (header-only, the host pass: core/linkage.cuh).
    fresh = os.path.join(inc, "cuprobe", "core", "added_for_the_test.cuh")
    open(fresh, "w").write("#pragma once\n#include \"cuprobe/core/linkage.cuh\"\n\nnamespace cuprobe {\n\n"
                           + added + "}  // namespace cuprobe\n")
    code, out = run(["--apply", "cuprobe/core/added_for_the_test.cuh", "--include", inc])
    head = open(fresh).read()
    part = "/".join(["cuprobe", "core", "impl", "added_for_the_test.cuh"])  # written by --apply
    tail = f'#if CUPROBE_HEADER_BODIES\n#include "{part}"\n#endif\n'
    if code != 0 or not head.endswith(tail) or not os.path.isfile(
            os.path.join(inc, "cuprobe", "core", "impl", "added_for_the_test.cuh")):
        failures.append(f"--apply on a header without impl/: exit {code}; it ends {head[-200:]!r}")

for f in failures:
    print("FAILED:", f)
print(f"separate_headers_check: {len(failures)} failure(s)")
sys.exit(1 if failures else 0)
