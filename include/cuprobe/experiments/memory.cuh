// cuprobe/suite/memory.cuh: streaming-bandwidth experiments built from gen/stream.cuh and the
// runner, shared by examples/dram_bandwidth, examples/cache_bandwidth and device_report.
//
//   gen::stream_workload w(gen::stream_pattern::copy, 16, elements);  w.fill_inputs(1);
//   auto r = cuprobe::suite::stream_bandwidth(kernel, w, gen::stream_shape(4, 256),
//                                             cuprobe::loop_mode::launches, 1, {}, true);
//   std::printf("%s: %.0f GB/s (%s)\n", kernel.name().c_str(), r.m.gb_per_s(),
//               r.m.declared.accounting.c_str());
//
// Each point: outputs poisoned, the kernel measured by the runner (launches: one pass per
// launch, one launch per sample; in_kernel: `passes` passes per launch, the sample divided by
// passes), then the output of the last launch validated exactly on the device. The byte
// accounting comes from gen::stream_accounting (copy counts N read + N written).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/gen/stream.cuh"
#include "cuprobe/gen/stream_check.cuh"
#include "cuprobe/measure/runner.cuh"

namespace cuprobe::suite {

struct stream_result {
  measurement m;
  gen::stream_check check;
};

/// "4x256" (blocks per SM x threads) for a persistent grid, "cover x256" for a covering one.
inline std::string stream_config(gen::stream_grid grid, const launch_shape& shape) {
  const std::string t = "x" + std::to_string(shape.block.x);
  if (grid == gen::stream_grid::covering) return "cover " + t;
  return std::to_string(shape.grid.x / unsigned(current_device().sm_count)) + t;
}

/// The samples of one streaming configuration, validated; see the file comment.
inline stream_result stream_bandwidth(const gen::stream_kernel& k, gen::stream_workload& w,
                                      const launch_shape& shape, loop_mode mode,
                                      std::uint32_t passes, run_options o, bool dram,
                                      gen::stream_layout layout = gen::stream_layout::partitioned) {
  w.poison_outputs();
  const gen::stream_args a = w.args(shape, mode, passes, 0, layout);
  const gen::stream_bytes per_launch = w.bytes();
  o.mode = mode;
  o.iterations = mode == loop_mode::in_kernel ? passes : 1;
  const double per_pass_read = double(per_launch.bytes_read) / double(o.iterations);
  const double per_pass_written = double(per_launch.bytes_written) / double(o.iterations);
  stream_result r;
  r.m = measure(
      "stream." + std::string(gen::to_string(k.pattern)),
      [&](cudaStream_t s) { k.launch(shape, a, s); },
      work::bytes_moved(per_pass_read, per_pass_written, per_launch.rule, dram), o);
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
      .with_param("blocks_per_sm", shape.grid.x / unsigned(current_device().sm_count))
      .with_param("threads", shape.block.x)
      .with_param("config", stream_config(k.grid, shape))
      .with_param("array_bytes", double(w.elements() * w.element_bytes()))
      .with_param("working_set_bytes",
                  double(w.elements() * w.element_bytes()) *
                      (w.inputs() + (k.pattern == gen::stream_pattern::read ? 0 : 1)))
      .with_param("layout", layout == gen::stream_layout::partitioned ? "partitioned" : "replicated")
      .with_param("valid", r.check.ok);
  return r;
}

/// cudaMemcpyAsync device to device of `bytes` from src to dst, measured like the copy kernels
/// (read + written). Give it a copy workload's arrays to compare on the very same memory.
inline measurement memcpy_bandwidth(void* dst, const void* src, std::size_t bytes,
                                    run_options o = {}) {
  auto m = measure(
      "memcpy.d2d",
      [&](cudaStream_t s) {
        CUPROBE_CHECK(cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, s));
      },
      work::bytes_moved(double(bytes), double(bytes), "cudaMemcpy D2D: N read + N written", true), o);
  m.with_param("array_bytes", double(bytes));
  return m;
}

/// The same on two fresh arrays of `bytes`.
inline measurement memcpy_bandwidth(std::size_t bytes, run_options o = {}) {
  device_buffer<unsigned char> src(bytes), dst(bytes);
  src.fill(1);
  return memcpy_bandwidth(dst.data(), src.data(), bytes, o);
}

/// cudaMemsetAsync of `bytes` at dst: the driver's own write kernel, the peer of the write
/// pattern. Give it a write workload's output to compare on the very same memory.
inline measurement memset_bandwidth(void* dst, std::size_t bytes, run_options o = {}) {
  unsigned char v = 0;
  auto m = measure(
      "memset",
      [&](cudaStream_t s) { CUPROBE_CHECK(cudaMemsetAsync(dst, ++v, bytes, s)); },
      work::bytes_moved(0, double(bytes), "cudaMemset: N written", true), o);
  m.with_param("array_bytes", double(bytes));
  return m;
}

