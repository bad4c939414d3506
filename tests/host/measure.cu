// host tier: measure/ and report/ logic (statistics, stopping rule, option limits, flags,
// rates of every sample unit, sweeps, JSON, CSV, the command line, output paths)
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/core/file.cuh>
#include <cuprobe/core/stats.cuh>
#include <cuprobe/measure/flags.cuh>
#include <cuprobe/measure/interleave.cuh>
#include <cuprobe/measure/runner.cuh>
#include <cuprobe/measure/stopping_rule.cuh>
#include <cuprobe/measure/sweep.cuh>
#include <cuprobe/report/cli.cuh>
#include <cuprobe/report/csv.cuh>
#include <cuprobe/report/results.cuh>
#include <cuprobe/report/summary.cuh>
#include <cuprobe/report/table.cuh>

#include <sys/stat.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <string>
#include <type_traits>

using doctest::Approx;

TEST_CASE("summarize: odd count") {
  const auto s = cuprobe::summarize({5, 1, 3});
  CHECK(s.count == 3);
  CHECK(s.min == 1);
  CHECK(s.max == 5);
  CHECK(s.median == 3);
  CHECK(s.mean == Approx(3));
  CHECK(s.stdev == Approx(2));  // sqrt(((-2)^2 + 0 + 2^2) / 2)
  CHECK(s.rel_stdev == Approx(2.0 / 3.0));
  CHECK(s.spread() == Approx(4.0 / 3.0));
}

TEST_CASE("summarize: even count interpolates the median and percentiles") {
  const auto s = cuprobe::summarize({4, 1, 3, 2});
  CHECK(s.median == Approx(2.5));
  CHECK(s.mean == Approx(2.5));
  CHECK(s.stdev == Approx(1.2909944487));  // sqrt(5/3)
  CHECK(s.p25 == Approx(1.75));            // 0.25 * 3 = 0.75 between 1 and 2
  CHECK(s.p75 == Approx(3.25));
  CHECK(s.p90 == Approx(3.7));
  CHECK(s.percentile(0) == 1);
  CHECK(s.percentile(100) == 4);
}

TEST_CASE("summarize: duplicates and a single sample") {
  const auto d = cuprobe::summarize({2, 2, 2, 7, 2});
  CHECK(d.median == 2);
  CHECK(d.min == 2);
  CHECK(d.max == 7);
  CHECK(d.mean == Approx(3));
  CHECK(d.p95 == Approx(6));  // 0.95 * 4 = 3.8: 2 + 0.8 * (7 - 2)
  const auto one = cuprobe::summarize({1.5});
  CHECK(one.count == 1);
  CHECK(one.median == 1.5);
  CHECK(one.min == 1.5);
  CHECK(one.p99 == 1.5);
  CHECK(one.stdev == 0);
  CHECK(one.rel_stdev == 0);
  CHECK_THROWS_AS(cuprobe::summarize({}), cuprobe::error);
  CHECK_THROWS_AS(one.percentile(101), cuprobe::error);
  // The one median: odd and even counts, and the same rule as summarize().
  CHECK(cuprobe::median({3, 1, 2}) == 2);
  CHECK(cuprobe::median({4, 1, 3, 2}) == 2.5);
  CHECK(cuprobe::median({2, 2, 2, 7, 2}) == d.median);
  CHECK_THROWS_AS(cuprobe::median({}), cuprobe::error);
}

TEST_CASE("stopping rule: fixed count") {
  const auto r = cuprobe::stopping_rule::fixed(3);
  using v = cuprobe::stopping_rule::verdict;
  CHECK(r.decide({1, 1}, 2, 0) == v::more);
  CHECK(r.decide({1, 5, 9}, 15, 0) == v::converged);  // noise does not matter for a fixed count
}

TEST_CASE("stopping rule: adaptive needs the minimum time, the minimum count and low noise") {
  using v = cuprobe::stopping_rule::verdict;
  const auto r = cuprobe::stopping_rule::adaptive(/*min_time_s=*/1.0, /*noise=*/0.05, /*min_n=*/3,
                                                  /*max_n=*/6, /*timeout_s=*/100);
  CHECK(r.decide({0.5, 0.5}, 1.0, 1) == v::more);            // too few samples
  CHECK(r.decide({0.1, 0.1, 0.1}, 0.3, 1) == v::more);       // quiet but only 0.3 s of samples
  CHECK(r.decide({0.4, 0.4, 0.4}, 1.2, 2) == v::converged);  // 1.2 s, no noise
  CHECK(r.decide({0.4, 0.8, 0.4}, 1.6, 2) == v::more);       // 1.6 s but 43 % noise
  CHECK(r.decide({0.4, 0.8, 0.4, 0.8, 0.4, 0.8}, 3.6, 3) == v::max_samples);
  CHECK(r.decide({0.4, 0.8, 0.4, 0.8}, 2.4, 101) == v::timeout);
  CHECK(r.decide({0.4}, 0.4, 101) == v::timeout);  // timeout holds below the minimum count too
  // The accumulated time is the samples' own time, whatever their unit: cycles samples with
  // 1.2 s of sampler time converge.
  CHECK(r.decide({5e8, 5e8, 5e8}, 1.2, 2) == v::converged);
}

