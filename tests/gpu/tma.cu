// gpu tier: gen/tma.cuh and cuprobe_suite/tma.cuh on an sm_90 GPU, in small settings: every stream
// point validated (the load streams' checksum over every launch, the store streams' whole
// output), the chases through bulk and tensor copies end on the node a host walk of the ring
// reaches (so every hop copied the right 16 bytes), latencies ordered L2 < DRAM, and a
// "DRAM" stream whose working set fits the L2 flagged as such. The cluster multicast stream
// (cuprobe_suite/kernels/tma_multicast.cuh): every rank's sum equals the host's for clusters of 1,
// 2 and 4, with and without multicast, 1 to 8 stages, in debug mode (bounded waits);
// tma_multicast's points validated and its delivered/DRAM accounting; the store variants validated.
// Timing checks are skipped visibly under compute-sanitizer.
#define CUPROBE_PTX_CHECKS 1
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe_suite/suite.cuh>

#include <string>
#include <vector>

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;
namespace kernels = cuprobe::suite::kernels;

namespace {
/// False, with a visible SKIPPED message, on a GPU without TMA and clusters (before sm_90).
bool has_tma(const cuprobe::device_info& dev) {
  if (dev.cc_major >= 9) return true;
  MESSAGE("SKIPPED: sm_" << dev.sm() << " has no TMA or clusters (sm_90 or newer)");
  return false;
}

/// The node a walk of `steps` hops from node 0 reaches, on the host.
std::uint64_t walk(const std::vector<std::uint32_t>& next, std::uint64_t steps) {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < steps; ++i) n = next[n];
  return n;
}
}  // namespace

CUPROBE_GPU_TEST_CASE("TMA chases: bulk and tensor hops follow the ring like ld.global.cg") {
  const auto dev = cuprobe::device_info::query();
  if (!has_tma(dev)) return;
  const bool sanitizer = cuprobe::testing::under_sanitizer();  // ~0.3 ms per TMA hop there
  const std::uint64_t hops = sanitizer ? 500 : 5000;
  const gen::chase_ring ring(sanitizer ? 64u << 10 : 1u << 20, 128, 1, 1, gen::chase_fill::zeroed);
  const auto next = ring.successors_on_device();
  ex::chase_latency_options co;
  co.chase.max_steps = co.chase.min_steps = hops;
  co.chase.warmup = gen::chase_warmup::none;
  co.run.stop = cuprobe::stopping_rule::fixed(1);
  gen::chase_result r;
  const auto want = walk(next, hops);
  (void)ex::chase_latency(ring, co, gen::chase_bulk_load<16>{}, &r);
  CHECK(r.last_nodes.at(0) == want);
  (void)ex::chase_latency(ring, co, gen::chase_bulk_load<128>{}, &r);
  CHECK(r.last_nodes.at(0) == want);
  const auto map = ex::detail::chase_tensor_map(ring);
  gen::chase_tensor_load<16> t;
  t.map = map.data();
  t.base = ring.address(0);
  t.stride_shift = 7;
  (void)ex::chase_latency(ring, co, t, &r);
  CHECK(r.last_nodes.at(0) == want);
}

CUPROBE_GPU_TEST_CASE("tma_latency: L2 below DRAM for every copy, each a measurement in cycles") {
  const auto dev = cuprobe::device_info::query();
  if (!has_tma(dev)) return;
  ex::tma_latency_options o;
  o.max_steps = 1u << 12;
  if (cuprobe::testing::under_sanitizer()) {  // ~0.3 ms per TMA hop there
    o.l2_bytes = std::size_t(256) << 10;
    o.max_steps = 1024;
  }
  o.dram_bytes = 4 * dev.l2_bytes;
  o.run.clock_mhz = dev.sm_clock_khz / 1e3;
  const auto r = ex::tma_latency(dev, o);
  for (const auto* l : {&r.l2, &r.dram})
    for (const auto* m : {&l->ld, &l->bulk, &l->tensor}) {
      CHECK(m->unit == cuprobe::sample_unit::cycles);
      CHECK(m->stats.count == 3);
      CHECK(m->cycles_per_op() > 0);
    }
  MESSAGE("L2: ld " << r.l2.ld.cycles_per_op() << ", bulk " << r.l2.bulk.cycles_per_op()
                    << ", tensor " << r.l2.tensor.cycles_per_op() << "; DRAM: ld "
                    << r.dram.ld.cycles_per_op() << ", bulk " << r.dram.bulk.cycles_per_op()
                    << ", tensor " << r.dram.tensor.cycles_per_op() << " cycles");
  CUPROBE_TIMING_CHECK(r.l2.bulk.cycles_per_op() < r.dram.bulk.cycles_per_op());
  CUPROBE_TIMING_CHECK(r.l2.tensor.cycles_per_op() < r.dram.tensor.cycles_per_op());
  CUPROBE_TIMING_CHECK(r.l2.ld.cycles_per_op() < r.dram.ld.cycles_per_op());
  // A copy cannot deliver before the same line's plain load (both from the L2; the copy adds
  // the mbarrier round trip).
  CUPROBE_TIMING_CHECK(r.l2.bulk.cycles_per_op() > r.l2.ld.cycles_per_op());
}

