// cuprobe/measure/impl/flags.cuh: the definitions of cuprobe/measure/flags.cuh's larger host
// functions. Not a header of its own: flags.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::string percent(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", 100 * x);
  return b;
}

}  // namespace cuprobe

namespace cuprobe::detail {

CUPROBE_DECL std::string flag_number(double v, const char* unit) {
  char b[64];
  std::snprintf(b, sizeof b, "%.4g %s", v, unit);
  return b;
}

}  // namespace cuprobe::detail

namespace cuprobe {

CUPROBE_DECL std::optional<flag> bus_rate_flag(std::optional<double> bytes_per_s,
                                               std::optional<double> bus_bytes_per_s,
                                               const std::string& bus) {
  if (!bytes_per_s || !bus_bytes_per_s || *bytes_per_s <= *bus_bytes_per_s) return std::nullopt;
  return flag{flag_code::above_bus_rate,
              detail::flag_number(*bytes_per_s / 1e9, "GB/s") + " is " +
                  percent(*bytes_per_s / *bus_bytes_per_s) + " of the nominal " +
                  detail::flag_number(*bus_bytes_per_s / 1e9, "GB/s") + " of " +
                  (bus.empty() ? std::string("the host link") : bus) +
                  " for work declared as crossing it: a GPU cache served part of it, or the "
                  "declared bytes are wrong"};
}

CUPROBE_DECL std::vector<flag> evaluate_flags(const flag_inputs& in) {
  using detail::flag_number;
  std::vector<flag> out;
  if (in.min_sm_clock_mhz && in.max_sm_clock_mhz) {
    if (*in.min_sm_clock_mhz < in.throttle_fraction * *in.max_sm_clock_mhz)
      out.push_back(
          {flag_code::throttling, "SM clock fell to " + std::to_string(*in.min_sm_clock_mhz) +
                                      " MHz, below " + percent(in.throttle_fraction) + " of its " +
                                      std::to_string(*in.max_sm_clock_mhz) + " MHz maximum"});
  } else {
    out.push_back({flag_code::clock_unknown,
                   "no SM clock reading (NVML unavailable): throttling not checked"});
  }
  if (in.throttle_reasons != 0 && (out.empty() || out.back().code != flag_code::throttling))
    out.push_back({flag_code::throttling,
                   "NVML reported a power or thermal clock slowdown during the samples"});
  if (in.dram_working_set && in.bytes_per_s && in.nominal_dram_bytes_per_s &&
      *in.bytes_per_s > *in.nominal_dram_bytes_per_s)
    out.push_back({flag_code::above_dram_peak,
                   "bandwidth is " + percent(*in.bytes_per_s / *in.nominal_dram_bytes_per_s) +
                       " of the nominal DRAM peak (" +
                       flag_number(*in.nominal_dram_bytes_per_s / 1e9, "GB/s") +
                       ") for a working set declared as DRAM: the caches served part of it"});
  if (in.bytes_per_s && in.memory_peak_bytes_per_s && *in.bytes_per_s > *in.memory_peak_bytes_per_s)
    out.push_back({flag_code::above_memory_peak,
                   flag_number(*in.bytes_per_s / 1e9, "GB/s") + " is above " +
                       flag_number(*in.memory_peak_bytes_per_s / 1e9, "GB/s") +
                       ", every SM's widest path (L1/shared memory) at the maximum clock: the "
                       "declared bytes or iterations are wrong"});
  if (in.ops_per_s && in.compute_peak_ops_per_s &&
      *in.ops_per_s > 1.01 * *in.compute_peak_ops_per_s)  // 1 %: the clock's and timer's margin
    out.push_back({flag_code::above_compute_peak,
                   flag_number(*in.ops_per_s, "ops/s") +
                       " is more than 1 % above the peak model's " +
                       flag_number(*in.compute_peak_ops_per_s, "ops/s") +
                       " at the maximum clock: the declared work or iterations are wrong"});
  if (auto f = bus_rate_flag(in.bytes_per_s, in.bus_bytes_per_s, in.bus_name)) out.push_back(*f);
  if (in.dram_working_set) {
    if (!in.working_set_bytes) {
      out.push_back({flag_code::working_set_unknown,
                     "DRAM work declared no working set: whether it fits in the caches was not "
                     "checked (work::with_working_set)"});
    } else if (in.l2_bytes && *in.working_set_bytes < in.dram_l2_factor * *in.l2_bytes) {
      std::string m = "the working set of " + fmt_bytes(*in.working_set_bytes) + " is below " +
                      flag_number(in.dram_l2_factor, "x") + "the " + fmt_bytes(*in.l2_bytes) +
                      " L2 for work declared as DRAM";
      if (in.in_kernel && in.iterations > 1 && *in.working_set_bytes <= *in.l2_bytes)
        m += "; each of the " + std::to_string(in.iterations) +
             " passes in a launch after the first finds it in the L2";
      out.push_back({flag_code::cache_resident, m + ": the number is (partly) a cache figure"});
    }
  }
  if (in.launch_floor_s && in.sample_s && *in.sample_s > 0 &&
      *in.launch_floor_s > in.launch_share * *in.sample_s)
    out.push_back({flag_code::launch_bound,
                   "launch overhead (" + flag_number(*in.launch_floor_s * 1e6, "us") +
                       " per sample, measured on an empty kernel) is " +
                       percent(*in.launch_floor_s / *in.sample_s) + " of the " +
                       flag_number(*in.sample_s * 1e6, "us") + " sample, above " +
                       percent(in.launch_share) +
                       ": batch launches, replay a graph, or loop in the kernel"});
  if (in.debug_build)
    out.push_back({flag_code::debug_build,
                   "built with cuprobe's device checks (NDEBUG undefined, CUPROBE_DEBUG, or -G): "
                   "the timed kernels may carry checks, traps and local memory; build Release"});
  if (in.samples >= 2 && in.rel_stdev > in.noise_threshold)
    out.push_back({flag_code::noisy, "relative standard deviation " + percent(in.rel_stdev) +
                                         " is above the " + percent(in.noise_threshold) +
                                         " threshold"});
  if (in.samples < 3)
    out.push_back(
        {flag_code::few_samples, std::to_string(in.samples) + " sample(s): no statistics"});
  return out;
}

CUPROBE_DECL bool has_flag(const std::vector<flag>& flags, flag_code code) {
  for (const auto& f : flags)
    if (f.code == code) return true;
  return false;
}

}  // namespace cuprobe
