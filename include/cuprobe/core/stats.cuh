// cuprobe/core/stats.cuh: summary statistics of samples: the library's one median.
//
//   auto s = cuprobe::summarize({1.0, 2.0, 4.0});   // min 1, median 2, mean 2.33, max 4 ...
//   double p90 = s.percentile(90);                   // linear interpolation between ranks
//   double m = cuprobe::median({3.0, 1.0, 2.0});     // 2: the same rule as summarize()
//   auto lv = cuprobe::split_levels({1.39, 1.39, 1.56, 1.62});  // low {0, 1}, high {2, 3}
//
// Percentiles interpolate linearly between closest ranks (p = q/100 x (n-1), the "type 7"
// estimator of R and NumPy's default), so the median of an even count is the mean of the two
// middle samples. The standard deviation is the sample standard deviation (n-1), 0 for one
// sample.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <vector>

#include "cuprobe/core/error.cuh"

namespace cuprobe {

/// Summary of a set of samples (any unit: the runner keeps each measurement's samples in the
/// unit they were taken in, seconds, cycles, nanoseconds or a value).
struct summary {
  std::size_t count = 0;  ///< the number of samples
  /// The smallest, the largest, the mean and the median sample.
  ///@{
  double min = 0, max = 0, mean = 0, median = 0;
  ///@}
  double stdev = 0;      ///< sample standard deviation (n - 1)
  double rel_stdev = 0;  ///< stdev / mean (0 when the mean is 0)
  /// The 5th, 10th, 25th, 75th, 90th, 95th and 99th percentiles.
  ///@{
  double p05 = 0, p10 = 0, p25 = 0, p75 = 0, p90 = 0, p95 = 0, p99 = 0;
  ///@}
  std::vector<double> sorted;  ///< the samples, ascending

  /// The q-th percentile (0..100), interpolated linearly between closest ranks.
  double percentile(double q) const {
    require(!sorted.empty(), "percentile of an empty sample set");
    require(q >= 0 && q <= 100, "percentile: q must be within 0..100");
    const double pos = q / 100.0 * static_cast<double>(sorted.size() - 1);
    const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    const double frac = pos - static_cast<double>(lo);
    return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
  }
  /// (max - min) / median: the spread the report prints beside the median.
  double spread() const { return median != 0 ? (max - min) / median : 0; }
};

/// Summarises `samples`; throws cuprobe::error when there are none.
inline summary summarize(std::vector<double> samples) {
  require(!samples.empty(), "summarize: no samples");
  summary s;
  std::sort(samples.begin(), samples.end());
  s.count = samples.size();
  s.min = samples.front();
  s.max = samples.back();
  s.mean = std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(s.count);
  double ss = 0;
  for (double v : samples) ss += (v - s.mean) * (v - s.mean);
  s.stdev = s.count > 1 ? std::sqrt(ss / static_cast<double>(s.count - 1)) : 0.0;
  s.rel_stdev = s.mean != 0 ? s.stdev / std::fabs(s.mean) : 0.0;
  s.sorted = std::move(samples);
  s.median = s.percentile(50);
  s.p05 = s.percentile(5);
  s.p10 = s.percentile(10);
  s.p25 = s.percentile(25);
  s.p75 = s.percentile(75);
  s.p90 = s.percentile(90);
  s.p95 = s.percentile(95);
  s.p99 = s.percentile(99);
  return s;
}

/// The median of `values` (the mean of the middle two for an even count); throws when empty.
/// Every median in cuprobe is this one (summarize() uses the same rule).
inline double median(std::vector<double> values) {
  require(!values.empty(), "median: no values");
  return summarize(std::move(values)).median;
}

/// The two levels of a series taken while a card changed state (a step in power or clock):
/// which indices of `series` lie below the midpoint of its smallest and largest value (`low`)
/// and which not (`high`). Empty (no step) when max / min - 1 is at most `min_step`.
struct two_levels {
  /// The indices of the samples below the midpoint, and of the others.
  ///@{
  std::vector<std::size_t> low, high;
  ///@}
  /// True when both levels hold samples.
  bool stepped() const { return !low.empty() && !high.empty(); }
};
/// The two levels of `series` (empty when max / min - 1 is at most `min_step`).
inline two_levels split_levels(const std::vector<double>& series, double min_step = 0.05) {
  two_levels r;
  if (series.empty()) return r;
  const auto [mn, mx] = std::minmax_element(series.begin(), series.end());
  if (!(*mn > 0) || *mx / *mn - 1 <= min_step) return r;
  const double mid = (*mn + *mx) / 2;
  for (std::size_t i = 0; i < series.size(); ++i) (series[i] < mid ? r.low : r.high).push_back(i);
  return r;
}

}  // namespace cuprobe
