#!/usr/bin/env bash
# compile-times: how long an empty main() takes to compile for sm_90a with each narrow header,
# with the umbrella, and with only cuda_runtime.h (the floor), on this machine.
#
#   bash scripts/compile-times.sh [runs]      (default 5 runs each, interleaved)
#
# Each program is `#include <header>` and `int main() {}`, compiled by
# `nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a -c` into /dev/null. The runs of all
# headers are interleaved (round by round), so a change in the machine's speed during the
# sitting reaches every header alike. Prints one Markdown table: the median and the minimum
# of the wall times, the median less the floor's, the median as a multiple of the floor's
# beside its target (the umbrella at most 7 x, measure.cuh 3.5 x, every other narrow header
# 3 x), and the peak memory (max RSS of nvcc's children, from GNU time); then the commit.
# measure.cuh and the umbrella are measured twice: header-only (the default) and in a program
# built with CUPROBE_SEPARATE_COMPILATION (core/linkage.cuh), where they declare what one other
# translation unit defines. One more row has no target: the headers outside cuprobe that
# measure.cuh's files include (the standard library's, CUDA's, CUPTI's, NVTX's), alone. So the
# header-only row splits into those, cuprobe's declarations (up to the separate row) and the
# bodies that row leaves out.
set -euo pipefail
cd "$(dirname "$0")/.."
runs="${1:-5}"
inc="$PWD/include"
work="$(mktemp -d /tmp/cuprobe-compile-times.XXXX)"
trap 'rm -rf "$work"' EXIT
# NAME@separate: the same header in a program built with CUPROBE_SEPARATE_COMPILATION (its larger
# host functions declared only, defined once elsewhere: core/linkage.cuh).
headers=(cuda_runtime.h cuprobe/memory.cuh cuprobe/compute.cuh cuprobe/hopper.cuh cuprobe/wgmma.cuh
         cuprobe/measure.cuh cuprobe/cuprobe.cuh cuprobe/measure.cuh@separate
         cuprobe/cuprobe.cuh@separate cuprobe/measure.cuh@system)
# NAME@system: a program of the headers outside cuprobe that NAME's files (impl/ parts too)
# include, nothing of cuprobe's
system_program() {
  python3 - "$inc" "$1" <<'EOF'
import os, re, sys
seen, found = set(), []
def walk(rel):
    if rel in seen:
        return
    seen.add(rel)
    for line in open(os.path.join(sys.argv[1], rel)):
        m = re.match(r'\s*#\s*include\s+["<](cuprobe/[^">]+)[">]', line)
        if m:
            walk(m.group(1))
            continue
        m = re.match(r'\s*#\s*include\s+<([^>]+)>', line)
        if m and m.group(1) not in found:
            found.append(m.group(1))
walk(sys.argv[2])
if any(h.startswith("cuda/__ptx/") for h in found):  # <cuda/ptx> is only the fallback
    found = [h for h in found if h != "cuda/ptx"]
print("".join(f"#include <{h}>\n" for h in found) + "int main() {}")
EOF
}
for i in "${!headers[@]}"; do
  if [ "${headers[$i]#*@}" = system ]; then
    system_program "${headers[$i]%@*}" > "$work/h$i.cu"
  else
    printf '#include <%s>\nint main() {}\n' "${headers[$i]%@*}" > "$work/h$i.cu"
  fi
done
for r in $(seq "$runs"); do
  for i in "${!headers[@]}"; do
    mode=(); [ "${headers[$i]#*@}" = separate ] && mode=(-DCUPROBE_SEPARATE_COMPILATION)
    /usr/bin/time -f "%e %M" -o "$work/t" nvcc -std=c++17 -gencode arch=compute_90a,code=sm_90a \
      "${mode[@]}" -I"$inc" -c "$work/h$i.cu" -o /dev/null
    echo "$i $(cat "$work/t")" >> "$work/all"
  done
done
COMMIT="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$(git diff --quiet HEAD -- include 2>/dev/null || echo ' + uncommitted changes')" \
NVCC_VERSION="$(nvcc --version | tail -2 | head -1)" python3 - "$work/all" "${headers[@]}" <<'EOF'
import os, statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
names = sys.argv[2:]
t = {i: [float(r[1]) for r in rows if int(r[0]) == i] for i in range(len(names))}
m = {i: [int(r[2]) for r in rows if int(r[0]) == i] for i in range(len(names))}
floor = statistics.median(t[0])
TARGET = {"cuprobe/cuprobe.cuh": 7.0, "cuprobe/measure.cuh": 3.5}  # x floor; others 3
TARGET.update({k + "@separate": v for k, v in list(TARGET.items())})
print("| header | median | min | median - floor | x floor | target | peak memory |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for i, n in enumerate(names):
    x = statistics.median(t[i]) / floor
    system = n.endswith("@system")
    goal = "" if i == 0 or system else TARGET.get(n, 3.0)
    verdict = "" if goal == "" else f"<= {goal} x: {'met' if x <= goal else '**not met**'}"
    label = f"`{n.split('@')[0]}`" + (" (separate compilation)" if n.endswith("@separate") else "")
    if system:
        label = f"the headers outside cuprobe that `{n.split('@')[0]}`'s files include, alone"
    print(f"| {label} | {statistics.median(t[i]):.2f} s | {min(t[i]):.2f} s | "
          f"{statistics.median(t[i]) - floor:.2f} s | {x:.1f} | {verdict} | "
          f"{max(m[i]) / 1024:.0f} MB |")
print(f"\n{len(t[0])} runs each, interleaved, on {os.cpu_count()} cores; "
      f"{os.environ['NVCC_VERSION']}; commit {os.environ['COMMIT']}")
EOF
