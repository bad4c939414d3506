// cuprobe_suite/wgmma.cuh: WGMMA latency and throughput (sm_90a), built from
// cuprobe_suite/kernels/wgmma.cuh, the runner and the tensor-core peak model: one configuration per
// call; the canned set of configurations is cuprobe_suite/wgmma_suite.cuh.
//
//   namespace ex = cuprobe::suite;
//   using C = ex::kernels::wgmma_bench<cuprobe::ptx::wgmma::bf16, 256>;   // m64n256k16 SS
//   auto t = ex::wgmma_throughput<C>(dev, {});                    // ~7 ms launches, zeros
//   auto l = ex::wgmma_latency<cuprobe::ptx::wgmma::bf16, 256>(dev, {});
//   std::printf("%.1f TFLOP/s = %.1f %% of peak at %.0f MHz (in-kernel); %.1f cycles\n",
//               t.tflops, 100 * t.fraction_of_peak.value_or(0), t.clock.median_mhz,
//               l.cycles);
//
// Throughput: one block per SM (every SM; dynamic shared memory above half an SM's), with
// `warpgroups` warpgroups, each issuing back-to-back MMAs into its own accumulator (the
// configuration's Group and Depth say how many are in flight); loop trips chosen so a launch
// lasts about target_ms at the peak and the device's maximum clock (longer at a lower clock or
// below peak). Launches are event-timed by the runner (median of the samples; through
// measure_interleaved with one contestant, whose `after` hook reads the blocks' records after
// every sample). Beside every figure: the launch length, the SM clock measured in the kernel
// (each block's %clock64 cycles over its %globaltimer nanoseconds, median over the blocks of one
// launch; the figure is the median over the samples of each sample's clock) and NVML's (read
// on the host while each launch runs: SM clock, power, temperature, clock event reasons, every
// nvml_interval_ms for long launches). FLOP/clk/SM = FLOP per SM / the %clock64 cycles its block
// ran (median over the blocks of one launch: rate and clock from the same launch; the figure is
// the median over the samples), and at NVML's clock FLOP / (seconds x clock x SMs); the
// fraction of peak divides by
// model::tensor_peak_table
// (4096 dense bf16/f16, 2048 tf32, 8192 fp8, x2 sparse). loop_flop_per_clk_per_sm is the same
// from the cycles of the MMA loop alone (no launch, operand fill or epilogue).
// Validation: a short launch (validate_iterations trips) whose D, every warpgroup of one block,
// must match the fp64 reference (cuprobe_suite/kernels/wgmma_check.cuh) at the type's tolerance
// (zero operands: zero); the timed launch's accumulator sums must agree bitwise over every
// warpgroup of every block (the same MMAs on the same tiles), zero operands give zero, and every
// block ran on its own SM. A failure is in `check`, not thrown (examples and tests decide).
// Flags added to the runner's: above_tensor_peak (above 101 % of the model at the in-kernel
// clock) and host_delay (the event time exceeds the in-kernel span by over 2 % + 20 us: the host
// held the stop event back).
// Latency: one block of one warpgroup, one MMA per group and wait_group<0> after each (Group 1,
// Depth 0), `iterations` x 4 MMAs between two %clock64 reads; a sample is cycles per MMA (unit
// cycles through measure_samples); its D is validated as above.
// Choices: the measurement code takes the configuration as values (detail::wgmma_config, with
// the kernel as a function pointer), so one instantiation of the runner serves every
// configuration: examples/wgmma compiles about 110 kernels, and a host template per
// configuration tripled its compile time. The timed random-operand launches are checked for
// agreement, not against the reference: after 10^4 .. 10^5 K blocks the tensor core's f32
// accumulation (and fp8's narrower one) drifts from an fp64 sum by more than any fixed tolerance.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/measure/interleave.cuh"
#include "cuprobe/measure/nvml.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/model/peak.cuh"
#include "cuprobe_suite/kernels/wgmma.cuh"

namespace cuprobe::suite {

/// Idle GPU before each timed sample of a ~7 ms tensor-core run (run_options::rest_ms): on the
/// H200 50 ms was the least that kept every sample at the rested clock; this is twice that
/// (docs/wgmma.md, "rested samples"). wgmma_suite and device_report use it.
inline constexpr double wgmma_rest_ms = 100;

struct wgmma_throughput_options {
  unsigned warpgroups = 1;  ///< per SM (one block per SM): 1 .. C::max_warpgroups
  double target_ms = 7.0;   ///< length of one launch (the peer's ~7 ms; sustained: >= 500)
  bool random = false;      ///< random operands (uniform in [-1, 1), rounded) or zeros
  std::uint64_t seed = 1;
  long long validate_iterations = 4;  ///< loop trips of the validation launch
  double nvml_interval_ms = 50;       ///< NVML reads while a launch runs
  run_options run = run_options::fixed(2, 10);

