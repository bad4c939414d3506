#!/usr/bin/env python3
"""host tier: scripts/carried-build.sh in scratch trees, no GPU. `pack` names HEAD and archives the
build; `unpack` extracts it, links the paths its CMakeCache names (the source directory, cmake,
ctest, Python) where they are absent, keeps a build that names the same commit, and stops with
one sentence where the source directory's path is another folder or the build's nvcc is absent.
"""
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(root, "scripts", "carried-build.sh")
failures = []


def run(cwd, *args):
    p = subprocess.run(["bash", os.path.join(cwd, "scripts", "carried-build.sh"), *args], cwd=cwd,
                       capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout + p.stderr


def tree(d, name):
    t = os.path.join(d, name)
    os.makedirs(os.path.join(t, "scripts"))
    shutil.copy(SCRIPT, os.path.join(t, "scripts"))
    return t


def archive(t, cache, built_from):
    """.prebuilt/hopper.tgz holding hopper/CMakeCache.txt and hopper/built-from."""
    stage = os.path.join(t, "stage", "hopper")
    os.makedirs(stage)
    with open(os.path.join(stage, "CMakeCache.txt"), "w") as f:
        f.write("".join(f"{k}:{kind}={v}\n" for k, kind, v in cache))
    with open(os.path.join(stage, "built-from"), "w") as f:
        f.write(built_from + "\n")
    os.makedirs(os.path.join(t, ".prebuilt"))
    with tarfile.open(os.path.join(t, ".prebuilt", "hopper.tgz"), "w:gz") as tf:
        tf.add(stage, arcname="hopper")
    shutil.rmtree(os.path.join(t, "stage"))


def cache_of(d, nvcc, src=None):
    return [("CMAKE_HOME_DIRECTORY", "INTERNAL", src or os.path.join(d, "elsewhere", "src")),
            ("CMAKE_COMMAND", "INTERNAL", os.path.join(d, "bin", "cmake")),
            ("CMAKE_CTEST_COMMAND", "INTERNAL", os.path.join(d, "bin", "ctest")),
            ("_Python3_EXECUTABLE", "INTERNAL", os.path.join(d, "py", "python3")),
            ("CMAKE_CUDA_COMPILER", "FILEPATH", nvcc)]


def check(what, ok, text):
    if not ok:
        failures.append(f"carried-build, {what}: {text}")


with tempfile.TemporaryDirectory() as d:
    nvcc = os.path.join(d, "cuda", "nvcc")
    os.makedirs(os.path.dirname(nvcc))
    with open(nvcc, "w") as f:
        f.write("#!/bin/sh\n")
    os.chmod(nvcc, 0o755)

    # unpack: extracted, every absent path linked to what stands for it here.
    t = tree(d, "a")
    archive(t, cache_of(d, nvcc), "abc123")
    code, out = run(t, "unpack")
    links = {os.path.join(d, "elsewhere", "src"): t, os.path.join(d, "bin", "cmake"): shutil.which("cmake"),
             os.path.join(d, "bin", "ctest"): shutil.which("ctest"),
             os.path.join(d, "py", "python3"): shutil.which("python3")}
    wrong = {p: os.readlink(p) if os.path.islink(p) else None for p, want in links.items()
             if not os.path.islink(p) or os.readlink(p) != want}
    check("unpack", code == 0 and not wrong and "unpacked .prebuilt/hopper.tgz (built from abc123)" in out
          and os.path.isfile(os.path.join(t, "build", "hopper", "CMakeCache.txt")),
          f"exit {code}, links wrong {wrong}: {out}")
    # again: the build names the same commit, so it stays; the links stand.
    marker = os.path.join(t, "build", "hopper", "kept")
    open(marker, "w").close()
    code, out = run(t, "unpack")
    check("unpack again", code == 0 and "build/hopper is abc123 already" in out and os.path.isfile(marker)
          and "linked" not in out, f"exit {code}: {out}")

    # the source directory's path is another folder here: refused with a sentence.
    t = tree(d, "b")
    other = os.path.join(d, "other")
    os.makedirs(other)
    archive(t, cache_of(d, nvcc, src=other), "abc123")
    code, out = run(t, "unpack")
    check("another folder", code == 1 and "(the build's source directory) is another folder here" in out,
          f"exit {code}: {out}")

    # no nvcc at the build's path: refused.
    t = tree(d, "c")
    archive(t, cache_of(d, os.path.join(d, "cuda", "absent-nvcc"), src=t), "abc123")
    code, out = run(t, "unpack")
    check("no nvcc", code == 1 and "the same nvcc must be here" in out, f"exit {code}: {out}")

    # no archive; a bad mode.
    t = tree(d, "e")
    code, out = run(t, "unpack")
    check("no archive", code == 1 and "no .prebuilt/hopper.tgz" in out, f"exit {code}: {out}")
    code, out = run(t, "both")
    check("bad mode", code == 2 and "usage:" in out, f"exit {code}: {out}")

    # pack: built-from names HEAD, the archive holds the build without its objects.
    t = tree(d, "f")
    os.makedirs(os.path.join(t, "build", "hopper", "obj"))
    for name in ("CMakeCache.txt", os.path.join("obj", "x.o"), "prog"):
        open(os.path.join(t, "build", "hopper", name), "w").close()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", t]
    with open(os.path.join(t, ".gitignore"), "w") as f:
        f.write("/build/\n/.prebuilt/\n")
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "x"], check=True)
    head = subprocess.run(git + ["rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    code, out = run(t, "pack")
    arc = os.path.join(t, ".prebuilt", "hopper.tgz")
    names = sorted(tarfile.open(arc).getnames()) if os.path.isfile(arc) else []
    built = open(os.path.join(t, "build", "hopper", "built-from")).read().strip() \
        if os.path.isfile(os.path.join(t, "build", "hopper", "built-from")) else ""
    check("pack", code == 0 and built == head and "hopper/prog" in names and "hopper/built-from" in names
          and not any(n.endswith(".o") for n in names), f"exit {code}, built-from {built!r}, {names}: {out}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("carried_build_check: every case behaved")
