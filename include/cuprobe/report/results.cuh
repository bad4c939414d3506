// cuprobe/report/results.cuh: the results file (JSON schema "cuprobe.results/1"), its CSV
// twin and the console table, from a list of measurements.
//
//   cuprobe::results r(argc, argv);          // meta + device
//   r.add(cuprobe::measure("copy", launch, work));
//   r.print_table();  r.write_json("copy.json");  r.write_csv("copy.csv");
//
// Schema (docs/results-schema.md):
//   {"schema": "cuprobe.results/1", "meta": {...}, "device": {...},
//    "benchmarks": [{"name", "params", "launch", "kernel", "work", "options", "samples_s",
//                    "summary", "rates", "environment", "flags", "stop"}],
//    "extra": {...}}     // free-form sections (e.g. timer characterisation)
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "cuprobe/core/json.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/report/cli.cuh"
#include "cuprobe/report/csv.cuh"
#include "cuprobe/report/meta.cuh"
#include "cuprobe/report/table.cuh"

namespace cuprobe {

inline constexpr const char* results_schema = "cuprobe.results/1";

inline json to_json(const summary& s) {
  json j = json::object();
  j["count"] = s.count;
  j["min"] = s.min;
  j["p05"] = s.p05;
  j["p10"] = s.p10;
  j["p25"] = s.p25;
  j["median"] = s.median;
  j["mean"] = s.mean;
  j["p75"] = s.p75;
  j["p90"] = s.p90;
  j["p95"] = s.p95;
  j["p99"] = s.p99;
  j["max"] = s.max;
  j["stdev"] = s.stdev;
  j["rel_stdev"] = s.rel_stdev;
  return j;
}

inline json to_json(const measurement& m) {
  auto num = [](double v) { return v < 0 ? json() : json(v); };
  json b = json::object();
  b["name"] = m.name;
  b["params"] = m.params;
  if (m.launch) {
    json l = json::object();
    l["grid"] = json::array({m.launch->grid.x, m.launch->grid.y, m.launch->grid.z});
    l["block"] = json::array({m.launch->block.x, m.launch->block.y, m.launch->block.z});
    l["dynamic_smem_bytes"] = m.launch->dynamic_smem;
    b["launch"] = l;
  }
  if (m.kernel) {
    json k = json::object();
    k["registers"] = m.kernel->registers;
    k["static_smem_bytes"] = m.kernel->static_smem;
    k["dynamic_smem_bytes"] = m.kernel->dynamic_smem;
    k["local_bytes"] = m.kernel->local_bytes;
    k["block_threads"] = m.kernel->block_threads;
    k["max_active_blocks_per_sm"] = m.kernel->max_active_blocks_per_sm;
    k["occupancy"] = m.kernel->occupancy;
    k["binary_version"] = m.kernel->binary_version;
    b["kernel"] = k;
  }
  json w = json::object();
  w["bytes_read"] = m.declared.bytes_read;
  w["bytes_written"] = m.declared.bytes_written;
  w["flops"] = m.declared.flops;
  w["ops"] = m.declared.ops;
  w["accounting"] = m.declared.accounting;
  w["dram_working_set"] = m.declared.dram_working_set;
  b["work"] = w;
  json o = json::object();
  o["warmup"] = m.options.warmup;
  o["loop_mode"] = to_string(m.options.mode);
  o["iterations"] = m.options.iterations;
  o["batch"] = m.options.batch;
  o["graph"] = m.options.graph;
  o["flush_l2"] = m.options.flush_l2;
  o["rotations"] = m.options.rotations;
  o["profile"] = m.options.profile;
  o["min_samples"] = m.options.stop.min_samples;
  o["max_samples"] = m.options.stop.max_samples;
  o["min_time_s"] = m.options.stop.min_time_s;
  o["max_rel_noise"] = m.options.stop.max_rel_noise;
  b["options"] = o;
  b["samples_s"] = json::array_of(m.samples_s);
  b["summary"] = to_json(m.time);
  json r = json::object();
  r["seconds"] = m.rate.seconds;
  r["gb_per_s"] = num(m.rate.bytes_per_s < 0 ? -1 : m.rate.bytes_per_s / 1e9);
  r["tflop_per_s"] = num(m.rate.flop_per_s < 0 ? -1 : m.rate.flop_per_s / 1e12);
  r["ops_per_s"] = num(m.rate.ops_per_s);
  r["cycles_per_op"] = num(m.rate.cycles_per_op);
  r["clock_mhz"] = num(m.rate.clock_mhz);
  r["clock_source"] = m.rate.clock_source;
  b["rates"] = r;
  json e = json::object();
  e["before"] = to_json(m.env.before);
  e["after"] = to_json(m.env.after);
  e["sm_clock_mhz_during"] = json::array_of(m.env.sm_clock_mhz);
  e["min_sm_clock_mhz"] = num(m.env.min_sm_clock_mhz());
  e["throttle_reasons_seen"] = json::array_of(clock_event_reason_names(m.env.throttle_reasons_seen));
  b["environment"] = e;
  json f = json::array();
  for (const auto& fl : m.flags) {
    json x = json::object();
    x["code"] = fl.code;
    x["message"] = fl.message;
    f.push_back(x);
  }
  b["flags"] = f;
  b["stop"] = m.stop_verdict;
  b["wall_s"] = m.wall_s;
  return b;
}

/// A results document under construction.
class results {
 public:
  results(int argc, char** argv) : meta_(run_meta(argc, argv)), device_(cuprobe::to_json(current_device())) {}
  /// With meta and device given (tests, or results assembled from elsewhere).
  results(json meta, json device) : meta_(std::move(meta)), device_(std::move(device)) {}

