// host tier: gen/tma.cuh, cuprobe_suite/kernels/tma_multicast.cuh, cuprobe_suite/tma.cuh and
// cuprobe_suite/tma_multicast.cuh without a GPU: the options refuse what cannot run with a
// sentence naming the field (before any CUDA call), the kernel choice is by enum, cluster size
// and stage count, the shared-memory sizes, slices, grids, point names, the best-point choice
// and the expected checksum are right.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe_suite/suite.cuh>

#include <cstdint>
#include <string>

#include "h200_like.cuh"

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;
namespace kernels = cuprobe::suite::kernels;
using doctest::Contains;

namespace {
void nothing(const std::string&) {}

template <class F>
void refused(F&& f, const char* sentence) {
  CHECK_THROWS_WITH_AS(f(), Contains(sentence), cuprobe::error);
}

/// changing<Options>(run)(change): a call of `run` on default Options changed by `change`.
template <class Options, class Run>
auto changing(Run run) {
  return [run](auto change) {
    return [run, change] {
      Options o;
      change(o);
      run(o);
    };
  };
}
}  // namespace

TEST_CASE("tma_streams refuses options it cannot run, naming the field") {
  const auto dev = cuprobe_test::h200_like();
  const auto with = changing<ex::tma_stream_options>(
      [&dev](const ex::tma_stream_options& o) { (void)ex::tma_streams(dev, o, nothing); });
  refused(with([](auto& o) { o.copy_bytes = {512}; }),
          "multiples of 1 KiB in 1 .. 32 KiB, got 512");
  refused(with([](auto& o) { o.copy_bytes = {65536}; }), "got 65536");
  refused(with([](auto& o) { o.copy_bytes = {1536}; }), "got 1536");
  refused(with([](auto& o) { o.stages = {3}; }), "stages are 1, 2, 4 or 8, got 3");
  refused(with([](auto& o) { o.ctas_per_sm = {0}; }), "CTAs per SM are 1 .. 32, got 0");
  refused(with([](auto& o) { o.consumer_warps = 0; }), "consumer_warps must be 1 .. 31");
  refused(with([](auto& o) { o.copies.clear(); }), "must not be empty");
  refused(with([](auto& o) { o.array_bytes = 1024; }), "array_bytes must be at least 32 KiB");
  refused(with([](auto& o) { o.run.graph = true; }), "the load check counts launches");
  refused(with([](auto& o) { o.run.batch = 4; }), "leave run.batch = 1");
  refused(with([](auto& o) { o.run.warmup = std::size_t(-1); }), "tma_streams");
  refused(with([](auto& o) {
            o.copies_too = true;
            o.copy_rounds = 0;
          }),
          "copy_rounds must be 1 .. 1000");
  refused(with([](auto& o) { o.store_issuers = {0}; }), "store issuers are 1 .. 4");
  refused(with([](auto& o) { o.store_issuers = {5}; }), "got 5");
  refused(with([](auto& o) {
            o.consumer_warps = 1;
            o.store_issuers = {3};
          }),
          "at most the warps of a block (1 + consumer_warps), got 3");
  refused(with([](auto& o) { o.grid_fractions = {0.0}; }), "grid fractions are in (0, 1], got 0");
  refused(with([](auto& o) { o.grid_fractions = {1.5}; }), "got 1.5");
  refused(with([](auto& o) { o.store_waits.clear(); }), "store_waits");
}

TEST_CASE("tma_latency refuses options it cannot run, naming the field") {
  const auto dev = cuprobe_test::h200_like();
  const auto with = changing<ex::tma_latency_options>(
      [&dev](const ex::tma_latency_options& o) { (void)ex::tma_latency(dev, o); });
  refused(with([](auto& o) { o.stride = 192; }), "a power of two of at least 128 bytes, got 192");
  refused(with([](auto& o) { o.stride = 64; }), "got 64");
  refused(with([](auto& o) { o.max_steps = 10; }), "max_steps must be 1024 .. 2^24");
  refused(with([](auto& o) { o.l2_bytes = 4096; }), "l2_bytes below 64 nodes");
  refused(with([](auto& o) { o.dram_bytes = 4096; }), "dram_bytes below 64 nodes");
  auto no_l2 = dev;
  no_l2.l2_bytes = 0;
  CHECK_THROWS_WITH_AS(ex::tma_latency(no_l2, ex::tma_latency_options{}),
                       Contains("reports no L2 size"), cuprobe::error);
}

