#!/usr/bin/env bash
# plots: the PNGs of docs/results/<gpu>/ from the examples' JSON in one folder (gpu-check.sh
# calls it on its results folder). Needs python3 with matplotlib. Missing inputs are skipped.
#   scripts/plots.sh RESULTS_DIR
set -uo pipefail
dir="${1:?usage: scripts/plots.sh RESULTS_DIR}"
plot="$(dirname "$0")/../tools/plot.py"
p() { local in="$dir/$1"; shift; [ -f "$in" ] && python3 "$plot" "$@" "$in" || echo "plots: skipped ($in missing or failed)"; }

# DRAM bandwidth: one heatmap panel per case (width x operator x loop) of the persistent grids,
# one figure per pattern; then the best configuration of every case, covering grids included.
for pat in read write copy mixed; do
  p dram_bandwidth.json heatmap --x threads --y blocks_per_sm --value rates.gb_per_s \
    --facet case --where params.pattern=$pat --where params.grid=persistent --ylabel "GB/s" \
    --title "DRAM $pat bandwidth (GB/s), persistent grids, by blocks per SM x threads per block" \
    -o "$dir/dram_${pat}_heatmap.png"
done
p dram_bandwidth.json bar --label params.case --value rates.gb_per_s --agg max --horizontal \
  --name-prefix stream --ylabel "GB/s, best configuration" \
  --title "DRAM bandwidth per case, best configuration" -o "$dir/dram_cases_bar.png"
p dram_bandwidth.json line --x params.threads --y rates.gb_per_s --series params.case \
  --where params.grid=covering --where params.element_bytes=16 --name-prefix stream \
  --ylabel "GB/s" --title "DRAM bandwidth of covering grids (float4) vs threads per block" \
  -o "$dir/dram_covering_vs_threads.png"
# Latency against working set (log x), one line per load.
p latency_ladder.json line --x params.bytes --y params.cycles_per_hop --series params.load --logx \
  --name-prefix latency.chase --ylabel "cycles per hop" \
  --title "Pointer-chase latency vs working set" -o "$dir/latency_vs_working_set.png"
# TLB reach: .cg chase with one node per 2 MiB or 64 KiB (log x), one line per stride.
p latency_ladder.json line --x params.bytes --y params.cycles_per_hop --series params.load --logx \
  --name-prefix latency.tlb --ylabel "cycles per hop" \
  --title "TLB reach: .cg pointer chase, one node per stride" -o "$dir/latency_tlb.png"
# Bandwidth against working set (log x, log y), one line per curve.
p cache_bandwidth.json line --x params.array_bytes --y rates.gb_per_s --series params.curve --logx --logy \
  --name-prefix cache.read \
  --ylabel "GB/s" --title "Read bandwidth vs working set (float4)" -o "$dir/bandwidth_vs_working_set.png"
# Shared memory: bytes per clock per SM against the stride between lanes (4-byte loads).
p cache_bandwidth.json line --x params.stride --y params.bytes_per_clock_per_sm --series params.instruction \
  --name-prefix smem.read --where params.bytes_per_lane=4 --ylabel "bytes / clock / SM" \
  --title "Shared-memory bandwidth vs stride (4-byte ld.shared; n-way conflicts)" -o "$dir/smem_conflicts.png"
# FP32 FMA TFLOP/s against accumulator chains, one line per block size.
p fma_throughput.json line --x params.chains --y rates.tflop_per_s --series params.block \
  --name-prefix chain.throughput \
  --ylabel "TFLOP/s" --title "FP32 FMA throughput vs independent chains per thread" \
  -o "$dir/fma_tflops_vs_chains.png"
p instruction_table.json bar --label params.op --value params.instructions_per_clock_per_sm --horizontal \
  --name-prefix chain.throughput \
  --ylabel "instructions / clock / SM" --title "Throughput per instruction" -o "$dir/instruction_throughput.png"