CUPROBE_GPU_TEST_CASE(
    "tma_streams: every load and store point validated, flagged when cache-resident") {
  const auto dev = cuprobe::device_info::query();
  if (!has_tma(dev)) return;
  ex::tma_stream_options o;
  o.copy_bytes = {1024, 32768};
  o.stages = {1, 4};
  o.ctas_per_sm = {1, 4};
  o.array_bytes = std::uint64_t(cuprobe::testing::under_sanitizer() ? 4 : 48) << 20;
  o.run = cuprobe::run_options::fixed(1, 2);
  int calls = 0;
  const auto r = ex::tma_streams(dev, o, [&](const std::string&) { ++calls; });
  // 32 KiB x 4 stages x 4 CTAs does not fit an SM's shared memory: skipped with a sentence.
  CHECK(r.loads.size() + r.stores.size() + r.skipped.size() == 2 * 2 * 2 * 2 * 2);
  CHECK(calls == 2 * 2 * 2 * 2 * 2 + 1);
  REQUIRE(!r.skipped.empty());
  CHECK(r.skipped.front().find("fit") != std::string::npos);
  for (const auto* v : {&r.loads, &r.stores})
    for (const auto& m : *v) {
      INFO(m.params.at("case").as_string());
      CHECK(m.params.at("valid").as_bool());
      CHECK(m.gb_per_s() > 0);
      // 48 MiB is below the flag's 4 x the L2 on any Hopper card (50 or 60 MiB): the runner
      // must say that this "DRAM" stream is a cache figure.
      CHECK(cuprobe::has_flag(m.flags, cuprobe::flag_code::cache_resident));
    }
  REQUIRE(r.read_peer);
  REQUIRE(r.write_peer);
  MESSAGE("best load " << r.best_load().gb_per_s() << " GB/s ("
                       << r.best_load().params.at("case").as_string() << "), read peer "
                       << r.read_peer->gb_per_s() << "; best store " << r.best_store().gb_per_s()
                       << ", write peer " << r.write_peer->gb_per_s());
}

CUPROBE_GPU_TEST_CASE(
    "tma_streams: the copy stream copies every byte and meets cudaMemcpy in alternating rounds") {
  const auto dev = cuprobe::device_info::query();
  if (!has_tma(dev)) return;
  ex::tma_stream_options o;
  o.loads = o.stores = o.peers = false;
  o.copies_too = true;
  o.copy_rounds = 3;
  o.copy_bytes = {4096, 32768};
  o.stages = {1, 2, 8};
  o.ctas_per_sm = {1, 2};
  o.array_bytes = std::uint64_t(cuprobe::testing::under_sanitizer() ? 4 : 48) << 20;
  o.run = cuprobe::run_options::fixed(1, 2);
  const auto r = ex::tma_streams(dev, o, [](const std::string&) {});
  // 2 sizes x 2 stage counts (the copy needs 2 or more) x 2 CTA counts; 32 KiB x 8 stages is
  // more shared memory than a block may have: skipped with a sentence.
  CHECK(r.copies.size() == 6);
  CHECK(r.skipped.size() == 2);
  CHECK(r.loads.empty());
  CHECK(r.stores.empty());
  for (const auto& m : r.copies) {
    INFO(m.params.at("case").as_string());
    CHECK(m.params.at("valid").as_bool());
    CHECK(m.params.at("direction").as_string() == "copy");
    CHECK(m.declared.bytes_read == m.declared.bytes_written);
    CHECK(m.gb_per_s() > 0);
    // 2 x 48 MiB is below the flag's 4 x the L2 on any Hopper card (50 or 60 MiB).
    CHECK(cuprobe::has_flag(m.flags, cuprobe::flag_code::cache_resident));
  }
  REQUIRE(r.copy_head_to_head.size() == 2);
  CHECK(r.copy_head_to_head[0].params.at("case").as_string() ==
        r.best_copy().params.at("case").as_string());
  CHECK(r.copy_head_to_head[1].name == "memcpy.d2d");
  for (const auto& m : r.copy_head_to_head) CHECK(m.samples.size() == 3);
  REQUIRE(r.copy_vs_memcpy);
  // A ratio of two copies of the same arrays on the same card in the same run.
  CUPROBE_TIMING_CHECK(*r.copy_vs_memcpy > 0.1);
  CUPROBE_TIMING_CHECK(*r.copy_vs_memcpy < 10);
  MESSAGE("best TMA copy " << r.best_copy().gb_per_s() << " GB/s ("
                           << r.best_copy().params.at("case").as_string() << "), "
                           << *r.copy_vs_memcpy << " x cudaMemcpy (paired)");
}