TEST_CASE("stopping rule and run options: absurd values are refused, naming the field") {
  using cuprobe::stopping_rule;
  const auto bad = [](stopping_rule r) {
    try {
      r.validate("t");
    } catch (const cuprobe::error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(bad(stopping_rule::fixed(10)).empty());
  CHECK(bad(stopping_rule::adaptive(0.5, 0.01)).empty());
  CHECK(bad(stopping_rule::fixed(0)).find("min_samples is 0") != std::string::npos);
  CHECK(bad(stopping_rule::fixed(std::size_t(-1))).find("max_samples is 18446744073709551615") !=
        std::string::npos);  // what -1 becomes
  CHECK(bad(stopping_rule::adaptive(0.5, 0.01, 20, 10))
            .find("min_samples (20) is above max_samples (10)") != std::string::npos);
  CHECK(bad(stopping_rule::adaptive(-1, 0.01)).find("min_time_s") != std::string::npos);
  CHECK(bad(stopping_rule::adaptive(0.1, std::nan(""))).find("max_rel_noise") != std::string::npos);
  CHECK(bad(stopping_rule::adaptive(0.1, -0.5)).find("max_rel_noise") != std::string::npos);
  CHECK(bad(stopping_rule::adaptive(0.1, 0.01, 10, 100, -3)).find("timeout_s") !=
        std::string::npos);
  CHECK(bad(stopping_rule::adaptive(std::numeric_limits<double>::infinity(), 0.01))
            .find("min_time_s") != std::string::npos);

  const auto bad_opt = [](cuprobe::run_options o) {
    try {
      cuprobe::validate_options(o, "measure(\"x\")");
    } catch (const cuprobe::error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  cuprobe::run_options ok;
  CHECK(bad_opt(ok).empty());
  auto o = ok;
  o.iterations = std::size_t(-1);  // SIZE_MAX once reported 1.3e22 GB/s
  o.mode = cuprobe::loop_mode::in_kernel;
  CHECK(bad_opt(o).find("run_options.iterations is 18446744073709551615") != std::string::npos);
  o = ok;
  o.warmup = std::size_t(-1);
  CHECK(bad_opt(o).find("run_options.warmup") != std::string::npos);
  o = ok;
  o.batch = 0;
  CHECK(bad_opt(o).find("run_options.batch is 0") != std::string::npos);
  o = ok;
  o.batch = std::size_t(1) << 21;
  CHECK(bad_opt(o).find("run_options.batch") != std::string::npos);
  o = ok;
  o.rest_ms = -1;
  CHECK(bad_opt(o).find("run_options.rest_ms is -1") != std::string::npos);
  o.rest_ms = std::nan("");
  CHECK(bad_opt(o).find("run_options.rest_ms is nan") != std::string::npos);
  o.rest_ms = 60001;
  CHECK(bad_opt(o).find("it must be 0 .. 60000 ms") != std::string::npos);
  o.rest_ms = 100;
  CHECK(bad_opt(o).empty());
  o = ok;
  o.rotations = 0;
  CHECK(bad_opt(o).find("run_options.rotations") != std::string::npos);
  o = ok;
  o.iterations = 4;  // launches mode: one pass per launch
  CHECK(bad_opt(o).find("loop_mode::launches") != std::string::npos);
  o.mode = cuprobe::loop_mode::in_kernel;
  CHECK(bad_opt(o).empty());
  o = ok;
  o.noise_threshold = std::nan("");
  CHECK(bad_opt(o).find("noise_threshold") != std::string::npos);
  o.noise_threshold = -1;
  CHECK(bad_opt(o).find("noise_threshold") != std::string::npos);
  o = ok;
  o.clock_mhz = 0;
  CHECK(bad_opt(o).find("clock_mhz") != std::string::npos);
  o = ok;
  o.stop = cuprobe::stopping_rule::fixed(0);
  CHECK(bad_opt(o).find("measure(\"x\"): stopping_rule.min_samples") != std::string::npos);
}

TEST_CASE("flags: throttling, DRAM peak, noise, clock unknown, few samples") {
  cuprobe::flag_inputs in;
  in.samples = 10;
  in.min_sm_clock_mhz = 1980;
  in.max_sm_clock_mhz = 1980;
  CHECK(cuprobe::evaluate_flags(in).empty());

  in.min_sm_clock_mhz = 1700;  // 85.9 % of 1980
  auto f = cuprobe::evaluate_flags(in);
  REQUIRE(f.size() == 1);
  CHECK(f[0].code == cuprobe::flag_code::throttling);
  CHECK(f[0].message.find("1700 MHz") != std::string::npos);
  in.min_sm_clock_mhz = 1790;  // 90.4 %: fine
  CHECK(cuprobe::evaluate_flags(in).empty());
  in.throttle_reasons = 0x4;  // NVML says power cap
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::throttling));
  in.throttle_reasons = 0;

  in.dram_working_set = true;
  in.working_set_bytes = 4e9;
  in.l2_bytes = 60e6;
  in.nominal_dram_bytes_per_s = 4.8e12;
  in.bytes_per_s = 4.5e12;
  CHECK(cuprobe::evaluate_flags(in).empty());
  in.bytes_per_s = 5.2e12;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::above_dram_peak));
  in.dram_working_set = false;  // an L2 benchmark may exceed the DRAM peak
  CHECK(!cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::above_dram_peak));

  in.rel_stdev = 0.08;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::noisy));
  in.noise_threshold = 0.1;
  CHECK(!cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::noisy));

  in.min_sm_clock_mhz.reset();
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::clock_unknown));
  in.samples = 1;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::few_samples));
}

