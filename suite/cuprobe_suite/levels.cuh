// cuprobe_suite/levels.cuh: the two levels of a series taken while a card changed state (a step in
// power or clock), by which the GEMM report splits its head-to-head rounds (gemm_report.cuh).
//
//   auto lv = cuprobe::suite::split_levels({1.39, 1.39, 1.56, 1.62});  // low {0, 1}, high {2, 3}
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

namespace cuprobe::suite {

/// Which indices of a series lie below the midpoint of its smallest and largest value (`low`)
/// and which not (`high`); both empty when there is no step.
struct two_levels {
  /// The indices of the samples below the midpoint, and of the others.
  ///@{
  std::vector<std::size_t> low, high;
  ///@}
  /// True when both levels hold samples.
  bool stepped() const { return !low.empty() && !high.empty(); }
};

/// The two levels of `series` (empty when max / min - 1 is at most `min_step`, or min is not > 0).
inline two_levels split_levels(const std::vector<double>& series, double min_step = 0.05) {
  two_levels r;
  if (series.empty()) return r;
  const auto [mn, mx] = std::minmax_element(series.begin(), series.end());
  if (!(*mn > 0) || *mx / *mn - 1 <= min_step) return r;
  const double mid = (*mn + *mx) / 2;
  for (std::size_t i = 0; i < series.size(); ++i) (series[i] < mid ? r.low : r.high).push_back(i);
  return r;
}

}  // namespace cuprobe::suite
