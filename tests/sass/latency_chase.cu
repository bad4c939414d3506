// SASS probes for gen/chase.cuh: the timed chase loops must be chains of dependent loads with
// the intended instruction (LDG.E.64 default caching, LDG.E.64.STRONG.GPU for .cg, LDS for
// shared), timed by CS2R clock reads, without local memory.
#include <cuprobe/gen/chase.cuh>

namespace g = cuprobe::gen;
template __global__ void g::chase_kernel<g::chase_load_global>(g::chase_kernel_args,
                                                               g::chase_load_global,
                                                               g::chase_lane_out*);
template __global__ void g::chase_kernel<g::chase_load_global_cg>(g::chase_kernel_args,
                                                                  g::chase_load_global_cg,
                                                                  g::chase_lane_out*);
template __global__ void g::shared_chase_kernel<0>(const std::uint32_t*, std::uint32_t,
                                                   std::uint32_t, g::chase_kernel_args,
                                                   g::chase_lane_out*);
