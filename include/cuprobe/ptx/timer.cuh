// cuprobe/ptx/timer.cuh: in-kernel clocks and identity registers.
//
//   const auto t0 = cuprobe::ptx::clock64();
//   ... timed instructions ...
//   const auto t1 = cuprobe::ptx::clock64();   // SM cycles; see measure/region_timer.cuh
//
// The readers use cuda::ptx::get_sreg_* (asm volatile: never removed, never reordered with
// other volatile asm). Each is also fenced by an empty asm with a "memory" clobber, so that
// the compiler does not move loads and stores across the read either. The SASS test
// tests/sass/timer.cu checks that the reads stay around the timed instructions.
//
// %clock / %clock64 count the cycles of the SM the thread runs on (per-SM counters, not
// synchronised across SMs); %globaltimer counts nanoseconds, with a coarser update interval
// (measured by measure/timer_calibration.cuh).
#pragma once

#include <cuda/ptx>

#include <cstdint>

namespace cuprobe::ptx {

namespace detail {
__device__ __forceinline__ void compiler_barrier() { asm volatile("" ::: "memory"); }
}  // namespace detail

/// %clock: the low 32 bits of the SM cycle counter (wraps every ~2 s at 2 GHz).
__device__ __forceinline__ std::uint32_t clock32() {
  detail::compiler_barrier();
  const std::uint32_t t = cuda::ptx::get_sreg_clock();
  detail::compiler_barrier();
  return t;
}

/// %clock64: the 64-bit SM cycle counter.
__device__ __forceinline__ std::uint64_t clock64() {
  detail::compiler_barrier();
  const std::uint64_t t = cuda::ptx::get_sreg_clock64();
  detail::compiler_barrier();
  return t;
}

/// %globaltimer: nanoseconds, the same clock on every SM (coarse update interval).
__device__ __forceinline__ std::uint64_t globaltimer() {
  detail::compiler_barrier();
  const std::uint64_t t = cuda::ptx::get_sreg_globaltimer();
  detail::compiler_barrier();
  return t;
}

/// %smid: the SM this thread runs on.
__device__ __forceinline__ std::uint32_t smid() { return cuda::ptx::get_sreg_smid(); }
/// %warpid: the warp slot on its SM (may change over a warp's life; use for diagnostics only).
__device__ __forceinline__ std::uint32_t warpid() { return cuda::ptx::get_sreg_warpid(); }
/// %laneid: 0..31 within the warp.
__device__ __forceinline__ std::uint32_t laneid() { return cuda::ptx::get_sreg_laneid(); }
/// %nsmid: upper bound of %smid (SM ids need not be contiguous).
__device__ __forceinline__ std::uint32_t nsmid() { return cuda::ptx::get_sreg_nsmid(); }

/// Makes `v` look used to the compiler without emitting an instruction (a register sink).
template <class T>
__device__ __forceinline__ void keep_register(const T& v) {
  if constexpr (sizeof(T) == 4)
    asm volatile("" ::"r"(*reinterpret_cast<const std::uint32_t*>(&v)));
  else if constexpr (sizeof(T) == 8)
    asm volatile("" ::"l"(*reinterpret_cast<const std::uint64_t*>(&v)));
  else if constexpr (sizeof(T) == 2)
    asm volatile("" ::"h"(*reinterpret_cast<const std::uint16_t*>(&v)));
  else
    static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 2,
                  "cuprobe::ptx::keep_register takes 2-, 4- or 8-byte values");
}

}  // namespace cuprobe::ptx
