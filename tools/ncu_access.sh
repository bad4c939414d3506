#!/usr/bin/env bash
# ncu_access: the sector model of examples/access_patterns against Nsight Compute's counts.
#   tools/ncu_access.sh BUILD_DIR OUT_PREFIX [REQUIRE_GPU]
# Runs `access_patterns --ncu-set OUT_PREFIX.expected.csv` under ncu (clocks left alone), which
# launches kernels::access_kernel once per pattern of the test set (suite::access_test_set(),
# read then copy, the L2 working set, one pass) and writes the model's sectors and lines per
# request and the requests of each launch, in launch order. ncu collects per access_kernel
# launch (-k regex:access_kernel, so the fill and check kernels are left out):
#   l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum, l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
#   l1tex__t_requests_pipe_lsu_mem_global_op_st.sum, l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
#   lts__t_sectors_srcunit_tex_op_read.sum, dram__bytes_read.sum, gpu__time_duration.sum
# into OUT_PREFIX.ncu.csv; tools/access_check.py compares sectors per request (loads, and
# stores of the copies) and requests with the model and writes OUT_PREFIX.md (the table) and
# OUT_PREFIX.summary.json (access.model_matches_ncu = 1 or 0).
# Exit status: 0 all match, 1 a mismatch or a failed run, 77 (CTest's Skipped) without ncu,
# without a GPU (unless REQUIRE_GPU is 1) or without access to the performance counters.
set -uo pipefail
usage="usage: tools/ncu_access.sh BUILD_DIR OUT_PREFIX [REQUIRE_GPU]"
build="${1:?$usage}"
out="${2:?$usage}"
require_gpu="${3:-0}"
here="$(cd "$(dirname "$0")" && pwd)"
python="${PYTHON:-python3}"
ncu_bin="$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"
if [ -z "$ncu_bin" ]; then echo "ncu_access: skipped: ncu not found" >&2; exit 77; fi
if ! nvidia-smi -L > /dev/null 2>&1; then
  echo "ncu_access: no GPU (nvidia-smi -L fails)" >&2
  [ "$require_gpu" = 1 ] && exit 1
  exit 77
fi
exe="$build/examples/access_patterns"
[ -x "$exe" ] || { echo "ncu_access: $exe not built" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum
metrics+=,lts__t_sectors_srcunit_tex_op_read.sum,dram__bytes_read.sum,gpu__time_duration.sum
"$ncu_bin" --clock-control none --csv --page raw --metrics "$metrics" -k regex:access_kernel \
  "$exe" --ncu-set "$out.expected.csv" > "$out.raw" 2> "$out.log"
rc=$?
if grep -q "ERR_NVGPUCTRPERM" "$out.raw" "$out.log" 2>/dev/null; then
  echo "ncu_access: skipped: no permission for the performance counters (ERR_NVGPUCTRPERM)" >&2
  exit 77
fi
grep -E '^"' "$out.raw" > "$out.ncu.csv"
if [ $rc -ne 0 ]; then
  echo "ncu_access: ncu exited $rc (see $out.log, $out.raw)" >&2
  tail -20 "$out.log" >&2
  exit 1
fi
"$python" "$here/access_check.py" "$out.expected.csv" "$out.ncu.csv" --markdown "$out.md" \
  --summary "$out.summary.json"
