// cuprobe/ptx/mbarrier.cuh: mbarrier objects (arrive/wait barriers in shared memory that also
// count the bytes of asynchronous copies), and their phases.
//
//   namespace mb = cuprobe::ptx::mbarrier;  namespace bulk = cuprobe::ptx::bulk;
//   __shared__ mb::object bar;
//   if (threadIdx.x == 0) { mb::init(&bar, 1); mb::fence_init(); }
//   __syncthreads();
//   if (threadIdx.x == 0) { mb::arrive_expect_tx(&bar, bytes); bulk::load(buf, src, &bar, bytes); }
//   mb::wait(&bar, 0);                    // phase 0 complete: the bytes are in buf
//
// An mbarrier is an opaque 8-byte object in shared memory. Each phase completes when its
// pending arrival count reaches 0 (init sets the count per phase) AND its tx-count (bytes that
// expect_tx announced minus bytes that asynchronous copies delivered) is 0; then the barrier
// moves to the next phase. Waits name the phase by its parity (0, 1, 0, ...): try_wait(bar, P)
// is true once the phase of parity P, the current or the immediately preceding one, completed.
//
// Each function's comment names its instruction: CCCL's cuda::ptx for all but inval (inline PTX).
// fence_init() makes the initialisation visible to the cluster and the async proxy; follow it
// with a CTA or cluster barrier. inval() is needed before the 8 bytes are reused. wait<Scope>() is
// a try_wait loop; with CUPROBE_MBARRIER_DEBUG (default: CUPROBE_PTX_CHECKS) it is bounded by
// CUPROBE_MBARRIER_TIMEOUT_NS of %globaltimer (default 2 s) and then printf's the barrier, block,
// thread, parity, time waited, the tx bytes this CTA announced and issued on it and the raw word,
// and traps: it never hangs. Release builds: a plain loop. Everything but init, inval and
// test_wait needs sm_90 (CUPROBE_REQUIRE_SM); including the header compiles everywhere.
//
// The tx shadow (debug builds): the mbarrier word is opaque (its layout is unspecified), so
// init() claims a slot of a 16-entry per-CTA table in static shared memory (512 bytes), keyed by
// the barrier's address, the CTA and the grid; expect_tx / arrive_expect_tx add the bytes they
// announce and cuprobe's bulk copies the bytes they issue. The timeout reports both totals and
// their difference, and announce() traps when one phase's announcements reach the 2^20 - 1
// tx-count limit. Peer CTAs' copies and tensor copies' bytes (the box is in the opaque map) are
// not seen. docs/hopper.md explains the numbers.
#pragma once

#include "cuprobe/ptx/detail/cccl_ptx.cuh"

#include <cstdint>
#include <cstdio>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/ptx/cluster.cuh"
#include "cuprobe/ptx/fence.cuh"

#if !defined(CUPROBE_MBARRIER_DEBUG)
#define CUPROBE_MBARRIER_DEBUG CUPROBE_PTX_CHECKS
#endif
/// The time (ns of %globaltimer) a debug wait() waits before it reports and traps.
#if !defined(CUPROBE_MBARRIER_TIMEOUT_NS)
#define CUPROBE_MBARRIER_TIMEOUT_NS 2000000000ull
#endif

