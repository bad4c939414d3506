// cuprobe/report/summary.cuh: the headline file, schema "cuprobe.summary/1".
//
//   cuprobe::summary_file s(argc, argv, cuprobe::device_info::query());
//   s.set("clock.sm.effective_mhz", 1980.0);
//   s.write("docs/results/h200/summary.json");
//
//   {"schema": "cuprobe.summary/1", "device": {...}, "commit": "<git sha>",
//    "command": "<command line>", "date": "...", "metrics": {"<key>": number, ...},
//    "paths": {"<key>": "words"}, "limits": {"<key>": {"unit": "DRAM", "percent": 93.1}}}
//
// Always written by a program (device_report), never by hand. Keys are dotted names; a value
// that could not be measured is left out rather than written as a guess.
#pragma once

#include <cmath>
#include <cstdio>
#include <optional>
#include <string>

#include "cuprobe/core/file.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/counter_sets.cuh"
#include "cuprobe/report/meta.cuh"

namespace cuprobe {

inline constexpr const char* summary_schema = "cuprobe.summary/1";  ///< The schema of the file.

/// The headline file: one number per key, with the device, commit, command and date.
class summary_file {
 public:
  /// A file for device `dev`, recording the command line.
  summary_file(int argc, char** argv, const device_info& dev)
      : device_(cuprobe::to_json(dev)), command_(command_line(argc, argv)) {}

  /// Sets a metric; non-finite values are refused (a metric is a measured number).
  CUPROBE_DECL void set(const std::string& key, double value);
  /// True when metric `key` is set.
  bool has(const std::string& key) const { return metrics_.find(key) != nullptr; }
  /// The metric `key`, if set.
  CUPROBE_DECL std::optional<double> metric(const std::string& key) const;
  /// Names, in words, the path (kernel, instruction, method) behind metric `key` ("paths").
  void set_path(const std::string& key, const std::string& path) { paths_[key] = path; }
  /// Records what stops the work behind metric `key` ("limits"): the limiting unit of its
  /// measurement's counters, when they counted the sol units (docs/counters.md).
  CUPROBE_DECL void set_limit(const std::string& key, const counters::result& r);
  const json& limits() const { return limits_; }    ///< The limits set so far.
  const json& metrics() const { return metrics_; }  ///< The metrics set so far.

  /// The whole file as JSON.
  CUPROBE_DECL json to_json() const;
  /// Writes the file to `path`.
  void write(const std::string& path) const { write_text(path, to_json().dump(2) + "\n"); }
  /// Writes where the command line's --summary says, and says so; nothing without it. `c` is
  /// report/cli.cuh's `cli`, or any type with has() and get() (a template, as results::write).
  template <class Cli>
  void write(const Cli& c) const {
    if (!c.has("--summary")) return;
    write(c.get("--summary"));
    std::printf("\nsummary written to %s\n", c.get("--summary").c_str());
  }

 private:
  json device_;
  std::string command_;
  json metrics_ = json::object();
  json paths_ = json::object();
  json limits_ = json::object();
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/report/impl/summary.cuh"
#endif
