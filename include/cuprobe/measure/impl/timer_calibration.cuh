// cuprobe/measure/impl/timer_calibration.cuh: the definitions of
// cuprobe/measure/timer_calibration.cuh's larger host functions. Not a header of its own:
// timer_calibration.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL void measure_effective_clock(timer_characterisation& c, double window_ms) {
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

}  // namespace cuprobe
