// cuprobe/measure/impl/stopping_rule.cuh: the definitions of cuprobe/measure/stopping_rule.cuh's
// larger host functions. Not a header of its own: stopping_rule.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL void stopping_rule::validate(const std::string& who) const {
  const std::string w = who + ": stopping_rule.";
  require(min_samples >= 1, w + "min_samples is 0; it must be at least 1");
  require(max_samples <= max_sample_limit,
          w + "max_samples is " + std::to_string(max_samples) + ", above the limit of " +
              std::to_string(max_sample_limit) + " (a negative number converted to size_t?)");
  require(min_samples <= max_samples, w + "min_samples (" + std::to_string(min_samples) +
                                          ") is above max_samples (" + std::to_string(max_samples) +
                                          ")");
  require(std::isfinite(min_time_s) && min_time_s >= 0 && min_time_s <= max_time_limit_s,
          w + "min_time_s is " + std::to_string(min_time_s) +
              "; it must be a finite number of seconds in 0 .. 86400");
  require(std::isfinite(timeout_s) && timeout_s > 0 && timeout_s <= max_time_limit_s,
          w + "timeout_s is " + std::to_string(timeout_s) +
              "; it must be a finite number of seconds in (0, 86400]");
  require(std::isfinite(max_rel_noise) && max_rel_noise >= 0,
          w + "max_rel_noise is " + std::to_string(max_rel_noise) +
              "; it must be a finite relative standard deviation >= 0 (0.01 = 1 %)");
}

CUPROBE_DECL auto stopping_rule::decide(const std::vector<double>& samples, double accumulated_s,
                                        double wall_s) const -> verdict {
  const std::size_t n = samples.size();
  if (n >= max_samples)
    return n >= min_samples && noise_ok(samples) ? verdict::converged : verdict::max_samples;
  if (n < min_samples) return wall_s >= timeout_s && n > 0 ? verdict::timeout : verdict::more;
  if (accumulated_s >= min_time_s && noise_ok(samples)) return verdict::converged;
  if (wall_s >= timeout_s) return verdict::timeout;
  return verdict::more;
}

CUPROBE_DECL bool stopping_rule::noise_ok(const std::vector<double>& samples) const {
  if (is_fixed()) return true;
  if (samples.size() < 2) return false;
  const double mean = std::accumulate(samples.begin(), samples.end(), 0.0) / samples.size();
  double ss = 0;
  for (double v : samples) ss += (v - mean) * (v - mean);
  const double sd = std::sqrt(ss / static_cast<double>(samples.size() - 1));
  return mean != 0 && sd / std::fabs(mean) <= max_rel_noise;
}

CUPROBE_DECL const char* to_string(stopping_rule::verdict v) {
  return v == stopping_rule::verdict::more          ? "more"
         : v == stopping_rule::verdict::converged   ? "converged"
         : v == stopping_rule::verdict::max_samples ? "max_samples"
         : v == stopping_rule::verdict::timeout     ? "timeout"
                                                    : "?";
}

}  // namespace cuprobe
