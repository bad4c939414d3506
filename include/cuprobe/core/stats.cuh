// cuprobe/core/stats.cuh: summary statistics of samples: the library's one median.
//
//   auto s = cuprobe::summarize({1.0, 2.0, 4.0});   // min 1, median 2, mean 2.33, max 4 ...
//   double p90 = s.percentile(90);                   // linear interpolation between ranks
//   double m = cuprobe::median({3.0, 1.0, 2.0});     // 2: the same rule as summarize()
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
#include "cuprobe/core/linkage.cuh"

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
  CUPROBE_DECL double percentile(double q) const;
  /// (max - min) / median: the spread the report prints beside the median.
  double spread() const { return median != 0 ? (max - min) / median : 0; }
};

/// Summarises `samples`; throws cuprobe::error when there are none.
CUPROBE_DECL summary summarize(std::vector<double> samples);

/// The median of `values` (the mean of the middle two for an even count); throws when empty.
/// Every median in cuprobe is this one (summarize() uses the same rule).
CUPROBE_DECL double median(std::vector<double> values);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/stats.cuh"
#endif
