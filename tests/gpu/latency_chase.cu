// gpu tier: gen/chase.cuh. The rings are checked link by link against the host's successor
// array, and every chase is checked to end on the exact node a host walk reaches, so every hop
// was a real dependent load of the ring. Timings are only checked to be finite and positive,
// except one ordering that cannot fail (an L1-resident ring is faster than a ring 4x the L2).
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/gen/chase.cuh>
#include <cuprobe_suite/latency.cuh>
#include <cuprobe_suite/latency_sweeps.cuh>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace g = cuprobe::gen;

namespace {
/// The node reached from `start` after `hops` hops of `next`.
std::uint64_t walk(const std::vector<std::uint32_t>& next, std::uint64_t start,
                   std::uint64_t hops) {
  std::uint64_t p = start;
  for (std::uint64_t i = 0; i < hops; ++i) p = next[p];
  return p;
}

/// Short runs: a few thousand hops.
g::chase_options quick(g::chase_lanes lanes = g::chase_lanes::one) {
  g::chase_options o;
  o.lanes = lanes;
  o.min_steps = 1000;
  o.max_steps = 3000;
  return o;
}

void check_timing(const g::chase_result& r) {
  CHECK(r.cycles > 0);
  CHECK(std::isfinite(r.cycles_per_hop));
  CUPROBE_TIMING_CHECK(r.cycles_per_hop > 1.0);    // no load returns in one cycle
  CUPROBE_TIMING_CHECK(r.cycles_per_hop < 1.0e5);  // nor takes 50 us
}
}  // namespace

CUPROBE_GPU_TEST_CASE("chase_ring links every node to its host successor") {
  for (unsigned rings : {1u, 32u}) {
    CAPTURE(rings);
    g::chase_ring ring(std::size_t(1) << 20, 256, rings, 7);
    CHECK(ring.nodes() == 4096);
    CHECK(ring.nodes_per_ring() == 4096 / rings);
    CHECK(ring.bytes() == (std::size_t(1) << 20));
    CHECK(ring.address(1) - ring.address(0) == 256);
    CHECK(ring.seed() == 7);
    CHECK(ring.rings() == rings);
    CHECK(ring.stride() == 256);
    CHECK(ring.memory().bytes() == ring.bytes());
    CHECK(ring.node_of(ring.address(4095)) == 4095);
    CHECK(ring.successors_on_device() == g::chase_successors(4096, rings, 7));
  }
  g::chase_ring odd(1000 * 24 + 5, 24, 1, 1);  // bytes rounded down to whole nodes
  CHECK(odd.nodes() == 1000);
  CHECK(odd.bytes() == 24000);
  CHECK(odd.successors_on_device() == g::chase_successors(1000, 1, 1));
}

CUPROBE_GPU_TEST_CASE("chase_ring refuses bad shapes") {
  CHECK_THROWS_AS(g::chase_ring(4096, 12), cuprobe::error);  // not a multiple of 8
  CHECK_THROWS_AS(g::chase_ring(4096, 0), cuprobe::error);
  CHECK_THROWS_AS(g::chase_ring(128, 128), cuprobe::error);       // one node
  CHECK_THROWS_AS(g::chase_ring(4096, 128, 32), cuprobe::error);  // 32 nodes for 32 rings
  CHECK_THROWS_AS(g::chase_ring(1 << 20, 128, 4), cuprobe::error);
  g::chase_ring ring(1 << 16);
  CHECK_THROWS_AS(ring.node_of(ring.address(0) + 8), cuprobe::error);
  CHECK_THROWS_AS(g::run_chase(ring, quick(g::chase_lanes::warp_own)), cuprobe::error);
  g::chase_ring warp(1 << 16, 128, 32);
  CHECK_THROWS_AS(g::run_chase(warp, quick()), cuprobe::error);
}

CUPROBE_GPU_TEST_CASE("run_chase: one thread ends on the node the host walk reaches") {
  g::chase_ring ring(64 << 10, 128, 1, 3);  // 512 nodes
  const auto next = g::chase_successors(512, 1, 3);
  auto o = quick();
  const auto r = g::run_chase(ring, o);
  CHECK(r.steps == 2048);        // 512 x 4 passes
  CHECK(r.warmup_steps == 512);  // one full pass (512 <= max_steps)
  CHECK(r.bytes == (64u << 10));
  CHECK(r.nodes == 512);
  REQUIRE(r.last_nodes.size() == 1);
  CHECK(r.last_nodes[0] == walk(next, 0, r.warmup_steps + r.steps));
  check_timing(r);

  o.warmup = g::chase_warmup::none;
  o.passes = 1;
  o.min_steps = 777;
  const auto r2 = g::run_chase(ring, o);
  CHECK(r2.steps == 777);
  CHECK(r2.warmup_steps == 0);
  CHECK(r2.last_nodes[0] == walk(next, 0, 777));
}

