// cuprobe_suite/access.cuh: access patterns explained by sectors: the
// bandwidth of a warp request pattern (model::access_pattern: width, offset, stride,
// permutation, gather) at a DRAM and an L2-resident working set, beside the sector model's
// sectors per request, useful fraction and predicted fraction of the aligned unit-stride rate;
// and copy bandwidth against working set. The one implementation examples/access_patterns calls.
//
//   namespace ex = cuprobe::suite;
//   ex::access_options o;  o.patterns = ex::access_stride_sweep(4);     // 4-byte, stride 1..32
//   auto r = ex::access_patterns(dev, o, [](const std::string&) {});
//   for (const auto& p : r.points)
//     std::printf("%s %s: %.0f GB/s useful, %.2f of aligned (model %.2f)\n",
//                 cuprobe::model::label(p.pattern).c_str(), ex::to_string(p.level),
//                 p.useful_bytes_per_s / 1e9, p.measured_fraction.value_or(0),
//                 p.predicted_fraction);
//
// Kernel: kernels::access_kernel<T, Copy, 4, ld.global.cg, st.global.cg>: .cg so that no level is
// served by the L1 (the coalescer, and so the sectors per request, are the same for every load
// operator); `blocks_per_sm` x SMs blocks of `threads`, no more warps than regions. Regions never
// share a sector (kernels/access.cuh), so every request fetches the model's sectors at every level.
// Working sets count the distinct sectors one pass touches, every array (a copy: source and
// destination), and are declared to the runner (cache_resident flags a DRAM point below 4 x L2):
//   dram  at least dram_l2_factor x the L2 (8: 480 MiB on the H200), as whole layout groups; the
//         arrays are sized for the sparsest pattern listed (a 16-byte stride-32 read touches one
//         sector in 16) and capped at 80 % of the free memory and at max_array_bytes;
//   l2    l2_fraction x the L2 (1/8: 7.5 MiB on the H200), at least one group.
// Timing: measure(), in_kernel: a launch walks the regions `passes` times (enough for
// bytes_per_launch fetched bytes), the sample divided by passes. Rates: useful bytes/s = the
// lanes' bytes (read: 32 x width per request; copy: that read + written) / time; fetched = the
// model's sectors x 32 B per request (both arrays for a copy) / time. measured_fraction is
// the useful rate over that of the aligned unit-stride pattern of the same width, operation and
// level (measured first, added when not listed); predicted_fraction the model's useful fraction.
// Validation: read: each thread's sink (the sum of what it read, x passes) recomputed on the host
// for check_warps warps spread over the grid (0: all); copy: the destination poisoned first,
// then every copied element compared with the source on the device. A failure throws.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/model/access.cuh"
#include "cuprobe_suite/kernels/access.cuh"
#include "cuprobe_suite/memory.cuh"

namespace cuprobe::suite {

enum class access_op { read, copy };
inline const char* to_string(access_op o) { return o == access_op::read ? "read" : "copy"; }
/// Which working set a point ran on: DRAM, L2-resident, or a point of copy_curve's sweep.
enum class access_level { dram, l2, sweep };
inline const char* to_string(access_level l) {
  return l == access_level::dram ? "dram" : l == access_level::l2 ? "l2" : "sweep";
}

inline constexpr int access_unroll = 4;  ///< regions in flight per warp
/// The smallest array: one group of a 32-line gather (32 pages of 4 KiB).
inline constexpr std::uint64_t access_min_array_bytes = 32 * model::gather_line_distance;

/// How every point runs (access_patterns and copy_curve).
struct access_run_options {
  int blocks_per_sm = 8;      ///< grid: blocks_per_sm x SMs blocks (fewer when regions are few) ...
  int threads = 256;          ///< ... of this many threads
  double dram_l2_factor = 8;  ///< dram: sectors touched per pass, all arrays, >= this x L2
  double l2_fraction = 0.125;  ///< l2: sectors touched per pass, all arrays, ~ this x L2
  double bytes_per_launch = double(1u << 30);    ///< fetched bytes a launch moves at least
  std::optional<std::uint64_t> max_array_bytes;  ///< cap per array (--small; flagged if DRAM)
  std::size_t check_warps = 256;  ///< read: warps whose sinks the host recomputes (0: all)
  std::uint64_t seed = 11;        ///< of the source array's fill_random
  run_options run = run_options::fixed(2, 5);
  /// The levels whose points take the counter pass (run.counters, else CUPROBE_COUNTERS).
  std::vector<access_level> counted_levels = {access_level::dram, access_level::l2,
                                              access_level::sweep};
  bool counted(access_level l) const {  ///< points at `l` are counted
    return std::find(counted_levels.begin(), counted_levels.end(), l) != counted_levels.end();
  }

