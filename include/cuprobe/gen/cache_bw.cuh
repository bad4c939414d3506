// cuprobe/gen/cache_bw.cuh: read, write and copy over working sets that live in a cache (L1 or
// L2), every thread keeping U accesses in flight whatever the working set.
//
//   namespace gen = cuprobe::gen;  namespace cache = cuprobe::ptx::cache;
//   gen::stream_workload w(gen::stream_pattern::read, 16, (8u << 20) / 16);    // 8 MiB, filled
//   w.fill_inputs(1);  (void)w.args(gen::stream_shape(1, 1024));                // the sinks
//   auto a = gen::cache_bw_args_for(w, /*threads=*/1024, /*grid=*/sms, /*rounds=*/400, 4, false);
//   gen::cache_bw_kernel<gen::stream_pattern::read, float4, cache::cg, cache::cg, 4>
//       <<<sms, 1024>>>(a);                                                     // .cg: L2 only
//   gen::check_cache_bw(w, a, sms, 1024, 4).require();                         // exact
//
// Why not the stream kernels: a grid-stride pass over a few MiB gives each thread one or two
// elements, so a thread has about one load in flight (docs/memory-ptx.md, "L2 bandwidth"). Here
// the array is cut into chunks of blockDim.x x U elements; in each round a block takes one chunk
// (partitioned: block b chunk (b + r x gridDim) mod chunks, the grid walking the array, for the L2
// and DRAM, block-private when the chunks are whole rows of the grid: cache_bw_private_shape;
// replicated: every block chunk r mod chunks, for the L1) and each thread issues its U coalesced
// loads before it uses any. Patterns: read (per-thread sums in the sinks), write (word w
// becomes stream_written_word(w, 0)), copy. Each round offsets every address by r x args.zero (0,
// unknown to the compiler), so ptxas cannot hoist or merge across rounds (tests/sass/cache_bw.cu).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/gen/stream_check.cuh"
#include "cuprobe/gen/stream_kernels.cuh"
#include "cuprobe/gen/stream_workload.cuh"

namespace cuprobe::gen {

/// Accesses in flight per thread of the L2 (partitioned, .cg) kernels: with 1 x 1024 threads per
/// SM, 64 KiB in flight per SM.
inline constexpr int cache_bw_unroll = 4;

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
template <stream_pattern P, class T, class LdOp, class StOp, int U>
__device__ __forceinline__ void cache_bw_body(const cache_bw_args& a) {
  static_assert(
      P == stream_pattern::read || P == stream_pattern::write || P == stream_pattern::copy,
      "cuprobe::gen::cache_bw_kernel: the patterns are read, write and copy");
  static_assert(U >= 1 && U <= 32,
                "cuprobe::gen::cache_bw_kernel: U is 1 .. 32 accesses in flight");
  detail::check_stream_types<T, LdOp, StOp>();
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
    if constexpr (P == stream_pattern::write) {
      T* base = out + first;
#pragma unroll
      for (int k = 0; k < U; ++k)
        ptx::st<StOp>(base + off[k], detail::written_element<T>(c * a.span + off[k], 0));
    } else {
      const T* base = in + first;
      T v[U];
#pragma unroll
      for (int k = 0; k < U; ++k) v[k] = ptx::ld<LdOp>(base + off[k]);
      if constexpr (P == stream_pattern::read) {
        // The last load is consumed first: no add can be scheduled before every load of the
        // round was issued, so all U are in flight at once (ptxas otherwise starts adding as
        // soon as the first returns and re-uses its registers for the later loads).
#pragma unroll
        for (int k = U - 1; k >= 0; --k) acc += detail::lane_sum(v[k]);
      } else {
        T* dst = out + first;
#pragma unroll
        for (int k = U - 1; k >= 0; --k) ptx::st<StOp>(dst + off[k], v[k]);
      }
    }
    c += a.step;
    if (c >= a.chunks) c -= a.chunks;
  }
  if constexpr (P == stream_pattern::read)
    ptx::st(a.sink + std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x, acc);
}

template <stream_pattern P, class T, class LdOp, class StOp, int U>
__global__ void cache_bw_kernel(cache_bw_args a) {  ///< cache_bw_body as a __global__ kernel.
  cache_bw_body<P, T, LdOp, StOp, U>(a);
}

/// The size of a cache_bw launch over about `bytes` per array (cache_bw_size_of).
struct cache_bw_size {
  std::uint64_t elements = 0;  ///< per array: whole chunks of threads x U (a small read: fewer)
  std::uint64_t rounds = 0;    ///< chunks each block handles per launch
  double bytes = 0;            ///< of each array, per launch: grid x threads x U x 16 x rounds
};

