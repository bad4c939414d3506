// host tier: calibrate/ceilings.cuh without a GPU: the plan of measure_ceilings (its points, what
// each launch moves, how many launches, all of it bounded from the options), the keys it writes,
// the merge of a record's metrics, and when ensure_ceilings measures (records in a fresh folder);
// gen/cache_bw.cuh's sizing.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/calibrate/ceilings.cuh>
#include <cuprobe/core/file.cuh>

#include <sys/stat.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>
#include <string>

#include "h200_like.cuh"

namespace {

namespace cp = cuprobe;
using doctest::Contains;
using S = cp::gen::stream_pattern;

/// The H200-like device with the memory and identity device_info::query() would give it.
cp::device_info card() { return cuprobe_test::h200_card("GPU-calibrate-test"); }

constexpr std::uint64_t gib = std::uint64_t(1) << 30;

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_CASE("plan_ceilings: DRAM arrays far above the L2, L2 arrays within it, bounded work") {
  const auto d = card();
  const cp::ceilings_options o;
  const auto p = cp::plan_ceilings(d, o, 140 * gib);
  // 2 persistent points per pattern, 2 covering ones for write and copy; 3 L2 sizes per pattern.
  REQUIRE(p.points.size() == 10 + 9);
  std::set<std::string> keys;
  for (const auto& pt : p.points) {
    keys.insert(pt.key);
    CHECK(pt.key.find(cp::gen::to_string(pt.pattern)) != std::string::npos);
    CHECK(pt.bytes_per_launch > 0);
    if (!pt.l2) {
      CHECK(pt.key.compare(0, 5, "dram.") == 0);
      CHECK(pt.array_bytes == 64 * d.l2_bytes);  // 3.75 GiB: the preferred 64 x the L2
      CHECK(pt.passes == (pt.covering ? 1u : o.dram_passes));
      CHECK_FALSE((pt.covering && pt.pattern == S::read));  // a covering read has no sinks
      const double arrays = pt.pattern == S::copy ? 2 : 1;
      CHECK(pt.bytes_per_launch == doctest::Approx(arrays * pt.array_bytes * pt.passes));
    } else {
      CHECK(pt.key.compare(0, 3, "l2.") == 0);
      const double arrays = pt.pattern == S::copy ? 2 : 1;
      CHECK(arrays * pt.array_bytes <= d.l2_bytes / 4.0);  // resident in the L2
      // block-private: whole rows of one chunk (threads x U float4) per SM
      CHECK(pt.threads % 32 == 0);
      CHECK(pt.threads <= 1024);
      const double row = 132.0 * pt.threads * cp::gen::cache_bw_unroll * 16;
      CHECK(std::fmod(double(pt.array_bytes), row) == 0);
      CHECK(pt.bytes_per_launch >= arrays * o.l2_bytes_per_launch);
      CHECK(pt.bytes_per_launch < arrays * (o.l2_bytes_per_launch + row));
    }
  }
  CHECK(keys == std::set<std::string>{"dram.read.tbps", "dram.write.tbps", "dram.copy.tbps",
                                      "l2.read.tbps", "l2.write.tbps", "l2.copy.tbps"});
  // Every launch counted: (19 points + the FMA) x (1 warm-up + 5 samples) + the clock.
  CHECK(p.launches_per_point == 6);
  CHECK(p.launches() == 121);
  // What it moves, from the options: under 1.5 TB, under 0.3 s at the card's nominal DRAM rate
  // (the L2 points run faster than that).
  CHECK(p.bytes_moved() < 1.5e12);
  CHECK(p.bytes_moved() / d.nominal_dram_bytes_per_s() < 0.3);
  // The FMA launch: every SM full (2 blocks of 1024), about fma_ms at the peak model's rate.
  CHECK(p.fma_grid == 2 * 132);
  const double ms = p.fma_iterations * 10.0 * 128 * 1024 * p.fma_grid / (128.0 * 132 * 1.98e9);
  CHECK(ms * 1e3 == doctest::Approx(o.fma_ms).epsilon(0.01));
}

TEST_CASE("plan_ceilings: the options scale the work; too little memory or bad options refused") {
  const auto d = card();
  cp::ceilings_options o;
  o.run = cp::run_options::fixed(2, 10);
  o.dram_passes = 4;
  const auto base = cp::plan_ceilings(d, {}, 140 * gib);
  const auto more = cp::plan_ceilings(d, o, 140 * gib);
  CHECK(more.launches() == (19 + 1) * 12 + 1);
  CHECK(more.bytes_moved() > 2 * base.bytes_moved());
  // Free memory caps the DRAM arrays (two must fit in 80 % of it), never under 8 x the L2.
  const auto tight = cp::plan_ceilings(d, {}, 2 * gib);
  CHECK(tight.points.front().array_bytes == (std::uint64_t(0.4 * 2 * gib) >> 20 << 20));
  CHECK(tight.points.front().array_bytes >= 8 * d.l2_bytes);
  CHECK_THROWS_WITH_AS(cp::plan_ceilings(d, {}, gib), Contains("8 x the L2"), cp::error);
  o = {};
  o.dram_array_bytes = std::uint64_t(16) << 20;  // small arrays (--small): taken as given
  CHECK(cp::plan_ceilings(d, o, gib).points.front().array_bytes == o.dram_array_bytes);
  o = {};
  o.dram_l2_factor = 4;  // a DRAM figure from arrays the L2 nearly holds: refused
  CHECK_THROWS_WITH_AS(cp::plan_ceilings(d, o, 140 * gib), Contains("dram_l2_factor must be 8"),
                       cp::error);
  o = {};
  o.run.mode = cp::loop_mode::in_kernel;
  CHECK_THROWS_WITH_AS(o.validate(), Contains("a sample is one launch"), cp::error);
  o = {};
  o.fma_ms = 0;
  CHECK_THROWS_WITH_AS(o.validate(), Contains("fma_ms must be 0.1"), cp::error);
  auto no_l2 = d;
  no_l2.l2_bytes = 0;
  CHECK_THROWS_WITH_AS(cp::plan_ceilings(no_l2, {}, 140 * gib), Contains("no L2"), cp::error);
}

TEST_CASE("gen::cache_bw_private_threads: one chunk per block per row, no chunk shared") {
  // 3.75 MiB on 132 SMs, U = 4: a row of 1024-thread chunks (8.25 MiB) does not fit; one of
  // 448-thread chunks (28 KiB each, 3.61 MiB) does, and the array is cut to it
  CHECK(cp::gen::cache_bw_private_threads(3840u << 10, 132, 4) == 448);
  auto s = cp::gen::cache_bw_size_of(S::read, 3840u << 10, 132, 448, 4, false, 1e9);
  CHECK(s.elements == 132u * 448 * 4);
  // 20 MiB: 1024 threads, two whole rows; block b reads chunks b and b + 132 only
  CHECK(cp::gen::cache_bw_private_threads(20u << 20, 132, 4) == 1024);
  s = cp::gen::cache_bw_size_of(S::copy, 20u << 20, 132, 1024, 4, false, 1e9);
  CHECK(s.elements == 2u * 132 * 1024 * 4);
  // at most the threads asked for; at least one warp
  CHECK(cp::gen::cache_bw_private_threads(20u << 20, 132, 4, 256) == 256);
  CHECK(cp::gen::cache_bw_private_threads(4096, 132, 4) == 32);
  CHECK_THROWS_WITH_AS(cp::gen::cache_bw_private_threads(1 << 20, 132, 4, 100),
                       Contains("whole warps"), cp::error);
}

TEST_CASE("gen::cache_bw_size_of: whole chunks, rounds for the bytes, every chunk visited") {
  const auto s = cp::gen::cache_bw_size_of(S::copy, 7 << 20, 132, 1024, 4, false, 1e9);
  CHECK(s.elements == (7u << 20) / 16 / 4096 * 4096);
  CHECK(s.bytes == doctest::Approx(132.0 * 4096 * 16 * s.rounds));
  CHECK(s.bytes >= 1e9);
  CHECK(s.bytes - 132.0 * 4096 * 16 < 1e9);
  // A read smaller than one chunk is one chunk read with wrap-around; write and copy refuse it.
  CHECK(cp::gen::cache_bw_size_of(S::read, 4096, 1, 1024, 4, true, 1 << 20).elements == 256);
  CHECK_THROWS_WITH_AS(cp::gen::cache_bw_size_of(S::write, 4096, 1, 1024, 4, false, 1 << 20),
                       Contains("fewer than 32 elements"), cp::error);
  // Few rounds for many chunks: enough for every chunk to be visited in a launch.
  CHECK(cp::gen::cache_bw_size_of(S::read, 64 << 20, 1, 1024, 4, false, 1).rounds == 1024);
}

TEST_CASE("measure_ceilings writes keys of the record; merge keeps a record's other keys") {
  const auto& all = cp::ceiling_keys();
  for (const auto& k : cp::measured_ceiling_keys())
    CHECK_MESSAGE(std::find(all.begin(), all.end(), k) != all.end(), k);
  cp::json base = cp::json::object();
  base["dram.read.tbps"] = 4.0;
  base["tensor.bf16.fraction_of_peak"] = 0.99;
  cp::json fresh = cp::json::object();
  fresh["dram.read.tbps"] = 4.5;
  fresh["l2.read.tbps"] = 11.0;
  const auto m = cp::merge_ceilings_metrics(base, fresh);
  CHECK(m.at("dram.read.tbps").as_number() == 4.5);
  CHECK(m.at("l2.read.tbps").as_number() == 11.0);
  CHECK(m.at("tensor.bf16.fraction_of_peak").as_number() == 0.99);
  CHECK(cp::merge_ceilings_metrics(cp::json(), fresh).items().size() == 2);
}

/// A fresh CUPROBE_CEILINGS_DIR (and no reference set) for the duration of a test.
struct record_dir {
  std::string dir = [] {
    std::string t = "/tmp/cuprobe-calibrate-XXXXXX";
    REQUIRE(mkdtemp(t.data()) != nullptr);
    return t;
  }();
  record_dir() {
    setenv("CUPROBE_CEILINGS_DIR", dir.c_str(), 1);
    setenv("CUPROBE_REFERENCE_DIR", (dir + "/no-references").c_str(), 1);
  }
  ~record_dir() {
    unsetenv("CUPROBE_CEILINGS_DIR");
    unsetenv("CUPROBE_REFERENCE_DIR");
  }
};

/// Every key measure_ceilings writes, at made-up values, with `drop` left out.
cp::json measured(const std::string& drop = "") {
  cp::json m = cp::json::object();
  for (const auto& k : cp::measured_ceiling_keys())
    if (k != drop) m[k] = 1.5;
  return m;
}

TEST_CASE("ceilings_record_needed: what makes ensure_ceilings measure, and what does not") {
  record_dir rd;
  const auto d = card();
  const std::string driver = "580.159.04";
  const auto need = [&] {
    return cp::ceilings_record_needed(cp::ceilings::for_device(d, driver), d);
  };
  CHECK_MESSAGE(has(need(), "no usable record of this card at " + rd.dir + "/" + d.uuid), need());
  // The record ensure_ceilings writes (today's date, this driver and clocks) serves.
  const std::string path = cp::write_ceilings_record(d, driver, measured(), cp::json::object());
  CHECK(path == cp::ceilings_path(d.uuid));
  CHECK(need() == "");
  // ... with a device_report record's other keys beside it.
  cp::json full = measured();
  full["tensor.bf16.fraction_of_peak"] = 0.99;
  cp::write_ceilings_record(d, driver, full, cp::json::object());
  CHECK(need() == "");
  // A record without one of the block's keys (a partial record) is completed.
  cp::write_ceilings_record(d, driver, measured("l2.copy.tbps"), cp::json::object());
  CHECK_MESSAGE(has(need(), "has no l2.copy.tbps"), need());
  // Stale: another driver, another clock, or older than record_max_age_days.
  cp::write_ceilings_record(d, "570.00", measured(), cp::json::object());
  CHECK_MESSAGE(has(need(), "stale: recorded with driver 570.00"), need());
  auto slower = d;
  slower.sm_clock_khz = 1500000;
  cp::write_ceilings_record(slower, driver, measured(), cp::json::object());
  CHECK_MESSAGE(has(need(), "maximum SM clock of 1500 MHz"), need());
  cp::write_ceilings_record(d, driver, measured(), cp::json::object(), "abc",
                            "2020-01-01T00:00:00Z");
  CHECK_MESSAGE(has(need(), "days ago"), need());
  // Unreadable, or another card's: ignored, so measured again.
  cp::write_text(path, "{not json");
  CHECK_MESSAGE(has(need(), "no usable record"), need());
  auto other = d;
  other.uuid = "GPU-another-card";
  cp::write_ceilings_record(other, driver, measured(), cp::json::object(), "abc",
                            cp::utc_now_iso8601(), path);
  CHECK_MESSAGE(has(need(), "no usable record"), need());
}

}  // namespace
