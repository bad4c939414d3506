// cuprobe/hopper/stream_k.cuh: a persistent GEMM schedule whose last, partial wave of tiles is
// shared out along K ("stream-K tail"), and the fix-up that adds up the pieces of a tile.
//
//   namespace h = cuprobe::hopper;
//   const h::stream_k_schedule s{tiles /*tile_scheduler*/, k_blocks, clusters, /*tail=*/true};
//   // in the kernel, the same loop in the producer and in the consumers of cluster c:
//   for (int i = 0; i < s.items(c); ++i) {
//     const h::work_item w = s.item(c, i);    // w.unit, K blocks [w.k_begin, w.k_end), w.role
//     ... MMAs over the K blocks of w ...
//     if (w.role == h::work_role::partial) fixup.store(acc, slot(c));      // and no epilogue
//     if (w.role == h::work_role::finisher)                              // before the epilogue
//       for (int q = s.first_partner(c); q < s.partner_end(c, w); ++q) fixup.add(acc, slot(q));
//   }
//
// Why and how: docs/hopper-gemm.md ("The last wave: stream-K"). The first floor(U / P) waves of
// P clusters over U units stay data-parallel; the K blocks of the other U mod P units are cut
// into equal contiguous ranges, one per cluster (at most about max_pieces pieces per unit). The
// piece from K block 0 is the unit's finisher, later pieces partials (one workspace slot per
// cluster); a finisher is its cluster's last item and waits only on first items: no deadlock.
// split_k_fixup keeps the wgmma accumulator layout; the finisher's wait is bounded
// (CUPROBE_SPLIT_K_TIMEOUT_NS, then a trap: a printf in a release kernel would serialise its
// wgmma) and reads the partials with .cg (no stale L1 line). Sums agree to fp32 rounding.
#pragma once

#include <cstdint>
#include <cstdio>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/hopper/tile_scheduler.cuh"
#include "cuprobe/ptx/atomic.cuh"
#include "cuprobe/ptx/barrier.cuh"
#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/timer.cuh"
#include "cuprobe/ptx/wgmma.cuh"

#if !defined(CUPROBE_SPLIT_K_TIMEOUT_NS)
#define CUPROBE_SPLIT_K_TIMEOUT_NS 10000000000ull  ///< How long a finisher waits for a partial, ns.
#endif

namespace cuprobe::hopper {

/// What a work item does with its accumulators after its K blocks.
enum class work_role {
  whole,     ///< the whole unit: epilogue
  partial,   ///< a piece after K block 0: write to the workspace, no epilogue
  finisher,  ///< the piece from K block 0: add the partials of the unit, then the epilogue
};

/// One item of a cluster's work: K blocks [k_begin, k_end) of one unit of tile_scheduler.
struct work_item {
  int unit = 0;                       ///< the unit (tile_scheduler's numbering)
  int k_begin = 0;                    ///< the first K block
  int k_end = 0;                      ///< one past the last K block
  work_role role = work_role::whole;  ///< what it does after its K blocks
};

/// Whether a stream-K tail is expected to pay for `units` units of `k_blocks` K blocks on a
/// persistent grid of `clusters` clusters: a last wave (units mod clusters) at most 55 % full,
/// and at least 96 K blocks per unit (docs/hopper-gemm.md says where the thresholds come from).
__host__ __device__ constexpr bool stream_k_tail_pays(int units, int k_blocks, int clusters) {
  const int last = clusters > 0 ? units % clusters : 0;
  return last > 0 && 100 * last <= 55 * clusters && k_blocks >= 96;
}

/// Whether a schedule gets a stream-K tail: never, always, or when stream_k_tail_pays.
enum class tail_mode { off, on, automatic };

__host__ __device__ constexpr const char* tail_mode_name(tail_mode t) {  ///< "off", "on" or "auto".
  return t == tail_mode::off ? "off" : t == tail_mode::on ? "on" : "auto";
}

/// The `tail` flag of a stream_k_schedule for mode `t`.
__host__ __device__ constexpr bool use_tail(tail_mode t, int units, int k_blocks, int clusters) {
  return t == tail_mode::on ||
         (t == tail_mode::automatic && stream_k_tail_pays(units, k_blocks, clusters));
}

/// Stream-K: whole units in waves, then the rest's K blocks in one range per cluster.
struct stream_k_schedule {
  tile_scheduler tiles;  ///< units (one per cluster of tiles) and their order
  int k_blocks = 1;      ///< K blocks per tile
  int clusters = 1;      ///< clusters of the persistent grid (grid / tiles.cluster_m)
  bool tail = true;      ///< false: every unit whole, round-robin (tile_scheduler's schedule)
  int max_pieces = 4;    ///< tail pieces per unit, on average (a range across two units adds one)

