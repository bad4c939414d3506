// cuprobe/measure/environment.cuh: the device's state around a measurement.
//
//   cuprobe::environment_probe probe;            // finds the current GPU in NVML
//   auto before = probe.sample();  ...  auto after = probe.sample();
//
// Readings come from NVML (measure/nvml.cuh, loaded at run time). Without NVML every reading
// says available = false, its fields are empty, and the reports print "unavailable".
#pragma once

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/measure/nvml.cuh"

namespace cuprobe {

/// The state of the GPU around one measurement.
struct environment {
  /// NVML's readings before the first and after the last sample.
  ///@{
  nvml_sample before, after;
  ///@}
  std::vector<int> sm_clock_mhz;        ///< NVML SM clock read after each sample (when enabled)
  long long throttle_reasons_seen = 0;  ///< OR of power/thermal reason bits seen

  /// The lowest SM clock read during the samples, before or after them.
  CUPROBE_DECL std::optional<int> min_sm_clock_mhz() const;
  /// The median of the SM clock readings taken during the samples (else the reading after
  /// them, else before).
  CUPROBE_DECL std::optional<double> median_sm_clock_mhz() const;
  /// The device's maximum SM clock, as NVML reported it before or after the samples.
  CUPROBE_DECL std::optional<int> max_sm_clock_mhz() const;
};

/// Reads the current GPU's state through NVML.
class environment_probe {
 public:
  /// Finds the GPU of this UUID (default: the current one) in NVML.
  explicit environment_probe(const std::string& uuid = device_info::query().uuid)
      : dev_(nvml::instance().device_by_uuid(uuid)) {}
  bool available() const noexcept { return dev_ != nullptr; }  ///< NVML found the GPU
  /// All of NVML's readings now.
  nvml_sample sample() const { return nvml::instance().sample(dev_); }
  /// The SM clock now, in MHz (unset when unknown).
  std::optional<int> sm_clock_mhz() const { return nvml::instance().sm_clock_mhz(dev_); }
  /// The power/thermal bits of NVML's clock event reasons now (0 when none or unknown).
  CUPROBE_DECL long long throttle_bits() const;

 private:
  nvml::device dev_;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/environment.cuh"
#endif
