// cuprobe_suite/memory.cuh: the DRAM streaming experiments, built from the stream family
// (gen/stream.cuh) and the runner: the one implementation examples/dram_bandwidth,
// examples/cache_bandwidth and device_report call.
//
//   namespace ex = cuprobe::suite;  namespace gen = cuprobe::gen;
//   const gen::stream_table<gen::type_list<float4>, gen::type_list<cuprobe::ptx::cache::cg>,
//                           gen::all_patterns, gen::all_modes, gen::all_grids> kernels;
//   ex::dram_sweep_options o;  o.persistent = {{4, 256}};  o.covering = {256};
//   auto r = ex::dram_sweep(dev, kernels, o, [](const std::string&) {});
//   std::printf("copy: %.0f GB/s\n", r.best(gen::stream_pattern::copy).gb_per_s());
//
// Each point: outputs poisoned, the kernel measured by the runner (launches: one pass per
// launch, one launch per sample; in_kernel: `passes` passes per launch, the sample divided by
// passes), then the output of the last launch validated exactly on the device (a mismatch
// throws). The byte accounting comes from gen::stream_accounting (copy counts N read + N
// written); the working set (every array once) is declared, so the runner flags a "DRAM" run
// whose arrays fit the caches.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/gen/stream.cuh"
#include "cuprobe/measure/interleave.cuh"
#include "cuprobe/measure/runner.cuh"

