// cuprobe/ptx/arith.cuh: integer and packed 16-bit arithmetic that C++ would reshape.
//
//   unsigned s = cuprobe::ptx::add3_u32(a, b, c);               // a + b + c: one IADD3
//   unsigned m = cuprobe::ptx::mad_lo_u32(a, b, c);             // a * b + c: one IMAD
//   unsigned l = cuprobe::ptx::lop3_b32<0x6A>(a, b, c);         // (a & b) ^ c: one LOP3.LUT
//   std::uint32_t h = cuprobe::ptx::fma_rn_f16x2(a, b, c);      // 2 x half FMA: one HFMA2
//   float r = cuprobe::ptx::rsqrt_approx_ftz_f32(x);            // one MUFU.RSQ
//
// Why inline PTX: C++ adds chain into acc + n * b, a multiply-add polynomial is reshaped, the
// approximate functions grow denormal fix-ups. Each wrapper is one PTX instruction (add3: two
// adds ptxas fuses into one IADD3), plain `asm` (an unused result may be deleted); packed 16-bit
// values travel as their 32-bit register image (lane 0 low). tests/sass/compute_ops.cu pins each.
#pragma once

#include <cstdint>

#include "cuprobe/core/arch.cuh"

namespace cuprobe::ptx {

/// add.u32 twice: a + b + c modulo 2^32 (ptxas emits one three-input IADD3).
__device__ __forceinline__ std::uint32_t add3_u32(std::uint32_t a, std::uint32_t b,
                                                  std::uint32_t c) {
  std::uint32_t r;
  asm("add.u32 %0, %1, %2;\n\tadd.u32 %0, %0, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

/// mad.lo.u32: the low 32 bits of a * b + c (one IMAD).
__device__ __forceinline__ std::uint32_t mad_lo_u32(std::uint32_t a, std::uint32_t b,
                                                    std::uint32_t c) {
  std::uint32_t r;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

/// lop3.b32 with truth table Lut (a = 0xF0, b = 0xCC, c = 0xAA): one LOP3.LUT.
template <unsigned Lut>
__device__ __forceinline__ std::uint32_t lop3_b32(std::uint32_t a, std::uint32_t b,
                                                  std::uint32_t c) {
  static_assert(Lut <= 0xFF, "cuprobe::ptx::lop3_b32: the truth table is 8 bits (0x00..0xFF)");
  std::uint32_t r;
  asm("lop3.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(c), "n"(Lut));
  return r;
}

/// fma.rn.f16x2 on register images: two binary16 fused multiply-adds (one HFMA2).
__device__ __forceinline__ std::uint32_t fma_rn_f16x2(std::uint32_t a, std::uint32_t b,
                                                      std::uint32_t c) {
  std::uint32_t r;
  asm("fma.rn.f16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

/// fma.rn.bf16x2 on register images: two bfloat16 fused multiply-adds (HFMA2.BF16_V2 on
/// sm_90). Needs sm_80; instantiating it for an older target is a compile error.
template <class T = std::uint32_t>
__device__ __forceinline__ T fma_rn_bf16x2(T a, T b, T c) {
  CUPROBE_REQUIRE_SM(800, T, "cuprobe::ptx::fma_rn_bf16x2 needs sm_80 or newer (fma.rn.bf16x2)");
  static_assert(sizeof(T) == 4, "cuprobe::ptx::fma_rn_bf16x2 takes 32-bit register images");
  T r;
  asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  return r;
}

/// rsqrt.approx.ftz.f32: 1 / sqrt(x), relative error below 2^-22.9 (PTX ISA), denormals
/// flushed: one MUFU.RSQ with no fix-up code around it.
__device__ __forceinline__ float rsqrt_approx_ftz_f32(float x) {
  float r;
  asm("rsqrt.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}

}  // namespace cuprobe::ptx
