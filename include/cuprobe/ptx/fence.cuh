// cuprobe/ptx/fence.cuh: memory fences by scope and semantics, as compile-time tags.
//
//   using namespace cuprobe::ptx;
//   data[i] = v;
//   fence<sem::sc, scope::gpu>();          // fence.sc.gpu   -> MEMBAR.SC.GPU on sm_90a
//   fence<sem::acq_rel, scope::cta>();     // fence.acq_rel.cta -> MEMBAR.ALL.CTA
//   membar<scope::gpu>();                  // legacy membar.gl (same SASS as fence.sc.gpu)
//
// fence<Sem, Scope>() is CCCL's cuda::ptx::fence (sc and acq_rel from sm_70; the cluster scope
// and .acquire/.release need sm_90); membar<Scope>() the pre-sm_70 spelling, fence.sc of the same
// scope on sm_70+ (inline PTX: CCCL lacks it); fence_proxy_async<Space>() fence.proxy.async, for
// all state spaces or one (space::shared, space::cluster, space::global; sm_90).
//
// Proxy fences (generic <-> async proxy: which hazard needs which fence, in which thread):
// docs/hopper.md ("Proxy fences").
// A combination the target cannot run is a compile error with a sentence (CUPROBE_REQUIRE_SM);
// fence_supported_v<Sem, Scope> says whether fence<Sem, Scope>() may be instantiated in the pass
// being compiled. The SASS of each on sm_90a: tests/sass/ordering_fence.cu, docs/memory-latency.md.
#pragma once

#include "cuprobe/ptx/detail/cccl_ptx.cuh"

#include <type_traits>

#include "cuprobe/core/arch.cuh"