namespace cuprobe::suite {

/// The two clusters of `hops` (1-D 2-means, started at the smallest and largest value), after
/// setting aside the values above `cap` (the L2 partitions: cuprobe_suite/l2_partitions.cuh).
/// Returns {lower median, upper median, upper share, share above cap}.
inline std::vector<double> split_two_clusters(std::vector<std::uint32_t> hops, double cap) {
  std::vector<double> v, above;
  for (auto h : hops) (double(h) > cap ? above : v).push_back(double(h));
  if (hops.empty()) return {0, 0, 0, 0};
  const double total = double(hops.size());
  if (v.size() < 2) return {v.empty() ? 0 : v[0], v.empty() ? 0 : v[0], 0, above.size() / total};
  double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  std::vector<double> a, b;
  for (int it = 0; it < 50; ++it) {
    a.clear();
    b.clear();
    for (double x : v) (std::fabs(x - lo) <= std::fabs(x - hi) ? a : b).push_back(x);
    const double nlo = a.empty() ? lo : median(a), nhi = b.empty() ? hi : median(b);
    if (nlo == lo && nhi == hi) break;
    lo = nlo;
    hi = nhi;
  }
  if (b.empty()) return {lo, lo, 0, above.size() / total};
  return {lo, hi, double(b.size()) / double(v.size()), above.size() / total};
}

struct stream_result {
  measurement m;
  gen::stream_check check;
};

/// measure() of `kernel`<<<shape>>>(args), one launch per sample, counting into `launches` every
/// launch made (warm-ups too), for checks that compare work done with launches x work per launch.
template <class Kernel, class Args>
measurement measure_counted(const std::string& name, Kernel kernel, const launch_shape& shape,
                            const Args& args, const char* what, const work& w,
                            const run_options& run, std::uint64_t& launches) {
  return measure(
      name,
      [&](cudaStream_t s) {
        kernel<<<shape.grid, shape.block, shape.dynamic_smem, s>>>(args);
        ::cuprobe::detail::check(cudaGetLastError(), what, __FILE__, __LINE__);
        ++launches;
      },
      w, run);
}

/// "4x256" (blocks per SM x threads) for a persistent grid, "cover x256" for a covering one.
inline std::string stream_config(gen::stream_grid grid, const launch_shape& shape, int sm_count) {
  const std::string t = "x" + std::to_string(shape.block.x);
  if (grid == gen::stream_grid::covering) return "cover " + t;
  return std::to_string(shape.grid.x / unsigned(sm_count)) + t;
}

/// The samples of one streaming configuration, validated; see the file comment. `o` gives the
/// samples and warm-up; its mode and iterations are set from `mode` and `passes`.
inline stream_result stream_bandwidth(const gen::stream_kernel& k, gen::stream_workload& w,
                                      const launch_shape& shape, loop_mode mode,
                                      std::uint32_t passes, run_options o, data_source dram,
                                      gen::stream_layout layout = gen::stream_layout::partitioned) {
  require(k.pattern == w.pattern() && k.element_bytes == w.element_bytes(),
          "stream_bandwidth: kernel '" + k.name() + "' does not match the workload (" +
              gen::to_string(w.pattern()) + ", " + std::to_string(w.element_bytes()) +
              "-byte elements)");
  require(mode == k.mode,
          "stream_bandwidth: kernel '" + k.name() + "' is not a " + to_string(mode) + " kernel");
  require(mode == loop_mode::launches || passes >= 1,
          "stream_bandwidth: in_kernel needs passes >= 1");
  w.poison_outputs();
  const gen::stream_args a = w.args(shape, mode, passes, 0, layout);
  const gen::stream_bytes per_launch = w.bytes();
  o.mode = mode;
  o.iterations = mode == loop_mode::in_kernel ? passes : 1;
  const double per_pass_read = double(per_launch.bytes_read) / double(o.iterations);
  const double per_pass_written = double(per_launch.bytes_written) / double(o.iterations);
  const int sms = current_device().sm_count;
  stream_result r;
  r.m = measure(
      "stream." + std::string(gen::to_string(k.pattern)),
      [&](cudaStream_t s) { k.launch(shape, a, s); },
      work::bytes_moved(per_pass_read, per_pass_written, per_launch.rule)
          .with_source(dram)
          .with_working_set(w.working_set_bytes()),
      o);
  r.check = w.check();
  r.m.with_launch(shape)
      .with_kernel(kernel_attributes::of(k.kernel, int(shape.block.x)))
      .with_param("pattern", gen::to_string(k.pattern))
      .with_param("element", k.element)
      .with_param("element_bytes", k.element_bytes)
      .with_param("load", k.load_ptx)
      .with_param("store", k.store_ptx)
      .with_param("op", k.load_op)
      .with_param("loop", to_string(mode))
      .with_param("passes_per_launch", o.iterations)
      .with_param("grid", gen::to_string(k.grid))
      .with_param("blocks_per_sm", shape.grid.x / unsigned(sms))
      .with_param("threads", shape.block.x)
      .with_param("config", stream_config(k.grid, shape, sms))
      .with_param("array_bytes", double(w.elements() * w.element_bytes()))
      .with_param("working_set_bytes", w.working_set_bytes())
      .with_param("layout", gen::to_string(layout))
      .with_param("valid", r.check.ok);
  return r;
}

/// cudaMemcpyAsync device to device of `bytes` from src to dst, measured like the copy kernels
/// (read + written). Give it a copy workload's arrays to compare on the very same memory.
inline measurement memcpy_bandwidth(void* dst, const void* src, std::size_t bytes, run_options o,
                                    data_source dram = data_source::dram) {
  auto m = measure(
      "memcpy.d2d",
      [&](cudaStream_t s) {
        CUPROBE_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
      },
      work::bytes_moved(double(bytes), double(bytes), "cudaMemcpy D2D: N read + N written")
          .with_source(dram)
          .with_working_set(2.0 * double(bytes)),
      o);
  m.with_param("array_bytes", double(bytes));
  return m;
}

/// cudaMemsetAsync of `bytes` at dst: the driver's own write kernel, the peer of the write
/// pattern. Give it a write workload's output to compare on the very same memory.
inline measurement memset_bandwidth(void* dst, std::size_t bytes, run_options o,
                                    data_source dram = data_source::dram) {
  unsigned char v = 0;
  auto m = measure(
      "memset", [&](cudaStream_t s) { CUPROBE_CHECK(cudaMemsetAsync(dst, ++v, bytes, s)); },
      work::bytes_moved(0, double(bytes), "cudaMemset: N written")
          .with_source(dram)
          .with_working_set(double(bytes)),
      o);
  m.with_param("array_bytes", double(bytes));
  return m;
}

/// How large the arrays of a DRAM experiment are (dram_array_bytes).
struct dram_size {
  double l2_factor = 8;             ///< at least this many times the L2 ...
  double preferred_l2_factor = 64;  ///< ... and preferably this many (3.75 GiB on the H200)
  unsigned arrays = 2;              ///< arrays that must fit at once (copy: 2, 5R1W: 6)
};

/// Bytes of one DRAM test array: preferred_l2_factor x the L2, but no more than `arrays` such
/// arrays can take of 80 % of the free device memory, and never less than l2_factor x the L2; a
/// multiple of 1 MiB. Why that large: each launch over the array pays a ramp at its start and
/// a tail at its end; on the H200 a covering-grid write loses 8 % to them at 480 MiB (8 x L2)
/// and under 1 % at 4 GiB (docs/memory-ptx.md).
inline std::uint64_t dram_array_bytes(const device_info& dev, const dram_size& s = {}) {
  require(s.l2_factor > 0 && s.preferred_l2_factor >= s.l2_factor && s.arrays >= 1,
          "dram_array_bytes: need 0 < l2_factor <= preferred_l2_factor and arrays >= 1");
  require(dev.l2_bytes > 0, "dram_array_bytes: the device reports no L2 size");
  const std::uint64_t mib = std::uint64_t(1) << 20;
  const auto round_up = [&](double b) { return (std::uint64_t(b) + mib - 1) / mib * mib; };
  const std::uint64_t floor = round_up(s.l2_factor * double(dev.l2_bytes));
  const std::uint64_t want = round_up(s.preferred_l2_factor * double(dev.l2_bytes));
  std::size_t free_bytes = 0, total_bytes = 0;
  CUPROBE_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::uint64_t cap = std::uint64_t(0.8 * double(free_bytes) / s.arrays) / mib * mib;
  return std::max(floor, std::min(want, cap));
}

/// What dram_sweep measures: every kernel of the given set whose pattern, element width, loop
/// mode and grid are listed here, on every persistent shape (blocks per SM x threads) or
/// covering block size.
struct dram_sweep_options {
  std::vector<gen::stream_pattern> patterns = {
      gen::stream_pattern::read, gen::stream_pattern::write, gen::stream_pattern::copy,
      gen::stream_pattern::mixed};
  std::vector<std::size_t> widths = {16};  ///< element bytes: 4, 8, 16
  std::vector<loop_mode> modes = {loop_mode::launches, loop_mode::in_kernel};
  std::vector<gen::stream_grid> grids = {gen::stream_grid::persistent, gen::stream_grid::covering};
  std::vector<std::pair<int, int>> persistent = {{4, 256}};  ///< blocks per SM x threads
  std::vector<int> covering = {256};         ///< threads per block (write, copy, mixed; launches)
  std::uint32_t passes = 4;                  ///< in_kernel passes per launch
  std::optional<std::uint64_t> array_bytes;  ///< default dram_array_bytes() for the patterns
  double l2_factor = 8;                      ///< arrays at least this many times the L2
  bool peers = true;  ///< cudaMemcpy (copy) and cudaMemset (write) on the arrays
  /// Rounds of the best copy point (over every width) against cudaMemcpy in alternation on the
  /// same arrays (copy_head_to_head; with peers only; 0: none, the ratio is then the sweep's
  /// best over one memcpy figure).
  std::size_t head_to_head = 0;
  run_options run = run_options::fixed(2, 10);

