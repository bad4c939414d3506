// cuprobe/ptx/cache.cuh: global loads and stores with a PTX cache operator or eviction hint.
//
//   namespace cache = cuprobe::ptx::cache;
//   float4 v = cuprobe::ptx::ld<cache::cs>(in + i);       // ld.global.cs.v4.b32
//   cuprobe::ptx::st<cache::wt>(out + i, v);               // st.global.wt.v4.b32
//   std::uint8_t b = cuprobe::ptx::ld<cache::nc_evict_last>(bytes + i);
//   std::printf("%s\n", cuprobe::ptx::load_instruction<cache::cs>);   // "ld.global.cs"
//
// The operator is a tag type (cuprobe::ptx::cache::*) whose `name` is its PTX spelling. A tag
// that the instruction does not accept (ld<cache::wt>, st<cache::lu>) is a compile error with a
// sentence. Values of 1, 2, 4, 8 or 16 bytes move as bits in one instruction (.b8 ... .b64,
// .v2.b32, .v4.b32, .v2.b64), so floats keep their exact bit pattern. Every wrapper is
// `asm volatile` with a "memory" clobber: the CUDA front end neither drops, merges nor moves it
// across other memory accesses. ptxas still may: it deletes a load whose value is unused and
// hoists a load whose address does not change out of a loop (docs/memory-ptx.md shows both);
// gen/stream.cuh shows how to keep every load.
//
// A T whose alignment is below its size (struct {float x, y;}) is refused at compile time. Debug
// builds (NDEBUG undefined, or CUPROBE_DEBUG) check on the device that the address is global and
// aligned to the access width (so a shared-memory pointer is caught), print the wrapper, the
// pointer and the width, and __trap(); on the host, require_aligned<T>(p, "what").
//
// Adding an operator (e.g. a combination the list below lacks) takes two lines, outside any
// namespace:  struct my_op { static constexpr const char* name = "nc.L1::evict_last.L2::128B";
//             static constexpr int min_sm = 750; };
//             CUPROBE_PTX_DEFINE_LOAD(my_op, "ld.global.nc.L1::evict_last.L2::128B")
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>
#include <vector_types.h>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/core/error.cuh"

