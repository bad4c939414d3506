// cuprobe/gen/tma.cuh: kernels that measure the Hopper copy engine (TMA): chase loads that make
// every hop of a pointer chase one bulk or tensor copy (latency), a load stream in which one
// producer thread keeps `Stages` copies in flight through a ring of mbarriers while consumer
// warps sum every word that lands (bandwidth), a store stream of bulk stores from shared memory
// bounded by bulk groups, and a copy stream. cuprobe_suite/tma.cuh measures them; this header
// only has the device code and the host-side kernel choice (by enum and stage count, never by
// string). The cluster multicast stream is cuprobe_suite/kernels/tma_multicast.cuh.
//
//   namespace gen = cuprobe::gen;
//   gen::tma_stream_args a;  a.src = in;  a.chunks = bytes / 8192;  a.copy_bytes = 8192;
//   a.sum = sum;              // one uint32_t, zeroed: gets the sum of every word received
//   auto k = gen::tma_load_stream_kernel_for(gen::tma_copy::bulk, /*stages=*/4);
//   k<<<2 * sms, gen::tma_stream_threads(4), gen::tma_stream_smem_bytes(8192, 4)>>>(a);
//
// The streams are described in docs/hopper-benchmarks.md ("Load and store streams", "Copy
// stream"); what the code adds:
// - Load stream: bulk = cp.async.bulk of copy_bytes; tensor = cp.async.bulk.tensor.2d of a box
//   of copy_bytes / 128 rows of 128 bytes (128-byte swizzle). Every consumer thread arrives on
//   "empty" (CUTLASS's consumer_release): one arrival per warp after a __syncwarp would rely on
//   cumulativity that compute-sanitizer's racecheck does not follow (it reported the consumers'
//   LDS and the next UBLKCP as a race). The barriers are a pipeline::mbarrier_ring<Stages>
//   (producer on parity 1, consumer on 0).
// - Store stream: the tensor store has no swizzle (the shared layout is the global one); with
//   issuers = 2 .. 4, lane 0 of warps 0 .. issuers - 1 each store every issuers-th chunk with its
//   own Stages groups in flight (bulk groups are per thread; the buffers are only read, so they
//   share them); bulk stores may carry an L2 policy (tma_store_hint::evict_first: createpolicy +
//   .L2::cache_hint).
// - Copy stream: a proxy fence sits between the wait on the landed bytes and the store;
//   validated by the suite against the input (tma_iota_kernel's).
// - Chunk order (all streams): interleaved (CTA b copies chunks b, b + grid, ...) or contiguous
//   (CTA b copies the b-th of grid equal ranges); tma_order.
// - Latency. chase_bulk_load<Bytes> / chase_tensor_load<Bytes> are load functors for
//   gen::chase_kernel (gen/chase.cuh): one hop = one copy of Bytes at the node into static
//   shared memory, a wait on an mbarrier, and the first 8 bytes read back as the next node. The
//   cycles per hop are the copy's issue-to-use latency, the same quantity as the ld.global
//   chase's. One thread only (chase_lanes::one).
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>
#include <type_traits>

#include "cuprobe/core/error.cuh"
#include "cuprobe/pipeline/ring.cuh"
#include "cuprobe/ptx/bulk.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/mbarrier.cuh"

