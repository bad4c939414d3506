// cuprobe/hopper/epilogue.cuh: a warpgroup's wgmma accumulator out to global memory: through
// shared memory (f32 -> 16-bit pairs, stmatrix into 128B-swizzled 64 x 64 sub-tiles, TMA store),
// or straight from registers (direct_store_epilogue).
//
//   namespace h = cuprobe::hopper;  namespace wg = cuprobe::ptx::wgmma;
//   using epi = h::tma_store_epilogue<__nv_bfloat16, /*N=*/256, /*Buffers=*/2>;
//   // buf: epi::smem_bytes of shared memory, 1024-byte aligned, owned by this warpgroup;
//   // c_map: tensor_map_spec::matrix(c, M, N, 64, 64, swizzle_mode::b128) (box 64 x 64)
//   epi::store(acc, buf, &c_map, m0, n0, /*named barrier id=*/1 + warpgroup);
//   epi::drain();                              // before the kernel ends (leader thread waits)
//
// docs/hopper-gemm.md ("The epilogue") describes both paths: the sub-tiles' swizzled layout and
// why the stmatrix stores are free of bank conflicts, the steps per sub-tile (the leader's
// wait_group_read<Buffers - 1>, a named barrier of the warpgroup's 128 threads, stmatrix,
// fence.proxy.async.shared::cta, the barrier again, the leader's tensor store and commit; the
// buffer rotation continues across calls through `first`), the narrow last sub-tile when
// N % 64 != 0 (unswizzled, stmatrix.x2, its own buffer and `rest_map`, stored in the last full
// sub-tile's bulk group), and the register path (quad_transpose, one st.global.v4 per lane,
// columns from n_end skipped). Buffers = N / 64 keeps the whole tile resident; Buffers = 2
// double-buffers in 16 KiB; the stores of one tile overlap the next tile's main loop, and drain()
// (all stores complete) is needed before the CTA exits.
// Choices: 16-bit outputs only (bf16, f16; what stmatrix moves); N a multiple of 8 from 64 to
// 256; n0 a multiple of 8 (a tensor store whose first column is off 16 bytes is an illegal
// instruction); the barrier id is the caller's (ids 1..15; one per concurrent warpgroup).
#pragma once

#include <cuda.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuprobe/ptx/barrier.cuh"
#include "cuprobe/ptx/bulk.cuh"
#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/matrix.cuh"
#include "cuprobe/ptx/shared.cuh"
#include "cuprobe/ptx/wgmma.cuh"

namespace cuprobe::hopper {

/// Byte offset of 16-bit element (row, col) in a 64 x 64 sub-tile stored 128B-swizzled.
__host__ __device__ constexpr std::uint32_t swizzle128_offset_b16(int row, int col) {
  const std::uint32_t byte = std::uint32_t(col) * 2u, r = std::uint32_t(row);
  return r * 128u + (((byte / 16u) ^ (r % 8u)) * 16u) + byte % 16u;
}

/// The row address (offset from the sub-tile buffer) that lane `lane` of warp `warp` (0..3 in
/// the warpgroup) gives to the stmatrix.x4 of 16-column block q (0..3) of a 64-column sub-tile.
__host__ __device__ constexpr std::uint32_t epilogue_row_offset(int warp, int lane, int q) {
  const int i = lane / 8, row = 16 * warp + 8 * (i % 2) + lane % 8, col = 16 * q + 8 * (i / 2);
  return swizzle128_offset_b16(row, col);
}

/// The row address (offset from the narrow sub-tile's buffer, rows of 2 R bytes) that lane
/// `lane` of warp `warp` gives to the stmatrix.x2 of 8-column block b of an R-column sub-tile:
/// lanes 0..7 the warp's rows 0..7, lanes 8..15 its rows 8..15 (the other lanes' are ignored).
__host__ __device__ constexpr std::uint32_t epilogue_rest_row_offset(int warp, int lane, int b,
                                                                     int rest) {
  const int row = 16 * warp + lane % 16;
  return std::uint32_t(row * 2 * rest + 16 * b);
}

/// Two floats as one 32-bit register of 16-bit Out values (a: low half), rounded to nearest.
template <class Out>
__device__ __forceinline__ std::uint32_t pack_pair(float a, float b) {
  std::uint32_t u;
  if constexpr (std::is_same_v<Out, __nv_bfloat16>) {
    const __nv_bfloat162 h = __floats2bfloat162_rn(a, b);
    std::memcpy(&u, &h, 4);
  } else {
    const __half2 h = __floats2half2_rn(a, b);
    std::memcpy(&u, &h, 4);
  }
  return u;
}

/// A warpgroup's 64 x N accumulator out through Buffers 128B-swizzled 64 x 64 sub-tiles.
template <class Out, int N, int Buffers>
struct tma_store_epilogue {
  static_assert(std::is_same_v<Out, __nv_bfloat16> || std::is_same_v<Out, __half>,
                "cuprobe::hopper::tma_store_epilogue<Out>: Out must be __nv_bfloat16 or __half "
                "(stmatrix moves 16-bit elements)");
  static_assert(N % 8 == 0 && N >= 64 && N <= 256,
                "cuprobe::hopper::tma_store_epilogue<Out, N>: N must be a multiple of 8 from 64 "
                "to 256");
  static constexpr int subtiles = N / 64;  ///< 64-column sub-tiles of a tile
  static constexpr int rest = N % 64;      ///< columns of the narrow last sub-tile (0: none)
  static_assert(Buffers >= 1 && Buffers <= subtiles,
                "cuprobe::hopper::tma_store_epilogue<Out, N, Buffers>: Buffers must be 1 .. N/64");
  static constexpr std::uint32_t subtile_bytes = 64u * 64u * 2u;  ///< bytes of one sub-tile buffer
  static constexpr std::uint32_t rest_bytes = 64u * rest * 2u;    ///< the narrow sub-tile's buffer
  /// The shared memory the epilogue needs, in bytes (a multiple of 1024).
  static constexpr std::uint32_t smem_bytes = Buffers * subtile_bytes + rest_bytes;

