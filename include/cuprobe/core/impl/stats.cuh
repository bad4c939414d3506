// cuprobe/core/impl/stats.cuh: the definitions of cuprobe/core/stats.cuh's larger host functions.
// Not a header of its own: stats.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL double summary::percentile(double q) const {
  require(!sorted.empty(), "percentile of an empty sample set");
  require(q >= 0 && q <= 100, "percentile: q must be within 0..100");
  const double pos = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(pos));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = pos - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

CUPROBE_DECL summary summarize(std::vector<double> samples) {
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

CUPROBE_DECL double median(std::vector<double> values) {
  require(!values.empty(), "median: no values");
  return summarize(std::move(values)).median;
}

}  // namespace cuprobe