TEST_CASE("stream kernels are chosen by copy kind and stage count") {
  // Function pointers compared as addresses (doctest cannot print function pointers).
  const auto addr = [](gen::tma_stream_fn f) { return reinterpret_cast<const void*>(f); };
  for (unsigned s : gen::tma_stage_counts)
    for (auto c : {gen::tma_copy::bulk, gen::tma_copy::tensor}) {
      CHECK(addr(gen::tma_load_stream_kernel_for(c, s)) != nullptr);
      CHECK(addr(gen::tma_store_stream_kernel_for(c, s)) != nullptr);
      CHECK(addr(gen::tma_load_stream_kernel_for(c, s)) !=
            addr(gen::tma_store_stream_kernel_for(c, s)));
    }
  CHECK(addr(gen::tma_load_stream_kernel_for(gen::tma_copy::bulk, 4)) ==
        addr(gen::tma_load_stream_kernel<gen::tma_copy::bulk, 4>));
  CHECK(addr(gen::tma_store_stream_kernel_for(gen::tma_copy::tensor, 8)) ==
        addr(gen::tma_store_stream_kernel<gen::tma_copy::tensor, 8>));
  CHECK(addr(gen::tma_load_stream_kernel_for(gen::tma_copy::bulk, 1)) !=
        addr(gen::tma_load_stream_kernel_for(gen::tma_copy::tensor, 1)));
  CHECK_THROWS_WITH_AS(gen::tma_load_stream_kernel_for(gen::tma_copy::bulk, 3),
                       Contains("stages must be 1, 2, 4 or 8, got 3"), cuprobe::error);
  CHECK(std::string(gen::to_string(gen::tma_copy::bulk)) == "bulk");
  CHECK(std::string(gen::to_string(gen::tma_copy::tensor)) == "tensor");
  // The copy stream: 2, 4 or 8 stages (a stage is reloaded only after its store has read it).
  CHECK(addr(gen::tma_copy_stream_kernel_for(4)) == addr(gen::tma_copy_stream_kernel<4>));
  CHECK(addr(gen::tma_copy_stream_kernel_for(2)) != addr(gen::tma_copy_stream_kernel_for(8)));
  CHECK_THROWS_WITH_AS(gen::tma_copy_stream_kernel_for(1), Contains("must be 2, 4 or 8, got 1"),
                       cuprobe::error);
  CHECK_THROWS_WITH_AS(gen::tma_copy_stream_kernel_for(3), Contains("got 3"), cuprobe::error);
}

TEST_CASE("copy stream points: bulk, 2 stages or more, interleaved, the whole grid") {
  ex::tma_stream_options o;  // 6 sizes x stages 1, 2, 4, 8 x 3 CTA counts
  o.orders = {gen::tma_order::interleaved, gen::tma_order::contiguous};
  o.grid_fractions = {1.0, 0.5};
  const auto v = ex::detail::tma_stream_points(o, ex::detail::tma_direction::copy);
  CHECK(v.size() == 6 * 3 * 3);  // the 1-stage points dropped; no order or fraction axis
  for (const auto& p : v) {
    CHECK(p.copy == gen::tma_copy::bulk);
    CHECK(p.stages >= 2);
    CHECK(p.order == gen::tma_order::interleaved);
    CHECK(p.grid_fraction == 1.0);
  }
  CHECK(ex::detail::tma_point_name(v.front(), ex::detail::tma_direction::copy) ==
        "copy bulk 1 KiB x2 stages, 1 CTA/SM");
}

TEST_CASE("stream shapes: threads, shared memory and the expected checksum") {
  CHECK(gen::tma_stream_threads(4) == 160);
  CHECK(gen::tma_stream_smem_bytes(32768, 4) == 4 * 32768 + 1024);
  // 0 + 1 + ... + (n - 1) mod 2^32, against a plain loop.
  for (std::uint64_t n : {0ull, 1ull, 2ull, 3ull, 1000ull, 65537ull, (1ull << 20) + 3}) {
    std::uint32_t s = 0;
    for (std::uint64_t i = 0; i < n; ++i) s += static_cast<std::uint32_t>(i);
    CHECK(gen::tma_iota_sum(n) == s);
  }
  // A 3.75 GiB array (2^30 + 2^28 words): n (n - 1) / 2 exceeds 2^32 many times over.
  const std::uint64_t n = (1ull << 30) + (1ull << 28);
  const unsigned __int128 exact = (unsigned __int128)n * (n - 1) / 2;
  CHECK(gen::tma_iota_sum(n) == static_cast<std::uint32_t>(exact));
}