  void validate(const std::string& who) const {
    require(blocks_per_sm >= 1 && blocks_per_sm <= 32,
            who + ": blocks_per_sm is " + std::to_string(blocks_per_sm) + "; it must be 1 .. 32");
    require(threads >= 32 && threads <= 1024 && threads % 32 == 0,
            who + ": threads is " + std::to_string(threads) +
                "; it must be a multiple of 32 in 32 .. 1024");
    require(std::isfinite(dram_l2_factor) && dram_l2_factor >= 1 && dram_l2_factor <= 256,
            who + ": dram_l2_factor must be 1 .. 256");
    require(std::isfinite(l2_fraction) && l2_fraction > 0 && l2_fraction <= 0.5,
            who + ": l2_fraction must be in (0, 0.5]: an L2 working set fits the L2 twice over");
    require(std::isfinite(bytes_per_launch) && bytes_per_launch >= 0 && bytes_per_launch <= 1e13,
            who + ": bytes_per_launch must be 0 .. 10 TB");
    require(!max_array_bytes || *max_array_bytes >= access_min_array_bytes,
            who + ": max_array_bytes must be at least 128 KiB (one gather group of 32 lines)");
    require(run.mode == loop_mode::launches && run.iterations == 1,
            who + ": passes are set per point; leave run.mode and run.iterations alone");
    validate_options(run, who);
  }
};

struct access_options {
  std::vector<model::access_pattern> patterns;  ///< empty: access_test_set()
  std::vector<access_op> ops = {access_op::read, access_op::copy};
  std::vector<access_level> levels = {access_level::dram, access_level::l2};
  access_run_options run;

