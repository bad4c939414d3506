// host tier: gen/chase.cuh (rings, step policy, sweep sizes), the suite's plateau detector
// (cuprobe_suite/plateau.cuh) and curve readings (cuprobe_suite/curve.cuh), and
// model/littles_law.cuh. Nothing here needs a GPU.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/gen/chase.cuh>
#include <cuprobe/model/littles_law.cuh>
#include <cuprobe_suite/curve.cuh>
#include <cuprobe_suite/plateau.cuh>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace g = cuprobe::gen;
namespace m = cuprobe::model;
namespace su = cuprobe::suite;

// ---- Little's law ----------------------------------------------------------------------------

TEST_CASE("littles_law: the RTX 5080 worked example") {
  // 960 GB/s, 2947 MHz, 920 cycles, 84 SMs, 128 B per warp-level load.
  const auto r = m::littles_law::from({960e9, 920, 2947e6, 84, 128});
  CHECK(r.bytes_per_clock == doctest::Approx(325.75).epsilon(1e-4));             // 960e9 / 2.947e9
  CHECK(r.bytes_in_flight == doctest::Approx(299690).epsilon(1e-4));             // x 920
  CHECK(r.bytes_in_flight_per_sm == doctest::Approx(3568).epsilon(1e-3));        // / 84
  CHECK(r.warp_loads_in_flight_per_sm == doctest::Approx(27.87).epsilon(1e-3));  // / 128
  CHECK(std::lround(r.warp_loads_in_flight_per_sm) == 28);
  CHECK(r.warp_loads_in_flight ==
        doctest::Approx(r.warp_loads_in_flight_per_sm * 84).epsilon(1e-12));
  CHECK(r.latency_ns == doctest::Approx(312.18).epsilon(1e-4));  // 920 / 2.947 GHz
  const std::string text = r.describe();
  CHECK(text.find("325.76 B/clk") != std::string::npos);  // 325.755...
  CHECK(text.find("299695 B") != std::string::npos);      // 325.7550... x 920 = 299694.6
  CHECK(text.find("84 SMs") != std::string::npos);
  CHECK(text.back() == '\n');
}

TEST_CASE("littles_law: the default warp load is 128 B and bad inputs are refused") {
  const auto r = m::littles_law::from({1e12, 500, 1e9, 100});
  CHECK(r.in.bytes_per_warp_load == 128);
  CHECK(r.bytes_in_flight == doctest::Approx(500000));
  CHECK(r.warp_loads_in_flight_per_sm == doctest::Approx(5000.0 / 128));
  CHECK_THROWS_AS(m::littles_law::from({0, 500, 1e9, 100}), cuprobe::error);
  CHECK_THROWS_AS(m::littles_law::from({1e12, -1, 1e9, 100}), cuprobe::error);
  CHECK_THROWS_AS(m::littles_law::from({1e12, 500, 0, 100}), cuprobe::error);
  CHECK_THROWS_AS(m::littles_law::from({1e12, 500, 1e9, 0}), cuprobe::error);
  CHECK_THROWS_AS(m::littles_law::from({1e12, 500, 1e9, 100, 0}), cuprobe::error);
  CHECK_THROWS_AS(m::littles_law::from({NAN, 500, 1e9, 100}), cuprobe::error);
}

// ---- rings -----------------------------------------------------------------------------------

namespace {
/// Follows `next` from `start` and returns the cycle length (0 if it leaves `members`' class).
std::uint64_t cycle_length(const std::vector<std::uint32_t>& next, std::uint32_t start,
                           unsigned rings) {
  std::uint64_t len = 0;
  std::uint32_t p = start;
  do {
    if (next[p] % rings != start % rings) return 0;
    p = next[p];
    ++len;
  } while (p != start && len <= next.size());
  return len;
}
}  // namespace

