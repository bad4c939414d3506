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
#include "cuprobe/core/linkage.cuh"

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
  CUPROBE_DECL void validate(const std::string& who) const;

  /// Whether the rule takes a fixed number of samples.
  bool is_fixed() const { return min_samples == max_samples && min_time_s == 0; }

  /// What decide() says: take more samples, or why to stop.
  enum class verdict { more, converged, max_samples, timeout };

  /// What to do after `samples` (any unit), which took `accumulated_s` seconds themselves, over
  /// `wall_s` of wall-clock time since the measurement began.
  CUPROBE_DECL verdict decide(const std::vector<double>& samples, double accumulated_s,
                              double wall_s) const;

 private:
  CUPROBE_DECL bool noise_ok(const std::vector<double>& samples) const;
};

/// "more", "converged", "max_samples" or "timeout".
CUPROBE_DECL const char* to_string(stopping_rule::verdict v);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/stopping_rule.cuh"
#endif
