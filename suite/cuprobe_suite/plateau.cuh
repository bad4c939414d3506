// cuprobe_suite/plateau.cuh: the plateaus (flat regions) of a latency curve (host only), what the
// latency ladder reads its levels from.
//
//   std::vector<cuprobe::suite::latency_point> curve = {{4096, 33}, {8192, 33}, {1 << 20, 280}};
//   for (const auto& p : cuprobe::suite::find_plateaus(curve))
//     std::printf("%.0f .. %.0f B: %.1f cycles\n", p.first_bytes, p.last_bytes, p.level);
//   const auto plateaus = cuprobe::suite::find_plateaus(curve);
//   std::printf("%s", cuprobe::suite::describe(plateaus, /*sm_clock_mhz=*/1980).c_str());
//
// A point joins the current region while it stays within max(relative x level, absolute) of the
// region's median; docs/memory-latency.md explains the walk, the outliers and the merging.
// find_plateaus() takes any curve of latency_point; latency.cuh builds one from its chase
// measurements.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe_suite/curve.cuh"

namespace cuprobe::suite {

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
inline std::vector<plateau> find_plateaus(const std::vector<latency_point>& curve,
                                          const plateau_options& o = {}) {
  require(o.relative >= 0 && o.absolute >= 0 && o.min_points >= 1,
          "find_plateaus: tolerances must be >= 0 and min_points >= 1");
  for (std::size_t i = 0; i < curve.size(); ++i) {
    require(std::isfinite(curve[i].value) && curve[i].value >= 0,
            "find_plateaus: values (cycles) must be finite and non-negative");
    require(i == 0 || curve[i].bytes > curve[i - 1].bytes,
            "find_plateaus: the curve must be sorted by strictly increasing bytes");
  }
  auto near = [&](double v, double level) {
    return std::fabs(v - level) <= std::max(o.relative * level, o.absolute);
  };
  struct region {
    std::size_t first, last, outliers;
    std::vector<double> v;
  };
  std::vector<region> regions;
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const double v = curve[i].value;
    if (!regions.empty() && regions.back().last + 1 == i) {
      region& r = regions.back();
      const double level = median(r.v);
      if (near(v, level)) {
        r.v.push_back(v);
        r.last = i;
        continue;
      }
      if (r.v.size() >= 2 && i + 1 < curve.size() && near(curve[i + 1].value, level)) {
        ++r.outliers;
        r.last = i;
        continue;  // lone outlier: the region goes on
      }
    }
    regions.push_back({i, i, 0, {v}});
  }
  std::vector<region> kept;
  for (auto& r : regions) {
    if (r.v.size() < o.min_points) continue;
    if (!kept.empty() && kept.back().last + 2 >= r.first &&
        near(median(r.v), median(kept.back().v))) {
      region& k = kept.back();  // same level, at most one point apart: one plateau
      k.outliers += r.outliers + (r.first - k.last - 1);
      k.last = r.last;
      k.v.insert(k.v.end(), r.v.begin(), r.v.end());
      continue;
    }
    kept.push_back(std::move(r));
  }
  std::vector<plateau> out;
  for (const auto& r : kept) {
    plateau p;
    p.first = r.first;
    p.last = r.last;
    p.first_bytes = curve[r.first].bytes;
    p.last_bytes = curve[r.last].bytes;
    p.level = median(r.v);
    p.min_cycles = *std::min_element(r.v.begin(), r.v.end());
    p.max_cycles = *std::max_element(r.v.begin(), r.v.end());
    p.points = r.v.size();
    p.outliers = r.outliers;
    out.push_back(p);
  }
  return out;
}

/// One line per plateau: "plateau 1: 4 KiB .. 128 KiB  33.0 cycles (6 points)"; with the SM
/// clock in MHz the level is given in ns too.
inline std::string describe(const std::vector<plateau>& ps, double sm_clock_mhz = 0) {
  std::string s;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const plateau& p = ps[i];
    char line[192];
    std::snprintf(line, sizeof line, "plateau %zu: %s .. %s  %.1f cycles", i + 1,
                  fmt_bytes(p.first_bytes).c_str(), fmt_bytes(p.last_bytes).c_str(), p.level);
    s += line;
    if (sm_clock_mhz > 0) {
      std::snprintf(line, sizeof line, " = %.1f ns", p.level / sm_clock_mhz * 1e3);
      s += line;
    }
    std::snprintf(line, sizeof line, " (%zu points%s)\n", p.points,
                  p.outliers ? ", outliers left out" : "");
    s += line;
  }
  return s;
}

}  // namespace cuprobe::suite
