// cuprobe_suite/latency.cuh: pointer-chase latency through the measurement protocol, and
// the latency ladder (the one implementation; examples/latency_ladder and device_report call it).
//
//   namespace ex = cuprobe::suite;
//   cuprobe::gen::chase_ring ring(64 << 20);
//   auto m = ex::chase_latency(ring, {});                      // 3 chases of the same ring
//   std::printf("%.1f cycles/hop, %.1f ns\n", m.cycles_per_op(), m.seconds() * 1e9);
//   auto lad = ex::latency_ladder(dev, {}, [](const std::string& what) {});
//   std::printf("L1 %s, L2 %s, DRAM %s cycles\n", cuprobe::fmt(lad.l1).c_str(),
//               cuprobe::fmt(lad.l2).c_str(), cuprobe::fmt(lad.dram).c_str());
//
// A chase measurement: each sample is one chase of the ring (gen::run_chase: in-kernel
// warm-up hops, then `steps` timed hops between two %clock64 reads); unit cycles, iterations =
// timed hops, one op = one hop, so cycles_per_op() is cycles per hop and seconds() the time of
// one hop at the measurement's clock (run.clock_mhz: pass the SM clock measured with
// measure_effective_clock(); NVML's median during the samples otherwise). Samples are fresh
// chases of the same ring: rings that fit the L2 are warmed in the kernel by one full pass
// (their hops hit the cache being measured); larger rings are not warmed and the runner
// flushes the L2 before each sample, or a sample would find the lines the one before loaded.
//
// The named levels come from the device, not from constants (docs/memory-latency.md):
//   L1    the level of the curve's first plateau (find_plateaus), when it starts at the
//         smallest working set (default loads: ld.global, cached in L1)
//   L2    median over working sets l2_bytes / 32 .. l2_bytes / 4 (past any L1, inside the
//         near partition)
//   DRAM  median over 4 x l2_bytes .. 32 x l2_bytes (past every cache)
//   shared memory: a ring of smem_per_block / 3 bytes in shared memory (16 KiB on sm_90)
#pragma once

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe_suite/plateau.cuh"

namespace cuprobe::suite {

/// How chase_latency measures one ring.
struct chase_latency_options {
  gen::chase_options chase;  ///< lanes, in-kernel warm-up, timed hops
  /// samples (fresh chases), warm-up chases, clock, L2 flush; no warm-up: the chase warms itself
  /// in the kernel (gen::chase_warmup)
  run_options run = run_options::fixed(0, 3);
  std::string name = "latency.chase";
  std::string load = "ld.global";  ///< the load's name in the params (for reports)

