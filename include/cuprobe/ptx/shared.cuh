// cuprobe/ptx/shared.cuh: shared-memory loads and stores at 32-bit shared addresses.
//
//   extern __shared__ float4 buf[];
//   const std::uint32_t a = cuprobe::ptx::smem_address(buf + threadIdx.x);   // cvta.to.shared
//   float4 v = cuprobe::ptx::ld_shared<float4>(a);                           // ld.shared.v4.b32
//   cuprobe::ptx::st_shared(a, v);                                           // st.shared.v4.b32
//   std::uint32_t next = cuprobe::ptx::ld_shared<std::uint32_t>(p);          // a chase hop
//
// The address is the shared window's own 32-bit address (cvta.to.shared), so LDS/STS come
// directly and address arithmetic stays 32-bit (a shared-memory chase, a bandwidth loop). 4, 8 or
// 16 bytes move in one instruction as bits; every access is `asm volatile` with a "memory"
// clobber. Debug builds (CUPROBE_PTX_CHECKS) trap with a sentence on a misaligned address.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "cuprobe/core/arch.cuh"

namespace cuprobe::ptx {

/// The 32-bit shared-state-space address of `p`, which must point into shared memory.
__device__ __forceinline__ std::uint32_t smem_address(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

namespace detail {
template <class T>
inline constexpr bool shared_width_ok = std::is_trivially_copyable_v<T> &&
                                        (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16);

__device__ __forceinline__ void check_shared(std::uint32_t addr, unsigned width, const char* what) {
#if CUPROBE_PTX_CHECKS
  if (addr % width != 0) {
    printf(
        "cuprobe::ptx::%s (%u bytes): shared address 0x%x is not aligned to the access width;"
        " trapping\n",
        what, width, addr);
    __trap();
  }
#else
  (void)addr, (void)width, (void)what;
#endif
}
}  // namespace detail

// The bit movers of ld_shared / st_shared here and of cluster::ld / st (ptx/cluster.cuh): one
// instruction of 4, 8 or 16 bytes (.b32, .v2.b32, .v4.b32) in state space SPACE, no checks.
#define CUPROBE_DETAIL_SHARED_LDST(NAME, SPACE)                                            \
  template <class T>                                                                       \
  __device__ __forceinline__ T ld_##NAME(std::uint32_t addr) {                             \
    T v;                                                                                   \
    if constexpr (sizeof(T) == 4) {                                                        \
      std::uint32_t r;                                                                     \
      asm volatile("ld." SPACE ".b32 %0, [%1];" : "=r"(r) : "r"(addr) : "memory");         \
      std::memcpy(&v, &r, 4);                                                              \
    } else if constexpr (sizeof(T) == 8) {                                                 \
      std::uint32_t r[2];                                                                  \
      asm volatile("ld." SPACE ".v2.b32 {%0, %1}, [%2];"                                   \
                   : "=r"(r[0]), "=r"(r[1])                                                \
                   : "r"(addr)                                                             \
                   : "memory");                                                            \
      std::memcpy(&v, r, 8);                                                               \
    } else {                                                                               \
      std::uint32_t r[4];                                                                  \
      asm volatile("ld." SPACE ".v4.b32 {%0, %1, %2, %3}, [%4];"                           \
                   : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])                        \
                   : "r"(addr)                                                             \
                   : "memory");                                                            \
      std::memcpy(&v, r, 16);                                                              \
    }                                                                                      \
    return v;                                                                              \
  }                                                                                        \
  template <class T>                                                                       \
  __device__ __forceinline__ void st_##NAME(std::uint32_t addr, const T& v) {              \
    if constexpr (sizeof(T) == 4) {                                                        \
      std::uint32_t r;                                                                     \
      std::memcpy(&r, &v, 4);                                                              \
      asm volatile("st." SPACE ".b32 [%0], %1;" ::"r"(addr), "r"(r) : "memory");           \
    } else if constexpr (sizeof(T) == 8) {                                                 \
      std::uint32_t r[2];                                                                  \
      std::memcpy(r, &v, 8);                                                               \
      asm volatile("st." SPACE ".v2.b32 [%0], {%1, %2};" ::"r"(addr), "r"(r[0]), "r"(r[1]) \
                   : "memory");                                                            \
    } else {                                                                               \
      std::uint32_t r[4];                                                                  \
      std::memcpy(r, &v, 16);                                                              \
      asm volatile("st." SPACE ".v4.b32 [%0], {%1, %2, %3, %4};" ::"r"(addr), "r"(r[0]),   \
                   "r"(r[1]), "r"(r[2]), "r"(r[3])                                         \
                   : "memory");                                                            \
    }                                                                                      \
  }

namespace detail {
CUPROBE_DETAIL_SHARED_LDST(cta_bits, "shared")
CUPROBE_DETAIL_SHARED_LDST(cluster_bits, "shared::cluster")
}  // namespace detail
#undef CUPROBE_DETAIL_SHARED_LDST

/// ld.shared of sizeof(T) = 4, 8 or 16 bytes at shared address `addr` (aligned to sizeof(T)).
template <class T>
__device__ __forceinline__ T ld_shared(std::uint32_t addr) {
  static_assert(detail::shared_width_ok<T>,
                "cuprobe::ptx::ld_shared: T must be trivially copyable and 4, 8 or 16 bytes");
  detail::check_shared(addr, sizeof(T), "ld_shared");
  return detail::ld_cta_bits<T>(addr);
}

/// st.shared of sizeof(T) = 4, 8 or 16 bytes at shared address `addr` (aligned to sizeof(T)).
template <class T>
__device__ __forceinline__ void st_shared(std::uint32_t addr, const T& v) {
  static_assert(detail::shared_width_ok<T>,
                "cuprobe::ptx::st_shared: T must be trivially copyable and 4, 8 or 16 bytes");
  detail::check_shared(addr, sizeof(T), "st_shared");
  detail::st_cta_bits<T>(addr, v);
}

}  // namespace cuprobe::ptx
