// cuprobe/gen/stream_check.cuh: exact validation of the stream kernels' outputs
// (gen/stream_kernels.cuh), on the device and on the host. stream_workload
// (gen/stream_workload.cuh) calls the device checks; tests call the host ones.
//
//   auto c = cuprobe::gen::check_output(cuprobe::gen::stream_pattern::copy, downloaded, seed);
//   c.require();                                  // throws with the first wrong word
//   std::printf("%s\n", c.message.c_str());       // "copy: 0 of 4096 output words differ"
//
// The checks compare with the values the kernels must produce, computed from the formulas
// (stream_input_word, stream_written_word), not from the input buffers, so a kernel that
// corrupts its inputs fails too.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/gen/stream_kernels.cuh"

namespace cuprobe::gen {

/// The outcome of one validation.
struct stream_check {
  bool ok = false;               ///< true when every word matched
  std::uint64_t checked = 0;     ///< words compared (read: the sinks summed)
  std::uint64_t mismatches = 0;  ///< words that differ (read: 0 or 1)
  std::uint64_t first_bad = 0;   ///< word index of the first mismatch
  std::uint32_t expected = 0;    ///< at first_bad (read: the expected total)
  std::uint32_t found = 0;       ///< at first_bad
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

inline stream_check make_word_check(stream_pattern p, std::uint64_t words, std::uint64_t mismatches,
                                    std::uint64_t first, std::uint32_t expected,
                                    std::uint32_t found) {
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
    c.message += ", the first at word " + std::to_string(first) + ": expected " + hex32(expected) +
                 ", found " + hex32(found) +
                 (found == 0xA5A5A5A5u ? " (the poison: never written)" : "");
  return c;
}

inline stream_check make_sum_check(std::uint32_t expected, std::uint32_t found,
                                   std::uint64_t sinks) {
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
__global__ void count_mismatches_kernel(const std::uint32_t* out, std::uint64_t words, check_spec s,
                                        unsigned long long* result) {
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
  require(p != stream_pattern::read,
          "check_output: the read pattern has sinks, not an output "
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

}  // namespace cuprobe::gen
