// cuprobe_suite/timers.cuh: what the timers cost and resolve (characterise_timers), and the
// characterisation repeated, with the median and range of each quantity across repeats
// (examples/timers and device_report).
//
//   auto t = cuprobe::suite::timer_repeats({});
//   std::printf("%%clock64 read %.0f cycles, SM clock %.0f MHz\n",
//               t.median(&cuprobe::timer_characterisation::clock64_overhead_cycles),
//               t.median(&cuprobe::timer_characterisation::effective_sm_clock_mhz));
//
// characterise_timers(): the reader overheads (cycles between two back-to-back reads of %clock or
// %clock64, as the counter itself sees them; for %globaltimer, the clock64 cycles around one read
// minus the clock64 overhead; median over repeats), the %globaltimer tick (one thread records
// each change in a tight loop: the median change is the update interval, the smallest is kept
// too), the event resolution (event pairs around kernels that sleep for spread-out durations: the
// smallest gap between distinct elapsed times is the quantum cudaEventElapsedTime reports in),
// and the library's measure_effective_clock over clock_window_ms (measure/timer_calibration.cuh).
// The kernels: cuprobe_suite/kernels/timers.cuh. Each repeat is a whole characterise_timers().
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/measure/timer_calibration.cuh"
#include "cuprobe_suite/kernels/timers.cuh"

namespace cuprobe::suite {

namespace detail {
template <int R>
double reader_median(int repeats) {
  device_buffer<std::uint64_t> out(repeats), sink(1);
  kernels::reader_overhead_kernel<R><<<1, 32>>>(out.data(), repeats, sink.data());
  CUPROBE_CHECK_LAUNCH("cuprobe reader_overhead_kernel");
  synchronize_device("timer calibration (register reads)");
  const auto h = out.to_host();
  // The first reads pay instruction-cache misses: use the second half.
  std::vector<double> v(h.begin() + repeats / 2, h.end());
  return summarize(v).median;
}
}  // namespace detail

/// Reader overheads in cycles: {clock32, clock64, globaltimer}.
inline void measure_reader_overheads(timer_characterisation& c, int repeats = 256) {
  c.clock32_overhead_cycles = detail::reader_median<int(kernels::reader::clock32)>(repeats);
  c.clock64_overhead_cycles = detail::reader_median<int(kernels::reader::clock64)>(repeats);
  c.globaltimer_overhead_cycles =
      detail::reader_median<int(kernels::reader::globaltimer)>(repeats) - c.clock64_overhead_cycles;
}

/// %globaltimer's update interval (median and smallest change, ns).
inline void measure_globaltimer_tick(timer_characterisation& c, int changes = 512) {
  device_buffer<std::uint64_t> steps(changes);
  kernels::globaltimer_steps_kernel<<<1, 1>>>(steps.data(), changes, 200000000ll);
  CUPROBE_CHECK_LAUNCH("cuprobe globaltimer_steps_kernel");
  synchronize_device("measure_globaltimer_tick");
  std::vector<double> v;
  for (auto s : steps.to_host())
    if (s) v.push_back(static_cast<double>(s));
  require(!v.empty(), "globaltimer did not change within the polling budget");
  const auto st = summarize(v);
  c.globaltimer_tick_ns = st.median;
  c.globaltimer_min_step_ns = st.min;
}

/// The smallest gap between distinct event-timer readings of kernels sleeping 0..20 us (us).
inline double event_timer_resolution_us(int pairs = 400) {
  cuda_stream s;
  event_timer t(s);
  std::vector<double> ms;
  for (int i = 0; i < pairs; ++i) {
    const std::uint64_t ns = static_cast<std::uint64_t>((i * 7919) % 20000);  // spread 0..20 us
    t.start();
    kernels::sleep_kernel<<<1, 1, 0, s>>>(ns);
    t.stop();
    CUPROBE_CHECK_LAUNCH("cuprobe sleep_kernel");
    ms.push_back(t.milliseconds());
  }
  std::sort(ms.begin(), ms.end());
  double best = 0;
  for (std::size_t i = 1; i < ms.size(); ++i) {
    const double gap = ms[i] - ms[i - 1];
    if (gap > 1e-6 && (best == 0 || gap < best)) best = gap;  // > 1 ns: distinct readings
  }
  return best * 1e3;
}

/// All of the above.
inline timer_characterisation characterise_timers(double clock_window_ms = 20) {
  timer_characterisation c;
  measure_reader_overheads(c);
  measure_globaltimer_tick(c);
  c.event_resolution_us = event_timer_resolution_us();
  measure_effective_clock(c, clock_window_ms);
  return c;
}

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