namespace {
/// One launch of the multicast stream kernel in `clusters` clusters of `n`; the per-rank sums.
std::vector<std::uint32_t> multicast_sums(const cuprobe::device_buffer<std::uint32_t>& array,
                                          unsigned n, bool multicast, unsigned stages,
                                          std::uint32_t chunk, unsigned clusters,
                                          std::uint32_t passes) {
  cuprobe::device_buffer<std::uint32_t> sums(n);
  sums.zero();
  kernels::tma_multicast_args a;
  a.src = array.data();
  a.chunk_bytes = chunk;
  a.chunks = array.bytes() / chunk;
  a.passes = passes;
  a.sums = sums.data();
  cuprobe::hopper::cluster_launch c;
  c.shape = {dim3(n * clusters), dim3(kernels::tma_multicast_threads(4)),
             gen::tma_stream_smem_bytes(chunk, stages)};
  c.cluster = dim3(n);
  cuprobe::hopper::launch(kernels::tma_multicast_kernel_for(n, multicast, stages), c, a);
  CUPROBE_CHECK(cudaDeviceSynchronize());
  return sums.to_host();
}
}  // namespace

CUPROBE_GPU_TEST_CASE("multicast stream: every rank of clusters of 1, 2, 4 receives every word") {
  const auto dev = cuprobe::device_info::query();
  if (!has_tma(dev)) return;
  // 37 chunks: the clusters take uneven counts; two passes: every stage wraps several times.
  // Debug checks are on in this file: every wait is bounded, the kernel checks its launch.
  const std::uint32_t chunk = 4096;
  const std::uint64_t words = 37ull * chunk / 4;
  cuprobe::device_buffer<std::uint32_t> array(words);
  gen::tma_iota_kernel<<<64, 256>>>(array.data(), words);
  CUPROBE_CHECK_LAUNCH("tma_iota_kernel");
  const std::uint32_t want = 2u * gen::tma_iota_sum(words);
  const std::vector<unsigned> stage_counts = cuprobe::testing::under_sanitizer()
                                                 ? std::vector<unsigned>{1, 4}
                                                 : std::vector<unsigned>{1, 2, 4, 8};
  for (unsigned n : {1u, 2u, 4u})
    for (bool multicast : {true, false})
      for (unsigned stages : stage_counts) {
        CAPTURE(n);
        CAPTURE(multicast);
        CAPTURE(stages);
        const auto got = multicast_sums(array, n, multicast, stages, chunk, 3, 2);
        REQUIRE(got.size() == n);
        for (unsigned r = 0; r < n; ++r) {
          CAPTURE(r);
          CHECK(got[r] == want);
        }
      }
  // A chunk of 32 KiB in clusters of 4: 8 KiB slices, the largest stage of the sweep.
  cuprobe::device_buffer<std::uint32_t> big(64ull * 32768 / 4);
  gen::tma_iota_kernel<<<64, 256>>>(big.data(), big.size());
  CUPROBE_CHECK_LAUNCH("tma_iota_kernel");
  for (unsigned r = 0; r < 4; ++r)
    CHECK(multicast_sums(big, 4, true, 4, 32768, 5, 1)[r] == gen::tma_iota_sum(big.size()));
}