namespace cuprobe::ptx::mbarrier {

/// An mbarrier object: the 8 bytes of shared memory the instructions act on, typed so that a
/// barrier is never mixed up with data. Declare it in shared memory (`__shared__ object bar;`,
/// an array of them, or a member of a shared struct) and pass its address; `word` is for the
/// instructions and is never read or written directly (the PTX ISA leaves its layout opaque).
struct alignas(8) object {
  std::uint64_t word;  ///< the barrier's 8 bytes, for the instructions only
};

namespace detail {

template <class Scope>
inline constexpr bool is_barrier_scope_v =
    std::is_same_v<Scope, scope::cta> || std::is_same_v<Scope, scope::cluster>;

__device__ __forceinline__ std::uint32_t smem_u32(const void* p) {
  return static_cast<std::uint32_t>(__cvta_generic_to_shared(p));
}

/// One slot of the debug tx shadow (see the header comment).
struct shadow_entry {
  unsigned long long key;            ///< barrier address, CTA and grid; 0: free
  unsigned long long announced;      ///< bytes announced with expect_tx since init()
  unsigned long long issued;         ///< bytes of cuprobe bulk copies issued on it since init()
  unsigned long long tensor_copies;  ///< cuprobe tensor copies issued on it (bytes unknown)
  unsigned long long phase;          ///< bytes announced since a wait() last saw a phase end
};
inline constexpr unsigned shadow_slots = 16;

#if CUPROBE_MBARRIER_DEBUG
__device__ __forceinline__ shadow_entry* shadow_table() {
  __shared__ shadow_entry table[shadow_slots];
  return table;
}
__device__ __forceinline__ unsigned long long shadow_key(std::uint32_t addr) {
  const unsigned long long cta =
      blockIdx.x + 1ull * gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z);
  const unsigned long long k =
      (cuda::ptx::get_sreg_gridid() * 0x9E3779B97F4A7C15ull) ^ (cta << 32) ^ addr;
  return k == 0 ? 1 : k;
}
__device__ __forceinline__ shadow_entry* shadow_find(std::uint32_t addr) {
  shadow_entry* e = shadow_table() + (addr / 8) % shadow_slots;
  return e->key == shadow_key(addr) ? e : nullptr;
}
#endif

/// Debug builds: a sentence and __trap() when `bar` is not an 8-byte-aligned shared address.
__device__ __forceinline__ void check_barrier(const void* bar, const char* what) {
#if CUPROBE_PTX_CHECKS
  const bool shared = __isShared(bar) != 0;
  if (!shared || reinterpret_cast<std::uintptr_t>(bar) % 8 != 0) {
    printf("cuprobe::ptx::mbarrier::%s: barrier %p is %s (block %u, thread %u); trapping\n", what,
           bar, shared ? "not aligned to 8 bytes" : "not in shared memory", blockIdx.x,
           threadIdx.x);
    __trap();
  }
#else
  (void)bar, (void)what;
#endif
}

/// Debug builds: records `bytes` issued by a bulk copy on `bar` in the tx shadow (the cuprobe
/// bulk wrappers call it; a no-op in release builds).
__device__ __forceinline__ void shadow_issued(const object* bar, std::uint32_t bytes) {
#if CUPROBE_MBARRIER_DEBUG
  if (auto* e = shadow_find(smem_u32(bar))) atomicAdd(&e->issued, 1ull * bytes);
#else
  (void)bar, (void)bytes;
#endif
}

/// Debug builds: a wait saw the phase end, so the next announcements count towards a new phase
/// (a late reset by a slow waiter can only undercount, never trap wrongly).
__device__ __forceinline__ void shadow_phase_ended(object* bar) {
#if CUPROBE_MBARRIER_DEBUG
  if (auto* e = shadow_find(smem_u32(bar))) e->phase = 0;
#else
  (void)bar;
#endif
}

/// Debug builds: records one tensor copy (its bytes are not known here) issued on `bar`.
__device__ __forceinline__ void shadow_tensor_copy(const object* bar) {
#if CUPROBE_MBARRIER_DEBUG
  if (auto* e = shadow_find(smem_u32(bar))) atomicAdd(&e->tensor_copies, 1ull);
#else
  (void)bar;
#endif
}

}  // namespace detail

/// mbarrier.init: the barrier starts phase 0 expecting `expected_arrivals` (1 .. 2^20 - 1)
/// arrivals per phase, tx-count 0. One thread initialises; see fence_init().
template <class T = void>
__device__ __forceinline__ void init(object* bar, std::uint32_t expected_arrivals) {
  CUPROBE_REQUIRE_SM(800, T, "cuprobe::ptx::mbarrier::init needs sm_80 or newer");
  detail::check_barrier(bar, "init");
#if CUPROBE_PTX_CHECKS
  if (expected_arrivals == 0 || expected_arrivals >= (1u << 20)) {
    printf(
        "cuprobe::ptx::mbarrier::init: expected arrival count %u is outside 1 .. 2^20 - 1 "
        "(block %u, thread %u); trapping\n",
        expected_arrivals, blockIdx.x, threadIdx.x);
    __trap();
  }
#endif
  cuda::ptx::mbarrier_init(&bar->word, expected_arrivals);
#if CUPROBE_MBARRIER_DEBUG
  const std::uint32_t a = detail::smem_u32(bar);
  detail::shadow_entry* e = detail::shadow_table() + (a / 8) % detail::shadow_slots;
  e->announced = 0;
  e->issued = 0;
  e->tensor_copies = 0;
  e->phase = 0;
  e->key = detail::shadow_key(a);
#endif
}