  /// The warpgroup's 64 x N accumulator -> the box of `map` at rows m0.., columns n0.., through
  /// `buf` (smem_bytes, 1024-byte aligned); n0 a multiple of 8. Every thread calls it. `first`:
  /// sub-tile s goes through buffer (first + s) % Buffers; calls that share `buf` must continue
  /// the rotation (pass the count of sub-tiles stored through it before), or a buffer may be
  /// rewritten while a store still reads it: 0 always works when Buffers divides N / 64.
  /// `rest_map` (needed when N % 64 != 0): the same matrix with box {N % 64, 64}, no swizzle.
  __device__ static void store(const ptx::wgmma::accumulator<ptx::wgmma::f32, N>& acc, void* buf,
                               const CUtensorMap* map, int m0, int n0, std::uint32_t barrier_id,
                               int first = 0, const CUtensorMap* rest_map = nullptr) {
    const unsigned t = threadIdx.x % 128u, warp = t / 32u, lane = t % 32u;
    const bool leader = t == 0;
    const std::uint32_t base = ptx::smem_address(buf);
#pragma unroll
    for (int s = 0; s < subtiles; ++s) {
      const int k = (first + s) % Buffers;
      const std::uint32_t b = base + std::uint32_t(k) * subtile_bytes;
      if (leader) ptx::bulk::wait_group_read<Buffers - 1>();
      ptx::named_barrier_sync(barrier_id, 128);
#pragma unroll
      for (int q = 0; q < 4; ++q) {
        const int e = 8 * (4 * s + q);
        const ptx::matrix_fragment<4> f{{pack_pair<Out>(acc.reg[e], acc.reg[e + 1]),
                                         pack_pair<Out>(acc.reg[e + 2], acc.reg[e + 3]),
                                         pack_pair<Out>(acc.reg[e + 4], acc.reg[e + 5]),
                                         pack_pair<Out>(acc.reg[e + 6], acc.reg[e + 7])}};
        ptx::stmatrix<4>(b + epilogue_row_offset(int(warp), int(lane), q), f);
      }
      const bool with_rest = rest != 0 && s == subtiles - 1;
      if (with_rest) {
#pragma unroll
        for (int q = 0; q < rest / 8; ++q) {
          const int e = 4 * (8 * subtiles + q);  // 8-column block 8 subtiles + q
          const ptx::matrix_fragment<2> f{{pack_pair<Out>(acc.reg[e], acc.reg[e + 1]),
                                           pack_pair<Out>(acc.reg[e + 2], acc.reg[e + 3])}};
          ptx::stmatrix<2>(base + Buffers * subtile_bytes +
                               epilogue_rest_row_offset(int(warp), int(lane), q, rest),
                           f);
        }
      }
      ptx::fence_proxy_async<ptx::space::shared>();
      ptx::named_barrier_sync(barrier_id, 128);
      if (leader) {
        const Out* tile = static_cast<const Out*>(buf);  // typed: Debug builds check n0
        ptx::bulk::tensor_store(map, tile + k * (subtile_bytes / 2), n0 + 64 * s, m0);
        if (with_rest)
          ptx::bulk::tensor_store(rest_map, tile + Buffers * subtile_bytes / 2, n0 + N - rest, m0);
        ptx::bulk::commit_group();
      }
    }
  }

