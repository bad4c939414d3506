// cuprobe/gen/stream_check.cuh: buffers, byte counts and exact validation for the stream
// kernels of gen/stream.cuh.
//
//   cuprobe::gen::stream_workload w(cuprobe::gen::stream_pattern::mixed, sizeof(float4), 1 << 24);
//   w.fill_inputs(/*seed=*/7);                      // 5 inputs: mixed 5R1W by default
//   w.poison_outputs();
//   k.launch(shape, w.args(shape, cuprobe::gen::loop_mode::in_kernel, /*passes=*/10));
//   w.check().require();    // on the device, exact: throws with the first wrong word
//   const auto bytes = w.bytes();   // what that launch moved, and the rule that says so
//
// The checks compare with the values the kernels must produce, computed from the formulas
// (stream_input_word, stream_written_word), not from the input buffers, so a kernel that
// corrupts its inputs fails too. The host versions (check_output, expected_read_sum) do the
// same on downloaded data, for tests and small sizes.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/gen/stream.cuh"

namespace cuprobe::gen {

/// The outcome of one validation.
struct stream_check {
  bool ok = false;
  std::uint64_t checked = 0;     ///< words compared (read: the sinks summed)
  std::uint64_t mismatches = 0;  ///< words that differ (read: 0 or 1)
  std::uint64_t first_bad = 0;   ///< word index of the first mismatch
  std::uint32_t expected = 0;    ///< at first_bad (read: the expected total)
  std::uint32_t found = 0;
  std::string message;           ///< one sentence, also when ok

  /// Throws cuprobe::error with the message unless ok.
  void require() const {
    if (!ok) throw error("cuprobe: " + message);
  }
};

/// Word `word` of the output of write (in pass `pass`), copy or mixed (`inputs` inputs).
__host__ __device__ inline std::uint32_t stream_expected_word(stream_pattern p, std::uint64_t seed,
                                                              unsigned inputs, std::uint64_t word,
                                                              std::uint32_t pass) {
  if (p == stream_pattern::write) return stream_written_word(word, pass);
  if (p == stream_pattern::copy) return stream_input_word(seed, 0, word);
  std::uint32_t s = 0;
  for (unsigned k = 0; k < inputs; ++k) s += stream_input_word(seed, k, word);
  return s;
}

/// Host: what the sinks of a read launch add up to: the wrapping sum of the `words` words of
/// input 0, times `repeats` (passes per launch x blocks when replicated), modulo 2^32.
inline std::uint32_t expected_read_sum(std::uint64_t seed, std::uint64_t words,
                                       std::uint64_t repeats = 1) {
  std::uint32_t s = 0;
  for (std::uint64_t w = 0; w < words; ++w) s += stream_input_word(seed, 0, w);
  return s * static_cast<std::uint32_t>(repeats);
}

namespace detail {

inline std::string hex32(std::uint32_t v) {
  char t[16];
  std::snprintf(t, sizeof t, "0x%08x", v);
  return t;
}

inline stream_check make_word_check(stream_pattern p, std::uint64_t words,
                                    std::uint64_t mismatches, std::uint64_t first,
                                    std::uint32_t expected, std::uint32_t found) {
  stream_check c;
  c.ok = mismatches == 0;
  c.checked = words;
  c.mismatches = mismatches;
  c.first_bad = mismatches ? first : 0;
  c.expected = expected;
  c.found = found;
  c.message = std::string(to_string(p)) + ": " + std::to_string(mismatches) + " of " +
              std::to_string(words) + " output words differ";
  if (mismatches)
    c.message += ", the first at word " + std::to_string(first) + ": expected " +
                 hex32(expected) + ", found " + hex32(found) +
                 (found == 0xA5A5A5A5u ? " (the poison: never written)" : "");
  return c;
}

inline stream_check make_sum_check(std::uint32_t expected, std::uint32_t found, std::uint64_t sinks) {
  stream_check c;
  c.ok = expected == found;
  c.checked = sinks;
  c.mismatches = c.ok ? 0 : 1;
  c.expected = expected;
  c.found = found;
  c.message = "read: the " + std::to_string(sinks) + " sinks add up to " + hex32(found) +
              (c.ok ? ", as expected" : ", expected " + hex32(expected));
  return c;
}

struct check_spec {
  stream_pattern pattern;
  std::uint64_t seed;
  unsigned inputs;
  std::uint32_t pass;
};

/// result[0] += mismatching words, result[1] = min(index of a mismatching word).
template <class = void>
__global__ void count_mismatches_kernel(const std::uint32_t* out, std::uint64_t words,
                                        check_spec s, unsigned long long* result) {
  unsigned long long bad = 0, first = ~0ull;
  for (std::uint64_t w = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; w < words;
       w += std::uint64_t(gridDim.x) * blockDim.x) {
    if (out[w] != stream_expected_word(s.pattern, s.seed, s.inputs, w, s.pass)) {
      if (!bad) first = w;
      ++bad;
    }
  }
  if (bad) {
    atomicAdd(&result[0], bad);
    atomicMin(&result[1], first);
  }
}

/// *result += wrapping sum of p[0..words), or of input 0's words when p is null.
template <class = void>
__global__ void sum_words_kernel(const std::uint32_t* p, std::uint64_t words, std::uint64_t seed,
                                 std::uint32_t* result) {
  std::uint32_t s = 0;
  for (std::uint64_t w = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; w < words;
       w += std::uint64_t(gridDim.x) * blockDim.x)
    s += p ? p[w] : stream_input_word(seed, 0, w);
  for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xFFFFFFFFu, s, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(result, s);
}

template <class = void>
__global__ void fill_input_kernel(std::uint32_t* p, std::uint64_t words, std::uint64_t seed,
                                  unsigned input) {
  for (std::uint64_t w = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; w < words;
       w += std::uint64_t(gridDim.x) * blockDim.x)
    p[w] = stream_input_word(seed, input, w);
}

inline unsigned check_grid(std::uint64_t words) {
  const std::uint64_t b = (words + 255) / 256;
  return static_cast<unsigned>(b < 4096 ? (b ? b : 1) : 4096);
}

/// Wrapping sum of `words` words on the device (p null: input 0's words for `seed`).
inline std::uint32_t device_sum(const std::uint32_t* p, std::uint64_t words, std::uint64_t seed) {
  device_buffer<std::uint32_t> r(1);
  r.zero();
  sum_words_kernel<><<<check_grid(words), 256>>>(p, words, seed, r.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::gen::detail::sum_words_kernel");
  return r.to_host()[0];
}

}  // namespace detail

/// Host: compares output words (downloaded) with what write / copy / mixed must produce.
inline stream_check check_output(stream_pattern p, const std::vector<std::uint32_t>& out,
                                 std::uint64_t seed, unsigned inputs = default_mixed_inputs,
                                 std::uint32_t pass = 0) {
  require(p != stream_pattern::read, "check_output: the read pattern has sinks, not an output "
                                     "(use check_read_sinks)");
  std::uint64_t bad = 0, first = 0;
  std::uint32_t expected = 0, found = 0;
  for (std::uint64_t w = 0; w < out.size(); ++w) {
    const std::uint32_t e = stream_expected_word(p, seed, inputs, w, pass);
    if (out[w] != e && bad++ == 0) first = w, expected = e, found = out[w];
  }
  return detail::make_word_check(p, out.size(), bad, first, expected, found);
}

/// Host: compares the sum of a read launch's sinks (downloaded) with `expected_total`
/// (expected_read_sum).
inline stream_check check_read_sinks(const std::vector<std::uint32_t>& sinks,
                                     std::uint32_t expected_total) {
  std::uint32_t s = 0;
  for (std::uint32_t v : sinks) s += v;
  return detail::make_sum_check(expected_total, s, sinks.size());
}

/// The buffers of one stream experiment: inputs filled from a seed, output and sinks poisoned,
/// arguments for a launch shape, byte counts and an exact check of the last launch. Buffers
/// hold 32-bit words (elements x element_bytes / 4), aligned for any element type.
class stream_workload {
 public:
  stream_workload(stream_pattern pattern, std::size_t element_bytes, std::uint64_t elements,
                  unsigned inputs = default_mixed_inputs)
      : pattern_(pattern), element_bytes_(element_bytes), elements_(elements) {
    require(element_bytes == 4 || element_bytes == 8 || element_bytes == 16,
            "stream_workload: element_bytes must be 4, 8 or 16, got " +
                std::to_string(element_bytes));
    require(elements > 0, "stream_workload: elements must be positive");
    require(pattern != stream_pattern::mixed || (inputs >= 1 && inputs <= max_stream_inputs),
            "stream_workload: mixed takes 1 to 8 inputs, got " + std::to_string(inputs));
    inputs_ = pattern == stream_pattern::mixed ? inputs : pattern == stream_pattern::write ? 0 : 1;
    for (unsigned k = 0; k < inputs_; ++k) in_.emplace_back(words());
    if (pattern != stream_pattern::read) out_ = device_buffer<std::uint32_t>(words());
  }

