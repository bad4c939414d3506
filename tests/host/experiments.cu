// host tier: cuprobe_suite/: every experiment function refuses bad options with a sentence that
// names the field, before any CUDA call (so the same sentence with or without a GPU), and the
// pure pieces (dram_array_bytes' arithmetic aside, which asks the device for free memory) work.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe_suite/suite.cuh>

#include <string>
#include <vector>

#include "h200_like.cuh"

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;
using doctest::Contains;

namespace {
void nothing(const std::string&) {}
}  // namespace

TEST_CASE("latency experiments: bad options are refused before the GPU is touched") {
  const auto dev = cuprobe_test::h200_like();
  ex::latency_ladder_options o;
  o.points_per_octave = 0;
  CHECK_THROWS_WITH_AS(ex::latency_ladder(dev, o, nothing), Contains("points_per_octave is 0"),
                       cuprobe::error);
  o = {};
  o.min_bytes = 1;
  CHECK_THROWS_WITH_AS(ex::latency_ladder(dev, o, nothing), Contains("min_bytes"), cuprobe::error);
  o = {};
  o.repeats = 0;
  CHECK_THROWS_WITH_AS(ex::latency_ladder(dev, o, nothing), Contains("repeats is 0"),
                       cuprobe::error);
  o = {};
  o.max_steps = 10;
  CHECK_THROWS_WITH_AS(ex::latency_ladder(dev, o, nothing), Contains("max_steps is 10"),
                       cuprobe::error);
  o = {};
  o.run.warmup = std::size_t(-1);
  CHECK_THROWS_WITH_AS(ex::latency_ladder(dev, o, nothing),
                       Contains("latency_ladder: run_options.warmup"), cuprobe::error);
  auto nol2 = dev;
  nol2.l2_bytes = 0;
  CHECK_THROWS_WITH_AS(ex::latency_ladder(nol2, {}, nothing), Contains("no L2 size"),
                       cuprobe::error);
  // Derived sizes: 64 x the L2 and 16 x the L2 by default.
  CHECK(ex::latency_ladder_options{}.max_size(dev) == 64 * dev.l2_bytes);
  CHECK(ex::latency_ladder_options{}.cg_max(dev) == 16 * dev.l2_bytes);

  ex::chase_latency_options c;
  c.chase.min_steps = 0;
  CHECK_THROWS_WITH_AS(c.validate(), Contains("chase.min_steps (0)"), cuprobe::error);
  c = {};
  c.run.batch = 2;
  CHECK_THROWS_WITH_AS(c.validate(), Contains("one chase"), cuprobe::error);

  ex::tlb_sweep_options t;
  t.strides = {100};
  CHECK_THROWS_WITH_AS(ex::tlb_sweep(dev, t, nothing), Contains("stride of 100 bytes"),
                       cuprobe::error);
  t = {};
  t.max_steps = 100;
  CHECK_THROWS_WITH_AS(ex::tlb_sweep(dev, t, nothing), Contains("max_steps (100)"), cuprobe::error);
  // The strides derive from the allocation granularity (2 MiB when the driver does not say).
  CHECK(ex::tlb_sweep_options{}.strides_for(dev) ==
        std::vector<std::size_t>{std::size_t(2) << 20, std::size_t(64) << 10});
  auto big = dev;
  big.allocation_granularity = std::size_t(4) << 20;
  CHECK(ex::tlb_sweep_options{}.strides_for(big)[1] == (std::size_t(128) << 10));
  ex::lane_modes_options l;
  l.repeats = 0;
  CHECK_THROWS_WITH_AS(ex::lane_modes(dev, l, nothing), Contains("repeats must be"),
                       cuprobe::error);
}