/// fence.mbarrier_init.release.cluster: orders this thread's earlier mbarrier.init's before its
/// later accesses, at cluster scope, so that peers (remote arrives, multicast complete_tx) and
/// copies see initialised barriers. Call it once after the inits, then a cluster (or CTA) barrier.
template <class T = void>
__device__ __forceinline__ void fence_init() {
  CUPROBE_REQUIRE_SM(900, T, "cuprobe::ptx::mbarrier::fence_init needs sm_90 or newer");
  cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
}

/// mbarrier.inval: the 8 bytes stop being a barrier (required before reusing the memory,
/// including for another mbarrier.init).
template <class T = void>
__device__ __forceinline__ void inval(object* bar) {
  CUPROBE_REQUIRE_SM(800, T, "cuprobe::ptx::mbarrier::inval needs sm_80 or newer");
  detail::check_barrier(bar, "inval");
#if CUPROBE_MBARRIER_DEBUG
  if (auto* e = detail::shadow_find(detail::smem_u32(bar))) e->key = 0;
#endif
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(detail::smem_u32(bar)) : "memory");
}

#define CUPROBE_DETAIL_MBAR_SCOPE(Scope, WHAT)                                                   \
  static_assert(detail::is_barrier_scope_v<Scope>,                                               \
                "cuprobe::ptx::mbarrier::" WHAT ": Scope must be scope::cta or scope::cluster"); \
  CUPROBE_REQUIRE_SM(900, Scope, "cuprobe::ptx::mbarrier::" WHAT " needs sm_90 or newer")

/// mbarrier.arrive.release.<Scope>.shared::cta.b64: one arrival; returns the opaque state token
/// (the phase before the arrival). scope::cluster releases to the whole cluster (a consumer in
/// another CTA that waits with try_wait<scope::cluster>).
template <class Scope = scope::cta>
__device__ __forceinline__ std::uint64_t arrive(object* bar) {
  CUPROBE_DETAIL_MBAR_SCOPE(Scope, "arrive");
  detail::check_barrier(bar, "arrive");
  return cuda::ptx::mbarrier_arrive(cuda::ptx::sem_release, Scope{}, cuda::ptx::space_shared,
                                    &bar->word);
}

/// `count` arrivals at once (1 .. 2^20 - 1).
template <class Scope = scope::cta>
__device__ __forceinline__ std::uint64_t arrive(object* bar, std::uint32_t count) {
  CUPROBE_DETAIL_MBAR_SCOPE(Scope, "arrive(bar, count)");
  detail::check_barrier(bar, "arrive");
  return cuda::ptx::mbarrier_arrive(cuda::ptx::sem_release, Scope{}, cuda::ptx::space_shared,
                                    &bar->word, count);
}

namespace detail {
__device__ __forceinline__ void announce(object* bar, std::uint32_t bytes, const char* what) {
#if CUPROBE_PTX_CHECKS
  if (bytes >= (1u << 20)) {
    printf(
        "cuprobe::ptx::mbarrier::%s: %u bytes exceed the tx-count limit of 2^20 - 1 per phase "
        "(block %u, thread %u); trapping\n",
        what, bytes, blockIdx.x, threadIdx.x);
    __trap();
  }
#endif
#if CUPROBE_MBARRIER_DEBUG
  if (auto* e = shadow_find(smem_u32(bar))) {
    atomicAdd(&e->announced, 1ull * bytes);
    const unsigned long long before = atomicAdd(&e->phase, 1ull * bytes);
    if (before + bytes >= (1u << 20)) {
      printf(
          "cuprobe::ptx::mbarrier::%s: this phase's announced bytes reach %llu, over the "
          "tx-count limit of 2^20 - 1 per phase (block %u, thread %u); trapping\n",
          what, before + bytes, blockIdx.x, threadIdx.x);
      __trap();
    }
  }
#else
  (void)bar, (void)bytes, (void)what;
#endif
}
}  // namespace detail

