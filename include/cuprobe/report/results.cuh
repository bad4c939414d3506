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
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/report/csv.cuh"
#include "cuprobe/report/meta.cuh"
#include "cuprobe/report/table.cuh"

namespace cuprobe {

/// The "schema" value of the results files this version writes.
inline constexpr const char* results_schema = "cuprobe.results/3";

/// The statistics as a JSON object, one key per field.
CUPROBE_DECL json to_json(const summary& s);

/// The counters of a measurement as JSON: null when none were asked for (docs/results-schema.md).
CUPROBE_DECL json to_json(const counters::result& r);

/// "DRAM 93 %": the limiting unit of `r` for tables, "" when the sol units were not counted.
CUPROBE_DECL std::string limiting_text(const counters::result& r);

/// One "benchmarks" entry of the results file: everything the measurement holds.
CUPROBE_DECL json to_json(const measurement& m);

/// A sample in its unit: "1.234 ms" (seconds, nanoseconds), "280.7 cycles", "0.9876" (value).
CUPROBE_DECL std::string fmt_sample(double v, sample_unit u);

/// A results document under construction.
class results {
 public:
  /// Starts a document with the run's metadata (the command line, ...) and the current device.
  results(int argc, char** argv)
      : meta_(run_meta(argc, argv)), device_(cuprobe::to_json(current_device())) {}
  /// With meta and device given (tests, or results assembled from elsewhere).
  results(json meta, json device) : meta_(std::move(meta)), device_(std::move(device)) {}

  /// Appends a measurement and returns it, as stored; the reference is valid until the next
  /// add() (measurements() holds them all).
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
  CUPROBE_DECL json to_json() const;
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
  CUPROBE_DECL void print_table(std::FILE* f = stdout) const;

  /// How close these measurements come to the card's ceilings, one line per ceiling key: the
  /// highest fraction among the measurements placed against it, which one, and the ceiling's
  /// source (this card's record, the model's reference set, or nominal). One line saying so
  /// when no measurement matched a ceiling (latencies, counts, undeclared work).
  CUPROBE_DECL void print_ceilings(std::FILE* f = stdout) const;

 private:
  json meta_, device_;
  std::vector<measurement> list_;
  json extra_;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/report/impl/results.cuh"
#endif