namespace cuprobe::gen {

/// How a stream or a chase hop copies: cp.async.bulk (1-D, no tensor map) or a tensor copy.
enum class tma_copy { bulk, tensor };
/// "bulk" or "tensor".
inline const char* to_string(tma_copy c) { return c == tma_copy::bulk ? "bulk" : "tensor"; }

/// Which chunks a CTA copies: interleaved (CTA b takes b, b + grid, b + 2 grid, ...: at any
/// moment the grid works on one window of consecutive chunks) or contiguous (CTA b takes the
/// b-th of grid equal ranges: as many sequential streams as CTAs).
enum class tma_order { interleaved, contiguous };
inline const char* to_string(tma_order o) {  ///< "interleaved" or "contiguous".
  return o == tma_order::interleaved ? "interleaved" : "contiguous";
}
/// The L2 policy of the store streams' bulk stores: none, or createpolicy evict_first.
enum class tma_store_hint { none, evict_first };
inline const char* to_string(tma_store_hint h) {  ///< "none" or "evict_first".
  return h == tma_store_hint::none ? "none" : "evict_first";
}
/// How a store-stream issuer bounds its stores in flight before it moves on: wait_group.read
/// (until the sources were read: what an epilogue needs before it rewrites its buffer) or
/// wait_group (until the writes completed).
enum class tma_store_wait { read, complete };
inline const char* to_string(tma_store_wait w) {  ///< "wait_group.read" or "wait_group".
  return w == tma_store_wait::read ? "wait_group.read" : "wait_group";
}
/// Store-stream issuers: 1 .. tma_max_store_issuers threads (lane 0 of warps 0, 1, ...).
inline constexpr unsigned tma_max_store_issuers = 4;

inline constexpr unsigned tma_max_stages = 8;  ///< The most stages a stream's ring has.
/// Rows of the tensor streams' [rows][128 B] view (one 128-byte swizzle span).
inline constexpr std::uint32_t tma_row_bytes = 128;
/// Alignment of the stage buffers in dynamic shared memory (what the 128-byte swizzle needs).
inline constexpr std::uint32_t tma_buffer_alignment = 1024;
/// The largest copy_bytes of a stream.
inline constexpr std::uint32_t tma_max_copy_bytes = 32 * 1024;

/// Threads of a stream block: the producer warp and `consumer_warps` warps.
inline constexpr unsigned tma_stream_threads(unsigned consumer_warps) {
  return 32u * (1u + consumer_warps);
}
/// Dynamic shared memory of a stream block: Stages buffers and the alignment slack.
inline constexpr std::size_t tma_stream_smem_bytes(std::uint32_t copy_bytes, unsigned stages) {
  return std::size_t(copy_bytes) * stages + tma_buffer_alignment;
}

/// The arguments of the TMA load and store stream kernels.
struct tma_stream_args {
  const void* src = nullptr;                 ///< load, copy (bulk): the array read
  void* dst = nullptr;                       ///< store, copy (bulk): the array written
  const CUtensorMap* map = nullptr;          ///< tensor: the array as [rows][128 B] (global memory)
  std::uint64_t chunks = 0;                  ///< copies per pass: array bytes / copy_bytes
  std::uint32_t copy_bytes = 0;              ///< bytes per copy: a multiple of 16 (tensor: of 1024)
  std::uint32_t passes = 1;                  ///< passes over the array per launch
  std::uint32_t* sum = nullptr;              ///< load: every received 32-bit word is added here
  tma_order order = tma_order::interleaved;  ///< which chunks a CTA copies
  tma_store_hint hint = tma_store_hint::none;  ///< store, bulk: the L2 policy of each store
  tma_store_wait wait = tma_store_wait::read;  ///< store: how each issuer bounds its groups
  std::uint32_t issuers = 1;  ///< store: issuing threads (lane 0 of warps 0 .. issuers - 1)
};

namespace detail {
/// The chunks of this CTA: c = begin, begin + step, ... < end (see tma_order).
struct tma_chunks {
  std::uint64_t begin, end, step;
  __device__ explicit tma_chunks(const tma_stream_args& a) {
    if (a.order == tma_order::interleaved) {
      begin = blockIdx.x, end = a.chunks, step = gridDim.x;
    } else {
      const std::uint64_t per = (a.chunks + gridDim.x - 1) / gridDim.x;
      begin = blockIdx.x * per, end = begin + per < a.chunks ? begin + per : a.chunks, step = 1;
    }
  }
};

/// The sum (mod 2^32) of the 32-bit words of `bytes` at `buf` that thread t of n reads: 16-byte
/// ld.shared at t, t + n, ... (every word is used: the consumers' checksum).
__device__ __forceinline__ std::uint32_t tma_sum_words(const unsigned char* buf,
                                                       std::uint32_t bytes, unsigned t,
                                                       unsigned n) {
  const uint4* v = reinterpret_cast<const uint4*>(buf);
  std::uint32_t acc = 0;
  for (std::uint32_t i = t; i < bytes / 16; i += n) {
    const uint4 x = v[i];
    acc += x.x + x.y + x.z + x.w;
  }
  return acc;
}

/// Adds the warp's sums into *sum (one atomic per warp; every lane of the warp calls it).
__device__ __forceinline__ void tma_fold_sum(std::uint32_t acc, std::uint32_t* sum) {
  for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, acc);
}

__device__ __forceinline__ unsigned char* tma_aligned_smem(unsigned char* raw) {
  const std::uint32_t a = static_cast<std::uint32_t>(__cvta_generic_to_shared(raw));
  const std::uint32_t pad =
      (tma_buffer_alignment - a % tma_buffer_alignment) % tma_buffer_alignment;
  return raw + pad;
}
}  // namespace detail

