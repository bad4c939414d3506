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
#include "cuprobe/core/linkage.cuh"

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
CUPROBE_DECL const std::vector<metric_def>& sol_units();

/// Every set, in the order docs/counters.md lists them.
CUPROBE_DECL const std::vector<counter_set>& counter_sets();

/// The metrics every request counts besides its own: the range's time and SM clock.
CUPROBE_DECL const std::vector<metric_def>& always_counted();

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
CUPROBE_DECL std::string label_of(const std::string& metric);

/// True for a count that adds up over launches (".sum" rollups): kept per iteration.
CUPROBE_DECL bool is_count(std::string_view metric);

/// "dram, l2, l1, access, tensor, sol": the valid set names, for messages.
CUPROBE_DECL std::string set_names();

/// Parses a request ("" or "0" or "none": nothing). Throws cuprobe::error, one sentence naming
/// the bad item and the valid set names, for a name that is neither a set nor a metric-shaped
/// raw name (letters, digits, '_' and '.', with "__"). Whether the card has a raw metric is
/// checked where the chip is known (measure/cupti.cuh).
CUPROBE_DECL request parse(const std::string& spec);

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
CUPROBE_DECL std::vector<double> combine_ranges(const std::vector<std::string>& metrics,
                                                const std::vector<std::vector<double>>& ranges,
                                                const std::vector<double>& durations = {});

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
  CUPROBE_DECL std::optional<double> get(std::string_view metric) const;
};

/// Counted sectors per global load (`loads`) or store request, when the access set was counted.
CUPROBE_DECL std::optional<double> sectors_per_request(const result& r, bool loads = true);

/// The unit closest to its peak, and its share.
struct unit_share {
  std::string unit;    ///< "DRAM", "L2 slices", "L2 fabric", "L1/TEX data", "LSU", ...
  double percent = 0;  ///< its busy share of its peak over the profiled range
  std::string metric;  ///< the metric it was read from
};

/// The busiest of sol_units() that `r` counted (the `sol` set counts them all); empty when none.
CUPROBE_DECL std::optional<unit_share> limiting_unit(const result& r);

/// Every sol unit counted, busiest first.
CUPROBE_DECL std::vector<unit_share> unit_shares(const result& r);

}  // namespace cuprobe::counters

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/counter_sets.cuh"
#endif
