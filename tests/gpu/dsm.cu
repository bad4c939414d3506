// gpu tier: cuprobe_suite/dsm.cuh on an sm_90 GPU, small: every cluster size 1, 2, 4, 8, 16 is
// either measured or reported unlaunchable (with the reason, printed); the chases end on the
// node a host walk of the target's ring reaches, a remote hop costs more than a local one, the
// remote CTA ran on another SM; bandwidth is positive, below the shared-memory limit (5 %), one
// CTA per SM, and every thread read its peer's words (the experiment checks the sums).
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe_suite/dsm.cuh>

#include <algorithm>
#include <string>

namespace ex = cuprobe::suite;

namespace {
void nothing(const std::string&) {}
bool recorded(const cuprobe::measurement& m) {
  return m.stats.count == m.samples.size() && !m.samples.empty() && m.rate.clock_mhz;
}
const std::vector<unsigned> all_sizes = {1, 2, 4, 8, 16};

/// True when size n was measured (points), else MESSAGEs the recorded reason; CHECKs that it
/// is one or the other.
template <class Points>
bool measured_or_skipped(unsigned n, const Points& points, const std::vector<ex::dsm_skip>& skip) {
  const bool measured =
      std::any_of(points.begin(), points.end(), [&](const auto& p) { return p.cluster_size == n; });
  const auto s = std::find_if(skip.begin(), skip.end(),
                              [&](const ex::dsm_skip& k) { return k.cluster_size == n; });
  CAPTURE(n);
  CHECK(measured != (s != skip.end()));
  if (s != skip.end()) {
    MESSAGE("cluster of " << n << " not launchable: " << s->reason);
    CHECK(!s->reason.empty());
  }
  return measured;
}
}  // namespace

CUPROBE_GPU_TEST_CASE("dsm_latency: remote hops cost more than local ones, chases end right") {
  const auto dev = cuprobe::device_info::query();
  if (dev.sm() < 90) {
    MESSAGE("skipped: " << dev.name << " (sm_" << dev.sm() << ") has no thread block clusters");
    return;
  }
  ex::dsm_latency_options o;
  o.steps = cuprobe::testing::under_sanitizer() ? 256 : 4096;
  if (cuprobe::testing::under_sanitizer()) o.bytes = 1024;  // every access is tracked there
  o.run = cuprobe::run_options::fixed(0, 2);
  o.run.clock_mhz = dev.sm_clock_khz / 1e3;
  int calls = 0;
  const auto r = ex::dsm_latency(dev, o, [&](const std::string&) { ++calls; });
  CHECK(calls == int(all_sizes.size()) + 1);
  REQUIRE(r.local_cycles);
  REQUIRE(r.lds);
  MESSAGE("own ring through ld.shared::cluster " << *r.local_cycles << " cycles/hop, ld.shared "
                                                 << r.lds->cycles_per_op());
  for (unsigned n : all_sizes) {
    if (!measured_or_skipped(n, r.points, r.skipped)) continue;
    std::optional<double> local;
    for (const auto& p : r.points)
      if (p.cluster_size == n && !p.remote()) local = p.m.cycles_per_op();
    for (const auto& p : r.points) {
      if (p.cluster_size != n) continue;
      CAPTURE(n);
      CAPTURE(p.target);
      CHECK(recorded(p.m));
      CHECK(p.last_node == p.expected_node);
      CHECK(p.m.params.at("target_rank").as_integer() == static_cast<long long>(p.target));
      if (!p.remote()) continue;
      MESSAGE("cluster of " << n << ": rank 0 (SM " << p.chaser_sm << ") -> rank " << p.target
                            << " (SM " << p.target_sm << "): " << p.m.cycles_per_op()
                            << " cycles/hop");
      CHECK(p.chaser_sm != p.target_sm);  // one CTA per SM
      CUPROBE_TIMING_CHECK(p.m.cycles_per_op() > *r.local_cycles);
      if (local) CUPROBE_TIMING_CHECK(p.m.cycles_per_op() > *local);
    }
  }
  REQUIRE(r.latency_cycles);  // a cluster of 2 always fits on a cluster-capable GPU
  MESSAGE("dsm.latency.cycles (cluster of 2) = " << *r.latency_cycles);
  CUPROBE_TIMING_CHECK(*r.latency_cycles > *r.local_cycles);  // a ratio within this run
  // A sanity ceiling, not a card's figure: a hop of the SM-to-SM network costs a few hundred
  // cycles of the SM (the same GH100 network on every Hopper card; cycles, so whatever the
  // clock); 2000 is a hop that stalls for about a microsecond.
  CUPROBE_TIMING_CHECK(*r.latency_cycles < 2000);
}

CUPROBE_GPU_TEST_CASE("dsm_bandwidth: positive, below the limit, one CTA per SM, peers read") {
  const auto dev = cuprobe::device_info::query();
  if (dev.sm() < 90) {
    MESSAGE("skipped: " << dev.name << " (sm_" << dev.sm() << ") has no thread block clusters");
    return;
  }
  ex::dsm_bw_options o;
  o.widths = {4, 16};
  o.rounds = cuprobe::testing::under_sanitizer() ? 2 : 256;
  if (cuprobe::testing::under_sanitizer()) o.threads = 256;
  o.run = cuprobe::run_options::fixed(1, 3);
  const auto r = ex::dsm_bandwidth(dev, o, nothing);
  for (unsigned n : all_sizes) {
    if (!measured_or_skipped(n, r.points, r.skipped)) continue;
    for (const auto& p : r.points) {
      if (p.cluster_size != n) continue;
      CAPTURE(n);
      CAPTURE(p.width);
      CAPTURE(p.remote);
      MESSAGE("cluster of " << n << ", " << p.width << " B, " << (p.remote ? "remote" : "local")
                            << ": " << p.bytes_per_clock_per_sm << " B/clk/SM, "
                            << p.tb_per_s.value_or(0) << " TB/s over " << p.ctas << " CTAs");
      CHECK(recorded(p.m));
      CHECK(p.m.params.at("remote").as_bool() == p.remote);
      CHECK((!p.remote || n > 1));
      CHECK(p.ctas == p.clusters * n);
      CHECK(p.distinct_sms == p.ctas);
      CHECK(int(p.ctas) <= dev.sm_count);
      CHECK(p.bytes_per_clock_per_sm > 0);
      CHECK(p.bytes_per_clock_per_sm <= r.limit.bytes_per_clock * 1.05);
      REQUIRE(p.tb_per_s);
      CHECK(*p.tb_per_s > 0);
      CHECK(!cuprobe::has_flag(p.m.flags, cuprobe::flag_code::above_memory_peak));
    }
  }
  REQUIRE(r.read_tbps);  // clusters of 2 always fit
  MESSAGE("dsm.read.tbps = " << *r.read_tbps);
}
