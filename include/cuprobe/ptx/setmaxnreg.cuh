// cuprobe/ptx/setmaxnreg.cuh: setmaxnreg, moving registers between the warpgroups of a CTA
// (sm_90a only).
//
//   __global__ void __launch_bounds__(384, 1) k(...) {     // 3 warpgroups, 168 registers each
//     if (threadIdx.x / 128 == 0) cuprobe::ptx::setmaxnreg_dec<40>();    // producer: give back
//     else cuprobe::ptx::setmaxnreg_inc<232>();                          // consumers: take
//     ...
//   }
//
// setmaxnreg.{inc,dec}.sync.aligned.u32 N: every thread of the warpgroup (4 consecutive warps,
// the first a multiple of 4) executes the same instruction; .dec releases registers down to N per
// thread, .inc blocks until the CTA's pool can raise the warpgroup to N. N is an immediate: a
// template parameter, checked at compile time (a multiple of 8 in 24..256, the PTX ISA's range).
// Keep the totals within the register file (here 128 x 40 + 256 x 232 = 384 x 168).
//
// ptxas honours it only with the register count at kernel entry known (__launch_bounds__(threads,
// 1) or -maxrregcount); otherwise it drops the instruction with an info message (C7508), which
// the SASS test (USETMAXREG in tests/sass/hopper_async_misc.cu) catches. sm_90a only, including
// against the compute_90 PTX that nvcc -arch=sm_90a also builds (CUPROBE_REQUIRE_SM90A: use
// -gencode=arch=compute_90a,code=sm_90a). Inline PTX (CCCL has no setmaxnreg), asm volatile.
#pragma once

#include <cstdint>

#include "cuprobe/core/arch.cuh"

namespace cuprobe::ptx {

namespace detail {
template <std::uint32_t N>
inline constexpr bool maxnreg_ok = N % 8 == 0 && N >= 24 && N <= 256;
/// A type dependent on N (for the architecture guard).
template <std::uint32_t N>
struct maxnreg_tag {};
}  // namespace detail

/// setmaxnreg.inc.sync.aligned.u32 N: raise this warpgroup's per-thread register limit to N.
template <std::uint32_t N>
__device__ __forceinline__ void setmaxnreg_inc() {
  static_assert(detail::maxnreg_ok<N>,
                "cuprobe::ptx::setmaxnreg_inc<N>: N must be a multiple of 8 in 24..256 "
                "(registers per thread)");
  CUPROBE_REQUIRE_SM90A(detail::maxnreg_tag<N>,
                        "cuprobe::ptx::setmaxnreg_inc needs sm_90a (an architecture-specific "
                        "feature): build only -gencode=arch=compute_90a,code=sm_90a (nvcc's "
                        "-arch=sm_90a also builds compute_90 PTX, which has no setmaxnreg)");
  if constexpr (detail::maxnreg_ok<N>) asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;" ::"n"(N));
}

/// setmaxnreg.dec.sync.aligned.u32 N: lower this warpgroup's per-thread register limit to N.
template <std::uint32_t N>
__device__ __forceinline__ void setmaxnreg_dec() {
  static_assert(detail::maxnreg_ok<N>,
                "cuprobe::ptx::setmaxnreg_dec<N>: N must be a multiple of 8 in 24..256 "
                "(registers per thread)");
  CUPROBE_REQUIRE_SM90A(detail::maxnreg_tag<N>,
                        "cuprobe::ptx::setmaxnreg_dec needs sm_90a (an architecture-specific "
                        "feature): build only -gencode=arch=compute_90a,code=sm_90a (nvcc's "
                        "-arch=sm_90a also builds compute_90 PTX, which has no setmaxnreg)");
  if constexpr (detail::maxnreg_ok<N>) asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;" ::"n"(N));
}

}  // namespace cuprobe::ptx
