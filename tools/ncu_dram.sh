#!/usr/bin/env bash
# ncu_dram: the cache story of the DRAM benchmarks, from the hardware counters (Nsight Compute).
#   tools/ncu_dram.sh BUILD_DIR OUT_CSV [dram|multicast]
# Mode dram (the default): profiles the float4 .cg read and copy kernels of
# examples/dram_bandwidth on 480 MiB arrays (8 x the H200's L2): the persistent ones at 4
# blocks/SM x 256 threads, one pass per launch and four passes per launch, and the covering copy
# at 256 threads (--profile: each kernel runs once), with the clocks left alone
# (--clock-control none), and writes the metrics as CSV:
#   L1 and L2 sector hit rates, L1 requests and sectors of global loads, L2 requests and
#   sectors of reads coming from L1, DRAM bytes read and written, duration, and the DRAM's
#   throughput as a share of its peak (dram__throughput: how close read and copy come to what
#   the memory itself delivers, the copy paying the bus's read/write turnarounds).
# Mode multicast: profiles examples/tma's cluster multicast stream (--only multicast --quick
# --profile: 16 KiB chunks x 4 stages, clusters of 1, 2 and 4, with multicast and with every CTA
# loading the chunk itself, each kernel once on the default 3.75 GiB array), kernels
# tma_multicast_stream_kernel<Stages, Cluster, Multicast> (the template arguments name the
# cluster size and the mode in the CSV's kernel name column), and writes:
#   dram__bytes_read.sum                          DRAM bytes read: the array once per pass if
#                                                 "DRAM is read once per cluster" holds
#   lts__t_sectors_op_read.sum                    L2 sectors read, every source (x 32 B)
#   lts__t_sectors_srcunit_tex_op_read.sum        L2 sectors read for the SMs (x 32 B): about the
#                                                 array with multicast, cluster size x it without
#   lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum  of those, the L2 misses
#   l1tex__m_xbar2l1tex_read_bytes.sum            bytes the crossbar delivered to the SMs
#   l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum  ... of them for TMA loads: cluster
#                                                 size x the array in both modes
#   launch__cluster_dim_x, gpu__time_duration.sum
# Metrics this ncu does not list (ncu --query-metrics, when its listing names qualified metrics)
# are left out with a note on stderr rather than failing the run. examples/tma's own table (in
# OUT_CSV.raw, before the CSV rows) gives the array's size and each point's time.
set -uo pipefail
usage="usage: tools/ncu_dram.sh BUILD_DIR OUT_CSV [dram|multicast]"
build="${1:?$usage}"
out="${2:?$usage}"
mode="${3:-dram}"
ncu_bin="$(command -v ncu || ls /usr/local/cuda/bin/ncu /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)"
[ -n "$ncu_bin" ] || { echo "ncu_dram: ncu not found" >&2; exit 2; }
case "$mode" in
  dram)
    metrics=l1tex__t_sector_hit_rate.pct,lts__t_sector_hit_rate.pct
    metrics+=,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
    metrics+=,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum
    metrics+=,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum
    metrics+=,dram__throughput.avg.pct_of_peak_sustained_elapsed
    kernels='regex:stream_(pass|covering)_kernel'
    # shellcheck disable=SC2054  # the commas are inside arguments (comma lists), not separators
    program=("$build/examples/dram_bandwidth" --profile --patterns read,copy --ops cg --widths 16
             --modes launches,in_kernel --configs 4x256 --cover-threads 256 --array-mib 480)
    ;;
  multicast)
    wanted=(dram__bytes_read.sum lts__t_sectors_op_read.sum lts__t_sectors_srcunit_tex_op_read.sum
            lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum l1tex__m_xbar2l1tex_read_bytes.sum
            l1tex__m_xbar2l1tex_read_bytes_mem_global_op_tma_ld.sum launch__cluster_dim_x
            gpu__time_duration.sum)
    # Filter only when the listing names qualified metrics (it must list one the dram mode uses).
    known="$("$ncu_bin" --query-metrics 2>/dev/null)"
    grep -qw -- lts__t_sectors_srcunit_tex_op_read <<< "$known" || known=""
    metrics=""
    for m in "${wanted[@]}"; do
      base="${m%.sum}"
      if [ -z "$known" ] || grep -qw -- "$base" <<< "$known"; then
        metrics+="${metrics:+,}$m"
      else
        echo "ncu_dram: this ncu does not list $base; left out" >&2
      fi
    done
    kernels='regex:tma_multicast_stream_kernel'
    program=("$build/examples/tma" --profile --quick --only multicast)
    ;;
  *)
    echo "ncu_dram: unknown mode '$mode' ($usage)" >&2
    exit 2
    ;;
esac
"$ncu_bin" --clock-control none --csv --page raw --metrics "$metrics" -k "$kernels" \
  "${program[@]}" > "$out.raw" 2> "$out.log"
rc=$?
# Keep the CSV rows (ncu prints the program's own output before them).
grep -E '^"' "$out.raw" > "$out"
echo "ncu_dram ($mode): rc=$rc, $(($(wc -l < "$out") - 2)) kernel rows in $out"
exit $rc
