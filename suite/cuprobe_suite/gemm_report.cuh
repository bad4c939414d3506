// cuprobe_suite/gemm_report.cuh: one problem's GEMM benchmark around a user's kernel: its
// configurations ("rows") timed and checked, the SM clock measured in the kernel beside NVML's,
// the copy-only / compute-only overlap, a head-to-head with cuBLASLt in alternation, the table
// and the summary keys; gemm_main(), the program around them. examples/gemm.cu builds its kernel
// and uses this.
//
//   namespace ex = cuprobe::suite;
//   ex::gemm_bench b(dev, {8192, 8192, 8192}, run, /*with_peer=*/true, 4096 /*FLOP/clk/SM*/);
//   b.add("my kernel", ex::gemm_variant::full, [&](cudaStream_t s) { mine(s, b.problem()); },
//         [&] { return my_region_timer.read(); }, ctas);   // the kernel's clock records
//   b.head_to_head(3, run);                 // the 3 fastest rows and cuBLASLt, alternating
//   b.print();
//   b.report(results, summary);             // gemm.bf16.8192.vs_cublas, ...
//
//   // Or the whole program: the shapes, the command line and the outputs around your rows,
//   // each named and described by a gemm_kernel_config ("cluster 2, 4 stages, ...").
//   return ex::gemm_main(argc, argv, "my_gemm: ...", [&](ex::gemm_bench& b, const cli& c) {
//     b.add(ex::gemm_kernel_config{4, 2, 2}, ex::gemm_variant::full, launch, records, ctas);
//   });
//
// Choices:
// - Each row is timed through the runner when it is added, after C is poisoned;
//   a full row's output is then checked (check_gemm: against cuBLASLt's and fp64 samples).
// - The SM clock of a row is measured in its kernel (a region_timer span per CTA, clock_mhz_of):
//   NVML's clock is sampled too slowly for launches of a millisecond, and under tensor load the
//   two differ by 300 MHz (docs/hopper-gemm.md). The records are read after every sample (the
//   `after` hook of measure_interleaved, outside the timed region), so each sample has its own
//   clock: the row's clock is their median, and its fraction of peak the median over the
//   samples of each sample's rate at that sample's clock. (The last launch's clock beside the
//   median time gives up to 102 % when the card changes power state during the samples.)
// - Rows are timed with measure_interleaved() of one contestant: measure()'s protocol, plus
//   that hook.
// - The headline is the head-to-head, not the sweep. The sweep measures rows one after the
//   other, and whichever runs first after cuBLASLt's candidates starts on a hotter,
//   power-capped card (up to 6 % lower at 8192^3 on the H200). The
//   head-to-head takes the `top` fastest correct full rows of the sweep and cuBLASLt's best
//   algorithm and measures them in alternating rounds (measure/interleave.cuh), so that each
//   sees the same card. gemm.bf16.<shape>.vs_cublas is the median over the rounds of the paired
//   ratio (cuBLASLt's time / the row's, in the same round) of the row where it is highest. Not
//   the ratio of the two medians (kept as vs_cublas_of_medians): the card can change power
//   state in the middle of the rounds (at 8192^3 every contestant went from 1.34-1.37 ms to
//   1.55-1.61 ms at round 10 of 20 on GPU-f25198a4), and then the two medians fall on
//   different sides of the change (1.049 x from medians against 0.992 x paired in that run).
//   The sweep's own ratio stays in the summary as sweep_vs_cublas. When cuBLASLt's times step
//   (split_levels: max / min above 1.05, split at the midpoint), the ratio over the fast rounds
//   and over the slow ones is printed, kept (vs_cublas_fast_rounds, vs_cublas_slow_rounds,
//   fast_rounds) and flagged on every row of the head-to-head (power_state_step): under a
//   sustained power cap the ranking can differ from a burst's.
// - Overlap: time(full) / max(time(copy only), time(compute only)) for the configuration whose
//   three variants were all added (the first such).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/hopper/stream_k.cuh"
#include "cuprobe/hopper/tensor_map_spec.cuh"
#include "cuprobe/hopper/tile_scheduler.cuh"
#include "cuprobe/measure/interleave.cuh"
#include "cuprobe/measure/region_timer.cuh"
#include "cuprobe/model/peak.cuh"
#include "cuprobe/report/cli.cuh"
#include "cuprobe/report/results.cuh"
#include "cuprobe/report/summary.cuh"
#include "cuprobe/report/table.cuh"
#include "cuprobe_suite/gemm.cuh"
#include "cuprobe_suite/levels.cuh"