  /// Why the schedule cannot be used, or nullptr.
  __host__ __device__ constexpr const char* problem() const {
    if (const char* p = tiles.problem()) return p;
    if (k_blocks < 1) return "stream_k_schedule: k_blocks must be at least 1";
    if (clusters < 1) return "stream_k_schedule: clusters must be at least 1";
    if (max_pieces < 1) return "stream_k_schedule: max_pieces must be at least 1";
    return nullptr;
  }

  /// Whether the tail is expected to pay for this grid and problem (whatever `tail` says).
  __host__ __device__ constexpr bool tail_pays() const {
    return stream_k_tail_pays(tiles.units(), k_blocks, clusters);
  }

  /// Data-parallel waves (every cluster one whole unit per wave).
  __host__ __device__ constexpr int waves() const {
    return tail ? tiles.units() / clusters : (tiles.units() + clusters - 1) / clusters;
  }
  /// Units shared out along K.
  __host__ __device__ constexpr int tail_units() const {
    return tail ? tiles.units() - waves() * clusters : 0;
  }
  /// Clusters that share the tail: all of them, or fewer when that would cut a unit into
  /// more than max_pieces pieces or leave a cluster's range empty (a finisher's partners are
  /// then exactly the clusters first_partner .. partner_end - 1: each has written a partial).
  __host__ __device__ constexpr int tail_clusters() const {
    const std::int64_t units = tail_units(), blocks = units * k_blocks;  // no empty range
    const std::int64_t most = units * max_pieces < blocks ? units * max_pieces : blocks;
    return most < clusters ? int(most) : clusters;
  }
  /// The stream-K range of cluster c, in K blocks counted over the tail units (empty for
  /// c >= tail_clusters()).
  __host__ __device__ constexpr std::int64_t range_begin(int c) const {
    const int p = tail_clusters(), q = c < p ? c : p;
    return p == 0 ? 0 : std::int64_t(tail_units()) * k_blocks * q / p;
  }
  /// The end of cluster c's stream-K range (see range_begin()).
  __host__ __device__ constexpr std::int64_t range_end(int c) const { return range_begin(c + 1); }

  /// Data-parallel units of cluster c.
  __host__ __device__ constexpr int whole_items(int c) const {
    if (tail) return waves();
    const int u = tiles.units();
    return c >= u ? 0 : (u - 1 - c) / clusters + 1;
  }
  /// Items of cluster c: its data-parallel units, then the segments of its range.
  __host__ __device__ constexpr int items(int c) const {
    const std::int64_t b = range_begin(c), e = range_end(c);
    return whole_items(c) + (b < e ? int((e - 1) / k_blocks - b / k_blocks) + 1 : 0);
  }
  /// Item i (0 .. items(c) - 1) of cluster c.
  __host__ __device__ constexpr work_item item(int c, int i) const {
    work_item w;
    if (i < whole_items(c)) {
      w.unit = c + i * clusters;
      w.k_end = k_blocks;
      return w;
    }
    const std::int64_t b = range_begin(c), e = range_end(c);
    const int local = int(b / k_blocks) + (i - whole_items(c));  // tail unit
    w.unit = waves() * clusters + local;
    w.k_begin = i == whole_items(c) ? int(b % k_blocks) : 0;
    w.k_end = local == int((e - 1) / k_blocks) ? int((e - 1) % k_blocks) + 1 : k_blocks;
    w.role = w.k_begin > 0        ? work_role::partial
             : w.k_end < k_blocks ? work_role::finisher
                                  : work_role::whole;
    return w;
  }
  /// The clusters whose partials a finisher of cluster c adds: first_partner(c) to
  /// partner_end(c, w) - 1 (their ranges start inside w's unit, after c's).
  __host__ __device__ constexpr int first_partner(int c) const { return c + 1; }
  /// One past the last partner of cluster c for item w (see first_partner()).
  __host__ __device__ constexpr int partner_end(int c, const work_item& w) const {
    const std::int64_t unit_end =
        std::int64_t(w.unit - waves() * clusters + 1) * k_blocks;  // in tail K blocks
    int q = c + 1;
    while (q < tail_clusters() && range_begin(q) < unit_end) ++q;
    return q;
  }
};

/// The workspace of a split tile's partial sums: one slot per (cluster, CTA rank, consumer
/// warpgroup) of `N`-column fp32 wgmma accumulators, and one flag per slot. Zero the flags
/// once (cudaMemset) before the first launch; the finisher clears each flag it consumes.
template <int N>
struct split_k_fixup {
  using accumulator = ptx::wgmma::accumulator<ptx::wgmma::f32, N>;  ///< The fp32 accumulators.
  static_assert(accumulator::registers % 4 == 0,
                "cuprobe::hopper::split_k_fixup<N>: N must be a multiple of 32 (float4 moves)");
  static constexpr int vectors = accumulator::registers / 4;  ///< float4 per thread
  /// Bytes of one slot (128 threads of a warpgroup).
  static constexpr std::size_t slot_bytes = std::size_t(128) * accumulator::registers * 4;

