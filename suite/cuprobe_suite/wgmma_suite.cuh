// cuprobe_suite/wgmma_suite.cuh: the canned WGMMA benchmark: which configurations of
// kernels::wgmma_bench are compiled and run, in which order, and the headline among them; what
// examples/wgmma prints and device_report's tensor-core line use.
//
//   namespace ex = cuprobe::suite;
//   ex::wgmma_suite_options o;  o.setting = ex::wgmma_setting::quick;
//   auto s = ex::wgmma_suite(dev, o, [](const std::string& what) { std::fprintf(stderr, "%s\n",
//   what.c_str()); }); const auto& h = s.points[s.headline].r;    // bf16 m64n256k16 SS, zero
//   operands, best in flight std::printf("%.1f TFLOP/s, %.1f %% of peak at %.0f MHz\n", h.tflops,
//   100 * *h.fraction_of_peak, h.clock.median_mhz);
//
// Every short point (all but back_to_back and sustained) takes rested samples:
// run_options::rest_ms = `rest_ms` (100 ms) of idle GPU before each timed launch, so that each
// sample is a ~7 ms run on a card that has not been heating, the state in which the anchor
// figures were measured (one process per figure). Back to back, the H200 keeps its tensor-load
// clock for ~40 ms and then lowers it by 15-120 MHz (docs/wgmma.md, "rested samples").
// Sections, in the order they run (every point validated; each in `points` with its section):
//   latency       one warpgroup, one MMA then wait_group<0>: bf16 at N = 64, 128, 256 and the
//                 other types at N = 256, SS (bf16 also RS and sparse)
//   in_flight     bf16 m64n256k16 SS, zero operands: MMAs per group x wait_group depth (1/0,
//                 1/1, 4/0, 4/1, 4/3, 4/no wait, 8/no wait) x warpgroups per SM (1, 2, 3). The
//                 headline is the point with the highest fraction of peak at the in-kernel
//                 clock; its warpgroups per SM (`warpgroups`) are used by every later section
//   sizes         every type at N = 64, 128, 256, SS and RS, zero operands, 4 MMAs per group
//                 and wait_group<1> (CUTLASS's main loop); every_n: bf16 at every N 8..256
//   sparse        every type at N = 256 SS (bf16 also 64, 128), 2:4 sparse A, zero operands
//                 (bf16 random after `operands`); sparse_vs_dense() divides by `sizes`
//   operands      every type at N = 256 SS (and bf16 RS), zero then random operands: the
//                 suite's first random operands, whose power lowers the clock of every later
//                 point, rests or not, so no zero-operand comparison runs after them
//   back_to_back  bf16, tf32 and e4m3 at N = 256 SS, zero operands, samples without rests
//   sustained     bf16 m64n256k16 SS, zero then random, sustained_ms launches (>= 0.5 s)
// Settings: small (compute-sanitizer: N = 256 SS only, bf16, tf32 and e4m3 in sizes, bf16
// elsewhere, one in-flight point, 0.2 ms launches, no rests, no sustained run), quick (in flight:
// 1/0, 4/1 and 4/no wait x 1, 2 warpgroups; fewer samples), standard, every_n (sizes: bf16 at every
// N). Points whose warpgroups exceed the configuration's maximum (RS with N > 192: 2) run at that
// maximum.
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe_suite/wgmma.cuh"

namespace cuprobe::suite {

enum class wgmma_setting { small, quick, standard, every_n };

struct wgmma_suite_options {
  wgmma_setting setting = wgmma_setting::standard;
  double short_ms = 7.0;        ///< launch length of every point but the sustained ones
  double sustained_ms = 600.0;  ///< the sustained launches (0: none)
  std::size_t samples = 10;     ///< per point (the sustained ones: sustained_samples)
  std::size_t sustained_samples = 3;
  /// Idle GPU before each timed sample of the short points (run_options::rest_ms; 0: back to
  /// back).
  double rest_ms = wgmma_rest_ms;
  run_options run = run_options::fixed(2, 10);  ///< the base: warm-up, profile, ...

  void validate() const {
    require(std::isfinite(short_ms) && short_ms >= 0.01 && short_ms <= 1000,
            "wgmma_suite: short_ms must be 0.01 .. 1000, got " + std::to_string(short_ms));
    require(sustained_ms == 0 ||
                (std::isfinite(sustained_ms) && sustained_ms >= 500 && sustained_ms <= 60000),
            "wgmma_suite: sustained_ms must be 0 (none) or 500 .. 60000 (a sustained run lasts "
            "at least half a second), got " +
                std::to_string(sustained_ms));
    require(std::isfinite(rest_ms) && rest_ms >= 0 && rest_ms <= 60000,
            "wgmma_suite: rest_ms must be 0 .. 60000, got " + std::to_string(rest_ms));
    require(samples >= 1 && samples <= 1000 && sustained_samples >= 1 && sustained_samples <= 100,
            "wgmma_suite: samples must be 1 .. 1000 and sustained_samples 1 .. 100");
    validate_options(run, "wgmma_suite");
  }
};

struct wgmma_point {
  std::string section;
  wgmma_throughput_result r;
};

struct wgmma_suite_result {
  std::vector<wgmma_latency_result> latency;
  std::vector<wgmma_point> points;
  std::size_t headline = 0;  ///< index into points (see the file comment)
  unsigned warpgroups = 1;   ///< the headline's warpgroups per SM, used after the in_flight section

