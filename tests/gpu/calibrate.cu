// gpu tier: calibrate/ceilings.cuh on whichever card runs it, in a fresh CUPROBE_CEILINGS_DIR:
// ensure_ceilings measures and writes this card's record from the library alone; the record has
// every key measure_ceilings writes, each rate positive, DRAM read, write and copy within
// (0.5, 1.02) of the card's nominal DRAM rate, the L2 read above the DRAM read, the FP32 FMA
// within (0.5, 1.02) of the peak model; a second ensure_ceilings measures nothing, and a
// measurement is then placed against the record. Bounds from the model and ratios, no card's
// figure.
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/calibrate/ceilings.cuh>

#include <cstdlib>
#include <string>

namespace {

namespace cp = cuprobe;

CUPROBE_GPU_TEST_CASE("ensure_ceilings: this card's record from a user's main(), in seconds") {
  std::string dir = "/tmp/cuprobe-calibrate-gpu-XXXXXX";
  REQUIRE(mkdtemp(dir.data()) != nullptr);
  setenv("CUPROBE_CEILINGS_DIR", dir.c_str(), 1);
  const auto d = cp::device_info::query();
  cp::ceilings_options o;
  if (cp::testing::under_sanitizer()) {  // the instrumented kernels run 10 to 100 times slower
    o.dram_array_bytes = std::uint64_t(16) << 20;
    o.l2_bytes_per_launch = 4.0 * (1 << 20);
    o.fma_ms = 0.1;
    o.run = cp::run_options::fixed(0, 1);
  }
  const double t0 = cp::monotonic_s();
  const cp::ceilings c = cp::ensure_ceilings(d, o);
  const double took = cp::monotonic_s() - t0;
  MESSAGE("ensure_ceilings measured and wrote the record in " << took << " s");
  REQUIRE(c.card().has_value());
  CHECK(c.card()->path == cp::ceilings_path(d.uuid));
  CHECK(c.card_stale().empty());
  CHECK(cp::ceilings_record_needed(c, d).empty());
  const auto rec = [&](const char* k) { return c.card()->metric(k).value_or(0); };
  for (const auto& k : cp::measured_ceiling_keys()) CHECK_MESSAGE(rec(k.c_str()) > 0, k);
  const double nominal = d.nominal_dram_bytes_per_s() / 1e12;
  for (const char* k : {"dram.read.tbps", "dram.write.tbps", "dram.copy.tbps"}) {
    MESSAGE(k << " = " << rec(k) << " TB/s = " << rec(k) / nominal << " of nominal");
    CUPROBE_TIMING_CHECK(rec(k) / nominal > 0.5);
    CUPROBE_TIMING_CHECK(rec(k) / nominal < 1.02);
  }
  MESSAGE("l2.read.tbps = " << rec("l2.read.tbps") << ", l2.write.tbps = " << rec("l2.write.tbps")
                            << ", l2.copy.tbps = " << rec("l2.copy.tbps"));
  CUPROBE_TIMING_CHECK(rec("l2.read.tbps") > rec("dram.read.tbps"));
  CUPROBE_TIMING_CHECK(rec("fma.f32.fraction_of_peak") > 0.5);
  CUPROBE_TIMING_CHECK(rec("fma.f32.fraction_of_peak") < 1.02);
  CHECK(rec("clock.sm.effective_mhz") > 0);

  // A record that serves is not measured again (reading it takes milliseconds).
  const double t1 = cp::monotonic_s();
  const auto again = cp::ensure_ceilings(d, o);
  CHECK(cp::monotonic_s() - t1 < 0.5 * took);
  REQUIRE(again.card().has_value());
  CHECK(again.card()->date == c.card()->date);

  // The runner now places DRAM bytes against this card's record.
  const auto p = again.ceiling_of("dram.copy.tbps", 0);
  REQUIRE(p.has_value());
  CHECK(p->source == cp::ceiling_source::card);
  CHECK(p->ceiling_per_s == doctest::Approx(rec("dram.copy.tbps") * 1e12));
  unsetenv("CUPROBE_CEILINGS_DIR");
  cp::reload_ceilings();
}

CUPROBE_GPU_TEST_CASE("measure_ceilings: every point validated, the plan's launches and keys") {
  const auto d = cp::device_info::query();
  cp::ceilings_options o;  // small and short: what is checked here is the bookkeeping
  o.dram_array_bytes = std::uint64_t(64) << 20;
  o.l2_bytes_per_launch = 64.0 * (1 << 20);
  o.fma_ms = 1;
  o.run = cp::run_options::fixed(1, 2);
  const auto r = cp::measure_ceilings(d, o);
  CHECK(r.points.size() == r.plan.points.size() + 1);  // and the FMA
  for (const auto& m : r.points) CHECK(m.params.at("valid").as_bool());
  for (const auto& k : cp::measured_ceiling_keys()) CHECK_MESSAGE(r.metrics.find(k) != nullptr, k);
  for (const auto& [key, i] : r.best) CHECK(i < r.points.size());
  CHECK(r.clocks.find("clock.sm.effective_mhz") != nullptr);
  CHECK(r.wall_s > 0);
}

}  // namespace
