// cuprobe_suite/kernels/cache_bw.cuh: read, write and copy kernels for working sets that live
// in a cache (L1 or L2), built so that every thread keeps U accesses in flight whatever the working
// set.
//
//   namespace gen = cuprobe::gen;  namespace kernels = cuprobe::suite::kernels;
//   namespace cache = cuprobe::ptx::cache;
//   gen::stream_workload w(gen::stream_pattern::read, 16, (8u << 20) / 16);    // 8 MiB, filled
//   w.fill_inputs(1);
//   auto a = kernels::cache_bw_args_for(w, /*threads=*/256, /*rounds=*/400, /*U=*/8, false);
//   kernels::cache_bw_kernel<gen::stream_pattern::read, float4, cache::cg, cache::cg, 8>
//       <<<4 * sms, 256>>>(a);                                                  // .cg: L2 only
//   auto c = kernels::check_cache_bw(w, a, 4 * sms, 256, 8);  c.require();     // exact
//
// Why not the stream kernels: a grid-stride pass over a working set of a few MiB gives each of
// 270,000 threads one or two elements per pass, each pass waits for its loads before the next
// begins, so a thread has about one load in flight (docs/memory-ptx.md, "L2 bandwidth"). Here the
// array is cut into chunks of `span` = blockDim.x x U elements (or the whole array, when it is
// smaller); in round r, block b handles one chunk: thread t issues the U loads of elements
// (t + k x blockDim) mod span, k = 0 .. U-1, of it before it uses any (coalesced: one warp
// covers 32 consecutive elements per load; the offsets are computed once, before the rounds),
// so U loads are in flight per thread and U x 16 B x threads per SM in all. Chunks:
//   partitioned   block b reads chunk (b + r x gridDim) mod chunks: the grid walks the whole
//                 array, each chunk read by gridDim / chunks blocks per round (L2, DRAM)
//   replicated    every block reads chunk r mod chunks: every SM walks the whole array, so the
//                 array is each SM's footprint (L1)
// Patterns: read (sink[thread] = wrapping sum of the 32-bit lanes read), write (element word w
// becomes stream_written_word(w, 0), the same value every round, so the result is exact although
// blocks write the same chunk concurrently), copy (out = in). Rounds offset every address by
// r x args.zero (0 at run time, unknown to the compiler), so that ptxas cannot hoist a load or
// merge a store across rounds; tests/sass/cache_bw.cu checks the U accesses per round and that
// they stay inside the round loop.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/gen/stream_check.cuh"
#include "cuprobe/gen/stream_kernels.cuh"
#include "cuprobe/gen/stream_workload.cuh"

