// cuprobe/ptx/barrier.cuh: named CTA barriers (bar.sync / bar.arrive with an id and a thread
// count), the synchronisation of a subset of a CTA's warps: one warpgroup's epilogue, or a
// producer and its consumers without stopping the rest of the block.
//
//   namespace p = cuprobe::ptx;
//   p::named_barrier_sync(1 + warpgroup, 128);    // the 128 threads of this warpgroup only
//   p::named_barrier_arrive(3, 256);              // signal, do not wait (a producer)
//
// Id 0 is __syncthreads()'s; ids 1..15 are the user's. Id and count may be run-time values; the
// count is a multiple of 32, the same in every thread naming the id (Debug builds trap with a
// message otherwise, instead of the hardware's hang). The aligned forms (bar.sync =
// barrier.sync.aligned: the whole warp together), as warp-specialised kernels call them
// warp-uniformly; asm volatile with a "memory" clobber (bar.sync orders memory among its threads).
// SASS: BAR.SYNC R, R / BAR.ARV R, R (tests/sass/hopper_pipeline.cu).
#pragma once

#include <cstdint>
#include <cstdio>

#include "cuprobe/core/arch.cuh"

namespace cuprobe::ptx {

/// The highest named-barrier id (16 barriers per CTA; 0 is __syncthreads()'s).
inline constexpr std::uint32_t max_named_barrier = 15;

namespace detail {
__device__ __forceinline__ void check_named_barrier(std::uint32_t id, std::uint32_t threads,
                                                    const char* what) {
#if CUPROBE_PTX_CHECKS
  if (id > max_named_barrier || threads == 0 || threads % 32 != 0) {
    printf(
        "cuprobe::ptx::%s: barrier id %u (0..15) with %u threads (a positive multiple of 32)"
        " in block (%u,%u,%u) thread %u\n",
        what, id, threads, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x);
    __trap();
  }
#else
  (void)id, (void)threads, (void)what;
#endif
}
}  // namespace detail

/// bar.sync id, threads: waits until `threads` threads (whole warps) have arrived at barrier id.
__device__ __forceinline__ void named_barrier_sync(std::uint32_t id, std::uint32_t threads) {
  detail::check_named_barrier(id, threads, "named_barrier_sync");
  asm volatile("bar.sync %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

/// bar.arrive id, threads: counts this warp's arrival at barrier id without waiting.
__device__ __forceinline__ void named_barrier_arrive(std::uint32_t id, std::uint32_t threads) {
  detail::check_named_barrier(id, threads, "named_barrier_arrive");
  asm volatile("bar.arrive %0, %1;" ::"r"(id), "r"(threads) : "memory");
}

}  // namespace cuprobe::ptx
