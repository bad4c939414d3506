// cuprobe/pipeline/ring.cuh: the full/empty mbarriers of a Stages-deep producer -> consumer
// ring, walked with pipeline::state. It holds no asm of its own (only ptx/mbarrier.cuh's
// wrappers); the kernel generators (gen/), the Hopper blocks and a user's TMA -> WGMMA kernel
// share it.
//
//   namespace ptx = cuprobe::ptx;  namespace pl = cuprobe::pipeline;
//   __shared__ pl::mbarrier_ring<4, 2> ring;               // 4 stages, clusters of 2 CTAs
//   if (threadIdx.x == 0) ring.init(/*consumers per CTA=*/2);
//   ptx::cluster::sync();                                   // inits visible cluster-wide
//   // producer (one thread):                 // consumer (one elected thread per warpgroup):
//   auto p = ring.producer_start();           auto c = ring.consumer_start();
//   ring.acquire(p);                          ring.wait_full(c);
//   auto* bar = ring.fill(p, stage_bytes);    ... read stage c.stage ...
//   bulk::tensor_load(buf[p.stage], &map, bar, x, y);   ring.release(c); ++c;
//   ++p;
//
// Choices (docs/hopper-gemm.md, "The ring", has the barriers' counts and parities):
// - With Cluster CTAs sharing a multicast operand, a CTA's producer may overwrite a stage only
//   after the consumers of all Cluster CTAs released it: release() arrives on that stage's empty
//   barrier in every CTA of the cluster (mapa + mbarrier.arrive.relaxed.cluster), and the
//   producer waits on `empty` with cluster-scope acquire when Cluster > 1.
// - A consumer releasing after ordinary loads is every reading thread: a __syncwarp() and one
//   lane's arrival would work too, but compute-sanitizer's racecheck does not follow that chain
//   and reports WAR hazards (tests/gpu/hopper_pipeline.cu).
// - The barriers are a value in shared memory (2 x Stages words), not hidden in a class that
//   owns the buffers: the user lays out the stage buffers as they like. A kernel that needs more
//   barriers per stage (the suite's tma_multicast relay) keeps them beside it.
// - init() initialises every `empty` barrier before every `full` one: where the debug tx
//   shadow's 16 slots (ptx/mbarrier.cuh) run out, the barriers that count bytes keep theirs.
// - Teardown is the user's: with Cluster > 1 no CTA may exit while a peer can still multicast
//   into it or arrive on its barriers, so end the kernel with ptx::cluster::sync().
#pragma once

#include <cstdint>

#include "cuprobe/pipeline/state.cuh"
#include "cuprobe/ptx/mbarrier.cuh"

namespace cuprobe::pipeline {

/// Full/empty barriers of a Stages-deep ring; Cluster CTAs share each stage's multicast operand.
template <int Stages, int Cluster = 1>
struct mbarrier_ring {
  static_assert(Stages >= 1 && Stages <= 32,
                "cuprobe::pipeline::mbarrier_ring<Stages>: Stages must be 1..32");
  static_assert(Cluster >= 1 && Cluster <= 16,
                "cuprobe::pipeline::mbarrier_ring<Stages, Cluster>: Cluster must be 1..16 CTAs");
  using state = pipeline::state<Stages>;   ///< a position in the ring: stage and phase
  static constexpr int stages = Stages;    ///< the ring's depth
  static constexpr int cluster = Cluster;  ///< the CTAs that share each stage's operand

  ptx::mbarrier::object full[Stages];   ///< per stage: completes when its bytes have landed
  ptx::mbarrier::object empty[Stages];  ///< per stage: completes when every consumer released it

  /// One thread: initialises every barrier (consumers = releases per stage from ONE CTA) and
  /// fences the inits; then the caller synchronises the CTA (Cluster == 1) or the cluster.
  __device__ void init(std::uint32_t consumers) {
    for (int s = 0; s < Stages; ++s) ptx::mbarrier::init(&empty[s], consumers * Cluster);
    for (int s = 0; s < Stages; ++s) ptx::mbarrier::init(&full[s], 1);
    ptx::mbarrier::fence_init();
  }

  /// The producer's first state: its first trip finds every stage free.
  __device__ static constexpr state producer_start() { return make_producer_start_state<Stages>(); }
  /// The consumer's first state: it waits for the first fill of each stage.
  __device__ static constexpr state consumer_start() { return make_consumer_start_state<Stages>(); }

  /// Producer: waits until stage s is free in every CTA that receives it.
  __device__ void acquire(state s) {
    if constexpr (Cluster > 1)
      ptx::mbarrier::wait<ptx::scope::cluster>(&empty[s.stage], s.phase);
    else
      ptx::mbarrier::wait(&empty[s.stage], s.phase);
  }
  /// Producer: announces the bytes that will land in this CTA's stage s and arrives; returns
  /// the barrier the copies complete on.
  __device__ ptx::mbarrier::object* fill(state s, std::uint32_t bytes) {
    ptx::mbarrier::arrive_expect_tx(&full[s.stage], bytes);
    return &full[s.stage];
  }
  /// The full barrier of stage s (the copies of a stage complete on it).
  __device__ ptx::mbarrier::object* full_barrier(state s) { return &full[s.stage]; }
  /// The empty barrier of stage s (this CTA's releases of the stage arrive on it).
  __device__ ptx::mbarrier::object* empty_barrier(state s) { return &empty[s.stage]; }

  /// Consumer: waits until stage s holds its data.
  __device__ void wait_full(state s) { ptx::mbarrier::wait(&full[s.stage], s.phase); }
  /// Consumer (one thread per consumer): stage s may be overwritten, as far as this consumer
  /// is concerned, in every CTA of the cluster. Relaxed remote arrivals: the consumer's reads
  /// of the stage must be complete already (wgmma wait_group); a release at cluster scope
  /// would add a MEMBAR.ALL.GPU per arrival (ptx/mbarrier.cuh, arrive_remote_relaxed).
  /// Cluster == 1: mbarrier.arrive.release.cta, which orders this thread's own loads.
  __device__ void release(state s) {
    if constexpr (Cluster > 1) {
#pragma unroll
      for (int r = 0; r < Cluster; ++r) ptx::mbarrier::arrive_remote_relaxed(&empty[s.stage], r);
    } else {
      ptx::mbarrier::arrive(&empty[s.stage]);
    }
  }
};

}  // namespace cuprobe::pipeline