/// mbarrier.arrive.expect_tx.release.<Scope>: announces `tx_bytes` (< 2^20) for the current
/// phase, then arrives once. With multicast, announce the bytes that land in THIS CTA.
template <class Scope = scope::cta>
__device__ __forceinline__ std::uint64_t arrive_expect_tx(object* bar, std::uint32_t tx_bytes) {
  CUPROBE_DETAIL_MBAR_SCOPE(Scope, "arrive_expect_tx");
  detail::check_barrier(bar, "arrive_expect_tx");
  detail::announce(bar, tx_bytes, "arrive_expect_tx");
  return cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, Scope{},
                                              cuda::ptx::space_shared, &bar->word, tx_bytes);
}

/// mbarrier.expect_tx.relaxed.<Scope>: announces `tx_bytes` without arriving.
template <class Scope = scope::cta>
__device__ __forceinline__ void expect_tx(object* bar, std::uint32_t tx_bytes) {
  CUPROBE_DETAIL_MBAR_SCOPE(Scope, "expect_tx");
  detail::check_barrier(bar, "expect_tx");
  detail::announce(bar, tx_bytes, "expect_tx");
  cuda::ptx::mbarrier_expect_tx(cuda::ptx::sem_relaxed, Scope{}, cuda::ptx::space_shared,
                                &bar->word, tx_bytes);
}

/// One arrival on the barrier at the same shared offset as `bar` in the CTA of rank `rank`:
/// mapa, then mbarrier.arrive.release.cluster.shared::cluster.b64. This thread's earlier memory
/// accesses (e.g. st.shared::cluster into that CTA) are released to the CTA's waiters, which
/// must wait with try_wait<scope::cluster> / wait<scope::cluster> (acquire at cluster scope).
template <class T = void>
__device__ __forceinline__ void arrive_remote(object* bar, std::uint32_t rank) {
  CUPROBE_REQUIRE_SM(900, T, "cuprobe::ptx::mbarrier::arrive_remote needs sm_90 or newer");
  detail::check_barrier(bar, "arrive_remote");
  cuda::ptx::mbarrier_arrive(cuda::ptx::sem_release, cuda::ptx::scope_cluster,
                             cuda::ptx::space_cluster, &cluster::map(bar, rank)->word);
}

/// The same arrival without ordering anything (mbarrier.arrive.relaxed.cluster.shared::cluster,
/// PTX ISA 8.6): for "this buffer is free" signals whose reads are known complete by other
/// means (a wgmma wait_group, a bulk wait_group_read). arrive_remote's release at cluster scope
/// costs MEMBAR.ALL.CTA + MEMBAR.ALL.GPU + ERRBAR + CGAERRBAR before each arrive on sm_90a, which
/// waits for this thread's outstanding memory operations; this form is one SYNCS.ARRIVE
/// (tests/sass/hopper_pipeline.cu).
template <class T = void>
__device__ __forceinline__ void arrive_remote_relaxed(object* bar, std::uint32_t rank) {
  CUPROBE_REQUIRE_SM(900, T, "cuprobe::ptx::mbarrier::arrive_remote_relaxed needs sm_90 or newer");
  detail::check_barrier(bar, "arrive_remote_relaxed");
  cuda::ptx::mbarrier_arrive(cuda::ptx::sem_relaxed, cuda::ptx::scope_cluster,
                             cuda::ptx::space_cluster, &cluster::map(bar, rank)->word);
}

/// mbarrier.try_wait.parity.acquire.<Scope>: true once the phase of parity `parity` completed;
/// the thread may be suspended inside for a system-dependent time before it returns false.
template <class Scope = scope::cta>
__device__ __forceinline__ bool try_wait(object* bar, std::uint32_t parity) {
  CUPROBE_DETAIL_MBAR_SCOPE(Scope, "try_wait");
  return cuda::ptx::mbarrier_try_wait_parity(cuda::ptx::sem_acquire, Scope{}, &bar->word, parity);
}

/// try_wait with a suspend-time hint: the thread is suspended at most about `hint_ns` ns.
template <class Scope = scope::cta>
__device__ __forceinline__ bool try_wait(object* bar, std::uint32_t parity, std::uint32_t hint_ns) {
  CUPROBE_DETAIL_MBAR_SCOPE(Scope, "try_wait(bar, parity, hint_ns)");
  return cuda::ptx::mbarrier_try_wait_parity(cuda::ptx::sem_acquire, Scope{}, &bar->word, parity,
                                             hint_ns);
}

