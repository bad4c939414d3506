// gpu tier: gen/tma.cuh and experiments/tma.cuh on an sm_90 GPU, in small settings: every stream
// point validated (the load streams' checksum over every launch, the store streams' whole
// output), the chases through bulk and tensor copies end on the node a host walk of the ring
// reaches (so every hop copied the right 16 bytes), latencies ordered L2 < DRAM, and a
// "DRAM" stream whose working set fits the L2 flagged as such. Timing checks are skipped
// visibly under compute-sanitizer.
#define CUPROBE_PTX_CHECKS 1
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/cuprobe.cuh>

#include <string>
#include <vector>

namespace ex = cuprobe::experiments;
namespace gen = cuprobe::gen;

namespace {
/// The node a walk of `steps` hops from node 0 reaches, on the host.
std::uint64_t walk(const std::vector<std::uint32_t>& next, std::uint64_t steps) {
  std::uint64_t n = 0;
  for (std::uint64_t i = 0; i < steps; ++i) n = next[n];
  return n;
}
}  // namespace

CUPROBE_GPU_TEST_CASE("TMA chases: bulk and tensor hops follow the ring like ld.global.cg") {
  const auto dev = cuprobe::device_info::query();
  if (dev.cc_major < 9) {
    MESSAGE("SKIPPED: sm_" << dev.sm() << " has no TMA");
    return;
  }
  const bool sanitizer = cuprobe::testing::under_sanitizer();  // ~0.3 ms per TMA hop there
  const std::uint64_t hops = sanitizer ? 500 : 5000;
  const gen::chase_ring ring(sanitizer ? 64u << 10 : 1u << 20, 128, 1, 1, /*zero_fill=*/true);
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
  if (dev.cc_major < 9) {
    MESSAGE("SKIPPED: sm_" << dev.sm() << " has no TMA");
    return;
  }
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
  if (dev.cc_major < 9) {
    MESSAGE("SKIPPED: sm_" << dev.sm() << " has no TMA");
    return;
  }
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
      // 48 MiB fits the L2: the runner must say that this "DRAM" stream is a cache figure.
      CHECK(cuprobe::has_flag(m.flags, "cache_resident"));
    }
  REQUIRE(r.read_peer);
  REQUIRE(r.write_peer);
  MESSAGE("best load " << r.best_load().gb_per_s() << " GB/s ("
                       << r.best_load().params.at("case").as_string() << "), read peer "
                       << r.read_peer->gb_per_s() << "; best store " << r.best_store().gb_per_s()
                       << ", write peer " << r.write_peer->gb_per_s());
}
