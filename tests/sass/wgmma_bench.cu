// SASS tier probes for cuprobe_suite/kernels/wgmma.cuh: the benchmark kernel in the configurations
// the examples and tests measure. tests/areas/wgmma.cmake pins the instruction (HGMMA / QGMMA,
// shape, types, .SP, register A) inside the MMA loop, that the MMAs of a group are not serialised
// (MMAs without gsb0, and the wait depth of the configuration), the clock reads around the loop,
// and no local memory; every SASS test also fails on ptxas's serialisation messages (C7509..C7519).
// With -DCUPROBE_INCLUDE_ONLY nothing is instantiated: the header must then compile for any
// target (tests/areas/wgmma.cmake compiles it for sm_75 and sm_80).
#include <cuprobe_suite/wgmma_suite.cuh>

#ifndef CUPROBE_INCLUDE_ONLY
namespace kernels = cuprobe::suite::kernels;
namespace wg = cuprobe::ptx::wgmma;

#define PROBE(NAME, ...)                                                                   \
  extern "C" __global__ void __launch_bounds__(384, 1) NAME(kernels::wgmma_bench_args p) { \
    kernels::wgmma_bench_body<kernels::wgmma_bench<__VA_ARGS__>>(p);                       \
  }

// The headline's configurations: 4 MMAs per group with wait_group<1>, no wait, and the latency
// chain (one MMA per group, wait_group<0>).
PROBE(bench_bf16_n256, wg::bf16, 256)
PROBE(bench_bf16_n256_nowait, wg::bf16, 256, false, false, 4, kernels::wgmma_no_wait)
PROBE(bench_bf16_n256_latency, wg::bf16, 256, false, false, 1, 0)
PROBE(bench_bf16_n256_depth3, wg::bf16, 256, false, false, 4, 3)
// The other types, A in registers, sparse.
PROBE(bench_f16_n256, wg::f16, 256)
PROBE(bench_tf32_n256, wg::tf32, 256)
PROBE(bench_e4m3_n256, wg::e4m3, 256)
PROBE(bench_e5m2_n256, wg::e5m2, 256)
PROBE(bench_bf16_n64, wg::bf16, 64)
PROBE(bench_bf16_n256_sparse, wg::bf16, 256, false, true)
PROBE(bench_e4m3_n256_sparse, wg::e4m3, 256, false, true)
// RS with N > 192 has a launch bound of 2 warpgroups (kernels::wgmma_bench::max_warpgroups): 384
// threads leave too few registers and ptxas serialises the MMAs (C7512). The library's kernel
// template carries the right bound; this one checks it.
template __global__ void kernels::wgmma_bench_kernel<kernels::wgmma_bench<wg::bf16, 256, true>>(
    kernels::wgmma_bench_args);
template __global__ void kernels::wgmma_bench_kernel<
    kernels::wgmma_bench<wg::bf16, 256, true, true>>(kernels::wgmma_bench_args);
#endif