CUPROBE_GPU_TEST_CASE("tma_multicast: every point validated; delivered = cluster size x DRAM") {
  const auto dev = cuprobe::device_info::query();
  if (!has_tma(dev)) return;
  const bool sanitizer = cuprobe::testing::under_sanitizer();
  ex::tma_multicast_options o;
  o.chunk_bytes = {4096, 32768};
  o.stages = {2, 8};
  o.ctas_per_sm = {1};
  if (sanitizer) o.cluster_sizes = {1, 4};  // every launch costs seconds under racecheck
  o.array_bytes = std::uint64_t(sanitizer ? 4 : 48) << 20;
  o.run = cuprobe::run_options::fixed(sanitizer ? 0 : 1, sanitizer ? 1 : 2);
  int calls = 0;
  const auto r = ex::tma_multicast(dev, o, [&](const std::string&) { ++calls; });
  // Per cluster size: per-CTA, multicast with the release relay and (clusters of 2 or more)
  // with the relaxed one; x 2 chunks x 2 stage counts; 32 KiB x 8 stages does not fit.
  int points = 0;
  for (unsigned n : o.cluster_sizes) points += (n > 1 ? 3 : 2) * 2 * 2;
  CHECK(calls == points);
  CHECK(int(r.points.size() + r.skipped.size()) == points);
  REQUIRE(!r.skipped.empty());
  CHECK(r.skipped.front().find("exceed") != std::string::npos);
  for (const auto& m : r.points) {
    INFO(m.params.at("case").as_string());
    CHECK(m.params.at("valid").as_bool());
    const double n = m.params.at("cluster_size").as_number();
    CHECK(ex::tma_delivered_tbps(m) == doctest::Approx(n * ex::tma_dram_tbps(m)));
    CHECK(ex::tma_dram_tbps(m) == doctest::Approx(m.gb_per_s() / 1e3));
    CHECK(m.params.at("ctas").as_number() <= double(dev.sm_count));
    CHECK(cuprobe::has_flag(m.flags,
                            cuprobe::flag_code::cache_resident));  // 48 MiB < 4 x a Hopper L2
  }
  const auto& best = r.best_multicast();
  CHECK(best.params.at("multicast").as_bool());
  CHECK(best.params.at("cluster_size").as_number() >= 2);
  REQUIRE(r.best_of(1, false) != nullptr);
  MESSAGE("best multicast " << best.params.at("case").as_string() << ": delivered "
                            << ex::tma_delivered_tbps(best) << " TB/s, array "
                            << ex::tma_dram_tbps(best) << " TB/s; clusters of 1 "
                            << r.best_of(1, false)->gb_per_s() / 1e3 << " TB/s");
}

CUPROBE_GPU_TEST_CASE(
    "tma_streams: the store variants (wait_group, issuers, fewer CTAs) validate") {
  const auto dev = cuprobe::device_info::query();
  if (!has_tma(dev)) return;
  ex::tma_stream_options o;
  o.loads = false;
  o.peers = false;
  o.copies = {gen::tma_copy::bulk, gen::tma_copy::tensor};
  o.copy_bytes = {4096};
  o.stages = {1, 4};
  o.ctas_per_sm = {1};
  o.store_waits = {gen::tma_store_wait::read, gen::tma_store_wait::complete};
  o.store_issuers = {1, 2, 4};
  o.grid_fractions = {1.0, 0.5};
  const bool sanitizer = cuprobe::testing::under_sanitizer();
  if (sanitizer) {  // every launch costs seconds under racecheck
    o.stages = {4};
    o.grid_fractions = {0.5};
  }
  o.array_bytes = std::uint64_t(sanitizer ? 4 : 48) << 20;
  o.run = cuprobe::run_options::fixed(sanitizer ? 0 : 1, sanitizer ? 1 : 2);
  const auto r = ex::tma_streams(dev, o, [](const std::string&) {});
  CHECK(r.loads.empty());
  CHECK(r.stores.size() == 2 * o.stages.size() * 2 * 3 * o.grid_fractions.size());
  for (const auto& m : r.stores) {
    INFO(m.params.at("case").as_string());
    CHECK(m.params.at("valid").as_bool());
    const double f = m.params.at("grid_fraction").as_number();
    CHECK(m.params.at("ctas").as_number() ==
          double(ex::detail::tma_grid_ctas(unsigned(dev.sm_count), 1, f)));
  }
}