  void validate() const {
    require(!patterns.empty() && !widths.empty() && !modes.empty() && !grids.empty(),
            "dram_sweep: patterns, widths, modes and grids must not be empty");
    for (std::size_t w : widths)
      require(w == 4 || w == 8 || w == 16,
              "dram_sweep: element widths are 4, 8 or 16 bytes, got " + std::to_string(w));
    for (auto [b, t] : persistent)
      require(b >= 1 && b <= 32 && t >= 32 && t <= 1024,
              "dram_sweep: a persistent shape of " + std::to_string(b) + " x " + std::to_string(t) +
                  " is outside 1..32 blocks per SM x 32..1024 threads");
    for (int t : covering)
      require(t >= 32 && t <= 1024, "dram_sweep: covering blocks of " + std::to_string(t) +
                                        " threads are outside 32 .. 1024");
    require(passes >= 1 && passes <= 4096, "dram_sweep: passes must be 1 .. 4096");
    require(l2_factor >= 1 && l2_factor <= 1024, "dram_sweep: l2_factor must be 1 .. 1024");
    require(head_to_head <= 1000, "dram_sweep: head_to_head must be 0 .. 1000 rounds");
    require(!array_bytes || *array_bytes >= 4096, "dram_sweep: array_bytes must be at least 4 KiB");
    validate_options(run, "dram_sweep");
  }
};

struct dram_sweep_result {
  std::vector<measurement> all;                     ///< every point, validated, in the order taken
  std::map<std::string, std::size_t> best_by_case;  ///< kernel name -> index into all
  std::map<gen::stream_pattern, std::size_t> best_by_pattern;
  std::optional<measurement> memcpy, memset;  ///< on the copy and write arrays
  std::uint64_t array_bytes = 0;
  /// With head_to_head rounds: the best copy point and cudaMemcpy measured in alternation, and
  /// the median over the rounds of their paired ratio (measure/interleave.cuh).
  std::vector<measurement> head_to_head;
  std::optional<double> copy_vs_memcpy;