TEST_CASE("chase_successors: one ring is a single cycle through every node (Sattolo)") {
  for (std::uint64_t n : {2ull, 3ull, 17ull, 1000ull, 1ull << 16}) {
    const auto next = g::chase_successors(n, 1, 42);
    REQUIRE(next.size() == n);
    CHECK(cycle_length(next, 0, 1) == n);
    for (std::uint64_t i = 0; i < n; ++i)
      REQUIRE(next[i] != i);  // a single n-cycle has no fixed point
  }
}

TEST_CASE("chase_successors: is reproducible and depends on the seed") {
  const auto a = g::chase_successors(4096, 1, 7);
  CHECK(a == g::chase_successors(4096, 1, 7));
  CHECK(a != g::chase_successors(4096, 1, 8));
  // Random, not a stride: few successors are the next node.
  int adjacent = 0;
  for (std::size_t i = 0; i + 1 < a.size(); ++i) adjacent += a[i] == i + 1;
  CHECK(adjacent < 10);
}

TEST_CASE("chase_successors: 32 rings are disjoint cycles, node i in ring i % 32") {
  const std::uint64_t n = 32 * 100 + 5;  // 5 nodes left out
  const auto next = g::chase_successors(n, 32, 3);
  for (unsigned r = 0; r < 32; ++r) CHECK(cycle_length(next, r, 32) == 100);
  for (std::uint64_t i = 3200; i < n; ++i)
    CHECK(next[i] == i);  // left-out nodes point to themselves
  CHECK(next != g::chase_successors(n, 1, 3));
}

TEST_CASE("chase_successors: refuses rings of fewer than two nodes and 32-bit overflow") {
  CHECK_THROWS_AS(g::chase_successors(1, 1, 0), cuprobe::error);
  CHECK_THROWS_AS(g::chase_successors(63, 32, 0), cuprobe::error);
  CHECK_THROWS_AS(g::chase_successors(1ull << 32, 1, 0), cuprobe::error);
  CHECK_THROWS_AS(g::chase_successors(100, 0, 0), cuprobe::error);
}

// ---- step policy -----------------------------------------------------------------------------

TEST_CASE("chase step policy: clamp(nodes x passes) and a full-pass warm-up for short rings") {
  g::chase_options o;                                      // passes 4, 2^14 .. 2^19 steps
  CHECK(g::chase_timed_steps(32, o) == (1u << 14));        // 4 KiB ring: the minimum
  CHECK(g::chase_timed_steps(10000, o) == 40000);          // 4 passes
  CHECK(g::chase_timed_steps(33554432, o) == (1u << 19));  // 4 GiB ring: the cap
  CHECK(g::chase_warmup_steps(32, o) == 32);
  CHECK(g::chase_warmup_steps(1u << 19, o) == (1u << 19));
  CHECK(g::chase_warmup_steps((1u << 19) + 1, o) == 0);  // no cache holds it: no warm-up
  o.warmup = g::chase_warmup::none;
  CHECK(g::chase_warmup_steps(32, o) == 0);
  o.warmup = g::chase_warmup::full_pass;
  CHECK(g::chase_warmup_steps(33554432, o) == 33554432);
  o.min_steps = 10;
  o.max_steps = 5;
  CHECK_THROWS_AS(g::chase_timed_steps(1, o), cuprobe::error);
  CHECK(std::string(g::to_string(g::chase_lanes::warp_own)) == "warp_own");
}

// ---- sweep sizes -----------------------------------------------------------------------------

TEST_CASE("chase_sweep_sizes: powers of two from 4 KiB to 4 GiB by default") {
  const auto s = g::chase_sweep_sizes(4 << 10, std::size_t(4) << 30);
  REQUIRE(s.size() == 21);
  for (std::size_t i = 0; i < s.size(); ++i) CHECK(s[i] == (std::size_t(4096) << i));
  const auto half = g::chase_sweep_sizes(4 << 10, 64 << 10, 2);  // 4, 5.66, 8, 11.3, ... 64 KiB
  REQUIRE(half.size() == 9);
  for (std::size_t b : half) CHECK(b % 128 == 0);
  CHECK(half[1] == 5760);  // 4096 x sqrt(2) = 5792.6 -> 45 lines of 128 B
  CHECK(half.back() == (64u << 10));
}