  /// Throws cuprobe::error naming the field: the chase's step bounds and the run options.
  void validate() const {
    require(chase.min_steps >= 1 && chase.min_steps <= chase.max_steps,
            name + ": chase.min_steps (" + std::to_string(chase.min_steps) +
                ") must be 1 .. chase.max_steps (" + std::to_string(chase.max_steps) + ")");
    require(chase.max_steps <= run_options::max_iterations,
            name + ": chase.max_steps is above 2^40 hops");
    require(run.batch == 1 && !run.graph,
            name + ": a chase sample is one chase; leave run.batch = 1 and run.graph = false");
    validate_options(run, name);
  }
};

namespace detail {
inline void add_chase_params(measurement& m, const gen::chase_result& r, const std::string& load) {
  m.with_param("load", load)
      .with_param("bytes", double(r.bytes))
      .with_param("stride", double(r.stride))
      .with_param("lanes", gen::to_string(r.lanes))
      .with_param("steps", double(r.steps))
      .with_param("warmup_steps", double(r.warmup_steps))
      .with_param("cycles_per_hop", m.rate.cycles_per_op)
      .with_param("ns_per_hop", m.rate.seconds ? json(*m.rate.seconds * 1e9) : json());
}
template <class Chase>
measurement chase_measurement(chase_latency_options o, std::uint64_t steps, Chase&& chase) {
  o.validate();
  o.run.mode = loop_mode::in_kernel;
  o.run.iterations = steps;
  gen::chase_result last;
  auto sampler = [&](const launch_context& c) {
    last = chase(c.stream);
    return static_cast<double>(last.cycles);
  };
  measurement m = measure_samples(
      o.name, sample_unit::cycles, sampler,
      work::op_count(1, "one dependent load (hop); cycles_per_op = cycles per hop"), o.run);
  add_chase_params(m, last, o.load);
  return m;
}
}  // namespace detail

/// The latency of chasing `ring` with `load` (gen::chase_load<Op>, or any device callable),
/// as a measurement (see the file comment). `last`, when given, receives the last chase's
/// result (lanes' end nodes, for validation).
template <class Load = gen::chase_load_global>
measurement chase_latency(const gen::chase_ring& ring, const chase_latency_options& o,
                          Load load = {}, gen::chase_result* last = nullptr) {
  const std::uint64_t steps = gen::chase_timed_steps(ring.nodes_per_ring(), o.chase);
  return detail::chase_measurement(o, steps, [&](cudaStream_t s) {
    gen::chase_options co = o.chase;
    co.stream = s;
    auto r = gen::run_chase(ring, co, load);
    if (last) *last = r;
    return r;
  });
}

/// The same for a ring of `bytes` in shared memory (gen::run_shared_chase, 4-byte stride).
inline measurement shared_chase_latency(std::size_t bytes, chase_latency_options o,
                                        gen::chase_result* last = nullptr) {
  o.load = "ld.shared";
  const unsigned rings = o.chase.lanes == gen::chase_lanes::warp_own ? gen::chase_warp_lanes : 1;
  const std::uint64_t steps = gen::chase_timed_steps(bytes / 4 / rings, o.chase);
  return detail::chase_measurement(o, steps, [&](cudaStream_t s) {
    gen::chase_options co = o.chase;
    co.stream = s;
    auto r = gen::run_shared_chase(bytes, co);
    if (last) *last = r;
    return r;
  });
}

/// Throws cuprobe::error when a ring of `bytes` (plus its host successor array and headroom)
/// would not fit in the free device memory; says so before any allocation.
inline void require_room_for_ring(std::size_t bytes, std::size_t stride, const std::string& who) {
  std::size_t free_b = 0, total_b = 0;
  CUPROBE_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const std::size_t need = bytes + bytes / stride * 4 + (std::size_t(256) << 20);
  require(need <= free_b, who + ": a working set of " + fmt_bytes(double(bytes)) +
                              " does not fit in the " + fmt_bytes(double(free_b)) +
                              " of free device memory; lower max_bytes");
}

/// What the latency ladder covers. Unset sizes derive from the device (see the file comment).
struct latency_ladder_options {
  std::size_t min_bytes = std::size_t(4) << 10;
  std::optional<std::size_t> max_bytes;  ///< default 64 x the L2 (3.75 GiB on the H200)
  unsigned points_per_octave = 2;
  unsigned repeats = 3;                     ///< samples (fresh chases) per working set
  std::optional<std::size_t> cg_max_bytes;  ///< the .cg curve stops here; default 16 x the L2;
                                            ///< 0: no .cg curve
  std::uint64_t max_steps = 1u << 18;       ///< timed hops per chase at most
  run_options run = chase_latency_options{}.run;  ///< base options (clock_mhz: pass it)

