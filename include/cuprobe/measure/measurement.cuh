// cuprobe/measure/measurement.cuh: what a measurement declares, how it runs, and what it keeps.
//
//   cuprobe::work w = cuprobe::work::bytes_moved(16.0 * n, 16.0 * n, "copy: N read + N written")
//                         .with_source(cuprobe::data_source::dram).with_working_set(32.0 * n);
//   cuprobe::run_options o;  o.stop = cuprobe::stopping_rule::fixed(10);
//   cuprobe::measurement m = cuprobe::measure("copy", launch, w, o);       // measure/runner.cuh
//   std::printf("%s: median %g %s, %.0f GB/s\n", m.name.c_str(), m.stats.median,
//               cuprobe::to_string(m.unit), m.gb_per_s());
//
// Units: every sample is kept in the unit it was taken in (sample_unit): seconds (CUDA events
// around launches), cycles (%clock64 inside the kernel), nanoseconds (%globaltimer inside the
// kernel) or a value the kernel computes. Samples are per iteration: divided by the
// iterations (and, for event-timed samples, the launches) one sample covers. Rates derive from
// the median and the declared work; cycles convert to seconds with the clock in rates.clock_mhz
// (given, else the median NVML SM clock during the samples, else the device's maximum).
// "Not known" is std::optional throughout (JSON null, "-" in tables).
#pragma once

#include <cuda_runtime_api.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/box.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/measure/ceilings.cuh"
#include "cuprobe/measure/counter_sets.cuh"
#include "cuprobe/measure/environment.cuh"
#include "cuprobe/measure/flags.cuh"
#include "cuprobe/measure/stopping_rule.cuh"
#include "cuprobe/model/op_kind.cuh"

namespace cuprobe {

/// The unit one sample is taken in.
enum class sample_unit {
  seconds,      ///< CUDA events around launches (measure())
  cycles,       ///< SM cycles from %clock64 inside the kernel (measure_samples())
  nanoseconds,  ///< %globaltimer inside the kernel (measure_samples())
  value,        ///< a number the kernel computes, not a time (measure_samples())
};
/// "seconds", "cycles", "nanoseconds" or "value".
CUPROBE_DECL const char* to_string(sample_unit u);

/// What the callable or sampler is told on each call.
struct launch_context {
  cudaStream_t stream = nullptr;  ///< the stream to launch on
  std::size_t sample = 0;         ///< index of the sample (0 during warm-up)
  std::size_t rotation = 0;       ///< which input set to use: 0 .. run_options::rotations - 1
  bool warmup = false;            ///< true during the untimed warm-up calls
};

/// Where the bytes of a work declaration are meant to come from. `dram`: from DRAM, and the flags
/// check it (a working set that fits in the L2, or a rate only a cache reaches, is flagged);
/// `l2`, `l1`, `shared`: from that level (the rate is placed against its ceiling:
/// measure/ceilings.cuh); `any`: no claim about the level (a declared working set above the L2
/// still places the rate against the DRAM ceiling; one within it has no ceiling).
enum class data_source { any, dram, l2, l1, shared };

/// "any", "dram", "l2", "l1", "shared".
CUPROBE_DECL const char* to_string(data_source s);

/// What one iteration does, as the user declares it: the rates are derived from this, and the
/// flags check it against the device (docs/measurement.md lists each flag).
struct work {
  /// Bytes one iteration reads and writes.
  ///@{
  double bytes_read = 0, bytes_written = 0;
  ///@}
  double flops = 0;        ///< floating-point operations of one iteration
  double ops = 0;          ///< operations for ops/s and cycles/op (instructions, hops, ...)
  std::string accounting;  ///< which bytes or operations count, in words
  data_source source = data_source::any;  ///< where the bytes come from (with_source)
  /// Bytes one pass touches (every array, once): checked against the L2 for DRAM work.
  std::optional<double> working_set_bytes;
  /// The peak-model row of the counted ops (instructions): ops/s above its peak is flagged.
  std::optional<model::op_kind> op_kind;
  /// The wgmma input type of tensor-core FLOP: places the FLOP rate against its tensor ceiling.
  std::optional<model::tensor_type> tensor_type;
  std::optional<double> load_sectors_per_request;   ///< sectors per load request (model/access.cuh)
  std::optional<double> store_sectors_per_request;  ///< sectors per store request
  std::optional<double> dram_bytes_read;     ///< DRAM bytes read per iteration, if not the declared
  std::optional<double> dram_bytes_written;  ///< DRAM bytes written per iteration, likewise