# TMA streams: for each direction and copy kind, one heatmap panel per CTAs per SM (KiB per
# copy x stages in flight); the chunk orders and L2 hint of --explore runs are left out.
for d_ in load store; do
  for c_ in bulk tensor; do
    p tma.json heatmap --x params.copy_kib --y params.stages --value params.tbps \
      --facet params.ctas_per_sm --name-prefix tma.$d_ --where params.copy=$c_ \
      --where params.order=interleaved --where params.store_hint=none --ylabel "TB/s" \
      --title "TMA $d_ stream ($c_) from DRAM, TB/s: KiB per copy x stages, by CTAs per SM" \
      -o "$dir/tma_${d_}_${c_}_heatmap.png"
  done
done
p tma.json heatmap --x params.copy_kib --y params.stages --value params.tbps \
  --facet params.ctas_per_sm --name-prefix tma.copy --where params.direction=copy --ylabel "TB/s" \
  --title "TMA copy stream (bulk load, then bulk store) through DRAM, TB/s read + written: KiB per copy x stages, by CTAs per SM" \
  -o "$dir/tma_copy_heatmap.png"
# WGMMA: TFLOP/s and % of peak per type, N and SS/RS (dense, the "sizes" section), then sparse.
p wgmma.json wgmma --where params.section=sizes --ylabel "TFLOP/s" \
  --title "WGMMA throughput (dense, one block per SM): TFLOP/s and % of peak by type, N, SS/RS" \
  -o "$dir/wgmma_sizes.png"
p wgmma.json wgmma --where params.section=sparse --ylabel "TFLOP/s" \
  --title "WGMMA throughput, 2:4 sparse A: TFLOP/s and % of peak by type and N" \
  -o "$dir/wgmma_sparse.png"
# Distributed shared memory: latency per target rank, one series per cluster size.
p dsm.json line --x params.target_rank --y rates.cycles_per_op --series params.cluster_size \
  --name-prefix dsm.latency --where params.remote=True --ylabel "cycles per hop" \
  --title "DSM latency: rank 0 reading rank t of its cluster" -o "$dir/dsm_latency.png"
# Access patterns (examples/access_patterns): useful bandwidth and the model's sectors per
# request against the base offset (stride 1) and against the stride (offset 0), one series per
# lane width, DRAM reads; then copy bandwidth against working set (log x).
for lv in dram l2; do
  p access_patterns.json line --x params.offset --y params.useful_gb_per_s --series params.width \
    --name-prefix access.read --where params.level=$lv --where params.shape=strided \
    --where params.stride=1 --ylabel "useful GB/s" \
    --title "Read bandwidth vs base offset ($lv working set), by bytes per lane" \
    -o "$dir/access_offset_$lv.png"
  p access_patterns.json line --x params.stride --y params.useful_gb_per_s --series params.width \
    --name-prefix access.read --where params.level=$lv --where params.shape=strided \
    --where params.offset=0 --logx --ylabel "useful GB/s" \
    --title "Read bandwidth vs stride ($lv working set), by bytes per lane" \
    -o "$dir/access_stride_$lv.png"
done
p access_patterns.json line --x params.offset --y params.sectors_per_request --series params.width \
  --name-prefix access.read --where params.level=dram --where params.shape=strided \
  --where params.stride=1 --ylabel "sectors per request (model = ncu)" \
  --title "Sectors per warp request vs base offset" -o "$dir/access_offset_sectors.png"
p access_patterns.json line --x params.stride --y params.sectors_per_request --series params.width \
  --name-prefix access.read --where params.level=dram --where params.shape=strided \
  --where params.offset=0 --logx --ylabel "sectors per request (model = ncu)" \
  --title "Sectors per warp request vs stride" -o "$dir/access_stride_sectors.png"
p access_patterns.json line --x params.working_set_bytes --y params.useful_gb_per_s \
  --series params.width --name-prefix access.copy --where params.level=sweep --logx \
  --ylabel "copy GB/s (read + written)" \
  --title "Copy bandwidth vs working set (source + destination), by bytes per lane" \
  -o "$dir/access_copy_vs_working_set.png"
exit 0
