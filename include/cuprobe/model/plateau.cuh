// cuprobe/model/plateau.cuh: the plateaus (flat regions) of a latency curve (host only).
//
//   std::vector<cuprobe::model::latency_point> curve = {{4096, 33}, {8192, 33}, {1 << 20, 280}};
//   for (const auto& p : cuprobe::model::find_plateaus(curve))
//     std::printf("%.0f .. %.0f B: %.1f cycles\n", p.first_bytes, p.last_bytes, p.level);
//   const auto plateaus = cuprobe::model::find_plateaus(curve);
//   std::printf("%s", cuprobe::model::describe(plateaus, /*sm_clock_mhz=*/1980).c_str());
//
// A point joins the current region while it stays within max(relative x level, absolute) of the
// region's median; docs/memory-latency.md explains the walk, the outliers and the merging.
// find_plateaus() takes any curve of latency_point; cuprobe_suite/latency.cuh builds one from its
// chase measurements.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/model/curve.cuh"

namespace cuprobe::model {

/// One measured point of a latency curve: working set and cycles per hop (as `value`).
using latency_point = curve_point;

/// A flat region of the curve: points first..last (indices), level = their median cycles.
struct plateau {
  /// The indices of the first and the last point in the curve (inclusive).
  ///@{
  std::size_t first = 0, last = 0;
  ///@}
  /// The working sets of the first and the last point, in bytes.
  ///@{
  double first_bytes = 0, last_bytes = 0;
  ///@}
  double level = 0;  ///< median cycles per hop of the member points
  /// The fewest and the most cycles per hop among the member points.
  ///@{
  double min_cycles = 0, max_cycles = 0;
  ///@}
  std::size_t points = 0;    ///< member points
  std::size_t outliers = 0;  ///< lone points inside the region left out of it
};

/// Tolerances of find_plateaus: a point belongs to the current region when it is within
/// max(relative x level, absolute) of the region's median.
struct plateau_options {
  double relative = 0.10;      ///< x level: the relative tolerance
  double absolute = 2.0;       ///< cycles: keeps tiny levels (shared memory) from splitting
  std::size_t min_points = 2;  ///< fewer member points: a transition, not a plateau
};

/// Finds the flat regions of a latency curve (points ordered by strictly increasing bytes):
/// walks the points, extending the current region while a point stays within tolerance of the
/// region's median; a lone point that departs while the next point returns is an outlier, not a
/// boundary; regions of fewer than min_points are transitions and dropped; neighbouring regions
/// at the same level (within tolerance) are merged.
CUPROBE_DECL std::vector<plateau> find_plateaus(const std::vector<latency_point>& curve,
                                                const plateau_options& o = {});

/// One line per plateau: "plateau 1: 4 KiB .. 128 KiB  33.0 cycles (6 points)"; with the SM
/// clock in MHz the level is given in ns too.
CUPROBE_DECL std::string describe(const std::vector<plateau>& ps, double sm_clock_mhz = 0);

}  // namespace cuprobe::model

#if CUPROBE_HEADER_BODIES
#include "cuprobe/model/impl/plateau.cuh"
#endif