/// The load stream (see the file comment). blockDim.x = tma_stream_threads(w), w >= 1; dynamic
/// shared memory tma_stream_smem_bytes(copy_bytes, Stages).
template <tma_copy Copy, int Stages>
__global__ void tma_load_stream_kernel(tma_stream_args a) {
  static_assert(Stages >= 1 && Stages <= int(tma_max_stages), "Stages must be 1 .. 8");
  extern __shared__ unsigned char tma_stream_raw[];
  __shared__ cuprobe::pipeline::mbarrier_ring<Stages> ring;
  unsigned char* buf = detail::tma_aligned_smem(tma_stream_raw);
  const unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const unsigned consumer_warps = blockDim.x / 32 - 1;
  if (threadIdx.x == 0) ring.init(consumer_warps * 32);  // every reader releases
  __syncthreads();
  if (warp == 0) {
    if (lane != 0) return;
    auto ps = ring.producer_start();
    const std::uint32_t rows = a.copy_bytes / tma_row_bytes;
    const detail::tma_chunks k(a);
    for (std::uint32_t pass = 0; pass < a.passes; ++pass)
      for (std::uint64_t c = k.begin; c < k.end; c += k.step) {
        ring.acquire(ps);
        auto* full = ring.fill(ps, a.copy_bytes);
        unsigned char* dst = buf + std::size_t(ps.stage) * a.copy_bytes;
        if constexpr (Copy == tma_copy::bulk)
          ptx::bulk::load(dst, static_cast<const unsigned char*>(a.src) + c * a.copy_bytes, full,
                          a.copy_bytes);
        else
          ptx::bulk::tensor_load(dst, a.map, full, 0, static_cast<int>(c * rows));
        ++ps;
      }
    return;
  }
  auto cs = ring.consumer_start();
  const unsigned t = threadIdx.x - 32, n = consumer_warps * 32;
  std::uint32_t acc = 0;
  const detail::tma_chunks k(a);
  for (std::uint32_t pass = 0; pass < a.passes; ++pass)
    for (std::uint64_t c = k.begin; c < k.end; c += k.step) {
      ring.wait_full(cs);
      acc += detail::tma_sum_words(buf + std::size_t(cs.stage) * a.copy_bytes, a.copy_bytes, t, n);
      ring.release(cs);  // each reader releases its own reads
      ++cs;
    }
  detail::tma_fold_sum(acc, a.sum);
}