namespace cuprobe::ptx {

/// Scope tags: the set of threads a fence orders with. Aliases of CCCL's tags, so that they can
/// be passed to cuda::ptx functions too.
namespace scope {
using cta = cuda::ptx::scope_cta_t;          ///< the thread block
using cluster = cuda::ptx::scope_cluster_t;  ///< the thread block cluster (sm_90)
using gpu = cuda::ptx::scope_gpu_t;          ///< every thread of the device
using sys = cuda::ptx::scope_sys_t;          ///< the device, the host and peer devices
}  // namespace scope

/// Semantics tags of a fence (and, with sem::relaxed, of the atomics in ptx/atomic.cuh).
namespace sem {
using sc = cuda::ptx::sem_sc_t;            ///< sequentially consistent (fence.sc)
using acq_rel = cuda::ptx::sem_acq_rel_t;  ///< acquire + release (fence.acq_rel)
using acquire = cuda::ptx::sem_acquire_t;  ///< acquire half only (sm_90, PTX ISA 8.6)
using release = cuda::ptx::sem_release_t;  ///< release half only (sm_90, PTX ISA 8.6)
using relaxed =
    cuda::ptx::sem_relaxed_t;  ///< no ordering: for atomics (ptx/atomic.cuh), not fences
}  // namespace sem

namespace detail {
template <class Scope>
inline constexpr bool is_scope_v =
    std::is_same_v<Scope, scope::cta> || std::is_same_v<Scope, scope::cluster> ||
    std::is_same_v<Scope, scope::gpu> || std::is_same_v<Scope, scope::sys>;
template <class Sem>
inline constexpr bool is_sem_v =
    std::is_same_v<Sem, sem::sc> || std::is_same_v<Sem, sem::acq_rel> ||
    std::is_same_v<Sem, sem::acquire> || std::is_same_v<Sem, sem::release>;
template <class Sem>
inline constexpr bool is_half_fence_v =
    std::is_same_v<Sem, sem::acquire> || std::is_same_v<Sem, sem::release>;
/// The lowest architecture (x10) that runs fence<Sem, Scope>.
template <class Sem, class Scope>
inline constexpr int fence_min_arch = (std::is_same_v<Scope, scope::cluster> ||
                                       is_half_fence_v<Sem>)
                                          ? 900
                                          : 700;
/// fence.acquire / fence.release arrived with PTX ISA 8.6 (CUDA 12.8).
#if __cccl_ptx_isa >= 860
inline constexpr bool has_half_fences = true;
#else
inline constexpr bool has_half_fences = false;
#endif
}  // namespace detail

/// True when fence<Sem, Scope>() may be instantiated in the compilation pass being compiled
/// (always true in the host pass). Lets a kernel that must build for every target branch with
/// `if constexpr` and report "not supported here" instead of failing to compile.
template <class Sem, class Scope>
inline constexpr bool fence_supported_v =
    detail::is_sem_v<Sem>&& detail::is_scope_v<Scope>&& arch::device_arch >=
        detail::fence_min_arch<Sem, Scope> &&
    (detail::has_half_fences || !detail::is_half_fence_v<Sem>);

/// "cta", "cluster", "gpu", "sys": the PTX spelling of a scope tag (for reports).
template <class Scope>
constexpr const char* scope_name() {
  static_assert(detail::is_scope_v<Scope>,
                "cuprobe::ptx::scope_name takes a cuprobe::ptx::scope tag");
  if constexpr (std::is_same_v<Scope, scope::cta>)
    return "cta";
  else if constexpr (std::is_same_v<Scope, scope::cluster>)
    return "cluster";
  else if constexpr (std::is_same_v<Scope, scope::gpu>)
    return "gpu";
  else
    return "sys";
}

/// "sc", "acq_rel", "acquire", "release": the PTX spelling of a semantics tag.
template <class Sem>
constexpr const char* sem_name() {
  static_assert(detail::is_sem_v<Sem>, "cuprobe::ptx::sem_name takes a cuprobe::ptx::sem tag");
  if constexpr (std::is_same_v<Sem, sem::sc>)
    return "sc";
  else if constexpr (std::is_same_v<Sem, sem::acq_rel>)
    return "acq_rel";
  else if constexpr (std::is_same_v<Sem, sem::acquire>)
    return "acquire";
  else
    return "release";
}

/// `fence.<Sem>.<Scope>`: orders this thread's memory accesses before and after it, as observed
/// by the threads of Scope (PTX ISA, "Memory Consistency Model"). asm volatile + "memory"
/// clobber (inside CCCL): never removed, never moved across other memory accesses.
template <class Sem, class Scope>
__device__ __forceinline__ void fence() {
  static_assert(
      detail::is_sem_v<Sem>,
      "cuprobe::ptx::fence<Sem, Scope>: Sem must be sem::sc, sem::acq_rel, sem::acquire or "
      "sem::release");
  static_assert(detail::is_scope_v<Scope>,
                "cuprobe::ptx::fence<Sem, Scope>: Scope must be scope::cta, scope::cluster, "
                "scope::gpu or scope::sys");
  if constexpr (std::is_same_v<Scope, scope::cluster>) {
    CUPROBE_REQUIRE_SM(
        900, Scope,
        "cuprobe::ptx::fence<Sem, scope::cluster> needs sm_90 or newer (thread block "
        "clusters); use scope::gpu on older targets");
  }
  if constexpr (detail::is_half_fence_v<Sem>) {
    CUPROBE_REQUIRE_SM(
        900, Sem,
        "cuprobe::ptx::fence<sem::acquire or sem::release, Scope> needs sm_90 or newer; "
        "use sem::acq_rel on older targets");
#if __cccl_ptx_isa >= 860
    cuda::ptx::fence(Sem{}, Scope{});
#else
    static_assert(arch::detail::always_false<Sem>,
                  "cuprobe::ptx::fence<sem::acquire or sem::release, Scope> needs PTX ISA 8.6 "
                  "(CUDA 12.8 or newer)");
#endif
  } else {
    cuda::ptx::fence(Sem{}, Scope{});
  }
}

/// membar.cta / membar.gl / membar.sys: the legacy spelling of `fence.sc.<scope>` (identical
/// semantics and SASS on sm_70+). There is no cluster-scope membar.
template <class Scope>
__device__ __forceinline__ void membar() {
  static_assert(std::is_same_v<Scope, scope::cta> || std::is_same_v<Scope, scope::gpu> ||
                    std::is_same_v<Scope, scope::sys>,
                "cuprobe::ptx::membar<Scope>: Scope must be scope::cta, scope::gpu (membar.gl) or "
                "scope::sys; membar has no cluster scope, use fence<sem::sc, scope::cluster>");
  if constexpr (std::is_same_v<Scope, scope::cta>)
    asm volatile("membar.cta;" ::: "memory");
  else if constexpr (std::is_same_v<Scope, scope::gpu>)
    asm volatile("membar.gl;" ::: "memory");
  else
    asm volatile("membar.sys;" ::: "memory");
}

/// State-space tags of the proxy fence: aliases of CCCL's, like the scope tags.
namespace space {
using shared = cuda::ptx::space_shared_t;    ///< this CTA's shared memory (.shared::cta)
using cluster = cuda::ptx::space_cluster_t;  ///< the cluster's shared memory (.shared::cluster)
using global = cuda::ptx::space_global_t;    ///< global memory (.global)
}  // namespace space

/// fence.proxy.async[.Space]: a bidirectional proxy fence between the generic proxy (ordinary
/// loads and stores) and the async proxy (cp.async.bulk, TMA, wgmma) for this thread's accesses
/// to one state space, or to every one (Space = void). Needs sm_90. SASS on sm_90a: shared,
/// MEMBAR.ALL.CTA; FENCE.VIEW.ASYNC.S (st.shared, then a TMA store or a wgmma reads the tile);
/// cluster, MEMBAR.ALL.GPU; FENCE.VIEW.ASYNC.S (st.shared::cluster into a peer's buffer that a
/// bulk copy reads); global, FENCE.VIEW.ASYNC.G alone (st.global, then a TMA load of the same
/// kernel reads it); void, FENCE.VIEW.ASYNC.S and MEMBAR.ALL.GPU.
template <class Space = void>
__device__ __forceinline__ void fence_proxy_async() {
  static_assert(std::is_void_v<Space> || std::is_same_v<Space, space::shared> ||
                    std::is_same_v<Space, space::cluster> || std::is_same_v<Space, space::global>,
                "cuprobe::ptx::fence_proxy_async<Space>: Space must be space::shared, "
                "space::cluster, space::global or void (every state space)");
  CUPROBE_REQUIRE_SM(900, Space,
                     "cuprobe::ptx::fence_proxy_async<Space>() needs sm_90 or newer (async proxy)");
  if constexpr (std::is_void_v<Space>)
    cuda::ptx::fence_proxy_async();
  else
    cuda::ptx::fence_proxy_async(Space{});
}

}  // namespace cuprobe::ptx
