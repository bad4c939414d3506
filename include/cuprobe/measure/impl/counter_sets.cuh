// cuprobe/measure/impl/counter_sets.cuh: the definitions of cuprobe/measure/counter_sets.cuh's
// larger host functions. Not a header of its own: counter_sets.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe::counters {

CUPROBE_DECL const std::vector<metric_def>& sol_units() {
  static const std::vector<metric_def> u = {
      {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM"},
      {"lts__t_sectors.avg.pct_of_peak_sustained_elapsed", "L2 slices"},
      {"lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed", "L2 fabric"},
      {"lts__xbar2lts_cycles_active.avg.pct_of_peak_sustained_elapsed", "crossbar to L2"},
      {"lts__lts2xbar_cycles_active.avg.pct_of_peak_sustained_elapsed", "L2 to crossbar"},
      {"l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed", "L1/TEX data"},
      {"sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed", "LSU"},
      {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed", "tensor pipe"},
      {"sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_elapsed", "FMA pipe"},
      {"sm__inst_issued.avg.pct_of_peak_sustained_elapsed", "issue"},
  };
  return u;
}

CUPROBE_DECL const std::vector<counter_set>& counter_sets() {
  static const std::vector<counter_set> sets = {
      {"dram",
       "bytes DRAM read and wrote, and its busy share",
       {{"dram__bytes_read.sum", "DRAM bytes read"},
        {"dram__bytes_write.sum", "DRAM bytes written"},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM busy"}}},
      {"l2",
       "L2 sectors read and written, the SMs' lookups and what they received, slices and fabric",
       {{"lts__t_sectors_op_read.sum", "L2 sectors read"},
        {"lts__t_sectors_op_write.sum", "L2 sectors written"},
        {"lts__t_sectors_srcunit_tex_lookup_hit.sum", "L2 sectors hit (from the SMs)"},
        {"lts__t_sectors_srcunit_tex_lookup_miss.sum", "L2 sectors missed (from the SMs)"},
        {"lts__t_sectors_srcunit_tex_op_read.sum", "L2 sectors the SMs' reads looked up"},
        {"l1tex__m_xbar2l1tex_read_sectors.sum", "sectors the SMs received from the L2"},
        {"lts__t_sectors.avg.pct_of_peak_sustained_elapsed", "L2 slices busy"},
        {"lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed", "L2 fabric busy"}}},
      {"l1",
       "L1 hits and misses of global loads, data-stage wavefronts and busy share",
       {{"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum", "L1 sectors hit (loads)"},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum", "L1 sectors missed (loads)"},
        {"l1tex__data_pipe_lsu_wavefronts.sum", "L1 data wavefronts"},
        {"l1tex__data_pipe_lsu_wavefronts.avg.pct_of_peak_sustained_elapsed", "L1 data busy"},
        {"l1tex__throughput.avg.pct_of_peak_sustained_elapsed", "L1/TEX busy (any stage)"}}},
      {"access",
       "global requests and the sectors they touched, shared-memory wavefronts",
       {{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "global load requests"},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "global load sectors"},
        {"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "global store requests"},
        {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "global store sectors"},
        {"l1tex__data_pipe_lsu_wavefronts_mem_shared.sum", "shared-memory wavefronts"}}},
      {"tensor",
       "wgmma instructions and the tensor pipe's busy share",
       {{"sm__inst_executed_pipe_tensor_op_gmma.sum", "wgmma instructions (warp)"},
        {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed", "tensor pipe busy"},
        {"sm__pipe_shared_cycles_active.avg.pct_of_peak_sustained_elapsed",
         "shared pipe busy (fp64 + tensor)"}}},
      {"sol", "each unit's share of its peak, and so the limiting unit", sol_units()},
  };
  return sets;
}

CUPROBE_DECL const std::vector<metric_def>& always_counted() {
  static const std::vector<metric_def> a = {
      {"gpu__time_duration.sum", "profiled time"},
      {"sm__cycles_elapsed.avg.per_second", "SM clock"},
  };
  return a;
}

CUPROBE_DECL std::string label_of(const std::string& metric) {
  for (const auto& s : counter_sets())
    for (const auto& m : s.metrics)
      if (metric == m.name) return m.label;
  for (const auto& m : always_counted())
    if (metric == m.name) return m.label;
  return metric;
}

CUPROBE_DECL bool is_count(std::string_view metric) {
  const std::string_view suffix = ".sum";
  return metric.size() > suffix.size() &&
         metric.compare(metric.size() - suffix.size(), suffix.size(), suffix) == 0;
}

CUPROBE_DECL std::string set_names() {
  std::string s;
  for (const auto& c : counter_sets()) s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

CUPROBE_DECL request parse(const std::string& spec) {
  request r;
  r.spec = spec;
  if (spec.empty() || spec == "0" || spec == "none") return r;
  const auto add = [&](const std::string& m) {
    for (const auto& x : r.metrics)
      if (x == m) return;
    r.metrics.push_back(m);
  };
  std::size_t at = 0;
  while (at <= spec.size()) {
    std::size_t end = spec.find(',', at);
    if (end == std::string::npos) end = spec.size();
    std::string item = spec.substr(at, end - at);
    while (!item.empty() && item.front() == ' ') item.erase(0, 1);
    while (!item.empty() && item.back() == ' ') item.pop_back();
    at = end + 1;
    if (item.empty()) continue;
    const counter_set* set = nullptr;
    for (const auto& s : counter_sets())
      if (item == s.name) set = &s;
    if (set) {
      bool seen = false;
      for (const auto& s : r.sets) seen = seen || s == item;
      if (!seen) r.sets.push_back(item);
      continue;
    }
    bool shaped = item.find("__") != std::string::npos;
    for (char c : item)
      shaped = shaped && ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                          (c >= '0' && c <= '9') || c == '_' || c == '.');
    require(shaped, "counters: \"" + item + "\" is neither a counter set (" + set_names() +
                        ") nor a metric name as ncu spells it (e.g. dram__bytes_read.sum)");
    r.raw.push_back(item);
  }
  if (r.empty()) return r;
  for (const auto& s : counter_sets())
    for (const auto& name : r.sets)
      if (name == s.name)
        for (const auto& m : s.metrics) add(m.name);
  for (const auto& m : r.raw) add(m);
  for (const auto& m : always_counted()) add(m.name);
  return r;
}

CUPROBE_DECL std::vector<double> combine_ranges(const std::vector<std::string>& metrics,
                                                const std::vector<std::vector<double>>& ranges,
                                                const std::vector<double>& durations) {
  std::vector<double> out(metrics.size(), 0.0);
  double total = 0;
  for (double d : durations) total += d;
  const bool weighted = durations.size() == ranges.size() && total > 0;
  for (std::size_t i = 0; i < metrics.size(); ++i) {
    double sum = 0;
    for (std::size_t r = 0; r < ranges.size(); ++r)
      sum += is_count(metrics[i]) ? ranges[r][i]
             : weighted           ? ranges[r][i] * durations[r] / total
                                  : ranges[r][i] / double(ranges.size());
    out[i] = sum;
  }
  return out;
}

CUPROBE_DECL std::optional<double> result::get(std::string_view metric) const {
  for (const auto& x : values)
    if (x.metric == metric) return x.v;
  return std::nullopt;
}

CUPROBE_DECL std::optional<double> sectors_per_request(const result& r, bool loads) {
  const std::string op = loads ? "ld.sum" : "st.sum";
  const auto req = r.get("l1tex__t_requests_pipe_lsu_mem_global_op_" + op);
  const auto sec = r.get("l1tex__t_sectors_pipe_lsu_mem_global_op_" + op);
  if (!req || !sec || !(*req > 0)) return std::nullopt;
  return *sec / *req;
}

CUPROBE_DECL std::optional<unit_share> limiting_unit(const result& r) {
  std::optional<unit_share> best;
  for (const auto& u : sol_units())
    if (auto v = r.get(u.name))
      if (!best || *v > best->percent) best = unit_share{u.label, *v, u.name};
  return best;
}

CUPROBE_DECL std::vector<unit_share> unit_shares(const result& r) {
  std::vector<unit_share> all;
  for (const auto& u : sol_units())
    if (auto v = r.get(u.name)) all.push_back({u.label, *v, u.name});
  std::stable_sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.percent > b.percent; });
  return all;
}

}  // namespace cuprobe::counters
