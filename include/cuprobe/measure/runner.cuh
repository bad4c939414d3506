// cuprobe/measure/runner.cuh: the measurement protocol, for every kind of sample.
//
//   const auto w = cuprobe::work::bytes_moved(n * 16.0, n * 16.0, "copy: N read + N written")
//                      .with_source(cuprobe::data_source::dram).with_working_set(32.0 * n);
//   auto m = cuprobe::measure("copy.float4",                                // event-timed
//       [&](cudaStream_t s) { copy<<<grid, block, 0, s>>>(in, out, n); }, w);
//   // in-kernel cycles; opts.iterations = hops per chase
//   auto c = cuprobe::measure_samples("chase", cuprobe::sample_unit::cycles,
//       [&](const cuprobe::launch_context& ctx) { return double(run_one_chase(ctx.stream)); },
//       cuprobe::work::op_count(1, "one hop"), opts);
//   std::printf("%.0f GB/s; %.1f cycles/hop\n", m.gb_per_s(), c.cycles_per_op());
//
// One protocol (docs/measurement.md): measure() times launches with CUDA events;
// measure_samples() takes any callable that returns one sample in a declared unit. Both validate
// the options, read NVML, warm up, take samples until the stopping rule says enough (L2 flush,
// clocks and throttle reasons outside the timed region), then derive statistics, rates, flags and
// the ceiling. Errors name the measurement and the phase; every wait is bounded
// (run_options::watchdog_s, core/watchdog.cuh).
//
// Samples are per iteration: divided by `iterations` (in_kernel: the passes one sample covers)
// and, for event-timed samples, by `batch` (launches per sample). The event callable takes a
// cudaStream_t or a launch_context and only enqueues work on that stream; a sampler takes a
// launch_context, a cudaStream_t or nothing, waits for its work and returns the sample (the
// runner's own stream is non-blocking: read results with device_buffer::to_host(ctx.stream),
// not to_host(), which does not wait for it). In-kernel
// data of each sample is read by the per-sample hook, outside the timed region:
//   opts.after_sample = [&](const cuprobe::launch_context&) {
//     mhz.push_back(*cuprobe::clock_mhz_of(timer.read())); };
#pragma once

#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/core/box.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/measure/counter_checks.cuh"
#include "cuprobe/measure/counter_pass.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/measure/l2_flush.cuh"
#include "cuprobe/measure/launch_overhead.cuh"
#include "cuprobe/measure/measurement.cuh"
#include "cuprobe/measure/nvtx.cuh"
#include "cuprobe/measure/plan.cuh"
#include "cuprobe/model/memory.cuh"
#include "cuprobe/model/peak.cuh"

namespace cuprobe {

/// True when CUPROBE_PROFILE (for ncu) or plan mode (CUPROBE_PLAN, measure/plan.cuh) turns on
/// run_options::profile for every measurement of the process.
CUPROBE_DECL bool profile_mode_from_env();

/// Throws cuprobe::error naming `who`, the field, its value and the limit when `o` cannot be
/// run (limits: run_options' constants; the stopping rule's own validate()).
CUPROBE_DECL void validate_options(const run_options& o, const std::string& who);

namespace detail {

/// Per-device state the runner reuses across measurements (device facts, NVML handle, flush
/// buffer, launch overhead), so that sweeps of many points do not re-query or re-allocate.
struct runner_device {
  device_info info;
  environment_probe probe;
  box<l2_flush> flush;
  std::optional<launch_overhead> overhead;
  std::optional<ceilings> ceil;
  std::vector<std::pair<std::string, box<counters::profiler>>> profilers;  ///< by request

  CUPROBE_DECL static runner_device& current();
  CUPROBE_DECL const launch_overhead& overheads();
  /// The profiler of the counter request `spec` on this device (nullptr for ""), set up once;
  /// parse errors and metrics the chip lacks throw here, before any launch, and why counters
  /// cannot be collected at all is said once on stderr.
  CUPROBE_DECL counters::profiler* profiler_for(const std::string& spec);
  /// This device's ceilings (measure/ceilings.cuh), loaded on first use; a file that cannot be
  /// used is named once on stderr.
  CUPROBE_DECL const ceilings& ceilings_of();
};

/// What every entry point of the runner sets up before its first launch: run_options::profile
/// from the environment (profile_mode_from_env), this device's runner state, the profiler of
/// the counter request (nullptr for none) and the stream: the caller's, else one of its own.
class run_setup {
 public:
  CUPROBE_DECL explicit run_setup(run_options& opt);
  runner_device& rd;
  counters::profiler* const prof;
  cudaStream_t stream() const { return stream_; }

