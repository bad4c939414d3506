// SASS probes for ptx/fence.cuh, gen/ordering.cuh and the suite's kernels/fence_cost.cuh (sm_90a):
// which instruction each fence becomes, between two stores, and what the publish/consume patterns
// and the fence-cost loops compile to. tests/areas/ordering.cmake holds the expected SASS;
// docs/memory-latency.md the table.
#include <cuprobe/gen/chase.cuh>
#include <cuprobe/gen/ordering.cuh>
#include <cuprobe/ptx/atomic.cuh>
#include <cuprobe/ptx/fence.cuh>
#include <cuprobe_suite/kernels/fence_cost.cuh>

namespace p = cuprobe::ptx;

#define PROBE_FENCE(NAME, ...)                   \
  extern "C" __global__ void NAME(unsigned* x) { \
    x[0] = 1;                                    \
    __VA_ARGS__;                                 \
    x[1] = 2;                                    \
  }

PROBE_FENCE(probe_fence_sc_cta, (p::fence<p::sem::sc, p::scope::cta>()))
PROBE_FENCE(probe_fence_sc_cluster, (p::fence<p::sem::sc, p::scope::cluster>()))
PROBE_FENCE(probe_fence_sc_gpu, (p::fence<p::sem::sc, p::scope::gpu>()))
PROBE_FENCE(probe_fence_sc_sys, (p::fence<p::sem::sc, p::scope::sys>()))
PROBE_FENCE(probe_fence_acq_rel_cta, (p::fence<p::sem::acq_rel, p::scope::cta>()))
PROBE_FENCE(probe_fence_acq_rel_cluster, (p::fence<p::sem::acq_rel, p::scope::cluster>()))
PROBE_FENCE(probe_fence_acq_rel_gpu, (p::fence<p::sem::acq_rel, p::scope::gpu>()))
PROBE_FENCE(probe_fence_acq_rel_sys, (p::fence<p::sem::acq_rel, p::scope::sys>()))
PROBE_FENCE(probe_fence_acquire_cta, (p::fence<p::sem::acquire, p::scope::cta>()))
PROBE_FENCE(probe_fence_acquire_cluster, (p::fence<p::sem::acquire, p::scope::cluster>()))
PROBE_FENCE(probe_fence_acquire_gpu, (p::fence<p::sem::acquire, p::scope::gpu>()))
PROBE_FENCE(probe_fence_acquire_sys, (p::fence<p::sem::acquire, p::scope::sys>()))
PROBE_FENCE(probe_fence_release_cta, (p::fence<p::sem::release, p::scope::cta>()))
PROBE_FENCE(probe_fence_release_cluster, (p::fence<p::sem::release, p::scope::cluster>()))
PROBE_FENCE(probe_fence_release_gpu, (p::fence<p::sem::release, p::scope::gpu>()))
PROBE_FENCE(probe_fence_release_sys, (p::fence<p::sem::release, p::scope::sys>()))
PROBE_FENCE(probe_membar_cta, (p::membar<p::scope::cta>()))
PROBE_FENCE(probe_membar_gl, (p::membar<p::scope::gpu>()))
PROBE_FENCE(probe_membar_sys, (p::membar<p::scope::sys>()))
PROBE_FENCE(probe_fence_proxy_async, (p::fence_proxy_async()))
PROBE_FENCE(probe_no_fence, ((void)0))

namespace g = cuprobe::gen;
template __global__ void g::last_block_sum_kernel<g::publish_pattern::fence_then_atomic>(
    const std::uint32_t*, std::size_t, unsigned long long*, unsigned*, unsigned long long*);
template __global__ void g::last_block_sum_kernel<g::publish_pattern::acq_rel_atomic>(
    const std::uint32_t*, std::size_t, unsigned long long*, unsigned*, unsigned long long*);
template __global__ void g::last_block_sum_kernel<g::publish_pattern::release_atomic_acquire_load>(
    const std::uint32_t*, std::size_t, unsigned long long*, unsigned*, unsigned long long*);
template __global__ void
cuprobe::suite::kernels::fence_cost_kernel<p::sem::sc, p::scope::gpu, true>(const std::uint64_t*,
                                                                            unsigned long long*,
                                                                            unsigned, int,
                                                                            unsigned*, int*);
template __global__ void
cuprobe::suite::kernels::fence_cost_kernel<p::sem::sc, p::scope::cta, false>(const std::uint64_t*,
                                                                             unsigned long long*,
                                                                             unsigned, int,
                                                                             unsigned*, int*);
// The home probe of suite::l2_classify_lines: a timed chase hop must stay an atomic (an
// add of an opaque zero), never become a load that a partition's copy could serve.
template __global__ void g::chase_hops_kernel<g::chase_load_home>(std::uint64_t, std::uint64_t,
                                                                  std::uint32_t, std::uint32_t,
                                                                  g::chase_load_home, unsigned*,
                                                                  std::uint32_t*,
                                                                  g::chase_lane_out*);

// ptx/atomic.cuh: each scoped load, store and fetch-add between two plain stores.
#define PROBE_ATOMIC(NAME, ...)                                  \
  extern "C" __global__ void NAME(unsigned* x, unsigned* flag) { \
    x[0] = 1;                                                    \
    __VA_ARGS__;                                                 \
    x[1] = 2;                                                    \
  }
PROBE_ATOMIC(probe_atomic_load_relaxed_gpu,
             (x[2] = p::atomic_load<p::sem::relaxed, p::scope::gpu>(flag)))
PROBE_ATOMIC(probe_atomic_load_acquire_gpu,
             (x[2] = p::atomic_load<p::sem::acquire, p::scope::gpu>(flag)))
PROBE_ATOMIC(probe_atomic_load_acquire_sys,
             (x[2] = p::atomic_load<p::sem::acquire, p::scope::sys>(flag)))
PROBE_ATOMIC(probe_atomic_store_relaxed_gpu,
             (p::atomic_store<p::sem::relaxed, p::scope::gpu>(flag, 3u)))
PROBE_ATOMIC(probe_atomic_store_release_gpu,
             (p::atomic_store<p::sem::release, p::scope::gpu>(flag, 3u)))
PROBE_ATOMIC(probe_atomic_store_release_cta,
             (p::atomic_store<p::sem::release, p::scope::cta>(flag, 3u)))
PROBE_ATOMIC(probe_atomic_add_relaxed_gpu,
             (x[2] = p::atomic_fetch_add<p::sem::relaxed, p::scope::gpu>(flag, 3u)))
PROBE_ATOMIC(probe_atomic_add_acq_rel_gpu,
             (x[2] = p::atomic_fetch_add<p::sem::acq_rel, p::scope::gpu>(flag, 3u)))
PROBE_ATOMIC(probe_atomic_add_release_cluster,
             (x[2] = p::atomic_fetch_add<p::sem::release, p::scope::cluster>(flag, 3u)))
PROBE_ATOMIC(probe_atomic_add_acquire_sys,
             (x[2] = p::atomic_fetch_add<p::sem::acquire, p::scope::sys>(flag, 3u)))
