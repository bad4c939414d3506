// cuprobe_suite/curve.cuh: a measured curve against working set, and what the cache and latency
// experiments read off it (host only): the median over a window, the peak below a size, and the
// reach of a level.
//
//   std::vector<cuprobe::suite::curve_point> c = {{4096, 900}, {1 << 20, 880}, {1 << 30, 300}};
//   auto l2 = cuprobe::suite::window_median(c, 1 << 20, 16 << 20);     // 880
//   auto top = cuprobe::suite::peak_up_to(c, 256 << 10);                // 900
//   auto past = cuprobe::suite::reach(c, *l2, 300);                     // bytes where it falls
//
// Values are whatever the curve holds (GB/s, cycles per hop); every function returns an empty
// std::optional when the curve says nothing (no point in the window, no crossing).
#pragma once

#include <cmath>
#include <cstddef>
#include <optional>
#include <vector>

#include "cuprobe/core/stats.cuh"

namespace cuprobe::suite {

/// One measured point of a curve.
struct curve_point {
  double bytes = 0;  ///< working set
  double value = 0;  ///< GB/s, cycles per hop, ...
};

/// The median value of the points with bytes in [lo, hi].
inline std::optional<double> window_median(const std::vector<curve_point>& c, double lo,
                                           double hi) {
  std::vector<double> v;
  for (const auto& p : c)
    if (p.bytes >= lo && p.bytes <= hi) v.push_back(p.value);
  if (v.empty()) return std::nullopt;
  return median(v);
}

/// The largest value of the points with bytes <= hi.
inline std::optional<double> peak_up_to(const std::vector<curve_point>& c, double hi) {
  std::optional<double> m;
  for (const auto& p : c)
    if (p.bytes <= hi && (!m || p.value > *m)) m = p.value;
  return m;
}

/// A level's reach: the largest size past the curve's peak whose value is above sqrt(upper x
/// lower), interpolated in log-log space; empty when the curve never falls below it. It is the
/// capacity of a cache that evicts in LRU order; one that keeps part of a larger set reaches past.
inline std::optional<double> reach(const std::vector<curve_point>& c, double upper, double lower) {
  if (upper <= 0 || lower <= 0 || c.empty()) return std::nullopt;
  const double th = std::sqrt(upper * lower);
  std::size_t peak = 0;
  for (std::size_t i = 1; i < c.size(); ++i)
    if (c[i].value > c[peak].value) peak = i;
  for (std::size_t i = peak + 1; i < c.size(); ++i)
    if (c[i - 1].value >= th && c[i].value < th) {
      const double f = (std::log(c[i - 1].value) - std::log(th)) /
                       (std::log(c[i - 1].value) - std::log(c[i].value));
      return std::exp(std::log(c[i - 1].bytes) +
                      f * (std::log(c[i].bytes) - std::log(c[i - 1].bytes)));
    }
  return std::nullopt;
}

}  // namespace cuprobe::suite