  void validate(int max_warpgroups) const {
    require(warpgroups >= 1 && int(warpgroups) <= max_warpgroups,
            "wgmma_throughput: warpgroups must be 1 .. " + std::to_string(max_warpgroups) +
                " for this configuration, got " + std::to_string(warpgroups));
    require(
        std::isfinite(target_ms) && target_ms >= 0.01 && target_ms <= 60000,
        "wgmma_throughput: target_ms must be 0.01 .. 60000 ms, got " + std::to_string(target_ms));
    require(validate_iterations >= 1 && validate_iterations <= 1024,
            "wgmma_throughput: validate_iterations must be 1 .. 1024, got " +
                std::to_string(validate_iterations));
    require(std::isfinite(nvml_interval_ms) && nvml_interval_ms >= 1,
            "wgmma_throughput: nvml_interval_ms must be at least 1 ms");
    require(run.mode == loop_mode::launches && run.iterations == 1 && run.batch == 1 && !run.graph,
            "wgmma_throughput: one launch per sample; leave run.mode, iterations, batch and "
            "graph alone");
    validate_options(run, "wgmma_throughput");
  }
};

struct wgmma_latency_options {
  long long iterations = 256;  ///< loop trips of 4 dependent MMAs each
  bool random = false;
  std::uint64_t seed = 3;
  run_options run = run_options::fixed(1, 5);

  void validate() const {
    require(iterations >= 1 && iterations <= (1ll << 24),
            "wgmma_latency: iterations must be 1 .. 2^24, got " + std::to_string(iterations));
    require(run.batch == 1 && !run.graph,
            "wgmma_latency: a sample is one launch; leave run.batch = 1 and run.graph off");
    validate_options(run, "wgmma_latency");
  }
};

/// What the validation found (see the file comment).
struct wgmma_validation {
  bool ok = false;
  std::string message;
  kernels::wgmma_comparison d;  ///< the validation launch's D against the fp64 reference
  bool sums_agree = false;      ///< the timed launch: every warpgroup's sums equal, bitwise
  bool zero_is_zero = true;     ///< zero operands: D and the sums of the timed launch are 0
  bool one_block_per_sm = false;
};

/// NVML readings taken on the host while the timed launches ran.
struct wgmma_nvml_during {
  std::vector<double> power_w, sm_clock_mhz;
  std::optional<double> temperature_max_c;
  long long clock_event_reasons = 0;  ///< OR of every reading's reasons

  void add(const nvml_sample& s) {
    if (s.power_w) power_w.push_back(*s.power_w);
    if (s.sm_clock_mhz) sm_clock_mhz.push_back(*s.sm_clock_mhz);
    if (s.temperature_c)
      temperature_max_c = std::max(temperature_max_c.value_or(-1e9), double(*s.temperature_c));
    if (s.clock_event_reasons) clock_event_reasons |= *s.clock_event_reasons;
  }
  static std::optional<double> median_of(const std::vector<double>& v) {
    return v.empty() ? std::nullopt : std::optional<double>(median(v));
  }
  std::optional<double> max_power_w() const {
    return power_w.empty()
               ? std::nullopt
               : std::optional<double>(*std::max_element(power_w.begin(), power_w.end()));
  }
};

struct wgmma_throughput_result {
  std::string config;     ///< "bf16.m64n256k16.ss" (".sp" sparse)
  std::string in_flight;  ///< "4 MMAs per group, wait_group<1>"
  std::string type;       ///< the input type's PTX name
  int n = 0;
  bool rs = false, sparse = false, random = false;
  unsigned warpgroups = 0;
  measurement m;  ///< event-timed launches (rate.flop_per_s; params: everything below)
  kernel_attributes kernel;
  long long iterations = 0;
  double mmas_per_warpgroup = 0;
  double run_ms = 0;  ///< median launch length (events)
  double tflops = 0;
  /// In-kernel: the last timed launch's (validation uses it), except median_mhz, which is the
  /// median over the samples of each sample's median_mhz.
  kernels::wgmma_run_clock clock;
  wgmma_nvml_during nvml;
  std::optional<double> nvml_clock_mhz;  ///< median NVML SM clock while the launches ran
  double flop_per_clk_per_sm = 0;        ///< median over the samples of FLOP per SM / block cycles
  std::optional<double> flop_per_clk_per_sm_nvml;
  double loop_flop_per_clk_per_sm = 0;  ///< FLOP per SM / cycles of the MMA loop
  std::optional<double> peak_flop_per_clk;
  std::optional<double> fraction_of_peak, fraction_of_peak_nvml;
  std::string peak_source;
  wgmma_validation check;
};

struct wgmma_latency_result {
  std::string config;
  measurement m;      ///< unit cycles, per MMA: cycles_per_op()
  double cycles = 0;  ///< median cycles per MMA
  wgmma_validation check;
};

namespace detail {

inline void require_sm90(const device_info& dev, const char* who) {
  require(dev.cc_major == 9 && dev.cc_minor == 0,
          std::string(who) + ": wgmma exists on sm_90 (H100, H200) only, built as sm_90a; " +
              dev.name + " is sm_" + std::to_string(dev.sm()));
}

/// A configuration as run-time values: what the type-erased code below needs of
/// kernels::wgmma_bench.
struct wgmma_config {
  std::string name, shape, in_flight, type;
  int n = 0, k = 0, group = 0, depth = 0, unroll = 0, max_warpgroups = 0;
  bool rs = false, sparse = false;
  double flop_per_mma = 0, tolerance = 0;
  std::size_t smem_bytes = 0;
  void (*kernel)(kernels::wgmma_bench_args) = nullptr;

