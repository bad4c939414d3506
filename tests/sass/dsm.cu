// SASS probes for cuprobe_suite/kernels/dsm.cuh under names the checks can select
// (tests/areas/dsm.cmake): the chase loop (ld.shared::cluster.b32 -> LD.E through the shared
// window), the width of each bandwidth kernel's loads (LD.E, LD.E.64, LD.E.128), U = 8 per round,
// every load inside the round loop, the cluster barriers around the timed region, no local memory.
// Compiled for sm_80 it must fail with the sentence of ptx/cluster.cuh (host.dsm_needs_sm90).
#include <cuprobe_suite/kernels/dsm.cuh>

#include <cstdint>

namespace kernels = cuprobe::suite::kernels;

extern "C" __global__ void dsm_chase(kernels::dsm_chase_args a) { kernels::dsm_chase_body(a); }

#define PROBE_DSM_BW(NAME, T) \
  extern "C" __global__ void NAME(kernels::dsm_bw_args a) { kernels::dsm_bw_body<T, 8>(a); }
// clang-format off
PROBE_DSM_BW(dsm_read4, std::uint32_t)  // U = 8 = suite::dsm_bw_unroll
PROBE_DSM_BW(dsm_read8, uint2)
PROBE_DSM_BW(dsm_read16, uint4)
static_assert(true, "the end of the probe list");
// clang-format on
