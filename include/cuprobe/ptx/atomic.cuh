// cuprobe/ptx/atomic.cuh: scoped loads, stores and fetch-add with memory-order semantics.
//
//   namespace p = cuprobe::ptx;
//   p::atomic_store<p::sem::release, p::scope::gpu>(&flag, 1u);        // st.release.gpu.b32
//   while (p::atomic_load<p::sem::acquire, p::scope::gpu>(&flag) == 0) // ld.acquire.gpu.b32
//     ;
//   unsigned t = p::atomic_fetch_add<p::sem::acq_rel, p::scope::gpu>(&ticket, 1u);
//                                                                       // atom.acq_rel.gpu.add.u32
//
// The three operations the publish/consume patterns of gen/ordering and the stream-K fix-up of
// hopper/stream_k need, on 32-bit words, with the tags of ptx/fence.cuh (plus sem::relaxed;
// scope::cluster needs sm_90): the instructions cuda::atomic_ref emits for the same orders,
// written here because <cuda/atomic> is 65k lines once preprocessed. asm volatile with a
// "memory" clobber; the SASS of each: tests/sass/ordering_fence.cu.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/ptx/fence.cuh"

namespace cuprobe::ptx {

namespace detail {
template <class T>
inline constexpr bool is_atomic_word_v =
    std::is_same_v<T, unsigned> || std::is_same_v<T, int> || std::is_same_v<T, std::uint32_t>;

template <class Scope>
__device__ __forceinline__ void require_atomic_scope() {
  static_assert(is_scope_v<Scope>,
                "cuprobe::ptx::atomic_*: Scope must be scope::cta, scope::cluster, scope::gpu or "
                "scope::sys");
  CUPROBE_REQUIRE_SM(700, Scope,
                     "cuprobe::ptx::atomic_* (ld/st/atom with memory-order semantics) need sm_70 "
                     "or newer");
  if constexpr (std::is_same_v<Scope, scope::cluster>) {
    CUPROBE_REQUIRE_SM(900, Scope,
                       "cuprobe::ptx::atomic_*<Sem, scope::cluster> needs sm_90 or newer (thread "
                       "block clusters); use scope::gpu on older targets");
  }
}
}  // namespace detail

// One asm statement per (semantics, scope): PTX spells both in the instruction name.
#define CUPROBE_DETAIL_SCOPED(OP, SEM, ...)                       \
  do {                                                            \
    if constexpr (std::is_same_v<Scope, scope::cta>)              \
      asm volatile(OP "." SEM ".cta" __VA_ARGS__ : "memory");     \
    else if constexpr (std::is_same_v<Scope, scope::cluster>)     \
      asm volatile(OP "." SEM ".cluster" __VA_ARGS__ : "memory"); \
    else if constexpr (std::is_same_v<Scope, scope::gpu>)         \
      asm volatile(OP "." SEM ".gpu" __VA_ARGS__ : "memory");     \
    else                                                          \
      asm volatile(OP "." SEM ".sys" __VA_ARGS__ : "memory");     \
  } while (0)

/// `ld.<Sem>.<Scope>.b32`: a load that is atomic at Scope; with sem::acquire, no later access of
/// this thread is performed before it. Sem: sem::relaxed or sem::acquire.
template <class Sem, class Scope, class T>
__device__ __forceinline__ T atomic_load(const T* p) {
  static_assert(detail::is_atomic_word_v<T>,
                "cuprobe::ptx::atomic_load: T must be a 32-bit unsigned or int");
  static_assert(std::is_same_v<Sem, sem::relaxed> || std::is_same_v<Sem, sem::acquire>,
                "cuprobe::ptx::atomic_load<Sem, Scope>: Sem must be sem::relaxed or sem::acquire");
  detail::require_atomic_scope<Scope>();
  std::uint32_t v;
  if constexpr (std::is_same_v<Sem, sem::relaxed>)
    CUPROBE_DETAIL_SCOPED("ld", "relaxed", ".b32 %0, [%1];" : "=r"(v) : "l"(p));
  else
    CUPROBE_DETAIL_SCOPED("ld", "acquire", ".b32 %0, [%1];" : "=r"(v) : "l"(p));
  return static_cast<T>(v);
}

/// `st.<Sem>.<Scope>.b32`: a store that is atomic at Scope; with sem::release, every earlier access
/// of this thread is performed before it. Sem: sem::relaxed or sem::release.
template <class Sem, class Scope, class T>
__device__ __forceinline__ void atomic_store(T* p, T value) {
  static_assert(detail::is_atomic_word_v<T>,
                "cuprobe::ptx::atomic_store: T must be a 32-bit unsigned or int");
  static_assert(std::is_same_v<Sem, sem::relaxed> || std::is_same_v<Sem, sem::release>,
                "cuprobe::ptx::atomic_store<Sem, Scope>: Sem must be sem::relaxed or "
                "sem::release");
  detail::require_atomic_scope<Scope>();
  const auto v = static_cast<std::uint32_t>(value);
  if constexpr (std::is_same_v<Sem, sem::relaxed>)
    CUPROBE_DETAIL_SCOPED("st", "relaxed", ".b32 [%0], %1;" ::"l"(p), "r"(v));
  else
    CUPROBE_DETAIL_SCOPED("st", "release", ".b32 [%0], %1;" ::"l"(p), "r"(v));
}

/// `atom.<Sem>.<Scope>.add.u32`: adds `value` to *p atomically at Scope and returns the old value.
/// Sem: sem::relaxed, sem::acquire, sem::release or sem::acq_rel.
template <class Sem, class Scope, class T>
__device__ __forceinline__ T atomic_fetch_add(T* p, T value) {
  static_assert(detail::is_atomic_word_v<T>,
                "cuprobe::ptx::atomic_fetch_add: T must be a 32-bit unsigned or int");
  static_assert(std::is_same_v<Sem, sem::relaxed> || std::is_same_v<Sem, sem::acquire> ||
                    std::is_same_v<Sem, sem::release> || std::is_same_v<Sem, sem::acq_rel>,
                "cuprobe::ptx::atomic_fetch_add<Sem, Scope>: Sem must be sem::relaxed, "
                "sem::acquire, sem::release or sem::acq_rel");
  detail::require_atomic_scope<Scope>();
  std::uint32_t old;
  const auto v = static_cast<std::uint32_t>(value);
  if constexpr (std::is_same_v<Sem, sem::relaxed>)
    CUPROBE_DETAIL_SCOPED("atom", "relaxed", ".add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v));
  else if constexpr (std::is_same_v<Sem, sem::acquire>)
    CUPROBE_DETAIL_SCOPED("atom", "acquire", ".add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v));
  else if constexpr (std::is_same_v<Sem, sem::release>)
    CUPROBE_DETAIL_SCOPED("atom", "release", ".add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v));
  else
    CUPROBE_DETAIL_SCOPED("atom", "acq_rel", ".add.u32 %0, [%1], %2;" : "=r"(old) : "l"(p), "r"(v));
  return static_cast<T>(old);
}

#undef CUPROBE_DETAIL_SCOPED

}  // namespace cuprobe::ptx
