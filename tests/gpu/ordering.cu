// gpu tier: ptx/fence.cuh and gen/ordering.cuh.
// - last_block_sum: 200 launches per pattern, fresh random inputs, random grids: exact sums.
// - every fence wrapper in a message-passing loop between two threads of its scope (two warps
//   of one block, two blocks of one cluster, two blocks): data written before the release-side
//   fence must be what the reader sees after its acquire-side fence, in every round. (The
//   reader's plain loads could hit a stale L1 line without the acquire half's invalidation.)
// - fence_proxy_async: shared-memory writes, the proxy fence, then cp.async.bulk to global.
// - suite::fence_costs: runs, finite numbers, the orderings that cannot fail; each
//   figure is a measurement of the protocol (unit cycles, environment, flags).
// - suite::fence_cost_by_home: lines sorted by their L2 home (each once, the same in a
//   second chase), every placed point measured on its SM; near/far differences printed.
// - ptx/atomic.cuh: the message-passing loop's flag and acknowledgement go through its loads and
//   stores; every thread of 64 blocks takes a ticket with atomic_fetch_add at each semantics:
//   each ticket is taken exactly once and the counter ends at the thread count.
// No test relies on a race showing up: a missing fence is not reliably observable.
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/gen/ordering.cuh>
#include <cuprobe/ptx/atomic.cuh>
#include <cuprobe/ptx/fence.cuh>
#include <cuprobe_suite/ordering.cuh>

#include <cuda/ptx>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace g = cuprobe::gen;
namespace p = cuprobe::ptx;

// ---- last_block_sum --------------------------------------------------------------------------

CUPROBE_GPU_TEST_CASE("last_block_sum: exact sums over 200 launches per pattern") {
  constexpr std::size_t n = std::size_t(1) << 20;
  constexpr unsigned max_blocks = 2048, per_round = 50, rounds = 4;
  cuprobe::device_buffer<std::uint32_t> in(n);
  cuprobe::device_buffer<unsigned long long> out(per_round);
  g::last_block_sum sum(max_blocks);
  CHECK(sum.max_blocks() == max_blocks);
  for (auto pattern : {g::publish_pattern::fence_then_atomic, g::publish_pattern::acq_rel_atomic,
                       g::publish_pattern::release_atomic_acquire_load}) {
    CAPTURE(g::to_string(pattern));
    for (unsigned round = 0; round < rounds; ++round) {
      const std::uint64_t seed = 1000 * static_cast<unsigned>(pattern) + round;
      in.fill_random(seed, 0u, 0xffffffffu);
      const std::vector<std::uint32_t> h = in.to_host();
      std::vector<unsigned long long> prefix(n + 1, 0);
      for (std::size_t i = 0; i < n; ++i) prefix[i + 1] = prefix[i] + h[i];
      std::vector<std::size_t> off(per_round), len(per_round);
      out.poison();
      for (unsigned k = 0; k < per_round; ++k) {
        off[k] = cuprobe::host_random<std::size_t>(seed, 3 * k, 0, n - 1);
        len[k] = cuprobe::host_random<std::size_t>(seed, 3 * k + 1, 0, n - off[k]);
        unsigned blocks = cuprobe::host_random<unsigned>(seed, 3 * k + 2, 1, max_blocks);
        if (k == 0) len[k] = 0;  // nothing to add
        if (k == 1) blocks = 1;  // the only block is the last one
        if (k == 2) {            // most blocks add nothing
          blocks = max_blocks;
          off[k] = 0;
          len[k] = 1000;
        }
        sum.launch(in.data() + off[k], len[k], blocks, pattern, out.data() + k);
      }
      CUPROBE_CHECK(cudaDeviceSynchronize());
      const std::vector<unsigned long long> got = out.to_host();
      for (unsigned k = 0; k < per_round; ++k) {
        CAPTURE(k);
        REQUIRE(got[k] == prefix[off[k] + len[k]] - prefix[off[k]]);
      }
      CHECK(sum.counter_value() == 0);  // the last block reset it
    }
  }
  CHECK(sum(in.data(), 0, 7, g::publish_pattern::acq_rel_atomic) == 0);
  const std::vector<std::uint32_t> h = in.to_host();
  CHECK(sum(in.data(), 3, 1, g::publish_pattern::fence_then_atomic) == 0ull + h[0] + h[1] + h[2]);
  CHECK_THROWS_AS(
      sum.launch(in.data(), n, max_blocks + 1, g::publish_pattern::acq_rel_atomic, out.data()),
      cuprobe::error);
  CHECK_THROWS_AS(sum.launch(in.data(), n, 0, g::publish_pattern::acq_rel_atomic, out.data()),
                  cuprobe::error);
}

