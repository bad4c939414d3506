// cuprobe/measure/environment.cuh: the device's state around a measurement.
//
//   cuprobe::environment_probe probe;            // finds the current GPU in NVML
//   auto before = probe.sample();  ...  auto after = probe.sample();
//
// Readings come from NVML (measure/nvml.cuh, loaded at run time). Without NVML every reading
// says available = false and the reports print "unavailable".
#pragma once

#include <algorithm>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/measure/nvml.cuh"

namespace cuprobe {

/// The state of the GPU around one measurement.
struct environment {
  nvml_sample before, after;
  std::vector<int> sm_clock_mhz;  ///< NVML SM clock read after each sample (when enabled)
  long long throttle_reasons_seen = 0;  ///< OR of power/thermal reason bits seen

  int min_sm_clock_mhz() const {
    int m = -1;
    for (int c : sm_clock_mhz)
      if (c > 0 && (m < 0 || c < m)) m = c;
    for (int c : {before.sm_clock_mhz, after.sm_clock_mhz})
      if (c > 0 && (m < 0 || c < m)) m = c;
    return m;
  }
  /// The median of the SM clock readings taken during the samples (-1 without any).
  double median_sm_clock_mhz() const {
    std::vector<int> v;
    for (int c : sm_clock_mhz)
      if (c > 0) v.push_back(c);
    if (v.empty()) {
      if (after.sm_clock_mhz > 0) return after.sm_clock_mhz;
      return before.sm_clock_mhz;
    }
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
  }
  int max_sm_clock_mhz() const {
    return std::max(before.max_sm_clock_mhz, after.max_sm_clock_mhz);
  }
};

/// Reads the current GPU's state through NVML.
class environment_probe {
 public:
  explicit environment_probe(const std::string& uuid = device_info::query().uuid)
      : dev_(nvml::instance().device_by_uuid(uuid)) {}
  bool available() const noexcept { return dev_ != nullptr; }
  nvml_sample sample() const { return nvml::instance().sample(dev_); }
  int sm_clock_mhz() const { return nvml::instance().sm_clock_mhz(dev_); }
  /// The power/thermal bits of NVML's clock event reasons now (0 when none or unknown).
  long long throttle_bits() const {
    const long long r = nvml::instance().clock_event_reasons(dev_);
    return r > 0 ? (r & throttle_reason_mask) : 0;
  }

 private:
  nvml::device dev_;
};

}  // namespace cuprobe