TEST_CASE("chase_sweep_sizes: large strides start at two nodes, warp rings at 64") {
  const auto tlb = g::chase_sweep_sizes(4 << 10, std::size_t(1) << 30, 1, std::size_t(2) << 20);
  REQUIRE(!tlb.empty());
  CHECK(tlb.front() == (std::size_t(4) << 20));  // 2 x 2 MiB
  CHECK(tlb.back() == (std::size_t(1) << 30));
  const auto warp = g::chase_sweep_sizes(4 << 10, 1 << 20, 1, 128, 32);
  CHECK(warp.front() == 8192);  // 2 nodes per ring x 32 rings x 128 B
  CHECK_THROWS_AS(g::chase_sweep_sizes(0, 10), cuprobe::error);
  CHECK_THROWS_AS(g::chase_sweep_sizes(10, 5), cuprobe::error);
  CHECK_THROWS_AS(g::chase_sweep_sizes(10, 50, 0), cuprobe::error);
}

// ---- plateaus --------------------------------------------------------------------------------

namespace {
/// A synthetic H100/H200-like curve: L1, L2 near, L2 far, DRAM, DRAM + TLB misses, with
/// one transition point between each, and +-`noise` relative wobble (deterministic).
std::vector<su::latency_point> synthetic_curve(double noise) {
  struct seg {
    double level;
    int points;
  };
  const seg segs[] = {{33, 6},  {120, 1}, {262, 7}, {360, 1}, {480, 3},
                      {590, 1}, {700, 6}, {850, 1}, {1000, 3}};
  std::vector<su::latency_point> c;
  double bytes = 4096;
  int k = 0;
  for (const seg& s : segs)
    for (int i = 0; i < s.points; ++i, ++k, bytes *= 2) {
      const double wobble = noise * ((k * 7919) % 11 - 5) / 5.0;  // in [-noise, noise]
      c.push_back({bytes, s.level * (1 + wobble)});
    }
  return c;
}
}  // namespace

TEST_CASE("find_plateaus: finds L1, L2 near, L2 far, DRAM and the TLB step") {
  for (double noise : {0.0, 0.03}) {
    CAPTURE(noise);
    const auto c = synthetic_curve(noise);
    const auto ps = su::find_plateaus(c);
    REQUIRE(ps.size() == 5);
    const double levels[] = {33, 262, 480, 700, 1000};
    const std::size_t firsts[] = {0, 7, 15, 19, 26};
    const std::size_t counts[] = {6, 7, 3, 6, 3};
    for (int i = 0; i < 5; ++i) {
      CAPTURE(i);
      CHECK(ps[i].level == doctest::Approx(levels[i]).epsilon(0.031));
      CHECK(ps[i].first == firsts[i]);
      CHECK(ps[i].points == counts[i]);
      CHECK(ps[i].last == ps[i].first + counts[i] - 1);
      CHECK(ps[i].first_bytes == c[ps[i].first].bytes);
      CHECK(ps[i].min_cycles <= ps[i].level);
      CHECK(ps[i].max_cycles >= ps[i].level);
      CHECK(ps[i].outliers == 0);
    }
  }
}

TEST_CASE("find_plateaus: a lone spike inside a plateau is an outlier, not a boundary") {
  auto c = synthetic_curve(0);
  c[10].value = 900;  // inside the L2-near plateau (points 7..13)
  const auto ps = su::find_plateaus(c);
  REQUIRE(ps.size() == 5);
  CHECK(ps[1].first == 7);
  CHECK(ps[1].last == 13);
  CHECK(ps[1].points == 6);
  CHECK(ps[1].outliers == 1);
  CHECK(ps[1].level == doctest::Approx(262));
  CHECK(su::describe(ps).find("outliers left out") != std::string::npos);
}

