// cuprobe/ptx/detail/wgmma_layout.cuh: which element of the 64 x N accumulator, and of the
// 64 x K register fragment of A (RS form), each of the 128 threads of a warpgroup holds.
// Host and device, constexpr. Part of cuprobe/ptx/wgmma.cuh.
//
//   namespace wg = cuprobe::ptx::wgmma;
//   constexpr wg::coord c = wg::accumulator_coord(37, 5);   // thread 37, element 5
//   static_assert(c.row == 17 && c.col == 11);             // warp 1, lane 5
//   const wg::coord p = wg::accumulator_coord(threadIdx.x % 128, e);      // in a kernel:
//   out[p.row * N + p.col] = acc.reg[e];                                   // write D out
//   constexpr wg::coord a = wg::a_fragment_coord<wg::bf16>(0, 7);         // (row 8, k 9)
//
// The layouts (PTX ISA, "Register Fragments" of wgmma.mma_async): warp w = thread / 32 owns
// rows 16w..16w+15; in it, lane l has group g = l / 4 and t = l % 4, as in mma.sync m16n8.
//   Accumulator, element e = 0 .. N/2-1 (f32: register e; f16: register e/2, low half when e
//   is even):  row = 16w + g + 8 * ((e / 2) % 2),  col = 8 * (e / 4) + 2t + e % 2.
//   A fragment, four 32-bit registers (the mma.sync m16n8kK layout of A, one per warp):
//     16-bit, e = 0..7 (register e/2):   row = 16w + g + 8((e/2)%2), k = 2t + e%2 + 8(e/4)
//     tf32,   e = 0..3 (register e):     row = 16w + g + 8(e%2),     k = t + 4(e/2)
//     fp8,    e = 0..15 (register e/4):  row = 16w + g + 8((e/4)%2), k = 4t + e%4 + 16(e/8)
//   For the sparse RS form the fragment holds the compressed 64 x K/2 matrix in the same
//   layout (the stored, non-zero elements in their order along the row).
// One element index per thread, not (register, half) pairs: f32 and f16 accumulators share a map;
// accumulator_owner is the inverse, for host references.
#pragma once

#include <type_traits>

#include "cuprobe/ptx/detail/wgmma_types.cuh"

namespace cuprobe::ptx::wgmma {

/// A position in a matrix: row (M, or M/N of an operand) and column (N, or K).
struct coord {
  int row = 0;  ///< the row
  int col = 0;  ///< the column
  /// Whether both positions are the same, or not.
  ///@{
  __host__ __device__ constexpr bool operator==(const coord& o) const {
    return row == o.row && col == o.col;
  }
  __host__ __device__ constexpr bool operator!=(const coord& o) const { return !(*this == o); }
  ///@}
};

/// The (row, col) of the 64 x N accumulator that element `e` (0 .. N/2-1) of warpgroup thread
/// `thread` (0..127) holds. f32: register e. f16: register e / 2, the low half when e is even.
__host__ __device__ constexpr coord accumulator_coord(int thread, int e) {
  const int w = thread / 32, lane = thread % 32, g = lane / 4, t = lane % 4;
  return coord{16 * w + g + 8 * ((e / 2) % 2), 8 * (e / 4) + 2 * t + e % 2};
}

/// The inverse of accumulator_coord: which thread and element hold D(row, col).
struct accumulator_slot {
  int thread = 0;   ///< the warpgroup thread, 0..127
  int element = 0;  ///< the element index in its accumulator, as accumulator_coord takes it
};
/// The thread and element that hold D(row, col) of the accumulator.
__host__ __device__ constexpr accumulator_slot accumulator_owner(int row, int col) {
  const int w = row / 16, g = row % 8, hi = (row % 16) / 8, t = (col % 8) / 2;
  return accumulator_slot{32 * w + 4 * g + t, 4 * (col / 8) + 2 * hi + col % 2};
}

/// Elements of A per 32-bit fragment register: 2 (16-bit), 1 (tf32), 4 (fp8).
template <class A>
inline constexpr int a_elements_per_register_v = 4 / A::bytes;
/// Elements of A each thread holds in the RS form (four registers): 8, 4 or 16.
template <class A>
inline constexpr int a_fragment_elements_v = 4 * a_elements_per_register_v<A>;

/// The (row, k) of the 64 x K A tile (K = one dense wgmma: 16, 8 or 32) that element `e` of the
/// RS fragment of thread `thread` holds; register e / a_elements_per_register_v<A>, lowest bits
/// first.
template <class A>
__host__ __device__ constexpr coord a_fragment_coord(int thread, int e) {
  static_assert(is_input_v<A>,
                "cuprobe::ptx::wgmma::a_fragment_coord<A>: A must be f16, bf16, "
                "tf32, e4m3 or e5m2");
  const int w = thread / 32, lane = thread % 32, g = lane / 4, t = lane % 4;
  if constexpr (A::bytes == 2) {
    return coord{16 * w + g + 8 * ((e / 2) % 2), 2 * t + e % 2 + 8 * (e / 4)};
  } else if constexpr (A::bytes == 4) {
    return coord{16 * w + g + 8 * (e % 2), t + 4 * (e / 2)};
  } else {
    return coord{16 * w + g + 8 * ((e / 4) % 2), 4 * t + e % 4 + 16 * (e / 8)};
  }
}

}  // namespace cuprobe::ptx::wgmma