  template <class C>
  static wgmma_config of() {
    return {C::name(),
            C::shape(),
            C::in_flight(),
            C::A::name,
            C::n,
            C::k,
            C::group,
            C::depth,
            C::unroll,
            C::max_warpgroups,
            C::rs,
            C::sparse,
            C::flop_per_mma,
            kernels::wgmma_tolerance<typename C::D, typename C::A>(),
            C::smem_bytes,
            kernels::wgmma_bench_kernel<C>};
  }
};

/// The parameters every measurement of configuration c carries.
inline void set_config_params(measurement& m, const wgmma_config& c) {
  m.with_param("config", c.name)
      .with_param("type", c.type)
      .with_param("shape", c.shape)
      .with_param("n", c.n)
      .with_param("form", c.rs ? "RS" : "SS")
      .with_param("sparse", c.sparse)
      .with_param("group", c.group)
      .with_param("depth", c.depth)
      .with_param("in_flight", c.in_flight);
}

/// The device buffers of one configuration and the launch that uses them (type-erased: one
/// instantiation of the measurement code serves every configuration).
struct wgmma_run {
  wgmma_config c;
  unsigned grid = 1, block = 128;
  std::size_t smem = 0;
  kernels::wgmma_operands ops;
  device_buffer<std::uint8_t> a, b;
  device_buffer<std::uint32_t> meta;
  device_buffer<float> d, sums;
  device_buffer<kernels::wgmma_block_record> records;
  kernels::wgmma_bench_args args;

