// cuprobe_suite/compute.cuh: the compute experiments, built from gen/chain.cuh, the
// runner and the peak model: the one implementation examples/fma_throughput,
// examples/instruction_table and device_report call.
//
//   using op = cuprobe::gen::ops::fma_f32;
//   namespace ex = cuprobe::suite;
//   auto t = ex::chain_throughput<op, 8>(dev, /*block=*/1024, {});    // events, validated
//   auto l = ex::chain_latency<op>({});                              // cycles per step
//   std::printf("%.1f TFLOP/s = %.1f %% of peak; latency %.2f cycles\n", t.m.tflop_per_s(),
//               100 * t.fraction_of_peak.value_or(0), l.m.cycles_per_op());
//
// Throughput: Chains chains per thread, a grid of (max active blocks per SM) x SMs blocks, so
// every SM is filled once; iterations chosen so a launch lasts about target_ms; timed by the
// runner (median of samples); the instructions per clock per SM use the SM clock NVML reported
// during the samples, and the fraction of peak divides by the peak model's figure.
// Latency: one warp, one chain, clock64 in the kernel; a sample is the difference of two
// launches that differ only in iterations (cancels the fixed costs), through the runner (unit
// cycles, iterations = the extra dependent steps, so cycles_per_op() is cycles per step).
// Validation: every result of the timed launch is checked for having been written; the
// sampled threads (all of them for the latency runs) are recomputed on the host.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/gen/chain.cuh"
#include "cuprobe/gen/ops.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/model/peak.cuh"

namespace cuprobe::suite {

/// Unroll of the throughput kernels: 32 steps x Chains between two loop-counter instructions
/// keeps the loop's share of issue slots below 1 % for Chains >= 4.
inline constexpr int throughput_unroll = 32;

struct throughput_result {
  measurement m;           ///< params: op, chains, block, grid, blocks_per_sm, registers, ...
  gen::chain_check check;  ///< validation of the timed launch's results
  kernel_attributes kernel;
  double instructions_per_clock_per_sm = 0;           ///< measured, at the measured clock
  std::optional<double> peak_instructions_per_clock;  ///< the peak model's figure
  std::optional<double> fraction_of_peak;             ///< measured / peak
  std::optional<double> peak_ops_per_s;               ///< peak at the measured clock
};

struct throughput_options {
  unsigned blocks_per_sm = 0;  ///< 0: the occupancy calculator's maximum
  double target_ms = 2.0;      ///< length of one launch
  run_options run = run_options::fixed(2, 15);
  std::uint64_t seed = 1;
  unsigned long long validate_every = 97;  ///< recompute at least every n-th thread on the host
  double host_steps = 2e7;                 ///< ... and at most this many host steps in all