namespace {
std::string message_of(const std::vector<cuprobe::flag>& flags, cuprobe::flag_code code) {
  for (const auto& f : flags)
    if (f.code == code) return f.message;
  return "";
}
cuprobe::flag_inputs quiet() {
  cuprobe::flag_inputs in;
  in.samples = 10;
  in.min_sm_clock_mhz = in.max_sm_clock_mhz = 1980;
  return in;
}
}  // namespace

TEST_CASE("flag codes: typed, named as the reports print them; an experiment's own by name") {
  using cuprobe::flag_code;
  CHECK(std::string(cuprobe::to_string(flag_code::noisy)) == "noisy");
  CHECK(std::string(cuprobe::to_string(flag_code::ceiling_stale)) == "ceiling_stale");
  CHECK(flag_code::noisy != flag_code::few_samples);
  const std::string name = "host_delay";  // the same name from another string: the same code
  CHECK(flag_code{"host_delay"} == flag_code{name.c_str()});
  const std::vector<cuprobe::flag> fs{{flag_code{"host_delay"}, "the host delayed the event"}};
  CHECK(cuprobe::has_flag(fs, flag_code{"host_delay"}));
  CHECK(!cuprobe::has_flag(fs, flag_code::noisy));
  static_assert(!std::is_convertible_v<const char*, flag_code>, "a string is not a flag code");
}

TEST_CASE("work: bytes_moved declares the bytes, the named setters their source and extent") {
  const auto any = cuprobe::work::bytes_moved(3, 1, "r + w");
  CHECK(any.bytes() == 4);
  CHECK(any.source == cuprobe::data_source::any);
  CHECK(!any.working_set_bytes);
  const auto dram = cuprobe::work::bytes_moved(3, 1, "r + w")
                        .with_source(cuprobe::data_source::dram)
                        .with_working_set(8e9);
  CHECK(dram.source == cuprobe::data_source::dram);
  CHECK(*dram.working_set_bytes == 8e9);
  const auto mma =
      cuprobe::work::flop_count(2, 1, "mma").with_tensor(cuprobe::model::tensor_type::e4m3);
  REQUIRE(mma.tensor_type);
  CHECK(std::string(cuprobe::model::to_string(*mma.tensor_type)) == "e4m3");
}

TEST_CASE("flags: a DRAM working set that fits the caches, or that is not declared") {
  auto in = quiet();
  in.dram_working_set = true;
  in.l2_bytes = 60.0 * (1 << 20);
  CHECK(message_of(cuprobe::evaluate_flags(in), cuprobe::flag_code::working_set_unknown)
            .find("not checked") != std::string::npos);
  in.working_set_bytes = double(1 << 20);  // 1 MiB, as in the report that found the hole
  auto m = message_of(cuprobe::evaluate_flags(in), cuprobe::flag_code::cache_resident);
  CHECK(m.find("of 1 MiB") != std::string::npos);
  CHECK(m.find("the 60 MiB L2") != std::string::npos);
  in.in_kernel = true;
  in.iterations = 256;
  m = message_of(cuprobe::evaluate_flags(in), cuprobe::flag_code::cache_resident);
  CHECK(m.find("each of the 256 passes") != std::string::npos);
  in.working_set_bytes = 200.0 * (1 << 20);  // above the L2 but below 4 x the L2
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::cache_resident));
  in.working_set_bytes = 4.0 * (1u << 30);
  CHECK(cuprobe::evaluate_flags(in).empty());
  in.dram_working_set = false;  // an L2 benchmark is meant to fit
  in.working_set_bytes = double(1 << 20);
  CHECK(cuprobe::evaluate_flags(in).empty());
}

