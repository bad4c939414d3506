// cuprobe/measure/stopping_rule.cuh: when the runner stops taking samples.
//
//   auto fixed = cuprobe::stopping_rule::fixed(20);                  // exactly 20 samples
//   auto adapt = cuprobe::stopping_rule::adaptive(0.5, 0.01);        // >= 0.5 s, <= 1 % noise
//   adapt.validate("my benchmark");                                  // throws with a sentence
//   if (adapt.decide(samples, accumulated_s, wall_s) != cuprobe::stopping_rule::verdict::more) ...
//
// Noise is the relative standard deviation of all samples so far (unit-free, so the rule works
// for samples in seconds, cycles, nanoseconds or values alike). `accumulated_s` is the time the
// samples themselves took: the timed GPU time for event-timed samples, the host wall time of
// the sampler calls for in-kernel samples.
#pragma once

#include <cmath>
#include <cstddef>
#include <numeric>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"

namespace cuprobe {

/// When to stop taking samples. Fixed count: min_samples == max_samples, min_time_s == 0.
/// Adaptive: keep sampling until at least min_samples were taken, at least min_time_s of
/// samples accumulated, and the relative standard deviation of the samples is at most
/// max_rel_noise; stop anyway at max_samples or after timeout_s of wall time.
struct stopping_rule {
  std::size_t min_samples = 10;  ///< the fewest samples taken
  std::size_t max_samples = 10;  ///< the most samples taken
  double min_time_s = 0;         ///< the least time the samples accumulate, in seconds
  double max_rel_noise = 0.01;   ///< the largest relative standard deviation that converges
  double timeout_s = 30;         ///< the wall time after which sampling stops anyway, in seconds

  /// The most samples a rule may ask for (a sample costs at least a few microseconds; ten
  /// million of them is already an hour of launch overhead).
  static constexpr std::size_t max_sample_limit = 10'000'000;
  /// The longest timeout_s and min_time_s accepted: one day.
  static constexpr double max_time_limit_s = 86400;

  /// A rule that takes exactly n samples.
  static stopping_rule fixed(std::size_t n) { return {n, n, 0, 0, max_time_limit_s}; }
  /// Sample for at least min_time_s until the relative noise is at most noise (>= min_n samples).
  static stopping_rule adaptive(double min_time_s, double noise, std::size_t min_n = 10,
                                std::size_t max_n = 10000, double timeout_s = 30) {
    return {min_n, max_n, min_time_s, noise, timeout_s};
  }

  /// Throws cuprobe::error naming the field, its value and the limit when the rule cannot be
  /// followed: 1 <= min_samples <= max_samples <= max_sample_limit; min_time_s and timeout_s
  /// finite, 0 <= min_time_s, 0 < timeout_s, both <= max_time_limit_s; max_rel_noise finite
  /// and >= 0.
  void validate(const std::string& who) const {
    const std::string w = who + ": stopping_rule.";
    require(min_samples >= 1, w + "min_samples is 0; it must be at least 1");
    require(max_samples <= max_sample_limit,
            w + "max_samples is " + std::to_string(max_samples) + ", above the limit of " +
                std::to_string(max_sample_limit) + " (a negative number converted to size_t?)");
    require(min_samples <= max_samples, w + "min_samples (" + std::to_string(min_samples) +
                                            ") is above max_samples (" +
                                            std::to_string(max_samples) + ")");
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

  /// Whether the rule takes a fixed number of samples.
  bool is_fixed() const { return min_samples == max_samples && min_time_s == 0; }

  /// What decide() says: take more samples, or why to stop.
  enum class verdict { more, converged, max_samples, timeout };

  /// What to do after `samples` (any unit), which took `accumulated_s` seconds themselves, over
  /// `wall_s` of wall-clock time since the measurement began.
  verdict decide(const std::vector<double>& samples, double accumulated_s, double wall_s) const {
    const std::size_t n = samples.size();
    if (n >= max_samples)
      return n >= min_samples && noise_ok(samples) ? verdict::converged : verdict::max_samples;
    if (n < min_samples) return wall_s >= timeout_s && n > 0 ? verdict::timeout : verdict::more;
    if (accumulated_s >= min_time_s && noise_ok(samples)) return verdict::converged;
    if (wall_s >= timeout_s) return verdict::timeout;
    return verdict::more;
  }

 private:
  bool noise_ok(const std::vector<double>& samples) const {
    if (is_fixed()) return true;
    if (samples.size() < 2) return false;
    const double mean = std::accumulate(samples.begin(), samples.end(), 0.0) / samples.size();
    double ss = 0;
    for (double v : samples) ss += (v - mean) * (v - mean);
    const double sd = std::sqrt(ss / static_cast<double>(samples.size() - 1));
    return mean != 0 && sd / std::fabs(mean) <= max_rel_noise;
  }
};

/// "more", "converged", "max_samples" or "timeout".
inline const char* to_string(stopping_rule::verdict v) {
  return v == stopping_rule::verdict::more          ? "more"
         : v == stopping_rule::verdict::converged   ? "converged"
         : v == stopping_rule::verdict::max_samples ? "max_samples"
         : v == stopping_rule::verdict::timeout     ? "timeout"
                                                    : "?";
}

}  // namespace cuprobe