/// The cache operator and eviction-hint tags. `name` is the PTX spelling; `min_sm` the oldest
/// architecture (x10) that accepts it.
namespace cuprobe::ptx::cache {

// clang-format off
#define CUPROBE_DETAIL_CACHE_TAG(TAG, NAME, MIN_SM)                       \
  struct TAG {                                                            \
    static constexpr const char* name = NAME;  /**< the PTX spelling */   \
    static constexpr int min_sm = MIN_SM;  /**< the oldest SM, x10 */     \
  };

// Loads and stores.
CUPROBE_DETAIL_CACHE_TAG(none, "none", 0)           ///< no qualifier: ld.global / st.global
CUPROBE_DETAIL_CACHE_TAG(cg, "cg", 0)               ///< cache global (L2, not L1)
CUPROBE_DETAIL_CACHE_TAG(cs, "cs", 0)               ///< cache streaming, likely accessed once
CUPROBE_DETAIL_CACHE_TAG(evict_normal, "L1::evict_normal", 700)  ///< L1 priority: normal
CUPROBE_DETAIL_CACHE_TAG(evict_unchanged, "L1::evict_unchanged", 700)  ///< L1 priority: unchanged
CUPROBE_DETAIL_CACHE_TAG(evict_first, "L1::evict_first", 700)  ///< L1 priority: evict first
CUPROBE_DETAIL_CACHE_TAG(evict_last, "L1::evict_last", 700)  ///< L1 priority: evict last
CUPROBE_DETAIL_CACHE_TAG(no_allocate, "L1::no_allocate", 700)  ///< no L1 allocation
// Loads only.
CUPROBE_DETAIL_CACHE_TAG(ca, "ca", 0)               ///< cache at all levels
CUPROBE_DETAIL_CACHE_TAG(lu, "lu", 0)               ///< last use
CUPROBE_DETAIL_CACHE_TAG(cv, "cv", 0)               ///< don't cache, fetch again (volatile)
CUPROBE_DETAIL_CACHE_TAG(nc, "nc", 0)               ///< non-coherent (read-only) path
CUPROBE_DETAIL_CACHE_TAG(nc_ca, "ca.nc", 0)         ///< nc: cache at all levels
CUPROBE_DETAIL_CACHE_TAG(nc_cg, "cg.nc", 0)         ///< nc: cache in L2 only
CUPROBE_DETAIL_CACHE_TAG(nc_cs, "cs.nc", 0)         ///< nc: streaming
CUPROBE_DETAIL_CACHE_TAG(nc_evict_first, "nc.L1::evict_first", 700)  ///< nc: L1 evict first
CUPROBE_DETAIL_CACHE_TAG(nc_evict_last, "nc.L1::evict_last", 700)  ///< nc: L1 evict last
CUPROBE_DETAIL_CACHE_TAG(nc_no_allocate, "nc.L1::no_allocate", 700)  ///< nc: no L1 allocation
CUPROBE_DETAIL_CACHE_TAG(L2_64B, "L2::64B", 750)    ///< prefetch 64 B into L2
CUPROBE_DETAIL_CACHE_TAG(L2_128B, "L2::128B", 750)  ///< prefetch 128 B into L2
CUPROBE_DETAIL_CACHE_TAG(L2_256B, "L2::256B", 800)  ///< prefetch 256 B into L2
CUPROBE_DETAIL_CACHE_TAG(nc_L2_256B, "nc.L2::256B", 800)  ///< nc: prefetch 256 B into L2
// Stores only.
CUPROBE_DETAIL_CACHE_TAG(wb, "wb", 0)               ///< write back
CUPROBE_DETAIL_CACHE_TAG(wt, "wt", 0)               ///< write through (to system memory)

#undef CUPROBE_DETAIL_CACHE_TAG
// clang-format on

}  // namespace cuprobe::ptx::cache

namespace cuprobe::ptx::detail {

/// Register images of the seven access widths.
struct v2b32 {
  std::uint32_t x, y;
};
struct v4b32 {
  std::uint32_t x, y, z, w;
};
struct v2b64 {
  std::uint64_t x, y;
};

/// Specialised (by CUPROBE_PTX_DEFINE_LOAD / _STORE) for every operator that ld / st accept.
template <class Op>
struct ld_forms {
  static constexpr bool defined = false;
};
template <class Op>
struct st_forms {
  static constexpr bool defined = false;
};

/// Bytes of one lane of a CUDA vector type (int2: 4, double2: 8); 0 for anything else.
// clang-format off
template <class T> inline constexpr int lane_bytes = 0;
template <> inline constexpr int lane_bytes<int2> = 4;
template <> inline constexpr int lane_bytes<uint2> = 4;
template <> inline constexpr int lane_bytes<float2> = 4;
template <> inline constexpr int lane_bytes<int4> = 4;
template <> inline constexpr int lane_bytes<uint4> = 4;
template <> inline constexpr int lane_bytes<float4> = 4;
template <> inline constexpr int lane_bytes<double2> = 8;
template <> inline constexpr int lane_bytes<longlong2> = 8;
template <> inline constexpr int lane_bytes<ulonglong2> = 8;
// clang-format on

/// The register image a T moves through: 8 bytes of 32-bit lanes use .v2.b32, 16 bytes of
/// 64-bit lanes .v2.b64, any other 16 bytes .v4.b32; scalars and vectors of 1- or 2-byte lanes
/// (char4, short4) move as one scalar of their size.
template <class T>
auto raw_image() {
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2)
    return std::uint16_t{};
  else if constexpr (sizeof(T) == 4)
    return std::uint32_t{};
  else if constexpr (sizeof(T) == 8 && lane_bytes<T> == 4)
    return v2b32{};
  else if constexpr (sizeof(T) == 8)
    return std::uint64_t{};
  else if constexpr (lane_bytes<T> == 8)
    return v2b64{};
  else
    return v4b32{};
}
template <class T>
using raw_t = decltype(raw_image<T>());