TEST_CASE("find_plateaus: a steady ramp has no plateau; tolerances and min_points matter") {
  std::vector<su::latency_point> ramp;
  for (int i = 0; i < 12; ++i) ramp.push_back({4096.0 * (1 << i), 100.0 * std::pow(1.25, i)});
  CHECK(su::find_plateaus(ramp).empty());
  su::plateau_options loose;
  loose.relative = 0.5;
  CHECK(!su::find_plateaus(ramp, loose).empty());
  su::plateau_options strict;
  strict.min_points = 4;  // the far-L2 and TLB plateaus (3 points) no longer count
  CHECK(su::find_plateaus(synthetic_curve(0), strict).size() == 3);
  // Tiny levels: the absolute tolerance keeps 30 and 31.5 cycles together.
  CHECK(su::find_plateaus({{1, 30}, {2, 31.5}, {3, 30.5}}).size() == 1);
}

TEST_CASE("find_plateaus: edge cases and bad input") {
  CHECK(su::find_plateaus({}).empty());
  CHECK(su::find_plateaus({{4096, 30}}).empty());  // one point is no plateau (min_points 2)
  CHECK_THROWS_AS(su::find_plateaus({{8192, 30}, {4096, 30}}), cuprobe::error);  // not sorted
  CHECK_THROWS_AS(su::find_plateaus({{4096, 30}, {4096, 30}}), cuprobe::error);  // repeated size
  CHECK_THROWS_AS(su::find_plateaus({{4096, NAN}}), cuprobe::error);
  // Two regions at one level split by a single point that is not a lone outlier (the point
  // after it, 111, is outside the tolerance of 100) merge into one plateau.
  const auto one = su::find_plateaus({{1, 100}, {2, 100}, {3, 300}, {4, 111}, {5, 100}, {6, 100}});
  REQUIRE(one.size() == 1);
  CHECK(one[0].first == 0);
  CHECK(one[0].last == 5);
  CHECK(one[0].points == 5);
  CHECK(one[0].outliers == 1);
  // Split by two points, they stay two plateaus.
  CHECK(su::find_plateaus({{1, 100}, {2, 101}, {3, 300}, {4, 400}, {5, 99}, {6, 100}}).size() == 2);
}

TEST_CASE("describe(plateaus) and the curve helpers") {
  const auto ps = su::find_plateaus(synthetic_curve(0));
  const std::string text = su::describe(ps, 2000);  // 2 GHz: 33 cycles = 16.5 ns
  CHECK(text.find("plateau 1: 4 KiB .. 128 KiB  33.0 cycles = 16.5 ns (6 points)") !=
        std::string::npos);
  CHECK(text.find("plateau 5:") != std::string::npos);
  CHECK(su::describe(ps).find(" ns") == std::string::npos);  // no clock, no ns
  // window_median, peak_up_to, reach: the readings the experiments take off a curve.
  const std::vector<su::curve_point> c = {{1 << 12, 100}, {1 << 14, 110}, {1 << 16, 90},
                                          {1 << 20, 40},  {1 << 22, 42},  {1 << 24, 10}};
  CHECK(*su::window_median(c, 1 << 12, 1 << 16) == 100);
  CHECK(*su::window_median(c, 1 << 20, 1 << 22) == 41);
  CHECK(!su::window_median(c, 1 << 25, 1 << 26));
  CHECK(*su::peak_up_to(c, 1 << 16) == 110);
  CHECK(!su::peak_up_to(c, 100));
  // From the peak (110 at 16 KiB), the first fall below sqrt(110 x 40) = 66.3 is between 64 KiB
  // (90) and 1 MiB (40), interpolated in log-log space.
  const auto cap = su::reach(c, 110, 40);
  REQUIRE(cap);
  CHECK(*cap > (1 << 16));
  CHECK(*cap < (1 << 20));
  CHECK(!su::reach(c, 110, 0));
  CHECK(!su::reach({{1, 5}, {2, 5}}, 5, 4));  // never falls below
}