/// The store stream (see the file comment). Same block shape and shared memory as the loads.
template <tma_copy Copy, int Stages>
__global__ void tma_store_stream_kernel(tma_stream_args a) {
  static_assert(Stages >= 1 && Stages <= int(tma_max_stages), "Stages must be 1 .. 8");
  extern __shared__ unsigned char tma_stream_raw[];
  unsigned char* buf = detail::tma_aligned_smem(tma_stream_raw);
  const std::uint32_t words = a.copy_bytes / 4;
  auto* w = reinterpret_cast<std::uint32_t*>(buf);
  for (std::uint32_t i = threadIdx.x; i < words * Stages; i += blockDim.x) w[i] = i % words;
  ptx::fence_proxy_async<ptx::space::shared>();  // generic writes -> the async proxy's reads
  __syncthreads();
  // Issuer j (lane 0 of warp j) takes every issuers-th chunk of the CTA: j, j + issuers, ...
  const unsigned j = threadIdx.x / 32;
  if (threadIdx.x % 32 != 0 || j >= a.issuers) return;
  const std::uint32_t rows = a.copy_bytes / tma_row_bytes;
  const detail::tma_chunks k(a);
  const std::uint64_t first = k.begin + j * k.step, step = k.step * a.issuers;
  [[maybe_unused]] const bool hinted = a.hint == tma_store_hint::evict_first;
  [[maybe_unused]] const std::uint64_t policy = hinted ? ptx::bulk::l2_policy_evict_first() : 0;
  const bool complete = a.wait == tma_store_wait::complete;
  int stage = 0;  // the buffers are only read: issuers may share them
  for (std::uint32_t pass = 0; pass < a.passes; ++pass)
    for (std::uint64_t c = first; c < k.end; c += step) {
      unsigned char* src = buf + std::size_t(stage) * a.copy_bytes;
      if constexpr (Copy == tma_copy::bulk) {
        unsigned char* dst = static_cast<unsigned char*>(a.dst) + c * a.copy_bytes;
        if (hinted)
          ptx::bulk::store_hinted(dst, src, a.copy_bytes, policy);
        else
          ptx::bulk::store(dst, src, a.copy_bytes);
      } else
        ptx::bulk::tensor_store(a.map, src, 0, static_cast<int>(c * rows));
      ptx::bulk::commit_group();
      if (complete)
        ptx::bulk::wait_group<Stages - 1>();
      else
        ptx::bulk::wait_group_read<Stages - 1>();
      stage = stage + 1 == Stages ? 0 : stage + 1;
    }
  ptx::bulk::wait_group<0>();
}

/// The copy stream (see the file comment): src to dst, bulk copies only. blockDim.x = 32;
/// dynamic shared memory tma_stream_smem_bytes(copy_bytes, Stages).
template <int Stages>
__global__ void tma_copy_stream_kernel(tma_stream_args a) {
  static_assert(Stages >= 2 && Stages <= int(tma_max_stages), "Stages must be 2 .. 8");
  extern __shared__ unsigned char tma_stream_raw[];
  __shared__ ptx::mbarrier::object full[Stages];
  if (threadIdx.x != 0) return;
  unsigned char* buf = detail::tma_aligned_smem(tma_stream_raw);
  for (int s = 0; s < Stages; ++s) ptx::mbarrier::init(&full[s], 1);
  ptx::mbarrier::fence_init();
  const detail::tma_chunks k(a);
  const std::uint64_t per_pass = k.end > k.begin ? (k.end - k.begin + k.step - 1) / k.step : 0;
  const std::uint64_t n = per_pass * a.passes;  // copies of this CTA
  // The chunk after c, the passes in turn (no 64-bit division per chunk).
  const auto next = [&](std::uint64_t c) { return c + k.step < k.end ? c + k.step : k.begin; };
  const auto stage = [&](std::uint64_t i) { return buf + (i % Stages) * a.copy_bytes; };
  std::uint64_t loaded = 0, to_load = k.begin, to_store = k.begin;
  const auto load = [&] {  // copy number `loaded`, chunk `to_load`
    auto* bar = &full[loaded % Stages];
    ptx::mbarrier::arrive_expect_tx(bar, a.copy_bytes);
    ptx::bulk::load(stage(loaded),
                    static_cast<const unsigned char*>(a.src) + to_load * a.copy_bytes, bar,
                    a.copy_bytes);
    ++loaded;
    to_load = next(to_load);
  };
  while (loaded < n && loaded + 1 < Stages) load();
  for (std::uint64_t i = 0; i < n; ++i, to_store = next(to_store)) {
    ptx::mbarrier::wait(&full[i % Stages], std::uint32_t(i / Stages % 2));  // fill i / Stages
    ptx::fence_proxy_async<ptx::space::shared>();
    ptx::bulk::store(static_cast<unsigned char*>(a.dst) + to_store * a.copy_bytes, stage(i),
                     a.copy_bytes);
    ptx::bulk::commit_group();
    ptx::bulk::wait_group_read<1>();  // copy i - 1's store has read its stage: reload it
    if (loaded < n) load();           // copy i + Stages - 1, into the stage of copy i - 1
  }
  ptx::bulk::wait_group<0>();
}

