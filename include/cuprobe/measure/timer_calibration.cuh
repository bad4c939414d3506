// cuprobe/measure/timer_calibration.cuh: what the timers themselves cost and resolve, and the
// SM clock actually seen.
//
//   auto c = cuprobe::characterise_timers();
//   std::printf("clock64 read: %.0f cycles, globaltimer tick: %.0f ns, SM clock %.0f MHz\n",
//               c.clock64_overhead_cycles, c.globaltimer_tick_ns, c.effective_sm_clock_mhz);
//
// - Reader overhead: cycles between two back-to-back reads of %clock (or %clock64), as the
//   counter itself sees them; for %globaltimer, the clock64 cycles around one read, minus the
//   clock64 overhead. Median over repeats.
// - %globaltimer tick: one thread reads %globaltimer in a tight loop and records each change;
//   the median change is the update interval, the smallest is reported too.
// - Event resolution: event pairs around kernels that sleep for spread-out durations; the
//   smallest gap between distinct elapsed times is the quantum cudaEventElapsedTime reports in.
// - Effective SM clock: one block per SM spins for `clock_window_ms` on %globaltimer; clock64
//   delta / globaltimer delta per SM, median across SMs, beside NVML's reading taken while the
//   kernel runs.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/measure/environment.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe {

/// What the timers cost and resolve, and the SM clock seen (characterise_timers()).
struct timer_characterisation {
  double clock32_overhead_cycles = 0;      ///< cycles of one %clock read
  double clock64_overhead_cycles = 0;      ///< cycles of one %clock64 read
  double globaltimer_overhead_cycles = 0;  ///< cycles of one %globaltimer read
  double globaltimer_tick_ns = 0;          ///< median interval between changes of %globaltimer
  double globaltimer_min_step_ns = 0;      ///< smallest change seen
  double event_resolution_us = 0;          ///< smallest gap between distinct event-timer readings
  double effective_sm_clock_mhz = 0;       ///< median across SMs
  /// The lowest and the highest SM clock across SMs.
  ///@{
  double effective_sm_clock_min_mhz = 0, effective_sm_clock_max_mhz = 0;
  ///@}
  int clock_window_sms = 0;                  ///< SMs that measured their clock
  double clock_window_ms = 0;                ///< how long each SM spun to measure it
  std::optional<int> nvml_sm_clock_mhz;      ///< NVML's SM clock read while the clock kernel ran
  std::optional<int> nvml_max_sm_clock_mhz;  ///< NVML's maximum SM clock
};

namespace detail {

enum class reader { clock32 = 0, clock64 = 1, globaltimer = 2 };

template <int R>
__global__ void reader_overhead_kernel(std::uint64_t* out, int repeats, std::uint64_t* sink) {
  std::uint64_t keep = 0;
  for (int i = 0; i < repeats; ++i) {
    std::uint64_t d;
    if constexpr (R == int(reader::clock32)) {
      const std::uint32_t a = ptx::clock32();
      const std::uint32_t b = ptx::clock32();
      d = b - a;
    } else if constexpr (R == int(reader::clock64)) {
      const std::uint64_t a = ptx::clock64();
      const std::uint64_t b = ptx::clock64();
      d = b - a;
    } else {
      const std::uint64_t a = ptx::clock64();
      keep += ptx::globaltimer();
      const std::uint64_t b = ptx::clock64();
      d = b - a;
    }
    if (threadIdx.x == 0) out[i] = d;
  }
  if (keep == 1) *sink = keep;  // never true in practice; keeps the globaltimer reads alive
}

template <int = 0>
__global__ void globaltimer_steps_kernel(std::uint64_t* steps, int n, long long max_polls) {
  std::uint64_t prev = ptx::globaltimer();
  int k = 0;
  for (long long p = 0; p < max_polls && k < n; ++p) {
    const std::uint64_t g = ptx::globaltimer();
    if (g != prev) {
      steps[k++] = g - prev;
      prev = g;
    }
  }
  for (; k < n; ++k) steps[k] = 0;
}

template <int = 0>
__global__ void sleep_kernel(std::uint64_t ns) {
  const std::uint64_t g0 = ptx::globaltimer();
  while (ptx::globaltimer() - g0 < ns) __nanosleep(200);
}

struct clock_window {
  std::uint64_t cycles, ns;
  std::uint32_t smid, pad;
};

template <int = 0>
__global__ void clock_window_kernel(clock_window* out, std::uint64_t window_ns) {
  if (threadIdx.x != 0) return;
  const std::uint64_t g0 = ptx::globaltimer();
  const std::uint64_t c0 = ptx::clock64();
  std::uint64_t g1 = g0;
  while (g1 - g0 < window_ns) g1 = ptx::globaltimer();
  const std::uint64_t c1 = ptx::clock64();
  out[blockIdx.x] = clock_window{c1 - c0, g1 - g0, ptx::smid(), 0};
}

template <int R>
double reader_median(int repeats) {
  device_buffer<std::uint64_t> out(repeats), sink(1);
  reader_overhead_kernel<R><<<1, 32>>>(out.data(), repeats, sink.data());
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
  c.clock32_overhead_cycles = detail::reader_median<int(detail::reader::clock32)>(repeats);
  c.clock64_overhead_cycles = detail::reader_median<int(detail::reader::clock64)>(repeats);
  c.globaltimer_overhead_cycles =
      detail::reader_median<int(detail::reader::globaltimer)>(repeats) - c.clock64_overhead_cycles;
}

/// %globaltimer's update interval (median and smallest change, ns).
inline void measure_globaltimer_tick(timer_characterisation& c, int changes = 512) {
  device_buffer<std::uint64_t> steps(changes);
  detail::globaltimer_steps_kernel<<<1, 1>>>(steps.data(), changes, 200000000ll);
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
    detail::sleep_kernel<<<1, 1, 0, s>>>(ns);
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

/// The SM clock over a window of `window_ms`: one block per SM, clock64 over globaltimer.
inline void measure_effective_clock(timer_characterisation& c, double window_ms = 20) {
  const auto dev = device_info::query();
  environment_probe probe(dev.uuid);
  device_buffer<detail::clock_window> out(dev.sm_count);
  out.zero();
  detail::clock_window_kernel<<<dev.sm_count, 32>>>(out.data(),
                                                    static_cast<std::uint64_t>(window_ms * 1e6));
  CUPROBE_CHECK_LAUNCH("cuprobe clock_window_kernel");
  // Read NVML while the kernel spins.
  sleep_s(window_ms / 2 * 1e-3);
  const auto s = probe.sample();
  synchronize_device("measure_effective_clock");
  std::vector<double> mhz;
  for (const auto& w : out.to_host())
    if (w.ns) mhz.push_back(static_cast<double>(w.cycles) / static_cast<double>(w.ns) * 1e3);
  require(!mhz.empty(), "clock window kernel recorded nothing");
  const auto st = summarize(mhz);
  c.effective_sm_clock_mhz = st.median;
  c.effective_sm_clock_min_mhz = st.min;
  c.effective_sm_clock_max_mhz = st.max;
  c.clock_window_sms = static_cast<int>(mhz.size());
  c.clock_window_ms = window_ms;
  c.nvml_sm_clock_mhz = s.sm_clock_mhz;
  c.nvml_max_sm_clock_mhz = s.max_sm_clock_mhz;
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

}  // namespace cuprobe