  double bytes() const { return bytes_read + bytes_written; }  ///< bytes read + written
  /// Work that moves `read` + `written` bytes, counted as `accounting` says; with_source and
  /// with_working_set say where from and how many bytes one pass touches.
  CUPROBE_DECL static work bytes_moved(double read, double written, std::string accounting);
  /// Work of `flops` FLOP in `instructions` instructions (the ops), counted as `accounting` says.
  CUPROBE_DECL static work flop_count(double flops, double instructions, std::string accounting);
  /// Work of `ops` operations (instructions, hops, ...), counted as `accounting` says.
  CUPROBE_DECL static work op_count(double ops, std::string accounting);
  /// Sets where the bytes come from (source).
  work& with_source(data_source s) {
    source = s;
    return *this;
  }
  /// Sets the bytes one pass touches (working_set_bytes).
  work& with_working_set(double bytes) {
    working_set_bytes = bytes;
    return *this;
  }
  /// Sets the peak-model row of the counted ops (op_kind).
  work& with_op_kind(model::op_kind k) {
    op_kind = k;
    return *this;
  }
  /// Declares the FLOP as tensor-core FLOP of wgmma input type `t` (tensor_type).
  work& with_tensor(model::tensor_type t) {
    tensor_type = t;
    return *this;
  }
  /// Declares the sector model: sectors per global load request and, optionally, per store
  /// request (load_sectors_per_request, store_sectors_per_request).
  CUPROBE_DECL work& with_sector_model(std::optional<double> load,
                                       std::optional<double> store = {});
  /// Declares the DRAM bytes one iteration is modelled to read and write.
  CUPROBE_DECL work& with_dram_model(double read, double written);
};

/// How the protocol runs. validate_options() (measure/runner.cuh) checks every field against
/// the limits stated here before anything runs.
struct run_options {
  std::size_t warmup = 3;  ///< untimed calls before the samples (launches, or sampler calls)
  stopping_rule stop = stopping_rule::fixed(20);  ///< how many samples
  /// launches: one pass per launch, `iterations` must be 1; in_kernel: the kernel (or sampler)
  /// makes `iterations` passes itself and each sample is divided by it.
  loop_mode mode = loop_mode::launches;
  std::size_t iterations = 1;     ///< passes one sample covers (in_kernel); 1 .. 2^40
  std::size_t batch = 1;          ///< launches per event-timed sample (divided out); 1 .. 2^20
  bool graph = false;             ///< capture the batch as CUDA graphs and replay them
  bool flush_l2 = false;          ///< evict the L2 before each sample (outside the timed region)
  std::size_t rotations = 1;      ///< launch_context::rotation cycles 0 .. rotations - 1; <= 2^16
  bool profile = false;           ///< one call, no warm-up (for ncu); CUPROBE_PROFILE=1 sets it too
  bool nvtx = true;               ///< NVTX range named after the measurement
  bool sample_clocks = true;      ///< read NVML's SM clock after every sample
  double noise_threshold = 0.05;  ///< "noisy" above this relative standard deviation; 0 .. 10
  std::optional<double> clock_mhz;  ///< clock for cycles <-> seconds; unset: NVML median
  /// Idle time before each timed sample (not the warm-up), once the stream has drained, so each
  /// starts on a rested card (docs/measurement.md, "Rested samples"); 0 .. 60000 ms.
  double rest_ms = 0;
  cudaStream_t stream = nullptr;  ///< nullptr: the runner uses a stream of its own
  /// Hardware counters to collect in a pass of their own after the timed samples: set names
  /// (dram, l2, l1, access, tensor, sol) and raw metric names, comma-separated
  /// (measure/counter_sets.cuh, docs/counters.md). "": the environment's CUPROBE_COUNTERS, else
  /// none; "none": none, whatever the environment says.
  std::string counters;
  /// The per-sample hook: called after each timed sample (not the warm-up) once the runner's
  /// stream has finished its work, outside the timed region, with the sample's launch_context.
  /// Read the kernel's own records here (region_timer::read, clock_mhz_of, counters) and keep
  /// them beside the sample: `ctx.sample` is the index of the sample just taken. Its time counts
  /// towards the stopping rule's wall time, not towards any sample.
  callback<void(const launch_context&)> after_sample;
  /// The longest one wait on the GPU may last, in seconds, before the runner ends it with a
  /// cuprobe::error (core/watchdog.cuh); 0: the default, 10 s (CUPROBE_WATCHDOG_S changes
  /// it; 300 s under compute-sanitizer) for the warm-up and the larger of that and 100 x the
  /// warm-up's duration afterwards. 0 .. one day.
  double watchdog_s = 0;

