#!/usr/bin/env bash
# ncu_ceilings: what stops the cache ceilings, from the hardware counters (Nsight Compute).
#   tools/ncu_ceilings.sh BUILD_DIR OUT_DIR
# Profiles the kernels behind device_report's L2 read/write/copy and L1 read headlines
# (examples/device_report --ceilings 1 --profile --no-record 1: each measurement once; kernels
# gen::cache_bw_kernel<pattern, float4, load op, store op, U>), with the clocks left alone
# (--clock-control none), and writes OUT_DIR/ncu_ceilings.csv (ncu's raw page), .raw (the
# program's output and ncu's) and .log. Collected:
#   breakdown:l1tex__throughput...   every L1TEX sub-unit's share of its peak (the one near 100 %
#                                    is the limit: data-stage wavefronts, tag lookups, ...)
#   breakdown:lts__throughput...     the same for the L2 slices (tag lookups, data banks, the
#                                    crossbar ports)
#   lts__t_sectors_op_read/write     L2 sectors read and written, in all and per slice per cycle
#   l1tex__t_sectors_pipe_lsu_mem_global_op_ld, l1tex__t_sector_hit_rate, sm and L2 cycles
# and sections SpeedOfLight and WarpStateStats (the stall reasons). tools/ncu_table.py is not
# needed: the CSV has one row per kernel.
set -uo pipefail
usage="usage: tools/ncu_ceilings.sh BUILD_DIR OUT_DIR"
build="${1:?$usage}"
out="${2:?$usage}"
ncu_bin="$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"
[ -n "$ncu_bin" ] || { echo "ncu_ceilings: ncu not found" >&2; exit 2; }
mkdir -p "$out" || { echo "ncu_ceilings: cannot create $out" >&2; exit 2; }
metrics=breakdown:l1tex__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,breakdown:lts__throughput.avg.pct_of_peak_sustained_elapsed
metrics+=,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum
metrics+=,lts__t_sectors_op_read.avg.per_cycle_elapsed,lts__t_sectors_op_write.avg.per_cycle_elapsed
metrics+=,lts__cycles_elapsed.avg,lts__cycles_elapsed.avg.per_second
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sector_hit_rate.pct
metrics+=,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.avg.per_cycle_elapsed
metrics+=,sm__cycles_elapsed.avg,sm__cycles_elapsed.avg.per_second,gpu__time_duration.sum
"$ncu_bin" --clock-control none --csv --page raw --section SpeedOfLight --section WarpStateStats \
  --metrics "$metrics" -k 'regex:cache_bw_kernel' \
  "$build/examples/device_report" --ceilings 1 --profile --no-record 1 \
  > "$out/ncu_ceilings.raw" 2> "$out/ncu_ceilings.log"
rc=$?
grep -E '^"' "$out/ncu_ceilings.raw" > "$out/ncu_ceilings.csv"
echo "ncu_ceilings: rc=$rc, $(($(wc -l < "$out/ncu_ceilings.csv") - 2)) kernel rows in $out/ncu_ceilings.csv"
exit $rc
