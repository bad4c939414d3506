// cuprobe/measure/stats.cuh: summary statistics of samples, and the relative-noise stopping rule.
//
//   auto s = cuprobe::summarize({1.0, 2.0, 4.0});   // min 1, median 2, mean 2.33, max 4 ...
//   double p90 = s.percentile(90);                   // linear interpolation between ranks
//
// Percentiles interpolate linearly between closest ranks (p = q/100 x (n-1), the "type 7"
// estimator of R and NumPy's default), so the median of an even count is the mean of the two
// middle samples. The standard deviation is the sample standard deviation (n-1), 0 for one
// sample.
#pragma once

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "cuprobe/core/error.cuh"

namespace cuprobe {

/// Summary of a set of samples (any unit; the runner's samples are seconds per iteration).
struct summary {
  std::size_t count = 0;
  double min = 0, max = 0, mean = 0, median = 0;
  double stdev = 0;      ///< sample standard deviation (n - 1)
  double rel_stdev = 0;  ///< stdev / mean (0 when the mean is 0)
  double p05 = 0, p10 = 0, p25 = 0, p75 = 0, p90 = 0, p95 = 0, p99 = 0;
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

/// When to stop taking samples. Fixed count: min_samples == max_samples, min_time_s == 0.
/// Adaptive: keep sampling until at least min_samples were taken, at least min_time_s of
/// samples accumulated, and the relative standard deviation of the samples is at most
/// max_rel_noise; stop anyway at max_samples or after timeout_s of wall time.
struct stopping_rule {
  std::size_t min_samples = 10;
  std::size_t max_samples = 10;
  double min_time_s = 0;
  double max_rel_noise = 0.01;
  double timeout_s = 30;

  /// A rule that takes exactly n samples.
  static stopping_rule fixed(std::size_t n) { return {n, n, 0, 0, 1e30}; }
  /// Sample for at least min_time_s until the relative noise is at most noise (>= min_n samples).
  static stopping_rule adaptive(double min_time_s, double noise, std::size_t min_n = 10,
                                std::size_t max_n = 10000, double timeout_s = 30) {
    return {min_n, max_n, min_time_s, noise, timeout_s};
  }

  enum class verdict { more, converged, max_samples, timeout };

  /// What to do after `samples` (seconds each) taken over `wall_s` of wall-clock time.
  verdict decide(const std::vector<double>& samples, double wall_s) const {
    const std::size_t n = samples.size();
    if (n >= max_samples) return n >= min_samples && noise_ok(samples) ? verdict::converged
                                                                        : verdict::max_samples;
    if (n < min_samples) return wall_s >= timeout_s && n > 0 ? verdict::timeout : verdict::more;
    const double total = std::accumulate(samples.begin(), samples.end(), 0.0);
    if (total >= min_time_s && noise_ok(samples)) return verdict::converged;
    if (wall_s >= timeout_s) return verdict::timeout;
    return verdict::more;
  }

 private:
  bool noise_ok(const std::vector<double>& samples) const {
    if (min_samples == max_samples && min_time_s == 0) return true;  // fixed count
    if (samples.size() < 2) return false;
    const double mean = std::accumulate(samples.begin(), samples.end(), 0.0) / samples.size();
    double ss = 0;
    for (double v : samples) ss += (v - mean) * (v - mean);
    const double sd = std::sqrt(ss / static_cast<double>(samples.size() - 1));
    return mean != 0 && sd / std::fabs(mean) <= max_rel_noise;
  }
};

inline const char* to_string(stopping_rule::verdict v) {
  switch (v) {
    case stopping_rule::verdict::more: return "more";
    case stopping_rule::verdict::converged: return "converged";
    case stopping_rule::verdict::max_samples: return "max_samples";
    case stopping_rule::verdict::timeout: return "timeout";
  }
  return "?";
}

}  // namespace cuprobe
