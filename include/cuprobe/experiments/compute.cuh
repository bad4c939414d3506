// cuprobe/suite/compute.cuh: ready-made compute experiments built from gen/chain.cuh, the
// runner and the peak model. examples/fma_throughput, examples/instruction_table and
// device_report use these, so their numbers come from one code path.
//
//   using op = cuprobe::gen::ops::fma_f32;
//   auto t = cuprobe::suite::chain_throughput<op, 8>(dev, /*block=*/1024);   // events, validated
//   auto l = cuprobe::suite::chain_latency<op>();                            // cycles per step
//   std::printf("%.1f TFLOP/s = %.1f %% of peak; latency %.2f cycles\n",
//               t.m.tflop_per_s(), 100 * t.fraction_of_peak, l.cycles_per_step);
//
// Throughput: Chains chains per thread, a grid of (max active blocks per SM) x SMs blocks, so
// every SM is filled once; iterations chosen so a launch lasts about target_ms; timed by the
// runner (median of samples); the instructions per clock per SM use the SM clock NVML reported
// during the samples, and the fraction of peak divides by the peak model's figure.
// Latency: one warp, one chain, clock64 in the kernel, the difference of two launches that
// differ only in iterations (cancels the fixed costs), median of repeats.
// Validation: every result of the timed launch is checked for having been written; the
// sampled threads (all of them for the latency runs) are recomputed on the host.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/gen/chain.cuh"
#include "cuprobe/gen/ops.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/measure/stats.cuh"
#include "cuprobe/model/peak.cuh"