  measurement& add(measurement m) {
    list_.push_back(std::move(m));
    return list_.back();
  }
  const std::vector<measurement>& measurements() const noexcept { return list_; }
  /// A free-form section under "extra" (e.g. the timer characterisation).
  json& extra(const std::string& key) { return extra_[key]; }
  json& meta() { return meta_; }

  json to_json() const {
    json j = json::object();
    j["schema"] = results_schema;
    j["meta"] = meta_;
    j["device"] = device_;
    json b = json::array();
    for (const auto& m : list_) b.push_back(cuprobe::to_json(m));
    j["benchmarks"] = b;
    j["extra"] = extra_.is_null() ? json::object() : extra_;
    return j;
  }
  void write_json(const std::string& path) const { write_text(path, to_json().dump(1) + "\n"); }
  void write_csv(const std::string& path) const { write_text(path, measurements_csv(list_)); }
  /// Writes what the command line asked for (--json, --csv).
  void write(const cli& c) const {
    if (!c.json_path.empty()) write_json(c.json_path);
    if (!c.csv_path.empty()) write_csv(c.csv_path);
  }

  /// One line per measurement: name, params, median, spread, rates, flags.
  void print_table(std::FILE* f = stdout) const {
    table t({"benchmark", "params", "median", "spread", "n", "GB/s", "TFLOP/s", "cyc/op", "flags"});
    for (const auto& m : list_) {
      std::string flags;
      for (const auto& fl : m.flags)
        if (fl.code != "clock_unknown") flags += (flags.empty() ? "" : ",") + fl.code;
      std::string params;
      if (m.params.is_object())
        for (const auto& kv : m.params.items())
          params += (params.empty() ? "" : " ") + kv.first + "=" +
                    (kv.second.is_string() ? kv.second.as_string() : kv.second.dump());
      t.add_row({m.name, params, fmt_time(m.time.median), fmt(100 * m.time.spread(), 1) + "%",
                 std::to_string(m.time.count),
                 fmt(m.rate.bytes_per_s < 0 ? -1 : m.rate.bytes_per_s / 1e9, 1, true),
                 fmt(m.rate.flop_per_s < 0 ? -1 : m.rate.flop_per_s / 1e12, 2, true),
                 fmt(m.rate.cycles_per_op, 2, true), flags});
    }
    t.print(f);
  }

  static std::string fmt_time(double s) {
    if (s >= 1) return fmt(s, 3) + " s";
    if (s >= 1e-3) return fmt(s * 1e3, 3) + " ms";
    if (s >= 1e-6) return fmt(s * 1e6, 3) + " us";
    return fmt(s * 1e9, 1) + " ns";
  }

 private:
  json meta_, device_;
  std::vector<measurement> list_;
  json extra_;
};

}  // namespace cuprobe
