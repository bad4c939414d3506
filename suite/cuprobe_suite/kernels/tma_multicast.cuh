// cuprobe_suite/kernels/tma_multicast.cuh: the cluster multicast load stream (sm_90a). CTAs
// form clusters of Cluster (1, 2, 4 or 8); each cluster walks chunks of the array, and for each
// chunk every rank r issues one cp.async.bulk...multicast::cluster of slice r of the chunk into
// every CTA of the cluster (ctaMask = all), so every CTA receives the whole chunk while the array
// is read from global memory once per cluster. Consumer warps sum every word that lands (checked on
// the host). The same kernel with Multicast = false is the non-multicast stream of the same total:
// every CTA of the cluster loads the whole chunk itself (cp.async.bulk), so the cluster asks the
// L2 for each chunk Cluster times. cuprobe_suite/tma_multicast.cuh measures both.
//
//   namespace kernels = cuprobe::suite::kernels;
//   kernels::tma_multicast_args a;  a.src = in;  a.chunk_bytes = 16384;  a.chunks = bytes / 16384;
//   a.sums = sums;               // Cluster uint32_t, zeroed: sums[r] = words rank-r CTAs received
//   auto k = kernels::tma_multicast_kernel_for(/*cluster=*/4, /*multicast=*/true, /*stages=*/4);
//   // launch in clusters of 4 (hopper::launch), blockDim tma_multicast_threads(4), dynamic
//   // shared memory tma_stream_smem_bytes(16384, 4)
//
// Choices (docs/hopper-benchmarks.md, "Cluster multicast"):
// - Roles: warp 0's lane 0 is the producer, warp 1 relays releases to the peers, warps 2.. are
//   consumers that read every byte of every chunk with ld.shared.v4 and sum it, as in the plain
//   load stream (gen/tma.cuh). The block shape is the same with and without multicast.
// - "full", per CTA and stage: 1 arrival (the CTA's own producer's arrive_expect_tx of the WHOLE
//   chunk: chunk_bytes land in this CTA's buffer whichever rank issued them; not slice x
//   Cluster, not one slice) plus the tx bytes. A peer's slice may complete_tx before this CTA's
//   arrive_expect_tx of the same phase: the tx-count goes negative and the pending arrival keeps
//   the phase open (PTX ISA: tx-count range -(2^20 - 1) .. 2^20 - 1). It cannot land in the
//   PREVIOUS phase: a rank reissues a stage only after every CTA released its last fill, and a
//   CTA releases only after its "full" wait for that fill completed.
// - The buffer-free side: rank q's multicast writes slice q of a stage in EVERY CTA, so rank q
//   may reissue it only after every CTA's readers are done with it. Each consumer thread arrives
//   on its own CTA's "consumed" barrier (release.cta: cheap, per thread, the CUTLASS
//   consumer_release that racecheck accepts); lane q < Cluster of the relay warp waits for it
//   (acquire.cta) and arrives on rank q's "relayed" barrier (mapa + mbarrier.arrive.release
//   .cluster: arrive_remote); the producer of rank q waits on its "relayed" (Cluster arrivals per
//   phase, one per CTA) with acquire.cluster. Release and acquire chain, so every reader's loads
//   happen before the copy that overwrites them. Why a relay warp: a cluster-scope release costs
//   a MEMBAR.ALL.GPU (tests/areas/tma.cmake pins it); once per stage for all ranks in one warp
//   instruction instead of once per consumer thread, and off the producer's path. //   The relay's
//   arrival can be relaxed instead (args.relaxed_relay, both measured): the consumers' loads are
//   ordered before the relay's acquire of "consumed" already, and a performed load cannot see a
//   later copy's bytes; relaxed drops the MEMBAR. Without multicast (or in clusters of 1) the relay
//   warp idles and the producer waits on "consumed".
// - Start: every CTA inits its barriers, fence.mbarrier_init.release.cluster, then a cluster
//   barrier (arrive.relaxed + wait.acquire) before any copy or remote arrival can reach a peer.
// - Teardown: the producer drains its ring (producer tail: one more wait per stage, which
//   returns when the last relays of every peer have landed on this CTA's barriers), then every
//   thread takes part in a final cluster barrier, so no CTA exits while a peer may still
//   multicast into it or arrive on its barriers (PTX ISA: touching an exited CTA's shared memory
//   is undefined).
// - "full" and "consumed" are a cuprobe::pipeline::mbarrier_ring<Stages> (the ring of gen/tma.cuh
// and the
//   GEMM; producer starts on parity 1, consumer and relay on 0); "relayed" sits beside it.
// - Chunks: cluster k (of nclusters) takes chunks k, k + nclusters, ... of every pass; chunk c is
//   bytes [c x chunk_bytes, (c + 1) x chunk_bytes), rank r issues its bytes [r x slice,
//   (r + 1) x slice), slice = chunk_bytes / Cluster. The consumers of rank r add every word they
//   read into sums[r]: on an iota array (tma_iota_kernel) each must end at passes x (0 + 1 + ...
//   + words - 1) per launch, whatever the cluster size.
// - Debug builds (CUPROBE_PTX_CHECKS): the kernel traps with a sentence when it runs in a
//   cluster of another size than Cluster, when chunk_bytes is not a multiple of 16 x Cluster, or
//   when blockDim.x - 64 is not a positive multiple of 32; every mbarrier wait is bounded
//   (ptx/mbarrier.cuh: a sentence with the barrier, the parity and the tx bytes, then __trap()),
//   so a tx-count or phase mistake traps instead of hanging. Release builds: no checks.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/gen/tma.cuh"
#include "cuprobe/pipeline/ring.cuh"
#include "cuprobe/ptx/bulk.cuh"
#include "cuprobe/ptx/cluster.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/mbarrier.cuh"