  void validate() const {
    require(!ops.empty(), "access_patterns: ops must not be empty");
    require(!levels.empty(), "access_patterns: levels must not be empty");
    for (auto l : levels)
      require(l != access_level::sweep,
              "access_patterns: levels are dram and l2 (the sweep is copy_curve's)");
    for (const auto& p : patterns) (void)kernels::access_layout_of(p);  // refuses with the field
    run.validate("access_patterns");
  }
};

/// One measured pattern.
struct access_point {
  model::access_pattern pattern;
  access_op op = access_op::read;
  access_level level = access_level::dram;
  model::sector_count model;  ///< of one request
  std::uint64_t regions = 0;  ///< requests per pass (per instruction kind)
  std::uint32_t passes = 1;
  std::uint64_t array_bytes = 0;  ///< bytes of each array the pass spans
  double touched_bytes = 0;       ///< distinct sectors x 32 one pass touches, all arrays
  double useful_bytes_per_s = 0, fetched_bytes_per_s = 0;
  double predicted_fraction = 0;
  std::optional<double> measured_fraction;  ///< unset for the baseline's own width/op/level
  measurement m;
};

struct access_result {
  std::vector<access_point> points;  ///< in the order measured (baselines first per width)
  /// The point of `p` (same label), `op` and `level`, or nullptr.
  const access_point* find(const model::access_pattern& p, access_op op, access_level l) const {
    for (const auto& x : points)
      if (model::label(x.pattern) == model::label(p) && x.op == op && x.level == l) return &x;
    return nullptr;
  }
};

// ---- pattern lists ----
inline model::access_pattern access_strided(unsigned width, std::uint64_t offset = 0,
                                            unsigned stride = 1) {
  model::access_pattern p;
  p.width = width;
  p.offset = offset;
  p.stride = stride;
  return p;
}
/// Offsets 0 .. 128 in steps of `step` bytes (rounded up to a multiple of the width), stride 1.
inline std::vector<model::access_pattern> access_offset_sweep(unsigned width, unsigned step = 4) {
  std::vector<model::access_pattern> v;
  const unsigned s = std::max(width, (step + width - 1) / width * width);
  for (unsigned o = 0; o <= model::line_bytes; o += s) v.push_back(access_strided(width, o));
  return v;
}
/// Strides `from` .. 32 (every stride, or only powers of two), offset 0.
inline std::vector<model::access_pattern> access_stride_sweep(unsigned width, bool powers = false) {
  std::vector<model::access_pattern> v;
  for (unsigned s = 1; s <= 32; s = powers ? 2 * s : s + 1)
    v.push_back(access_strided(width, 0, s));
  return v;
}
/// Gathers over 1, 2, 4, 8, 16, 32 lines that fit (ceil(32 / lines) x width <= 128), and the
/// permutation (seed 1) of the coalesced pattern.
inline std::vector<model::access_pattern> access_shape_set(unsigned width) {
  std::vector<model::access_pattern> v;
  model::access_pattern p = access_strided(width);
  p.shape = model::access_shape::permuted;
  p.seed = 1;
  v.push_back(p);
  p = access_strided(width);
  p.shape = model::access_shape::gather;
  for (unsigned k = 1; k <= 32; k *= 2)
    if ((32 + k - 1) / k * width <= model::line_bytes) {
      p.lines = k;
      v.push_back(p);
    }
  return v;
}
/// The patterns the ncu check compares with the model: for every width, offsets 0, the width,
/// 4 (misaligned by 4 where that is a multiple) and 64; strides 2, 4, 32; the permutation;
/// gathers over 2, 8 and 32 lines where they fit.
inline std::vector<model::access_pattern> access_test_set() {
  std::vector<model::access_pattern> v;
  for (unsigned w : {1u, 2u, 4u, 8u, 16u}) {
    std::vector<std::uint64_t> offsets = {0, w};
    if (w < 4) offsets.push_back(4);
    offsets.push_back(64);
    for (std::uint64_t o : offsets) v.push_back(access_strided(w, o));
    for (unsigned s : {2u, 4u, 32u}) v.push_back(access_strided(w, 0, s));
    for (const auto& p : access_shape_set(w))
      if (p.shape == model::access_shape::permuted || p.lines == 2 || p.lines == 8 || p.lines == 32)
        v.push_back(p);
  }
  return v;
}

namespace detail {
struct access_quiet {
  void operator()(const std::string&) const {}
};

/// Calls f(T{}) with the element type of `width` bytes.
template <class F>
void access_with_element(unsigned width, F&& f) {
  switch (width) {
    case 1:
      return f(std::uint8_t{});
    case 2:
      return f(std::uint16_t{});
    case 4:
      return f(std::uint32_t{});
    case 8:
      return f(std::uint64_t{});
    default:
      return f(uint4{});
  }
}

/// The arrays one experiment call uses: a random source, a destination, the sinks.
struct access_arrays {
  device_buffer<std::uint32_t> src, dst;
  device_buffer<std::uint32_t> sinks;
  device_buffer<unsigned long long> mismatches{1};
  std::uint64_t bytes = 0;  ///< of src (and dst)
};

inline access_arrays access_allocate(const device_info& dev, std::uint64_t want, bool copy,
                                     const access_run_options& o) {
  std::size_t free_b = 0, total_b = 0;
  CUPROBE_CHECK(cudaMemGetInfo(&free_b, &total_b));
  const std::uint64_t g = access_min_array_bytes;
  const std::uint64_t cap = std::uint64_t(0.8 * double(free_b) / (copy ? 2 : 1)) / g * g;
  std::uint64_t bytes = std::min((want + g - 1) / g * g, cap);
  if (o.max_array_bytes) bytes = std::min(bytes, *o.max_array_bytes / g * g);
  bytes = std::max(bytes, g);
  access_arrays a{device_buffer<std::uint32_t>(bytes / 4),
                  device_buffer<std::uint32_t>(copy ? bytes / 4 : 0),
                  device_buffer<std::uint32_t>(std::size_t(o.blocks_per_sm) * dev.sm_count *
                                               std::size_t(o.threads)),
                  device_buffer<unsigned long long>(1), bytes};
  a.src.fill_random(o.seed, 0u, 0xFFFFFFFFu);
  return a;
}

/// Regions (whole groups) whose touched sectors reach `touched` bytes per array, at least one
/// group, at most what `capacity` bytes hold.
inline std::uint64_t access_regions_for(const model::access_pattern& p, double touched,
                                        std::uint64_t capacity) {
  const kernels::access_layout l = kernels::access_layout_of(p);
  const double per_group = double(kernels::access_sectors_per_group(p)) * model::sector_bytes;
  std::uint64_t groups = std::max<std::uint64_t>(1, std::uint64_t(std::ceil(touched / per_group)));
  groups = std::min(groups, std::max<std::uint64_t>(1, capacity / l.group_bytes));
  return groups * l.regions_per_group();
}
}  // namespace detail

/// Bytes per array a pattern needs at `level` (before the caps): for sizing and the host tests.
inline std::uint64_t access_array_bytes_for(const device_info& dev, const model::access_pattern& p,
                                            access_op op, access_level level,
                                            const access_run_options& o) {
  require(dev.l2_bytes > 0, "access_patterns: the device reports no L2 size");
  const double arrays = op == access_op::copy ? 2 : 1;
  const double touched = (level == access_level::dram ? o.dram_l2_factor : o.l2_fraction) *
                         double(dev.l2_bytes) / arrays;
  const std::uint64_t regions = detail::access_regions_for(p, touched, ~std::uint64_t(0));
  return kernels::access_layout_of(p).bytes_of(regions);
}

namespace detail {
/// One point: `regions` regions of `p` on the arrays, measured and validated.
inline access_point access_measure(const device_info& dev, access_arrays& arr,
                                   const model::access_pattern& p, access_op op, access_level level,
                                   std::uint64_t regions, data_source dram,
                                   const access_run_options& o) {
  const bool copy = op == access_op::copy;
  access_point pt;
  pt.pattern = p;
  pt.op = op;
  pt.level = level;
  pt.model = model::warp_sectors(p);
  pt.regions = regions;
  const kernels::access_layout layout = kernels::access_layout_of(p);
  pt.array_bytes = layout.bytes_of(regions);
  require(pt.array_bytes <= arr.bytes, "access_patterns: internal: the arrays are too small");
  const double arrays = copy ? 2 : 1;
  const double fetched_pass = double(regions) * pt.model.sectors * model::sector_bytes * arrays;
  pt.touched_bytes = fetched_pass;
  pt.passes = std::uint32_t(
      std::clamp<double>(std::ceil(o.bytes_per_launch / fetched_pass), 1, double(1u << 20)));
  const unsigned warps_per_block = unsigned(o.threads) / model::warp_lanes;
  const std::uint64_t want_blocks = (regions + warps_per_block - 1) / warps_per_block;
  const unsigned grid =
      unsigned(std::min<std::uint64_t>(std::uint64_t(o.blocks_per_sm) * dev.sm_count, want_blocks));
  kernels::access_args a;
  a.src = reinterpret_cast<const unsigned char*>(arr.src.data());
  a.dst = copy ? reinterpret_cast<unsigned char*>(arr.dst.data()) : nullptr;
  a.regions = regions;
  a.layout = layout;
  a.passes = pt.passes;
  a.pattern = p;
  a.sink = arr.sinks.data();
  if (copy) CUPROBE_CHECK(cudaMemset(arr.dst.data(), poison_byte, pt.array_bytes));
  arr.sinks.poison();
  run_options ro = o.run;
  if (!o.counted(level)) ro.counters = "none";
  ro.mode = loop_mode::in_kernel;
  ro.iterations = pt.passes;
  const double useful = double(regions) * model::warp_lanes * p.width;
  const std::string rule =
      std::string(copy ? "copy: the lanes' bytes read + written" : "read: the lanes' bytes") +
      " (32 x " + std::to_string(p.width) + " B per request), per pass";
  const double sectors = double(pt.model.sectors);  // the copy stores with the loads' pattern
  const work w =
      work::bytes_moved(useful, copy ? useful : 0, rule)
          .with_source(dram)
          .with_working_set(fetched_pass)
          .with_sector_model(sectors, copy ? std::optional<double>(sectors) : std::nullopt)
          .with_dram_model(double(regions) * (pt.model.dram_load_bytes() +
                                              (copy ? pt.model.dram_store_read_bytes() : 0)),
                           copy ? double(regions) * pt.model.dram_store_write_bytes() : 0);
  kernel_attributes attrs;
  access_with_element(p.width, [&](auto t) {
    using T = decltype(t);
    const auto launch_with = [&](auto kernel) {
      attrs = kernel_attributes::of(kernel, o.threads);
      pt.m = measure(
          std::string("access.") + to_string(op),
          [&](cudaStream_t s) {
            kernel<<<grid, unsigned(o.threads), 0, s>>>(a);
            CUPROBE_CHECK_LAUNCH("cuprobe::suite::kernels::access_kernel");
          },
          w, ro);
    };
    if (copy)
      launch_with(kernels::access_kernel<T, true, access_unroll, ptx::cache::cg, ptx::cache::cg>);
    else
      launch_with(kernels::access_kernel<T, false, access_unroll, ptx::cache::cg, ptx::cache::cg>);
  });
  // Validation.
  bool ok = true;
  std::string what;
  if (copy) {
    arr.mismatches.zero();
    const unsigned check_blocks = std::min<unsigned>(4096, unsigned((regions + 7) / 8));
    kernels::access_copy_check_kernel<<<check_blocks, 256>>>(a, arr.mismatches.data());
    CUPROBE_CHECK_LAUNCH("cuprobe::suite::kernels::access_copy_check_kernel");
    const unsigned long long bad = arr.mismatches.to_host()[0];
    ok = bad == 0;
    what = std::to_string(bad) + " of " + std::to_string(regions * 32) +
           " copied elements differ from the source";
  } else {
    const auto sinks = arr.sinks.to_host();
    const std::uint64_t warps = std::uint64_t(grid) * warps_per_block;
    const std::uint64_t checked =
        o.check_warps == 0 ? warps : std::min<std::uint64_t>(warps, o.check_warps);
    std::uint64_t bad = 0;
    for (std::uint64_t i = 0; i < checked; ++i) {
      const std::uint64_t wv = checked == 1 ? 0 : i * (warps - 1) / (checked - 1);
      for (unsigned l = 0; l < model::warp_lanes; ++l) {
        const std::uint64_t t = wv * model::warp_lanes + l;
        bad += sinks[t] != kernels::access_expected_sink(a, warps, t, o.seed);
      }
    }
    ok = bad == 0;
    what = std::to_string(bad) + " of the " + std::to_string(checked * 32) +
           " sinks recomputed on the host differ";
  }
  require(ok, "access_patterns: " + model::label(p) + " " + to_string(op) + " at " +
                  to_string(level) + " failed validation: " + what);
  const double s = pt.m.seconds();
  pt.useful_bytes_per_s = useful * (copy ? 2 : 1) / s;
  pt.fetched_bytes_per_s = fetched_pass / s;
  pt.predicted_fraction = pt.model.predicted_fraction();
  pt.m.with_launch(launch_shape{dim3(grid), dim3(unsigned(o.threads)), 0})
      .with_kernel(attrs)
      .with_param("pattern", model::label(p))
      .with_param("shape", model::to_string(p.shape))
      .with_param("width", p.width)
      .with_param("offset", double(p.offset))
      .with_param("stride", p.stride)
      .with_param("lines", p.lines)
      .with_param("op", to_string(op))
      .with_param("level", to_string(level))
      .with_param("load", ptx::load_instruction<ptx::cache::cg>)
      .with_param("sectors_per_request", pt.model.sectors)
      .with_param("lines_per_request", pt.model.lines)
      .with_param("useful_fraction", pt.model.useful_fraction())
      .with_param("predicted_fraction", pt.predicted_fraction)
      .with_param("regions", double(regions))
      .with_param("passes", pt.passes)
      .with_param("array_bytes", double(pt.array_bytes))
      .with_param("working_set_bytes", pt.touched_bytes)
      .with_param("useful_gb_per_s", pt.useful_bytes_per_s / 1e9)
      .with_param("fetched_gb_per_s", pt.fetched_bytes_per_s / 1e9)
      .with_param("valid", ok);
  return pt;
}
}  // namespace detail

/// Every listed pattern x op x level (see the file comment); `progress(label)` before each point.
template <class Progress = detail::access_quiet>
access_result access_patterns(const device_info& dev, const access_options& opt,
                              Progress&& progress = {}) {
  opt.validate();
  require(dev.l2_bytes > 0, "access_patterns: the device reports no L2 size");
  const auto& o = opt.run;
  std::vector<model::access_pattern> list = opt.patterns.empty() ? access_test_set() : opt.patterns;
  // The aligned unit-stride baseline of every width, first.
  std::vector<model::access_pattern> ordered;
  for (unsigned w : {1u, 2u, 4u, 8u, 16u}) {
    const bool any =
        std::any_of(list.begin(), list.end(), [&](const auto& p) { return p.width == w; });
    if (!any) continue;
    const auto base = access_strided(w);
    ordered.push_back(base);
    for (const auto& p : list)
      if (p.width == w && model::label(p) != model::label(base)) ordered.push_back(p);
  }
  const bool copy = std::find(opt.ops.begin(), opt.ops.end(), access_op::copy) != opt.ops.end();
  std::uint64_t want = 0;
  for (const auto& p : ordered)
    for (auto op : opt.ops)
      for (auto l : opt.levels) want = std::max(want, access_array_bytes_for(dev, p, op, l, o));
  auto arr = detail::access_allocate(dev, want, copy, o);
  access_result res;
  for (auto level : opt.levels)
    for (auto op : opt.ops) {
      const double arrays = op == access_op::copy ? 2 : 1;
      const double touched = (level == access_level::dram ? o.dram_l2_factor : o.l2_fraction) *
                             double(dev.l2_bytes) / arrays;
      std::optional<double> base;
      for (const auto& p : ordered) {
        progress(model::label(p) + " " + to_string(op) + " " + to_string(level));
        const std::uint64_t regions = detail::access_regions_for(p, touched, arr.bytes);
        auto pt = detail::access_measure(
            dev, arr, p, op, level, regions,
            level == access_level::dram ? data_source::dram : data_source::any, o);
        if (p.shape == model::access_shape::strided && p.offset == 0 && p.stride == 1)
          base = pt.useful_bytes_per_s;
        else if (base)
          pt.measured_fraction = pt.useful_bytes_per_s / *base;
        if (pt.measured_fraction) pt.m.with_param("measured_fraction", *pt.measured_fraction);
        res.points.push_back(std::move(pt));
      }
    }
  return res;
}

/// The headline of one pattern: its measured and predicted fraction of the aligned rate, the
/// DRAM bytes the model reads per byte the lanes read (64-byte pairs: model/access.cuh) and,
/// when the run counted them (--counters dram), the DRAM bytes read per byte the lanes read and
/// DRAM's busy share, of this pattern and of its aligned twin (same width, offset 0, stride 1).
struct access_headline {
  std::optional<double> fraction;
  double predicted = 0, dram_read_predicted = 0;
  std::optional<double> dram_read_per_declared, dram_busy, aligned_dram_busy;
};
namespace detail {
inline std::optional<double> dram_busy_of(const access_point* x) {
  return x ? x->m.counters.get("dram__throughput.avg.pct_of_peak_sustained_elapsed") : std::nullopt;
}
inline access_headline access_headline_of(const access_result& r, const model::access_pattern& p,
                                          access_level l) {
  access_headline h;
  const auto sc = model::warp_sectors(p);
  h.predicted = sc.predicted_fraction();
  h.dram_read_predicted = sc.dram_load_bytes() / sc.useful_bytes;
  const auto* x = r.find(p, access_op::read, l);
  if (!x) return h;
  h.fraction = x->measured_fraction;
  const double declared = x->m.declared.bytes_read;
  if (const auto d = x->m.counters.get("dram__bytes_read.sum"); d && declared > 0)
    h.dram_read_per_declared = *d / declared;
  h.dram_busy = dram_busy_of(x);
  h.aligned_dram_busy = dram_busy_of(r.find(access_strided(p.width), access_op::read, l));
  return h;
}
}  // namespace detail
/// Reads at `level`: 16-byte loads at stride 2 (model 0.5); 4-byte loads misaligned by 4 bytes
/// (5 sectors for 4: 0.8); 16-byte loads misaligned by 16 (17 for 16: 0.94). A 16-byte load
/// cannot be misaligned by 4 bytes (ld.global.v4 needs a 16-byte aligned address; the model
/// refuses the pattern), so a "4-byte misalignment of 16-byte loads" is reported as
/// these two: the 4-byte misalignment with the loads it allows, and the 16-byte loads at their
/// smallest misalignment.
inline access_headline access_stride2(const access_result& r, access_level l = access_level::dram) {
  return detail::access_headline_of(r, access_strided(16, 0, 2), l);
}
inline access_headline access_misaligned4(const access_result& r,
                                          access_level l = access_level::dram) {
  return detail::access_headline_of(r, access_strided(4, 4, 1), l);
}
inline access_headline access_misaligned16(const access_result& r,
                                           access_level l = access_level::dram) {
  return detail::access_headline_of(r, access_strided(16, 16, 1), l);
}
/// The summary keys access.stride2.fraction, access.misaligned4.fraction,
/// access.misaligned16.fraction (measured at DRAM, left out when not measured), their
/// .predicted and .dram_read_predicted twins (the models', always); with DRAM counters, also
/// .dram_read_per_declared, .dram_busy_percent and .aligned_dram_busy_percent; and, over every
/// point at DRAM whose DRAM bytes were counted, the DRAM model against the counts:
/// access.dram_model.points, .read_error_max and .write_error_max (|counted / modelled - 1|).
inline std::vector<std::pair<std::string, double>> access_summary_metrics(const access_result& r) {
  std::vector<std::pair<std::string, double>> v;
  for (const auto& [key, h] : {std::pair{"access.stride2", access_stride2(r)},
                               std::pair{"access.misaligned4", access_misaligned4(r)},
                               std::pair{"access.misaligned16", access_misaligned16(r)}}) {
    if (h.fraction) v.emplace_back(std::string(key) + ".fraction", *h.fraction);
    v.emplace_back(std::string(key) + ".predicted", h.predicted);
    v.emplace_back(std::string(key) + ".dram_read_predicted", h.dram_read_predicted);
    for (const auto& [name, x] : {std::pair{".dram_read_per_declared", h.dram_read_per_declared},
                                  std::pair{".dram_busy_percent", h.dram_busy},
                                  std::pair{".aligned_dram_busy_percent", h.aligned_dram_busy}})
      if (x) v.emplace_back(std::string(key) + name, *x);
  }
  double points = 0, read_err = 0, write_err = 0;
  for (const auto& x : r.points) {
    const auto& w = x.m.declared;
    const auto rd = x.m.counters.get("dram__bytes_read.sum");
    const auto wr = x.m.counters.get("dram__bytes_write.sum");
    if (x.level != access_level::dram || !rd || !w.dram_bytes_read || !(*w.dram_bytes_read > 0))
      continue;
    ++points;
    read_err = std::max(read_err, std::fabs(*rd / *w.dram_bytes_read - 1));
    if (wr && w.dram_bytes_written && *w.dram_bytes_written > 0)
      write_err = std::max(write_err, std::fabs(*wr / *w.dram_bytes_written - 1));
  }
  if (points > 0)
    for (const auto& [name, x] :
         {std::pair{".points", points}, std::pair{".read_error_max", read_err},
          std::pair{".write_error_max", write_err}})
      v.emplace_back(std::string("access.dram_model") + name, x);
  return v;
}

// ---- copy bandwidth against working set ----
struct copy_curve_options {
  std::vector<unsigned> widths = {4, 8, 16};
  unsigned points_per_octave = 2;
  double min_bytes = 4096;   ///< smallest working set (both arrays)
  double max_l2_factor = 4;  ///< largest swept working set: this x the L2 ...
  bool dram_point = true;    ///< ... then both arrays of dram_array_bytes() (64 x L2 each)
  access_run_options run;