TEST_CASE("memory and cache experiments: bad options are refused first") {
  const auto dev = cuprobe_test::h200_like();
  const gen::stream_kernel_set none;
  ex::dram_sweep_options o;
  o.widths = {12};
  CHECK_THROWS_WITH_AS(ex::dram_sweep(dev, none, o, nothing), Contains("got 12"), cuprobe::error);
  o = {};
  o.persistent = {{0, 256}};
  CHECK_THROWS_WITH_AS(ex::dram_sweep(dev, none, o, nothing), Contains("0 x 256"), cuprobe::error);
  o = {};
  o.covering = {2048};
  CHECK_THROWS_WITH_AS(ex::dram_sweep(dev, none, o, nothing), Contains("2048 threads"),
                       cuprobe::error);
  o = {};
  o.passes = 0;
  CHECK_THROWS_WITH_AS(ex::dram_sweep(dev, none, o, nothing), Contains("passes"), cuprobe::error);
  o = {};
  o.patterns.clear();
  CHECK_THROWS_WITH_AS(ex::dram_sweep(dev, none, o, nothing), Contains("must not be empty"),
                       cuprobe::error);
  o = {};
  o.run.stop = cuprobe::stopping_rule::adaptive(0.1, -1);
  CHECK_THROWS_WITH_AS(ex::dram_sweep(dev, none, o, nothing), Contains("max_rel_noise"),
                       cuprobe::error);

  ex::cache_curve_options c;
  c.points_per_octave = 99;
  CHECK_THROWS_WITH_AS(ex::cache_curves(dev, c, nothing), Contains("points_per_octave"),
                       cuprobe::error);
  ex::cache_bw_options b;
  b.bytes_per_launch = 10;
  CHECK_THROWS_WITH_AS(ex::l2_bandwidth(dev, b), Contains("bytes_per_launch"), cuprobe::error);
  // The tma_bulk write path: each field named, the device's needs checked first.
  b = {};
  b.tma.copy_bytes = 1000;
  CHECK_THROWS_WITH_AS(ex::l2_bandwidth(dev, b), Contains("tma.copy_bytes must be a multiple"),
                       cuprobe::error);
  b = {};
  b.tma.stages = 3;
  CHECK_THROWS_WITH_AS(ex::l2_bandwidth(dev, b), Contains("tma.stages must be 1, 2, 4 or 8"),
                       cuprobe::error);
  b = {};
  b.tma.ctas_per_sm = 0;
  CHECK_THROWS_WITH_AS(ex::l2_write_measure(dev, 1 << 20, b), Contains("tma.ctas_per_sm"),
                       cuprobe::error);
  b = {};
  b.tma.issuers = 5;
  CHECK_THROWS_WITH_AS(ex::l2_write_tma_measure(dev, 1 << 20, b), Contains("tma.issuers"),
                       cuprobe::error);
  b = {};
  b.write_path = ex::l2_write_path::tma_bulk;
  b.tma.copy_bytes = 32 * 1024;
  b.tma.stages = 8;
  CHECK_THROWS_WITH_AS(ex::l2_bandwidth(dev, b), Contains("bytes of shared memory per block"),
                       cuprobe::error);
  auto ampere = dev;
  ampere.cc_major = 8;
  b = {};
  b.write_path = ex::l2_write_path::tma_bulk;
  CHECK_THROWS_WITH_AS(ex::l2_bandwidth(ampere, b), Contains("tma_bulk needs sm_90"),
                       cuprobe::error);
  CHECK_THROWS_WITH_AS(ex::l2_write_tma_measure(ampere, 1 << 20, b), Contains("needs sm_90"),
                       cuprobe::error);
  CHECK(ex::l2_write_path_of("tma_bulk", "x") == ex::l2_write_path::tma_bulk);
  CHECK(std::string(ex::to_string(ex::l2_write_path_of("st_global", "x"))) == "st_global");
  CHECK_THROWS_WITH_AS(
      ex::l2_write_path_of("st.global", "--l2-write-path"),
      Contains("--l2-write-path must be st_global, tma_bulk or home, got 'st.global'"),
      cuprobe::error);
  CHECK(ex::l2_tma_write_options{}.describe() ==
        "bulk 8 KiB x4 stages, 2 CTA/SM, 1 issuer, contiguous");
  b = {};
  b.threads = 100;
  CHECK_THROWS_WITH_AS((ex::cache_bw_measure<gen::stream_pattern::read, cuprobe::ptx::cache::cg>(
                           dev, 1 << 20, false, b)),
                       Contains("multiple of 32"), cuprobe::error);
  ex::smem_bw_options sm;
  sm.conflict_strides = {33};
  CHECK_THROWS_WITH_AS(ex::shared_memory_bandwidth(dev, sm, nothing), Contains("got 33"),
                       cuprobe::error);
  CHECK(cuprobe::suite::kernels::smem_conflict_ways(1) == 1);
  CHECK(cuprobe::suite::kernels::smem_conflict_ways(2) == 2);
  CHECK(cuprobe::suite::kernels::smem_conflict_ways(3) == 1);
  CHECK(cuprobe::suite::kernels::smem_conflict_ways(12) == 4);
  CHECK(cuprobe::suite::kernels::smem_conflict_ways(32) == 32);
  CHECK(cuprobe::suite::kernels::smem_conflict_ways(0) == 1);
  CHECK_THROWS_WITH_AS(ex::cache_levels_of(dev, {}, 0), Contains("SM clock"), cuprobe::error);
  // The levels of an empty curve are all unknown.
  const auto lv = ex::cache_levels_of(dev, {}, 1980);
  CHECK(!lv.l1_gbps);
  CHECK(!lv.l2_gbps);
  CHECK(!lv.l2_reach_bytes);
  CHECK(lv.l2_reach_note.empty());
  // The reach against the reported size: a sentence past 1.25 x and below 0.8 x, none between.
  const double mib = 1 << 20;
  CHECK(ex::l2_reach_note(60 * mib, 60 * mib).empty());
  CHECK(ex::l2_reach_note(74 * mib, 60 * mib).empty());
  CHECK(ex::l2_reach_note(49 * mib, 60 * mib).empty());
  CHECK(ex::l2_reach_note(130.5 * mib, 60 * mib)
            .find("up to 130.5 MiB, 2.17 x the 60 MiB the device "
                  "reports") != std::string::npos);
  CHECK(ex::l2_reach_note(130.5 * mib, 60 * mib).find("its reach, not its capacity") !=
        std::string::npos);
  CHECK(ex::l2_reach_note(20 * mib, 60 * mib).find("falls below") != std::string::npos);
  CHECK(ex::l2_reach_note(0, 60 * mib).empty());
  CHECK(lv.l2_window_hi == double(dev.l2_bytes) / 4);

  // stream_bandwidth refuses a kernel that does not match the workload's shape of data, before
  // it touches the workload (no GPU needed to build the descriptors).
  const auto k =
      gen::make_stream_kernel<gen::stream_pattern::copy, float4, cuprobe::ptx::cache::cg>();
  CHECK(k.key.name() == "copy float4 cg, launches, persistent");
}