 private:
  std::optional<cuda_stream> own_;
  cudaStream_t stream_ = nullptr;
};

/// run_options::rest_ms: waits for `s` to drain, sleeps `ms`, then enqueues one empty launch on
/// `s` (nothing when 0), so that the timed region starts on a GPU already awake.
CUPROBE_DECL void rest_before_sample(cudaStream_t s, double ms, double limit_s);

/// "measure(\"name\"), phase": how the runner's messages name where they come from.
inline std::string phase_label(const std::string& name, const std::string& phase) {
  return "measure(\"" + name + "\"), " + phase;
}

/// Runs `f` under a watchdog_guard of `limit_s`; a cuprobe::error escaping it is rethrown
/// naming the measurement and the phase, and after a device fault saying what to do next.
template <class F>
void in_phase(const std::string& name, const std::string& phase, double limit_s, F&& f) {
  const std::string label = phase_label(name, phase);
  try {
    watchdog_guard guard(label, limit_s);
    f();
  } catch (const error& e) {
    std::string m = e.what();
    m.erase(0, m.compare(0, 9, "cuprobe: ") == 0 ? 9 : 0);
    if (is_device_fault(e.code())) m += "; " + std::string(device_fault_advice());
    throw error(label + ": " + m, e.code());
  }
}

/// The limit of the waits of one measurement (see core/watchdog.cuh): the given one, else
/// the default before the warm-up and the larger of it and 100 x the warm-up's time after.
struct wait_limit {
  double given = 0;
  double now = given > 0 ? given : default_watchdog_s();
  CUPROBE_DECL void after_warmup(double warmup_s);
};

template <class F>
void invoke_launch(F& f, const launch_context& ctx) {
  if constexpr (std::is_invocable_v<F&, const launch_context&>)
    f(ctx);
  else if constexpr (std::is_invocable_v<F&, cudaStream_t>)
    f(ctx.stream);
  else
    static_assert(std::is_invocable_v<F&, cudaStream_t>,
                  "cuprobe::measure: the callable must take a cudaStream_t or a "
                  "cuprobe::launch_context");
}

template <class F>
double invoke_sampler(F& f, const launch_context& ctx) {
  if constexpr (std::is_invocable_v<F&, const launch_context&>)
    return static_cast<double>(f(ctx));
  else if constexpr (std::is_invocable_v<F&, cudaStream_t>)
    return static_cast<double>(f(ctx.stream));
  else if constexpr (std::is_invocable_v<F&>)
    return static_cast<double>(f());
  else
    static_assert(std::is_invocable_v<F&>,
                  "cuprobe::measure_samples: the sampler must take a cuprobe::launch_context, a "
                  "cudaStream_t or nothing, and return the sample as a number");
}

/// The batches of an event-timed measurement as CUDA graphs. Sample k launches `batch` calls
/// whose rotations continue where sample k-1 stopped ((k x batch + i) % rotations), so with
/// several rotations the graphs differ: one is captured for each distinct starting rotation
/// (rotations / gcd(batch, rotations) of them).
class graph_set {
 public:
  graph_set() = default;
  graph_set(const graph_set&) = delete;
  graph_set& operator=(const graph_set&) = delete;
  CUPROBE_DECL ~graph_set();
  template <class F>
  void capture(F& f, cudaStream_t s, std::size_t batch, std::size_t rotations) {
    const std::size_t distinct = rotations / std::gcd(batch, rotations);
    graphs_.resize(distinct);
    for (std::size_t j = 0; j < distinct; ++j) {
      CUPROBE_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
      for (std::size_t i = 0; i < batch; ++i)
        invoke_launch(f, launch_context{s, 0, (j * batch + i) % rotations, false});
      CUPROBE_CHECK(cudaStreamEndCapture(s, &graphs_[j].graph));
      CUPROBE_CHECK(cudaGraphInstantiate(&graphs_[j].exec, graphs_[j].graph, 0));
    }
  }
  /// Replays the graph of sample k.
  CUPROBE_DECL void launch(std::size_t k, cudaStream_t s);
  std::size_t size() const { return graphs_.size(); }