/// One access of sizeof(T) bytes needs an address aligned to sizeof(T); a T whose alignment is
/// smaller (struct {float x, y;}: 8 bytes aligned to 4) would fault on valid addresses, so ld and
/// st refuse it at compile time rather than split the access (which would change the SASS the
/// wrapper promises: one instruction).
template <class T>
inline constexpr bool aligned_to_size = sizeof(T) == 1 || alignof(T) >= sizeof(T);

template <class T>
inline constexpr bool accessible = std::is_trivially_copyable_v<T> &&
                                   (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 ||
                                    sizeof(T) == 8 || sizeof(T) == 16);

template <class R, class T>
__device__ __forceinline__ R to_raw(T v) {
  if constexpr (sizeof(T) == 1) {
    std::uint8_t b;
    std::memcpy(&b, &v, 1);
    return b;
  } else {
    R r;
    std::memcpy(&r, &v, sizeof(T));
    return r;
  }
}
template <class T, class R>
__device__ __forceinline__ T from_raw(const R& r) {
  T v;
  if constexpr (sizeof(T) == 1) {
    const std::uint8_t b = static_cast<std::uint8_t>(r);
    std::memcpy(&v, &b, 1);
  } else {
    std::memcpy(&v, &r, sizeof(T));
  }
  return v;
}

template <class Op>
__device__ __forceinline__ void check_access(const void* p, unsigned width, const char* what,
                                             const char* form) {
#if CUPROBE_PTX_CHECKS
  const bool global = __isGlobal(p) != 0;
  if (!global || reinterpret_cast<std::uintptr_t>(p) % width != 0) {
    printf("cuprobe::ptx::%s<cache::%s> (%s, %u bytes): address %p is %s; trapping\n", what,
           Op::name, form, width, p,
           global ? "not aligned to the access width" : "not in global memory");
    __trap();
  }
#else
  (void)p, (void)width, (void)what, (void)form;
#endif
}

}  // namespace cuprobe::ptx::detail

// clang-format off
/// The seven forms of one load operator; PREFIX_TEXT is its full mnemonic ("ld.global.cs").
#define CUPROBE_PTX_DEFINE_LOAD(OP, PREFIX_TEXT)                                              \
  template <>                                                                                 \
  struct cuprobe::ptx::detail::ld_forms<OP> {                                                 \
    static constexpr bool defined = true;                                                     \
    static constexpr const char* instruction = PREFIX_TEXT;                                   \
    using u16 = std::uint16_t;                                                                \
    using u32 = std::uint32_t;                                                                \
    using u64 = std::uint64_t;                                                                \
    __device__ __forceinline__ static u16 b8(const void* p) {                                 \
      u16 v;                                                                                  \
      asm volatile(PREFIX_TEXT ".b8 %0, [%1];" : "=h"(v) : "l"(__cvta_generic_to_global(p)) \
                   : "memory");                                                               \
      return v;                                                                               \
    }                                                                                         \
    __device__ __forceinline__ static u16 b16(const void* p) {                                \
      u16 v;                                                                                  \
      asm volatile(PREFIX_TEXT ".b16 %0, [%1];" : "=h"(v) : "l"(__cvta_generic_to_global(p))\
                   : "memory");                                                               \
      return v;                                                                               \
    }                                                                                         \
    __device__ __forceinline__ static u32 b32(const void* p) {                                \
      u32 v;                                                                                  \
      asm volatile(PREFIX_TEXT ".b32 %0, [%1];" : "=r"(v) : "l"(__cvta_generic_to_global(p))\
                   : "memory");                                                               \
      return v;                                                                               \
    }                                                                                         \
    __device__ __forceinline__ static u64 b64(const void* p) {                                \
      u64 v;                                                                                  \
      asm volatile(PREFIX_TEXT ".b64 %0, [%1];" : "=l"(v) : "l"(__cvta_generic_to_global(p))\
                   : "memory");                                                               \
      return v;                                                                               \
    }                                                                                         \
    __device__ __forceinline__ static cuprobe::ptx::detail::v2b32 v2_b32(const void* p) {    \
      cuprobe::ptx::detail::v2b32 v;                                                          \
      asm volatile(PREFIX_TEXT ".v2.b32 {%0, %1}, [%2];"                                     \
                   : "=r"(v.x), "=r"(v.y) : "l"(__cvta_generic_to_global(p)) : "memory");     \
      return v;                                                                               \
    }                                                                                         \
    __device__ __forceinline__ static cuprobe::ptx::detail::v4b32 v4_b32(const void* p) {    \
      cuprobe::ptx::detail::v4b32 v;                                                          \
      asm volatile(PREFIX_TEXT ".v4.b32 {%0, %1, %2, %3}, [%4];"                             \
                   : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)                               \
                   : "l"(__cvta_generic_to_global(p)) : "memory");                            \
      return v;                                                                               \
    }                                                                                         \
    __device__ __forceinline__ static cuprobe::ptx::detail::v2b64 v2_b64(const void* p) {    \
      cuprobe::ptx::detail::v2b64 v;                                                          \
      asm volatile(PREFIX_TEXT ".v2.b64 {%0, %1}, [%2];"                                     \
                   : "=l"(v.x), "=l"(v.y) : "l"(__cvta_generic_to_global(p)) : "memory");     \
      return v;                                                                               \
    }                                                                                         \
  };

