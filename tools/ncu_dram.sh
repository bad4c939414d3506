#!/usr/bin/env bash
# ncu_dram: the cache story of the DRAM benchmarks, from the hardware counters (Nsight Compute).
#   tools/ncu_dram.sh BUILD_DIR OUT_CSV
# Profiles the float4 .cg read and copy kernels of examples/dram_bandwidth on 480 MiB arrays
# (8 x the H200's L2): the persistent ones at 4 blocks/SM x 256 threads, one pass per launch and
# four passes per launch, and the covering copy at 256 threads (--profile: each kernel runs once),
# with the clocks left alone (--clock-control none), and writes the metrics as CSV:
#   L1 and L2 sector hit rates, L1 requests and sectors of global loads, L2 requests and
#   sectors of reads coming from L1 (the seed's metrics), DRAM bytes read and written, duration.
set -uo pipefail
build="${1:?usage: tools/ncu_dram.sh BUILD_DIR OUT_CSV}"
out="${2:?usage: tools/ncu_dram.sh BUILD_DIR OUT_CSV}"
ncu_bin="$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"
[ -n "$ncu_bin" ] || { echo "ncu_dram: ncu not found" >&2; exit 2; }
metrics=l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
metrics+=,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
"$ncu_bin" --clock-control none --csv --page raw --metrics "$metrics" \
  -k regex:'stream_(pass|covering)_kernel' \
  "$build/examples/dram_bandwidth" --profile --patterns read,copy --ops cg --widths 16 \
  --modes launches,in_kernel --configs 4x256 --cover-threads 256 --array-mib 480 \
  > "$out.raw" 2> "$out.log"
rc=$?
# Keep the CSV rows (ncu prints the program's own output before them).
grep -E '^"' "$out.raw" > "$out"
echo "ncu_dram: rc=$rc, $(($(wc -l < "$out") - 2)) kernel rows in $out"
exit $rc