namespace cuprobe::suite {

/// What a kernel does of the GEMM: all of it, only the TMA loads, or only the MMAs (on tiles
/// loaded once).
enum class gemm_variant { full, copy_only, compute_only };

inline const char* gemm_variant_suffix(gemm_variant v) {
  return v == gemm_variant::full        ? ""
         : v == gemm_variant::copy_only ? " copy only"
                                        : " compute only";
}

/// What a row of a Hopper GEMM (examples/gemm) sets at run time.
struct gemm_options {
  hopper::raster order = hopper::raster::grouped_m;
  int group = 8;                                    ///< unit rows per band (grouped_m only)
  hopper::tail_mode tail = hopper::tail_mode::off;  ///< stream-K tail: off, on, or where it pays
  hopper::l2_promotion_mode promote = hopper::l2_promotion_mode::b256;  ///< of the A and B loads
};

/// A configuration of such a kernel: its template parameters, its options, and whether its
/// stream-K schedule took the tail. name() is the row's name in the tables and the JSON
/// ("ping-pong 128x192, cluster 2, 4 stages, 2 epilogue buffers, grouped_m 8"); describe() adds
/// its parameters to the row's measurement (stages, cluster, raster, stream_k_tail,
/// stream_k_tail_used, schedule, tile_n).
struct gemm_kernel_config {
  int stages = 4;
  int cluster = 1;           ///< CTAs per cluster (along M)
  int epilogue_buffers = 2;  ///< 0: direct stores from registers (no shared memory)
  bool pingpong = false;     ///< each consumer on its own tile (else both on one: cooperative)
  int tile_m = 128, tile_n = 256;  ///< CTA tile (ping-pong: each consumer's)
  gemm_options options;
  bool tail_used = false;  ///< whether the schedule has a stream-K tail

  std::string name() const {
    const gemm_options& o = options;
    const std::string tail =
        o.tail == hopper::tail_mode::on ? ", stream-K tail"
        : o.tail == hopper::tail_mode::automatic
            ? std::string(", stream-K tail auto (") + (tail_used ? "on" : "off") + ")"
            : "";
    return (pingpong ? "ping-pong " + std::to_string(tile_m) + "x" + std::to_string(tile_n) + ", "
                     : std::string()) +
           "cluster " + std::to_string(cluster) + ", " + std::to_string(stages) + " stages, " +
           (epilogue_buffers == 0 ? std::string("direct stores")
                                  : std::to_string(epilogue_buffers) + " epilogue buffers") +
           ", " + hopper::raster_name(o.order) +
           (o.order == hopper::raster::grouped_m ? " " + std::to_string(o.group) : "") +
           (o.promote == hopper::l2_promotion_mode::none ? ", no L2 promotion" : "") + tail;
  }
  measurement& describe(measurement& m) const {
    return m.with_param("stages", stages)
        .with_param("cluster", cluster)
        .with_param("raster", hopper::raster_name(options.order))
        .with_param("stream_k_tail", hopper::tail_mode_name(options.tail))
        .with_param("stream_k_tail_used", tail_used)
        .with_param("schedule", pingpong ? "pingpong" : "cooperative")
        .with_param("epilogue", epilogue_buffers == 0 ? "direct" : "tma")
        .with_param("tile_n", tile_n);
  }
};

/// One configuration of a kernel on the problem, timed (and, if full, checked).
struct gemm_row {
  std::string config;  ///< the configuration, without the variant
  gemm_variant variant = gemm_variant::full;
  measurement m;
  gemm_check check;
  bool checked = false;
  unsigned ctas = 0;                         ///< CTAs of its launch
  std::vector<double> clock_mhz;             ///< the kernel's SM clock in each sample (NaN: none)
  std::size_t incomplete = 0;                ///< samples with fewer clock records than CTAs
  std::optional<double> kernel_mhz;          ///< median of clock_mhz
  std::optional<double> kernel_fraction;     ///< median over the samples of each one's fraction of
                                             ///< the tensor peak at its own clock
  std::function<void(cudaStream_t)> launch;  ///< kept for the head-to-head
  std::function<std::vector<region_record>()> records;  ///< the kernel's clock records
  std::string kernel() const { return config + gemm_variant_suffix(variant); }
};

/// One problem's benchmark (see the file comment).
class gemm_bench {
 public:
  gemm_bench(const device_info& dev, gemm_shape shape, run_options run, bool with_peer,
             double peak_flop_per_clk)
      : dev_(dev), run_(run), peak_(peak_flop_per_clk), pr_(gemm_problem::make(shape, 1)) {
    if (with_peer) {
      peer_.emplace(pr_);
      ref_ = peer_->measure_best(pr_, run_);
    }
  }
  /// The dense bf16 tensor peak of `dev` in FLOP/clk/SM (model/peak.cuh), the constructor's
  /// `peak_flop_per_clk`; throws cuprobe::error with a sentence unless `dev` is an sm_90 GPU.
  static double bf16_peak(const device_info& dev) {
    require(dev.cc_major == 9, "gemm: needs an sm_90a GPU (wgmma, TMA), found " + dev.name);
    const auto peak = model::find_tensor_peak(dev.sm(), "bf16");
    require(peak.has_value(), "gemm: no bf16 tensor peak is known for sm_" +
                                  std::to_string(dev.sm()) + " (model/peak.cuh)");
    return peak->flop_per_clock();
  }
  const device_info& device() const { return dev_; }
  gemm_problem& problem() { return pr_; }
  const gemm_shape& shape() const { return pr_.shape; }