  void validate(unsigned block) const {
    require(block >= 1 && block <= 1024,
            "chain_throughput: block must be 1 .. 1024 threads, got " + std::to_string(block));
    require(blocks_per_sm <= 32, "chain_throughput: blocks_per_sm must be 0 (most that fit) .. 32");
    require(
        std::isfinite(target_ms) && target_ms >= 0.01 && target_ms <= 10000,
        "chain_throughput: target_ms must be 0.01 .. 10000 ms, got " + std::to_string(target_ms));
    require(validate_every >= 1, "chain_throughput: validate_every must be at least 1");
    require(std::isfinite(host_steps) && host_steps >= 1,
            "chain_throughput: host_steps must be >= 1");
    require(run.mode == loop_mode::launches && run.iterations == 1,
            "chain_throughput: one launch per sample; leave run.mode and run.iterations alone");
    validate_options(run, "chain_throughput");
  }
};

/// Chains independent chains of Op per thread, the device filled once; see the file comment.
template <class Op, int Chains, int Unroll = throughput_unroll>
throughput_result chain_throughput(const device_info& dev, unsigned block,
                                   const throughput_options& o) {
  o.validate(block);
  using T = typename Op::value_type;
  throughput_result r;
  r.kernel = kernel_attributes::of(gen::chain_kernel<Op, Chains, Unroll>, int(block));
  const unsigned bps =
      o.blocks_per_sm ? o.blocks_per_sm : unsigned(r.kernel.max_active_blocks_per_sm);
  require(bps >= 1, std::string("chain_throughput: ") + Op::name + " with " +
                        std::to_string(Chains) + " chains does not fit a block of " +
                        std::to_string(block) + " threads on an SM");
  const unsigned grid = bps * unsigned(dev.sm_count);
  const unsigned long long threads = 1ull * grid * block;

  // Iterations for about target_ms at the model's peak (or 64 instructions/clk/SM without one).
  const auto peak = model::find_peak(dev.sm(), Op::kind);
  if (peak) r.peak_instructions_per_clock = peak->instructions_per_clock;
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
  work w = model::counts_flops(Op::kind)
               ? work::flop_count(flops, instructions,
                                  std::string(Op::name) + ": " + std::to_string(int(Op::ops)) +
                                      " FLOP per thread-instruction; ops = thread-instructions")
               : work::op_count(instructions, std::string(Op::name) + ": thread-instructions");
  if (Op::kind != model::op_kind::other) w.with_op_kind(Op::kind);
  r.m = measure(
      std::string("chain.throughput.") + Op::name,
      [&](cudaStream_t s) { gen::launch_chain<Op, Chains, Unroll>(grid, block, args, s); }, w,
      o.run);
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
  const auto budget_every =
      static_cast<unsigned long long>(std::ceil(double(threads) * Chains * steps / o.host_steps));
  r.check = gen::validate_chains<Op>(in, out.to_host(), gen::chain_steps(iterations, Unroll), block,
                                     std::max(o.validate_every, budget_every));
  const double clock_hz = r.m.rate.clock_mhz.value_or(dev.sm_clock_khz / 1e3) * 1e6;
  r.instructions_per_clock_per_sm = instructions / (r.m.seconds() * clock_hz * dev.sm_count);
  if (peak) {
    r.fraction_of_peak = r.instructions_per_clock_per_sm / peak->instructions_per_clock;
    r.peak_ops_per_s = model::peak_per_s(dev.sm_count, peak->ops_per_clock(), clock_hz);
  }
  r.m.with_param("instructions_per_clock_per_sm", r.instructions_per_clock_per_sm)
      .with_param("fraction_of_peak", r.fraction_of_peak)
      .with_param("valid", r.check.ok);
  return r;
}

/// Unroll of the latency kernels: the loop counter and branch cost a few cycles per loop
/// iteration that the difference of two launches does not cancel; 128 dependent steps per
/// iteration make that share small (below 0.1 cycle per step).
inline constexpr int latency_unroll = 128;

struct latency_options {
  int iterations_short = 8;  ///< loop iterations of the short launch ...
  int iterations_long = 72;  ///< ... and of the long one; the sample is their difference
  std::uint64_t seed = 2;    ///< sample k draws its inputs with seed + k
  /// no warm-up: every sample launches each kernel twice and reads the second
  run_options run = run_options::fixed(0, 5);