 private:
  struct one {
    cudaGraph_t graph = nullptr;
    cudaGraphExec_t exec = nullptr;
  };
  std::vector<one> graphs_;
};

/// The protocol itself (see the file comment). `warm(limit_s)` runs the whole warm-up;
/// `take(k, accumulated, limit_s)` returns sample k divided by everything but `iterations` and
/// adds the seconds it took to `accumulated`; each waits on the GPU at most `limit_s`.
template <class Warm, class Take>
measurement run_protocol(runner_device& rd, std::string name, sample_unit unit, work declared,
                         run_options opt, cudaStream_t s, Warm&& warm, Take&& take,
                         counters::profiler* prof = nullptr, double plan_rest_ms = -1) {
  measurement m;
  m.name = std::move(name);
  m.declared = std::move(declared);
  m.unit = unit;
  m.options = opt;
  m.options.stream = nullptr;  // not meaningful once the call returns
  nvtx_range range(m.name, opt.nvtx);
  wait_limit limit{opt.watchdog_s};
  const double t_begin = monotonic_s();
  m.env.before = rd.probe.sample();
  const double per = static_cast<double>(opt.iterations);
  double accumulated = 0;
  if (opt.flush_l2 && !rd.flush) rd.flush.emplace(rd.info.l2_bytes);
  if (opt.profile) {  // exactly one call, for ncu, after the flush a sample would have
    in_phase(m.name, "profile", limit.now, [&] {
      if (opt.flush_l2) {
        (*rd.flush)(s);
        wait_for(s, "", limit.now);
      }
      m.samples.push_back(take(0, accumulated, limit.now) / per);
    });
    m.stop_verdict = "profile";
    if (plan_mode_from_env()) {  // what each sample adds on the host: NVML's reads (timed here)
      const double t0 = monotonic_s();
      if (opt.sample_clocks && rd.probe.available())
        (void)rd.probe.sm_clock_mhz(), (void)rd.probe.throttle_bits();
      run_options p = opt;
      if (plan_rest_ms >= 0) p.rest_ms = plan_rest_ms;
      plan_ledger::instance().book(p, accumulated, monotonic_s() - t0);
    }
  } else {
    {
      nvtx_range w("warm-up", opt.nvtx);
      const double t_warm = monotonic_s();
      in_phase(m.name, "warm-up", limit.now, [&] {
        warm(limit.now);
        wait_for(s, "", limit.now);
      });
      limit.after_warmup(monotonic_s() - t_warm);
    }
    nvtx_range samples("samples", opt.nvtx);
    for (std::size_t k = 0;; ++k) {
      in_phase(m.name, "sample " + std::to_string(k), limit.now, [&] {
        rest_before_sample(s, opt.rest_ms, limit.now);
        if (opt.flush_l2) {
          (*rd.flush)(s);
          if (unit != sample_unit::seconds) wait_for(s, "", limit.now);
        }
        m.samples.push_back(take(k, accumulated, limit.now) / per);
        if (opt.after_sample) {
          wait_for(s, "", limit.now);
          opt.after_sample(launch_context{s, k, (k * opt.batch) % opt.rotations, false});
        }
      });
      if (opt.sample_clocks && rd.probe.available()) {
        if (auto c = rd.probe.sm_clock_mhz()) m.env.sm_clock_mhz.push_back(*c);
        m.env.throttle_reasons_seen |= rd.probe.throttle_bits();
      }
      const double wall = monotonic_s() - t_begin;
      const auto v = opt.stop.decide(m.samples, accumulated, wall);
      if (v != stopping_rule::verdict::more) {
        m.stop_verdict = to_string(v);
        break;
      }
    }
  }
  // The counters, in a pass of their own: one more sample per replay pass, untimed (in profile
  // mode too, so that the launches ncu profiles can be counted by the library outside ncu).
  counter_pass(
      m, prof, s, per * double(opt.profile ? 1 : opt.batch), limit.now,
      [&] {
        double untimed = 0;
        (void)take(0, untimed, limit.now);
      },
      [&] {
        if (opt.flush_l2 && rd.flush) (*rd.flush)(s);
      });
  in_phase(m.name, "the final synchronisation", limit.now, [&] { wait_for(s, "", limit.now); });
  m.env.after = rd.probe.sample();
  m.wall_s = monotonic_s() - t_begin;
  return m;
}

}  // namespace detail

/// The ceiling key the work `w` is placed against (measure/ceilings.cuh), "" for none: tensor
/// FLOP by type, fp32 FMA FLOP, and bytes by their declared source (with none, a working set of
/// dram_l2_factor x `l2_bytes` or more counts as DRAM; one between the L2 and that is mixed) and by
/// which bytes count: read only, written only, as many of each (copy), else a mix of reads to
/// writes at DRAM or L2 ("dram.mix.5:1", "l2.mix.1:2.5").
CUPROBE_DECL std::string ceiling_key_of(const work& w, double l2_bytes);

/// Places m's main rate against `c`'s ceiling for its work (m.ceiling) and adds the flags
/// above_measured_ceiling (over 1.02 x this card's own record) and ceiling_stale.
CUPROBE_DECL void place_measurement(measurement& m, const device_info& dev, const ceilings& c);

/// Derives stats, rates and flags of `m` from its samples, unit, declared work, options and
/// environment, against the facts of `dev`, and, when `c` is given, places its rate against
/// the ceilings of `c` (place_measurement).
CUPROBE_DECL void finish_measurement(measurement& m, const device_info& dev,
                                     const ceilings* c = nullptr);

/// Event-timed samples: runs the protocol on `launch` and returns every sample (seconds per
/// iteration) with its statistics, rates and flags.
template <class Launch>
measurement measure(std::string name, Launch&& launch, work declared = {}, run_options opt = {}) {
  validate_options(opt, "measure(\"" + name + "\")");
  const detail::run_setup setup(opt);
  auto& rd = setup.rd;
  counters::profiler* prof = setup.prof;
  const cudaStream_t s = setup.stream();
  const std::size_t batch = opt.profile ? 1 : opt.batch;
  event_timer timer(s);
  detail::graph_set graphs;
  if (opt.graph && !opt.profile)
    detail::in_phase(name, "graph capture", detail::wait_limit{opt.watchdog_s}.now,
                     [&] { graphs.capture(launch, s, batch, opt.rotations); });
  auto warm = [&](double) {
    if (opt.graph) {  // warm-up counts launches: whole graphs until at least `warmup` ran
      for (std::size_t g = 0; g * batch < opt.warmup; ++g) graphs.launch(g, s);
    } else {
      for (std::size_t i = 0; i < opt.warmup; ++i)
        detail::invoke_launch(launch, launch_context{s, 0, i % opt.rotations, true});
    }
    CUPROBE_CHECK_LAUNCH("the measured callable (warm-up)");
  };
  auto take = [&](std::size_t k, double& accumulated, double limit_s) {
    timer.start();
    if (opt.graph && !opt.profile) {
      graphs.launch(k, s);
    } else {
      for (std::size_t i = 0; i < batch; ++i)
        detail::invoke_launch(launch, launch_context{s, k, (k * batch + i) % opt.rotations, false});
    }
    timer.stop();
    CUPROBE_CHECK_LAUNCH("the measured callable");
    timer.wait("", limit_s);
    const double t = timer.seconds();
    accumulated += t;
    return t / static_cast<double>(batch);
  };
  measurement m = detail::run_protocol(rd, std::move(name), sample_unit::seconds,
                                       std::move(declared), opt, s, warm, take, prof);
  if (!opt.profile)
    m.launch_floor_s =
        rd.overheads().floor_s(batch, opt.graph ? launch_path::graph : launch_path::stream);
  finish_measurement(m, rd.info, &rd.ceilings_of());
  return m;
}

/// In-kernel (or any other) samples: `sampler` returns one sample in `unit` covering
/// run_options::iterations iterations; the same protocol, statistics, rates and flags as
/// measure(). batch and graph do not apply (the sampler makes its own sample).
template <class Sampler>
measurement measure_samples(std::string name, sample_unit unit, Sampler&& sampler,
                            work declared = {}, run_options opt = {}) {
  const std::string who = "measure_samples(\"" + name + "\")";
  validate_options(opt, who);
  require(opt.batch == 1 && !opt.graph,
          who +
              ": batch and graph apply to event-timed samples (measure()); a sampler makes "
              "its own sample, so leave batch = 1 and graph = false");
  const detail::run_setup setup(opt);
  auto& rd = setup.rd;
  counters::profiler* prof = setup.prof;
  const cudaStream_t s = setup.stream();
  auto warm = [&](double) {
    for (std::size_t i = 0; i < opt.warmup; ++i)
      (void)detail::invoke_sampler(sampler, launch_context{s, 0, i % opt.rotations, true});
  };
  auto take = [&](std::size_t k, double& accumulated, double) {
    const double t0 = monotonic_s();
    const double v =
        detail::invoke_sampler(sampler, launch_context{s, k, k % opt.rotations, false});
    accumulated += monotonic_s() - t0;
    require(std::isfinite(v), "the sampler returned " + std::to_string(v) + ", not a number");
    return v;
  };
  measurement m = detail::run_protocol(rd, std::move(name), unit, std::move(declared), opt, s, warm,
                                       take, prof);
  finish_measurement(m, rd.info, &rd.ceilings_of());
  return m;
}

/// The device facts the runner uses (cached per device).
inline const device_info& current_device() { return detail::runner_device::current().info; }

/// Makes the next measurement of the current device read its ceilings again (after a record was
/// written in this process, e.g. by device_report or a test).
inline void reload_ceilings() { detail::runner_device::current().ceil.reset(); }

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/runner.cuh"
#endif
