#!/usr/bin/env bash
# ncu_wgmma: Nsight Compute views of the tensor-core kernels: tensor-pipe utilisation,
# warp stall reasons, shared-memory throughput and the SM clock of every kernel launched.
#   tools/ncu_wgmma.sh BUILD_DIR OUT_DIR [wgmma|gemm|all]
# Mode wgmma: examples/wgmma --quick --profile --sustained-ms 0 --short-ms 1 (--profile: each
# measurement runs once; --quick still has every type at N = 64, 128, 256 SS and RS in its
# "sizes" section, the sparse points, the latency chains and 6 in-flight points), kernels
# wgmma_bench_kernel<wgmma_bench<type, N, RS, sparse, group, depth>> (the label column of the
# table is read off those template arguments). Mode gemm: examples/gemm --profile --peer 1
# --shapes S for S = 8192x8192x8192 and 8192x8192x2048, one after the other (every configuration
# of the cuprobe kernel and each cuBLASLt candidate once per shape). all: both.
# Each profile writes OUT_DIR/ncu_<name>.csv (ncu's raw page; name: wgmma, gemm_<shape>), .raw
# (the program's own output and ncu's), .log (stderr), and tools/ncu_table.py turns the CSVs into OUT_DIR/ncu_wgmma.md and
# OUT_DIR/ncu_wgmma_table.csv. Collected, with the clocks left alone (--clock-control none):
#   sections SpeedOfLight, ComputeWorkloadAnalysis, MemoryWorkloadAnalysis, WarpStateStats
#   (its stall reasons: smsp__average_warp_latency_issue_stalled_* per issued instruction),
#   LaunchStats; and the metrics of `wanted` below that this ncu lists (ncu --query-metrics;
#   the candidates for the tensor pipe differ between ncu versions: the table says which one it
#   found). A metric this ncu does not list is left out with a note on stderr, not a failure.
set -uo pipefail
usage="usage: tools/ncu_wgmma.sh BUILD_DIR OUT_DIR [wgmma|gemm|all]"
build="${1:?$usage}"
out="${2:?$usage}"
mode="${3:-all}"
here="$(cd "$(dirname "$0")" && pwd)"
ncu_bin="$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"
[ -n "$ncu_bin" ] || { echo "ncu_wgmma: ncu not found" >&2; exit 2; }
case "$mode" in wgmma|gemm|all) ;; *) echo "ncu_wgmma: unknown mode '$mode' ($usage)" >&2; exit 2 ;; esac
mkdir -p "$out" || { echo "ncu_wgmma: cannot create $out" >&2; exit 2; }

wanted=(sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active
        sm__pipe_tensor_op_hmma_cycles_active.avg.pct_of_peak_sustained_active
        sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active
        sm__inst_executed_pipe_tensor_op_gmma.avg.pct_of_peak_sustained_active
        sm__inst_executed_pipe_tensor_op_gmma.sum
        l1tex__data_pipe_lsu_wavefronts_mem_shared.sum
        l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed
        l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
        sm__memory_throughput.avg.pct_of_peak_sustained_elapsed
        sm__throughput.avg.pct_of_peak_sustained_elapsed
        sm__cycles_elapsed.avg.per_second
        launch__grid_size gpu__time_duration.sum)
# Filter only when the listing names qualified metrics (it must list one every ncu has).
known="$("$ncu_bin" --query-metrics 2>/dev/null)"
grep -qw -- sm__cycles_elapsed <<< "$known" || known=""
metrics=""
for m in "${wanted[@]}"; do
  base="${m%%.*}"
  if [ -z "$known" ] || grep -qw -- "$base" <<< "$known"; then
    metrics+="${metrics:+,}$m"
  else
    echo "ncu_wgmma: this ncu does not list $base; left out" >&2
  fi
done
sections=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
          --section WarpStateStats --section LaunchStats)

rc=0
csvs=()
profile() {  # name kernel-regex program...
  local name="$1" kernels="$2"
  shift 2
  "$ncu_bin" --clock-control none --csv --page raw "${sections[@]}" --metrics "$metrics" \
    -k "$kernels" "$@" > "$out/ncu_$name.raw" 2> "$out/ncu_$name.log"
  local r=$?
  # Keep the CSV rows (ncu prints the program's own output before them).
  grep -E '^"' "$out/ncu_$name.raw" > "$out/ncu_$name.csv"
  echo "ncu_wgmma ($name): rc=$r, $(($(wc -l < "$out/ncu_$name.csv") - 2)) kernel rows in $out/ncu_$name.csv"
  [ "$r" -eq 0 ] || rc=$r
  csvs+=("$out/ncu_$name.csv")
}
if [ "$mode" = wgmma ] || [ "$mode" = all ]; then
  profile wgmma 'regex:wgmma_bench_kernel' \
    "$build/examples/wgmma" --quick --profile --sustained-ms 0 --short-ms 1
fi
if [ "$mode" = gemm ] || [ "$mode" = all ]; then
  # cuprobe's kernel is gemm_kernel<...>; cuBLASLt's Hopper kernels are named nvjet_* or *xmma*.
  # One file per shape (the kernels' names do not say the shape; the table's file column does).
  for shape in 8192x8192x8192 8192x8192x2048; do
    profile "gemm_$shape" 'regex:gemm_kernel|nvjet|xmma|cutlass' \
      "$build/examples/gemm" --profile --peer 1 --shapes "$shape"
  done
fi
python3 "$here/ncu_table.py" "${csvs[@]}" -o "$out/ncu_wgmma.md" --csv "$out/ncu_wgmma_table.csv" || rc=1
exit $rc