/// The same on a fresh array of `bytes`.
inline measurement memset_bandwidth(std::size_t bytes, run_options o = {}) {
  device_buffer<unsigned char> dst(bytes);
  return memset_bandwidth(dst.data(), bytes, o);
}

/// How large the arrays of a DRAM experiment are (dram_array_bytes).
struct dram_size {
  double l2_factor = 8;                       ///< at least this many times the L2
  std::uint64_t min_bytes = std::uint64_t(4) << 30;  ///< and at least this many bytes
  unsigned arrays = 2;                        ///< arrays that must fit at once (copy: 2)
};

/// Bytes of one DRAM test array: the larger of l2_factor x the L2 and min_bytes, but no more
/// than `arrays` such arrays can take of 80 % of the free device memory (and never less than
/// l2_factor x the L2); a multiple of 1 MiB. Why 4 GiB by default: each launch over the array
/// pays a ramp at its start and a tail at its end; on the H200 a covering-grid write loses
/// 8 % to them at 480 MiB and under 1 % at 4 GiB (docs/memory-ptx.md).
inline std::uint64_t dram_array_bytes(const device_info& dev, const dram_size& s = {}) {
  require(s.l2_factor > 0 && s.arrays >= 1, "dram_array_bytes: l2_factor and arrays must be positive");
  const std::uint64_t mib = std::uint64_t(1) << 20;
  const auto round_up = [&](double b) { return (std::uint64_t(b) + mib - 1) / mib * mib; };
  const std::uint64_t floor = round_up(s.l2_factor * double(dev.l2_bytes));
  std::size_t free_bytes = 0, total_bytes = 0;
  CUPROBE_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::uint64_t cap = std::uint64_t(0.8 * double(free_bytes) / s.arrays) / mib * mib;
  return std::max(floor, std::min(std::max(floor, round_up(double(s.min_bytes))), cap));
}

}  // namespace cuprobe::suite

namespace cuprobe::suite {

/// What best_dram_bandwidth measures.
struct dram_sweep {
  std::vector<std::pair<int, int>> persistent;  ///< blocks per SM x threads; both loop modes
  std::vector<int> covering;  ///< threads per block of covering grids (launches; not for read)
  std::vector<std::string> ops = {"cg", "cs"};  ///< load operators (stores paired)
  std::uint32_t passes = 4;                     ///< in_kernel passes per launch
  std::uint64_t array_bytes = 0;                ///< 0: dram_array_bytes(dev)
};

/// The fastest of several configurations of one DRAM pattern (float4 elements): every
/// (load operator x loop mode x persistent shape) and (load operator x covering block size)
/// combination is measured and validated; the best measurement comes back, the others go to
/// `all` when given. `peer`, when given, receives the driver's own kernel measured on the same
/// arrays: cudaMemcpy for copy, cudaMemset for write (left alone for read and mixed).
template <class Ops = gen::type_list<ptx::cache::cg, ptx::cache::cs>>
measurement best_dram_bandwidth(const device_info& dev, gen::stream_pattern pattern,
                                const dram_sweep& sweep, run_options o = {},
                                std::vector<measurement>* all = nullptr,
                                measurement* peer = nullptr) {
  auto kernels = gen::stream_kernels<gen::type_list<float4>, Ops>();
  const auto cover = gen::stream_covering_kernels<gen::type_list<float4>, Ops>();
  kernels.insert(kernels.end(), cover.begin(), cover.end());
  const std::uint64_t bytes = sweep.array_bytes ? sweep.array_bytes : dram_array_bytes(dev);
  gen::stream_workload w(pattern, 16, bytes / 16);
  w.fill_inputs(11);
  measurement best;
  const auto keep = [&](stream_result r, const gen::stream_kernel& k) {
    r.check.require();
    r.m.with_param("case", k.name());
    if (best.samples_s.empty() || r.m.rate.bytes_per_s > best.rate.bytes_per_s) best = r.m;
    if (all) all->push_back(std::move(r.m));
  };
  for (const auto& op : sweep.ops) {
    for (auto mode : {loop_mode::launches, loop_mode::in_kernel}) {
      const auto& k = gen::find_stream_kernel(kernels, pattern, 16, op, mode);
      for (auto [b, t] : sweep.persistent)
        keep(stream_bandwidth(k, w, gen::stream_shape(b, t, dev.sm_count), mode, sweep.passes, o,
                              true),
             k);
    }
    if (pattern == gen::stream_pattern::read) continue;
    const auto& k = gen::find_stream_kernel(kernels, pattern, 16, op, loop_mode::launches,
                                            gen::stream_grid::covering);
    for (int t : sweep.covering)
      keep(stream_bandwidth(k, w, gen::stream_covering_shape(w.elements(), t), loop_mode::launches,
                            1, o, true),
           k);
  }
  if (peer && pattern == gen::stream_pattern::copy)
    *peer = memcpy_bandwidth(w.output().data(), w.input(0).data(), bytes, o);
  if (peer && pattern == gen::stream_pattern::write)
    *peer = memset_bandwidth(w.output().data(), bytes, o);
  return best;
}

}  // namespace cuprobe::suite