  /// The first point of `section` with this configuration name ("bf16.m64n256k16.ss") and
  /// operands, or nullptr.
  const wgmma_throughput_result* find(const std::string& section, const std::string& config,
                                      bool random = false) const {
    for (const auto& p : points)
      if (p.section == section && p.r.config == config && p.r.random == random) return &p.r;
    return nullptr;
  }
  /// Sparse TFLOP/s over dense TFLOP/s of the same type and N (SS, zero operands), or nullopt.
  std::optional<double> sparse_vs_dense(const std::string& type, int n) const {
    const std::string shape = "m64n" + std::to_string(n) + "k";
    const wgmma_throughput_result *sp = nullptr, *de = nullptr;
    for (const auto& p : points) {
      const auto& r = p.r;
      if (r.type != type || r.n != n || r.rs || r.random) continue;
      if (p.section == "sparse" && r.sparse && !sp) sp = &r;
      if (p.section == "sizes" && !r.sparse && !de) de = &r;
    }
    if (!sp || !de || de->tflops <= 0) return std::nullopt;
    return sp->tflops / de->tflops;
  }
  /// True when every point and latency passed its validation.
  bool all_valid() const {
    for (const auto& l : latency)
      if (!l.check.ok) return false;
    for (const auto& p : points)
      if (!p.r.check.ok) return false;
    return !points.empty();
  }
};

namespace detail {

namespace wgt = ptx::wgmma;

template <class F>
void for_each_wgmma_type(F&& f) {
  f(wgt::bf16{});
  f(wgt::f16{});
  f(wgt::tf32{});
  f(wgt::e4m3{});
  f(wgt::e5m2{});
}

template <int... N, class F>
void for_each_n(std::integer_sequence<int, N...>, F&& f) {
  (f(std::integral_constant<int, N>{}), ...);
}
template <int... I>
constexpr auto every_n(std::integer_sequence<int, I...>) {
  return std::integer_sequence<int, 8 * (I + 1)...>{};
}

/// The suite's runner of one point: options of the setting, warpgroups clamped to C's maximum.
template <class Progress>
struct wgmma_suite_run {
  const device_info& dev;
  const wgmma_suite_options& o;
  Progress& progress;
  wgmma_suite_result& s;

