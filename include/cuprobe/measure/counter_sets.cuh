// cuprobe/measure/counter_sets.cuh: which hardware counters a measurement asks for, and what it
// keeps of them, as pure host logic (no CUPTI here; measure/cupti.cuh collects them).
//
//   auto req = cuprobe::counters::parse("dram,sol");        // throws one sentence on a bad name
//   for (const auto& m : req.metrics) std::printf("%s\n", m.c_str());
//   // after a measurement with run_options::counters = "dram,sol":
//   if (auto u = cuprobe::counters::limiting_unit(m.counters))
//     std::printf("what stops it: %s (%.0f %% of its peak)\n", u->unit.c_str(), u->percent);
//
// A request is a comma-separated list of set names (counter_sets(): dram, l2, l1, access, tensor,
// sol) and raw metric names (anything with "__", as ncu and CUPTI spell them:
// "lts__t_sectors.sum"). Every request also counts gpu__time_duration.sum and
// sm__cycles_elapsed.avg.per_second (the time and SM clock of the profiled range). Counts (".sum")
// are kept per iteration: divided by the launches and iterations one profiled sample covers;
// ratios, percentages and rates as counted. docs/counters.md describes every metric of every set.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuprobe/core/error.cuh"

namespace cuprobe::counters {

/// One metric of a set: its CUPTI name and what cuprobe calls it.
struct metric_def {
  const char* name;   ///< CUPTI / ncu metric name, with its rollup ("dram__bytes_read.sum")
  const char* label;  ///< short words for tables ("DRAM bytes read")
};

/// A named group of metrics.
struct counter_set {
  const char* name;                 ///< "dram", "l2", "l1", "access", "tensor", "sol"
  const char* what;                 ///< one line: what the set answers
  std::vector<metric_def> metrics;  ///< what it counts, in its order
};

/// The units the `sol` set compares, each as its busiest sub-unit's share of its peak over the
/// profiled range (pct_of_peak_sustained_elapsed): the limiting unit is the largest.
inline const std::vector<metric_def>& sol_units() {
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

/// Every set, in the order docs/counters.md lists them.
inline const std::vector<counter_set>& counter_sets() {
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

/// The metrics every request counts besides its own: the range's time and SM clock.
inline const std::vector<metric_def>& always_counted() {
  static const std::vector<metric_def> a = {
      {"gpu__time_duration.sum", "profiled time"},
      {"sm__cycles_elapsed.avg.per_second", "SM clock"},
  };
  return a;
}

/// A parsed request: the sets and raw names asked for, and every metric to collect (sets
/// first, in their order, then raw names, then always_counted(); each once).
struct request {
  std::string spec;                                           ///< as given, e.g. "dram,sol"
  std::vector<std::string> sets;                              ///< the set names in it
  std::vector<std::string> raw;                               ///< the raw metric names in it
  std::vector<std::string> metrics;                           ///< what to collect
  bool empty() const { return sets.empty() && raw.empty(); }  ///< nothing was asked for
};

/// The label of `metric` from the sets (or the metric itself for a raw name).
inline std::string label_of(const std::string& metric) {
  for (const auto& s : counter_sets())
    for (const auto& m : s.metrics)
      if (metric == m.name) return m.label;
  for (const auto& m : always_counted())
    if (metric == m.name) return m.label;
  return metric;
}

/// True for a count that adds up over launches (".sum" rollups): kept per iteration.
inline bool is_count(std::string_view metric) {
  const std::string_view suffix = ".sum";
  return metric.size() > suffix.size() &&
         metric.compare(metric.size() - suffix.size(), suffix.size(), suffix) == 0;
}

/// "dram, l2, l1, access, tensor, sol": the valid set names, for messages.
inline std::string set_names() {
  std::string s;
  for (const auto& c : counter_sets()) s += (s.empty() ? "" : ", ") + std::string(c.name);
  return s;
}

/// Parses a request ("" or "0" or "none": nothing). Throws cuprobe::error, one sentence naming
/// the bad item and the valid set names, for a name that is neither a set nor a metric-shaped
/// raw name (letters, digits, '_' and '.', with "__"). Whether the card has a raw metric is
/// checked where the chip is known (measure/cupti.cuh).
inline request parse(const std::string& spec) {
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

/// How the counter pass cuts its profiled ranges: `kernel`, every kernel of the sample its own
/// range (as ncu counts them), combined into one value per metric (combine_ranges); `sample`, one
/// range around the whole sample (graph launches, whose kernels CUPTI does not range one by one).
/// In a sample range, busy shares and rates include the host's gaps between the launches.
enum class range_kind { kernel, sample };
/// "kernel" or "sample".
inline const char* to_string(range_kind k) { return k == range_kind::kernel ? "kernel" : "sample"; }

/// One value per metric from the values of several ranges (ranges[r][i]: metric i in range r),
/// each range lasting durations[r]: counts (is_count) add up; everything else (shares, rates,
/// ratios) is the duration-weighted mean, or the plain mean when no duration is known.
inline std::vector<double> combine_ranges(const std::vector<std::string>& metrics,
                                          const std::vector<std::vector<double>>& ranges,
                                          const std::vector<double>& durations = {}) {
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

/// One counted value.
struct value {
  std::string metric;  ///< the CUPTI name
  std::string label;   ///< label_of(metric)
  double v = 0;        ///< per iteration for counts (is_count), else as counted
  std::string unit;    ///< CUPTI's dimension ("byte", "l2_sector", "percent", "nanosecond", ...)
};

/// What the counter pass of a measurement produced, or why there is none.
struct result {
  std::string spec;           ///< the request as given ("" when none was asked)
  std::vector<value> values;  ///< in the request's order
  std::size_t passes = 0;     ///< replay passes the set needed (each a re-run of one sample)
  range_kind range = range_kind::kernel;  ///< how the ranges were cut
  std::size_t ranges = 0;                 ///< how many were profiled (kernels, or 1 sample)
  /// Launches x iterations one profiled sample covers: what counts were divided by.
  double per_range = 1;
  std::string chip;     ///< the chip CUPTI named ("GH100")
  std::string missing;  ///< why there are no values, in one sentence ("" when there are)
  /// CUPTI's decoded counter data image, when the profiler keeps them (profiler::keep_images;
  /// for counters::save_image); not written to results.
  std::vector<std::uint8_t> image;

  bool asked() const { return !spec.empty(); }  ///< counters were asked for
  /// The value of `metric`, if counted.
  std::optional<double> get(std::string_view metric) const {
    for (const auto& x : values)
      if (x.metric == metric) return x.v;
    return std::nullopt;
  }
};

/// Counted sectors per global load (`loads`) or store request, when the access set was counted.
inline std::optional<double> sectors_per_request(const result& r, bool loads = true) {
  const std::string op = loads ? "ld.sum" : "st.sum";
  const auto req = r.get("l1tex__t_requests_pipe_lsu_mem_global_op_" + op);
  const auto sec = r.get("l1tex__t_sectors_pipe_lsu_mem_global_op_" + op);
  if (!req || !sec || !(*req > 0)) return std::nullopt;
  return *sec / *req;
}

/// The unit closest to its peak, and its share.
struct unit_share {
  std::string unit;    ///< "DRAM", "L2 slices", "L2 fabric", "L1/TEX data", "LSU", ...
  double percent = 0;  ///< its busy share of its peak over the profiled range
  std::string metric;  ///< the metric it was read from
};

/// The busiest of sol_units() that `r` counted (the `sol` set counts them all); empty when none.
inline std::optional<unit_share> limiting_unit(const result& r) {
  std::optional<unit_share> best;
  for (const auto& u : sol_units())
    if (auto v = r.get(u.name))
      if (!best || *v > best->percent) best = unit_share{u.label, *v, u.name};
  return best;
}

/// Every sol unit counted, busiest first.
inline std::vector<unit_share> unit_shares(const result& r) {
  std::vector<unit_share> all;
  for (const auto& u : sol_units())
    if (auto v = r.get(u.name)) all.push_back({u.label, *v, u.name});
  std::stable_sort(all.begin(), all.end(), [](auto& a, auto& b) { return a.percent > b.percent; });
  return all;
}

}  // namespace cuprobe::counters
