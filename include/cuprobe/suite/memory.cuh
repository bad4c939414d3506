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
      .with_param("blocks_per_sm", shape.grid.x / unsigned(current_device().sm_count))
      .with_param("threads", shape.block.x)
      .with_param("array_bytes", double(w.elements() * w.element_bytes()))
      .with_param("working_set_bytes",
                  double(w.elements() * w.element_bytes()) *
                      (w.inputs() + (k.pattern == gen::stream_pattern::read ? 0 : 1)))
      .with_param("layout", layout == gen::stream_layout::partitioned ? "partitioned" : "replicated")
      .with_param("valid", r.check.ok);
  return r;
}

/// cudaMemcpyAsync device to device of `bytes`, measured like the copy kernels (read + written).
inline measurement memcpy_bandwidth(std::size_t bytes, run_options o = {}) {
  device_buffer<unsigned char> src(bytes), dst(bytes);
  src.fill(1);
  auto m = measure(
      "memcpy.d2d",
      [&](cudaStream_t s) {
        CUPROBE_CHECK(cudaMemcpyAsync(dst.data(), src.data(), bytes, cudaMemcpyDeviceToDevice, s));
      },
      work::bytes_moved(double(bytes), double(bytes), "cudaMemcpy D2D: N read + N written", true), o);
  m.with_param("array_bytes", double(bytes));
  return m;
}

/// cudaMemsetAsync of `bytes`: the driver's own write kernel, the peer of the write pattern.
inline measurement memset_bandwidth(std::size_t bytes, run_options o = {}) {
  device_buffer<unsigned char> dst(bytes);
  unsigned char v = 0;
  auto m = measure(
      "memset",
      [&](cudaStream_t s) { CUPROBE_CHECK(cudaMemsetAsync(dst.data(), ++v, bytes, s)); },
      work::bytes_moved(0, double(bytes), "cudaMemset: N written", true), o);
  m.with_param("array_bytes", double(bytes));
  return m;
}

/// Elements of `element_bytes` for one array of at least `factor` x the L2 (rounded up to a
/// multiple of 1 MiB).
inline std::uint64_t dram_elements(const device_info& dev, std::size_t element_bytes, double factor = 8) {
  const double want = factor * double(dev.l2_bytes);
  const std::uint64_t mib = (std::uint64_t(want) + (1u << 20) - 1) >> 20;
  return (mib << 20) / element_bytes;
}

}  // namespace cuprobe::suite

namespace cuprobe::suite {

/// The fastest of several configurations of one DRAM pattern (float4 elements): every
/// (load operator x loop mode x blocks-per-SM x threads) combination is measured and validated;
/// the best measurement comes back, the others go to `all` when given.
template <class Ops = gen::type_list<ptx::cache::cg, ptx::cache::cs>>
measurement best_dram_bandwidth(const device_info& dev, gen::stream_pattern pattern,
                                const std::vector<std::pair<int, int>>& configs,
                                const std::vector<std::string>& ops, run_options o = {},
                                std::vector<measurement>* all = nullptr, double l2_factor = 8) {
  const auto kernels = gen::stream_kernels<gen::type_list<float4>, Ops>();
  gen::stream_workload w(pattern, 16, dram_elements(dev, 16, l2_factor));
  w.fill_inputs(11);
  measurement best;
  for (const auto& op : ops)
    for (auto mode : {loop_mode::launches, loop_mode::in_kernel}) {
      const auto& k = gen::find_stream_kernel(kernels, pattern, 16, op, mode);
      for (auto [b, t] : configs) {
        auto r = stream_bandwidth(k, w, gen::stream_shape(b, t, dev.sm_count), mode, 10, o, true);
        r.check.require();
        r.m.with_param("case", k.name());
        if (best.samples_s.empty() || r.m.rate.bytes_per_s > best.rate.bytes_per_s) best = r.m;
        if (all) all->push_back(std::move(r.m));
      }
    }
  return best;
}

}  // namespace cuprobe::suite