  /// The leader waits until every store it issued is complete (call before the CTA exits).
  __device__ static void drain() {
    if (threadIdx.x % 128u == 0) ptx::bulk::wait_group<0>();
  }
};

/// Four lanes of a quad (q = lane % 4) with four words each, w[b] of lane q = W(q, b), leave
/// with w[k] of lane q = W(k, q): two rounds of __shfl_xor_sync (lanes 1 and 2 apart), each
/// exchanging the two words whose index differs from the lane in that bit. Every lane of the
/// warp calls it.
__device__ __forceinline__ void quad_transpose(std::uint32_t (&w)[4]) {
  const unsigned q = threadIdx.x % 4u;
#pragma unroll
  for (int bit = 1; bit <= 2; bit *= 2) {
    const bool hi = (q & unsigned(bit)) != 0;
#pragma unroll
    for (int b = 0; b < 4; ++b) {
      if (b & bit) continue;  // the pair (b, b | bit)
      const std::uint32_t got = __shfl_xor_sync(0xffffffffu, hi ? w[b] : w[b | bit], bit);
      (hi ? w[b] : w[b | bit]) = got;
    }
  }
}

/// A warpgroup's 64 x N fp32 accumulator straight from registers into a row-major matrix of
/// 16-bit Out in global memory: no shared memory, no barrier. See the file comment.
template <class Out, int N, class StoreOp = ptx::cache::none>
struct direct_store_epilogue {
  static_assert(std::is_same_v<Out, __nv_bfloat16> || std::is_same_v<Out, __half>,
                "cuprobe::hopper::direct_store_epilogue<Out>: Out must be __nv_bfloat16 or __half");
  static_assert(N % 8 == 0 && N >= 8 && N <= 256,
                "cuprobe::hopper::direct_store_epilogue<Out, N>: N must be a multiple of 8 from 8 "
                "to 256");
  static constexpr int blocks = N / 8;      ///< 8-column blocks of the tile
  static constexpr int quads = blocks / 4;  ///< groups of four blocks: one 16-byte store per lane
  static constexpr std::uint32_t smem_bytes = 0;  ///< none

  /// The accumulator -> c[(m0 + row) * ld + n0 + col]; columns at or past n_end are not written
  /// (a tile over the matrix's edge). ld and n_end multiples of 8, c 16-byte aligned. Every
  /// thread of the warpgroup calls it.
  __device__ static void store(const ptx::wgmma::accumulator<ptx::wgmma::f32, N>& acc, Out* c,
                               std::size_t ld, int m0, int n0, int n_end) {
    // A tile inside the matrix stores without a column test (n0 is the same for the whole
    // warpgroup, so the branch is uniform); one over its edge tests each store.
    if (n0 + N <= n_end)
      store_rows<false>(acc, c, ld, m0, n0, n_end);
    else
      store_rows<true>(acc, c, ld, m0, n0, n_end);
  }

 private:
  template <bool Edge>
  __device__ static void store_rows(const ptx::wgmma::accumulator<ptx::wgmma::f32, N>& acc, Out* c,
                                    std::size_t ld, int m0, int n0, int n_end) {
    const unsigned t = threadIdx.x % 128u, q = t % 4u;
    const int row = m0 + 16 * int(t / 32u) + int(t % 32u) / 4;  // + 8 for the second word pair
    const int left = n_end - n0;  // columns of the tile inside the matrix
#pragma unroll
    for (int h = 0; h < 2; ++h) {
      Out* line = c + std::size_t(row + 8 * h) * ld + n0;
#pragma unroll
      for (int g = 0; g < quads; ++g) {  // blocks 4g .. 4g + 3: lane q stores block 4g + q
        std::uint32_t w[4];
#pragma unroll
        for (int b = 0; b < 4; ++b) {
          const int e = 4 * (4 * g + b) + 2 * h;
          w[b] = pack_pair<Out>(acc.reg[e], acc.reg[e + 1]);
        }
        quad_transpose(w);
        const int col = 8 * (4 * g + int(q));
        if (!Edge || col < left)
          ptx::st<StoreOp>(reinterpret_cast<uint4*>(line + col),
                           make_uint4(w[0], w[1], w[2], w[3]));
      }
#pragma unroll
      for (int j = 4 * quads; j < blocks; ++j) {  // the last N / 8 % 4 blocks: 4 bytes per lane
        const int e = 4 * j + 2 * h, col = 8 * j + 2 * int(q);
        if (!Edge || col < left)
          ptx::st<StoreOp>(reinterpret_cast<std::uint32_t*>(line + col),
                           pack_pair<Out>(acc.reg[e], acc.reg[e + 1]));
      }
    }
  }
};

}  // namespace cuprobe::hopper
