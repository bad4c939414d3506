// cuprobe/gen/stream_accounting.cuh: the stream patterns' vocabulary, which bytes a pattern
// moves (what a bandwidth figure divides by), the working set of a pass, and how much of an
// array each SM touches. Host only; included by the stream family (gen/stream.cuh).
//
//   const auto b = cuprobe::gen::stream_accounting(cuprobe::gen::stream_pattern::copy, n, 16, 1);
//   // b.bytes_read == b.bytes_written == 16 n;  b.rule == "copy: N read + N written per pass"
#pragma once

#include <cstdint>
#include <string>

#include "cuprobe/core/error.cuh"

namespace cuprobe::gen {

/// What a stream kernel does to its arrays (gen/stream_kernels.cuh).
enum class stream_pattern { read, write, copy, mixed };
/// How blocks share the arrays (see gen/stream_kernels.cuh).
enum class stream_layout { partitioned, replicated };
/// How a kernel's grid walks the arrays: grid-stride over a device-filling grid, or one
/// element per thread over as many blocks as the array needs.
enum class stream_grid { persistent, covering };
inline constexpr unsigned max_stream_inputs = 8;  ///< The most input arrays of the mixed pattern.
/// Input arrays of the mixed pattern by default.
inline constexpr unsigned default_mixed_inputs = 5;

/// "read", "write", "copy" or "mixed".
inline const char* to_string(stream_pattern p) {
  return p == stream_pattern::read    ? "read"
         : p == stream_pattern::write ? "write"
         : p == stream_pattern::copy  ? "copy"
         : p == stream_pattern::mixed ? "mixed"
                                      : "?";
}
/// "partitioned" or "replicated".
inline const char* to_string(stream_layout l) {
  return l == stream_layout::partitioned ? "partitioned" : "replicated";
}
/// "persistent" or "covering".
inline const char* to_string(stream_grid g) {
  return g == stream_grid::persistent ? "persistent" : "covering";
}

/// Input arrays a pattern reads: read and copy 1, write 0, mixed `inputs`.
inline unsigned stream_inputs(stream_pattern p, unsigned inputs = default_mixed_inputs) {
  return p == stream_pattern::mixed ? inputs : p == stream_pattern::write ? 0 : 1;
}

/// Bytes one pass touches: every input array and the output, once (read has no output; its
/// sink, one word per thread, is not counted). What the runner compares with the L2 for
/// DRAM work (work::working_set_bytes).
inline double stream_working_set_bytes(stream_pattern p, std::uint64_t elements,
                                       std::uint64_t element_bytes,
                                       unsigned inputs = default_mixed_inputs) {
  const unsigned arrays = stream_inputs(p, inputs) + (p == stream_pattern::read ? 0 : 1);
  return double(elements) * double(element_bytes) * arrays;
}

// ---- Byte accounting. ----

/// Which bytes one launch (or a series) moves, as the kernel requests them: what a bandwidth
/// figure divides by. Not counted: the read pattern's one sink word per thread, and any DRAM
/// traffic the memory system adds (write-allocate fills, ECC): say so next to the number.
struct stream_bytes {
  stream_pattern pattern = stream_pattern::read;  ///< what the kernel does
  std::uint64_t elements = 0;                     ///< N: elements per array
  std::uint64_t element_bytes = 0;                ///< bytes per element
  std::uint64_t passes = 0;                       ///< passes the figures cover
  std::uint64_t reads_per_pass = 0;               ///< elements read per pass
  std::uint64_t writes_per_pass = 0;              ///< elements written per pass
  std::uint64_t bytes_read = 0;                   ///< bytes read, in all
  std::uint64_t bytes_written = 0;                ///< bytes written, in all
  std::string rule;                               ///< e.g. "copy: N read + N written per pass"

  /// bytes_read + bytes_written
  std::uint64_t total() const { return bytes_read + bytes_written; }
};

/// Bytes moved by `passes` passes of `pattern` over `elements` elements of `element_bytes`.
/// `inputs`: mixed only (N in NR1W). `replicas`: replicated read only, the number of blocks
/// (each reads every element once per pass).
inline stream_bytes stream_accounting(stream_pattern pattern, std::uint64_t elements,
                                      std::uint64_t element_bytes, std::uint64_t passes,
                                      unsigned inputs = default_mixed_inputs,
                                      std::uint64_t replicas = 1) {
  require(pattern != stream_pattern::mixed || (inputs >= 1 && inputs <= max_stream_inputs),
          "stream_accounting: mixed takes 1 to 8 inputs, got " + std::to_string(inputs));
  require(replicas >= 1 && (replicas == 1 || pattern == stream_pattern::read),
          "stream_accounting: only the read pattern can be replicated over blocks");
  stream_bytes b;
  b.pattern = pattern;
  b.elements = elements;
  b.element_bytes = element_bytes;
  b.passes = passes;
  switch (pattern) {
    case stream_pattern::read:
      b.reads_per_pass = elements * replicas;
      b.rule = replicas == 1 ? "read: N read per pass"
                             : "read, replicated: N read by each of " + std::to_string(replicas) +
                                   " blocks per pass";
      break;
    case stream_pattern::write:
      b.writes_per_pass = elements;
      b.rule = "write: N written per pass";
      break;
    case stream_pattern::copy:
      b.reads_per_pass = elements;
      b.writes_per_pass = elements;
      b.rule = "copy: N read + N written per pass";
      break;
    case stream_pattern::mixed:
      b.reads_per_pass = elements * inputs;
      b.writes_per_pass = elements;
      b.rule = "mixed " + std::to_string(inputs) + "R1W: " + std::to_string(inputs) +
               "N read + N written per pass";
      break;
  }
  b.bytes_read = b.reads_per_pass * element_bytes * passes;
  b.bytes_written = b.writes_per_pass * element_bytes * passes;
  return b;
}

/// Bytes of the array that one SM touches in every pass (what must fit in its L1 for the
/// passes after the first to hit there), for a grid that spreads its blocks evenly over
/// sm_count SMs: the whole array when replicated, an equal share when partitioned.
inline double stream_bytes_per_sm(std::uint64_t array_bytes, stream_layout layout, int sm_count) {
  require(sm_count >= 1, "stream_bytes_per_sm: sm_count must be positive");
  return layout == stream_layout::replicated ? double(array_bytes) : double(array_bytes) / sm_count;
}

}  // namespace cuprobe::gen