TEST_CASE("flags: launch-bound samples, debug builds, rates above a physical ceiling") {
  auto in = quiet();
  in.launch_floor_s = 7.9e-6;
  in.sample_s = 10e-6;  // an empty-ish kernel: launching is most of the sample
  auto m = message_of(cuprobe::evaluate_flags(in), cuprobe::flag_code::launch_bound);
  CHECK(m.find("7.9 us") != std::string::npos);
  CHECK(m.find("79.0 %") != std::string::npos);
  CHECK(m.find("graph") != std::string::npos);
  in.sample_s = 1e-3;  // 0.8 %: fine
  CHECK(cuprobe::evaluate_flags(in).empty());

  in.debug_build = true;
  CHECK(message_of(cuprobe::evaluate_flags(in), cuprobe::flag_code::debug_build).find("Release") !=
        std::string::npos);
  in.debug_build = false;

  in.memory_peak_bytes_per_s = 33e12;
  in.bytes_per_s = 1.3e22 * 1e9;  // what iterations = SIZE_MAX once reported
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::above_memory_peak));
  in.bytes_per_s = 10e12;
  CHECK(cuprobe::evaluate_flags(in).empty());
  in.compute_peak_ops_per_s = 33.4e12;
  in.ops_per_s = 40e12;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::above_compute_peak));
  in.ops_per_s = 33e12;
  CHECK(cuprobe::evaluate_flags(in).empty());
  in.ops_per_s = 33.4e12 * 1.005;  // within 1 % of the peak: clock and timer tolerance
  CHECK(cuprobe::evaluate_flags(in).empty());
  in.ops_per_s = 33.4e12 * 1.02;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::above_compute_peak));
}

TEST_CASE("finish_measurement: every sample unit, and the flags it computes from the device") {
  cuprobe::device_info dev;
  dev.sm_count = 132;
  dev.cc_major = 9;
  dev.l2_bytes = std::size_t(60) << 20;
  dev.sm_clock_khz = 1980000;
  dev.memory_clock_khz = 3201000;
  dev.memory_bus_width_bits = 6016;

  cuprobe::measurement c;  // a pointer chase: 3 samples of cycles per hop at a given clock
  c.unit = cuprobe::sample_unit::cycles;
  c.samples = {700, 690, 710};
  c.declared = cuprobe::work::op_count(1, "one hop");
  c.options.clock_mhz = 1000;
  c.options.mode = cuprobe::loop_mode::in_kernel;
  c.options.iterations = 1 << 16;
  cuprobe::finish_measurement(c, dev);
  CHECK(c.stats.median == 700);
  CHECK(*c.rate.cycles_per_op == 700);       // exact, no clock involved
  CHECK(*c.rate.seconds == Approx(700e-9));  // 700 cycles at 1 GHz
  CHECK(c.rate.clock_source == "given");
  CHECK(c.seconds() == Approx(700e-9));
  CHECK_THROWS_WITH_AS(c.gb_per_s(), doctest::Contains("declared no bytes"), cuprobe::error);

  cuprobe::measurement n;  // %globaltimer
  n.unit = cuprobe::sample_unit::nanoseconds;
  n.samples = {2000, 2000, 2000};
  n.declared = cuprobe::work::bytes_moved(4e6, 0, "read");
  cuprobe::finish_measurement(n, dev);
  CHECK(*n.rate.seconds == Approx(2e-6));
  CHECK(n.gb_per_s() == Approx(2000));
  CHECK(n.rate.clock_source == "device maximum");

  cuprobe::measurement v;  // a value: no time, no rates
  v.unit = cuprobe::sample_unit::value;
  v.samples = {0.5, 0.25, 0.75};
  v.declared = cuprobe::work::op_count(1, "a ratio");
  cuprobe::finish_measurement(v, dev);
  CHECK(v.stats.median == 0.5);
  CHECK(!v.rate.seconds);
  CHECK(!v.rate.ops_per_s);
  CHECK(!v.rate.cycles_per_op);
  CHECK_THROWS_AS(v.seconds(), cuprobe::error);

  cuprobe::measurement d;  // a "DRAM" run over 1 MiB: flagged, with the sizes
  d.samples = {1e-6, 1e-6, 1e-6};
  d.declared = cuprobe::work::bytes_moved(double(1 << 20), 0, "read")
                   .with_source(cuprobe::data_source::dram)
                   .with_working_set(double(1 << 20));
  cuprobe::finish_measurement(d, dev);
  CHECK(cuprobe::has_flag(d.flags, cuprobe::flag_code::cache_resident));
  d.declared.working_set_bytes.reset();
  cuprobe::finish_measurement(d, dev);
  CHECK(cuprobe::has_flag(d.flags, cuprobe::flag_code::working_set_unknown));

  cuprobe::measurement x;  // an FMA chain whose declared ops are absurd
  x.samples = {1e-3, 1e-3, 1e-3};
  x.declared =
      cuprobe::work::flop_count(2e20, 1e20, "fma").with_op_kind(cuprobe::model::op_kind::fp32_fma);
  cuprobe::finish_measurement(x, dev);
  CHECK(message_of(x.flags, cuprobe::flag_code::above_compute_peak).find("peak model") !=
        std::string::npos);

  cuprobe::measurement l;  // an event-timed sample barely above the launch floor
  l.samples = {9e-6, 9e-6, 9e-6};
  l.launch_floor_s = 7.9e-6;
  cuprobe::finish_measurement(l, dev);
  CHECK(cuprobe::has_flag(l.flags, cuprobe::flag_code::launch_bound));
  CHECK(cuprobe::has_flag(l.flags, cuprobe::flag_code::debug_build) ==
        cuprobe::arch::debug_device_code);
}

