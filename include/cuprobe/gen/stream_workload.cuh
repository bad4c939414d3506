// cuprobe/gen/stream_workload.cuh: the buffers of one stream experiment (inputs from a seed,
// output and sinks poisoned), a launch's arguments and bytes, and an exact check on the device.
//
//   cuprobe::gen::stream_workload w(cuprobe::gen::stream_pattern::mixed, sizeof(float4), 1 << 24);
//   w.fill_inputs(/*seed=*/7);                      // 5 inputs: mixed 5R1W by default
//   w.poison_outputs();
//   k.launch(shape, w.args(shape, cuprobe::loop_mode::in_kernel, /*passes=*/10));
//   w.check().require();        // on the device, exact: throws with the first wrong word
//   const auto bytes = w.bytes();   // what that launch moved, and the rule that says so
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/gen/stream_accounting.cuh"
#include "cuprobe/gen/stream_check.cuh"
#include "cuprobe/gen/stream_kernels.cuh"

namespace cuprobe::gen {

/// The buffers of one stream experiment: inputs filled from a seed, output and sinks poisoned,
/// arguments for a launch shape, byte counts and an exact check of the last launch. Buffers
/// hold 32-bit words (elements x element_bytes / 4), aligned for any element type.
class stream_workload {
 public:
  /// Allocates the arrays of `elements` elements of `element_bytes` (4, 8 or 16) bytes.
  stream_workload(stream_pattern pattern, std::size_t element_bytes, std::uint64_t elements,
                  unsigned inputs = default_mixed_inputs)
      : pattern_(pattern), element_bytes_(element_bytes), elements_(elements) {
    require(
        element_bytes == 4 || element_bytes == 8 || element_bytes == 16,
        "stream_workload: element_bytes must be 4, 8 or 16, got " + std::to_string(element_bytes));
    require(elements > 0, "stream_workload: elements must be positive");
    require(pattern != stream_pattern::mixed || (inputs >= 1 && inputs <= max_stream_inputs),
            "stream_workload: mixed takes 1 to 8 inputs, got " + std::to_string(inputs));
    inputs_ = stream_inputs(pattern, inputs);
    for (unsigned k = 0; k < inputs_; ++k) in_.emplace_back(words());
    if (pattern != stream_pattern::read) out_ = device_buffer<std::uint32_t>(words());
  }

  stream_pattern pattern() const { return pattern_; }           ///< What the kernels do.
  std::size_t element_bytes() const { return element_bytes_; }  ///< Bytes per element: 4, 8 or 16.
  std::uint64_t elements() const { return elements_; }          ///< Elements per array.
  /// 32-bit words per array.
  std::uint64_t words() const { return elements_ * (element_bytes_ / 4); }
  /// Input arrays: read and copy 1, write 0, mixed N.
  unsigned inputs() const { return inputs_; }
  /// Input array `k`.
  const device_buffer<std::uint32_t>& input(unsigned k) const { return in_.at(k); }
  /// The output array (empty for read).
  const device_buffer<std::uint32_t>& output() const { return out_; }
  device_buffer<std::uint32_t>& output() { return out_; }  ///< e.g. for a peer to write into
  /// The read pattern's sink words.
  const device_buffer<std::uint32_t>& sinks() const { return sink_; }

  /// Input k, word w becomes stream_input_word(seed, k, w).
  void fill_inputs(std::uint64_t seed) {
    for (unsigned k = 0; k < inputs_; ++k) {
      detail::fill_input_kernel<>
          <<<detail::check_grid(words()), 256>>>(in_[k].data(), words(), seed, k);
      CUPROBE_CHECK_LAUNCH("cuprobe::gen::detail::fill_input_kernel");
    }
    synchronize_device("gen::stream_workload::fill_inputs");
    seed_ = seed;
    filled_ = true;
  }

  /// Sets the output and the sinks to poison_byte, so that unwritten words show.
  void poison_outputs() {
    out_.poison();
    sink_.poison();
  }

