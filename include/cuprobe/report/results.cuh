// cuprobe/report/results.cuh: the results file (JSON schema "cuprobe.results/2"), its CSV
// twin and the console table, from a list of measurements.
//
//   cuprobe::results r(argc, argv);          // meta + device
//   r.add(cuprobe::measure("copy", launch, work));
//   r.print_table();  r.write_json("copy.json");  r.write_csv("copy.csv");
//
// Schema (docs/results-schema.md):
//   {"schema": "cuprobe.results/2", "meta": {...}, "device": {...},
//    "benchmarks": [{"name", "params", "launch", "kernel", "work", "options", "unit", "samples",
//                    "summary", "rates", "environment", "flags", "stop"}],
//    "extra": {...}}     // free-form sections (e.g. timer characterisation)
#pragma once

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cuprobe/core/file.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/report/csv.cuh"
#include "cuprobe/report/meta.cuh"
#include "cuprobe/report/table.cuh"

namespace cuprobe {

/// The "schema" value of the results files this version writes.
inline constexpr const char* results_schema = "cuprobe.results/3";

/// The statistics as a JSON object, one key per field.
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

/// The counters of a measurement as JSON: null when none were asked for (docs/results-schema.md).
inline json to_json(const counters::result& r) {
  if (!r.asked()) return json();
  json c = json::object();
  c["spec"] = r.spec;
  c["chip"] = r.chip;
  c["passes"] = r.passes;
  c["range"] = r.values.empty() ? json() : json(counters::to_string(r.range));
  c["ranges"] = r.ranges;
  c["per_range"] = r.per_range;
  c["missing"] = r.missing;
  json v = json::array();
  for (const auto& x : r.values) {
    json e = json::object();
    e["metric"] = x.metric;
    e["label"] = x.label;
    e["value"] = x.v;
    e["unit"] = x.unit;
    v.push_back(e);
  }
  c["values"] = v;
  json u;
  if (auto l = counters::limiting_unit(r)) {
    u = json::object();
    u["unit"] = l->unit;
    u["percent"] = l->percent;
    u["metric"] = l->metric;
  }
  c["limiting_unit"] = u;
  return c;
}

/// "DRAM 93 %": the limiting unit of `r` for tables, "" when the sol units were not counted.
inline std::string limiting_text(const counters::result& r) {
  const auto l = counters::limiting_unit(r);
  return l ? l->unit + " " + fmt(l->percent, 0) + " %" : std::string();
}

/// One "benchmarks" entry of the results file: everything the measurement holds.
inline json to_json(const measurement& m) {
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
  w["dram_working_set"] = m.declared.source == data_source::dram;  // data_source's, for old tools
  w["working_set_bytes"] = m.declared.working_set_bytes;
  w["op_kind"] = m.declared.op_kind ? json(model::to_string(*m.declared.op_kind)) : json();
  w["data_source"] = to_string(m.declared.source);
  w["tensor_type"] = m.declared.tensor_type ? model::to_string(*m.declared.tensor_type) : "";
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
  o["timeout_s"] = m.options.stop.timeout_s;
  o["noise_threshold"] = m.options.noise_threshold;
  o["clock_mhz"] = m.options.clock_mhz;
  o["rest_ms"] = m.options.rest_ms;
  o["counters"] = m.options.counters;
  b["options"] = o;
  b["unit"] = to_string(m.unit);
  b["samples"] = json::array_of(m.samples);
  b["summary"] = to_json(m.stats);
  const auto scaled = [](const std::optional<double>& v, double by) {
    return v ? json(*v / by) : json();
  };
  json r = json::object();
  r["seconds"] = m.rate.seconds;
  r["gb_per_s"] = scaled(m.rate.bytes_per_s, 1e9);
  r["tflop_per_s"] = scaled(m.rate.flop_per_s, 1e12);
  r["ops_per_s"] = m.rate.ops_per_s;
  r["cycles_per_op"] = m.rate.cycles_per_op;
  r["clock_mhz"] = m.rate.clock_mhz;
  r["clock_source"] = m.rate.clock_source;
  b["rates"] = r;
  b["launch_floor_s"] = m.launch_floor_s;
  json e = json::object();
  e["before"] = to_json(m.env.before);
  e["after"] = to_json(m.env.after);
  e["sm_clock_mhz_during"] = json::array_of(m.env.sm_clock_mhz);
  e["min_sm_clock_mhz"] = m.env.min_sm_clock_mhz();
  e["throttle_reasons_seen"] =
      json::array_of(clock_event_reason_names(m.env.throttle_reasons_seen));
  b["environment"] = e;
  json f = json::array();
  for (const auto& fl : m.flags) {
    json x = json::object();
    x["code"] = to_string(fl.code);
    x["message"] = fl.message;
    f.push_back(x);
  }
  b["flags"] = f;
  json c;  // null: no ceiling matches the declared work
  if (m.ceiling) {
    c = json::object();
    c["key"] = m.ceiling->key;
    c["what"] = m.ceiling->what;
    c["rate_per_s"] = m.ceiling->rate_per_s;
    c["ceiling_per_s"] = m.ceiling->ceiling_per_s;
    c["fraction"] = m.ceiling->fraction;
    c["source"] = to_string(m.ceiling->source);
    c["source_text"] = m.ceiling->source_text;
    c["stale"] = m.ceiling->stale;
  }
  b["ceiling"] = c;
  b["counters"] = to_json(m.counters);
  b["stop"] = m.stop_verdict;
  b["wall_s"] = m.wall_s;
  return b;
}

/// A sample in its unit: "1.234 ms" (seconds, nanoseconds), "280.7 cycles", "0.9876" (value).
inline std::string fmt_sample(double v, sample_unit u) {
  if (u == sample_unit::seconds || u == sample_unit::nanoseconds)
    return fmt_time(u == sample_unit::seconds ? v : v * 1e-9);
  if (u == sample_unit::cycles) return fmt(v, 1) + " cycles";
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

/// A results document under construction.
class results {
 public:
  /// Starts a document with the run's metadata (the command line, ...) and the current device.
  results(int argc, char** argv)
      : meta_(run_meta(argc, argv)), device_(cuprobe::to_json(current_device())) {}
  /// With meta and device given (tests, or results assembled from elsewhere).
  results(json meta, json device) : meta_(std::move(meta)), device_(std::move(device)) {}

  /// Appends a measurement and returns it, as stored.
  measurement& add(measurement m) {
    list_.push_back(std::move(m));
    return list_.back();
  }
  /// The measurements added so far, in order.
  const std::vector<measurement>& measurements() const noexcept { return list_; }
  /// A free-form section under "extra" (e.g. the timer characterisation).
  json& extra(const std::string& key) { return extra_[key]; }
  json& meta() { return meta_; }  ///< the "meta" section, to add to

  /// The whole document: schema, meta, device, benchmarks and extra.
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
  /// Writes to_json() to `path`.
  void write_json(const std::string& path) const { write_text(path, to_json().dump(1) + "\n"); }
  /// Writes the measurements as CSV (measurements_csv) to `path`.
  void write_csv(const std::string& path) const { write_text(path, measurements_csv(list_)); }
  /// Writes what the command line asked for (--json, --csv): `c` is report/cli.cuh's `cli`, or
  /// any type with `json_path` and `csv_path` (a template, so that this header needs no parser).
  template <class Cli>
  void write(const Cli& c) const {
    if (!c.json_path.empty()) write_json(c.json_path);
    if (!c.csv_path.empty()) write_csv(c.csv_path);
  }

  /// One line per measurement: name, params, median (in the sample unit), spread, n, rates,
  /// flags (every flag but clock_unknown, which the environment section reports), and, when
  /// any measurement counted the sol units, what stops it (the limiting unit and its share).
  /// Why counters are missing is said once per reason below the table.
  void print_table(std::FILE* f = stdout) const {
    bool stops = false;
    for (const auto& m : list_) stops = stops || counters::limiting_unit(m.counters).has_value();
    std::vector<std::string> head{"benchmark", "params",  "median", "spread",    "n",
                                  "GB/s",      "TFLOP/s", "cyc/op", "of ceiling"};
    if (stops) head.emplace_back("what stops it");
    head.emplace_back("flags");
    table t(head);
    std::vector<std::string> sources, missing;
    const auto scaled = [](const std::optional<double>& v, double by) {
      return v ? std::optional<double>(*v / by) : std::nullopt;
    };
    for (const auto& m : list_) {
      std::string flags;
      for (const auto& fl : m.flags)
        if (fl.code != flag_code::clock_unknown)
          flags += std::string(flags.empty() ? "" : ",") + fl.code.name;
      std::string params;
      if (m.params.is_object())
        for (const auto& kv : m.params.items())
          params += (params.empty() ? "" : " ") + kv.first + "=" +
                    (kv.second.is_string() ? kv.second.as_string() : kv.second.dump());
      std::vector<std::string> row{
          m.name,
          params,
          fmt_sample(m.stats.median, m.unit),
          fmt(100 * m.stats.spread(), 1) + "%",
          std::to_string(m.stats.count),
          fmt(scaled(m.rate.bytes_per_s, 1e9), 1),
          fmt(scaled(m.rate.flop_per_s, 1e12), 2),
          fmt(m.rate.cycles_per_op, 2),
          m.ceiling ? fmt(m.ceiling->fraction, 3) + " " + to_string(m.ceiling->source)
                    : std::string()};
      if (stops) row.push_back(limiting_text(m.counters));
      row.push_back(flags);
      t.add_row(row);
      const std::string& why = m.counters.missing;
      if (!why.empty() && std::find(missing.begin(), missing.end(), why) == missing.end())
        missing.push_back(why);
      if (m.ceiling &&
          std::find(sources.begin(), sources.end(), m.ceiling->source_text) == sources.end())
        sources.push_back(m.ceiling->source_text);
    }
    t.print(f);
    for (const auto& s : sources) std::fprintf(f, "of ceiling: %s\n", s.c_str());
    for (const auto& w : missing) std::fprintf(f, "counters: not collected: %s\n", w.c_str());
  }

  /// How close these measurements come to the card's ceilings, one line per ceiling key: the
  /// highest fraction among the measurements placed against it, which one, and the ceiling's
  /// source (this card's record, the model's reference set, or nominal). One line saying so
  /// when no measurement matched a ceiling (latencies, counts, undeclared work).
  void print_ceilings(std::FILE* f = stdout) const {
    std::vector<const measurement*> best;  // one per key, in the order first seen
    for (const auto& m : list_) {
      if (!m.ceiling) continue;
      auto it = std::find_if(best.begin(), best.end(), [&](const measurement* b) {
        return b->ceiling->key == m.ceiling->key;
      });
      if (it == best.end())
        best.push_back(&m);
      else if (m.ceiling->fraction > (*it)->ceiling->fraction)
        *it = &m;
    }
    if (best.empty()) {
      std::fprintf(f, "of ceiling: none of these %zu measurements matches a ceiling\n",
                   list_.size());
      return;
    }
    std::fprintf(f, "of ceiling (the best measurement per ceiling):\n");
    for (const measurement* m : best)
      std::fprintf(f, "  %-24s %.3f  %s  (%s%s)\n", m->ceiling->key.c_str(), m->ceiling->fraction,
                   m->name.c_str(), m->ceiling->source_text.c_str(),
                   m->ceiling->stale.empty() ? "" : "; STALE");
  }

 private:
  json meta_, device_;
  std::vector<measurement> list_;
  json extra_;
};

}  // namespace cuprobe
