// cuprobe/report/impl/csv.cuh: the definitions of cuprobe/report/csv.cuh's larger host functions.
// Not a header of its own: csv.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

CUPROBE_DECL std::string csv_line(const std::vector<std::string>& cells) {
  std::string out;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    if (i) out += ',';
    out += csv_cell(cells[i]);
  }
  return out + "\n";
}

CUPROBE_DECL std::string measurements_csv(const std::vector<measurement>& ms) {
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