TEST_CASE("l2_partitions: the two clusters of per-hop latencies; bad options refused") {
  // 300 near hops around 260 cycles, 100 far hops around 420, 20 DRAM misses above the cap.
  std::vector<std::uint32_t> hops;
  for (int i = 0; i < 300; ++i) hops.push_back(255 + i % 11);
  for (int i = 0; i < 100; ++i) hops.push_back(415 + i % 11);
  for (int i = 0; i < 20; ++i) hops.push_back(1500);
  const auto c = cuprobe::suite::split_two_clusters(hops, 3 * 260.0);
  CHECK(c[0] == doctest::Approx(260));
  CHECK(c[1] == doctest::Approx(420));
  CHECK(c[2] == doctest::Approx(0.25));        // 100 of the 400 L2 hops
  CHECK(c[3] == doctest::Approx(20.0 / 420));  // of all hops
  // One cluster only: both medians equal, no far share.
  const auto one = cuprobe::suite::split_two_clusters(std::vector<std::uint32_t>(50, 300), 900);
  CHECK(one[0] == 300);
  CHECK(one[1] == 300);
  CHECK(one[2] == 0);
  CHECK(cuprobe::suite::split_two_clusters({}, 900)[3] == 0);

  const auto dev = cuprobe_test::h200_like();
  ex::l2_partition_options o;
  o.hops = 10;
  CHECK_THROWS_WITH_AS(ex::l2_partitions(dev, o, nothing), Contains("hops must be 64 .. 8192"),
                       cuprobe::error);
  o = {};
  o.repeats = 0;
  CHECK_THROWS_WITH_AS(ex::l2_partitions(dev, o, nothing), Contains("repeats"), cuprobe::error);
  o = {};
  o.bw.threads = 7;
  CHECK_THROWS_WITH_AS(ex::l2_partitions(dev, o, nothing), Contains("multiple of 32"),
                       cuprobe::error);
  ex::cache_bw_options b;
  b.blocks_per_sm = 0;
  CHECK_THROWS_WITH_AS(ex::l1_bandwidth(dev, b), Contains("blocks_per_sm"), cuprobe::error);
}

