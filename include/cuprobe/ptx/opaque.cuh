// cuprobe/ptx/opaque.cuh: the library's one optimisation barrier, in three forms.
//
//   float acc = init;
//   cuprobe::ptx::opaque(acc);          // the compiler forgets what it knew of acc's value
//   for (...) acc = fmaf(acc, b, c);    // so the chain cannot be folded or hoisted above here
//   cuprobe::ptx::keep(acc);            // acc counts as used here: the chain cannot be deleted
//   cuprobe::ptx::compiler_barrier();   // no load or store moves across this point
//
// None emits an instruction; each is an empty `asm volatile`. opaque(v) takes v as "+r"/"+l"/
// "+h": computations on v can neither move above it nor be evaluated at compile time (pin a chain
// between two clock reads, hide a loop-invariant value). keep(v) takes v as input only: it must
// be computed by this point. compiler_barrier() is a "memory" clobber: the compiler moves no
// memory access across it; the hardware may still reorder (a fence is ptx/fence.cuh's).
// Values of 1, 2, 4, 8 or 16 bytes of any trivially copyable type (float, int, float4, a
// packed f16x2 ...) are accepted; 16-byte values travel as two 8-byte registers.
// tests/sass/compute_ops.cu and tests/sass/latency_chase.cu check that chains stay between the
// clock reads with these barriers.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cuprobe::ptx {

namespace detail {
template <class T>
inline constexpr bool opaque_size_ok = sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                                       sizeof(T) == 8 || sizeof(T) == 16;
}  // namespace detail

/// No memory access is moved by the compiler across this point (no instruction is emitted).
__device__ __forceinline__ void compiler_barrier() { asm volatile("" ::: "memory"); }

/// The compiler must assume `v` was read and rewritten here (no instruction is emitted).
template <class T>
__device__ __forceinline__ void opaque(T& v) {
  static_assert(std::is_trivially_copyable_v<T> && detail::opaque_size_ok<T>,
                "cuprobe::ptx::opaque: T must be trivially copyable and 1, 2, 4, 8 or 16 bytes");
  if constexpr (sizeof(T) == 16) {
    std::uint64_t u[2];
    std::memcpy(u, &v, 16);
    asm volatile("" : "+l"(u[0]), "+l"(u[1]));
    std::memcpy(&v, u, 16);
  } else if constexpr (sizeof(T) == 8) {
    std::uint64_t u;
    std::memcpy(&u, &v, 8);
    asm volatile("" : "+l"(u));
    std::memcpy(&v, &u, 8);
  } else if constexpr (sizeof(T) == 4) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    asm volatile("" : "+r"(u));
    std::memcpy(&v, &u, 4);
  } else {
    std::uint16_t u = 0;
    std::memcpy(&u, &v, sizeof(T));
    asm volatile("" : "+h"(u));
    std::memcpy(&v, &u, sizeof(T));
  }
}

/// `v` counts as used here: whatever computes it cannot be deleted (no instruction is emitted).
template <class T>
__device__ __forceinline__ void keep(const T& v) {
  static_assert(std::is_trivially_copyable_v<T> && detail::opaque_size_ok<T>,
                "cuprobe::ptx::keep: T must be trivially copyable and 1, 2, 4, 8 or 16 bytes");
  if constexpr (sizeof(T) == 16) {
    std::uint64_t u[2];
    std::memcpy(u, &v, 16);
    asm volatile("" ::"l"(u[0]), "l"(u[1]));
  } else if constexpr (sizeof(T) == 8) {
    std::uint64_t u;
    std::memcpy(&u, &v, 8);
    asm volatile("" ::"l"(u));
  } else if constexpr (sizeof(T) == 4) {
    std::uint32_t u;
    std::memcpy(&u, &v, 4);
    asm volatile("" ::"r"(u));
  } else {
    std::uint16_t u = 0;
    std::memcpy(&u, &v, sizeof(T));
    asm volatile("" ::"h"(u));
  }
}

}  // namespace cuprobe::ptx