/// Writes word i of `out` as i (mod 2^32): the load streams' input.
template <int = 0>
__global__ void tma_iota_kernel(std::uint32_t* out, std::uint64_t words) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < words;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    out[i] = static_cast<std::uint32_t>(i);
}

/// The sum (mod 2^32) of the words tma_iota_kernel writes: 0 + 1 + ... + (words - 1).
inline constexpr std::uint32_t tma_iota_sum(std::uint64_t words) {
  // words (words - 1) / 2 without overflowing 64 bits for any realistic array.
  const std::uint64_t a = words % 2 == 0 ? words / 2 : words,
                      b = words % 2 == 0 ? words - 1 : (words - 1) / 2;
  return static_cast<std::uint32_t>((a % (std::uint64_t(1) << 32)) *
                                    (b % (std::uint64_t(1) << 32)));
}

using tma_stream_fn = void (*)(tma_stream_args);  ///< A stream kernel, as a function pointer.
inline constexpr unsigned tma_stage_counts[] = {1, 2, 4, 8};  ///< The stage counts instantiated.

namespace detail {
/// pick(std::integral_constant<int, V>{}) for V = v in {1, 2, 4, 8} (stage counts, cluster
/// sizes): how the host turns a run-time choice into a kernel instantiation. Otherwise throws
/// cuprobe::error "<what> must be 1, 2, 4 or 8, got <v>".
template <class Pick>
auto tma_pick_pow2(unsigned v, const char* what, Pick&& pick) {
  switch (v) {
    case 1:
      return pick(std::integral_constant<int, 1>{});
    case 2:
      return pick(std::integral_constant<int, 2>{});
    case 4:
      return pick(std::integral_constant<int, 4>{});
    case 8:
      return pick(std::integral_constant<int, 8>{});
    default:
      throw error(std::string(what) + " must be 1, 2, 4 or 8, got " + std::to_string(v));
  }
}
}  // namespace detail

/// The stream kernel for `copy` and `stages` (1, 2, 4 or 8); Store: the store stream. A template
/// (like every function here that names a kernel), so that including this header compiles for
/// targets without TMA: the kernels are only instantiated where used.
template <bool Store, class T = void>
tma_stream_fn tma_stream_kernel_for(tma_copy copy, unsigned stages) {
  return detail::tma_pick_pow2(stages, "tma_stream_kernel_for: stages", [&](auto s) {
    constexpr int S = decltype(s)::value;
    if constexpr (Store)
      return copy == tma_copy::bulk ? tma_store_stream_kernel<tma_copy::bulk, S>
                                    : tma_store_stream_kernel<tma_copy::tensor, S>;
    else
      return copy == tma_copy::bulk ? tma_load_stream_kernel<tma_copy::bulk, S>
                                    : tma_load_stream_kernel<tma_copy::tensor, S>;
  });
}
/// The copy stream kernel with `stages` stages (2, 4 or 8).
template <class T = void>
tma_stream_fn tma_copy_stream_kernel_for(unsigned stages) {
  require(stages != 1, "tma_copy_stream_kernel_for: stages must be 2, 4 or 8, got 1");
  return detail::tma_pick_pow2(stages, "tma_copy_stream_kernel_for: stages", [](auto s) {
    constexpr int S = decltype(s)::value < 2 ? 2 : decltype(s)::value;
    return tma_copy_stream_kernel<S>;
  });
}
/// The load stream kernel of copy `c` with `stages` stages (1, 2, 4 or 8).
template <class T = void>
tma_stream_fn tma_load_stream_kernel_for(tma_copy c, unsigned stages) {
  return tma_stream_kernel_for<false, T>(c, stages);
}
/// The store stream kernel of copy `c` with `stages` stages (1, 2, 4 or 8).
template <class T = void>
tma_stream_fn tma_store_stream_kernel_for(tma_copy c, unsigned stages) {
  return tma_stream_kernel_for<true, T>(c, stages);
}

