// cuprobe/ptx/detail/wgmma_sparse.cuh: structured-sparse A for wgmma.mma_async.sp: where each
// chunk's metadata lives in the warpgroup's metadata registers, and a host helper that prunes a
// dense A and builds those registers. Part of cuprobe/ptx/wgmma.cuh.
//
//   namespace wg = cuprobe::ptx::wgmma;
//   std::vector<float> dense(64 * 64);                          // 64 x K row-major, bf16 values
//   wg::sparse_tile s = wg::prune_2_4<wg::bf16>(dense, 64, /*selector=*/0);
//   // s.compressed: 64 x 32 (what A holds), s.pruned: 64 x 64 (the matrix multiplied),
//   // s.metadata[step * 128 + thread]: the register thread passes to step's mma_async_sp
//
// Sparsity (PTX ISA, "Sparse matrix storage" of wgmma.mma_async.sp): f16/bf16 and fp8 keep 2 of
// every 4 consecutive elements of a row (a 4-bit nibble: the two 2-bit indices, lower one in
// bits 1..0, idx0 < idx1); tf32 keeps 1 of every 2 (nibble 0b0100 for the first, 0b1110 for the
// second). One sparse step covers K = 32 (16-bit), 16 (tf32) or 64 (fp8) dense elements, i.e.
// 8, 8 or 16 chunks per row; A holds K/2 elements per row.
// The metadata registers (the same per warp as mma.sp m16n8k32 f16 / k16 tf32 / k64 fp8; CuTe's
// ELayout_64x32, 64x16, 64x64 agree): warp w holds rows 16w..16w+15; lane = 4g + t.
//   f16, bf16, tf32: the thread pair t = 2*selector + {0, 1} holds the metadata (selector 0 or
//     1); in thread 2*selector + j, bits 4c..4c+3 hold chunk 4j + c (c = 0..3) of row 16w + g
//     and bits 16+4c.. the same chunk of row 16w + g + 8.
//   e4m3, e5m2: every thread holds metadata (selector 0); thread t holds chunks 8(t/2) + c
//     (c = 0..7, bits 4c..4c+3) of row 16w + g + 8(t%2).
// Choices: magnitudes decide what is kept (ties: the lower index), on floats already rounded to
// A's type (the pruned matrix is what the tensor core multiplies); threads whose word the selector
// does not read get 0x44444444 (valid: a wrong selector gives a wrong product, not UB).
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/ptx/detail/wgmma_types.cuh"