/// float4 elements and rounds for pattern `p` over about `bytes` per array on `grid` blocks of
/// `threads` with U = `u`: whole chunks of threads x U (partitioned, once a row of one chunk per
/// block fits: whole rows, each block's chunks its own; a read smaller than one chunk: one chunk,
/// read with wrap-around), enough rounds for bytes_per_launch and for every chunk to be visited.
inline cache_bw_size cache_bw_size_of(stream_pattern p, std::size_t bytes, unsigned grid,
                                      unsigned threads, int u, bool replicated,
                                      double bytes_per_launch) {
  require(grid >= 1 && threads >= 1 && u >= 1, "cache_bw: grid, threads and U must be positive");
  const std::uint64_t chunk = std::uint64_t(threads) * std::uint64_t(u), n = bytes / 16;
  const std::uint64_t unit = !replicated && n >= grid * chunk ? grid * chunk : chunk;
  cache_bw_size s;
  s.elements = n >= chunk || p != stream_pattern::read ? n / unit * unit : n;
  require(s.elements >= 32, "cache_bw: " + fmt_bytes(double(bytes)) +
                                " holds fewer than 32 elements (one warp's load); write and copy " +
                                "take whole chunks of " + fmt_bytes(16.0 * double(chunk)) +
                                " (threads x U x 16 B)");
  const std::uint64_t chunks = std::max<std::uint64_t>(1, s.elements / chunk);
  const double per_round = double(grid) * double(chunk) * 16.0;
  s.rounds = std::max<std::uint64_t>(std::uint64_t(std::ceil(bytes_per_launch / per_round)),
                                     replicated ? chunks : (chunks + grid - 1) / grid);
  require(s.rounds <= 0xFFFFFFFFu, "cache_bw: more than 2^32 rounds per launch");
  s.bytes = per_round * double(s.rounds);
  return s;
}

/// The most threads per block (whole warps, at most `max_threads`, at least 32) whose chunks of
/// threads x U float4, one per block of `grid`, fit in `bytes`. cache_bw_size_of then cuts the
/// array to whole rows of the grid's chunks, and block b reads only chunks b, b + grid, ...: no
/// line is read by two blocks, whose requests the L2 would coalesce (docs/memory-ptx.md, "L2
/// bandwidth").
inline unsigned cache_bw_private_threads(std::size_t bytes, unsigned grid, int u,
                                         unsigned max_threads = 1024) {
  require(grid >= 1 && u >= 1 && max_threads >= 32 && max_threads % 32 == 0,
          "cache_bw_private_threads: grid and U must be positive, max_threads whole warps");
  const double warps = std::floor(double(bytes) / (32.0 * grid * u * 16));
  return 32 * unsigned(std::clamp(warps, 1.0, double(max_threads / 32)));
}

/// Arguments for a launch of `threads` per block over workload `w`, whose element count must be
/// a multiple of threads x U, or smaller than it (then the whole array is one chunk, read with
/// wrap-around; read pattern only). The read pattern's sinks are the workload's, which must have
/// been given args() for the same grid first.
inline cache_bw_args cache_bw_args_for(const stream_workload& w, unsigned threads, unsigned grid,
                                       std::uint32_t rounds, int u, bool replicated) {
  require(threads >= 32 && threads <= 1024 && threads % 32 == 0,
          "cache_bw_args_for: threads must be a multiple of 32 in 32 .. 1024, got " +
              std::to_string(threads));
  require(grid >= 1, "cache_bw_args_for: the grid must have at least one block");
  require(rounds >= 1, "cache_bw_args_for: rounds must be at least 1");
  const std::uint64_t chunk = std::uint64_t(threads) * std::uint64_t(u);
  require(
      w.elements() % chunk == 0 || (w.elements() < chunk && w.pattern() == stream_pattern::read),
      "cache_bw_args_for: " + std::to_string(w.elements()) +
          " elements are not a multiple of the " + std::to_string(chunk) +
          "-element chunk (threads x U); only reads take fewer");
  require(w.pattern() != stream_pattern::mixed,
          "cache_bw_args_for: mixed is not a cache_bw pattern");
  cache_bw_args a;
  a.span = static_cast<std::uint32_t>(std::min<std::uint64_t>(chunk, w.elements()));
  a.in = w.inputs() ? static_cast<const void*>(w.input(0).data()) : nullptr;
  a.out =
      w.pattern() == stream_pattern::read ? nullptr : const_cast<std::uint32_t*>(w.output().data());
  a.sink = const_cast<std::uint32_t*>(w.sinks().data());
  a.chunks = w.elements() / a.span;
  a.step = replicated ? 1 : grid % a.chunks;
  a.rounds = rounds;
  a.replicated = replicated ? 1 : 0;
  require(w.pattern() != stream_pattern::read || w.sinks().size() >= std::uint64_t(grid) * threads,
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
template <int = 0>  // a template: its kernel is compiled only where it is used
stream_check check_cache_bw(const stream_workload& w, const cache_bw_args& a, unsigned grid,
                            unsigned threads, int u) {
  if (w.pattern() != stream_pattern::read) return w.check();
  synchronize_device("gen::check_cache_bw");
  require(a.chunks <= 0x7FFFFFFFu, "check_cache_bw: too many chunks");
  const std::uint64_t lanes = w.element_bytes() / 4;
  std::vector<std::uint32_t> s;
  if (std::uint64_t(threads) * u == a.span) {  // every element of a chunk read once per round
    device_buffer<std::uint32_t> sums(a.chunks);
    sums.zero();
    detail::chunk_sums_kernel<>
        <<<unsigned(a.chunks), 256>>>(w.input(0).data(), a.span * lanes, sums.data());
    CUPROBE_CHECK_LAUNCH("cuprobe::gen::detail::chunk_sums_kernel");
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
  const std::uint32_t found = detail::device_sum(w.sinks().data(), n, 0);
  return detail::make_sum_check(expected, found, n);
}

}  // namespace cuprobe::gen
