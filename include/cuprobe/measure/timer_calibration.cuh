// cuprobe/measure/timer_calibration.cuh: the SM clock actually seen, over a window.
//
//   cuprobe::timer_characterisation clk;
//   cuprobe::measure_effective_clock(clk, /*window_ms=*/20);
//   std::printf("SM clock %.0f MHz\n", clk.effective_sm_clock_mhz);  // NVML's: nvml_sm_clock_mhz
//
// One block per SM spins for the window on %globaltimer; clock64 delta / globaltimer delta per SM,
// median across SMs, beside NVML's reading taken while the kernel runs. What the timers
// themselves cost and resolve (reader overheads, the %globaltimer tick, the event resolution) is
// the suite's timer experiment, which fills the rest of timer_characterisation
// (cuprobe_suite/timers.cuh: characterise_timers).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/measure/environment.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe {

/// What the timers cost and resolve (suite::characterise_timers), and the SM clock seen
/// (measure_effective_clock).
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
CUPROBE_KEEP_KERNEL(clock_window_kernel, clock_window_kernel<0>)  // impl/ launches it

}  // namespace detail

/// The SM clock over a window of `window_ms`: one block per SM, clock64 over globaltimer.
CUPROBE_DECL void measure_effective_clock(timer_characterisation& c, double window_ms = 20);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/timer_calibration.cuh"
#endif
