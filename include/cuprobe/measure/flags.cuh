// cuprobe/measure/flags.cuh: what makes a result indefensible, as pure logic (host-testable).
//
//   auto flags = cuprobe::evaluate_flags(in);  // in: rates, sizes, clocks, noise of a measurement
//   for (auto& f : flags) std::printf("%s: %s\n", to_string(f.code), f.message.c_str());
//   bool noisy = cuprobe::has_flag(flags, cuprobe::flag_code::noisy);
//
// Each flag is a code (flag_code) and a sentence that names the numbers; docs/measurement.md lists
// every flag, when it fires and its sentence: throttling, clock_unknown, above_dram_peak,
// above_memory_peak, above_compute_peak, above_bus_rate (bus_rate_flag), cache_resident,
// working_set_unknown, launch_bound, debug_build, noisy, few_samples (the runner adds
// above_measured_ceiling and ceiling_stale, and from the hardware counters
// declared_work_mismatch, sector_model_mismatch, l2_coalesced and a counted cache_resident).
// Unknown inputs are std::optional: a flag whose inputs are unknown does not fire (and
// clock_unknown / working_set_unknown say what could not be checked).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "cuprobe/core/format.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// A flag's code: a name with a type of its own. The library's are the constants below
/// (flag_code::noisy, ...); an experiment may declare its own (flag_code{"host_delay"}).
struct flag_code {
  const char* name;  ///< what JSON, CSV and the table show: "throttling", "noisy", ...
  explicit constexpr flag_code(const char* n) : name(n) {}  ///< the code named `n`
  friend bool operator==(flag_code a, flag_code b) { return std::string_view(a.name) == b.name; }
  friend bool operator!=(flag_code a, flag_code b) { return !(a == b); }
  /// The library's codes (the list above).
  ///@{
  static const flag_code throttling, clock_unknown, above_dram_peak, above_memory_peak,
      above_compute_peak, above_bus_rate, cache_resident, working_set_unknown, launch_bound,
      debug_build, noisy, few_samples, above_measured_ceiling, ceiling_stale,
      declared_work_mismatch, sector_model_mismatch, l2_coalesced;
  ///@}
};
inline constexpr flag_code flag_code::throttling{"throttling"};
inline constexpr flag_code flag_code::clock_unknown{"clock_unknown"};
inline constexpr flag_code flag_code::above_dram_peak{"above_dram_peak"};
inline constexpr flag_code flag_code::above_memory_peak{"above_memory_peak"};
inline constexpr flag_code flag_code::above_compute_peak{"above_compute_peak"};
inline constexpr flag_code flag_code::above_bus_rate{"above_bus_rate"};
inline constexpr flag_code flag_code::cache_resident{"cache_resident"};
inline constexpr flag_code flag_code::working_set_unknown{"working_set_unknown"};
inline constexpr flag_code flag_code::launch_bound{"launch_bound"};
inline constexpr flag_code flag_code::debug_build{"debug_build"};
inline constexpr flag_code flag_code::noisy{"noisy"};
inline constexpr flag_code flag_code::few_samples{"few_samples"};
inline constexpr flag_code flag_code::above_measured_ceiling{"above_measured_ceiling"};
inline constexpr flag_code flag_code::ceiling_stale{"ceiling_stale"};
inline constexpr flag_code flag_code::declared_work_mismatch{"declared_work_mismatch"};
inline constexpr flag_code flag_code::sector_model_mismatch{"sector_model_mismatch"};
inline constexpr flag_code flag_code::l2_coalesced{"l2_coalesced"};
/// The code's name: "noisy".
inline const char* to_string(flag_code c) { return c.name; }

/// One warning about a measurement: its code and a sentence.
struct flag {
  flag_code code;       ///< which flag: flag_code::throttling, flag_code::noisy, ...
  std::string message;  ///< what was seen, with the numbers, in one sentence
};

/// DRAM work needs a working set of this x the L2 or more (cache_resident, ceiling_key_of).
inline constexpr double dram_l2_factor = 4;

/// Everything evaluate_flags() looks at.
struct flag_inputs {
  std::optional<double> bytes_per_s;                ///< the measured bytes per second (rates)
  std::optional<double> ops_per_s;                  ///< the measured operations per second (rates)
  bool dram_working_set = false;                    ///< the work is declared as coming from DRAM
  std::optional<double> working_set_bytes;          ///< the declared working set, in bytes
  std::optional<double> l2_bytes;                   ///< the device's L2 size, in bytes
  double dram_l2_factor = cuprobe::dram_l2_factor;  ///< DRAM work: working set >= this x L2
  bool in_kernel = false;                           ///< the kernel loops over the passes itself
  std::size_t iterations = 1;                       ///< passes one sample covers
  std::optional<double> nominal_dram_bytes_per_s;   ///< the device's nominal DRAM bandwidth
  std::optional<double> memory_peak_bytes_per_s;    ///< SMs x widest per-SM path x max clock
  std::optional<double> compute_peak_ops_per_s;     ///< peak model x SMs x max clock
  /// Work that crosses the host link: its nominal rate (the directions used) and name.
  ///@{
  std::optional<double> bus_bytes_per_s;
  std::string bus_name;
  ///@}
  std::optional<int> min_sm_clock_mhz;  ///< lowest SM clock NVML reported during the samples
  std::optional<int> max_sm_clock_mhz;  ///< the device's maximum SM clock (NVML)
  long long throttle_reasons = 0;   ///< OR of NVML clock event reasons seen (power/thermal bits)
  double throttle_fraction = 0.90;  ///< throttling below this fraction of the maximum SM clock
  std::optional<double> launch_floor_s;  ///< launch overhead of one sample (event-timed)
  std::optional<double> sample_s;        ///< median time of one sample (event-timed)
  double launch_share = 0.05;            ///< launch_bound above this share of a sample
  bool debug_build = false;              ///< the program carries cuprobe's device checks
  double rel_stdev = 0;                  ///< the relative standard deviation of the samples
  double noise_threshold = 0.05;         ///< noisy above this relative standard deviation
  std::size_t samples = 0;               ///< the number of samples taken
};

/// `x` as a percentage with one decimal: 0.123 is "12.3 %".
CUPROBE_DECL std::string percent(double x);

namespace detail {
CUPROBE_DECL std::string flag_number(double v, const char* unit);
}  // namespace detail

/// above_bus_rate: `bytes_per_s` above `bus_bytes_per_s`, the nominal rate of the host link `bus`
/// (the directions used) for work declared as crossing it; nothing when either is unknown.
CUPROBE_DECL std::optional<flag> bus_rate_flag(std::optional<double> bytes_per_s,
                                               std::optional<double> bus_bytes_per_s,
                                               const std::string& bus);

/// The flags the inputs raise, in the order of the list above.
CUPROBE_DECL std::vector<flag> evaluate_flags(const flag_inputs& in);

/// Whether `flags` holds one with this code.
CUPROBE_DECL bool has_flag(const std::vector<flag>& flags, flag_code code);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/flags.cuh"
#endif