CUPROBE_GPU_TEST_CASE("basic_last_block_sum: 64-bit inputs") {
  cuprobe::device_buffer<std::uint64_t> in(100000);
  in.fill_random(5, 0ull, 1ull << 40);
  unsigned long long want = 0;
  for (auto v : in.to_host()) want += v;
  g::basic_last_block_sum<std::uint64_t> sum(300);
  CHECK(sum(in.data(), in.size(), 300, g::publish_pattern::release_atomic_acquire_load) == want);
}

// ---- fences in message passing ---------------------------------------------------------------

namespace {
template <class Sem, class Scope>
struct use_fence {
  static constexpr bool supported = p::fence_supported_v<Sem, Scope>;
  __device__ static void run() {
    if constexpr (supported) p::fence<Sem, Scope>();
  }
};
template <class Scope>
struct use_membar {
  static constexpr bool supported = true;
  __device__ static void run() { p::membar<Scope>(); }
};

constexpr unsigned mp_words = 16;
constexpr unsigned mp_spin_limit = 1u << 22;  // a few seconds: a timeout, never a hang

/// status[0]: wrong words read; status[1]: 1 when the fence is not in this program's code;
/// status[2]: timeouts. Writer: thread 0 of block 0. Reader: thread 32 of block 0 (same_block)
/// or thread 0 of block 1.
template <class Release, class Acquire>
__global__ void message_passing_kernel(unsigned* data, unsigned* flag, unsigned* ack,
                                       unsigned* status, unsigned rounds, bool same_block) {
  if constexpr (!(Release::supported && Acquire::supported)) {
    if (blockIdx.x == 0 && threadIdx.x == 0) status[1] = 1;
  } else {
    const bool writer = blockIdx.x == 0 && threadIdx.x == 0;
    const bool reader =
        same_block ? (blockIdx.x == 0 && threadIdx.x == 32) : (blockIdx.x == 1 && threadIdx.x == 0);
    if (writer) {
      for (unsigned r = 1; r <= rounds; ++r) {
        for (unsigned j = 0; j < mp_words; ++j) data[j] = r * 131u + j;  // plain stores
        Release::run();
        p::atomic_store<p::sem::relaxed, p::scope::gpu>(flag, r);
        for (unsigned spins = 0; p::atomic_load<p::sem::acquire, p::scope::gpu>(ack) != r;)
          if (++spins > mp_spin_limit) {
            atomicAdd(&status[2], 1u);
            return;
          }
      }
    } else if (reader) {
      for (unsigned r = 1; r <= rounds; ++r) {
        for (unsigned spins = 0; p::atomic_load<p::sem::relaxed, p::scope::gpu>(flag) != r;)
          if (++spins > mp_spin_limit) {
            atomicAdd(&status[2], 1u);
            return;
          }
        Acquire::run();
        for (unsigned j = 0; j < mp_words; ++j)  // plain loads
          if (data[j] != r * 131u + j) atomicAdd(&status[0], 1u);
        p::atomic_store<p::sem::release, p::scope::gpu>(ack, r);
      }
    }
  }
}

// ---- ptx/atomic.cuh: tickets ----------------------------------------------------------------

template <class Sem, class Scope>
__global__ void ticket_kernel(unsigned* counter, unsigned* taken, unsigned slots) {
  const unsigned t = p::atomic_fetch_add<Sem, Scope>(counter, 1u);
  if (t < slots) atomicAdd(&taken[t], 1u);
}

template <class Sem, class Scope>
void check_tickets(const char* what) {
  CAPTURE(what);
  constexpr unsigned blocks = 64, threads = 256, n = blocks * threads;
  cuprobe::device_buffer<unsigned> counter(1), taken(n);
  counter.zero();
  taken.zero();
  ticket_kernel<Sem, Scope><<<blocks, threads>>>(counter.data(), taken.data(), n);
  CUPROBE_CHECK(cudaGetLastError());
  CUPROBE_CHECK(cudaDeviceSynchronize());
  CHECK(counter.to_host()[0] == n);
  const auto t = taken.to_host();
  CHECK(std::count(t.begin(), t.end(), 1u) == std::ptrdiff_t(n));
}

CUPROBE_GPU_TEST_CASE("ptx::atomic_fetch_add: every ticket taken once, at each semantics") {
  check_tickets<p::sem::relaxed, p::scope::gpu>("relaxed.gpu");
  check_tickets<p::sem::acquire, p::scope::gpu>("acquire.gpu");
  check_tickets<p::sem::release, p::scope::gpu>("release.gpu");
  check_tickets<p::sem::acq_rel, p::scope::gpu>("acq_rel.gpu");
  check_tickets<p::sem::acq_rel, p::scope::sys>("acq_rel.sys");
}

enum class mp_shape { same_block, cluster, two_blocks };

/// Runs the message-passing kernel and checks it; `what` names the case.
template <class Release, class Acquire>
void check_message_passing(mp_shape shape, const std::string& what, unsigned rounds = 2000) {
  CAPTURE(what);
  const auto d = cuprobe::device_info::query();
  if (shape == mp_shape::cluster && d.cc_major < 9) {
    MESSAGE("skipped (thread block clusters need compute capability 9.0): " << what);
    return;
  }
  cuprobe::device_buffer<unsigned> data(mp_words), flag(1), ack(1), status(3);
  data.zero();
  flag.zero();
  ack.zero();
  status.zero();
  auto kernel = message_passing_kernel<Release, Acquire>;
  if (shape == mp_shape::cluster) {
    cudaLaunchConfig_t cfg{};
    cfg.gridDim = dim3(2);
    cfg.blockDim = dim3(32);
    cudaLaunchAttribute attr{};
    attr.id = cudaLaunchAttributeClusterDimension;
    attr.val.clusterDim.x = 2;
    attr.val.clusterDim.y = 1;
    attr.val.clusterDim.z = 1;
    cfg.attrs = &attr;
    cfg.numAttrs = 1;
    CUPROBE_CHECK(cudaLaunchKernelEx(&cfg, kernel, data.data(), flag.data(), ack.data(),
                                     status.data(), rounds, false));
  } else {
    const bool same = shape == mp_shape::same_block;
    kernel<<<same ? 1 : 2, same ? 64 : 32>>>(data.data(), flag.data(), ack.data(), status.data(),
                                             rounds, same);
    CUPROBE_CHECK_LAUNCH("message_passing_kernel");
  }
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto s = status.to_host();
  REQUIRE(s[1] == 0);  // built for a target that has the fence
  CHECK(s[2] == 0);    // no timeout
  CHECK(s[0] == 0);    // every word of every round as written
  CHECK(flag.to_host()[0] == rounds);
  CHECK(ack.to_host()[0] == rounds);
}

template <class Scope>
void check_fences_of_scope(mp_shape shape) {
  const std::string scope = p::scope_name<Scope>();
  check_message_passing<use_fence<p::sem::sc, Scope>, use_fence<p::sem::sc, Scope>>(shape,
                                                                                    "sc." + scope);
  check_message_passing<use_fence<p::sem::acq_rel, Scope>, use_fence<p::sem::acq_rel, Scope>>(
      shape, "acq_rel." + scope);
  check_message_passing<use_fence<p::sem::release, Scope>, use_fence<p::sem::acquire, Scope>>(
      shape, "release/acquire." + scope);
}
}  // namespace

