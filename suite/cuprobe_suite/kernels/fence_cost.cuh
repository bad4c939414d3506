// cuprobe_suite/kernels/fence_cost.cuh: the kernel of the fence-cost experiment
// (cuprobe_suite/ordering.cuh: fence_cost, fence_costs, fence_cost_by_home): a loop of (store;
// fence), or of stores alone, between two clock64 reads, on rows the caller places.
//
//   kernels::fence_cost_kernel<cuprobe::ptx::sem::sc, cuprobe::ptx::scope::gpu, true>
//       <<<1, 32>>>(line_addresses, warp_cycles, 1024, /*target_sm=*/-1, ran_on, unsupported);
#pragma once

#include <cstdint>

#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::suite::kernels {

/// Rows of the fence-cost scratch: iteration i stores to row i % 8, so that no two stores of the
/// loop body share an address (ptxas deletes a store that the next one overwrites, asm volatile
/// or not, which would leave the baseline with fewer stores).
inline constexpr unsigned fence_cost_rows = 8;

/// What fence_cost_kernel's *ran_on holds before a block claims the launch.
inline constexpr unsigned fence_cost_unclaimed = 0xffffffffu;

/// One block: every thread loops `iterations` times (a multiple of fence_cost_rows) over (store
/// to its word of row i % 8; fence) -- without the fence when Fence is false -- between two
/// clock64() reads; lane 0 of each warp writes the warp's cycles. Where the stores go: row r of
/// warp w is the 128-byte line at address lines[r * warps + w] (lane l stores word l), so the
/// caller places every row (cuprobe_suite/ordering.cuh: one allocation, or lines the L2 homes
/// near to or far from an SM). target_sm < 0: the grid is one block, it runs. Otherwise the
/// first block to start on SM target_sm runs and every other returns at once. The block that
/// runs writes its %smid to *ran_on (which must hold fence_cost_unclaimed). When the pass being
/// compiled lacks the fence, block 0 sets *unsupported instead and nothing is timed.
template <class Sem, class Scope, bool Fence>
__global__ void fence_cost_kernel(const std::uint64_t* lines, unsigned long long* warp_cycles,
                                  unsigned iterations, int target_sm, unsigned* ran_on,
                                  int* unsupported) {
  if constexpr (!ptx::fence_supported_v<Sem, Scope>) {
    if (threadIdx.x == 0 && blockIdx.x == 0) *unsupported = 1;
  } else {
    __shared__ bool mine;
    if (threadIdx.x == 0) {
      const unsigned sm = ptx::smid();
      mine = (target_sm < 0 || sm == unsigned(target_sm)) &&
             atomicCAS(ran_on, fence_cost_unclaimed, sm) == fence_cost_unclaimed;
    }
    __syncthreads();
    if (!mine) return;
    const unsigned warps = (blockDim.x + 31) / 32, warp = threadIdx.x / 32;
    unsigned* row[fence_cost_rows];
#pragma unroll
    for (unsigned r = 0; r < fence_cost_rows; ++r)
      row[r] = reinterpret_cast<unsigned*>(lines[r * warps + warp]) + threadIdx.x % 32;
    __syncthreads();
    const std::uint64_t t0 = ptx::clock64();
#pragma unroll 1
    for (unsigned i = 0; i < iterations; i += fence_cost_rows) {
#pragma unroll
      for (unsigned r = 0; r < fence_cost_rows; ++r) {
        ptx::st(row[r], i + r);  // asm volatile: kept, not merged
        if constexpr (Fence) ptx::fence<Sem, Scope>();
      }
    }
    const std::uint64_t t1 = ptx::clock64();
    if (threadIdx.x % 32 == 0) warp_cycles[warp] = t1 - t0;
  }
}

}  // namespace cuprobe::suite::kernels
