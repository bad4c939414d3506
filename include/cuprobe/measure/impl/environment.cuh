// cuprobe/measure/impl/environment.cuh: the definitions of cuprobe/measure/environment.cuh's larger
// host functions. Not a header of its own: environment.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::optional<int> environment::min_sm_clock_mhz() const {
  std::optional<int> m;
  auto take = [&](int c) { m = m ? std::min(*m, c) : c; };
  for (int c : sm_clock_mhz) take(c);
  if (before.sm_clock_mhz) take(*before.sm_clock_mhz);
  if (after.sm_clock_mhz) take(*after.sm_clock_mhz);
  return m;
}

CUPROBE_DECL std::optional<double> environment::median_sm_clock_mhz() const {
  if (!sm_clock_mhz.empty())
    return median(std::vector<double>(sm_clock_mhz.begin(), sm_clock_mhz.end()));
  if (after.sm_clock_mhz) return double(*after.sm_clock_mhz);
  if (before.sm_clock_mhz) return double(*before.sm_clock_mhz);
  return std::nullopt;
}

CUPROBE_DECL std::optional<int> environment::max_sm_clock_mhz() const {
  if (before.max_sm_clock_mhz && after.max_sm_clock_mhz)
    return std::max(*before.max_sm_clock_mhz, *after.max_sm_clock_mhz);
  return before.max_sm_clock_mhz ? before.max_sm_clock_mhz : after.max_sm_clock_mhz;
}

CUPROBE_DECL long long environment_probe::throttle_bits() const {
  const auto r = nvml::instance().clock_event_reasons(dev_);
  return r ? (*r & throttle_reason_mask) : 0;
}

}  // namespace cuprobe