// ------------------------------------------------------------------------------------------
// Latency: load functors for gen::chase_kernel (one thread).

namespace detail {
/// The state a chase hop keeps between hops (the parity to wait for; whether the barrier was
/// initialised: on the first hop, the functor being built on the host), and the hop itself.
template <std::uint32_t Bytes>
struct tma_hop {
  static_assert(Bytes >= 16 && Bytes % 16 == 0 && Bytes <= 4096,
                "a chase hop copies 16 .. 4096 bytes, a multiple of 16");
  std::uint32_t phase = 0;
  bool ready = false;

  /// issue(buf, bar) starts a copy of Bytes into buf completing on bar; the hop announces the
  /// bytes, waits for them and returns the first 8 (the next node's address).
  template <class Issue>
  __device__ __forceinline__ std::uint64_t hop(Issue&& issue) {
    namespace mb = ptx::mbarrier;
    __shared__ alignas(128) std::uint64_t hop_buf[Bytes / 8];
    __shared__ cuprobe::ptx::mbarrier::object hop_bar;
    if (!ready) {
      mb::init(&hop_bar, 1);
      mb::fence_init();
      ready = true;
    }
    (void)mb::arrive_expect_tx(&hop_bar, Bytes);
    issue(hop_buf, &hop_bar);
    mb::wait(&hop_bar, phase);
    phase ^= 1u;
    return hop_buf[0];
  }
};
}  // namespace detail

/// One hop = cp.async.bulk of Bytes at the node, waited for on an mbarrier.
template <std::uint32_t Bytes = 16>
struct chase_bulk_load : detail::tma_hop<Bytes> {
  /// One hop: copies the node at `p` and returns its first 8 bytes.
  __device__ __forceinline__ std::uint64_t operator()(const std::uint64_t* p) {
    return this->hop([p](std::uint64_t* buf, ptx::mbarrier::object* bar) {
      ptx::bulk::load(buf, p, bar, Bytes);
    });
  }
};

/// One hop = a 2-D tensor copy of the node's row: `map` views the ring as [nodes][stride] of
/// 8-byte elements with a box of Bytes / 8 x 1 (cuprobe_suite/tma.cuh makes it), and the row of a
/// node is (address - base) >> stride_shift (the stride is a power of two).
template <std::uint32_t Bytes = 16>
struct chase_tensor_load : detail::tma_hop<Bytes> {
  const CUtensorMap* map = nullptr;  ///< in global memory, 64-byte aligned
  std::uint64_t base = 0;            ///< address of node 0
  std::uint32_t stride_shift = 7;    ///< log2(ring stride)

  /// One hop: copies the node's row and returns its first 8 bytes.
  __device__ __forceinline__ std::uint64_t operator()(const std::uint64_t* p) {
    const int row = static_cast<int>((reinterpret_cast<std::uint64_t>(p) - base) >> stride_shift);
    const CUtensorMap* m = map;
    return this->hop([m, row](std::uint64_t* buf, ptx::mbarrier::object* bar) {
      ptx::bulk::tensor_load(buf, m, bar, 0, row);
    });
  }
};

}  // namespace cuprobe::gen