TEST_CASE("stream point names and grids: defaults say nothing, variants say what changed") {
  using ex::detail::tma_point;
  const tma_point plain{gen::tma_copy::bulk, 4096, 8, 1};
  CHECK(ex::detail::tma_point_name(plain, ex::detail::tma_direction::store) ==
        "store bulk 4 KiB x8 stages, 1 CTA/SM");
  tma_point v = plain;
  v.wait = gen::tma_store_wait::complete;
  v.issuers = 2;
  v.grid_fraction = 0.5;
  CHECK(ex::detail::tma_point_name(v, ex::detail::tma_direction::store) ==
        "store bulk 4 KiB x8 stages, 1 CTA/SM, wait_group, 2 issuers, 0.5 of the grid");
  CHECK(ex::detail::tma_grid_ctas(132, 1, 1.0) == 132);
  CHECK(ex::detail::tma_grid_ctas(132, 1, 0.5) == 66);
  CHECK(ex::detail::tma_grid_ctas(132, 2, 0.75) == 198);
  CHECK(ex::detail::tma_grid_ctas(132, 1, 0.001) == 1);  // never an empty grid
  CHECK(std::string(gen::to_string(gen::tma_store_wait::read)) == "wait_group.read");
  CHECK(std::string(gen::to_string(gen::tma_store_wait::complete)) == "wait_group");
}

TEST_CASE("tma_multicast refuses options it cannot run, naming the field") {
  const auto dev = cuprobe_test::h200_like();
  const auto with = changing<ex::tma_multicast_options>(
      [&dev](const ex::tma_multicast_options& o) { (void)ex::tma_multicast(dev, o, nothing); });
  refused(with([](auto& o) { o.cluster_sizes = {3}; }), "cluster sizes are 1, 2, 4 or 8, got 3");
  refused(with([](auto& o) { o.cluster_sizes = {16}; }), "got 16");
  refused(with([](auto& o) { o.chunk_bytes = {512}; }),
          "chunk bytes are multiples of 1 KiB in 1 .. 32 KiB, got 512");
  refused(with([](auto& o) { o.chunk_bytes = {65536}; }), "got 65536");
  refused(with([](auto& o) { o.stages = {3}; }), "stages are 1, 2, 4 or 8, got 3");
  refused(with([](auto& o) { o.ctas_per_sm = {0}; }), "CTAs per SM are 1 .. 32, got 0");
  refused(with([](auto& o) { o.consumer_warps = 31; }), "consumer_warps must be 1 .. 30");
  refused(with([](auto& o) { o.multicast.clear(); }), "must not be empty");
  refused(with([](auto& o) { o.array_bytes = 128 * 1024; }),
          "array_bytes must be at least 256 KiB");
  refused(with([](auto& o) { o.run.graph = true; }), "the checksum counts launches");
  refused(with([](auto& o) { o.run.batch = 2; }), "leave run.batch = 1");
  auto old = dev;
  old.cc_major = 8;
  CHECK_THROWS_WITH_AS(ex::tma_multicast(old, ex::tma_multicast_options{}, nothing),
                       Contains("cluster multicast needs sm_90 or newer"), cuprobe::error);
}

TEST_CASE("multicast kernels are chosen by cluster size, mode and stage count") {
  const auto addr = [](kernels::tma_multicast_fn f) { return reinterpret_cast<const void*>(f); };
  for (unsigned n : kernels::tma_multicast_cluster_sizes)
    for (unsigned s : gen::tma_stage_counts) {
      CAPTURE(n);
      CAPTURE(s);
      CHECK(addr(kernels::tma_multicast_kernel_for(n, true, s)) != nullptr);
      CHECK(addr(kernels::tma_multicast_kernel_for(n, true, s)) !=
            addr(kernels::tma_multicast_kernel_for(n, false, s)));
    }
  CHECK(addr(kernels::tma_multicast_kernel_for(4, true, 2)) ==
        addr(kernels::tma_multicast_stream_kernel<2, 4, true>));
  CHECK(addr(kernels::tma_multicast_kernel_for(2, false, 8)) ==
        addr(kernels::tma_multicast_stream_kernel<8, 2, false>));
  CHECK(addr(kernels::tma_multicast_kernel_for(1, true, 4)) !=
        addr(kernels::tma_multicast_kernel_for(2, true, 4)));
  CHECK_THROWS_WITH_AS(kernels::tma_multicast_kernel_for(3, true, 4),
                       Contains("the cluster size must be 1, 2, 4 or 8, got 3"), cuprobe::error);
  CHECK_THROWS_WITH_AS(kernels::tma_multicast_kernel_for(2, true, 3),
                       Contains("stages must be 1, 2, 4 or 8, got 3"), cuprobe::error);
}