  void validate() const {
    require(
        iterations_short >= 1 && iterations_long > iterations_short && iterations_long <= (1 << 20),
        "chain_latency: need 1 <= iterations_short < iterations_long <= 2^20, got " +
            std::to_string(iterations_short) + " and " + std::to_string(iterations_long));
    require(run.batch == 1 && !run.graph,
            "chain_latency: a sample is a pair of launches; leave run.batch = 1 and run.graph off");
    validate_options(run, "chain_latency");
  }
};

struct latency_result {
  measurement m;           ///< unit cycles, per dependent step: cycles_per_op() is the latency
  gen::chain_check check;  ///< validation of every launch (the first failure, else sample 0's)
};

/// Dependent latency of Op in cycles: one warp, one chain; each sample launches
/// iterations_short and iterations_long (each twice, reading the second: the first pays the
/// instruction cache) and returns the extra cycles, per extra step.
template <class Op, int Unroll = latency_unroll>
latency_result chain_latency(const latency_options& o) {
  o.validate();
  using T = typename Op::value_type;
  latency_result r;
  const unsigned threads = 32;
  bool failed = false;
  auto sampler = [&](const launch_context& ctx) {
    auto in = gen::make_chain_inputs<Op>(threads, 1, o.seed + ctx.sample);
    device_buffer<T> init(in.init.size()), out(in.init.size());
    device_buffer<unsigned long long> cycles(1);
    init.upload(in.init);
    unsigned long long c[2] = {0, 0};
    const int its[2] = {o.iterations_short, o.iterations_long};
    for (int k = 0; k < 2; ++k) {
      out.poison();
      gen::chain_args<T> a{init.data(), out.data(), in.b, in.c, its[k], cycles.data()};
      for (int warm = 0; warm < 2; ++warm)
        gen::launch_chain<Op, 1, Unroll>(1, threads, a, ctx.stream);
      cuprobe::wait_for(ctx.stream, "");
      c[k] = cycles.to_host()[0];
      auto chk =
          gen::validate_chains<Op>(in, out.to_host(), gen::chain_steps(its[k], Unroll), threads);
      if (!failed && (!chk.ok || (ctx.sample == 0 && !ctx.warmup))) r.check = chk;
      failed = failed || !chk.ok;
    }
    return static_cast<double>(c[1]) - static_cast<double>(c[0]);
  };
  run_options ro = o.run;
  ro.mode = loop_mode::in_kernel;
  ro.iterations = gen::chain_steps(o.iterations_long - o.iterations_short, Unroll);
  r.m = measure_samples(std::string("chain.latency.") + Op::name, sample_unit::cycles, sampler,
                        work::op_count(1, std::string(Op::name) + ": one dependent step"), ro);
  r.m.with_param("op", Op::name)
      .with_param("iterations_short", o.iterations_short)
      .with_param("iterations_long", o.iterations_long)
      .with_param("unroll", Unroll)
      .with_param("cycles_per_step", r.m.rate.cycles_per_op)
      .with_param("valid", r.check.ok);
  return r;
}

/// One point of an FMA chain sweep, and the sweep's analysis per block size.
struct chain_sweep_point {
  int chains = 0;
  unsigned block = 0;
  throughput_result r;
};
struct chain_sweep_block {
  unsigned block = 0;
  double best_tflops = 0, best_fraction = 0;
  std::optional<int> chains_to_97pct;        ///< fewest chains reaching 97 % of the best rate
  std::optional<int> first_lower_occupancy;  ///< fewest chains whose occupancy drops
};
struct chain_sweep_result {
  std::vector<chain_sweep_point> points;
  std::vector<chain_sweep_block> blocks;
  std::size_t best = 0;  ///< index into points of the highest FLOP/s
};

/// The per-block-size analysis of a sweep: where latency stops being exposed (the fewest chains
/// reaching 97 % of the block size's best) and where register pressure starts to cost
/// occupancy (the fewest chains whose occupancy is below the block size's best).
inline void analyse_chain_sweep(chain_sweep_result& s) {
  s.blocks.clear();
  s.best = 0;
  for (std::size_t i = 0; i < s.points.size(); ++i) {
    const auto& p = s.points[i];
    if (p.r.m.rate.flop_per_s.value_or(0) > s.points[s.best].r.m.rate.flop_per_s.value_or(0))
      s.best = i;
    if (std::none_of(s.blocks.begin(), s.blocks.end(),
                     [&](const auto& b) { return b.block == p.block; })) {
      chain_sweep_block b;
      b.block = p.block;
      s.blocks.push_back(b);
    }
  }
  for (auto& b : s.blocks) {
    double top_occ = 0;
    for (const auto& p : s.points)
      if (p.block == b.block) {
        b.best_tflops = std::max(b.best_tflops, p.r.m.tflop_per_s());
        b.best_fraction = std::max(b.best_fraction, p.r.fraction_of_peak.value_or(0));
        top_occ = std::max(top_occ, p.r.kernel.occupancy);
      }
    for (const auto& p : s.points)
      if (p.block == b.block) {
        if (!b.chains_to_97pct && p.r.m.tflop_per_s() >= 0.97 * b.best_tflops)
          b.chains_to_97pct = p.chains;
        if (!b.first_lower_occupancy && p.r.kernel.occupancy < top_occ - 1e-9)
          b.first_lower_occupancy = p.chains;
      }
  }
}

/// chain_throughput<Op, C> for every C of `chains` (each must be among the compiled counts
/// Compiled...; the order is block-major, then `chains` as given) x every block size of
/// `blocks`, each validated (a failed validation throws), analysed by analyse_chain_sweep.
/// `progress(chains, block)` is called before each point.
///   auto s = chain_sweep<op, 1, 2, 4, 8, 16>(dev, {1, 2, 4, 8, 16}, {256, 1024}, opts, progress);
/// chain_sweep_unrolled<Op, Unroll, C...> is the same with Unroll steps per chain per loop
/// iteration instead of throughput_unroll (a longer body leaves the loop counter fewer slots).
template <class Op, int Unroll, int... Compiled, class Progress>
chain_sweep_result chain_sweep_unrolled(const device_info& dev, const std::vector<int>& chains,
                                        const std::vector<unsigned>& blocks,
                                        const throughput_options& o, Progress&& progress) {
  static_assert(sizeof...(Compiled) > 0, "cuprobe::suite::chain_sweep needs chain counts");
  require(!blocks.empty() && !chains.empty(), "chain_sweep: no block sizes or no chain counts");
  for (unsigned b : blocks) o.validate(b);
  chain_sweep_result s;
  for (unsigned block : blocks)
    for (int n : chains) {
      progress(n, block);
      auto r = gen::dispatch_chains<Compiled...>(n, [&](auto c) {
        return chain_throughput<Op, decltype(c)::value, Unroll>(dev, block, o);
      });
      require(r.check.ok, "chain_sweep: validation failed: " + r.check.message);
      s.points.push_back(chain_sweep_point{n, block, std::move(r)});
    }
  analyse_chain_sweep(s);
  return s;
}

/// chain_sweep_unrolled at throughput_unroll (see above).
template <class Op, int... Compiled, class Progress>
chain_sweep_result chain_sweep(const device_info& dev, const std::vector<int>& chains,
                               const std::vector<unsigned>& blocks, const throughput_options& o,
                               Progress&& progress) {
  return chain_sweep_unrolled<Op, throughput_unroll, Compiled...>(dev, chains, blocks, o,
                                                                  std::forward<Progress>(progress));
}

/// Latency and throughput of one operation: a row of the instruction table.
struct instruction_row {
  latency_result latency;
  throughput_result throughput;
  double tera_ops_per_s = 0;  ///< Op::ops x instructions per second
};

/// chain_latency<Op> and chain_throughput<Op, Chains> (blocks of `block` threads), both
/// validated (a failed validation throws).
template <class Op, int Chains = 8>
instruction_row instruction_table_row(const device_info& dev, unsigned block,
                                      const latency_options& lo, const throughput_options& to) {
  instruction_row row;
  row.latency = chain_latency<Op>(lo);
  require(row.latency.check.ok, std::string("latency validation: ") + row.latency.check.message);
  row.throughput = chain_throughput<Op, Chains>(dev, block, to);
  require(row.throughput.check.ok,
          std::string("throughput validation: ") + row.throughput.check.message);
  row.tera_ops_per_s = Op::ops * row.throughput.instructions_per_clock_per_sm * dev.sm_count *
                       row.throughput.m.rate.clock_mhz.value_or(dev.sm_clock_khz / 1e3) * 1e6 /
                       1e12;
  row.throughput.m.with_param("latency_cycles", row.latency.m.rate.cycles_per_op)
      .with_param("latency_min", row.latency.m.stats.min)
      .with_param("latency_max", row.latency.m.stats.max)
      .with_param("sass", Op::sass)
      .with_param("tera_ops_per_s", row.tera_ops_per_s);
  return row;
}

}  // namespace cuprobe::suite
