// cuprobe/multi/peer.cuh: peer access between two GPUs of one node, and the memory of a
// transfer between them.
//
//   if (cuprobe::can_access_peer(0, 1)) {
//     cuprobe::peer_access both(0, 1);                  // 0 <-> 1 enabled, disabled at scope end
//     cuprobe::peer_buffers b(0, 1, 256u << 20);        // inputs filled, outputs poisoned
//     auto r = cuprobe::measure_peer<>(b, 0, {});       // multi/peer_transfer.cuh
//   }
//   std::string why = cuprobe::peer_refusal(0, 0, cuprobe::device_count(), false);  // a sentence
//
// enable_peer_access() refuses, with one sentence and before any CUDA call can fail, a bad
// ordinal, the same device twice and a pair cudaDeviceCanAccessPeer says cannot (an access
// already enabled is left as it is). peer_buffers holds on each device an input array
// (gen::stream_input_word(seed + side, 0, w): every copy is checked word by word) and an output;
// peer_chase_ring() builds a pointer-chase ring (gen/chase.cuh) in one device's memory, to be
// chased from another. Every array is freed on its own device (core/device_buffer.cuh).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <utility>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/gen/stream_check.cuh"

namespace cuprobe {

/// Why peer access from device `from` to device `to` cannot be enabled, in one sentence ("" when
/// it can): `count` devices are visible and `can_access` is what cudaDeviceCanAccessPeer said.
/// Pure (host-testable).
CUPROBE_DECL std::string peer_refusal(int from, int to, int count, bool can_access);

/// True when device `from` can map device `to`'s memory (two different, existing devices that
/// cudaDeviceCanAccessPeer accepts); false otherwise, never an exception.
CUPROBE_DECL bool can_access_peer(int from, int to);

/// Lets device `from` load and store device `to`'s memory; throws cuprobe::error with
/// peer_refusal()'s sentence when it cannot. Already enabled: nothing changes.
CUPROBE_DECL void enable_peer_access(int from, int to);

/// Withdraws what enable_peer_access(from, to) granted; false (and nothing done) when it was
/// not enabled or the pair is refused.
CUPROBE_DECL bool disable_peer_access(int from, int to);

/// Peer access between `a` and `b` in both directions for the object's lifetime: enabled by the
/// constructor (refused with a sentence, see enable_peer_access), disabled by the destructor.
class peer_access {
 public:
  /// Enables a -> b and b -> a.
  peer_access(int a, int b) : a_(a), b_(b) {
    enable_peer_access(a, b);
    enable_peer_access(b, a);
  }
  peer_access(const peer_access&) = delete;
  peer_access& operator=(const peer_access&) = delete;
  CUPROBE_DECL ~peer_access();

 private:
  int a_, b_;
};

/// The arrays of transfers between two devices (side 0 and side 1; the same device twice is
/// allowed, a transfer within one device's memory): on each side an input of `bytes` filled with
/// gen::stream_input_word(seed + side, 0, w) and an output of `bytes`, poisoned.
class peer_buffers {
 public:
  /// Allocates and fills on devices `a` (side 0) and `b` (side 1); `bytes` a multiple of 16.
  CUPROBE_DECL peer_buffers(int a, int b, std::size_t bytes, std::uint64_t seed = 11);
  int device(int side) const { return device_[side & 1]; }     ///< The device of side 0 or 1.
  std::size_t bytes() const noexcept { return bytes_; }        ///< Bytes of each array.
  std::uint64_t words() const noexcept { return bytes_ / 4; }  ///< 32-bit words of each array.
  /// The seed side `side`'s input was filled from.
  std::uint64_t seed_of(int side) const noexcept { return seed_ + unsigned(side & 1); }
  /// Side `side`'s input (device memory of device(side)).
  const std::uint32_t* input(int side) const { return in_[side & 1].data(); }
  std::uint32_t* output(int side) { return out_[side & 1].data(); }  ///< Side `side`'s output.
  /// Poisons side `side`'s output (so that a word the next transfer does not write shows).
  void poison_output(int side) { out_[side & 1].poison(); }

  /// Checks, on device(side), the first `n` bytes of side `side`'s output: a copy of side
  /// `1 - side`'s input (pattern copy) or what the write pattern stores in pass 0 (write).
  CUPROBE_DECL gen::stream_check check_output(int side, gen::stream_pattern pattern,
                                              std::size_t n) const;

 private:
  int device_[2];
  std::size_t bytes_;
  std::uint64_t seed_;
  device_buffer<std::uint32_t> in_[2], out_[2];
};

/// A pointer-chase ring (gen::chase_ring) of `bytes` in device `owner`'s memory, to be chased
/// from another device with peer access enabled (suite::chase_latency under a
/// scoped_device of the reader).
CUPROBE_DECL gen::chase_ring peer_chase_ring(int owner, std::size_t bytes, std::size_t stride = 128,
                                             std::uint64_t seed = 1);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/multi/impl/peer.cuh"
#endif
