// cuprobe/pipeline/state.cuh: the position in a ring of buffers guarded by mbarriers.
//
//   namespace pl = cuprobe::pipeline;
//   auto c = pl::make_consumer_start_state<4>();   // {stage 0, parity 0}: waits for the fills
//   auto p = pl::make_producer_start_state<4>();   // {stage 0, parity 1}: first trip is free
//   ptx::mbarrier::wait(&full[c.stage], c.phase);  ++c;
//
// state<Stages> is a value type, host and device, constexpr (CUTLASS's PipelineState is
// the same idea): {stage, phase}, advanced by ++ or advance(n). The pipeline layer sits between
// ptx/ (the instructions) and gen/ (the kernel generators): it holds rings, phase state and roles,
// and no asm (docs/guide.md).
#pragma once

#include <cstdint>

namespace cuprobe::pipeline {

/// The position in a ring of Stages buffers, each guarded by an mbarrier: which stage (buffer)
/// comes next, and the parity of the barrier phase to wait for there. advance() moves to the
/// next stage and flips the phase each time the ring wraps, because each barrier completes one
/// phase per trip around the ring. Host and device, constexpr.
template <int Stages>
struct state {
  static_assert(Stages >= 1, "cuprobe::pipeline::state<Stages>: Stages must be at least 1");
  static constexpr int stages = Stages;  ///< Stages.

  int stage = 0;            ///< 0 .. Stages - 1
  std::uint32_t phase = 0;  ///< parity to wait for on the barrier of `stage`

  /// Next stage; the phase flips when the ring wraps to stage 0.
  __host__ __device__ constexpr void advance() {
    if (++stage == Stages) {
      stage = 0;
      phase ^= 1u;
    }
  }
  /// n steps at once (n >= 0).
  __host__ __device__ constexpr void advance(int n) {
    const int s = stage + n;
    phase ^= static_cast<std::uint32_t>((s / Stages) & 1);
    stage = s % Stages;
  }
  /// advance(), returning this state.
  __host__ __device__ constexpr state& operator++() {
    advance();
    return *this;
  }
  /// This state advanced by n steps (this one unchanged).
  __host__ __device__ constexpr state next(int n = 1) const {
    state s = *this;
    s.advance(n);
    return s;
  }
  friend __host__ __device__ constexpr bool operator==(const state& a, const state& b) {
    return a.stage == b.stage && a.phase == b.phase;
  }
  friend __host__ __device__ constexpr bool operator!=(const state& a, const state& b) {
    return !(a == b);
  }
};

/// The consumer's first state: stage 0, parity 0. It waits on the "full" barriers for the first
/// fill of each buffer, which completes phase 0.
template <int Stages>
__host__ __device__ constexpr state<Stages> make_consumer_start_state() {
  return state<Stages>{0, 0u};
}

/// The producer's first state: stage 0, parity 1, the opposite of the consumer. The producer
/// waits on the "empty" barriers before it refills a buffer, and on the first trip around the
/// ring every buffer is empty although no consumer ever arrived: a freshly initialised barrier
/// is in phase 0, and a parity-1 wait refers to the phase before it, which counts as complete,
/// so the first Stages waits return at once. From the second trip on it waits for real.
template <int Stages>
__host__ __device__ constexpr state<Stages> make_producer_start_state() {
  return state<Stages>{0, 1u};
}

}  // namespace cuprobe::pipeline
