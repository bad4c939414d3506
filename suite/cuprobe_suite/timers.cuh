// cuprobe_suite/timers.cuh: the timer characterisation repeated, with the median and range
// of each quantity across repeats (examples/timers and device_report).
//
//   auto t = cuprobe::suite::timer_repeats({});
//   std::printf("%%clock64 read %.0f cycles, SM clock %.0f MHz\n",
//               t.median(&cuprobe::timer_characterisation::clock64_overhead_cycles),
//               t.median(&cuprobe::timer_characterisation::effective_sm_clock_mhz));
//
// Each repeat is a whole characterise_timers() (measure/timer_calibration.cuh): reader
// overheads, the %globaltimer tick, the event resolution and the effective SM clock over a
// window of clock_window_ms.
#pragma once

#include <optional>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/measure/timer_calibration.cuh"

namespace cuprobe::suite {

struct timer_repeat_options {
  unsigned repeats = 7;
  double clock_window_ms = 20;

  void validate() const {
    require(repeats >= 1 && repeats <= 1000, "timer_repeats: repeats must be 1 .. 1000");
    require(clock_window_ms >= 1 && clock_window_ms <= 10000,
            "timer_repeats: clock_window_ms must be 1 .. 10000");
  }
};

struct timer_repeats_result {
  std::vector<timer_characterisation> runs;

  using field = double timer_characterisation::*;
  std::vector<double> values(field f) const {
    std::vector<double> v;
    for (const auto& r : runs) v.push_back(r.*f);
    return v;
  }
  summary of(field f) const { return summarize(values(f)); }
  double median(field f) const { return of(f).median; }
  /// The median of NVML's SM clock read while the clock kernels ran; empty without NVML.
  std::optional<double> nvml_sm_clock_mhz() const {
    std::vector<double> v;
    for (const auto& r : runs)
      if (r.nvml_sm_clock_mhz) v.push_back(*r.nvml_sm_clock_mhz);
    if (v.empty()) return std::nullopt;
    return cuprobe::median(v);
  }
};

inline timer_repeats_result timer_repeats(const timer_repeat_options& o) {
  o.validate();
  timer_repeats_result r;
  for (unsigned i = 0; i < o.repeats; ++i) r.runs.push_back(characterise_timers(o.clock_window_ms));
  return r;
}

}  // namespace cuprobe::suite