CUPROBE_GPU_TEST_CASE("run_chase: warp lanes on one ring and on their own rings") {
  g::chase_ring same(1 << 20, 128, 1, 11);
  const auto r = g::run_chase(same, quick(g::chase_lanes::warp_same));
  const auto next = g::chase_successors(same.nodes(), 1, 11);
  REQUIRE(r.last_nodes.size() == 32);
  for (auto n : r.last_nodes) CHECK(n == walk(next, 0, r.warmup_steps + r.steps));
  check_timing(r);

  g::chase_ring own(1 << 20, 128, 32, 11);
  const auto ro = g::run_chase(own, quick(g::chase_lanes::warp_own));
  const auto next_own = g::chase_successors(own.nodes(), 32, 11);
  REQUIRE(ro.last_nodes.size() == 32);
  CHECK(ro.rings == 32);
  for (unsigned l = 0; l < 32; ++l) {
    CHECK(ro.last_nodes[l] % 32 == l);  // lane l stayed on ring l
    CHECK(ro.last_nodes[l] == walk(next_own, l, ro.warmup_steps + ro.steps));
  }
  check_timing(ro);
}

CUPROBE_GPU_TEST_CASE("run_chase: other loads plug in (ld.global.cg, a device lambda)") {
  g::chase_ring ring(256 << 10, 128, 1, 5);
  const auto next = g::chase_successors(ring.nodes(), 1, 5);
  const auto cg = g::run_chase(ring, quick(), g::chase_load_global_cg{});
  CHECK(cg.last_nodes[0] == walk(next, 0, cg.warmup_steps + cg.steps));
  check_timing(cg);
  const auto lam = g::run_chase(ring, quick(), [] __device__(const std::uint64_t* p) {
    return *reinterpret_cast<const volatile std::uint64_t*>(p);
  });
  CHECK(lam.last_nodes[0] == walk(next, 0, lam.warmup_steps + lam.steps));
  check_timing(lam);
}

CUPROBE_GPU_TEST_CASE("run_shared_chase: ends on the host walk's node, above 48 KiB too") {
  const auto d = cuprobe::device_info::query();
  for (std::size_t bytes : {std::size_t(16) << 10, std::size_t(96) << 10}) {
    if (bytes > d.smem_per_block_optin) continue;
    CAPTURE(bytes);
    const auto r = g::run_shared_chase(bytes, quick(), 4, 9);
    const auto next = g::chase_successors(bytes / 4, 1, 9);
    REQUIRE(r.last_nodes.size() == 1);
    CHECK(r.last_nodes[0] == walk(next, 0, r.warmup_steps + r.steps));
    CHECK(r.bytes == bytes);
    check_timing(r);
    const auto w = g::run_shared_chase(bytes, quick(g::chase_lanes::warp_own), 4, 9);
    const auto next32 = g::chase_successors(bytes / 4, 32, 9);
    for (unsigned l = 0; l < 32; ++l)
      CHECK(w.last_nodes[l] == walk(next32, l, w.warmup_steps + w.steps));
  }
  CHECK_THROWS_AS(g::run_shared_chase(d.smem_per_block_optin + 1024), cuprobe::error);
  CHECK_THROWS_AS(g::run_shared_chase(4096, quick(), 6), cuprobe::error);
}

CUPROBE_GPU_TEST_CASE("an L1-resident chase is faster than one over 4x the L2") {
  const auto d = cuprobe::device_info::query();
  g::chase_ring small(16 << 10);  // 128 lines, warmed: L1 hits
  std::size_t big_bytes = std::size_t(1) << 26;
  while (big_bytes < 4 * d.l2_bytes) big_bytes *= 2;
  g::chase_ring big(big_bytes);  // cold random lines: DRAM (and TLB) misses
  auto o = quick();
  o.max_steps = 1u << 14;
  const auto s = g::run_chase(small, o);
  const auto b = g::run_chase(big, o);
  CHECK(b.warmup_steps == 0);
  check_timing(s);
  check_timing(b);
  CUPROBE_TIMING_CHECK(s.cycles_per_hop < b.cycles_per_hop);
  MESSAGE("16 KiB: " << s.cycles_per_hop << " cycles/hop; " << big_bytes / (1 << 20)
                     << " MiB: " << b.cycles_per_hop << " cycles/hop");
}

