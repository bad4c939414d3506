// cuprobe/pipeline/roles.cuh: the roles of a warp-specialised kernel's warpgroups.
//
//   namespace pl = cuprobe::pipeline;  namespace p = cuprobe::ptx;
//   if (pl::warpgroup_index() == 0) { p::setmaxnreg_dec<pl::producer_registers>(); ... }
//   else                            { p::setmaxnreg_inc<pl::consumer_registers>(); ... }
//
// warpgroup_index() is the warp-uniform warpgroup of the thread (threadIdx.x / 128, broadcast
// from lane 0 so that ptxas knows it is uniform); producer_registers / consumer_registers are the
// setmaxnreg targets of the classic 1 producer + 2 consumer warpgroups at 384 threads
// (128 x 40 + 256 x 232 = 64512 <= 65536 registers).
#pragma once

#include <cstdint>

#include "cuprobe/ptx/setmaxnreg.cuh"

namespace cuprobe::pipeline {

/// Threads in a warpgroup (four consecutive warps: the unit of wgmma and setmaxnreg).
inline constexpr unsigned warpgroup_threads = 128;

/// setmaxnreg targets for 1 producer + 2 consumer warpgroups (384 threads, 1 CTA per SM).
inline constexpr std::uint32_t producer_registers = 40;
inline constexpr std::uint32_t consumer_registers = 232;  ///< Each consumer warpgroup's.
static_assert(producer_registers * 128 + 2 * consumer_registers * 128 <= 65536,
              "the producer and consumer register targets must fit the SM's 64 Ki registers");

/// This thread's warpgroup, warp-uniform (lane 0's value).
__device__ __forceinline__ unsigned warpgroup_index() {
  return __shfl_sync(0xffffffffu, threadIdx.x / warpgroup_threads, 0);
}
/// This thread's index within its warpgroup (0 .. 127).
__device__ __forceinline__ unsigned warpgroup_thread() { return threadIdx.x % warpgroup_threads; }

}  // namespace cuprobe::pipeline