namespace cuprobe::ptx::wgmma {

/// Dense elements per sparsity chunk: 4 (2:4), or 2 for tf32 (1:2).
template <class A>
inline constexpr int sparse_chunk_v = A::bytes == 4 ? 2 : 4;
/// Chunks per row of one sparse step: 8 (f16, bf16, tf32) or 16 (fp8).
template <class A>
inline constexpr int sparse_chunks_v = sparse_k_v<A> / sparse_chunk_v<A>;

/// True when `selector` is a sparsity selector this A type accepts: 0 or 1 for the 16-bit
/// types and tf32 (which thread pair holds the metadata), 0 for fp8 (all four threads do).
template <class A>
__host__ __device__ constexpr bool is_valid_selector(int selector) {
  return is_fp8_v<A> ? selector == 0 : (selector == 0 || selector == 1);
}

/// Where the 4-bit metadata of one chunk lives: bits shift..shift+3 of thread's register.
struct metadata_slot {
  int thread = 0;  ///< the warpgroup thread, 0..127
  int shift = 0;   ///< the lowest bit of the nibble in the thread's metadata register
};

/// The slot of chunk `chunk` (0 .. sparse_chunks_v<A>-1, along K within one sparse step) of row
/// `row` (0..63), for sparsity selector `selector`.
template <class A>
__host__ __device__ constexpr metadata_slot metadata_slot_of(int row, int chunk, int selector) {
  const int w = row / 16, g = row % 8, h = (row % 16) / 8;
  if constexpr (is_fp8_v<A>) {
    return metadata_slot{32 * w + 4 * g + 2 * (chunk / 8) + h, 4 * (chunk % 8)};
  } else {
    return metadata_slot{32 * w + 4 * g + 2 * selector + chunk / 4, 16 * h + 4 * (chunk % 4)};
  }
}

/// The word a thread not read under the selector gets (every chunk: its first elements).
inline constexpr std::uint32_t unread_metadata_word = 0x44444444u;

/// The metadata nibble that keeps positions i0 < i1 of a 4-chunk, or position i0 of a tf32
/// 2-chunk (i1 ignored).
template <class A>
__host__ __device__ constexpr std::uint32_t metadata_nibble(int i0, int i1) {
  if constexpr (sparse_chunk_v<A> == 2)
    return i0 == 0 ? 0x4u : 0xEu;
  else
    return std::uint32_t(i0) | std::uint32_t(i1) << 2;
}

/// A pruned A tile: what the sparse wgmma multiplies, what A holds, and the metadata.
struct sparse_tile {
  int rows = 64;                        ///< rows of the tile (M)
  int k = 0;                            ///< dense K of the tile
  std::vector<float> pruned;            ///< rows x k, row-major, zeros where pruned
  std::vector<float> compressed;        ///< rows x k/2, row-major: the kept elements in order
  std::vector<std::uint32_t> metadata;  ///< (k / sparse_k_v<A>) x 128: [step * 128 + thread]
};

/// Prunes the 64 x k row-major `dense` (values already representable in A's type) to A's
/// structured sparsity, keeping the largest magnitudes of every chunk (2 of 4; tf32: 1 of 2),
/// and builds the metadata registers of the k / sparse_k_v<A> sparse steps for `selector`.
template <class A>
sparse_tile prune_2_4(const std::vector<float>& dense, int k, int selector = 0) {
  static_assert(is_input_v<A>,
                "cuprobe::ptx::wgmma::prune_2_4<A>: A must be f16, bf16, tf32, "
                "e4m3 or e5m2");
  constexpr int chunk = sparse_chunk_v<A>, keep = chunk / 2, step_k = sparse_k_v<A>;
  require(k > 0 && k % step_k == 0,
          "wgmma::prune_2_4<" + std::string(A::name) + ">: K = " + std::to_string(k) +
              " must be a positive multiple of " + std::to_string(step_k) +
              " (the K of one sparse wgmma of this type)");
  require(dense.size() == std::size_t(64) * std::size_t(k),
          "wgmma::prune_2_4: the dense tile holds " + std::to_string(dense.size()) +
              " elements, not 64 x " + std::to_string(k));
  require(is_valid_selector<A>(selector), "wgmma::prune_2_4<" + std::string(A::name) +
                                              ">: sparsity selector " + std::to_string(selector) +
                                              " is not " + (is_fp8_v<A> ? "0" : "0 or 1"));
  sparse_tile s;
  s.k = k;
  s.pruned.assign(dense.size(), 0.0f);
  s.compressed.assign(std::size_t(64) * std::size_t(k / 2), 0.0f);
  const int steps = k / step_k;
  s.metadata.assign(std::size_t(steps) * 128, unread_metadata_word);
  // The words the selector reads start from zero; the others keep the filler.
  for (int step = 0; step < steps; ++step)
    for (int row = 0; row < 64; ++row)
      for (int c = 0; c < sparse_chunks_v<A>; ++c) {
        const metadata_slot slot = metadata_slot_of<A>(row, c, selector);
        s.metadata[std::size_t(step) * 128 + std::size_t(slot.thread)] = 0;
      }
  for (int row = 0; row < 64; ++row) {
    for (int c0 = 0; c0 < k; c0 += chunk) {
      const float* v = &dense[std::size_t(row) * std::size_t(k) + std::size_t(c0)];
      // The `keep` largest magnitudes, lower index first among equals, then in index order.
      int i0 = 0, i1 = 1;
      if (keep == 1) {
        i0 = std::fabs(v[1]) > std::fabs(v[0]) ? 1 : 0;
      } else {
        for (int i = 1; i < chunk; ++i)
          if (std::fabs(v[i]) > std::fabs(v[i0])) i0 = i;
        i1 = i0 == 0 ? 1 : 0;
        for (int i = 0; i < chunk; ++i)
          if (i != i0 && std::fabs(v[i]) > std::fabs(v[i1])) i1 = i;
        if (i1 < i0) std::swap(i0, i1);
      }
      const std::size_t out = std::size_t(row) * std::size_t(k / 2) + std::size_t(c0 / 2);
      s.compressed[out] = v[i0];
      s.pruned[std::size_t(row) * std::size_t(k) + std::size_t(c0 + i0)] = v[i0];
      if (keep == 2) {
        s.compressed[out + 1] = v[i1];
        s.pruned[std::size_t(row) * std::size_t(k) + std::size_t(c0 + i1)] = v[i1];
      }
      const int step = c0 / step_k, c = (c0 % step_k) / chunk;
      const metadata_slot slot = metadata_slot_of<A>(row, c, selector);
      s.metadata[std::size_t(step) * 128 + std::size_t(slot.thread)] |= metadata_nibble<A>(i0, i1)
                                                                        << slot.shift;
    }
  }
  return s;
}

}  // namespace cuprobe::ptx::wgmma