TEST_CASE("l2_home_plan_of: every line once; near / far by partition; active SMs only") {
  // 12 lines: 0..4 in partition 0, 5..9 in partition 1, 10..11 unsorted; SM ids 0..5 with id 2
  // absent, SMs 0, 1, 3 beside partition 0 and 4, 5 beside partition 1.
  std::vector<std::uint8_t> line = {0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2};
  const std::vector<int> sm = {0, 0, -1, 0, 1, 1};
  for (auto mode : {ex::l2_write_home::near, ex::l2_write_home::far, ex::l2_write_home::any})
    for (std::uint32_t active : {0u, 2u}) {
      CAPTURE(ex::to_string(mode));
      CAPTURE(active);
      const auto p = ex::l2_home_plan_of(line, sm, mode, active);
      REQUIRE(p.sm_first.size() == sm.size() + 1);
      CHECK(p.sm_first.back() == line.size());
      std::vector<int> seen(line.size(), 0);
      for (std::uint32_t l : p.lines) ++seen.at(l);
      for (int n : seen) CHECK(n == 1);       // every line exactly once
      CHECK(p.sm_first[3] == p.sm_first[2]);  // the absent id has no line
      CHECK(p.active_sms == (active == 0 ? 5u : 2u));
      for (std::uint32_t s = 0; s < sm.size(); ++s)
        for (std::uint32_t i = p.sm_first[s]; i < p.sm_first[s + 1]; ++i) {
          const int home = line[p.lines[i]];
          if (home == 2 || mode == ex::l2_write_home::any) continue;
          CHECK(home == (mode == ex::l2_write_home::near ? sm[s] : 1 - sm[s]));
        }
    }
  // near, every SM: partition 0's 5 lines over its 3 SMs (1, 2, 2 in address order), partition
  // 1's over its 2; the 2 unsorted lines over all 5 SMs.
  const auto p = ex::l2_home_plan_of(line, sm, ex::l2_write_home::near);
  CHECK(p.sm_first[1] - p.sm_first[0] == 1);
  CHECK(p.lines[0] == 0);
  CHECK(p.most_per_sm == 4);  // SM 5: lines 7, 8, 9 and unsorted 11
  // active = 2 with near: one SM of each partition writes that partition's lines.
  const auto two = ex::l2_home_plan_of(line, sm, ex::l2_write_home::near, 2);
  CHECK(two.sm_first[1] - two.sm_first[0] == 5 + 1);  // SM 0: lines 0..4 and one unsorted
  CHECK(two.sm_first[5] - two.sm_first[4] == 5 + 1);  // SM 4: lines 5..9 and one unsorted
  CHECK_THROWS_WITH_AS(ex::l2_home_plan_of(line, {-1, -1}, ex::l2_write_home::any),
                       Contains("no SM"), cuprobe::error);
  CHECK_THROWS_WITH_AS(ex::l2_home_plan_of(line, {0, 0}, ex::l2_write_home::near),
                       Contains("a partition has no SM"), cuprobe::error);
  CHECK(std::string(ex::to_string(ex::l2_write_path_of("home", "x"))) == "home");
  CHECK_THROWS_WITH_AS(ex::l2_write_path_of("nope", "--l2-write-path"),
                       Contains("st_global, tma_bulk or home"), cuprobe::error);
}

TEST_CASE("compute, ordering and timer experiments: bad options are refused first") {
  const auto dev = cuprobe_test::h200_like();
  using op = gen::ops::fma_f32;
  ex::throughput_options t;
  CHECK_THROWS_WITH_AS((ex::chain_throughput<op, 8>(dev, 0, t)),
                       Contains("block must be 1 .. 1024"), cuprobe::error);
  t.target_ms = 0;
  CHECK_THROWS_WITH_AS((ex::chain_throughput<op, 8>(dev, 256, t)), Contains("target_ms"),
                       cuprobe::error);
  t = {};
  t.run.iterations = 4;
  t.run.mode = cuprobe::loop_mode::in_kernel;
  CHECK_THROWS_WITH_AS((ex::chain_throughput<op, 8>(dev, 256, t)),
                       Contains("one launch per sample"), cuprobe::error);
  t = {};
  CHECK_THROWS_WITH_AS((ex::chain_sweep<op, 1, 2>(dev, {1}, {}, t, [](int, unsigned) {})),
                       Contains("no block sizes"), cuprobe::error);
  ex::latency_options l;
  l.iterations_long = l.iterations_short;
  CHECK_THROWS_WITH_AS(ex::chain_latency<op>(l), Contains("iterations_short < iterations_long"),
                       cuprobe::error);
  ex::timer_repeat_options r;
  r.repeats = 0;
  CHECK_THROWS_WITH_AS(ex::timer_repeats(r), Contains("repeats must be"), cuprobe::error);
  ex::publish_consume_options p;
  p.max_blocks = 0;
  CHECK_THROWS_WITH_AS(ex::publish_consume(gen::publish_pattern::acq_rel_atomic, p),
                       Contains("max_blocks"), cuprobe::error);

  // analyse_chain_sweep on hand-made points: the knee and the occupancy drop.
  ex::chain_sweep_result s;
  const auto point = [](int chains, unsigned block, double tflops, double occ) {
    ex::chain_sweep_point p;
    p.chains = chains;
    p.block = block;
    p.r.m.rate.flop_per_s = tflops * 1e12;
    p.r.kernel.occupancy = occ;
    p.r.fraction_of_peak = tflops / 66.9;
    return p;
  };
  s.points = {point(1, 256, 20, 1), point(4, 256, 60, 1), point(8, 256, 65, 1),
              point(16, 256, 64, 0.5)};
  ex::analyse_chain_sweep(s);
  REQUIRE(s.blocks.size() == 1);
  CHECK(s.best == 2);
  CHECK(s.blocks[0].best_tflops == 65);
  CHECK(*s.blocks[0].chains_to_97pct == 8);  // 60 < 0.97 x 65 = 63.05
  CHECK(*s.blocks[0].first_lower_occupancy == 16);
}
