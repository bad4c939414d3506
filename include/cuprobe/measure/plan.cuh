// cuprobe/measure/plan.cuh: what a program's measurements will cost, from one call of each.
//
//   CUPROBE_PLAN=1 ./build/hopper/examples/dram_bandwidth   # then, at exit, on stderr:
//   cuprobe plan: measurements=M calls=C sampling_s=S other_s=O expected_s=E
//
// In plan mode (CUPROBE_PLAN set, not 0) every measurement runs as in profile mode: one timed
// call, with its counters and validation. The runner books what its options would cost at that
// call's time (plan_cost: warm-up, the samples the stopping rule takes when the noise converges,
// batch, rests, NVML's reads after each sample); at exit the program prints the sum, the time it
// spent outside sampling (setup, validation, host references: measured by this run) and their
// total. Not planned: L2 flushes (tens of microseconds each); the one call is often the slowest, so
// the plan errs long. tests/gpu/plan_runtime.sh bounds every example's defaults with it.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/measurement.cuh"

namespace cuprobe {

/// True when CUPROBE_PLAN is set to something other than 0 (see the file comment).
CUPROBE_DECL bool plan_mode_from_env();

/// What one measurement's options cost at some seconds per call (plan_cost).
struct planned_cost {
  double calls = 0;    ///< warm-up calls plus samples x batch
  double samples = 0;  ///< at least min_samples and enough for min_time_s; <= max, <= timeout_s
  double seconds = 0;  ///< warm-up, samples and rests
};

/// The cost of `o` at `call_s` seconds per call (a launch, a sampler call, an interleaved round)
/// and `host_s` seconds of host work per sample (NVML's reads).
CUPROBE_DECL planned_cost plan_cost(const run_options& o, double call_s, double host_s = 0);

/// The line plan mode prints at exit (tests/gpu/plan_runtime.sh parses it).
CUPROBE_DECL std::string plan_line(std::size_t measurements, double calls, double sampling_s,
                                   double other_s);

namespace detail {

/// The process-wide plan, printed at exit in plan mode; constructed before main, so that the
/// time outside sampling counts from the start.
class plan_ledger {
 public:
  static plan_ledger& instance() {
    static plan_ledger l;
    return l;
  }
  /// One measurement: one call of ran_s, host_s of host work per sample.
  CUPROBE_DECL void book(const run_options& o, double ran_s, double host_s = 0);
  CUPROBE_DECL ~plan_ledger();

 private:
  std::size_t measurements_ = 0;
  double calls_ = 0, planned_s_ = 0, ran_s_ = 0, start_s_ = monotonic_s();
};
inline const bool plan_ledger_started = (plan_ledger::instance(), true);

}  // namespace detail
}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/plan.cuh"
#endif
