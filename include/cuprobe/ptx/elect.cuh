// cuprobe/ptx/elect.cuh: elect.sync, one leader lane out of a set of lanes of a warp (sm_90).
//
//   namespace p = cuprobe::ptx;
//   if (p::elect_one_sync()) {                       // one lane of the (full) warp
//     cuprobe::ptx::mbarrier::arrive_expect_tx(&bar, bytes);
//     cuprobe::ptx::bulk::load(buf, src, &bar, bytes);
//   }
//   const p::elect_result e = p::elect_sync(0x0000ffffu);   // lanes 0..15 all call it
//
// Every lane of membermask executes it together; exactly one gets is_leader, all get its lane id
// (a deterministic choice, not necessarily lane 0; a lane outside the mask: undefined). Unlike
// `threadIdx.x % 32 == 0` it tells ptxas the condition is warp-uniform-but-one, so bulk-copy
// operands stay in uniform registers. Inline PTX (CCCL has none), asm volatile. SASS: ELECT P0,
// URx, PT (tests/sass/hopper_async_misc.cu).
#pragma once

#include <cstdint>

#include "cuprobe/core/arch.cuh"

namespace cuprobe::ptx {

/// What elect_sync returns to each lane.
struct elect_result {
  bool is_leader;             ///< true in exactly one lane of the mask
  std::uint32_t leader_lane;  ///< the leader's %laneid, the same in every lane of the mask
};

/// elect.sync over the lanes of `membermask` (every one of them must call it).
template <class T = void>
__device__ __forceinline__ elect_result elect_sync(std::uint32_t membermask = 0xffffffffu) {
  CUPROBE_REQUIRE_SM(900, T, "cuprobe::ptx::elect_sync needs sm_90 or newer (elect.sync)");
  std::uint32_t lane, leader;
  asm volatile(
      "{\n\t.reg .pred p;\n\t"
      "elect.sync %0|p, %2;\n\t"
      "selp.u32 %1, 1, 0, p;\n\t}"
      : "=r"(lane), "=r"(leader)
      : "r"(membermask));
  return elect_result{leader != 0, lane};
}

/// elect.sync over the full warp: true in one lane.
template <class T = void>
__device__ __forceinline__ bool elect_one_sync() {
  return elect_sync<T>(0xffffffffu).is_leader;
}

}  // namespace cuprobe::ptx