  /// The largest warmup, iterations, batch, rotations and rest_ms validate_options() accepts.
  ///@{
  static constexpr std::size_t max_warmup = 1'000'000;
  static constexpr std::size_t max_iterations = std::size_t(1) << 40;
  static constexpr std::size_t max_batch = std::size_t(1) << 20;
  static constexpr std::size_t max_rotations = std::size_t(1) << 16;
  static constexpr double max_rest_ms = 60000;
  ///@}

  /// The defaults with `warmup` untimed calls and a fixed number of samples: what the
  /// experiments' option structs start from.
  CUPROBE_DECL static run_options fixed(std::size_t warmup, std::size_t samples);
};

/// Rates derived from the median sample and the declared work; unset where they do not apply.
struct rates {
  std::optional<double> seconds;        ///< median time of one iteration (not for values)
  std::optional<double> bytes_per_s;    ///< (bytes read + written) / seconds
  std::optional<double> flop_per_s;     ///< declared FLOP / seconds
  std::optional<double> ops_per_s;      ///< declared ops / seconds
  std::optional<double> cycles_per_op;  ///< median cycles / ops (cycles), or seconds x clock / ops
  std::optional<double> clock_mhz;      ///< the clock used for cycles <-> seconds
  std::string clock_source;  ///< "given", "nvml (median during samples)", "device maximum"
};

/// Everything one measurement produced.
struct measurement {
  std::string name;                         ///< the name given to measure()
  json params = json::object();             ///< the benchmark's parameters (for reports and plots)
  std::optional<launch_shape> launch;       ///< set with with_launch()
  std::optional<kernel_attributes> kernel;  ///< set with with_kernel()
  work declared;                            ///< the work as the user declared it
  run_options options;                      ///< the options it ran with
  sample_unit unit = sample_unit::seconds;  ///< the unit of `samples` and `stats`
  std::vector<double> samples;              ///< per iteration, in `unit`, in the order taken
  summary stats;                            ///< of `samples`, in `unit`
  rates rate;                ///< the rates derived from the median and the declared work
  environment env;           ///< the GPU's clocks, power and temperature around the samples
  std::vector<flag> flags;   ///< the warnings raised about this measurement (measure/flags.cuh)
  std::string stop_verdict;  ///< why sampling stopped: a stopping_rule::verdict, or "profile"
  double wall_s = 0;         ///< wall-clock seconds the whole measurement took
  /// Event-timed only: the launch-overhead floor of one sample (measure/runner.cuh).
  std::optional<double> launch_floor_s;
  /// The main rate against the matching ceiling of this card (measure/ceilings.cuh), when the
  /// declared work has one.
  std::optional<placement> ceiling;
  /// The hardware counters of the counter pass (run_options::counters), or why there are none.
  counters::result counters;

  /// Records the launch shape (launch).
  measurement& with_launch(const launch_shape& s) {
    launch = s;
    return *this;
  }
  /// Records the kernel's attributes (kernel).
  measurement& with_kernel(const kernel_attributes& k) {
    kernel = k;
    return *this;
  }
  /// Sets the parameter `key` of params to `value`.
  measurement& with_param(const std::string& key, json value) {
    params[key] = std::move(value);
    return *this;
  }
  /// The rates, or cuprobe::error naming the measurement when the work declared none.
  ///@{
  double seconds() const { return known(rate.seconds, "a time (its samples are values)"); }
  double gb_per_s() const { return known(rate.bytes_per_s, "bytes") / 1e9; }
  double tflop_per_s() const { return known(rate.flop_per_s, "FLOP") / 1e12; }
  double ops_per_s() const { return known(rate.ops_per_s, "operations"); }
  double cycles_per_op() const { return known(rate.cycles_per_op, "operations and a clock"); }
  ///@}

 private:
  CUPROBE_DECL double known(const std::optional<double>& v, const char* what) const;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/measurement.cuh"
#endif