namespace cuprobe::suite::kernels {

/// Cluster sizes the multicast stream is instantiated for.
inline constexpr unsigned tma_multicast_cluster_sizes[] = {1, 2, 4, 8};
inline constexpr unsigned tma_multicast_max_cluster = 8;

struct tma_multicast_args {
  const void* src = nullptr;      ///< the array (16-byte aligned)
  std::uint64_t chunks = 0;       ///< chunks per pass: array bytes / chunk_bytes
  std::uint32_t chunk_bytes = 0;  ///< bytes every CTA receives per chunk: 16 x Cluster multiple
  std::uint32_t passes = 1;       ///< passes over the array per launch
  std::uint32_t* sums = nullptr;  ///< Cluster words: sums[r] += every word rank r received
  /// The relay's remote arrival: false, mbarrier.arrive.release.cluster (arrive_remote: a
  /// MEMBAR.ALL.GPU each); true, .relaxed.cluster (arrive_remote_relaxed: no fence; the
  /// consumers' loads are already ordered before the relay by the local barrier).
  bool relaxed_relay = false;
};

/// The multicast stream's slice: the bytes each rank issues per chunk.
__host__ __device__ constexpr std::uint32_t tma_multicast_slice_bytes(std::uint32_t chunk_bytes,
                                                                      unsigned cluster,
                                                                      bool multicast) {
  return multicast ? chunk_bytes / cluster : chunk_bytes;
}

/// Threads of a multicast stream block: the producer warp, the relay warp and `consumer_warps`.
inline constexpr unsigned tma_multicast_threads(unsigned consumer_warps) {
  return 32u * (2u + consumer_warps);
}

namespace detail {
template <int Cluster>
__device__ __forceinline__ void tma_multicast_check(const tma_multicast_args& a,
                                                    unsigned consumers) {
#if CUPROBE_PTX_CHECKS
  const unsigned n = ptx::cluster::nctarank();
  const char* why = n != unsigned(Cluster)                  ? "cluster size"
                    : a.chunk_bytes % (16u * Cluster) != 0  ? "chunk_bytes"
                    : consumers == 0 || consumers % 32 != 0 ? "consumer thread count"
                                                            : nullptr;
  if (why) {
    printf(
        "cuprobe::suite::kernels::tma_multicast_stream_kernel<Cluster = %d>: bad %s: it runs in "
        "clusters of "
        "%u CTAs (launch it in clusters of Cluster), chunk_bytes %u (a multiple of 16 x "
        "Cluster), %u consumer threads (blockDim.x - 64: whole warps, at least one) (block %u); "
        "trapping\n",
        Cluster, why, n, a.chunk_bytes, consumers, blockIdx.x);
    __trap();
  }
#else
  (void)a, (void)consumers;
#endif
}
}  // namespace detail

/// The multicast load stream (see the file comment). Launch in clusters of Cluster CTAs along x
/// (Cluster 1: a plain launch works too), blockDim.x = tma_multicast_threads(w), dynamic shared
/// memory tma_stream_smem_bytes(chunk_bytes, Stages).
template <int Stages, int Cluster, bool Multicast>
__global__ void tma_multicast_stream_kernel(tma_multicast_args a) {
  static_assert(Stages >= 1 && Stages <= int(gen::tma_max_stages), "Stages must be 1 .. 8");
  static_assert(Cluster == 1 || Cluster == 2 || Cluster == 4 || Cluster == 8,
                "Cluster must be 1, 2, 4 or 8 (the portable cluster sizes, powers of two)");
  namespace mb = ptx::mbarrier;
  namespace cl = ptx::cluster;
  constexpr bool relay = Multicast && Cluster > 1;  // peers' releases gate this CTA's copies
  extern __shared__ unsigned char tma_stream_raw[];
  // "full" and "consumed" are the ring (pipeline/ring.cuh, its empty barriers counting this
  // CTA's readers); "relayed" collects the Cluster relays of a stage when peers share it.
  __shared__ cuprobe::pipeline::mbarrier_ring<Stages> ring;
  __shared__ cuprobe::ptx::mbarrier::object relayed[relay ? Stages : 1];
  unsigned char* buf = gen::detail::tma_aligned_smem(tma_stream_raw);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned consumers = blockDim.x > 64 ? blockDim.x - 64 : 0u;
  detail::tma_multicast_check<Cluster>(a, consumers);
  const unsigned rank = Cluster > 1 ? cl::ctarank() : 0u;
  const std::uint64_t cluster_id = Cluster > 1 ? cl::clusterid().x : blockIdx.x;
  const std::uint64_t clusters = Cluster > 1 ? cl::nclusterid().x : gridDim.x;
  if (threadIdx.x == 0) {
    if constexpr (relay)
      for (int s = 0; s < Stages; ++s) mb::init(&relayed[s], Cluster);  // one relay per CTA
    ring.init(consumers);  // and fence_init, which releases the relays' inits too
  }
  if constexpr (Cluster > 1) {
    cl::arrive_relaxed();  // fence_init released the inits (CUTLASS's pattern)
    cl::wait();
  } else {
    __syncthreads();
  }
  // The producer's wait for a free stage: every CTA's relay (acquire.cluster), or its readers.
  auto wait_free = [&](cuprobe::pipeline::state<Stages> ps) {
    if constexpr (relay)
      mb::wait<ptx::scope::cluster>(&relayed[ps.stage], ps.phase);
    else
      ring.acquire(ps);
  };
  if (warp == 0) {
    if (lane == 0) {
      auto ps = ring.producer_start();
      const auto* src = static_cast<const unsigned char*>(a.src);
      [[maybe_unused]] const std::uint32_t slice = a.chunk_bytes / Cluster;
      [[maybe_unused]] constexpr std::uint16_t all = (1u << Cluster) - 1u;
      for (std::uint32_t pass = 0; pass < a.passes; ++pass)
        for (std::uint64_t c = cluster_id; c < a.chunks; c += clusters) {
          wait_free(ps);
          auto* full = ring.fill(ps, a.chunk_bytes);  // the whole chunk lands here
          unsigned char* dst = buf + std::size_t(ps.stage) * a.chunk_bytes;
          const unsigned char* from = src + c * a.chunk_bytes;
          if constexpr (Multicast)
            ptx::bulk::load_multicast(dst + rank * slice, from + rank * slice, full, all, slice);
          else
            ptx::bulk::load(dst, from, full, a.chunk_bytes);
          ++ps;
        }
      // Producer tail: the last release of every stage, peers' relays included, has landed.
      for (int s = 0; s < Stages; ++s, ++ps) wait_free(ps);
    }
  } else if (warp == 1) {
    if (relay && lane < unsigned(Cluster)) {
      // Lane q relays this CTA's releases of each stage to rank q's "relayed" barrier: one warp
      // instruction (and one fence) per stage for all ranks.
      auto cs = ring.consumer_start();
      for (std::uint32_t pass = 0; pass < a.passes; ++pass)
        for (std::uint64_t c = cluster_id; c < a.chunks; c += clusters) {
          mb::wait(ring.empty_barrier(cs), cs.phase);  // acquire.cta: every reader of this CTA
          if (a.relaxed_relay)
            mb::arrive_remote_relaxed(&relayed[cs.stage], lane);  // no fence
          else
            mb::arrive_remote(&relayed[cs.stage], lane);  // release.cluster to rank `lane`
          ++cs;
        }
    }
  } else {
    auto cs = ring.consumer_start();
    const unsigned t = threadIdx.x - 64;
    std::uint32_t acc = 0;
    for (std::uint32_t pass = 0; pass < a.passes; ++pass)
      for (std::uint64_t c = cluster_id; c < a.chunks; c += clusters) {
        ring.wait_full(cs);
        acc += gen::detail::tma_sum_words(buf + std::size_t(cs.stage) * a.chunk_bytes,
                                          a.chunk_bytes, t, consumers);
        ring.release(cs);  // each reader releases its own reads (on "consumed")
        ++cs;
      }
    gen::detail::tma_fold_sum(acc, a.sums + rank);
  }
  __syncwarp();
  // No CTA leaves while a peer may still multicast into it or arrive on its barriers.
  if constexpr (Cluster > 1) cl::sync();
}

using tma_multicast_fn = void (*)(tma_multicast_args);

/// The multicast stream kernel for `cluster` (1, 2, 4, 8), `multicast` and `stages` (1, 2, 4, 8).
/// A template so that including this header compiles for targets without multicast.
template <class T = void>
tma_multicast_fn tma_multicast_kernel_for(unsigned cluster, bool multicast, unsigned stages) {
  return gen::detail::tma_pick_pow2(
      cluster, "tma_multicast_kernel_for: the cluster size", [&](auto k) {
        constexpr int K = decltype(k)::value;
        return gen::detail::tma_pick_pow2(stages, "tma_multicast_kernel_for: stages", [&](auto s) {
          constexpr int S = decltype(s)::value;
          return multicast ? tma_multicast_stream_kernel<S, K, true>
                           : tma_multicast_stream_kernel<S, K, false>;
        });
      });
}

}  // namespace cuprobe::suite::kernels
