// cuprobe/hopper/pipeline.cuh: the multi-stage TMA -> consumer ring of a warp-specialised
// kernel (full/empty mbarriers per stage, walked with ptx::pipeline_state), and the roles of
// its warpgroups (producer: few registers; consumers: many).
//
//   namespace h = cuprobe::hopper;
//   __shared__ h::tma_pipeline<4, 2> pipe;                   // 4 stages, clusters of 2 CTAs
//   if (threadIdx.x == 0) pipe.init(/*consumers per CTA=*/2);
//   cuprobe::ptx::cluster::sync();                           // inits visible cluster-wide
//   // producer (one thread):                 // consumer (one elected thread per warpgroup):
//   auto p = pipe.producer_start();           auto c = pipe.consumer_start();
//   pipe.acquire(p);                          pipe.wait_full(c);
//   auto* bar = pipe.fill(p, stage_bytes);    ... wgmma on stage c.stage ...
//   bulk::tensor_load(buf[p.stage], &map, bar, x, y);   pipe.release(c); ++c;
//   ++p;
//
// The ring is ptx::mbarrier_ring (ptx/mbarrier_ring.cuh: its choices, from the barrier counts
// to teardown): tma_pipeline names it in this layer, and the TMA stream kernels of gen/ use the
// same type.
// Roles: warpgroup_index() is the warp-uniform warpgroup of the thread (threadIdx.x / 128,
// broadcast from lane 0 so that ptxas knows it is uniform), producer_registers /
// consumer_registers the setmaxnreg targets of the classic 1 producer + 2 consumer warpgroups
// at 384 threads (128 x 40 + 256 x 232 = 64512 <= 65536 registers).
#pragma once

#include <cstdint>

#include "cuprobe/ptx/cluster.cuh"
#include "cuprobe/ptx/mbarrier.cuh"
#include "cuprobe/ptx/mbarrier_ring.cuh"
#include "cuprobe/ptx/setmaxnreg.cuh"

namespace cuprobe::hopper {

/// Threads in a warpgroup (four consecutive warps: the unit of wgmma and setmaxnreg).
inline constexpr unsigned warpgroup_threads = 128;

/// setmaxnreg targets for 1 producer + 2 consumer warpgroups (384 threads, 1 CTA per SM).
inline constexpr std::uint32_t producer_registers = 40;
inline constexpr std::uint32_t consumer_registers = 232;
static_assert(producer_registers * 128 + 2 * consumer_registers * 128 <= 65536,
              "the producer and consumer register targets must fit the SM's 64 Ki registers");

/// This thread's warpgroup, warp-uniform (lane 0's value).
__device__ __forceinline__ unsigned warpgroup_index() {
  return __shfl_sync(0xffffffffu, threadIdx.x / warpgroup_threads, 0);
}
/// This thread's index within its warpgroup (0 .. 127).
__device__ __forceinline__ unsigned warpgroup_thread() { return threadIdx.x % warpgroup_threads; }

/// Full/empty barriers of a Stages-deep ring; Cluster CTAs share each stage's multicast operand
/// (ptx/mbarrier_ring.cuh).
template <int Stages, int Cluster = 1>
using tma_pipeline = ptx::mbarrier_ring<Stages, Cluster>;

}  // namespace cuprobe::hopper
