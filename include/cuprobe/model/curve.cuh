// cuprobe/model/curve.cuh: a measured curve against working set, and what is read off it
// (host only): the median over a window, the peak below a size, and the capacity where the
// curve crosses from one level to the next.
//
//   std::vector<cuprobe::model::curve_point> c = {{4096, 900}, {1 << 20, 880}, {1 << 30, 300}};
//   auto l2 = cuprobe::model::window_median(c, 1 << 20, 16 << 20);     // 880
//   auto top = cuprobe::model::peak_up_to(c, 256 << 10);                // 900
//   auto cap = cuprobe::model::capacity(c, *l2, 300);                   // bytes where it falls
//
// Values are whatever the curve holds (GB/s, cycles per hop); every function returns an empty
// std::optional when the curve says nothing (no point in the window, no crossing).
#pragma once

#include <cmath>
#include <optional>
#include <vector>

#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/stats.cuh"

namespace cuprobe::model {

/// One measured point of a curve.
struct curve_point {
  double bytes = 0;  ///< working set
  double value = 0;  ///< GB/s, cycles per hop, ...
};

/// The median value of the points with bytes in [lo, hi].
CUPROBE_DECL std::optional<double> window_median(const std::vector<curve_point>& c, double lo,
                                                 double hi);

/// The largest value of the points with bytes <= hi.
CUPROBE_DECL std::optional<double> peak_up_to(const std::vector<curve_point>& c, double hi);

/// A level's reach: the largest size past the curve's peak whose value is above sqrt(upper x
/// lower), interpolated in log-log space; empty when the curve never falls below it. It is the
/// capacity of a cache that evicts in LRU order; one that keeps part of a larger set reaches past.
CUPROBE_DECL std::optional<double> reach(const std::vector<curve_point>& c, double upper,
                                         double lower);

}  // namespace cuprobe::model

#if CUPROBE_HEADER_BODIES
#include "cuprobe/model/impl/curve.cuh"
#endif