CUPROBE_GPU_TEST_CASE("suite::chase_latency: the chase through the protocol") {
  namespace ex = cuprobe::suite;
  g::chase_ring ring(256 << 10, 128, 1, 5);
  const auto next = g::chase_successors(ring.nodes(), 1, 5);
  ex::chase_latency_options o;
  o.chase = quick();
  o.run.stop = cuprobe::stopping_rule::fixed(4);
  o.run.clock_mhz = 1500;
  o.load = "ld.global.cg";
  g::chase_result last;
  const auto m = ex::chase_latency(ring, o, g::chase_load_global_cg{}, &last);
  CHECK(last.last_nodes[0] == walk(next, 0, last.warmup_steps + last.steps));  // a real chase
  CHECK(m.name == "latency.chase");
  CHECK(m.unit == cuprobe::sample_unit::cycles);
  CHECK(m.samples.size() == 4);
  CHECK(m.options.iterations == last.steps);
  CHECK(m.cycles_per_op() == doctest::Approx(m.stats.median));
  CHECK(m.seconds() == doctest::Approx(m.stats.median / 1.5e9));  // at the given clock
  CHECK(m.params.at("load").as_string() == "ld.global.cg");
  CHECK(m.params.at("bytes").as_number() == double(ring.bytes()));
  CHECK(m.params.at("ns_per_hop").as_number() == doctest::Approx(m.stats.median / 1.5));
  // The protocol's record: environment, statistics and flags like a bandwidth result.
  CHECK(m.env.before.available == cuprobe::nvml::instance().available());
  CHECK(m.stop_verdict == "converged");
  CHECK(!cuprobe::has_flag(m.flags, cuprobe::flag_code::few_samples));
  for (double v : m.samples) {
    CUPROBE_TIMING_CHECK(v > 1.0);
    CUPROBE_TIMING_CHECK(v < 1.0e5);
  }
  const auto sh = ex::shared_chase_latency(16 << 10, o);
  CHECK(sh.params.at("load").as_string() == "ld.shared");
  CUPROBE_TIMING_CHECK(sh.cycles_per_op() < m.cycles_per_op());  // shared memory beats an L2 hop
  ex::chase_latency_options bad = o;
  bad.chase.min_steps = 0;
  CHECK_THROWS_WITH_AS(ex::chase_latency(ring, bad), doctest::Contains("min_steps"),
                       cuprobe::error);
}

CUPROBE_GPU_TEST_CASE("suite::tlb_sweep and lane_modes: every point, in order, plausible") {
  const auto dev = cuprobe::device_info::query();
  std::vector<std::string> seen;
  const auto note = [&](const std::string& s) { seen.push_back(s); };

  namespace ex = cuprobe::suite;
  ex::tlb_sweep_options to;
  to.strides = {std::size_t(64) << 10};
  to.max_bytes = std::size_t(2) << 20;  // 128 KiB, 256 KiB, ..., 2 MiB: five points
  to.repeats = 2;
  to.max_steps = 1u << 14;  // chase_options::min_steps: the smallest cap allowed
  to.run.clock_mhz = 1500;
  const auto tlb = ex::tlb_sweep(dev, to, note);
  REQUIRE(tlb.size() == 5);
  for (std::size_t i = 0; i < tlb.size(); ++i) {
    CAPTURE(i);
    CHECK(tlb[i].name == "latency.tlb");
    CHECK(tlb[i].samples.size() == 2);
    CHECK(tlb[i].params.at("bytes").as_number() == double((std::size_t(128) << 10) << i));
    CHECK(tlb[i].params.at("load").as_string() == "ld.global.cg, stride 64 KiB");
    // .cg loads never hit the L1: well above the L1 latency of any GPU (~30 cycles).
    CUPROBE_TIMING_CHECK(tlb[i].cycles_per_op() > 60);
    CHECK(std::isfinite(tlb[i].cycles_per_op()));
  }

  ex::lane_modes_options lo;
  lo.dram_bytes = 4 * dev.l2_bytes;
  lo.repeats = 1;
  lo.max_steps = 1u << 14;
  lo.run.clock_mhz = 1500;
  const auto lanes = ex::lane_modes(dev, lo, note);
  REQUIRE(lanes.size() == 3 * 4);  // {one, warp_same, warp_own} x {L1, L2, DRAM, shared}
  CHECK(seen.size() == tlb.size() + lanes.size());
  const auto at = [&](std::size_t mode, std::size_t level) {
    return lanes.at(mode * 4 + level).cycles_per_op();
  };
  for (std::size_t mode = 0; mode < 3; ++mode) {
    CAPTURE(mode);
    CHECK(lanes[mode * 4].params.at("level").as_string() == "L1");
    CHECK(lanes[mode * 4 + 3].params.at("load").as_string() == "ld.shared");
    CUPROBE_TIMING_CHECK(at(mode, 0) < at(mode, 1));  // L1 hits beat L2 hits ...
    CUPROBE_TIMING_CHECK(at(mode, 1) < at(mode, 2));  // ... which beat DRAM
  }
  CHECK(lanes[8].params.at("lanes").as_string() == "warp_own");
  CUPROBE_TIMING_CHECK(at(2, 2) >=
                       at(0, 2));  // a 32-line gather from DRAM is not faster than one line
}
