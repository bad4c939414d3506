// cuprobe/model/impl/curve.cuh: the definitions of cuprobe/model/curve.cuh's larger host functions.
// Not a header of its own: curve.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::model {

CUPROBE_DECL std::optional<double> window_median(const std::vector<curve_point>& c, double lo,
                                                 double hi) {
  std::vector<double> v;
  for (const auto& p : c)
    if (p.bytes >= lo && p.bytes <= hi) v.push_back(p.value);
  if (v.empty()) return std::nullopt;
  return median(v);
}

CUPROBE_DECL std::optional<double> peak_up_to(const std::vector<curve_point>& c, double hi) {
  std::optional<double> m;
  for (const auto& p : c)
    if (p.bytes <= hi && (!m || p.value > *m)) m = p.value;
  return m;
}

CUPROBE_DECL std::optional<double> reach(const std::vector<curve_point>& c, double upper,
                                         double lower) {
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

}  // namespace cuprobe::model