  void validate(const device_info& dev) const {
    require(dev.l2_bytes > 0, "latency_ladder: the device reports no L2 size");
    require(min_bytes >= 256 && min_bytes <= max_size(dev),
            "latency_ladder: need 256 <= min_bytes (" + std::to_string(min_bytes) +
                ") <= max_bytes (" + std::to_string(max_size(dev)) + ")");
    require(points_per_octave >= 1 && points_per_octave <= 16,
            "latency_ladder: points_per_octave is " + std::to_string(points_per_octave) +
                "; it must be 1 .. 16");
    require(repeats >= 1 && repeats <= 1000,
            "latency_ladder: repeats is " + std::to_string(repeats) + "; it must be 1 .. 1000");
    require(max_steps >= gen::chase_options{}.min_steps && max_steps <= (1ull << 30),
            "latency_ladder: max_steps is " + std::to_string(max_steps) + "; it must be " +
                std::to_string(gen::chase_options{}.min_steps) + " .. 2^30");
    validate_options(run, "latency_ladder");
  }
  std::size_t max_size(const device_info& dev) const {
    return max_bytes.value_or(64 * dev.l2_bytes);
  }
  std::size_t cg_max(const device_info& dev) const {
    return std::min(cg_max_bytes.value_or(16 * dev.l2_bytes), max_size(dev));
  }
};

struct latency_ladder_result {
  std::vector<measurement> points;  ///< one per (load, working set), then shared memory
  std::optional<double> l1, l2, l2_cg, dram, smem;  ///< cycles
  std::vector<plateau> plateaus;                    ///< of the default-load curve
  std::vector<latency_point> curve;
  /// The windows the levels were taken over, in bytes (for reports).
  double l2_window_lo = 0, l2_window_hi = 0, dram_window_lo = 0, dram_window_hi = 0;
  std::size_t smem_bytes = 0;
};

/// The latency ladder: default-load and .cg curves, shared memory, named levels, plateaus.
/// `progress(label)` is called before each point.
template <class Progress>
latency_ladder_result latency_ladder(const device_info& dev, const latency_ladder_options& o,
                                     Progress&& progress) {
  o.validate(dev);
  latency_ladder_result res;
  res.l2_window_lo = double(dev.l2_bytes) / 32;
  res.l2_window_hi = double(dev.l2_bytes) / 4;
  res.dram_window_lo = 4.0 * double(dev.l2_bytes);
  res.dram_window_hi = 32.0 * double(dev.l2_bytes);
  chase_latency_options co;
  co.chase.max_steps = o.max_steps;
  co.run = o.run;
  co.run.stop = stopping_rule::fixed(o.repeats);
  auto run_curve = [&](const char* load, std::size_t max_bytes, auto loader) {
    std::vector<latency_point> curve;
    for (std::size_t bytes : gen::chase_sweep_sizes(o.min_bytes, max_bytes, o.points_per_octave)) {
      progress(std::string(load) + " " + fmt_bytes(double(bytes)));
      require_room_for_ring(bytes, 128, "latency_ladder");
      gen::chase_ring ring(bytes, 128, 1, bytes);
      chase_latency_options c = co;
      const bool fits_l2 = bytes <= dev.l2_bytes;
      c.chase.warmup = fits_l2 ? gen::chase_warmup::full_pass : gen::chase_warmup::none;
      c.run.flush_l2 = !fits_l2;
      c.load = load;
      res.points.push_back(chase_latency(ring, c, loader));
      curve.push_back({double(bytes), res.points.back().cycles_per_op()});
    }
    return curve;
  };
  res.curve = run_curve("ld.global", o.max_size(dev), gen::chase_load_global{});
  res.plateaus = find_plateaus(res.curve);
  if (!res.plateaus.empty() && res.plateaus.front().first == 0) res.l1 = res.plateaus.front().level;
  res.l2 = window_median(res.curve, res.l2_window_lo, res.l2_window_hi);
  res.dram = window_median(res.curve, res.dram_window_lo, res.dram_window_hi);
  if (o.cg_max(dev) >= o.min_bytes && o.cg_max_bytes.value_or(1) != 0) {
    const auto cg = run_curve("ld.global.cg", o.cg_max(dev), gen::chase_load_global_cg{});
    res.l2_cg = window_median(cg, 0, res.l2_window_hi);
  }
  res.smem_bytes = std::min<std::size_t>(dev.smem_per_block / 3 / 4 * 4, dev.smem_per_block);
  progress("shared memory " + fmt_bytes(double(res.smem_bytes)));
  res.points.push_back(shared_chase_latency(res.smem_bytes, co));
  res.smem = res.points.back().cycles_per_op();
  return res;
}

}  // namespace cuprobe::suite