/// The seven forms of one store operator; PREFIX_TEXT is its full mnemonic ("st.global.wt").
#define CUPROBE_PTX_DEFINE_STORE(OP, PREFIX_TEXT)                                             \
  template <>                                                                                 \
  struct cuprobe::ptx::detail::st_forms<OP> {                                                 \
    static constexpr bool defined = true;                                                     \
    static constexpr const char* instruction = PREFIX_TEXT;                                   \
    __device__ __forceinline__ static void b8(void* p, std::uint16_t v) {                     \
      asm volatile(PREFIX_TEXT ".b8 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "h"(v)    \
                   : "memory");                                                               \
    }                                                                                         \
    __device__ __forceinline__ static void b16(void* p, std::uint16_t v) {                    \
      asm volatile(PREFIX_TEXT ".b16 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "h"(v)   \
                   : "memory");                                                               \
    }                                                                                         \
    __device__ __forceinline__ static void b32(void* p, std::uint32_t v) {                    \
      asm volatile(PREFIX_TEXT ".b32 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "r"(v)   \
                   : "memory");                                                               \
    }                                                                                         \
    __device__ __forceinline__ static void b64(void* p, std::uint64_t v) {                    \
      asm volatile(PREFIX_TEXT ".b64 [%0], %1;" ::"l"(__cvta_generic_to_global(p)), "l"(v)   \
                   : "memory");                                                               \
    }                                                                                         \
    __device__ __forceinline__ static void v2_b32(void* p, cuprobe::ptx::detail::v2b32 v) {  \
      asm volatile(PREFIX_TEXT ".v2.b32 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(p)), \
                   "r"(v.x), "r"(v.y) : "memory");                                            \
    }                                                                                         \
    __device__ __forceinline__ static void v4_b32(void* p, cuprobe::ptx::detail::v4b32 v) {  \
      asm volatile(PREFIX_TEXT ".v4.b32 [%0], {%1, %2, %3, %4};"                             \
                   ::"l"(__cvta_generic_to_global(p)), "r"(v.x), "r"(v.y), "r"(v.z), "r"(v.w) \
                   : "memory");                                                               \
    }                                                                                         \
    __device__ __forceinline__ static void v2_b64(void* p, cuprobe::ptx::detail::v2b64 v) {  \
      asm volatile(PREFIX_TEXT ".v2.b64 [%0], {%1, %2};" ::"l"(__cvta_generic_to_global(p)), \
                   "l"(v.x), "l"(v.y) : "memory");                                            \
    }                                                                                         \
  };

CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::none, "ld.global")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::ca, "ld.global.ca")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::cg, "ld.global.cg")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::cs, "ld.global.cs")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::lu, "ld.global.lu")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::cv, "ld.global.cv")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::evict_normal, "ld.global.L1::evict_normal")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::evict_unchanged, "ld.global.L1::evict_unchanged")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::evict_first, "ld.global.L1::evict_first")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::evict_last, "ld.global.L1::evict_last")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::no_allocate, "ld.global.L1::no_allocate")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::nc, "ld.global.nc")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::nc_ca, "ld.global.ca.nc")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::nc_cg, "ld.global.cg.nc")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::nc_cs, "ld.global.cs.nc")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::nc_evict_first, "ld.global.nc.L1::evict_first")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::nc_evict_last, "ld.global.nc.L1::evict_last")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::nc_no_allocate, "ld.global.nc.L1::no_allocate")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::L2_64B, "ld.global.L2::64B")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::L2_128B, "ld.global.L2::128B")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::L2_256B, "ld.global.L2::256B")
CUPROBE_PTX_DEFINE_LOAD(cuprobe::ptx::cache::nc_L2_256B, "ld.global.nc.L2::256B")

CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::none, "st.global")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::wb, "st.global.wb")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::cg, "st.global.cg")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::cs, "st.global.cs")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::wt, "st.global.wt")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::evict_normal, "st.global.L1::evict_normal")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::evict_unchanged, "st.global.L1::evict_unchanged")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::evict_first, "st.global.L1::evict_first")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::evict_last, "st.global.L1::evict_last")
CUPROBE_PTX_DEFINE_STORE(cuprobe::ptx::cache::no_allocate, "st.global.L1::no_allocate")
// clang-format on