/// mbarrier.test_wait.parity: like try_wait but never suspends (a poll). Scope::cta works on
/// sm_80 (the .acquire.cta default); scope::cluster needs sm_90.
template <class Scope = scope::cta>
__device__ __forceinline__ bool test_wait(object* bar, std::uint32_t parity) {
  static_assert(detail::is_barrier_scope_v<Scope>,
                "cuprobe::ptx::mbarrier::test_wait: Scope must be scope::cta or scope::cluster");
  if constexpr (std::is_same_v<Scope, scope::cta>) {
    CUPROBE_REQUIRE_SM(800, Scope, "cuprobe::ptx::mbarrier::test_wait needs sm_80 or newer");
    return cuda::ptx::mbarrier_test_wait_parity(&bar->word, parity);
  } else {
    CUPROBE_REQUIRE_SM(900, Scope,
                       "cuprobe::ptx::mbarrier::test_wait<scope::cluster> needs sm_90 or newer");
    return cuda::ptx::mbarrier_test_wait_parity(cuda::ptx::sem_acquire, Scope{}, &bar->word,
                                                parity);
  }
}

#undef CUPROBE_DETAIL_MBAR_SCOPE

namespace detail {
#if CUPROBE_MBARRIER_DEBUG
/// Prints what is known of a barrier that did not complete in time (one line per warp).
template <class T = void>
__device__ __noinline__ void report_timeout(object* bar, std::uint32_t parity,
                                            unsigned long long waited_ns, unsigned tries) {
  const unsigned active = __activemask();
  if (cuda::ptx::get_sreg_laneid() != static_cast<unsigned>(__ffs(active) - 1)) return;
  const std::uint32_t a = smem_u32(bar);
  unsigned long long raw;
  asm volatile("ld.volatile.shared.b64 %0, [%1];" : "=l"(raw) : "r"(a) : "memory");
  const shadow_entry* e = shadow_find(a);
  if (e) {
    printf(
        "cuprobe::ptx::mbarrier::wait: TIMEOUT: the barrier at shared address 0x%x (block "
        "(%u,%u,%u), thread (%u,%u,%u)) did not complete the phase of parity %u within %llu ns "
        "(%u tries); tx bytes this CTA announced on it since init: %llu, issued by this CTA's "
        "bulk copies: %llu (%lld announced but not issued here; %llu tensor copies, bytes not "
        "counted); raw mbarrier word 0x%016llx (layout undocumented); trapping\n",
        a, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, parity,
        waited_ns, tries, e->announced, e->issued,
        static_cast<long long>(e->announced) - static_cast<long long>(e->issued), e->tensor_copies,
        raw);
  } else {
    printf(
        "cuprobe::ptx::mbarrier::wait: TIMEOUT: the barrier at shared address 0x%x (block "
        "(%u,%u,%u), thread (%u,%u,%u)) did not complete the phase of parity %u within %llu ns "
        "(%u tries); no tx shadow (not initialised with cuprobe::ptx::mbarrier::init, or its "
        "slot was taken by another barrier); raw mbarrier word 0x%016llx (layout "
        "undocumented); trapping\n",
        a, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x, threadIdx.y, threadIdx.z, parity,
        waited_ns, tries, raw);
  }
}
#endif
}  // namespace detail

/// Waits until the phase of parity `parity` completed (acquire at Scope). Debug builds
/// (CUPROBE_MBARRIER_DEBUG) give up after CUPROBE_MBARRIER_TIMEOUT_NS ns: a sentence naming the
/// barrier, the parity and the tx bytes (see the header comment), then __trap().
template <class Scope = scope::cta>
__device__ __forceinline__ void wait(object* bar, std::uint32_t parity) {
  detail::check_barrier(bar, "wait");
#if CUPROBE_MBARRIER_DEBUG
  if (try_wait<Scope>(bar, parity)) {
    detail::shadow_phase_ended(bar);
    return;
  }
  const unsigned long long t0 = cuda::ptx::get_sreg_globaltimer();
  unsigned tries = 1;
  while (!try_wait<Scope>(bar, parity)) {
    ++tries;
    const unsigned long long waited = cuda::ptx::get_sreg_globaltimer() - t0;
    if (waited > static_cast<unsigned long long>(CUPROBE_MBARRIER_TIMEOUT_NS)) {
      detail::report_timeout(bar, parity, waited, tries);
      __trap();
    }
  }
  detail::shadow_phase_ended(bar);
#else
  while (!try_wait<Scope>(bar, parity)) {
  }
#endif
}

}  // namespace cuprobe::ptx::mbarrier
