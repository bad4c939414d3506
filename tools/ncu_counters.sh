#!/usr/bin/env bash
# ncu_counters: an example's counters, counted by the library and by Nsight Compute, on the same
# launches, compared (tools/ncu_counters.py).
#   tools/ncu_counters.sh BUILD_DIR OUT_PREFIX EXAMPLE [ARGS ...]
# Runs `EXAMPLE ARGS --profile --counters dram,l2 --json OUT_PREFIX.counted.json` (every
# benchmark one call, counted by the library's pass outside ncu), then the same program and
# arguments with `--profile` under `ncu --clock-control none --cache-control none --nvtx
# --print-nvtx-rename kernel` (each kernel named after the benchmark whose NVTX range holds it;
# the L2 left as the program leaves it, as the library's pass does) collecting the same metrics
# into OUT_PREFIX.ncu.csv, and writes the comparison into OUT_PREFIX.md.
# Exit status: 0 every pair agrees, 3 nothing to compare (ncu saw no kernel inside the ranges the
# library counted: tools/ncu_counters.py), 1 a difference or a failed run, 77 (CTest's Skipped)
# without ncu, without a GPU or without access to the performance counters.
set -uo pipefail
usage="usage: tools/ncu_counters.sh BUILD_DIR OUT_PREFIX EXAMPLE [ARGS ...]"
build="${1:?$usage}" out="${2:?$usage}" example="${3:?$usage}"
shift 3
here="$(cd "$(dirname "$0")" && pwd)"
ncu_bin="$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"
[ -n "$ncu_bin" ] || { echo "ncu_counters: skipped: ncu not found" >&2; exit 77; }
nvidia-smi -L > /dev/null 2>&1 || { echo "ncu_counters: skipped: no GPU" >&2; exit 77; }
exe="$build/examples/$example"
[ -x "$exe" ] || { echo "ncu_counters: $exe not built" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
sets="${CUPROBE_NCU_COUNTERS_SETS:-dram,l2}"
"$exe" "$@" --profile --counters "$sets" --json "$out.counted.json" > "$out.counted.txt" 2>&1 ||
  { tail -5 "$out.counted.txt"; echo "ncu_counters: $example --profile --counters failed" >&2; exit 1; }
metrics=$(python3 -c '
import json, sys
names = []
for b in json.load(open(sys.argv[1]))["benchmarks"]:
    for v in (b.get("counters") or {}).get("values", []):
        if v["metric"].endswith(".sum") and v["metric"] not in names:
            names.append(v["metric"])
print(",".join(names))' "$out.counted.json")
[ -n "$metrics" ] || { echo "ncu_counters: the library counted nothing ($(grep -m1 -o 'missing[^,]*' "$out.counted.json"))" >&2; exit 1; }
"$ncu_bin" --clock-control none --cache-control none --nvtx --print-nvtx-rename kernel --csv --page raw \
  --metrics "$metrics" "$exe" "$@" --profile > "$out.ncu.csv" 2> "$out.ncu.log"
rc=$?
if grep -q "ERR_NVGPUCTRPERM" "$out.ncu.csv" "$out.ncu.log" 2> /dev/null; then
  echo "ncu_counters: skipped: no access to the performance counters (ERR_NVGPUCTRPERM)" >&2
  exit 77
fi
[ $rc = 0 ] || { tail -5 "$out.ncu.log"; echo "ncu_counters: ncu failed ($rc)" >&2; exit 1; }
l2=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["device"].get("l2_bytes", 0))' "$out.counted.json" 2> /dev/null || echo 0)
python3 "$here/ncu_counters.py" "$out.counted.json" "$out.ncu.csv" --l2-bytes "$l2" --markdown "$out.md"