TEST_CASE("measure_interleaved: refuses graphs, an empty list and an empty contestant, by name") {
  // Refused before any device is touched (this tier has no GPU).
  const auto noop = [](cudaStream_t) {};
  cuprobe::run_options o;
  o.graph = true;
  CHECK_THROWS_WITH_AS(cuprobe::measure_interleaved("h2h", {{"a", noop}}, o),
                       doctest::Contains("measure_interleaved(\"h2h\"): graph = true"),
                       cuprobe::error);
  CHECK_THROWS_WITH_AS(cuprobe::measure_interleaved("h2h", {}, {}),
                       doctest::Contains("no contestant"), cuprobe::error);
  CHECK_THROWS_WITH_AS(cuprobe::measure_interleaved(
                           "h2h", {{"a", noop}, {"b", std::function<void(cudaStream_t)>{}}}, {}),
                       doctest::Contains("contestant 'b' is empty"), cuprobe::error);
  o.graph = false;
  o.batch = 0;  // the runner's own limits apply
  CHECK_THROWS_WITH_AS(cuprobe::measure_interleaved("h2h", {{"a", noop}}, o),
                       doctest::Contains("batch"), cuprobe::error);
}

TEST_CASE("paired_ratio: the median of same-round rate ratios, scaled by the declared work") {
  cuprobe::measurement mine, peer;
  mine.declared = cuprobe::work::bytes_moved(2e9, 2e9, "N read + N written");
  peer.declared = cuprobe::work::bytes_moved(1e9, 1e9, "half of it");
  mine.samples = {2.0, 1.0, 4.0, 0.0};  // a slow round, a fast one: the pairs still agree
  peer.samples = {1.1, 0.5, 2.2};       // the fourth round has no peer sample: left out
  // per round: 2 x peer / mine = 1.1, 1.0, 1.1 -> 1.1
  CHECK(cuprobe::paired_ratio(mine, peer).value() == doctest::Approx(1.1));
  const std::vector<std::size_t> fast = {1};
  CHECK(cuprobe::paired_ratio(mine, peer, &fast).value() == doctest::Approx(1.0));
  mine.declared = peer.declared = cuprobe::work::flop_count(5, 1, "same FLOP");
  CHECK(cuprobe::paired_ratio(mine, peer).value() == doctest::Approx(0.55));
  peer.samples.clear();
  CHECK_FALSE(cuprobe::paired_ratio(mine, peer).has_value());
}

TEST_CASE("sweep: cartesian and zipped expansion") {
  using cuprobe::sweep::axis;
  const auto c = cuprobe::sweep::cartesian({axis("a", {1, 2}), axis("b", {"x", "y", "z"})});
  REQUIRE(c.size() == 6);
  CHECK(c[0].get_int("a") == 1);
  CHECK(c[0].get_string("b") == "x");
  CHECK(c[1].get_string("b") == "y");  // the last axis varies fastest
  CHECK(c[5].get_int("a") == 2);
  CHECK(c[5].get_string("b") == "z");
  CHECK(c[4].label() == "a=2 b=y");
  const auto z = cuprobe::sweep::zipped({axis("n", {1, 2, 3}), axis("m", {10, 20, 30})});
  REQUIRE(z.size() == 3);
  CHECK(z[2].get_int("n") == 3);
  CHECK(z[2].get_int("m") == 30);
  CHECK_THROWS_AS(cuprobe::sweep::zipped({axis("n", {1, 2}), axis("m", {1})}), cuprobe::error);
  CHECK_THROWS_AS(cuprobe::sweep::cartesian({axis("n", std::vector<cuprobe::json>{})}),
                  cuprobe::error);
  const auto of = cuprobe::sweep::axis::of<int>("k", {4, 8});
  CHECK(cuprobe::sweep::cartesian({of}).size() == 2);
}

