// cuprobe/calibrate/ceilings.cuh: this card's ceilings record from any main(), in seconds: DRAM
// and L2 read, write and copy, the FP32 FMA fraction of peak and the SM clock, measured with the
// library's kernels (gen/) through the one runner; docs/ceilings.md has the plan and the keys.
//
//   const auto dev = cuprobe::device_info::query();
//   cuprobe::ensure_ceilings(dev);  // measures and writes only when the record is missing or stale
//   auto m = cuprobe::measure("copy", launch, w);  // m.ceiling: against this card's own record
//   auto r = cuprobe::measure_ceilings(dev);       // or measure only, and write when you choose:
//   cuprobe::write_ceilings_record(dev, driver, r.metrics, r.clocks);
//
// plan_ceilings (host only) says what it launches: DRAM, gen/stream.cuh's float4 .cg kernels over
// 8 x the L2 or more (a key the best point); L2, gen::cache_bw_kernel at L2 / 16, / 12, / 8 (the
// median); FP32 FMA, gen::chain_kernel; the SM clock, measure_effective_clock.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cuprobe/core/box.cuh"
#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/gen/cache_bw.cuh"
#include "cuprobe/gen/chain.cuh"
#include "cuprobe/gen/stream.cuh"
#include "cuprobe/measure/ceilings.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/measure/timer_calibration.cuh"

namespace cuprobe {

/// The keys measure_ceilings writes (device_report --ceilings 1 adds the record's others).
CUPROBE_DECL const std::vector<std::string>& measured_ceiling_keys();

/// What measure_ceilings measures, and for how long (the file comment).
struct ceilings_options {
  run_options run = run_options::fixed(1, 5);     ///< every point's warm-up and samples
  double dram_l2_factor = 64;                     ///< DRAM arrays: this many x the L2, 8 .. 1024
  std::optional<std::uint64_t> dram_array_bytes;  ///< instead: each DRAM array's bytes (tests)
  std::uint32_t dram_passes = 2;                  ///< passes per persistent DRAM launch, 1 .. 64
  double l2_bytes_per_launch = 8.0 * (1u << 30);  ///< L2 launches move this much, 1 MiB .. 10 TB
  double fma_ms = 10;                             ///< FP32 FMA launch at the peak, 0.1 .. 1000
  double clock_window_ms = 20;                    ///< the SM clock's window, 1 .. 1000

  /// Throws cuprobe::error naming the field and its limits.
  CUPROBE_DECL void validate() const;
};

/// One bandwidth point of the plan.
struct ceilings_point {
  std::string key;                                          ///< "dram.read.tbps", ...
  gen::stream_pattern pattern = gen::stream_pattern::read;  ///< read, write or copy
  bool l2 = false;        ///< gen::cache_bw_kernel in the L2, else a stream kernel from DRAM
  bool covering = false;  ///< a covering grid (one pass a launch), else persistent
  int blocks_per_sm = 1;  ///< persistent grids: blocks per SM ...
  int threads = 1024;     ///< ... of this many threads
  std::uint64_t array_bytes = 0;  ///< each array's
  std::uint64_t passes = 1;       ///< per launch: passes (DRAM) or rounds (L2)
  double bytes_per_launch = 0;    ///< read + written by one launch
};

/// What measure_ceilings will do on a device (plan_ceilings).
struct ceilings_plan {
  std::vector<ceilings_point> points;  ///< DRAM, then L2; each pattern's points together
  unsigned fma_grid = 0;               ///< blocks of the FMA launch (fewer if fewer fit)
  int fma_iterations = 0;              ///< its loop iterations of 128 steps x 10 chains
  std::size_t launches_per_point = 0;  ///< warm-up + at most max_samples

