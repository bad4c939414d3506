// cuprobe/report/impl/results.cuh: the definitions of cuprobe/report/results.cuh's larger host
// functions. Not a header of its own: results.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL json to_json(const summary& s) {
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

CUPROBE_DECL json to_json(const counters::result& r) {
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

CUPROBE_DECL std::string limiting_text(const counters::result& r) {
  const auto l = counters::limiting_unit(r);
  return l ? l->unit + " " + fmt(l->percent, 0) + " %" : std::string();
}

CUPROBE_DECL json to_json(const measurement& m) {
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

CUPROBE_DECL std::string fmt_sample(double v, sample_unit u) {
  if (u == sample_unit::seconds || u == sample_unit::nanoseconds)
    return fmt_time(u == sample_unit::seconds ? v : v * 1e-9);
  if (u == sample_unit::cycles) return fmt(v, 1) + " cycles";
  char b[32];
  std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

CUPROBE_DECL json results::to_json() const {
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

CUPROBE_DECL void results::print_table(std::FILE* f) const {
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

CUPROBE_DECL void results::print_ceilings(std::FILE* f) const {
  std::vector<const measurement*> best;  // one per key, in the order first seen
  for (const auto& m : list_) {
    if (!m.ceiling) continue;
    auto it = std::find_if(best.begin(), best.end(),
                           [&](const measurement* b) { return b->ceiling->key == m.ceiling->key; });
    if (it == best.end())
      best.push_back(&m);
    else if (m.ceiling->fraction > (*it)->ceiling->fraction)
      *it = &m;
  }
  if (best.empty()) {
    std::fprintf(f, "of ceiling: none of these %zu measurements matches a ceiling\n", list_.size());
    return;
  }
  std::fprintf(f, "of ceiling (the best measurement per ceiling):\n");
  for (const measurement* m : best)
    std::fprintf(f, "  %-24s %.3f  %s  (%s%s)\n", m->ceiling->key.c_str(), m->ceiling->fraction,
                 m->name.c_str(), m->ceiling->source_text.c_str(),
                 m->ceiling->stale.empty() ? "" : "; STALE");
}

}  // namespace cuprobe
