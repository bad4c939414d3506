// cuprobe/measure/runner.cuh: the measurement protocol. Warm-up, samples until a stopping
// rule says enough, optional L2 flush, input rotation and CUDA-graph batches, NVML readings
// around and during the samples, statistics, derived rates and flags.
//
//   auto m = cuprobe::measure("copy.float4",
//       [&](cudaStream_t s) { copy<<<grid, block, 0, s>>>(in, out, n); },
//       cuprobe::work::bytes_moved(n * 16.0, n * 16.0, "copy: N read + N written", /*dram=*/true));
//   std::printf("%.0f GB/s (median of %zu)\n", m.rate.bytes_per_s / 1e9, m.time.count);
//
// The callable takes the stream (cudaStream_t) or a launch_context (stream, sample index,
// rotation index, warm-up or not). It must only enqueue work on that stream.
//
// Sample = the event-timed time of `batch` launches divided by batch x iterations, i.e. the
// time of one iteration. Loop modes: `launches` (one pass per launch: each sample pays launch
// overhead once per pass, the seed practice for DRAM) and `in_kernel` (the kernel makes
// `iterations` passes itself; set run_options::iterations to that count).
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/measure/environment.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/measure/flags.cuh"
#include "cuprobe/measure/l2_flush.cuh"
#include "cuprobe/measure/nvtx.cuh"
#include "cuprobe/measure/stats.cuh"

namespace cuprobe {

/// What the callable is told on each call.
struct launch_context {
  cudaStream_t stream = nullptr;
  std::size_t sample = 0;    ///< index of the sample (0 during warm-up)
  std::size_t rotation = 0;  ///< which input set to use: 0 .. run_options::rotations - 1
  bool warmup = false;
};

/// What one iteration does, as the user declares it: the rates are derived from this.
struct work {
  double bytes_read = 0, bytes_written = 0;
  double flops = 0;
  double ops = 0;          ///< operations for ops/s and cycles/op (instructions, hops, ...)
  std::string accounting;  ///< which bytes or operations count, in words
  bool dram_working_set = false;  ///< the data is meant to come from DRAM (flags cache hits)

  double bytes() const { return bytes_read + bytes_written; }
  static work bytes_moved(double read, double written, std::string accounting, bool dram = false) {
    work w;
    w.bytes_read = read;
    w.bytes_written = written;
    w.accounting = std::move(accounting);
    w.dram_working_set = dram;
    return w;
  }
  static work flop_count(double flops, double instructions, std::string accounting) {
    work w;
    w.flops = flops;
    w.ops = instructions;
    w.accounting = std::move(accounting);
    return w;
  }
  static work op_count(double ops, std::string accounting) {
    work w;
    w.ops = ops;
    w.accounting = std::move(accounting);
    return w;
  }
};

struct run_options {
  std::size_t warmup = 3;                           ///< untimed calls before the samples
  stopping_rule stop = stopping_rule::fixed(20);    ///< how many samples
  loop_mode mode = loop_mode::launches;
  std::size_t iterations = 1;  ///< passes one launch makes (in_kernel); samples are divided by it
  std::size_t batch = 1;       ///< launches per sample, timed together (divided out)
  bool graph = false;          ///< capture the batch once as a CUDA graph and replay it
  bool flush_l2 = false;       ///< evict the L2 before each sample (outside the timed region)
  std::size_t rotations = 1;   ///< launch_context::rotation cycles through 0 .. rotations - 1
  bool profile = false;        ///< one launch, no warm-up (for ncu); CUPROBE_PROFILE=1 sets it
  bool nvtx = true;            ///< NVTX range named after the measurement
  bool sample_clocks = true;   ///< read NVML's SM clock after every sample
  double noise_threshold = 0.05;  ///< "noisy" flag above this relative standard deviation
  double clock_mhz = 0;  ///< clock for cycles/op; 0 = median NVML SM clock seen during samples
  cudaStream_t stream = nullptr;  ///< nullptr: the runner uses a stream of its own
};

/// Rates derived from the median time and the declared work.
struct rates {
  double seconds = 0;         ///< median time of one iteration
  double bytes_per_s = -1;    ///< (bytes read + written) / seconds, -1 when no bytes declared
  double flop_per_s = -1;
  double ops_per_s = -1;
  double cycles_per_op = -1;  ///< seconds x clock / ops
  double clock_mhz = -1;      ///< the clock used for cycles_per_op
  std::string clock_source;   ///< "given", "nvml (median during samples)" or "device maximum"
};

/// Everything one measurement produced.
struct measurement {
  std::string name;
  json params = json::object();         ///< the benchmark's parameters (for reports and plots)
  std::optional<launch_shape> launch;   ///< set with with_launch()
  std::optional<kernel_attributes> kernel;
  work declared;
  run_options options;
  std::vector<double> samples_s;  ///< seconds per iteration, in the order taken
  summary time;
  rates rate;
  environment env;
  std::vector<flag> flags;
  std::string stop_verdict;
  double wall_s = 0;