CUPROBE_GPU_TEST_CASE("fence<Sem, scope::cta>: two warps of one block pass messages") {
  check_fences_of_scope<p::scope::cta>(mp_shape::same_block);
  check_message_passing<use_membar<p::scope::cta>, use_membar<p::scope::cta>>(mp_shape::same_block,
                                                                              "membar.cta");
}

CUPROBE_GPU_TEST_CASE("fence<Sem, scope::cluster>: two blocks of one cluster pass messages") {
  check_fences_of_scope<p::scope::cluster>(mp_shape::cluster);
}

CUPROBE_GPU_TEST_CASE("fence<Sem, scope::gpu> and scope::sys: two blocks pass messages") {
  check_fences_of_scope<p::scope::gpu>(mp_shape::two_blocks);
  check_fences_of_scope<p::scope::sys>(mp_shape::two_blocks);
  check_message_passing<use_membar<p::scope::gpu>, use_membar<p::scope::gpu>>(mp_shape::two_blocks,
                                                                              "membar.gl");
  check_message_passing<use_membar<p::scope::sys>, use_membar<p::scope::sys>>(mp_shape::two_blocks,
                                                                              "membar.sys");
}

// ---- the proxy fence -------------------------------------------------------------------------

namespace {
constexpr unsigned proxy_words = 256;
__global__ void proxy_fence_kernel(unsigned* out, unsigned* unsupported) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __shared__ alignas(16) unsigned buf[proxy_words];
  buf[threadIdx.x] = threadIdx.x * 2654435761u;  // generic-proxy writes
  p::fence_proxy_async();                        // ... made visible to the async proxy
  __syncthreads();
  if (threadIdx.x == 0) {
    cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, out, buf,
                             static_cast<std::uint32_t>(sizeof(buf)));
    cuda::ptx::cp_async_bulk_commit_group();
    cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<0>{});
  }
  (void)unsupported;