  void validate() const {
    require(!widths.empty(), "copy_curve: widths must not be empty");
    for (unsigned w : widths)
      require(w == 4 || w == 8 || w == 16,
              "copy_curve: widths are 4, 8 or 16 bytes, got " + std::to_string(w));
    require(points_per_octave >= 1 && points_per_octave <= 16,
            "copy_curve: points_per_octave must be 1 .. 16");
    require(std::isfinite(min_bytes) && min_bytes >= 4096,
            "copy_curve: min_bytes must be at least 4 KiB");
    require(std::isfinite(max_l2_factor) && max_l2_factor > 0 && max_l2_factor <= 64,
            "copy_curve: max_l2_factor must be in (0, 64]");
    run.validate("copy_curve");
  }
};

/// Aligned unit-stride copies of each width over working sets (source + destination) from
/// min_bytes, points_per_octave per doubling, to max_l2_factor x the L2, then the DRAM point
/// (declared DRAM; the swept points are not). Level `sweep`; measured_fraction unset.
template <class Progress = detail::access_quiet>
std::vector<access_point> copy_curve(const device_info& dev, const copy_curve_options& o,
                                     Progress&& progress = {}) {
  o.validate();
  require(dev.l2_bytes > 0, "copy_curve: the device reports no L2 size");
  const double hi = o.max_l2_factor * double(dev.l2_bytes);
  require(o.min_bytes <= hi, "copy_curve: min_bytes is above max_l2_factor x the L2");
  dram_size ds;
  ds.arrays = 2;
  const std::uint64_t dram = o.dram_point ? dram_array_bytes(dev, ds) : 0;
  auto arr = detail::access_allocate(
      dev, std::max<std::uint64_t>(dram, std::uint64_t(hi / 2) + 65536), true, o.run);
  std::vector<access_point> out;
  for (unsigned w : o.widths) {
    const auto p = access_strided(w);
    const double region = double(kernels::access_region_bytes(p));
    std::uint64_t last = 0;
    const auto point = [&](double per_array, bool is_dram) {
      const std::uint64_t regions = std::min<std::uint64_t>(
          std::uint64_t(per_array / region), kernels::access_layout_of(p).regions_in(arr.bytes));
      if (regions == 0 || regions <= last) return;
      last = regions;
      progress("copy w" + std::to_string(w) + " " + fmt_bytes(2 * region * double(regions)));
      out.push_back(detail::access_measure(dev, arr, p, access_op::copy, access_level::sweep,
                                           regions, is_dram ? data_source::dram : data_source::any,
                                           o.run));
    };
    for (int i = 0;; ++i) {
      const double ws = o.min_bytes * std::exp2(double(i) / o.points_per_octave);
      if (ws > hi * (1 + 1e-9)) break;
      point(ws / 2, false);
    }
    if (o.dram_point) point(double(dram), true);
  }
  return out;
}

}  // namespace cuprobe::suite
