// cuprobe/ptx/matrix.cuh: stmatrix and ldmatrix, the warp-wide moves of 8 x 8 matrices of 16-bit
// elements between registers and shared memory (the epilogue's register -> shared step, and
// its reverse).
//
//   namespace p = cuprobe::ptx;
//   // lane l gives the address of row l % 8 of matrix l / 8 (16 contiguous bytes each)
//   p::stmatrix<4>(smem_row_address, {r0, r1, r2, r3});     // four 8x8 matrices, one register each
//   auto v = p::ldmatrix<4>(smem_row_address);              // and back (v.reg[0..3])
//   p::stmatrix<2, true>(addr, {r0, r1});                   // .trans: each matrix transposed
//
// The fragment (PTX ISA, "stmatrix"): in each 8 x 8 matrix, lane l holds row l / 4, columns
// 2 (l % 4) and 2 (l % 4) + 1, the lower in the register's low 16 bits: an mma.sync / wgmma
// accumulator's pair of columns, so an accumulator packed to 16 bits goes out unchanged. Register
// i holds matrix i; lanes 8i .. 8i+7 give its row addresses (shared window, 16-byte aligned; the
// lanes past Count x 8 are ignored). Count in {1, 2, 4} and the order (matrix_order::as_is or
// ::transposed) are template parameters (immediates of the instruction); the registers are a
// struct of Count words. Debug builds (CUPROBE_PTX_CHECKS) trap on a misaligned row address.
// stmatrix needs sm_90, ldmatrix sm_75. SASS: STSM.16.M88.4 / LDSM.16.M88.4 (.MT88 with .trans)
// (tests/sass/hopper_pipeline.cu).
#pragma once

#include <cstdint>
#include <cstdio>

#include "cuprobe/core/arch.cuh"

namespace cuprobe::ptx {

/// Count 32-bit registers, each holding two 16-bit elements of one 8 x 8 matrix.
template <int Count>
struct matrix_fragment {
  static_assert(Count == 1 || Count == 2 || Count == 4,
                "cuprobe::ptx::matrix_fragment<Count>: stmatrix/ldmatrix move 1, 2 or 4 matrices");
  std::uint32_t reg[Count];  ///< the registers: matrix i in reg[i]
};

namespace detail {
__device__ __forceinline__ void check_matrix_row(std::uint32_t addr, const char* what) {
#if CUPROBE_PTX_CHECKS
  if (addr % 16 != 0) {
    printf(
        "cuprobe::ptx::%s: row address 0x%x is not 16-byte aligned (block (%u,%u,%u) thread "
        "%u)\n",
        what, addr, blockIdx.x, blockIdx.y, blockIdx.z, threadIdx.x);
    __trap();
  }
#else
  (void)addr, (void)what;
#endif
}
}  // namespace detail

/// How stmatrix / ldmatrix move each 8 x 8 matrix: as it is, or transposed (.trans).
enum class matrix_order { as_is, transposed };

/// stmatrix.sync.aligned.m8n8.x<Count>[.trans].shared.b16 [row_addr], {reg...}: warp-wide.
template <int Count, matrix_order Order = matrix_order::as_is>
__device__ __forceinline__ void stmatrix(std::uint32_t row_addr, const matrix_fragment<Count>& f) {
  using tag = std::integral_constant<int, Count>;
  CUPROBE_REQUIRE_SM(900, tag, "cuprobe::ptx::stmatrix needs sm_90 or newer");
  detail::check_matrix_row(row_addr, "stmatrix");
  if constexpr (Count == 1) {
    if constexpr (Order == matrix_order::transposed)
      asm volatile("stmatrix.sync.aligned.m8n8.x1.trans.shared.b16 [%0], {%1};" ::"r"(row_addr),
                   "r"(f.reg[0])
                   : "memory");
    else
      asm volatile("stmatrix.sync.aligned.m8n8.x1.shared.b16 [%0], {%1};" ::"r"(row_addr),
                   "r"(f.reg[0])
                   : "memory");
  } else if constexpr (Count == 2) {
    if constexpr (Order == matrix_order::transposed)
      asm volatile("stmatrix.sync.aligned.m8n8.x2.trans.shared.b16 [%0], {%1, %2};" ::"r"(row_addr),
                   "r"(f.reg[0]), "r"(f.reg[1])
                   : "memory");
    else
      asm volatile("stmatrix.sync.aligned.m8n8.x2.shared.b16 [%0], {%1, %2};" ::"r"(row_addr),
                   "r"(f.reg[0]), "r"(f.reg[1])
                   : "memory");
  } else {
    if constexpr (Order == matrix_order::transposed)
      asm volatile(
          "stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(row_addr),
          "r"(f.reg[0]), "r"(f.reg[1]), "r"(f.reg[2]), "r"(f.reg[3])
          : "memory");
    else
      asm volatile(
          "stmatrix.sync.aligned.m8n8.x4.shared.b16 [%0], {%1, %2, %3, %4};" ::"r"(row_addr),
          "r"(f.reg[0]), "r"(f.reg[1]), "r"(f.reg[2]), "r"(f.reg[3])
          : "memory");
  }
}

/// ldmatrix.sync.aligned.m8n8.x<Count>[.trans].shared.b16: warp-wide; the same fragment layout.
template <int Count, matrix_order Order = matrix_order::as_is>
__device__ __forceinline__ matrix_fragment<Count> ldmatrix(std::uint32_t row_addr) {
  using tag = std::integral_constant<int, Count>;
  CUPROBE_REQUIRE_SM(750, tag, "cuprobe::ptx::ldmatrix needs sm_75 or newer");
  detail::check_matrix_row(row_addr, "ldmatrix");
  matrix_fragment<Count> f;
  if constexpr (Count == 1) {
    if constexpr (Order == matrix_order::transposed)
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.trans.shared.b16 {%0}, [%1];"
                   : "=r"(f.reg[0])
                   : "r"(row_addr)
                   : "memory");
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%0}, [%1];"
                   : "=r"(f.reg[0])
                   : "r"(row_addr)
                   : "memory");
  } else if constexpr (Count == 2) {
    if constexpr (Order == matrix_order::transposed)
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];"
                   : "=r"(f.reg[0]), "=r"(f.reg[1])
                   : "r"(row_addr)
                   : "memory");
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0, %1}, [%2];"
                   : "=r"(f.reg[0]), "=r"(f.reg[1])
                   : "r"(row_addr)
                   : "memory");
  } else {
    if constexpr (Order == matrix_order::transposed)
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(f.reg[0]), "=r"(f.reg[1]), "=r"(f.reg[2]), "=r"(f.reg[3])
                   : "r"(row_addr)
                   : "memory");
    else
      asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                   : "=r"(f.reg[0]), "=r"(f.reg[1]), "=r"(f.reg[2]), "=r"(f.reg[3])
                   : "r"(row_addr)
                   : "memory");
  }
  return f;
}

}  // namespace cuprobe::ptx
