// cuprobe/ptx/timer.cuh: in-kernel clocks and identity registers.
//
//   const auto t0 = cuprobe::ptx::clock64();
//   ... timed instructions ...
//   const auto t1 = cuprobe::ptx::clock64();   // SM cycles; see measure/region_timer.cuh
//
// The readers use cuda::ptx::get_sreg_* (asm volatile: never removed, never reordered with
// other volatile asm). Each is also fenced by an empty asm with a "memory" clobber, so that
// the compiler does not move loads and stores across the read either (ptx::compiler_barrier,
// ptx/opaque.cuh). The SASS test
// tests/sass/measure_timer.cu checks that the reads stay around the timed instructions.
//
// %clock / %clock64 count the cycles of the SM the thread runs on (per-SM counters, not
// synchronised across SMs); %globaltimer counts nanoseconds, with a coarser update interval
// (measured by cuprobe_suite/timers.cuh).
#pragma once

// CCCL's get_sreg alone, not the twelve instruction headers of ptx/detail/cccl_ptx.cuh: every file
// that times a region includes this one. The same fallback as cccl_ptx.cuh.
#if defined(__has_include) && __has_include(<cuda/__ptx/instructions/get_sreg.h>)
#include <cuda/__ptx/instructions/get_sreg.h>
#else
#include <cuda/ptx>
#endif

#include <cstdint>

#include "cuprobe/ptx/opaque.cuh"

namespace cuprobe::ptx {

/// %clock: the low 32 bits of the SM cycle counter (wraps every ~2 s at 2 GHz).
__device__ __forceinline__ std::uint32_t clock32() {
  compiler_barrier();
  const std::uint32_t t = cuda::ptx::get_sreg_clock();
  compiler_barrier();
  return t;
}

/// %clock64: the 64-bit SM cycle counter.
__device__ __forceinline__ std::uint64_t clock64() {
  compiler_barrier();
  const std::uint64_t t = cuda::ptx::get_sreg_clock64();
  compiler_barrier();
  return t;
}

/// %globaltimer: nanoseconds, the same clock on every SM (coarse update interval).
__device__ __forceinline__ std::uint64_t globaltimer() {
  compiler_barrier();
  const std::uint64_t t = cuda::ptx::get_sreg_globaltimer();
  compiler_barrier();
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

}  // namespace cuprobe::ptx