  /// TFLOP/s as a fraction of the whole GPU's tensor peak at `mhz`.
  double fraction_of_peak(double tflops, double mhz) const {
    return tflops / (peak_ * dev_.sm_count * mhz * 1e-6);
  }

  /// Times `launch` now (and checks its output if `v` is full); `records` reads the kernel's
  /// clock records after a launch. The row is returned for the caller's parameters.
  gemm_row& add(std::string config, gemm_variant v, std::function<void(cudaStream_t)> launch,
                std::function<std::vector<region_record>()> records, unsigned ctas) {
    gemm_row r;
    r.config = std::move(config);
    r.variant = v;
    r.ctas = ctas;
    r.launch = std::move(launch);
    r.records = std::move(records);
    pr_.c.poison(0xFF);
    // One contestant: measure()'s protocol, with the kernel's clock read after every sample.
    r.m = measure_interleaved(
        "gemm.cuprobe.bf16." + pr_.shape.name(),
        {contestant("gemm.cuprobe.bf16." + pr_.shape.name(), r.launch, gemm_work(), clock_hook(r))},
        run_)[0];
    finish_clock(r);
    r.m.with_param("kernel", r.kernel())
        .with_param("ctas", int(ctas))
        .with_param("m", pr_.shape.m)
        .with_param("n", pr_.shape.n)
        .with_param("k", pr_.shape.k);
    if (v == gemm_variant::full) {
      r.check = check_gemm(pr_, 256, bool(ref_));
      r.checked = true;
    }
    rows_.push_back(std::move(r));
    return rows_.back();
  }

  /// add() of a row that `k` describes: named k.name(), with k's parameters.
  gemm_row& add(const gemm_kernel_config& k, gemm_variant v,
                std::function<void(cudaStream_t)> launch,
                std::function<std::vector<region_record>()> records, unsigned ctas) {
    gemm_row& r = add(k.name(), v, std::move(launch), std::move(records), ctas);
    k.describe(r.m);
    return r;
  }

  bool all_ok() const {
    return std::all_of(rows_.begin(), rows_.end(),
                       [](const gemm_row& r) { return !r.checked || r.check.ok(); });
  }