namespace cuprobe::ptx {

/// True when ld<Op> (st<Op>) exists.
template <class Op>
inline constexpr bool is_load_operator = detail::ld_forms<Op>::defined;
/// True when `st<Op>` exists.
template <class Op>
inline constexpr bool is_store_operator = detail::st_forms<Op>::defined;

/// The PTX mnemonic ld<Op> / st<Op> emits, without the type ("ld.global.cs.nc").
template <class Op>
inline constexpr const char* load_instruction = detail::ld_forms<Op>::instruction;
/// The PTX mnemonic `st<Op>` emits, without the type.
template <class Op>
inline constexpr const char* store_instruction = detail::st_forms<Op>::instruction;

namespace detail {
template <class T>
inline constexpr const char* form_name = sizeof(T) == 1                    ? ".b8"
                                         : sizeof(T) == 2                  ? ".b16"
                                         : sizeof(T) == 4                  ? ".b32"
                                         : std::is_same_v<raw_t<T>, v2b32> ? ".v2.b32"
                                         : sizeof(T) == 8                  ? ".b64"
                                         : std::is_same_v<raw_t<T>, v2b64> ? ".v2.b64"
                                                                           : ".v4.b32";
}  // namespace detail

/// Loads *p from global memory with cache operator Op, in one instruction of sizeof(T) bytes.
/// p must be a global address aligned to sizeof(T).
template <class Op = cache::none, class T>
__device__ __forceinline__ T ld(const T* p) {
  static_assert(is_load_operator<Op>,
                "cuprobe::ptx::ld: this cache operator is not a load operator (wb and wt are "
                "store-only); loads take none, ca, cg, cs, lu, cv, the L1::evict_* hints, "
                "no_allocate, the nc forms and the L2 prefetch sizes");
  static_assert(detail::accessible<T>,
                "cuprobe::ptx::ld: T must be trivially copyable and 1, 2, 4, 8 or 16 bytes");
  static_assert(
      !detail::accessible<T> || detail::aligned_to_size<T>,
      "cuprobe::ptx::ld: T's alignment is below its size, but one access of sizeof(T) bytes "
      "needs an address aligned to sizeof(T): an address valid for T would fault. Use a "
      "type aligned to its size (float2, float4, int4, or alignas(sizeof(T)))");
  CUPROBE_REQUIRE_SM(Op::min_sm, T,
                     "cuprobe::ptx::ld: this operator needs a newer GPU than this compile "
                     "target (see the tag's min_sm: L1::evict_* sm_70, L2::64B/128B sm_75, "
                     "L2::256B sm_80)");
  if constexpr (is_load_operator<Op> && detail::accessible<T>) {  // else: only the assert above
    using F = detail::ld_forms<Op>;
    using R = detail::raw_t<T>;
    detail::check_access<Op>(p, sizeof(T), "ld", detail::form_name<T>);
    if constexpr (sizeof(T) == 1)
      return detail::from_raw<T>(F::b8(p));
    else if constexpr (sizeof(T) == 2)
      return detail::from_raw<T>(F::b16(p));
    else if constexpr (sizeof(T) == 4)
      return detail::from_raw<T>(F::b32(p));
    else if constexpr (std::is_same_v<R, detail::v2b32>)
      return detail::from_raw<T>(F::v2_b32(p));
    else if constexpr (sizeof(T) == 8)
      return detail::from_raw<T>(F::b64(p));
    else if constexpr (std::is_same_v<R, detail::v2b64>)
      return detail::from_raw<T>(F::v2_b64(p));
    else
      return detail::from_raw<T>(F::v4_b32(p));
  } else {
    return *p;
  }
}

/// Stores v to *p in global memory with cache operator Op, in one instruction of sizeof(T)
/// bytes. p must be a global address aligned to sizeof(T).
template <class Op = cache::none, class T>
__device__ __forceinline__ void st(T* p, T v) {
  static_assert(is_store_operator<Op>,
                "cuprobe::ptx::st: this cache operator is not a store operator (ca, lu, cv, "
                "the nc forms and the L2 prefetch sizes are load-only); stores take none, wb, "
                "cg, cs, wt and the L1::evict_* / no_allocate hints");
  static_assert(detail::accessible<T>,
                "cuprobe::ptx::st: T must be trivially copyable and 1, 2, 4, 8 or 16 bytes");
  static_assert(
      !detail::accessible<T> || detail::aligned_to_size<T>,
      "cuprobe::ptx::st: T's alignment is below its size, but one access of sizeof(T) bytes "
      "needs an address aligned to sizeof(T): an address valid for T would fault. Use a "
      "type aligned to its size (float2, float4, int4, or alignas(sizeof(T)))");
  CUPROBE_REQUIRE_SM(Op::min_sm, T,
                     "cuprobe::ptx::st: this operator needs a newer GPU than this compile "
                     "target (L1::evict_* hints need sm_70)");
  if constexpr (is_store_operator<Op> && detail::accessible<T>) {  // else: only the assert above
    using F = detail::st_forms<Op>;
    using R = detail::raw_t<T>;
    detail::check_access<Op>(p, sizeof(T), "st", detail::form_name<T>);
    const R r = detail::to_raw<R>(v);
    if constexpr (sizeof(T) == 1)
      F::b8(p, r);
    else if constexpr (sizeof(T) == 2)
      F::b16(p, r);
    else if constexpr (sizeof(T) == 4)
      F::b32(p, r);
    else if constexpr (std::is_same_v<R, detail::v2b32>)
      F::v2_b32(p, r);
    else if constexpr (sizeof(T) == 8)
      F::b64(p, r);
    else if constexpr (std::is_same_v<R, detail::v2b64>)
      F::v2_b64(p, r);
    else
      F::v4_b32(p, r);
  }
}

/// Host check before a launch: throws cuprobe::error naming `what` when p is not aligned to
/// sizeof(T), the width of one ld<Op, T> / st<Op, T>.
template <class T>
void require_aligned(const void* p, const std::string& what) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  require(a % sizeof(T) == 0, what + ": pointer " + text + " is not aligned to " +
                                  std::to_string(sizeof(T)) +
                                  " bytes, the width of one access of this element type");
}

}  // namespace cuprobe::ptx