  /// Launches, warm-up included: every point and the FMA, + 1 for the clock.
  std::size_t launches() const { return (points.size() + 1) * launches_per_point + 1; }
  /// Bytes read and written by every launch of every point.
  CUPROBE_DECL double bytes_moved() const;
};

/// The plan of measure_ceilings on `d` with `free_bytes` of device memory free (the file comment).
CUPROBE_DECL ceilings_plan plan_ceilings(const device_info& d, const ceilings_options& o,
                                         std::uint64_t free_bytes);

/// What measure_ceilings found.
struct measured_ceilings {
  json metrics = json::object();    ///< key -> number (measured_ceiling_keys()), for the record
  json clocks = json::object();     ///< clock.sm.effective_mhz and, with NVML, clock.sm.nvml_mhz
  std::vector<measurement> points;  ///< every measurement, in the order taken
  /// A DRAM or FMA key and the index of the point that gave it (best_of() finds one).
  std::vector<std::pair<std::string, std::size_t>> best;
  ceilings_plan plan;  ///< what was planned
  double wall_s = 0;   ///< seconds it took, allocations included

  /// The point that gave `key` (a DRAM or FMA key); cuprobe::error when none did.
  CUPROBE_DECL const measurement& best_of(const std::string& key) const;
};

/// gen::cache_bw_kernel<P, float4, LdOp, paired store, U> over arrays of about `bytes` on
/// blocks_per_sm x SMs blocks of `threads` (gen::cache_bw_size_of), through the runner, the work
/// from `src`; `check` gets the exact check of the last launch (the suite's cache_bw_measure).
template <gen::stream_pattern P, class LdOp = ptx::cache::cg, int U = gen::cache_bw_unroll>
measurement measure_cache_bw(const device_info& dev, std::size_t bytes, bool replicated,
                             int blocks_per_sm, int threads, double bytes_per_launch,
                             const run_options& run, data_source src, gen::stream_check& check) {
  using StOp = gen::paired_store_t<LdOp>;
  const unsigned grid = unsigned(blocks_per_sm * dev.sm_count), t = unsigned(threads);
  const auto size = gen::cache_bw_size_of(P, bytes, grid, t, U, replicated, bytes_per_launch);
  gen::stream_workload w(P, 16, size.elements);
  w.fill_inputs(7);
  w.poison_outputs();
  (void)w.args(launch_shape{dim3(grid), dim3(t), 0});  // the sinks, and what check() assumes
  const auto a = gen::cache_bw_args_for(w, t, grid, std::uint32_t(size.rounds), U, replicated);
  const bool reads = P != gen::stream_pattern::write, writes = P != gen::stream_pattern::read;
  auto m = measure(
      std::string("cache.") + gen::to_string(P),
      [&](cudaStream_t s) {
        gen::cache_bw_kernel<P, float4, LdOp, StOp, U><<<grid, t, 0, s>>>(a);
        CUPROBE_CHECK_LAUNCH("cuprobe::gen::cache_bw_kernel");
      },
      work::bytes_moved(reads ? size.bytes : 0, writes ? size.bytes : 0,
                        !writes  ? "read: every element read, per round"
                        : !reads ? "write: every element written, per round"
                                 : "copy: N read + N written, per round")
          .with_source(src)
          .with_working_set(w.working_set_bytes()),
      run);
  check = gen::check_cache_bw(w, a, grid, t, U);
  m.with_launch(launch_shape{dim3(grid), dim3(t), 0})
      .with_kernel(kernel_attributes::of(gen::cache_bw_kernel<P, float4, LdOp, StOp, U>, threads))
      .with_param("rounds", double(size.rounds))
      .with_param("array_bytes", double(size.elements * 16));
  return m.with_param("working_set_bytes", w.working_set_bytes()).with_param("valid", check.ok);
}

namespace detail {

template <int = 0>
gen::stream_kernel ceilings_stream_kernel(gen::stream_pattern p, bool covering) {
  using S = gen::stream_pattern;
  using cg = ptx::cache::cg;
  constexpr auto in = loop_mode::in_kernel, once = loop_mode::launches;
  constexpr auto cover = gen::stream_grid::covering, all = gen::stream_grid::persistent;
  if (covering)
    return p == S::write ? gen::make_stream_kernel<S::write, float4, cg, once, cover>()
                         : gen::make_stream_kernel<S::copy, float4, cg, once, cover>();
  return p == S::read    ? gen::make_stream_kernel<S::read, float4, cg, in, all>()
         : p == S::write ? gen::make_stream_kernel<S::write, float4, cg, in, all>()
                         : gen::make_stream_kernel<S::copy, float4, cg, in, all>();
}

/// One DRAM point of the plan on workload `w` (filled), its output validated.
template <int = 0>
measurement ceilings_dram_point(const ceilings_point& pt, gen::stream_workload& w, int sms,
                                run_options o) {
  const auto k = ceilings_stream_kernel(pt.pattern, pt.covering);
  const launch_shape shape = pt.covering ? gen::stream_covering_shape(w.elements(), pt.threads)
                                         : gen::stream_shape(pt.blocks_per_sm, pt.threads, sms);
  w.poison_outputs();
  const gen::stream_args a = w.args(shape, k.mode, std::uint32_t(pt.passes));
  const gen::stream_bytes b = w.bytes();
  o.mode = k.mode;
  o.iterations = pt.covering ? 1 : pt.passes;
  const double n = double(o.iterations);
  auto m = measure(
      std::string("stream.") + gen::to_string(pt.pattern),
      [&](cudaStream_t s) { k.launch(shape, a, s); },
      work::bytes_moved(double(b.bytes_read) / n, double(b.bytes_written) / n, b.rule)
          .with_source(data_source::dram)
          .with_working_set(w.working_set_bytes()),
      o);
  w.check().require();
  const std::string t = std::to_string(pt.threads);
  m.with_launch(shape).with_param("case", k.name()).with_param("valid", true);
  return m.with_param("config",
                      pt.covering ? "cover x" + t : std::to_string(pt.blocks_per_sm) + "x" + t);
}

}  // namespace detail

/// Measures this card's ceilings (the file comment) on `d`, the current device, and returns them
/// without writing anything; throws cuprobe::error when an output is wrong.
template <int = 0>  // as every function here that launches: its kernels compiled where it is used
measured_ceilings measure_ceilings(const device_info& d, const ceilings_options& o = {}) {
  require(current_device().uuid == d.uuid,
          "measure_ceilings: " + d.name + " is not the current device (cudaSetDevice first)");
  const double t0 = monotonic_s();
  std::size_t free_bytes = 0, total = 0;
  CUPROBE_CHECK(cudaMemGetInfo(&free_bytes, &total));
  measured_ceilings r;
  r.plan = plan_ceilings(d, o, free_bytes);
  std::vector<std::pair<std::string, std::vector<double>>> l2;  // key -> TB/s of its points
  // A box, not an optional: GCC 12 takes optional::emplace's reset of the old arrays for a read
  // of uninitialized ones (-Wmaybe-uninitialized), depending on what it inlines.
  box<gen::stream_workload> w;
  using S = gen::stream_pattern;
  for (const auto& pt : r.plan.points) {
    gen::stream_check c;
    if (pt.l2) w = {};  // the DRAM arrays go before the L2 points
    if (!pt.l2 && (!w || w->pattern() != pt.pattern)) {
      w.emplace(pt.pattern, 16, pt.array_bytes / 16);  // the old arrays go first
      w->fill_inputs(1);
    }
    const auto l2_point = [&](auto p) {
      return measure_cache_bw<decltype(p)::value>(d, pt.array_bytes, false, 1, pt.threads,
                                                  o.l2_bytes_per_launch, o.run, data_source::l2, c);
    };
    measurement m = !pt.l2                  ? detail::ceilings_dram_point(pt, *w, d.sm_count, o.run)
                    : pt.pattern == S::read ? l2_point(std::integral_constant<S, S::read>{})
                    : pt.pattern == S::write ? l2_point(std::integral_constant<S, S::write>{})
                                             : l2_point(std::integral_constant<S, S::copy>{});
    if (pt.l2) c.require();
    const double tbps = m.gb_per_s() / 1e3;
    if (pt.l2) {
      slot(l2, pt.key).push_back(tbps);
    } else if (!r.metrics.find(pt.key) || tbps > r.metrics.at(pt.key).as_number()) {
      r.metrics[pt.key] = tbps;
      slot(r.best, pt.key) = r.points.size();
    }
    r.points.push_back(std::move(m));
  }
  for (const auto& [key, v] : l2) r.metrics[key] = median(v);

  using op = gen::ops::fma_f32;  // FP32 FMA: 10 chains of 128 steps a loop iteration
  const auto attr = kernel_attributes::of(gen::chain_kernel<op, 10, 128>, 1024);
  const unsigned grid =
      std::min(r.plan.fma_grid, unsigned(attr.max_active_blocks_per_sm * d.sm_count));
  require(grid >= 1, "measure_ceilings: the FP32 FMA chain kernel does not fit an SM");
  const unsigned long long threads = 1024ull * grid;
  const int its = r.plan.fma_iterations;
  const auto in = gen::make_chain_inputs<op>(threads, 10, 1);
  device_buffer<float> init(in.init.size()), out(in.init.size());
  init.upload(in.init);
  out.poison();
  const gen::chain_args<float> a{init.data(), out.data(), in.b, in.c, its, nullptr};
  const double instr = double(gen::chain_instructions(threads, 10, its, 128));
  auto fma = measure(
      "chain.throughput.fma.rn.f32",
      [&](cudaStream_t s) { gen::launch_chain<op, 10, 128>(grid, 1024, a, s); },
      work::flop_count(2 * instr, instr, "fma.rn.f32: 2 FLOP per thread-instruction")
          .with_op_kind(model::op_kind::fp32_fma),
      o.run);
  const auto steps = gen::chain_steps(its, 128);
  const auto chk = gen::validate_chains<op>(
      in, out.to_host(), steps, 1024, std::max(97ull, (unsigned long long)(threads * steps / 2e6)));
  require(chk.ok, "measure_ceilings: the FP32 FMA chains are wrong: " + chk.message);
  const double hz = fma.rate.clock_mhz.value_or(d.sm_clock_khz / 1e3) * 1e6;
  r.metrics["fma.f32.tflops"] = fma.tflop_per_s();
  if (const auto peak = model::find_peak(d.sm(), model::op_kind::fp32_fma))
    r.metrics["fma.f32.fraction_of_peak"] =
        instr / (fma.seconds() * hz * d.sm_count) / peak->instructions_per_clock;
  slot(r.best, "fma.f32.tflops") = r.points.size();
  fma.with_launch(launch_shape{dim3(grid), dim3(1024), 0}).with_kernel(attr);
  fma.with_param("chains", 10).with_param("iterations", its).with_param("valid", chk.ok);
  r.points.push_back(std::move(fma));

  timer_characterisation tc;
  measure_effective_clock(tc, o.clock_window_ms);
  r.metrics["clock.sm.effective_mhz"] = r.clocks["clock.sm.effective_mhz"] =
      tc.effective_sm_clock_mhz;
  if (tc.nvml_sm_clock_mhz) r.clocks["clock.sm.nvml_mhz"] = *tc.nvml_sm_clock_mhz;
  r.wall_s = monotonic_s() - t0;
  return r;
}

/// `base` with every key of `fresh` set to fresh's value.
CUPROBE_DECL json merge_ceilings_metrics(const json& base, const json& fresh);

/// Why `c`, the ceilings of `d`, need measure_ceilings, as a sentence ("" when they do not): no
/// record of the card (or one ignored: unreadable, another card's), a stale one, or one without
/// a key measure_ceilings writes.
CUPROBE_DECL std::string ceilings_record_needed(const ceilings& c, const device_info& d);

/// This card's ceilings, after measure_ceilings and a new record when ceilings_record_needed says
/// so (one line on stderr says why). A fresh record that lacks keys keeps its others; a stale
/// record's figures are not carried into the new one.
template <int = 0>
ceilings ensure_ceilings(const device_info& d, const ceilings_options& o = {}) {
  const std::string driver = nvml::instance().driver_version();
  const ceilings c = ceilings::for_device(d, driver);
  const std::string why = ceilings_record_needed(c, d);
  if (why.empty()) return c;
  std::fprintf(stderr, "cuprobe: measuring this card's ceilings (%s)\n", why.c_str());
  const measured_ceilings r = measure_ceilings(d, o);
  const bool keep = c.card() && c.card_stale().empty();
  write_ceilings_record(
      d, driver, keep ? merge_ceilings_metrics(c.card()->metrics, r.metrics) : r.metrics, r.clocks);
  reload_ceilings();
  return ceilings::for_device(d, driver);
}

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/calibrate/impl/ceilings.cuh"
#endif