namespace cuprobe::suite::kernels {

/// The arguments of cache_bw_kernel.
struct cache_bw_args {
  const void* in = nullptr;       ///< read, copy
  void* out = nullptr;            ///< write, copy
  std::uint32_t* sink = nullptr;  ///< read: one word per thread
  std::uint64_t chunks = 0;       ///< the arrays hold chunks x span elements
  std::uint32_t span = 0;         ///< elements per chunk: blockDim.x x U, or all when fewer
  std::uint64_t step = 0;         ///< gridDim.x mod chunks (partitioned), 1 (replicated)
  std::uint32_t rounds = 0;       ///< chunks each block handles per launch
  std::uint32_t replicated = 0;   ///< 1: every block walks every chunk
  std::uint64_t zero = 0;         ///< must be 0 (hides the round offset from the compiler)
};

/// The chunk block `block` handles in round `round`.
__host__ __device__ inline std::uint64_t cache_bw_chunk(const cache_bw_args& a, std::uint64_t block,
                                                        std::uint64_t round) {
  return a.replicated ? round % a.chunks : (block + round * a.step) % a.chunks;
}

/// The body of cache_bw_kernel (U accesses in flight per thread, see the file comment); call it
/// from your own __global__ function for a kernel with a name you choose.
template <gen::stream_pattern P, class T, class LdOp, class StOp, int U>
__device__ __forceinline__ void cache_bw_body(const cache_bw_args& a) {
  static_assert(P == gen::stream_pattern::read || P == gen::stream_pattern::write ||
                    P == gen::stream_pattern::copy,
                "cuprobe::suite::kernels::cache_bw_kernel: the patterns are read, write and copy");
  static_assert(U >= 1 && U <= 32,
                "cuprobe::suite::kernels::cache_bw_kernel: U is 1 .. 32 accesses in flight");
  gen::detail::check_stream_types<T, LdOp, StOp>();
  const T* in = static_cast<const T*>(a.in);
  T* out = static_cast<T*>(a.out);
  std::uint32_t off[U];
#pragma unroll
  for (int k = 0; k < U; ++k) off[k] = (threadIdx.x + std::uint32_t(k) * blockDim.x) % a.span;
  std::uint64_t c = a.replicated ? 0 : blockIdx.x % a.chunks;
  std::uint32_t acc = 0;
  // One round per iteration, not unrolled: U accesses in flight is the kernel's one knob, and
  // the SASS tests pin exactly U per iteration.
#pragma unroll 1
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    // One 64-bit base per round, 32-bit offsets per access (one IMAD.WIDE each).
    const std::uint64_t first = c * a.span + r * a.zero;
    if constexpr (P == gen::stream_pattern::write) {
      T* base = out + first;
#pragma unroll
      for (int k = 0; k < U; ++k)
        ptx::st<StOp>(base + off[k], gen::detail::written_element<T>(c * a.span + off[k], 0));
    } else {
      const T* base = in + first;
      T v[U];
#pragma unroll
      for (int k = 0; k < U; ++k) v[k] = ptx::ld<LdOp>(base + off[k]);
      if constexpr (P == gen::stream_pattern::read) {
        // The last load is consumed first: no add can be scheduled before every load of the
        // round was issued, so all U are in flight at once (ptxas otherwise starts adding as
        // soon as the first returns and re-uses its registers for the later loads).
#pragma unroll
        for (int k = U - 1; k >= 0; --k) acc += gen::detail::lane_sum(v[k]);
      } else {
        T* dst = out + first;
#pragma unroll
        for (int k = U - 1; k >= 0; --k) ptx::st<StOp>(dst + off[k], v[k]);
      }
    }
    c += a.step;
    if (c >= a.chunks) c -= a.chunks;
  }
  if constexpr (P == gen::stream_pattern::read)
    ptx::st(a.sink + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x, acc);
}

template <gen::stream_pattern P, class T, class LdOp, class StOp, int U>
__global__ void cache_bw_kernel(cache_bw_args a) {
  cache_bw_body<P, T, LdOp, StOp, U>(a);
}

/// Arguments for a launch of `threads` per block over workload `w`, whose element count must be
/// a multiple of threads x U, or smaller than it (then the whole array is one chunk, read with
/// wrap-around; read pattern only). The read pattern's sinks are the workload's, which must have
/// been given args() for the same grid first.
inline cache_bw_args cache_bw_args_for(const gen::stream_workload& w, unsigned threads,
                                       unsigned grid, std::uint32_t rounds, int u,
                                       bool replicated) {
  require(threads >= 32 && threads <= 1024 && threads % 32 == 0,
          "cache_bw_args_for: threads must be a multiple of 32 in 32 .. 1024, got " +
              std::to_string(threads));
  require(grid >= 1, "cache_bw_args_for: the grid must have at least one block");
  require(rounds >= 1, "cache_bw_args_for: rounds must be at least 1");
  const std::uint64_t chunk = std::uint64_t(threads) * std::uint64_t(u);
  require(w.elements() % chunk == 0 ||
              (w.elements() < chunk && w.pattern() == gen::stream_pattern::read),
          "cache_bw_args_for: " + std::to_string(w.elements()) +
              " elements are not a multiple of the " + std::to_string(chunk) +
              "-element chunk (threads x U); only reads take fewer");
  require(w.pattern() != gen::stream_pattern::mixed,
          "cache_bw_args_for: mixed is not a cache_bw pattern");
  cache_bw_args a;
  a.span = static_cast<std::uint32_t>(std::min<std::uint64_t>(chunk, w.elements()));
  a.in = w.inputs() ? static_cast<const void*>(w.input(0).data()) : nullptr;
  a.out = w.pattern() == gen::stream_pattern::read ? nullptr
                                                   : const_cast<std::uint32_t*>(w.output().data());
  a.sink = const_cast<std::uint32_t*>(w.sinks().data());
  a.chunks = w.elements() / a.span;
  a.step = replicated ? 1 : grid % a.chunks;
  a.rounds = rounds;
  a.replicated = replicated ? 1 : 0;
  require(
      w.pattern() != gen::stream_pattern::read || w.sinks().size() >= std::uint64_t(grid) * threads,
      "cache_bw_args_for: the workload's sinks are fewer than the grid's threads; call "
      "w.args(shape) for this grid first");
  return a;
}