TEST_CASE("json: writer escapes, keeps key order and writes non-finite numbers as null") {
  cuprobe::json j = cuprobe::json::object();
  j["b"] = 1;
  j["a"] = "q\"uote\\ \n\t\x01";
  j["c"] = cuprobe::json::array({1.5, nullptr, true});
  j["nan"] = std::nan("");
  j["big"] = 1ll << 40;
  CHECK(j.dump() ==
        "{\"b\":1,\"a\":\"q\\\"uote\\\\ \\n\\t\\u0001\",\"c\":[1.5,null,true],\"nan\":null,"
        "\"big\":1099511627776}");
  CHECK(cuprobe::json::number_text(0.1) == "0.1");
  CHECK(cuprobe::json::number_text(1e-9) == "1e-09");
  cuprobe::json copy = j;  // copies share nothing observable
  copy["b"] = 2;
  CHECK(j.at("b").as_integer() == 1);
  CHECK_THROWS_AS(j.at("missing"), cuprobe::error);
}

TEST_CASE("csv: quoting and one row per measurement") {
  CHECK(cuprobe::csv_cell("plain") == "plain");
  CHECK(cuprobe::csv_cell("a,b") == "\"a,b\"");
  CHECK(cuprobe::csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
  cuprobe::measurement m;
  m.name = "copy";
  m.params["threads"] = 256;
  m.params["op"] = ".cg";
  m.samples = {2e-3, 1e-3, 3e-3};
  m.declared = cuprobe::work::bytes_moved(1e9, 1e9, "copy: N read + N written");
  m.options.clock_mhz = 1000;
  cuprobe::device_info dev;
  cuprobe::finish_measurement(m, dev);
  const std::string csv = cuprobe::measurements_csv({m});
  const auto nl = csv.find('\n');
  CHECK(csv.substr(0, nl) ==
        "name,threads,op,unit,samples,median,min,mean,max,stdev,rel_stdev,seconds,"
        "bytes_per_iteration,gb_per_s,tflop_per_s,ops_per_s,cycles_per_op,clock_mhz,ceiling_key,"
        "ceiling_fraction,ceiling_source,accounting,flags,limiting_unit,limiting_unit_percent");
  CHECK(
      csv.find("copy,256,.cg,seconds,3,0.002,0.001,0.002,0.003,0.001,0.5,0.002,2000000000,1000,,,,"
               "1000,,,,copy: N read + N written,") != std::string::npos);
}

TEST_CASE("finish_measurement derives rates from the median and the declared work") {
  cuprobe::measurement m;
  m.samples = {1e-3, 2e-3, 4e-3};
  m.declared.bytes_read = 3e9;
  m.declared.flops = 8e9;
  m.declared.ops = 4e9;
  m.options.clock_mhz = 2000;
  cuprobe::device_info dev;
  cuprobe::finish_measurement(m, dev);
  CHECK(*m.rate.seconds == Approx(2e-3));
  CHECK(*m.rate.bytes_per_s == Approx(1.5e12));
  CHECK(*m.rate.flop_per_s == Approx(4e12));
  CHECK(*m.rate.ops_per_s == Approx(2e12));
  CHECK(*m.rate.cycles_per_op == Approx(1e-3));  // 2 ms x 2 GHz / 4e9
  CHECK(m.rate.clock_source == "given");
  CHECK(cuprobe::has_flag(m.flags, cuprobe::flag_code::noisy));
}

TEST_CASE("table: aligned columns, numbers right-aligned") {
  cuprobe::table t({"case", "GB/s"});
  t.add_row({"read", "4512.3"}).add_row({"write-long", "12.0"});
  CHECK(t.str() ==
        "case        GB/s\n----------  ------\nread        4512.3\nwrite-long    12.0\n");
  CHECK(cuprobe::fmt(std::optional<double>{}, 1) == "-");
  CHECK(cuprobe::fmt(std::optional<double>{2.5}, 1) == "2.5");
  CHECK(cuprobe::fmt_sample(280.66, cuprobe::sample_unit::cycles) == "280.7 cycles");
  CHECK(cuprobe::fmt_sample(1.5e-3, cuprobe::sample_unit::seconds) == "1.500 ms");
  CHECK(cuprobe::fmt_sample(1500, cuprobe::sample_unit::nanoseconds) == "1.500 us");
  CHECK(cuprobe::fmt_bytes(4096) == "4 KiB");
  CHECK(cuprobe::fmt_bytes(1.5 * 1048576) == "1.5 MiB");
}

// Writes a results file and a summary file, then has Python's json read them back: the
// schema validator, and the values themselves.
TEST_CASE("results and summary JSON round-trip through Python's json") {
  cuprobe::measurement m;
  m.name = "dram.read \"float4\"";
  m.params["elements"] = 1 << 20;
  m.samples = {1e-3, 2e-3, 3e-3, 4e-3};
  m.declared = cuprobe::work::bytes_moved(4e9, 0, "read: N bytes")
                   .with_source(cuprobe::data_source::dram)
                   .with_working_set(8e9);
  cuprobe::device_info dev;
  dev.name = "Test GPU";
  dev.sm_count = 2;
  cuprobe::finish_measurement(m, dev);
  cuprobe::json meta = cuprobe::json::object();
  for (const char* k : {"library_version", "date", "command_line", "compile_flags", "commit"})
    meta[k] = "x";
  cuprobe::json device = cuprobe::json::object();
  device["name"] = dev.name;
  device["compute_capability"] = "9.0";
  device["uuid"] = "GPU-0";
  device["sm_count"] = 2;
  cuprobe::results r(meta, device);
  r.add(m);
  r.extra("timers")["tick_ns"] = 32.0;
  const std::string path = "host_measure_results.json";
  r.write_json(path);

  const std::string py = CUPROBE_PYTHON;
  REQUIRE_MESSAGE(!py.empty(), "Python 3 was not found at configure time");
  const std::string validator = std::string(CUPROBE_SOURCE_DIR) + "/tools/validate_results.py";
  CHECK(std::system((py + " " + validator + " " + path).c_str()) == 0);
  const std::string check =
      py + " -c \"import json; d=json.load(open('" + path + "'));" + " b=d['benchmarks'][0];" +
      " assert d['schema']=='cuprobe.results/3';" +
      " assert b['name']=='dram.read \\\"float4\\\"', b['name'];" +
      " assert b['unit']=='seconds';" + " assert b['samples']==[0.001,0.002,0.003,0.004];" +
      " assert b['work']['working_set_bytes']==8e9;" + " assert b['summary']['median']==0.0025;" +
      " assert b['params']['elements']==1048576;" +
      " assert abs(b['rates']['gb_per_s']-1600.0)<1e-9;" +
      " assert b['work']['dram_working_set'] is True;" +
      " assert d['extra']['timers']['tick_ns']==32.0\"";
  CHECK(std::system(check.c_str()) == 0);

  // The summary file: schema, and a metric read back.
  cuprobe::json sdoc = cuprobe::json::object();
  sdoc["schema"] = cuprobe::summary_schema;
  sdoc["device"] = device;
  sdoc["commit"] = "abc";
  sdoc["command"] = "device_report";
  sdoc["date"] = "2026-11-29T00:00:00Z";
  sdoc["metrics"]["timer.globaltimer.tick_ns"] = 32.0;
  cuprobe::write_text("host_measure_summary.json", sdoc.dump(2));
  CHECK(std::system((py + " " + validator + " host_measure_summary.json").c_str()) == 0);
  // The validator rejects a broken file.
  cuprobe::write_text("host_measure_bad.json", "{\"schema\": \"cuprobe.results/3\"}");
  CHECK(std::system((py + " " + validator + " host_measure_bad.json > /dev/null").c_str()) != 0);
}

TEST_CASE("cli: numbers parsed strictly, ranges stated, output paths checked before any run") {
  using cuprobe::cli;
  using cuprobe::cli_option;
  const std::vector<cli_option> opts = {cli_option::integer("--passes", "passes", 1, 4096, 4),
                                        cli_option::number("--factor", "factor", 1, 1024, 8),
                                        cli_option::path("--markdown", "a report")};
  const auto parse = [&](std::vector<std::string> args) {
    std::vector<char*> argv{const_cast<char*>("prog")};
    for (auto& a : args) argv.push_back(a.data());
    return cli::parse(int(argv.size()), argv.data(), "test", opts);
  };
  const auto refused = [&](std::vector<std::string> args) {
    try {
      parse(std::move(args));
    } catch (const cuprobe::error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  CHECK(parse({}).get_integer("--passes") == 4);
  CHECK(parse({"--passes", "12"}).get_integer("--passes") == 12);
  CHECK(parse({"--factor", "2.5e1"}).get_number("--factor") == 25);
  CHECK(refused({"--passes", "-1"}).find("outside its range: an integer in 1 .. 4096") !=
        std::string::npos);
  CHECK(refused({"--passes", "0x10"}).find("expects an integer") != std::string::npos);
  CHECK(refused({"--passes", "1.5"}).find("expects an integer") != std::string::npos);
  CHECK(refused({"--passes", "12abc"}).find("expects an integer") != std::string::npos);
  CHECK(refused({"--factor", "nan"}).find("expects a number") != std::string::npos);
  CHECK(refused({"--factor", "inf"}).find("expects a number") != std::string::npos);
  CHECK(refused({"--factor", "1e999"}).find("expects a number") != std::string::npos);
  CHECK(refused({"--factor", ""}).find("expects a number") != std::string::npos);
  CHECK(refused({"--passes"}).find("needs a value") != std::string::npos);
  CHECK(refused({"--bogus", "1"}).find("unknown option '--bogus'") != std::string::npos);
  // Output paths: a directory, a missing directory, a read-only location.
  ::mkdir("host_measure_dir", 0755);
  CHECK(refused({"--json", "host_measure_dir"}).find("is a directory") != std::string::npos);
  CHECK(refused({"--csv", "no/such/dir/out.csv"}).find("cannot write 'no/such/dir/out.csv'") !=
        std::string::npos);
  CHECK(refused({"--markdown", "/proc/version/x.md"}).find("--markdown: cannot write") !=
        std::string::npos);
  CHECK(refused({"--json", "host_measure_ok.json"}).empty());
  struct stat st {};
  CHECK(::stat("host_measure_ok.json", &st) != 0);  // the check left no file behind
  // --profile reaches the run options; the environment is not touched.
  CHECK(parse({"--profile"}).run_options().profile);
  CHECK(std::getenv("CUPROBE_PROFILE") == nullptr);
  CHECK(!parse({}).run_options().profile);
  // --full: the long sweeps; refused beside the short settings.
  CHECK(parse({"--full"}).full);
  CHECK(!parse({}).full);
  CHECK(refused({"--full", "--quick"}).find("give one of them") != std::string::npos);
  CHECK(refused({"--small", "--full"}).find("--small for the short setting") != std::string::npos);
}

TEST_CASE("plan_cost: warm-up, the samples the stopping rule takes, batch and rests") {
  cuprobe::run_options o;  // 3 warm-up calls, fixed(20)
  auto c = cuprobe::plan_cost(o, 0.01);
  CHECK(c.samples == 20);
  CHECK(c.calls == 23);
  CHECK(c.seconds == doctest::Approx(0.23));
  o.batch = 4;  // a sample is 4 calls
  o.rest_ms = 100;
  c = cuprobe::plan_cost(o, 0.01);
  CHECK(c.calls == 3 + 80);
  CHECK(c.seconds == doctest::Approx(0.03 + 20 * (0.04 + 0.1)));
  // host work after each sample (NVML's reads) adds to every sample
  CHECK(cuprobe::plan_cost(o, 0.01, 0.002).seconds == doctest::Approx(0.03 + 20 * 0.142));
  // adaptive: enough samples to accumulate min_time_s, at least min_samples, at most max
  o = {};
  o.warmup = 0;
  o.stop = cuprobe::stopping_rule::adaptive(0.5, 0.01, 10, 10000, 30);
  CHECK(cuprobe::plan_cost(o, 0.001).samples == 500);
  CHECK(cuprobe::plan_cost(o, 0.1).samples == 10);
  o.stop.max_samples = 200;
  CHECK(cuprobe::plan_cost(o, 0.001).samples == 200);
  // timeout_s caps the samples (at least one)
  o.stop = cuprobe::stopping_rule::adaptive(0, 0.01, 100, 1000, 2);
  CHECK(cuprobe::plan_cost(o, 0.1).samples == 20);
  CHECK(cuprobe::plan_cost(o, 5.0).samples == 1);
  CHECK(cuprobe::plan_cost(o, 5.0).seconds == doctest::Approx(5.0));
  // the line tests/gpu/plan_runtime.sh parses (host.plan_runtime_parse parses this very text)
  CHECK(cuprobe::plan_line(3, 40, 1.25, 0.5) ==
        "cuprobe plan: measurements=3 calls=40 sampling_s=1.25 other_s=0.50 expected_s=1.75");
  // plan mode implies profile mode
  CHECK(!cuprobe::plan_mode_from_env());
  ::setenv("CUPROBE_PLAN", "1", 1);
  CHECK(cuprobe::plan_mode_from_env());
  CHECK(cuprobe::profile_mode_from_env());
  ::setenv("CUPROBE_PLAN", "0", 1);
  CHECK(!cuprobe::plan_mode_from_env());
  ::unsetenv("CUPROBE_PLAN");
}

TEST_CASE("write_text names the path and the reason") {
  CHECK_THROWS_WITH_AS(cuprobe::write_text("no/such/dir/x.txt", "x"),
                       doctest::Contains("cannot open 'no/such/dir/x.txt' for writing"),
                       cuprobe::error);
}