  measurement& with_launch(const launch_shape& s) {
    launch = s;
    return *this;
  }
  measurement& with_kernel(const kernel_attributes& k) {
    kernel = k;
    return *this;
  }
  measurement& with_param(const std::string& key, json value) {
    params[key] = std::move(value);
    return *this;
  }
  double gb_per_s() const { return rate.bytes_per_s / 1e9; }
  double tflop_per_s() const { return rate.flop_per_s / 1e12; }
};

/// True when CUPROBE_PROFILE is set to something other than 0 (profile mode for ncu).
inline bool profile_mode_from_env() {
  const char* e = std::getenv("CUPROBE_PROFILE");
  return e && *e && std::string(e) != "0";
}

namespace detail {

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

/// Per-device state the runner reuses across measurements (device facts, NVML handle, flush
/// buffer), so that sweeps of many points do not re-query or re-allocate.
struct runner_device {
  device_info info;
  environment_probe probe;
  std::unique_ptr<l2_flush> flush;

  static runner_device& current() {
    static std::vector<std::unique_ptr<runner_device>> per_device;
    int dev = 0;
    CUPROBE_CHECK(cudaGetDevice(&dev));
    if (per_device.size() <= static_cast<std::size_t>(dev)) per_device.resize(dev + 1);
    if (!per_device[dev]) {
      auto info = device_info::query(dev);
      per_device[dev].reset(new runner_device{info, environment_probe(info.uuid), nullptr});
    }
    return *per_device[dev];
  }
};

class graph_exec {
 public:
  ~graph_exec() {
    if (exec_) cudaGraphExecDestroy(exec_);
    if (graph_) cudaGraphDestroy(graph_);
  }
  template <class F>
  void capture(F& f, cudaStream_t s, std::size_t batch, std::size_t rotations) {
    CUPROBE_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
    for (std::size_t i = 0; i < batch; ++i)
      invoke_launch(f, launch_context{s, 0, i % rotations, false});
    CUPROBE_CHECK(cudaStreamEndCapture(s, &graph_));
    CUPROBE_CHECK(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  void launch(cudaStream_t s) { CUPROBE_CHECK(cudaGraphLaunch(exec_, s)); }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace detail

/// Derives rates and flags of `m` from its samples, declared work and environment.
inline void finish_measurement(measurement& m, const device_info& dev) {
  m.time = summarize(m.samples_s);
  rates& r = m.rate;
  r.seconds = m.time.median;
  const work& w = m.declared;
  if (w.bytes() > 0) r.bytes_per_s = w.bytes() / r.seconds;
  if (w.flops > 0) r.flop_per_s = w.flops / r.seconds;
  if (w.ops > 0) r.ops_per_s = w.ops / r.seconds;
  if (m.options.clock_mhz > 0) {
    r.clock_mhz = m.options.clock_mhz;
    r.clock_source = "given";
  } else if (m.env.median_sm_clock_mhz() > 0) {
    r.clock_mhz = m.env.median_sm_clock_mhz();
    r.clock_source = "nvml (median during samples)";
  } else {
    r.clock_mhz = dev.sm_clock_khz / 1e3;
    r.clock_source = "device maximum";
  }
  if (w.ops > 0) r.cycles_per_op = r.seconds * r.clock_mhz * 1e6 / w.ops;

  flag_inputs in;
  in.bytes_per_s = r.bytes_per_s;
  in.dram_working_set = w.dram_working_set;
  in.nominal_dram_bytes_per_s = dev.nominal_dram_bytes_per_s();
  in.min_sm_clock_mhz = m.env.min_sm_clock_mhz();
  in.max_sm_clock_mhz = m.env.max_sm_clock_mhz();
  in.throttle_reasons = m.env.throttle_reasons_seen;
  in.rel_stdev = m.time.rel_stdev;
  in.noise_threshold = m.options.noise_threshold;
  in.samples = m.time.count;
  m.flags = evaluate_flags(in);
}

/// Runs the protocol on `launch` and returns every sample with its summary, rates and flags.
template <class Launch>
measurement measure(std::string name, Launch&& launch, work declared = {}, run_options opt = {}) {
  using clock = std::chrono::steady_clock;
  require(opt.iterations >= 1 && opt.batch >= 1 && opt.rotations >= 1,
          "measure(" + name + "): iterations, batch and rotations must be at least 1");
  require(opt.stop.max_samples >= 1, "measure(" + name + "): max_samples must be at least 1");
  if (profile_mode_from_env()) opt.profile = true;

  auto& rd = detail::runner_device::current();
  std::optional<cuda_stream> own;
  if (!opt.stream) own.emplace();
  const cudaStream_t s = opt.stream ? opt.stream : own->get();

  measurement m;
  m.name = std::move(name);
  m.declared = std::move(declared);
  m.options = opt;
  m.options.stream = nullptr;  // not meaningful once the call returns
  nvtx_range range(m.name, opt.nvtx);
  const auto t_begin = clock::now();
  m.env.before = rd.probe.sample();

  event_timer timer(s);
  const double per = static_cast<double>(opt.iterations);
  if (opt.profile) {  // exactly one launch, for ncu
    timer.start();
    detail::invoke_launch(launch, launch_context{s, 0, 0, false});
    timer.stop();
    CUPROBE_CHECK_LAUNCH("the measured callable");
    m.samples_s.push_back(timer.seconds() / per);
    m.stop_verdict = "profile";
  } else {
    if (opt.flush_l2 && !rd.flush) rd.flush = std::make_unique<l2_flush>(rd.info.l2_bytes);
    detail::graph_exec graph;
    if (opt.graph) graph.capture(launch, s, opt.batch, opt.rotations);
    {
      nvtx_range warm("warm-up", opt.nvtx);
      for (std::size_t i = 0; i < opt.warmup; ++i) {
        if (opt.graph)
          graph.launch(s);
        else
          detail::invoke_launch(launch, launch_context{s, 0, i % opt.rotations, true});
      }
      CUPROBE_CHECK_LAUNCH("the measured callable (warm-up)");
      CUPROBE_CHECK(cudaStreamSynchronize(s));
    }
    nvtx_range samples("samples", opt.nvtx);
    for (std::size_t k = 0;; ++k) {
      if (opt.flush_l2) rd.flush->operator()(s);
      timer.start();
      if (opt.graph) {
        graph.launch(s);
      } else {
        for (std::size_t i = 0; i < opt.batch; ++i)
          detail::invoke_launch(launch,
                                launch_context{s, k, (k * opt.batch + i) % opt.rotations, false});
      }
      timer.stop();
      CUPROBE_CHECK_LAUNCH("the measured callable");
      m.samples_s.push_back(timer.seconds() / (per * static_cast<double>(opt.batch)));
      if (opt.sample_clocks && rd.probe.available()) {
        m.env.sm_clock_mhz.push_back(rd.probe.sm_clock_mhz());
        m.env.throttle_reasons_seen |= rd.probe.throttle_bits();
      }
      const double wall = std::chrono::duration<double>(clock::now() - t_begin).count();
      const auto v = opt.stop.decide(m.samples_s, wall);
      if (v != stopping_rule::verdict::more) {
        m.stop_verdict = to_string(v);
        break;
      }
    }
  }
  CUPROBE_CHECK(cudaStreamSynchronize(s));
  m.env.after = rd.probe.sample();
  m.wall_s = std::chrono::duration<double>(clock::now() - t_begin).count();
  finish_measurement(m, rd.info);
  return m;
}

/// The device facts the runner uses (cached per device).
inline const device_info& current_device() { return detail::runner_device::current().info; }

}  // namespace cuprobe
