// cuprobe/report/csv.cuh: CSV text (RFC 4180 quoting) and one row per measurement.
//
//   cuprobe::write_text(path, cuprobe::measurements_csv(results));   // core/file.cuh
//
// Columns: name, every parameter key seen (in first-seen order), then the sample unit, the
// summary in that unit, the rates, the clock, the flags, the limiting unit and its share, and one
// column per counted metric seen ("counter:<metric> [<unit>]", first-seen order; per iteration
// for counts). Unknown values are empty cells.
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/measure/measurement.cuh"

namespace cuprobe {

/// `s` as one CSV cell: quoted, with its quotes doubled, when it holds a comma, quote or newline.
inline std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

/// The cells as one CSV line, ending in a newline.
inline std::string csv_line(const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) out += ',';
    out += csv_cell(cells[i]);
  }
  return out + "\n";
}

/// A number as a CSV cell; an empty cell for NaN or an unknown value.
///@{
inline std::string csv_number(double v) { return v != v ? "" : json::number_text(v); }
inline std::string csv_number(const std::optional<double>& v) { return v ? csv_number(*v) : ""; }
///@}

/// The CSV text of the measurements: a header line and one line per measurement.
inline std::string measurements_csv(const std::vector<measurement>& ms) {
  std::vector<std::string> keys;
  for (const auto& m : ms)
    if (m.params.is_object())
      for (const auto& kv : m.params.items())
        if (std::find(keys.begin(), keys.end(), kv.first) == keys.end()) keys.push_back(kv.first);
  std::vector<std::pair<std::string, std::string>> metrics;  // (metric, unit), first seen
  for (const auto& m : ms)
    for (const auto& v : m.counters.values)
      if (std::find_if(metrics.begin(), metrics.end(),
                       [&](const auto& x) { return x.first == v.metric; }) == metrics.end())
        metrics.emplace_back(v.metric, v.unit);
  std::vector<std::string> head{"name"};
  head.insert(head.end(), keys.begin(), keys.end());
  for (const char* c : {"unit",
                        "samples",
                        "median",
                        "min",
                        "mean",
                        "max",
                        "stdev",
                        "rel_stdev",
                        "seconds",
                        "bytes_per_iteration",
                        "gb_per_s",
                        "tflop_per_s",
                        "ops_per_s",
                        "cycles_per_op",
                        "clock_mhz",
                        "ceiling_key",
                        "ceiling_fraction",
                        "ceiling_source",
                        "accounting",
                        "flags",
                        "limiting_unit",
                        "limiting_unit_percent"})
    head.emplace_back(c);
  for (const auto& [metric, unit] : metrics)
    head.push_back("counter:" + metric + " [" + unit + "]");
  const auto scaled = [](const std::optional<double>& v, double by) {
    return v ? std::optional<double>(*v / by) : std::nullopt;
  };
  std::string out = csv_line(head);
  for (const auto& m : ms) {
    std::vector<std::string> row{m.name};
    for (const auto& k : keys) {
      const json* v = m.params.find(k);
      row.push_back(!v || v->is_null() ? "" : v->is_string() ? v->as_string() : v->dump());
    }
    std::string flags;
    for (const auto& f : m.flags) flags += std::string(flags.empty() ? "" : ";") + f.code.name;
    row.push_back(to_string(m.unit));
    row.push_back(std::to_string(m.stats.count));
    for (double v : {m.stats.median, m.stats.min, m.stats.mean, m.stats.max, m.stats.stdev})
      row.push_back(csv_number(v));
    row.push_back(json::number_text(m.stats.rel_stdev));
    row.push_back(csv_number(m.rate.seconds));
    row.push_back(m.declared.bytes() > 0 ? csv_number(m.declared.bytes()) : "");
    row.push_back(csv_number(scaled(m.rate.bytes_per_s, 1e9)));
    row.push_back(csv_number(scaled(m.rate.flop_per_s, 1e12)));
    row.push_back(csv_number(m.rate.ops_per_s));
    row.push_back(csv_number(m.rate.cycles_per_op));
    row.push_back(csv_number(m.rate.clock_mhz));
    row.push_back(m.ceiling ? m.ceiling->key : "");
    row.push_back(m.ceiling ? csv_number(m.ceiling->fraction) : "");
    row.push_back(m.ceiling ? to_string(m.ceiling->source) : "");
    row.push_back(m.declared.accounting);
    row.push_back(flags);
    const auto lim = counters::limiting_unit(m.counters);
    row.push_back(lim ? lim->unit : "");
    row.push_back(lim ? csv_number(lim->percent) : "");
    for (const auto& mv : metrics) row.push_back(csv_number(m.counters.get(mv.first)));
    out += csv_line(row);
  }
  return out;
}

}  // namespace cuprobe