namespace detail {
/// sums[c] = wrapping sum of the words of chunk c of input 0 (chunk_words words each).
template <int = 0>
__global__ void chunk_sums_kernel(const std::uint32_t* in, std::uint64_t chunk_words,
                                  std::uint32_t* sums) {
  std::uint32_t s = 0;
  const std::uint32_t* p = in + blockIdx.x * chunk_words;
  for (std::uint64_t w = threadIdx.x; w < chunk_words; w += blockDim.x) s += p[w];
  for (int d = 16; d > 0; d /= 2) s += __shfl_down_sync(0xFFFFFFFFu, s, d);
  if ((threadIdx.x & 31) == 0) atomicAdd(&sums[blockIdx.x], s);
}
}  // namespace detail

/// The exact check of a cache_bw launch of U accesses per thread (read: the sinks' total against
/// the chunks each block read; write and copy: every output word, as stream_workload::check()).
inline gen::stream_check check_cache_bw(const gen::stream_workload& w, const cache_bw_args& a,
                                        unsigned grid, unsigned threads, int u) {
  if (w.pattern() != gen::stream_pattern::read) return w.check();
  cuprobe::synchronize_device("kernels::check_cache_bw");
  require(a.chunks <= 0x7FFFFFFFu, "check_cache_bw: too many chunks");
  const std::uint64_t lanes = w.element_bytes() / 4;
  std::vector<std::uint32_t> s;
  if (std::uint64_t(threads) * u == a.span) {  // every element of a chunk read once per round
    device_buffer<std::uint32_t> sums(a.chunks);
    sums.zero();
    detail::chunk_sums_kernel<>
        <<<unsigned(a.chunks), 256>>>(w.input(0).data(), a.span * lanes, sums.data());
    CUPROBE_CHECK_LAUNCH("kernels::detail::chunk_sums_kernel");
    s = sums.to_host();
  } else {  // one chunk, read with wrap-around: count how often each element is read
    const std::vector<std::uint32_t> words = w.input(0).to_host();
    std::vector<std::uint32_t> times(a.span, 0);
    for (std::uint64_t t = 0; t < threads; ++t)
      for (int k = 0; k < u; ++k) ++times[(t + std::uint64_t(k) * threads) % a.span];
    std::uint32_t sum = 0;  // what one block reads in one round
    for (std::uint64_t e = 0; e < a.span; ++e)
      for (std::uint64_t j = 0; j < lanes; ++j) sum += times[e] * words[e * lanes + j];
    s.assign(1, sum);
  }
  std::uint32_t expected = 0;
  for (std::uint64_t b = 0; b < grid; ++b)
    for (std::uint64_t r = 0; r < a.rounds; ++r) expected += s[cache_bw_chunk(a, b, r)];
  const std::uint64_t n = std::uint64_t(grid) * threads;
  const std::uint32_t found = gen::detail::device_sum(w.sinks().data(), n, 0);
  return gen::detail::make_sum_check(expected, found, n);
}

}  // namespace cuprobe::suite::kernels