  /// Arguments for launches of `shape`, and what check() and bytes() will assume of the next
  /// launch. Allocates (and poisons) the sinks when the grid has more threads than before:
  /// call it before timing.
  stream_args args(const launch_shape& shape, loop_mode mode = loop_mode::launches,
                   std::uint32_t passes = 1, std::uint32_t first_pass = 0,
                   stream_layout layout = stream_layout::partitioned) {
    require(layout == stream_layout::partitioned || pattern_ == stream_pattern::read,
            "stream_workload::args: only the read pattern takes the replicated layout");
    require(mode == loop_mode::launches || passes >= 1,
            "stream_workload::args: passes must be >= 1");
    if (pattern_ == stream_pattern::read && sink_.size() < shape.threads()) {
      sink_ = device_buffer<std::uint32_t>(shape.threads());
      sink_.poison();
    }
    stream_args a;
    for (unsigned k = 0; k < inputs_; ++k) a.in[k] = in_[k].data();
    a.out = out_.data();
    a.sink = sink_.data();
    a.elements = elements_;
    a.inputs = inputs_ ? inputs_ : 1;
    a.passes = passes;
    a.first_pass = first_pass;
    a.replicated = layout == stream_layout::replicated;
    shape_ = shape;
    passes_ = mode == loop_mode::in_kernel ? passes : 1;
    last_pass_ = first_pass + passes_ - 1;
    layout_ = layout;
    has_args_ = true;
    return a;
  }

  /// Bytes one pass touches: every input array and the output (stream_working_set_bytes).
  double working_set_bytes() const {
    return stream_working_set_bytes(pattern_, elements_, element_bytes_, inputs_ ? inputs_ : 1);
  }

  /// Bytes that one launch made with the last args() moves.
  stream_bytes bytes() const {
    require(has_args_, "stream_workload::bytes: call args() first");
    return stream_accounting(pattern_, elements_, element_bytes_, passes_, inputs_ ? inputs_ : 1,
                             replicas());
  }

  /// Validates, on the device, what the last launch made with the last args() left behind.
  /// Synchronises the device first (an asynchronous launch error surfaces here).
  stream_check check() const {
    require(has_args_, "stream_workload::check: call args() and launch first");
    require(inputs_ == 0 || filled_, "stream_workload::check: call fill_inputs() before launching");
    synchronize_device("gen::stream_workload::check");
    if (pattern_ == stream_pattern::read) {
      const std::uint32_t total = detail::device_sum(nullptr, words(), seed_);
      const std::uint32_t expected = total * static_cast<std::uint32_t>(passes_ * replicas());
      const std::uint32_t found = detail::device_sum(sink_.data(), shape_.threads(), 0);
      return detail::make_sum_check(expected, found, shape_.threads());
    }
    device_buffer<unsigned long long> r(2);
    CUPROBE_CHECK(cudaMemset(r.data(), 0, 8));
    CUPROBE_CHECK(cudaMemset(r.data() + 1, 0xFF, 8));
    const detail::check_spec spec{pattern_, seed_, inputs_, last_pass_};
    detail::count_mismatches_kernel<>
        <<<detail::check_grid(words()), 256>>>(out_.data(), words(), spec, r.data());
    CUPROBE_CHECK_LAUNCH("cuprobe::gen::detail::count_mismatches_kernel");
    const auto h = r.to_host();
    std::uint32_t found = 0, expected = 0;
    if (h[0]) {
      CUPROBE_CHECK(cudaMemcpy(&found, out_.data() + h[1], 4, cudaMemcpyDeviceToHost));
      expected = stream_expected_word(pattern_, seed_, inputs_, h[1], last_pass_);
    }
    return detail::make_word_check(pattern_, words(), h[0], h[1], expected, found);
  }

 private:
  std::uint64_t replicas() const {
    return layout_ == stream_layout::replicated ? shape_.blocks() : 1;
  }

  stream_pattern pattern_;
  std::size_t element_bytes_;
  std::uint64_t elements_;
  unsigned inputs_ = 0;
  std::vector<device_buffer<std::uint32_t>> in_;
  device_buffer<std::uint32_t> out_;
  device_buffer<std::uint32_t> sink_;
  std::uint64_t seed_ = 0;
  bool filled_ = false;
  launch_shape shape_{};
  std::uint32_t passes_ = 1;
  std::uint32_t last_pass_ = 0;
  stream_layout layout_ = stream_layout::partitioned;
  bool has_args_ = false;
};

}  // namespace cuprobe::gen