TEST_CASE("multicast sizes: slices, threads, names, and which point is best") {
  CHECK(kernels::tma_multicast_slice_bytes(16384, 4, true) == 4096);
  CHECK(kernels::tma_multicast_slice_bytes(16384, 4, false) == 16384);
  CHECK(kernels::tma_multicast_slice_bytes(1024, 8, true) == 128);  // still a multiple of 16
  CHECK(kernels::tma_multicast_threads(4) == 192);  // producer warp, relay warp, 4 consumer warps
  CHECK(ex::detail::tma_multicast_name({4, true, 16384, 4, 1}) ==
        "multicast 16 KiB x4 stages, clusters of 4, 1 CTA/SM");
  CHECK(ex::detail::tma_multicast_name({2, false, 8192, 2, 2}) ==
        "per-CTA 8 KiB x2 stages, clusters of 2, 2 CTA/SM");
  CHECK(ex::detail::tma_multicast_name({2, true, 8192, 2, 1, true}) ==
        "multicast 8 KiB x2 stages, clusters of 2, 1 CTA/SM, relaxed relay");
  // best_multicast: the largest delivered rate among clusters of 2 or more; best_of by mode.
  const auto point = [](unsigned n, bool mc, double dram_gbps) {
    cuprobe::measurement m;
    m.rate.bytes_per_s = dram_gbps * 1e9;
    m.with_param("cluster_size", n)
        .with_param("multicast", mc)
        .with_param("dram_tbps", dram_gbps / 1e3)
        .with_param("delivered_tbps", n * dram_gbps / 1e3);
    return m;
  };
  ex::tma_multicast_result r;
  REQUIRE_THROWS_WITH_AS(r.best_multicast(), Contains("no multicast point"), cuprobe::error);
  r.points = {point(1, true, 4000), point(2, true, 3000), point(4, true, 2000),
              point(4, false, 2500), point(1, false, 4100)};
  CHECK(ex::tma_delivered_tbps(r.best_multicast()) == doctest::Approx(8.0));  // 4 x 2 TB/s
  CHECK(r.best_of(1, false)->gb_per_s() == doctest::Approx(4100));
  CHECK(r.best_of(4, false)->gb_per_s() == doctest::Approx(2500));
  CHECK(r.best_of(8, true) == nullptr);
  r.points = {point(1, true, 4000), point(1, false, 4100)};  // clusters of 1 only
  CHECK(r.best_multicast().params.at("cluster_size").as_number() == 1);
}

TEST_CASE("stream points: the store axes vary the stores only, hints the bulk stores only") {
  ex::tma_stream_options o;  // 2 copies x 6 sizes x 4 stage counts x 3 CTA counts
  CHECK(ex::detail::tma_stream_points(o, ex::detail::tma_direction::load).size() == 144);
  CHECK(ex::detail::tma_stream_points(o, ex::detail::tma_direction::store).size() == 144);
  o.store_hints = {gen::tma_store_hint::none, gen::tma_store_hint::evict_first};
  o.store_waits = {gen::tma_store_wait::read, gen::tma_store_wait::complete};
  o.store_issuers = {1, 2};
  o.grid_fractions = {1.0, 0.5};
  CHECK(ex::detail::tma_stream_points(o, ex::detail::tma_direction::load).size() == 144 * 2);
  // bulk: 2 hints x 2 waits x 2 issuers; tensor: no hint, 2 waits x 2 issuers (x 2 fractions).
  CHECK(ex::detail::tma_stream_points(o, ex::detail::tma_direction::store).size() ==
        72 * 2 * (8 + 4));
  for (const auto& p : ex::detail::tma_stream_points(o, ex::detail::tma_direction::load)) {
    CHECK(p.hint == gen::tma_store_hint::none);
    CHECK(p.wait == gen::tma_store_wait::read);
    CHECK(p.issuers == 1);
  }
  for (const auto& p : ex::detail::tma_stream_points(o, ex::detail::tma_direction::store))
    if (p.copy == gen::tma_copy::tensor) CHECK(p.hint == gen::tma_store_hint::none);
}