  template <class C>
  void point(const std::string& section, unsigned warpgroups, bool random, bool sustained = false,
             bool rested = true) {
    wgmma_throughput_options t;
    t.warpgroups = std::min<unsigned>(warpgroups, unsigned(C::max_warpgroups));
    t.random = random;
    t.target_ms = sustained ? o.sustained_ms : o.short_ms;
    t.run = o.run;
    t.run.stop = stopping_rule::fixed(sustained ? o.sustained_samples : o.samples);
    if (sustained) t.run.warmup = std::min<std::size_t>(t.run.warmup, 1);
    t.run.rest_ms = sustained || !rested || o.setting == wgmma_setting::small ? 0 : o.rest_ms;
    progress(section + ": " + C::name() + ", " + std::to_string(t.warpgroups) + " warpgroup(s), " +
             C::in_flight() + (random ? ", random" : ", zero") + " operands");
    s.points.push_back(wgmma_point{section, wgmma_throughput<C>(dev, t)});
  }
  template <class A, int N, bool RS = false, bool Sparse = false>
  void latency() {
    wgmma_latency_options l;
    l.run = o.run;
    l.run.warmup = 1;
    l.run.stop = stopping_rule::fixed(std::min<std::size_t>(o.samples, 5));
    if (o.setting == wgmma_setting::small) l.iterations = 16;
    progress("latency: " + kernels::wgmma_bench<A, N, RS, Sparse, 1, 0>::name());
    s.latency.push_back(wgmma_latency<A, N, RS, Sparse>(dev, l));
  }
};

}  // namespace detail

/// Runs the suite (see the file comment); progress(text) before each point.
template <class Progress>
wgmma_suite_result wgmma_suite(const device_info& dev, const wgmma_suite_options& o,
                               Progress&& progress) {
  o.validate();
  detail::require_sm90(dev, "wgmma_suite");
  namespace wg = ptx::wgmma;
  using kernels::wgmma_bench;
  constexpr int no_wait = kernels::wgmma_no_wait;
  wgmma_suite_result s;
  detail::wgmma_suite_run<std::remove_reference_t<Progress>> run{dev, o, progress, s};
  const bool small = o.setting == wgmma_setting::small, quick = o.setting == wgmma_setting::quick;

  // latency
  run.template latency<wg::bf16, 256>();
  if (!small) {
    run.template latency<wg::bf16, 64>();
    run.template latency<wg::bf16, 128>();
    run.template latency<wg::bf16, 256, true>();
    run.template latency<wg::bf16, 256, false, true>();
    run.template latency<wg::f16, 256>();
    run.template latency<wg::tf32, 256>();
    run.template latency<wg::e4m3, 256>();
    run.template latency<wg::e5m2, 256>();
  }

  // in_flight: the headline's sweep (the headline is chosen among these points only)
  const std::size_t first_in_flight = s.points.size();
  const std::vector<unsigned> wgs = small   ? std::vector<unsigned>{1}
                                    : quick ? std::vector<unsigned>{1, 2}
                                            : std::vector<unsigned>{1, 2, 3};
  for (unsigned w : wgs) {
    run.template point<wgmma_bench<wg::bf16, 256, false, false, 4, 1>>("in_flight", w, false);
    if (small) continue;
    run.template point<wgmma_bench<wg::bf16, 256, false, false, 1, 0>>("in_flight", w, false);
    run.template point<wgmma_bench<wg::bf16, 256, false, false, 4, no_wait>>("in_flight", w, false);
    if (quick) continue;
    run.template point<wgmma_bench<wg::bf16, 256, false, false, 1, 1>>("in_flight", w, false);
    run.template point<wgmma_bench<wg::bf16, 256, false, false, 4, 0>>("in_flight", w, false);
    run.template point<wgmma_bench<wg::bf16, 256, false, false, 4, 3>>("in_flight", w, false);
    run.template point<wgmma_bench<wg::bf16, 256, false, false, 8, no_wait>>("in_flight", w, false);
  }
  auto score = [](const wgmma_throughput_result& r) {
    return r.check.ok ? r.fraction_of_peak.value_or(r.tflops) : -1.0;
  };
  s.headline = first_in_flight;
  for (std::size_t i = first_in_flight; i < s.points.size(); ++i)
    if (score(s.points[i].r) > score(s.points[s.headline].r)) s.headline = i;
  s.warpgroups = s.points[s.headline].r.warpgroups;
  const unsigned w = s.warpgroups;

  // sizes
  detail::for_each_wgmma_type([&](auto tag) {
    using A = decltype(tag);
    detail::for_each_n(std::integer_sequence<int, 64, 128, 256>{}, [&](auto n) {
      constexpr int N = decltype(n)::value;
      if (small && (N != 256 || std::is_same_v<A, wg::f16> || std::is_same_v<A, wg::e5m2>)) return;
      if (o.setting == wgmma_setting::every_n && std::is_same_v<A, wg::bf16>) return;  // below
      run.template point<wgmma_bench<A, N>>("sizes", w, false);
      if (!small) run.template point<wgmma_bench<A, N, true>>("sizes", w, false);
    });
  });
  if (o.setting == wgmma_setting::every_n)
    detail::for_each_n(detail::every_n(std::make_integer_sequence<int, 32>{}), [&](auto n) {
      constexpr int N = decltype(n)::value;
      run.template point<wgmma_bench<wg::bf16, N>>("sizes", w, false);
      run.template point<wgmma_bench<wg::bf16, N, true>>("sizes", w, false);
    });

  // sparse (zero operands; the random one after the operands)
  detail::for_each_wgmma_type([&](auto tag) {
    using A = decltype(tag);
    if (small && !std::is_same_v<A, wg::bf16>) return;
    run.template point<wgmma_bench<A, 256, false, true>>("sparse", w, false);
  });
  if (!small) {
    run.template point<wgmma_bench<wg::bf16, 64, false, true>>("sparse", w, false);
    run.template point<wgmma_bench<wg::bf16, 128, false, true>>("sparse", w, false);
  }

  // operands: the first random operands of the suite. Their power leaves the card at a lower
  // clock for the rest of the run, rests or not (H200: 1800 -> 1755 MHz, docs/wgmma.md), so
  // every zero-operand section that is compared across points runs before them
  detail::for_each_wgmma_type([&](auto tag) {
    using A = decltype(tag);
    if (small && !std::is_same_v<A, wg::bf16>) return;
    run.template point<wgmma_bench<A, 256>>("operands", w, false);
    run.template point<wgmma_bench<A, 256>>("operands", w, true);
  });
  if (!small) {
    run.template point<wgmma_bench<wg::bf16, 256, true>>("operands", w, false);
    run.template point<wgmma_bench<wg::bf16, 256, true>>("operands", w, true);
  }

  if (!small) run.template point<wgmma_bench<wg::bf16, 256, false, true>>("sparse", w, true);

  // back_to_back: three points of `sizes` again, without rests, on the card the suite has been
  // heating
  if (!small) {
    run.template point<wgmma_bench<wg::bf16, 256>>("back_to_back", w, false, false, false);
    run.template point<wgmma_bench<wg::tf32, 256>>("back_to_back", w, false, false, false);
    run.template point<wgmma_bench<wg::e4m3, 256>>("back_to_back", w, false, false, false);
  }

  // sustained
  if (!small && o.sustained_ms > 0) {
    run.template point<wgmma_bench<wg::bf16, 256>>("sustained", w, false, true);
    run.template point<wgmma_bench<wg::bf16, 256>>("sustained", w, true, true);
  }
  return s;
}

}  // namespace cuprobe::suite
