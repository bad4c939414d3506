// cuprobe/measure/flags.cuh: what makes a result suspicious, as pure logic (host-testable).
//
//   auto flags = cuprobe::evaluate_flags(in);   // in: rates, clocks, noise of one measurement
//   for (auto& f : flags) std::printf("%s: %s\n", f.code.c_str(), f.message.c_str());
//
// Codes: "throttling" (the SM clock fell below 90 % of its maximum while sampling, or NVML
// reported a power/thermal slowdown), "above_dram_peak" (bandwidth above the nominal DRAM
// peak although the working set was declared to be in DRAM: cache interference), "noisy"
// (relative standard deviation above the threshold), "clock_unknown" (no NVML clock reading:
// throttling could not be checked), "few_samples" (fewer than 3 samples).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace cuprobe {

struct flag {
  std::string code;
  std::string message;
};

/// Everything evaluate_flags() looks at. Unknown values are negative.
struct flag_inputs {
  double bytes_per_s = -1;
  bool dram_working_set = false;
  double nominal_dram_bytes_per_s = -1;
  int min_sm_clock_mhz = -1;  ///< lowest SM clock NVML reported during the samples
  int max_sm_clock_mhz = -1;  ///< the device's maximum SM clock (NVML)
  long long throttle_reasons = 0;  ///< OR of NVML clock event reasons seen (power/thermal bits)
  double rel_stdev = 0;
  double noise_threshold = 0.05;
  std::size_t samples = 0;
  double throttle_fraction = 0.90;
};

inline std::string percent(double x) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f %%", 100 * x);
  return b;
}

inline std::vector<flag> evaluate_flags(const flag_inputs& in) {
  std::vector<flag> out;
  if (in.min_sm_clock_mhz > 0 && in.max_sm_clock_mhz > 0) {
    if (in.min_sm_clock_mhz < in.throttle_fraction * in.max_sm_clock_mhz)
      out.push_back({"throttling", "SM clock fell to " + std::to_string(in.min_sm_clock_mhz) +
                                       " MHz, below " + percent(in.throttle_fraction) + " of its " +
                                       std::to_string(in.max_sm_clock_mhz) + " MHz maximum"});
  } else {
    out.push_back({"clock_unknown", "no SM clock reading (NVML unavailable): throttling not checked"});
  }
  if (in.throttle_reasons != 0 && (out.empty() || out.back().code != "throttling"))
    out.push_back({"throttling", "NVML reported a power or thermal clock slowdown during the samples"});
  if (in.dram_working_set && in.bytes_per_s > 0 && in.nominal_dram_bytes_per_s > 0 &&
      in.bytes_per_s > in.nominal_dram_bytes_per_s)
    out.push_back({"above_dram_peak",
                   "bandwidth is " + percent(in.bytes_per_s / in.nominal_dram_bytes_per_s) +
                       " of the nominal DRAM peak for a working set declared as DRAM: the caches "
                       "served part of it"});
  if (in.samples >= 2 && in.rel_stdev > in.noise_threshold)
    out.push_back({"noisy", "relative standard deviation " + percent(in.rel_stdev) +
                                " is above the " + percent(in.noise_threshold) + " threshold"});
  if (in.samples < 3)
    out.push_back({"few_samples", std::to_string(in.samples) + " sample(s): no statistics"});
  return out;
}

inline bool has_flag(const std::vector<flag>& flags, const std::string& code) {
  for (const auto& f : flags)
    if (f.code == code) return true;
  return false;
}

}  // namespace cuprobe