  const measurement& best(gen::stream_pattern p) const {
    const auto it = best_by_pattern.find(p);
    require(it != best_by_pattern.end(),
            std::string("dram_sweep: no point was measured for ") + gen::to_string(p));
    return all[it->second];
  }
};

/// `mine` (a copy of `bytes` from src to dst) and cudaMemcpy of the same arrays, in alternation
/// for `rounds` rounds (measure_interleaved: each takes each place in a round equally often; a
/// sample is one launch): [0] mine, [1] cudaMemcpy; paired_ratio(r[0], r[1]) is the headline.
/// Why: a sweep's best point is the largest of many samples' medians, set against one memcpy
/// measurement taken at another moment; pairing the rounds removes both biases. cudaMemcpy
/// writes what a copy writes: validate mine after a launch of its own.
inline std::vector<measurement> versus_memcpy(contestant mine, void* dst, const void* src,
                                              std::size_t bytes, run_options o,
                                              std::size_t rounds) {
  o.mode = loop_mode::launches;
  o.iterations = 1;
  o.stop = stopping_rule::fixed(rounds);
  const double b = double(bytes);
  contestant peer(
      "memcpy.d2d",
      [=](cudaStream_t s) {
        CUPROBE_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
      },
      work::bytes_moved(b, b, "cudaMemcpy D2D: N read + N written")
          .with_source(data_source::dram)
          .with_working_set(2.0 * b));
  auto ms = measure_interleaved("dram.copy_vs_memcpy", {std::move(mine), std::move(peer)}, o);
  for (auto& m : ms) m.with_param("array_bytes", b);
  return ms;
}

/// The copy kernel `k` on `shape` against cudaMemcpy on the copy workload `w`'s arrays
/// (versus_memcpy), the kernel's output validated after one more launch of its own.
inline std::vector<measurement> copy_head_to_head(const gen::stream_kernel& k,
                                                  gen::stream_workload& w,
                                                  const launch_shape& shape, std::uint32_t passes,
                                                  run_options o, std::size_t rounds) {
  require(k.pattern == gen::stream_pattern::copy && w.pattern() == gen::stream_pattern::copy &&
              k.element_bytes == w.element_bytes(),
          "copy_head_to_head: '" + k.name() + "' is not a copy kernel of the workload's width");
  const gen::stream_args a = w.args(shape, k.mode, k.mode == loop_mode::in_kernel ? passes : 1);
  const gen::stream_bytes b = w.bytes();
  auto ms = versus_memcpy(
      contestant(
          "stream.copy", [&](cudaStream_t s) { k.launch(shape, a, s); },
          work::bytes_moved(double(b.bytes_read), double(b.bytes_written), b.rule)
              .with_source(data_source::dram)
              .with_working_set(w.working_set_bytes())),
      w.output().data(), w.input(0).data(), w.elements() * w.element_bytes(), o, rounds);
  w.poison_outputs();
  k.launch(shape, a, nullptr);
  CUPROBE_CHECK(cudaGetLastError());
  CUPROBE_CHECK(cudaDeviceSynchronize());
  w.check().require();
  ms[0]
      .with_launch(shape)
      .with_param("case", k.name())
      .with_param("loop", to_string(k.mode))
      .with_param("config", stream_config(k.grid, shape, current_device().sm_count));
  return ms;
}

/// Measures every selected kernel of `kernels` on every shape (see dram_sweep_options), one
/// workload per pattern and width; `progress(label)` is called before each point.
template <class Progress>
dram_sweep_result dram_sweep(const device_info& dev, const gen::stream_kernel_set& kernels,
                             const dram_sweep_options& o, Progress&& progress) {
  o.validate();
  const auto listed = [](const auto& v, const auto& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
  };
  unsigned arrays = 1;
  for (auto p : o.patterns)
    arrays = std::max(arrays, gen::stream_inputs(p) + (p == gen::stream_pattern::read ? 0u : 1u));
  dram_size size;
  size.l2_factor = o.l2_factor;
  size.arrays = arrays;
  dram_sweep_result res;
  res.array_bytes = o.array_bytes.value_or(dram_array_bytes(dev, size));
  // The best copy point over every width (the first of equals, as best()), for the head-to-head.
  const gen::stream_kernel* best_copy = nullptr;
  launch_shape best_copy_shape;
  double best_copy_bw = 0;
  for (auto pattern : o.patterns) {
    for (std::size_t width : o.widths) {
      bool any = false;
      for (const auto& k : kernels.kernels())
        any = any || (k.pattern == pattern && k.element_bytes == width);
      if (!any) continue;
      gen::stream_workload w(pattern, width, res.array_bytes / width);
      w.fill_inputs(1);
      const auto point = [&](const gen::stream_kernel& k, const launch_shape& shape) {
        progress(k.name() + " " + stream_config(k.grid, shape, dev.sm_count));
        auto r = stream_bandwidth(k, w, shape, k.mode, o.passes, o.run, data_source::dram);
        r.check.require();
        const std::string name = k.name();
        r.m.with_param("case", name);
        const std::size_t i = res.all.size();
        const double bw = r.m.gb_per_s();
        if (pattern == gen::stream_pattern::copy && bw > best_copy_bw) {
          best_copy = &k;
          best_copy_shape = shape;
          best_copy_bw = bw;
        }
        res.all.push_back(std::move(r.m));
        auto c = res.best_by_case.find(name);
        if (c == res.best_by_case.end() || bw > res.all[c->second].gb_per_s())
          res.best_by_case[name] = i;
        auto b = res.best_by_pattern.find(pattern);
        if (b == res.best_by_pattern.end() || bw > res.all[b->second].gb_per_s())
          res.best_by_pattern[pattern] = i;
      };
      for (const auto& k : kernels.kernels()) {
        if (k.pattern != pattern || k.element_bytes != width || !listed(o.modes, k.mode) ||
            !listed(o.grids, k.grid))
          continue;
        if (k.grid == gen::stream_grid::persistent)
          for (auto [b, t] : o.persistent) point(k, gen::stream_shape(b, t, dev.sm_count));
        else
          for (int t : o.covering) point(k, gen::stream_covering_shape(w.elements(), t));
      }
      // The driver's kernels as peers, on the very same arrays (once per pattern).
      if (o.peers && pattern == gen::stream_pattern::copy && !res.memcpy) {
        progress("cudaMemcpy D2D");
        res.memcpy =
            memcpy_bandwidth(w.output().data(), w.input(0).data(), w.elements() * width, o.run);
      }
      if (o.peers && pattern == gen::stream_pattern::write && !res.memset) {
        progress("cudaMemset");
        res.memset = memset_bandwidth(w.output().data(), w.elements() * width, o.run);
      }
    }
  }
  // The best copy of every width against cudaMemcpy, on fresh arrays of its width.
  if (o.peers && o.head_to_head > 0 && best_copy) {
    progress("best copy point vs cudaMemcpy, interleaved");
    const std::size_t width = best_copy->element_bytes;
    gen::stream_workload w(gen::stream_pattern::copy, width, res.array_bytes / width);
    w.fill_inputs(1);
    res.head_to_head =
        copy_head_to_head(*best_copy, w, best_copy_shape, o.passes, o.run, o.head_to_head);
    res.copy_vs_memcpy = paired_ratio(res.head_to_head[0], res.head_to_head[1]);
  }
  // Peers for patterns that did not run: fresh arrays of the same size.
  if (o.peers && !res.memcpy) {
    progress("cudaMemcpy D2D (fresh arrays)");
    device_buffer<unsigned char> src(res.array_bytes), dst(res.array_bytes);
    src.fill(1);
    res.memcpy = memcpy_bandwidth(dst.data(), src.data(), res.array_bytes, o.run);
  }
  if (o.peers && !res.memset) {
    progress("cudaMemset (fresh array)");
    device_buffer<unsigned char> dst(res.array_bytes);
    res.memset = memset_bandwidth(dst.data(), res.array_bytes, o.run);
  }
  return res;
}

}  // namespace cuprobe::suite