namespace cuprobe::suite {

/// Unroll of the throughput kernels: 32 steps x Chains between two loop-counter instructions
/// keeps the loop's share of issue slots below 1 % for Chains >= 4.
inline constexpr int throughput_unroll = 32;

struct throughput_result {
  measurement m;           ///< params: op, chains, block, grid, blocks_per_sm, registers, ...
  gen::chain_check check;  ///< validation of the timed launch's results
  kernel_attributes kernel;
  double instructions_per_clock_per_sm = 0;  ///< measured, at the measured clock
  double peak_instructions_per_clock = -1;   ///< the peak model's figure (-1: none)
  double fraction_of_peak = -1;              ///< measured / peak (-1: no figure)
  double peak_ops_per_s = -1;                ///< peak at the measured clock
};

struct throughput_options {
  unsigned blocks_per_sm = 0;  ///< 0: the occupancy calculator's maximum
  double target_ms = 2.0;      ///< length of one launch
  run_options run = [] {
    run_options o;
    o.warmup = 2;
    o.stop = stopping_rule::fixed(15);
    return o;
  }();
  std::uint64_t seed = 1;
  unsigned long long validate_every = 97;  ///< recompute at least every n-th thread on the host
  double host_steps = 2e7;                  ///< ... and at most this many host steps in all
};

/// Chains independent chains of Op per thread, the device filled once; see the file comment.
template <class Op, int Chains, int Unroll = throughput_unroll>
throughput_result chain_throughput(const device_info& dev, unsigned block,
                                   const throughput_options& o = {}) {
  using T = typename Op::value_type;
  throughput_result r;
  r.kernel = kernel_attributes::of(gen::chain_kernel<Op, Chains, Unroll>, int(block));
  const unsigned bps = o.blocks_per_sm ? o.blocks_per_sm : unsigned(r.kernel.max_active_blocks_per_sm);
  require(bps >= 1, std::string("chain_throughput: ") + Op::name + " with " +
                        std::to_string(Chains) + " chains does not fit a block of " +
                        std::to_string(block) + " threads on an SM");
  const unsigned grid = bps * unsigned(dev.sm_count);
  const unsigned long long threads = 1ull * grid * block;

  // Iterations for about target_ms at the model's peak (or 64 instructions/clk/SM without one).
  const auto peak = model::find_peak(dev.sm(), Op::kind);
  r.peak_instructions_per_clock = peak ? peak->instructions_per_clock : -1;
  const double ipc = peak ? peak->instructions_per_clock : 64.0;
  const double instr_target = ipc * dev.sm_count * (dev.sm_clock_khz * 1e3) * o.target_ms * 1e-3;
  const double per_iteration = double(threads) * Chains * Unroll;
  const int iterations = int(std::max(1.0, std::round(instr_target / per_iteration)));

  auto in = gen::make_chain_inputs<Op>(threads, Chains, o.seed);
  device_buffer<T> init(in.init.size()), out(in.init.size());
  init.upload(in.init);
  out.poison();
  gen::chain_args<T> args{init.data(), out.data(), in.b, in.c, iterations, nullptr};

  const double instructions = double(gen::chain_instructions(threads, Chains, iterations, Unroll));
  const double flops = instructions * Op::ops;
  const bool is_flop = Op::kind == gen::op_kind::fp32_fma || Op::kind == gen::op_kind::fp32_add ||
                       Op::kind == gen::op_kind::fp32_mul || Op::kind == gen::op_kind::fp64_fma ||
                       Op::kind == gen::op_kind::fp16x2_fma || Op::kind == gen::op_kind::bf16x2_fma;
  work w = is_flop ? work::flop_count(flops, instructions,
                                      std::string(Op::name) + ": " + std::to_string(int(Op::ops)) +
                                          " FLOP per thread-instruction; ops = thread-instructions")
                   : work::op_count(instructions, std::string(Op::name) + ": thread-instructions");
  r.m = measure(
      std::string("chain.throughput.") + Op::name,
      [&](cudaStream_t s) { gen::launch_chain<Op, Chains, Unroll>(grid, block, args, s); }, w, o.run);
  r.m.with_launch(launch_shape{dim3(grid), dim3(block), 0}).with_kernel(r.kernel);
  r.m.with_param("op", Op::name)
      .with_param("chains", Chains)
      .with_param("block", block)
      .with_param("blocks_per_sm", bps)
      .with_param("grid", grid)
      .with_param("unroll", Unroll)
      .with_param("iterations", iterations)
      .with_param("registers", r.kernel.registers)
      .with_param("occupancy", r.kernel.occupancy);

  // Recompute every n-th thread, n large enough that the host does at most host_steps steps
  // (a 16-bit FMA twin costs tens of ns a step); every result is still checked for being written.
  const double steps = double(gen::chain_steps(iterations, Unroll));
  const auto budget_every = static_cast<unsigned long long>(
      std::ceil(double(threads) * Chains * steps / o.host_steps));
  r.check = gen::validate_chains<Op>(in, out.to_host(), gen::chain_steps(iterations, Unroll),
                                     block, std::max(o.validate_every, budget_every));
  const double clock_hz = r.m.rate.clock_mhz * 1e6;
  r.instructions_per_clock_per_sm = instructions / (r.m.rate.seconds * clock_hz * dev.sm_count);
  if (peak) {
    r.fraction_of_peak = r.instructions_per_clock_per_sm / peak->instructions_per_clock;
    r.peak_ops_per_s = model::peak_per_s(dev.sm_count, peak->ops_per_clock(), clock_hz);
  }
  r.m.with_param("instructions_per_clock_per_sm", r.instructions_per_clock_per_sm)
      .with_param("fraction_of_peak", r.fraction_of_peak < 0 ? json() : json(r.fraction_of_peak))
      .with_param("valid", r.check.ok);
  return r;
}

struct latency_result {
  double cycles_per_step = 0;  ///< median over repeats
  double min = 0, max = 0;
  int repeats = 0;
  gen::chain_check check;
};

/// Unroll of the latency kernels: the loop counter and branch cost a few cycles per loop
/// iteration that the difference of two launches does not cancel; 128 dependent steps per
/// iteration make that share small (below 0.1 cycle per step).
inline constexpr int latency_unroll = 128;

/// Dependent latency of Op in cycles: one warp, one chain, two launches (iterations_short and
/// iterations_long) per repeat, clock64 difference per extra step; median of `repeats`.
template <class Op, int Unroll = latency_unroll>
latency_result chain_latency(int repeats = 5, int iterations_short = 8,
                             int iterations_long = 72, std::uint64_t seed = 2) {
  using T = typename Op::value_type;
  latency_result r;
  r.repeats = repeats;
  const unsigned threads = 32;
  std::vector<double> v;
  for (int rep = 0; rep < repeats; ++rep) {
    auto in = gen::make_chain_inputs<Op>(threads, 1, seed + rep);
    device_buffer<T> init(in.init.size()), out(in.init.size());
    device_buffer<unsigned long long> cycles(1);
    init.upload(in.init);
    unsigned long long c[2] = {0, 0};
    const int its[2] = {iterations_short, iterations_long};
    for (int k = 0; k < 2; ++k) {
      out.poison();
      gen::chain_args<T> a{init.data(), out.data(), in.b, in.c, its[k], cycles.data()};
      for (int warm = 0; warm < 2; ++warm) gen::launch_chain<Op, 1, Unroll>(1, threads, a);
      CUPROBE_CHECK(cudaDeviceSynchronize());
      c[k] = cycles.to_host()[0];
      auto chk = gen::validate_chains<Op>(in, out.to_host(), gen::chain_steps(its[k], Unroll), threads);
      if (!chk.ok || rep == 0) r.check = chk;
      if (!chk.ok) return r;
    }
    v.push_back(gen::cycles_per_step_difference(c[0], its[0], c[1], its[1], Unroll));
  }
  const auto s = summarize(v);
  r.cycles_per_step = s.median;
  r.min = s.min;
  r.max = s.max;
  return r;
}

}  // namespace cuprobe::suite
