// host tier: measure/ and report/ logic (statistics, stopping rule, flags, sweeps, JSON, CSV)
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/measure/flags.cuh>
#include <cuprobe/measure/stats.cuh>
#include <cuprobe/measure/sweep.cuh>
#include <cuprobe/report/csv.cuh>
#include <cuprobe/report/results.cuh>
#include <cuprobe/report/summary.cuh>
#include <cuprobe/report/table.cuh>

#include <cstdlib>
#include <string>

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
}

TEST_CASE("stopping rule: fixed count") {
  const auto r = cuprobe::stopping_rule::fixed(3);
  using v = cuprobe::stopping_rule::verdict;
  CHECK(r.decide({1, 1}, 0) == v::more);
  CHECK(r.decide({1, 5, 9}, 0) == v::converged);  // noise does not matter for a fixed count
}

TEST_CASE("stopping rule: adaptive needs the minimum time, the minimum count and low noise") {
  using v = cuprobe::stopping_rule::verdict;
  const auto r = cuprobe::stopping_rule::adaptive(/*min_time_s=*/1.0, /*noise=*/0.05, /*min_n=*/3,
                                                  /*max_n=*/6, /*timeout_s=*/100);
  CHECK(r.decide({0.5, 0.5}, 1) == v::more);             // too few samples
  CHECK(r.decide({0.1, 0.1, 0.1}, 1) == v::more);        // quiet but only 0.3 s of samples
  CHECK(r.decide({0.4, 0.4, 0.4}, 2) == v::converged);   // 1.2 s, no noise
  CHECK(r.decide({0.4, 0.8, 0.4}, 2) == v::more);        // 1.6 s but 43 % noise
  CHECK(r.decide({0.4, 0.8, 0.4, 0.8, 0.4, 0.8}, 3) == v::max_samples);
  CHECK(r.decide({0.4, 0.8, 0.4, 0.8}, 101) == v::timeout);
  CHECK(r.decide({0.4}, 101) == v::timeout);  // timeout holds below the minimum count too
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
  CHECK(f[0].code == "throttling");
  CHECK(f[0].message.find("1700 MHz") != std::string::npos);
  in.min_sm_clock_mhz = 1790;  // 90.4 %: fine
  CHECK(cuprobe::evaluate_flags(in).empty());
  in.throttle_reasons = 0x4;   // NVML says power cap
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), "throttling"));
  in.throttle_reasons = 0;

  in.dram_working_set = true;
  in.nominal_dram_bytes_per_s = 4.8e12;
  in.bytes_per_s = 4.5e12;
  CHECK(cuprobe::evaluate_flags(in).empty());
  in.bytes_per_s = 5.2e12;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), "above_dram_peak"));
  in.dram_working_set = false;  // an L2 benchmark may exceed the DRAM peak
  CHECK(!cuprobe::has_flag(cuprobe::evaluate_flags(in), "above_dram_peak"));

  in.rel_stdev = 0.08;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), "noisy"));
  in.noise_threshold = 0.1;
  CHECK(!cuprobe::has_flag(cuprobe::evaluate_flags(in), "noisy"));

  in.min_sm_clock_mhz = -1;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), "clock_unknown"));
  in.samples = 1;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), "few_samples"));
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
  m.samples_s = {2e-3, 1e-3, 3e-3};
  m.declared = cuprobe::work::bytes_moved(1e9, 1e9, "copy: N read + N written");
  m.options.clock_mhz = 1000;
  cuprobe::device_info dev;
  cuprobe::finish_measurement(m, dev);
  const std::string csv = cuprobe::measurements_csv({m});
  const auto nl = csv.find('\n');
  CHECK(csv.substr(0, nl) ==
        "name,threads,op,samples,median_s,min_s,mean_s,max_s,stdev_s,rel_stdev,"
        "bytes_per_iteration,gb_per_s,tflop_per_s,ops_per_s,cycles_per_op,clock_mhz,accounting,flags");
  CHECK(csv.find("copy,256,.cg,3,0.002,0.001,0.002,0.003,0.001,0.5,2000000000,1000,,,,1000,"
                 "copy: N read + N written,") != std::string::npos);
}

TEST_CASE("finish_measurement derives rates from the median and the declared work") {
  cuprobe::measurement m;
  m.samples_s = {1e-3, 2e-3, 4e-3};
  m.declared.bytes_read = 3e9;
  m.declared.flops = 8e9;
  m.declared.ops = 4e9;
  m.options.clock_mhz = 2000;
  cuprobe::device_info dev;
  cuprobe::finish_measurement(m, dev);
  CHECK(m.rate.seconds == Approx(2e-3));
  CHECK(m.rate.bytes_per_s == Approx(1.5e12));
  CHECK(m.rate.flop_per_s == Approx(4e12));
  CHECK(m.rate.ops_per_s == Approx(2e12));
  CHECK(m.rate.cycles_per_op == Approx(1e-3));  // 2 ms x 2 GHz / 4e9
  CHECK(m.rate.clock_source == "given");
  CHECK(cuprobe::has_flag(m.flags, "noisy"));
}

TEST_CASE("table: aligned columns, numbers right-aligned") {
  cuprobe::table t({"case", "GB/s"});
  t.add_row({"read", "4512.3"}).add_row({"write-long", "12.0"});
  CHECK(t.str() == "case        GB/s\n----------  ------\nread        4512.3\nwrite-long    12.0\n");
  CHECK(cuprobe::fmt(-1, 1, true) == "-");
  CHECK(cuprobe::fmt_bytes(4096) == "4 KiB");
  CHECK(cuprobe::fmt_bytes(1.5 * 1048576) == "1.5 MiB");
}

// Writes a results file and a summary file, then has Python's json read them back: the
// schema validator, and the values themselves.
TEST_CASE("results and summary JSON round-trip through Python's json") {
  cuprobe::measurement m;
  m.name = "dram.read \"float4\"";
  m.params["elements"] = 1 << 20;
  m.samples_s = {1e-3, 2e-3, 3e-3, 4e-3};
  m.declared = cuprobe::work::bytes_moved(4e9, 0, "read: N bytes", true);
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
      py + " -c \"import json; d=json.load(open('" + path + "'));" +
      " b=d['benchmarks'][0];" +
      " assert d['schema']=='cuprobe.results/1';" +
      " assert b['name']=='dram.read \\\"float4\\\"', b['name'];" +
      " assert b['samples_s']==[0.001,0.002,0.003,0.004];" +
      " assert b['summary']['median']==0.0025;" +
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
  cuprobe::write_text("host_measure_bad.json", "{\"schema\": \"cuprobe.results/1\"}");
  CHECK(std::system((py + " " + validator + " host_measure_bad.json > /dev/null").c_str()) != 0);
}