  stream_pattern pattern() const { return pattern_; }
  std::size_t element_bytes() const { return element_bytes_; }
  std::uint64_t elements() const { return elements_; }
  std::uint64_t words() const { return elements_ * (element_bytes_ / 4); }
  /// Input arrays: read and copy 1, write 0, mixed N.
  unsigned inputs() const { return inputs_; }
  const device_buffer<std::uint32_t>& input(unsigned k) const { return in_.at(k); }
  const device_buffer<std::uint32_t>& output() const { return out_; }
  device_buffer<std::uint32_t>& output() { return out_; }  ///< e.g. for a peer to write into
  const device_buffer<std::uint32_t>& sinks() const { return sink_; }

  /// Input k, word w becomes stream_input_word(seed, k, w).
  void fill_inputs(std::uint64_t seed) {
    for (unsigned k = 0; k < inputs_; ++k) {
      detail::fill_input_kernel<><<<detail::check_grid(words()), 256>>>(in_[k].data(), words(),
                                                                         seed, k);
      CUPROBE_CHECK_LAUNCH("cuprobe::gen::detail::fill_input_kernel");
    }
    CUPROBE_CHECK(cudaDeviceSynchronize());
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
    require(mode == loop_mode::launches || passes >= 1, "stream_workload::args: passes must be >= 1");
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
    CUPROBE_CHECK(cudaDeviceSynchronize());
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
    detail::count_mismatches_kernel<><<<detail::check_grid(words()), 256>>>(out_.data(), words(),
                                                                             spec, r.data());
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