#else
  if (threadIdx.x == 0) *unsupported = 1;
  (void)out;
#endif
}
}  // namespace

CUPROBE_GPU_TEST_CASE("fence_proxy_async: shared-memory writes reach cp.async.bulk") {
  if (cuprobe::device_info::query().cc_major < 9) {
    MESSAGE("skipped: the async proxy needs compute capability 9.0");
    return;
  }
  for (int rep = 0; rep < 20; ++rep) {
    cuprobe::device_buffer<unsigned> out(proxy_words), unsupported(1);
    out.poison();
    unsupported.zero();
    proxy_fence_kernel<<<1, proxy_words>>>(out.data(), unsupported.data());
    CUPROBE_CHECK_LAUNCH("proxy_fence_kernel");
    CUPROBE_CHECK(cudaDeviceSynchronize());
    REQUIRE(unsupported.to_host()[0] == 0);
    const auto h = out.to_host();
    for (unsigned i = 0; i < proxy_words; ++i) REQUIRE(h[i] == i * 2654435761u);
  }
}

// ---- fence cost ------------------------------------------------------------------------------

CUPROBE_GPU_TEST_CASE("suite::fence_costs: every semantics x scope, finite and positive") {
  namespace ex = cuprobe::suite;
  ex::fence_cost_options o;
  o.iterations = 256;
  o.run.stop = cuprobe::stopping_rule::fixed(3);
  const auto costs = ex::fence_costs(o);
  REQUIRE(costs.size() == 32);
  const bool sm90 = cuprobe::device_info::query().cc_major >= 9;
  const char* sems[] = {"sc", "acq_rel", "acquire", "release"};
  const char* scopes[] = {"cta", "cluster", "gpu", "sys"};
  for (std::size_t i = 0; i < costs.size(); ++i) {
    const auto& c = costs[i];
    CAPTURE(std::string(c.sem) + "." + c.scope + " x" + std::to_string(c.threads));
    CHECK(c.threads == (i < 16 ? 32u : 1024u));
    CHECK(std::string(c.sem) == sems[(i / 4) % 4]);
    CHECK(std::string(c.scope) == scopes[i % 4]);
    if (sm90) CHECK(c.supported);
    if (!c.supported) {
      CHECK(!c.cycles_per_fence);
      continue;
    }
    REQUIRE(c.with);
    REQUIRE(c.without);
    REQUIRE(c.cycles_per_fence);
    CHECK(c.with->unit == cuprobe::sample_unit::cycles);
    CHECK(c.with->samples.size() == 3);
    CHECK(c.with->options.iterations == 256);
    CHECK(c.with->env.before.available == cuprobe::nvml::instance().available());
    CHECK(c.with->stats.median > 0);
    CHECK(c.without->stats.median > 0);
    CHECK(*c.cycles_per_fence == doctest::Approx(c.with->stats.median - c.without->stats.median));
    // A device- or system-scope SC fence after a store waits for the store to reach the L2
    // (or beyond): it always costs something.
    if (std::string(c.sem) == "sc" &&
        (std::string(c.scope) == "gpu" || std::string(c.scope) == "sys"))
      CUPROBE_TIMING_CHECK(*c.cycles_per_fence > 0);
    MESSAGE("fence." << c.sem << "." << c.scope << " x" << c.threads << ": " << *c.cycles_per_fence
                     << " cycles (" << c.with->stats.median << " - " << c.without->stats.median
                     << ")");
  }
  CHECK_THROWS_AS((ex::fence_cost<p::sem::sc, p::scope::gpu>(0, o)), cuprobe::error);
  CHECK_THROWS_AS((ex::fence_cost<p::sem::sc, p::scope::gpu>(2048, o)), cuprobe::error);
}

