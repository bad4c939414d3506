// SASS probes for cuprobe/gen/cache_bw.cuh and cuprobe_suite/kernels/smem_bw.cuh under
// names the checks can select (tests/areas/cache.cmake; cuprobe_suite/kernels/l2_home_write.cuh
// too): the access width of each kernel, U accesses per round, every access inside the round loop
// (not hoisted by ptxas), no local memory.
#include <cuprobe/gen/cache_bw.cuh>
#include <cuprobe_suite/kernels/cache_bw_tma.cuh>
#include <cuprobe_suite/kernels/l2_home_write.cuh>
#include <cuprobe_suite/kernels/smem_bw.cuh>

#include <cstdint>

namespace gen = cuprobe::gen;
namespace kernels = cuprobe::suite::kernels;
namespace cache = cuprobe::ptx::cache;
using gen::stream_pattern;

#define PROBE_CACHE_BW(NAME, P, LD, U)                                                           \
  extern "C" __global__ void NAME(gen::cache_bw_args a) {                                        \
    gen::cache_bw_body<stream_pattern::P, float4, cache::LD, gen::paired_store_t<cache::LD>, U>( \
        a);                                                                                      \
  }
// clang-format off
PROBE_CACHE_BW(l2_read_u4, read, cg, 4)      // U = gen::cache_bw_unroll
PROBE_CACHE_BW(l2_write_u4, write, cg, 4)
PROBE_CACHE_BW(l2_copy_u4, copy, cg, 4)
PROBE_CACHE_BW(l1_read_u16, read, none, 16)  // U = suite::cache_bw_l1_unroll
PROBE_CACHE_BW(l2_read_u8, read, cg, 8)
PROBE_CACHE_BW(l2_read_u16, read, cg, 16)
static_assert(true, "the end of the probe list");
// clang-format on

// The tma_bulk write path of suite::l2_bandwidth (4 stages: its default).
template __global__ void kernels::l2_bulk_write_kernel<4>(kernels::l2_bulk_write_args);
// The home write path (cuprobe_suite/l2_home_write.cuh): st.global.cg.v4.
template __global__ void kernels::l2_home_write_kernel<cache::cg>(kernels::l2_home_write_args);

#define PROBE_SMEM_BW(NAME, T, STORE)                        \
  extern "C" __global__ void NAME(kernels::smem_bw_args a) { \
    kernels::smem_bw_body<T, STORE, 8>(a);                   \
  }
// clang-format off
PROBE_SMEM_BW(smem_ld4, std::uint32_t, false)
PROBE_SMEM_BW(smem_ld8, uint2, false)
PROBE_SMEM_BW(smem_ld16, uint4, false)
PROBE_SMEM_BW(smem_st4, std::uint32_t, true)
PROBE_SMEM_BW(smem_st16, uint4, true)
static_assert(true, "the end of the probe list");
// clang-format on