  /// The `top` fastest correct full rows and cuBLASLt's best algorithm (if it ran), measured
  /// in alternating rounds under `opt` (see the file comment).
  void head_to_head(int top, const run_options& opt) {
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < rows_.size(); ++i)
      if (rows_[i].checked && rows_[i].check.ok()) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return rows_[a].m.tflop_per_s() > rows_[b].m.tflop_per_s();
    });
    if (int(order.size()) > top) order.resize(std::size_t(std::max(top, 0)));
    if (order.empty()) return;
    h2h_.clear();
    for (const auto i : order) {  // copies of the rows, their clocks taken afresh
      h2h_.push_back(rows_[i]);
      h2h_.back().clock_mhz.clear();
      h2h_.back().incomplete = 0;
    }
    std::vector<contestant> cs;  // h2h_ is not resized from here on: the hooks point into it
    for (auto& r : h2h_) cs.emplace_back(r.kernel(), r.launch, gemm_work(), clock_hook(r));
    if (ref_)
      cs.emplace_back("cuBLASLt", std::function<void(cudaStream_t)>([this](cudaStream_t s) {
                        peer_->run(pr_, ref_->algorithm, s);
                      }),
                      gemm_work());
    auto ms = measure_interleaved("gemm.head_to_head.bf16." + pr_.shape.name(), std::move(cs), opt);
    for (std::size_t j = 0; j < h2h_.size(); ++j) {  // the rows' parameters and launch shape
      const measurement& sweep = rows_[order[j]].m;
      h2h_[j].m = ms[j];
      for (const auto& kv : sweep.params.items())
        if (!h2h_[j].m.params.find(kv.first)) h2h_[j].m.with_param(kv.first, kv.second);
      if (sweep.launch) h2h_[j].m.with_launch(*sweep.launch);
      finish_clock(h2h_[j]);
    }
    if (ref_) {
      h2h_peer_ = ms.back();
      h2h_peer_->with_param("algorithm", ref_->algorithm);
      if (const auto lv = h2h_levels(); lv.stepped())  // every contestant saw the step
        for (auto& r : h2h_)
          r.m.flags.push_back({flag_code{"power_state_step"},
                               "the card stepped during the head-to-head (cuBLASLt from " +
                                   fmt(1e3 * h2h_peer_->stats.min, 3) + " to " +
                                   fmt(1e3 * h2h_peer_->stats.max, 3) +
                                   " ms): " + std::to_string(lv.low.size()) + " fast rounds at " +
                                   fmt(paired_ratio(r, &lv.low).value_or(0), 3) + " x cuBLASLt, " +
                                   std::to_string(lv.high.size()) + " slow rounds at " +
                                   fmt(paired_ratio(r, &lv.high).value_or(0), 3) + " x"});
    }
  }

  void print() const {
    const auto& s = pr_.shape;
    std::printf(
        "\nbf16 GEMM %s (C = A B^T, fp32 accumulation) on %s; %s; x peak: of %.0f FLOP/clk/SM "
        "at the SM clock NVML saw during each measurement (stale for launches this short) and "
        "at the clock measured in the kernel (%%clock64 / %%globaltimer, median of the CTAs, "
        "each sample at its own clock, median over the samples; cuBLASLt cannot be "
        "instrumented)\n",
        s.name().c_str(), dev_.name.c_str(),
        ref_ ? ("cuBLASLt: the best of " + std::to_string(ref_->candidates) + " algorithms (#" +
                std::to_string(ref_->algorithm) + ")")
                   .c_str()
             : "cuBLASLt not run",
        peak_);
    {
      table t = make_table();
      if (ref_) add_line(t, "cuBLASLt", nullptr, ref_->m, peer_tflops());
      for (const auto& r : rows_) add_line(t, r.kernel(), &r, r.m, peer_tflops());
      t.print();
    }
    if (const gemm_row* b = best_of_sweep())
      std::printf("best of the sweep: %s; %s\n", b->kernel().c_str(), b->check.summary().c_str());
    if (const auto o = overlap())
      std::printf(
          "overlap (%s): copy only %.3f ms, compute only %.3f ms, both %.3f ms = %.3f x "
          "max(copy, compute)\n",
          o->config.c_str(), o->copy * 1e3, o->compute * 1e3, o->both * 1e3, o->ratio);
    if (h2h_.empty()) return;
    std::printf(
        "head-to-head: %zu rounds, each contestant once per round, the first place "
        "rotating (measure_interleaved)\n",
        h2h_.front().m.samples.size());
    table t = make_table();
    const double peer = h2h_peer_ ? h2h_peer_->tflop_per_s() : 0;
    for (const auto& r : h2h_) add_line(t, r.kernel(), &r, r.m, peer);
    if (h2h_peer_) add_line(t, "cuBLASLt", nullptr, *h2h_peer_, peer);
    t.print();
    const gemm_row* b = best_of_h2h();
    if (!b) return;
    std::printf(
        "head-to-head best: %s, %.3f x cuBLASLt (median over the rounds of the paired "
        "ratio; %.3f x from the two medians)\n",
        b->kernel().c_str(), paired_ratio(*b).value_or(0),
        peer > 0 ? b->m.tflop_per_s() / peer : 0.0);
    if (const auto lv = h2h_levels(); lv.stepped())
      std::printf(
          "  the card stepped during the rounds (cuBLASLt %.3f .. %.3f ms): %zu fast rounds "
          "%.3f x, %zu slow rounds %.3f x\n",
          1e3 * h2h_peer_->stats.min, 1e3 * h2h_peer_->stats.max, lv.low.size(),
          paired_ratio(*b, &lv.low).value_or(0), lv.high.size(),
          paired_ratio(*b, &lv.high).value_or(0));
  }

  /// The measurements into `res`; the headline keys gemm.bf16.<size>.* into `sum` (the size is
  /// N for a cube, the shape's name otherwise).
  void report(results& res, summary_file& sum) const {
    const auto& s = pr_.shape;
    const std::string key =
        "gemm.bf16." + (s.m == s.n && s.n == s.k ? std::to_string(s.m) : s.name());
    if (ref_) res.add(ref_->m);
    for (const auto& r : rows_) res.add(r.m);
    for (const auto& r : h2h_) res.add(r.m);
    if (h2h_peer_) res.add(*h2h_peer_);
    json& ex = res.extra("gemm")[s.name()];
    if (const auto o = overlap()) sum.set(key + ".overlap_vs_max", o->ratio);
    if (const gemm_row* b = best_of_sweep()) {
      ex["best_of_sweep"] = b->kernel();
      ex["check"] = b->check.summary();
      sum.set(key + ".sweep_tflops", b->m.tflop_per_s());
      if (ref_) sum.set(key + ".sweep_vs_cublas", b->m.tflop_per_s() / ref_->m.tflop_per_s());
    }
    if (const gemm_row* b = best_of_h2h()) {
      ex["best_kernel"] = b->kernel();
      ex["head_to_head_rounds"] = double(b->m.samples.size());
      sum.set(key + ".tflops", b->m.tflop_per_s());
      if (b->kernel_mhz) sum.set(key + ".kernel_clock_mhz", *b->kernel_mhz);
      if (b->kernel_fraction) sum.set(key + ".fraction_of_peak", *b->kernel_fraction);
      if (const auto lv = h2h_levels(); lv.stepped()) {
        sum.set(key + ".vs_cublas_fast_rounds", paired_ratio(*b, &lv.low).value_or(0));
        sum.set(key + ".vs_cublas_slow_rounds", paired_ratio(*b, &lv.high).value_or(0));
        sum.set(key + ".fast_rounds", double(lv.low.size()));
      }
      if (const auto p = paired_ratio(*b)) {
        sum.set(key + ".vs_cublas", *p);
        sum.set(key + ".vs_cublas_of_medians", b->m.tflop_per_s() / h2h_peer_->tflop_per_s());
        sum.set(key + ".cublas_tflops", h2h_peer_->tflop_per_s());
      }
    }
  }

 private:
  struct overlap_t {
    std::string config;
    double copy, compute, both, ratio;
  };

  work gemm_work() const { return suite::gemm_work(pr_.shape); }
  /// After each sample: the clock of its (last) launch, from the kernel's records. `r` must
  /// stay where it is while the hook is in use.
  static std::function<void(const launch_context&)> clock_hook(gemm_row& r) {
    return [&r](const launch_context&) {
      const auto recs = r.records ? r.records() : std::vector<region_record>{};
      if (recs.size() != r.ctas) ++r.incomplete;
      r.clock_mhz.push_back(clock_mhz_of(recs).value_or(std::nan("")));
    };
  }
  /// The row's clock and fraction of peak from its per-sample clocks; params and flags.
  void finish_clock(gemm_row& r) const {
    std::vector<double> mhz, frac;
    for (std::size_t k = 0; k < std::min(r.clock_mhz.size(), r.m.samples.size()); ++k)
      if (std::isfinite(r.clock_mhz[k]) && r.m.samples[k] > 0) {
        mhz.push_back(r.clock_mhz[k]);
        frac.push_back(fraction_of_peak(pr_.shape.flops() / r.m.samples[k] * 1e-12, mhz.back()));
      }
    r.kernel_mhz.reset();
    r.kernel_fraction.reset();
    if (!mhz.empty()) {
      r.kernel_mhz = median(mhz);
      r.kernel_fraction = median(frac);
    }
    r.m.with_param("kernel_clock_mhz", r.kernel_mhz)
        .with_param("fraction_of_peak_kernel_clock", r.kernel_fraction);
    if (r.records && r.incomplete > 0)
      r.m.flags.push_back({flag_code{"kernel_clock_records"},
                           std::to_string(r.incomplete) + " of " +
                               std::to_string(r.m.samples.size()) + " samples had fewer than " +
                               std::to_string(r.ctas) +
                               " clock records: the in-kernel clock is incomplete"});
    if (r.kernel_fraction && *r.kernel_fraction > 1.01)
      r.m.flags.push_back(
          {flag_code{"above_tensor_peak"},
           fmt(100 * *r.kernel_fraction, 1) + " % of the tensor peak at the in-kernel clock of " +
               fmt(*r.kernel_mhz, 0) + " MHz: the FLOP or the clock are miscounted"});
  }
  double peer_tflops() const { return ref_ ? ref_->m.tflop_per_s() : 0; }
  /// The fastest correct full row of the sweep.
  const gemm_row* best_of_sweep() const {
    const gemm_row* b = nullptr;
    for (const auto& r : rows_)
      if (r.checked && r.check.ok() && (!b || r.m.tflop_per_s() > b->m.tflop_per_s())) b = &r;
    return b;
  }
  /// The head-to-head's best row: by the paired ratio where cuBLASLt ran, else by TFLOP/s.
  const gemm_row* best_of_h2h() const {
    const gemm_row* b = nullptr;
    const auto score = [&](const gemm_row& r) {
      return paired_ratio(r).value_or(r.m.tflop_per_s());
    };
    for (const auto& r : h2h_)
      if (!b || score(r) > score(*b)) b = &r;
    return b;
  }
  /// Median over the rounds (all, or those listed) of the row's rate / cuBLASLt's in the same
  /// round (measure/interleave.cuh).
  std::optional<double> paired_ratio(const gemm_row& r,
                                     const std::vector<std::size_t>* rounds = nullptr) const {
    if (!h2h_peer_) return std::nullopt;
    return ::cuprobe::paired_ratio(r.m, *h2h_peer_, rounds);
  }
  /// The rounds before and after a step in cuBLASLt's time (the card changed power state).
  two_levels h2h_levels() const {
    return h2h_peer_ ? split_levels(h2h_peer_->samples) : two_levels{};
  }
  std::optional<overlap_t> overlap() const {
    for (const auto& full : rows_) {
      if (full.variant != gemm_variant::full) continue;
      const gemm_row *copy = nullptr, *math = nullptr;
      for (const auto& r : rows_)
        if (r.config == full.config) {
          if (r.variant == gemm_variant::copy_only) copy = &r;
          if (r.variant == gemm_variant::compute_only) math = &r;
        }
      if (!copy || !math) continue;
      const double c = copy->m.seconds(), k = math->m.seconds(), b = full.m.seconds();
      return overlap_t{full.config, c, k, b, b / std::max(c, k)};
    }
    return std::nullopt;
  }
  static table make_table() {
    return table({"kernel", "CTAs", "ms", "TFLOP/s", "x cuBLASLt", "x peak (NVML clock)",
                  "NVML MHz", "x peak (kernel clock)", "kernel MHz", "output"});
  }
  /// One line; `r` null for cuBLASLt (no in-kernel clock, the reference).
  void add_line(table& t, const std::string& k, const gemm_row* r, const measurement& m,
                double peer) const {
    const double clk = m.env.median_sm_clock_mhz().value_or(0);
    const bool in_kernel = r && r->kernel_mhz && r->kernel_fraction;
    const std::string ok = !r           ? "reference"
                           : r->checked ? (r->check.ok() ? "ok" : "WRONG")
                                        : std::string("-");
    t.add_row({k, r ? std::to_string(r->ctas) : "-", fmt(m.seconds() * 1e3, 3),
               fmt(m.tflop_per_s(), 1), peer > 0 ? fmt(m.tflop_per_s() / peer, 3) : "-",
               clk > 0 ? fmt(fraction_of_peak(m.tflop_per_s(), clk), 3) : "-",
               clk > 0 ? fmt(clk, 0) : "-", in_kernel ? fmt(*r->kernel_fraction, 3) : "-",
               in_kernel ? fmt(*r->kernel_mhz, 0) : "-", ok});
  }

  const device_info& dev_;
  run_options run_;
  double peak_;
  gemm_problem pr_;
  std::optional<cublaslt_gemm> peer_;
  std::optional<cublaslt_gemm::result> ref_;
  std::vector<gemm_row> rows_;
  std::vector<gemm_row> h2h_;            ///< the head-to-head's rows, in its order
  std::optional<measurement> h2h_peer_;  ///< cuBLASLt in the head-to-head
};