  float4* partials = nullptr;  ///< slots x slot_bytes
  int* flags = nullptr;        ///< slots

  /// Writes the warpgroup's accumulators to `slot` and raises its flag. `barrier`: a named
  /// barrier id that the warpgroup's 128 threads may use.
  __device__ void store(const accumulator& acc, int slot, unsigned barrier) const {
    const unsigned t = threadIdx.x % 128;
    float4* dst = partials + std::size_t(slot) * vectors * 128;
#pragma unroll
    for (int j = 0; j < vectors; ++j)
      dst[j * 128 + t] =
          make_float4(acc.reg[4 * j], acc.reg[4 * j + 1], acc.reg[4 * j + 2], acc.reg[4 * j + 3]);
    __threadfence();
    ptx::named_barrier_sync(barrier, 128);
    if (t == 0) ptx::atomic_store<ptx::sem::release, ptx::scope::gpu>(&flags[slot], 1);
  }

  /// Waits for `slot`'s flag, adds its partial sums to the warpgroup's accumulators and clears
  /// the flag.
  __device__ void add(accumulator& acc, int slot, unsigned barrier) const {
    const unsigned t = threadIdx.x % 128;
    if (t == 0) {
      const std::uint64_t t0 = ptx::globaltimer();
      while (ptx::atomic_load<ptx::sem::acquire, ptx::scope::gpu>(&flags[slot]) == 0) {
        if (ptx::globaltimer() - t0 > CUPROBE_SPLIT_K_TIMEOUT_NS) {
#if CUPROBE_PTX_CHECKS  // a call (printf) would serialise the caller's wgmma (C7510)
          printf(
              "cuprobe::hopper::split_k_fixup: slot %d was not written within %llu ns "
              "(block %u): a partial is missing from the schedule; trapping\n",
              slot, static_cast<unsigned long long>(CUPROBE_SPLIT_K_TIMEOUT_NS), blockIdx.x);
#endif
          __trap();
        }
        __nanosleep(32);
      }
      // The writer is done: ready for the next launch.
      ptx::atomic_store<ptx::sem::relaxed, ptx::scope::gpu>(&flags[slot], 0);
    }
    ptx::named_barrier_sync(barrier, 128);
    __threadfence();
    const float4* src = partials + std::size_t(slot) * vectors * 128;
#pragma unroll
    for (int j = 0; j < vectors; ++j) {
      const float4 v = ptx::ld<ptx::cache::cg>(src + j * 128 + t);
      acc.reg[4 * j] += v.x;
      acc.reg[4 * j + 1] += v.y;
      acc.reg[4 * j + 2] += v.z;
      acc.reg[4 * j + 3] += v.w;
    }
  }
};

}  // namespace cuprobe::hopper