// What must hold whatever the answer to "does a gpu-scope fence wait for the line's home?":
// the classification covers the ring's lines once each and repeats, every placed point is
// measured on the SM it asked for, positive, with its home recorded. The near/far differences
// are printed, not asserted (docs/memory-latency.md quotes them).
CUPROBE_GPU_TEST_CASE("suite::fence_cost_by_home: lines sorted by L2 home, both measured") {
  namespace ex = cuprobe::suite;
  const auto dev = cuprobe::device_info::query();
  const ex::fence_cost_lines lines(0);
  const auto& h = lines.homes;
  MESSAGE("SM 0: " << h.near.size() << " near lines at " << h.near_cycles << " cycles, "
                   << h.far.size() << " far at " << h.far_cycles << ", " << h.above_fraction
                   << " of hops set aside");
  CHECK(h.sm == 0);
  CHECK(h.near_cycles > 0);
  CHECK(h.far_cycles >= h.near_cycles);
  std::vector<std::uint64_t> all(h.near);
  all.insert(all.end(), h.far.begin(), h.far.end());
  CHECK(all.size() <= lines.ring.nodes());
  std::sort(all.begin(), all.end());
  CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());  // no line in both
  for (std::uint64_t a : all) REQUIRE(lines.ring.node_of(a) < lines.ring.nodes());
  // The same lines, the same SM, a second chase: a line's home does not move.
  const auto again = ex::l2_classify_lines(lines.ring, 0, g::chase_load_home{});
  std::vector<std::uint64_t> far_again(again.far);
  std::sort(far_again.begin(), far_again.end());
  std::size_t kept = 0;
  for (std::uint64_t a : h.far) kept += std::binary_search(far_again.begin(), far_again.end(), a);
  const double agree = h.far.empty() ? 1.0 : double(kept) / double(h.far.size());
  MESSAGE("far lines still far in a second chase: " << 100 * agree << " %");
  if (!h.separated()) {
    MESSAGE("the hops did not split in two clusters: this GPU shows one L2 home per SM");
    ex::fence_cost_options o;
    o.home = ex::l2_home::near;
    CHECK_THROWS_WITH_AS((ex::fence_cost<p::sem::sc, p::scope::gpu>(32, o, &lines)),
                         doctest::Contains("did not split into near and far"), cuprobe::error);
    CHECK(ex::fence_cost_by_home(dev, o).costs.empty());
    return;
  }
  if (cuprobe::testing::under_sanitizer()) {  // hop times are the instrumentation's
    MESSAGE(
        "SKIPPED under compute-sanitizer (timing): the placed fence costs need the near/far "
        "split of real hop times");
    return;
  }
  // A line's home is fixed by its address on any card: a ratio of two chases in this run, with
  // a tenth left for hops that noise puts on the other side of the split.
  CUPROBE_TIMING_CHECK(agree > 0.9);

  ex::fence_cost_options o;
  o.iterations = 256;
  o.run.stop = cuprobe::stopping_rule::fixed(3);
  const auto r = ex::fence_cost_by_home(dev, o);
  REQUIRE(r.costs.size() == 16);
  CHECK(r.near_lines + r.far_lines > 0);
  const char* scopes[] = {"cta", "cluster", "gpu", "sys"};
  for (std::size_t i = 0; i < r.costs.size(); ++i) {
    const auto& c = r.costs[i];
    CAPTURE(std::string(c.scope) + " x" + std::to_string(c.threads) + " " + ex::to_string(c.home));
    CHECK(std::string(c.sem) == "sc");
    CHECK(std::string(c.scope) == scopes[(i / 2) % 4]);
    CHECK(c.threads == (i < 8 ? 32u : 1024u));
    CHECK(c.home == (i % 2 == 0 ? ex::l2_home::near : ex::l2_home::far));
    if (dev.cc_major >= 9) CHECK(c.supported);
    if (!c.supported) continue;
    REQUIRE(c.with);
    REQUIRE(c.without);
    REQUIRE(c.sm);
    CHECK(*c.sm == 0);
    CHECK(c.with->stats.median > 0);
    CHECK(c.without->stats.median > 0);
    CHECK(c.with->params.at("home").as_string() == ex::to_string(c.home));
    if (i % 2 == 1 && r.costs[i - 1].supported)
      MESSAGE("fence.sc." << c.scope << " x" << c.threads << ": near "
                          << *r.costs[i - 1].cycles_per_fence << ", far " << *c.cycles_per_fence
                          << ", far - near "
                          << *c.cycles_per_fence - *r.costs[i - 1].cycles_per_fence << " cycles");
  }
}

CUPROBE_GPU_TEST_CASE("suite::publish_consume: every launch exact") {
  namespace ex = cuprobe::suite;
  ex::publish_consume_options o;
  o.launches = 20;
  o.elements = 1 << 16;
  for (auto pattern : {g::publish_pattern::fence_then_atomic, g::publish_pattern::acq_rel_atomic,
                       g::publish_pattern::release_atomic_acquire_load}) {
    const auto r = ex::publish_consume(pattern, o);
    CHECK(r.launches == 20);
    CHECK(r.exact == 20);
  }
}