/// The main() of a GEMM benchmark such as examples/gemm around `rows`, which adds a kernel's rows
/// to each problem's gemm_bench. The command line: the shared options (report/cli.cuh),
/// --summary (the headline metrics, JSON) and --peer (1, the default: cuBLASLt beside; 0: not,
/// the check then uses the fp64 samples only). The problems: 4096³, 8192³ and 8192 x 8192 x 2048
/// (--quick: 8192³; --small: 512 x 512 x 1024, for compute-sanitizer; --shapes: the ones it
/// lists, parse_gemm_shapes). Each row: 2 warm-ups, 10
/// samples (--quick: 5); then per problem the head-to-head of the 3 fastest rows and cuBLASLt in
/// 20 rounds (--quick: 10), the tables, the results and the summary keys. Requires an sm_90 GPU;
/// throws cuprobe::error when an output did not match its references. Returns 0.
inline int gemm_main(int argc, char** argv, const std::string& about,
                     const std::function<void(gemm_bench&, const cli&)>& rows) {
  const auto args =
      cli::parse(argc, argv, about,
                 {cli_option::path("--summary", "write the headline metrics (JSON) here"),
                  cli_option::integer("--peer",
                                      "1: run cuBLASLt beside (0: skip it; the check "
                                      "then uses the fp64 samples only)",
                                      0, 1, 1),
                  cli_option::text("--shapes",
                                   "MxNxK[,MxNxK...]: these problems instead of the default "
                                   "three (or --quick's one); not with --small")});
  // --shapes is read before the GPU is asked for, so that a typo is said at once, anywhere.
  std::vector<gemm_shape> asked;
  if (args.has("--shapes")) {
    require(!args.small, "gemm: --shapes and --small exclude each other");
    asked = parse_gemm_shapes(args.get("--shapes"));
  }
  const auto dev = device_info::query();
  arch::check_kernel_image();
  const double peak = gemm_bench::bf16_peak(dev);
  const bool with_peer = args.get_integer("--peer") == 1;
  std::vector<gemm_shape> shapes = {{4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 8192, 2048}};
  if (args.quick) shapes = {{8192, 8192, 8192}};
  if (args.small) shapes = {{512, 512, 1024}};
  if (!asked.empty()) shapes = asked;
  auto run = args.run_options();
  run.warmup = 2;
  run.stop = stopping_rule::fixed(args.samples(10, 5));
  auto duel = run;  // the head-to-head's rounds
  duel.stop = stopping_rule::fixed(args.samples(20, 10));
  results res(argc, argv);
  summary_file sum(argc, argv, dev);
  bool all_ok = true;
  for (const auto& s : shapes) {
    std::fprintf(stderr, "gemm: %s\n", s.name().c_str());
    gemm_bench b(dev, s, run, with_peer, peak);
    rows(b, args);
    b.head_to_head(3, duel);
    b.print();
    b.report(res, sum);
    all_ok = all_ok && b.all_ok();
  }
  res.extra("gemm")["metrics"] = sum.metrics();
  res.print_ceilings();
  res.write(args);
  sum.write(args);  // --summary, when given
  if (!all_ok) throw error("gemm: an output did not match its references (see the tables)");
  return 0;
}

}  // namespace cuprobe::suite