  wgmma_run(wgmma_config c_, kernels::wgmma_operands o, unsigned grid_, unsigned warpgroups,
            std::size_t smem_)
      : c(std::move(c_)),
        grid(grid_),
        block(128 * warpgroups),
        smem(smem_),
        ops(std::move(o)),
        a(std::max<std::size_t>(ops.a_raw.size(), 1)),
        b(ops.b_raw.size()),
        meta(ops.metadata.size()),
        d(std::size_t(warpgroups) * 64 * std::size_t(c.n)),
        sums(std::size_t(grid_) * block),
        records(grid_) {
    a.upload(ops.a_raw.empty() ? std::vector<std::uint8_t>(1, 0) : ops.a_raw);
    b.upload(ops.b_raw);
    meta.upload(ops.metadata);
    CUPROBE_CHECK(
        cudaFuncSetAttribute(c.kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    args.a = a.data();
    args.b = b.data();
    args.meta = meta.data();
    args.d = d.data();
    args.sums = sums.data();
    args.records = records.data();
  }
  void launch(long long iterations, cudaStream_t s) {
    args.iterations = iterations;
    c.kernel<<<grid, block, smem, s>>>(args);
    CUPROBE_CHECK_LAUNCH("wgmma_bench_kernel");
  }
  /// D of every warpgroup of the check block against the reference of `iterations` trips.
  kernels::wgmma_comparison check_d(long long iterations) const {
    const auto ref = kernels::wgmma_reference_of(ops.a, ops.b, 64, c.n, c.k, 1.0, nullptr,
                                                 kernels::wgmma_k_blocks(iterations, c.unroll));
    const std::vector<float> all = d.to_host();
    const std::ptrdiff_t tile = std::ptrdiff_t(64) * c.n;
    kernels::wgmma_comparison worst;
    for (unsigned w = 0; w < block / 128; ++w) {
      const std::vector<float> one(all.begin() + w * tile, all.begin() + (w + 1) * tile);
      auto cmp = kernels::wgmma_compare(one, ref, c.tolerance);
      cmp.message = "warpgroup " + std::to_string(w) + ": " + cmp.message;
      if (w == 0 || !cmp.ok) worst = cmp;
      if (!cmp.ok) break;
    }
    return worst;
  }
  /// The timed launch's checks: sums equal (bitwise) across warpgroups and blocks, zeros zero.
  void check_timed(wgmma_validation& v, const kernels::wgmma_run_clock& clk) const {
    const std::vector<float> s = sums.to_host(), dd = d.to_host();
    v.sums_agree = true;
    for (std::size_t i = 0; i < s.size() && v.sums_agree; ++i)
      v.sums_agree = std::isfinite(s[i]) && std::memcmp(&s[i], &s[i % 128], sizeof(float)) == 0;
    if (!ops.random)
      v.zero_is_zero = std::all_of(s.begin(), s.end(), [](float x) { return x == 0.f; }) &&
                       std::all_of(dd.begin(), dd.end(), [](float x) { return x == 0.f; });
    v.one_block_per_sm = clk.distinct_sms == clk.blocks;
    v.ok = v.d.ok && v.sums_agree && v.zero_is_zero && v.one_block_per_sm;
    v.message = v.ok ? "ok" : "";
    if (!v.d.ok) v.message += "validation launch: " + v.d.message + "; ";
    if (!v.sums_agree) v.message += "the accumulator sums differ between warpgroups or blocks; ";
    if (!v.zero_is_zero) v.message += "zero operands gave a non-zero accumulator; ";
    if (!v.one_block_per_sm)
      v.message += std::to_string(clk.blocks) + " blocks ran on " +
                   std::to_string(clk.distinct_sms) + " SMs; ";
  }
};

/// wgmma_throughput for a configuration given as values (see the file comment).
inline wgmma_throughput_result wgmma_throughput_of(const device_info& dev,
                                                   const wgmma_throughput_options& o,
                                                   const wgmma_config& c) {
  o.validate(c.max_warpgroups);
  require_sm90(dev, "wgmma_throughput");
  wgmma_throughput_result r;
  r.config = c.name;
  r.in_flight = c.in_flight;
  r.type = c.type;
  r.n = c.n;
  r.rs = c.rs;
  r.sparse = c.sparse;
  r.random = o.random;
  r.warpgroups = o.warpgroups;
  const unsigned grid = unsigned(dev.sm_count);
  wgmma_run run(c, kernels::make_wgmma_operands_of(c.type, c.n, c.sparse, o.random, o.seed), grid,
                o.warpgroups, kernels::wgmma_one_block_per_sm_smem(dev, c.smem_bytes));
  r.kernel = kernel_attributes::of(c.kernel, int(run.block), run.smem);
  require(r.kernel.max_active_blocks_per_sm == 1,
          "wgmma_throughput: " + r.config + " with " + std::to_string(o.warpgroups) +
              " warpgroups: " + std::to_string(r.kernel.max_active_blocks_per_sm) +
              " blocks fit an SM (" + std::to_string(r.kernel.registers) +
              " registers per thread); the experiment needs exactly one");
  if (const auto peak = model::find_tensor_peak(dev.sm(), r.type)) {
    r.peak_flop_per_clk =
        peak->flop_per_clock(c.sparse ? model::sparsity::two_four : model::sparsity::dense);
    r.peak_source =
        model::describe(*peak, c.sparse ? model::sparsity::two_four : model::sparsity::dense);
  }
  r.iterations = kernels::wgmma_iterations(o.target_ms, dev.sm_clock_khz / 1e3,
                                           r.peak_flop_per_clk.value_or(4096), c.flop_per_mma,
                                           c.unroll, int(o.warpgroups));
  r.mmas_per_warpgroup = double(r.iterations) * c.unroll;

  // Validation launch: a few trips, D against the fp64 reference.
  run.d.poison();
  run.launch(o.validate_iterations, nullptr);
  cuprobe::synchronize_device("suite::wgmma (the validation launch)");
  r.check.d = run.check_d(o.validate_iterations);

  // Timed launches, NVML read while each runs (up to one interval before its expected end).
  nvml& nv = nvml::instance();
  const nvml::device nd = nv.device_by_uuid(dev.uuid);
  const double poll_ms = o.target_ms - o.nvml_interval_ms;
  auto launch = [&](const launch_context& ctx) {
    run.launch(r.iterations, ctx.stream);
    if (ctx.warmup || o.run.profile || !nd) return;
    const auto t0 = std::chrono::steady_clock::now();
    for (int i = 1;; ++i) {
      r.nvml.add(nv.sample(nd));
      if (i * o.nvml_interval_ms >= poll_ms) break;
      std::this_thread::sleep_until(
          t0 + std::chrono::microseconds(static_cast<long long>(i * o.nvml_interval_ms * 1e3)));
    }
  };
  const double mmas = double(grid) * o.warpgroups * r.mmas_per_warpgroup;
  const double flops = mmas * c.flop_per_mma;
  const work w = work::flop_count(flops, mmas,
                                  "wgmma " + r.config + ": 2 x 64 x N x K FLOP per MMA" +
                                      (c.sparse ? " (K of the sparse instruction)" : "") +
                                      "; ops = MMAs of every warpgroup of every SM");
  run.sums.poison();
  std::vector<kernels::wgmma_run_clock> per_sample;  // each sample's launch, read after it
  const std::string name = "wgmma.throughput." + r.config;
  r.m = measure_interleaved(
      name,
      {contestant(name, std::function<void(const launch_context&)>(launch), w,
                  [&](const launch_context&) {
                    per_sample.push_back(kernels::analyse_wgmma_records(run.records.to_host()));
                  })},
      o.run)[0];
  r.m.with_launch(launch_shape{dim3(grid), dim3(run.block), run.smem}).with_kernel(r.kernel);

  r.clock = per_sample.empty() ? kernels::analyse_wgmma_records(run.records.to_host())
                               : per_sample.back();
  run.check_timed(r.check, r.clock);
  r.run_ms = r.m.seconds() * 1e3;
  r.tflops = r.m.tflop_per_s();
  r.nvml_clock_mhz = wgmma_nvml_during::median_of(r.nvml.sm_clock_mhz);
  if (!r.nvml_clock_mhz) r.nvml_clock_mhz = r.m.env.median_sm_clock_mhz();
  const double sms = double(dev.sm_count);
  // FLOP per SM cycle from the cycles %clock64 counted in each sample's own launch, then the
  // median over the samples: rate and clock never from different launches (the event median
  // beside the last launch's clock gave up to 102 % of the peak on the H200 as the clock fell
  // from launch to launch).
  if (!per_sample.empty()) {
    std::vector<double> mhz, fpc;
    for (const auto& c : per_sample) {
      mhz.push_back(c.median_mhz);
      fpc.push_back(flops / sms / c.median_block_cycles);
    }
    r.clock.median_mhz = median(mhz);
    r.flop_per_clk_per_sm = median(fpc);
  } else {
    r.flop_per_clk_per_sm = flops / sms / r.clock.median_block_cycles;
  }
  if (r.nvml_clock_mhz)
    r.flop_per_clk_per_sm_nvml = flops / (r.m.seconds() * *r.nvml_clock_mhz * 1e6 * sms);
  r.loop_flop_per_clk_per_sm = flops / sms / r.clock.median_loop_cycles;
  if (r.peak_flop_per_clk) {
    r.fraction_of_peak = r.flop_per_clk_per_sm / *r.peak_flop_per_clk;
    if (r.flop_per_clk_per_sm_nvml)
      r.fraction_of_peak_nvml = *r.flop_per_clk_per_sm_nvml / *r.peak_flop_per_clk;
    if (*r.fraction_of_peak > 1.01)
      r.m.flags.push_back({flag_code{"above_tensor_peak"},
                           fmt(100 * *r.fraction_of_peak, 1) + " % of the tensor-core peak (" +
                               fmt(*r.peak_flop_per_clk, 0) + " FLOP/clk/SM) at the in-kernel " +
                               "clock of " + fmt(r.clock.median_mhz, 0) +
                               " MHz: the MMAs or the clock are miscounted"});
  }
  if (!o.run.profile && r.m.seconds() * 1e9 > 1.02 * r.clock.span_ns + 2e4)
    r.m.flags.push_back(
        {flag_code{"host_delay"}, "the median launch took " + fmt(r.run_ms, 3) +
                                      " ms by the events but " + fmt(r.clock.span_ns / 1e6, 3) +
                                      " ms in the kernel (globaltimer): the host delayed "
                                      "the stop event (NVML reads?)"});
  set_config_params(r.m, c);
  r.m.with_param("operands", o.random ? "random" : "zero")
      .with_param("warpgroups", o.warpgroups)
      .with_param("iterations", r.iterations)
      .with_param("mmas_per_warpgroup", r.mmas_per_warpgroup)
      .with_param("run_ms", r.run_ms)
      .with_param("tflops", r.tflops)
      .with_param("clock_mhz", r.clock.median_mhz)
      .with_param("clock_min_mhz", r.clock.min_mhz)
      .with_param("clock_max_mhz", r.clock.max_mhz)
      .with_param("nvml_clock_mhz", r.nvml_clock_mhz)
      .with_param("flop_per_clk_per_sm", r.flop_per_clk_per_sm)
      .with_param("flop_per_clk_per_sm_nvml", r.flop_per_clk_per_sm_nvml)
      .with_param("loop_flop_per_clk_per_sm", r.loop_flop_per_clk_per_sm)
      .with_param("peak_flop_per_clk_per_sm", r.peak_flop_per_clk)
      .with_param("fraction_of_peak", r.fraction_of_peak)
      .with_param("fraction_of_peak_nvml", r.fraction_of_peak_nvml)
      .with_param("power_w", wgmma_nvml_during::median_of(r.nvml.power_w))
      .with_param("power_max_w", r.nvml.max_power_w())
      .with_param("temperature_max_c", r.nvml.temperature_max_c)
      .with_param("clock_event_reasons", r.nvml.clock_event_reasons)
      .with_param("registers", r.kernel.registers)
      .with_param("valid", r.check.ok)
      .with_param("check", r.check.message);
  return r;
}

/// wgmma_latency for a configuration given as values (Group 1, Depth 0).
inline wgmma_latency_result wgmma_latency_of(const device_info& dev, const wgmma_latency_options& o,
                                             const wgmma_config& c) {
  o.validate();
  require_sm90(dev, "wgmma_latency");
  wgmma_latency_result r;
  r.config = c.name;
  wgmma_run run(c, kernels::make_wgmma_operands_of(c.type, c.n, c.sparse, o.random, o.seed), 1, 1,
                c.smem_bytes);
  bool first = true;
  auto sampler = [&](const launch_context& ctx) {
    run.d.poison();
    run.launch(o.iterations, ctx.stream);
    cuprobe::wait_for(ctx.stream, "");
    const kernels::wgmma_block_record rec = run.records.to_host()[0];
    if (first) {
      r.check.d = run.check_d(o.iterations);
      run.check_timed(r.check, kernels::analyse_wgmma_records({rec}));
      first = false;
    }
    return double(rec.clock_end - rec.loop_start);
  };
  run_options ro = o.run;
  ro.mode = loop_mode::in_kernel;
  ro.iterations = std::size_t(o.iterations) * std::size_t(c.unroll);
  r.m = measure_samples("wgmma.latency." + r.config, sample_unit::cycles, sampler,
                        work::op_count(1, "one MMA, committed and waited for (wait_group<0>)"), ro);
  r.cycles = r.m.cycles_per_op();
  set_config_params(r.m, c);
  r.m.with_param("mmas", double(ro.iterations))
      .with_param("cycles_per_mma", r.cycles)
      .with_param("valid", r.check.ok)
      .with_param("check", r.check.message);
  return r;
}

}  // namespace detail

/// Throughput of configuration C over every SM (see the file comment).
template <class C>
wgmma_throughput_result wgmma_throughput(const device_info& dev,
                                         const wgmma_throughput_options& o) {
  return detail::wgmma_throughput_of(dev, o, detail::wgmma_config::of<C>());
}

/// Latency of one MMA of type A, width N (RS, sparse as asked): see the file comment.
template <class A, int N, bool RS = false, bool Sparse = false>
wgmma_latency_result wgmma_latency(const device_info& dev, const wgmma_latency_options& o) {
  return detail::wgmma_latency_of(
      dev, o, detail::wgmma_config::of<kernels::wgmma_bench<A, N, RS, Sparse, 1, 0>>());
}

}  // namespace cuprobe::suite
