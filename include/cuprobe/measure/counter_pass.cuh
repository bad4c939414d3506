// cuprobe/measure/counter_pass.cuh: the runner's counter pass, after a measurement's timed
// samples (measure/runner.cuh and measure/interleave.cuh call it; docs/counters.md).
//
//   const std::string spec = cuprobe::detail::counter_spec(opt);   // options, else environment
//   cuprobe::detail::counter_pass(m, profiler, stream, per_range, limit_s, once, before);
//
// The pass re-runs one sample per replay pass, untimed, with each kernel a range of its own (one
// range around the sample for graph replays); where kernel ranges fail it falls back to one range
// per sample, and a failure of both is kept as m.counters.missing: the timed result stands.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/measure/cupti.cuh"
#include "cuprobe/measure/measurement.cuh"
#include "cuprobe/measure/nvtx.cuh"

namespace cuprobe::detail {

/// `o`'s counter request: run_options::counters, else CUPROBE_COUNTERS; "" for none or "none".
/// Profile mode counts too: its one call, outside ncu (under ncu the profiler says a tool owns it).
CUPROBE_DECL std::string counter_spec(const run_options& o);

/// True the first time it is called in the process (the kernel-range notice is said once).
CUPROBE_DECL bool first_kernel_range_failure();

/// The counter pass of `m` after its timed samples: `once` enqueues one sample (`per_range`
/// launches x iterations) on `s`, `before` runs outside the ranges (the L2 flush). A failure is
/// kept as m.counters.missing; the timed result stands. `Profiler`: counters::profiler, or a
/// host test's own.
template <class Profiler, class Once, class Before>
void counter_pass(measurement& m, Profiler* prof, cudaStream_t s, double per_range, double limit_s,
                  Once&& once, Before&& before) {
  const auto kind = m.options.graph ? counters::range_kind::sample : counters::range_kind::kernel;
  if (!prof) return;
  m.counters = counters::result{};
  m.counters.spec = prof->req().spec;
  if (!prof->ready()) {
    m.counters.missing = prof->missing();
    return;
  }
  const auto attempt = [&](counters::range_kind k) -> std::string {
    try {
      nvtx_range range("counters", m.options.nvtx);
      watchdog_guard guard("measure(\"" + m.name + "\"), counters", limit_s);
      m.counters = prof->collect(once, s, per_range, before, limit_s, k);
      return "";
    } catch (const error& e) {
      if (is_device_fault(e.code())) throw;  // the context is lost: nothing later can run
      std::string w = e.what();
      return w.erase(0, w.compare(0, 9, "cuprobe: ") == 0 ? 9 : 0);
    }
  };
  std::string why = attempt(kind);
  if (!why.empty() && kind == counters::range_kind::kernel) {
    // A sample without a kernel (cudaMemcpy, cudaMemset) is counted in one range around it, as
    // it should be. Kernel ranges refused otherwise (a driver or CUPTI without auto ranges under
    // user replay): one range around the sample still counts every byte, said once per process.
    if (why.find("no kernel in the sample") == std::string::npos && first_kernel_range_failure())
      std::fprintf(stderr, "cuprobe: counters: kernel ranges failed (%s); one range per sample\n",
                   why.c_str());
    why = attempt(counters::range_kind::sample);
  }
  if (!why.empty()) {
    m.counters = counters::result{};
    m.counters.spec = prof->req().spec;
    m.counters.missing = "the counter pass failed: " + why;
  }
}

}  // namespace cuprobe::detail

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/counter_pass.cuh"
#endif
