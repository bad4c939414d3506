// cuprobe/suite/latency.cuh: the latency ladder as a ready-made experiment (gen/chase.cuh +
// the measurement record), shared by examples/latency_ladder and device_report.
//
//   auto lad = cuprobe::suite::latency_ladder(dev, clock_mhz, {.max_bytes = 1ull << 30});
//   std::printf("L1 %.0f, L2 %.0f, DRAM %.0f cycles\n", lad.l1, lad.l2, lad.dram);
//
// Each working set is chased `repeats` times (a fresh chase each, same ring; rings up to the
// L2 size are warmed by one full pass first, larger rings start cold: no warm-up, L2 flushed
// before each repeat); the repeats become the samples of a measurement whose one "op" is a hop, so rates.cycles_per_op is the
// latency in cycles at the given clock. The named levels are medians over fixed windows of
// the curve, chosen from the device's own sizes (docs/memory-latency.md):
//   L1    working sets up to 32 KiB, default loads (ld.global, cached in L1)
//   L2    2 MiB .. 16 MiB, well past any L1 and inside the L2 (".cg" curve beside it)
//   DRAM  4 x L2 .. 1 GiB (past every cache)
//   shared memory: a 16 KiB ring in shared memory
// The plateau detector's output is reported beside these windows.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/measure/l2_flush.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/measure/stats.cuh"
#include "cuprobe/model/plateau.cuh"
#include "cuprobe/report/table.cuh"

namespace cuprobe::suite {

struct latency_ladder_options {
  std::size_t min_bytes = std::size_t(4) << 10;
  std::size_t max_bytes = std::size_t(4) << 30;
  unsigned points_per_octave = 2;
  int repeats = 3;
  std::size_t cg_max_bytes = std::size_t(1) << 30;  ///< the .cg curve stops here (0: no .cg curve)
  std::uint64_t max_steps = 1u << 18;               ///< timed hops per chase at most
};

struct latency_ladder_result {
  std::vector<measurement> points;  ///< one per (load, working set)
  double l1 = -1, l2 = -1, l2_cg = -1, dram = -1, smem = -1;  ///< cycles
  std::vector<model::plateau> plateaus;  ///< of the default-load curve
  std::vector<model::latency_point> curve;
};

namespace detail {

inline measurement chase_measurement(const std::string& load, std::size_t bytes,
                                     const std::vector<gen::chase_result>& runs,
                                     double clock_mhz, const device_info& dev) {
  measurement m;
  m.name = "latency.chase";
  for (const auto& r : runs) m.samples_s.push_back(r.cycles_per_hop / (clock_mhz * 1e6));
  m.declared = work::op_count(1, "one dependent load (hop); cycles_per_op = cycles per hop");
  m.options.clock_mhz = clock_mhz;
  m.options.stop = stopping_rule::fixed(runs.size());
  m.options.warmup = 0;
  m.stop_verdict = "converged";
  finish_measurement(m, dev);
  m.flags.erase(std::remove_if(m.flags.begin(), m.flags.end(),
                               [](const flag& f) { return f.code == "clock_unknown"; }),
                m.flags.end());  // the clock is given (measured by the caller)
  m.with_param("load", load)
      .with_param("bytes", bytes)
      .with_param("stride", runs.front().stride)
      .with_param("steps", runs.front().steps)
      .with_param("warmup_steps", runs.front().warmup_steps)
      .with_param("cycles_per_hop", m.rate.cycles_per_op)
      .with_param("ns_per_hop", m.rate.cycles_per_op / clock_mhz * 1e3);
  return m;
}

inline double window_median(const std::vector<model::latency_point>& c, double lo, double hi) {
  std::vector<double> v;
  for (const auto& p : c)
    if (p.bytes >= lo && p.bytes <= hi) v.push_back(p.cycles);
  return v.empty() ? -1 : summarize(v).median;
}

}  // namespace detail

/// The latency ladder: default-load and .cg curves, shared memory, named levels, plateaus.
/// `clock_mhz` converts cycles to seconds (pass the measured SM clock). `progress(label)` is
/// called before each point.
template <class Progress>
latency_ladder_result latency_ladder(const device_info& dev, double clock_mhz,
                                     const latency_ladder_options& o, Progress&& progress) {
  require(clock_mhz > 0, "latency_ladder: pass the SM clock in MHz");
  latency_ladder_result res;
  gen::chase_options co;
  co.max_steps = o.max_steps;
  co.sm_clock_mhz = clock_mhz;
  l2_flush flush(dev.l2_bytes);
  auto run_curve = [&](const char* load, std::size_t max_bytes, auto loader) {
    std::vector<model::latency_point> curve;
    for (std::size_t bytes : gen::chase_sweep_sizes(o.min_bytes, max_bytes, o.points_per_octave)) {
      progress(std::string(load) + " " + fmt_bytes(double(bytes)));
      std::size_t free_b = 0, total_b = 0;
      CUPROBE_CHECK(cudaMemGetInfo(&free_b, &total_b));
      require(bytes + bytes / 32 + (std::size_t(256) << 20) <= free_b,
              "latency_ladder: " + std::to_string(bytes) + " bytes do not fit in free memory");
      gen::chase_ring ring(bytes, 128, 1, bytes);
      // Each repeat starts from the same node: a ring that fits the L2 is warmed by one full
      // pass (its hops then hit the cache being measured); a larger ring is not warmed and
      // the L2 is flushed first, or a repeat would find the lines the one before it loaded.
      gen::chase_options rco = co;
      const bool fits_l2 = bytes <= dev.l2_bytes;
      rco.warmup = fits_l2 ? gen::chase_warmup::full_pass : gen::chase_warmup::none;
      std::vector<gen::chase_result> runs;
      for (int r = 0; r < o.repeats; ++r) {
        if (!fits_l2) flush(nullptr);
        runs.push_back(gen::run_chase(ring, rco, loader));
      }
      res.points.push_back(detail::chase_measurement(load, bytes, runs, clock_mhz, dev));
      curve.push_back({double(bytes), res.points.back().rate.cycles_per_op});
    }
    return curve;
  };
  res.curve = run_curve("ld.global", o.max_bytes, gen::chase_load_global{});
  res.plateaus = model::find_plateaus(res.curve);
  res.l1 = detail::window_median(res.curve, 0, 32 << 10);
  res.l2 = detail::window_median(res.curve, 2 << 20, 16 << 20);
  res.dram = detail::window_median(res.curve, 4.0 * double(dev.l2_bytes), double(1ull << 30));
  if (o.cg_max_bytes) {
    const auto cg = run_curve("ld.global.cg", std::min(o.cg_max_bytes, o.max_bytes),
                              gen::chase_load_global_cg{});
    res.l2_cg = detail::window_median(cg, 0, 16 << 20);
  }
  progress("shared memory 16 KiB");
  std::vector<gen::chase_result> sm;
  for (int r = 0; r < o.repeats; ++r) sm.push_back(gen::run_shared_chase(16 << 10, co));
  res.points.push_back(detail::chase_measurement("ld.shared", 16 << 10, sm, clock_mhz, dev));
  res.smem = res.points.back().rate.cycles_per_op;
  return res;
}

}  // namespace cuprobe::suite
