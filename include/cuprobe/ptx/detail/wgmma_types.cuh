// cuprobe/ptx/detail/wgmma_types.cuh: the type tags and the legality table of wgmma.mma_async.
// Part of cuprobe/ptx/wgmma.cuh (include that); compiles alone for host and device.
//
//   namespace wg = cuprobe::ptx::wgmma;
//   static_assert(wg::is_legal_v<wg::f32, wg::bf16, wg::bf16>);       // bf16 x bf16 -> f32
//   static_assert(!wg::is_legal_v<wg::f16, wg::bf16, wg::bf16>);      // no f16 D for bf16
//   static_assert(wg::dense_k_v<wg::e4m3> == 32);                      // m64nNk32
//   static_assert(wg::is_legal_n(256) && !wg::is_legal_n(260));
//
// The table (PTX ISA, wgmma.mma_async's shapes and types; every combination compiled by ptxas
// 13.0): f16 x f16 (D f16 or f32), bf16 x bf16 and tf32 x tf32 (D f32), any pair of e4m3/e5m2
// (D f16 or f32); N 8..256 in steps of 8, dense and sparse. The dense K is 32 bytes of A (k16,
// tf32 k8, fp8 k32), the sparse K twice that; imm-trans-a/b only for the 16-bit types.
#pragma once

#include <cstdint>
#include <type_traits>

namespace cuprobe::ptx::wgmma {

/// Element type tags: `name` is the PTX spelling, `bytes` the size of one element in memory.
/// This one, f16, is IEEE half precision (an input type and an accumulator type).
struct f16 {
  static constexpr const char* name = "f16";  ///< the PTX spelling
  static constexpr int bytes = 2;             ///< bytes of one element in memory
};
/// bfloat16: 8 exponent and 7 mantissa bits (an input type).
struct bf16 {
  static constexpr const char* name = "bf16";  ///< the PTX spelling
  static constexpr int bytes = 2;              ///< bytes of one element in memory
};
/// tf32: an fp32 in memory whose low 13 mantissa bits the tensor core ignores (an input type).
struct tf32 {
  static constexpr const char* name = "tf32";  ///< the PTX spelling
  static constexpr int bytes = 4;              ///< bytes of one element in memory
};
/// fp8 with 4 exponent and 3 mantissa bits (an input type).
struct e4m3 {
  static constexpr const char* name = "e4m3";  ///< the PTX spelling
  static constexpr int bytes = 1;              ///< bytes of one element in memory
};
/// fp8 with 5 exponent and 2 mantissa bits (an input type).
struct e5m2 {
  static constexpr const char* name = "e5m2";  ///< the PTX spelling
  static constexpr int bytes = 1;              ///< bytes of one element in memory
};
/// fp32: an accumulator type only.
struct f32 {
  static constexpr const char* name = "f32";  ///< the PTX spelling
  static constexpr int bytes = 4;             ///< bytes of one element in memory
};

/// Order of an operand in shared memory: K-major (the default, "not transposed") or M/N-major
/// (imm-trans = 1, 16-bit types only).
enum class major : std::uint8_t { k = 0, mn = 1 };

/// The swizzle (layout type) field of a matrix descriptor, with its encoding as value.
enum class swizzle : std::uint8_t { none = 0, b128 = 1, b64 = 2, b32 = 3 };

/// True for the 16-bit input types, f16 and bf16.
template <class T>
inline constexpr bool is_16bit_v = std::is_same_v<T, f16> || std::is_same_v<T, bf16>;
/// True for the 8-bit float input types, e4m3 and e5m2.
template <class T>
inline constexpr bool is_fp8_v = std::is_same_v<T, e4m3> || std::is_same_v<T, e5m2>;
/// True for the types A and B may have.
template <class T>
inline constexpr bool is_input_v = is_16bit_v<T> || std::is_same_v<T, tf32> || is_fp8_v<T>;
/// True for the types D (the accumulator) may have.
template <class D>
inline constexpr bool is_accumulator_v = std::is_same_v<D, f32> || std::is_same_v<D, f16>;

/// True when A and B are a pair wgmma accepts, whatever D.
template <class A, class B>
inline constexpr bool is_input_pair_v = (is_16bit_v<A> && std::is_same_v<A, B>) ||
                                        (std::is_same_v<A, tf32> && std::is_same_v<B, tf32>) ||
                                        (is_fp8_v<A> && is_fp8_v<B>);

/// True when D = A * B is a wgmma.mma_async type combination (dense and sparse alike).
template <class D, class A, class B>
inline constexpr bool is_legal_v =
    is_input_pair_v<A, B> &&
    (std::is_same_v<D, f32> || (std::is_same_v<D, f16> && (std::is_same_v<A, f16> || is_fp8_v<A>)));

/// True when imm-trans-a/b (major::mn operands) exist for this input type: f16 and bf16 only.
template <class A>
inline constexpr bool has_transpose_v = is_16bit_v<A>;

/// K of one dense wgmma for input type A (32 bytes of A per row): 16, 8 (tf32) or 32 (fp8).
template <class A>
inline constexpr int dense_k_v = 32 / A::bytes;
/// K of one sparse wgmma.mma_async.sp (A holds dense_k_v<A> stored elements per row).
template <class A>
inline constexpr int sparse_k_v = 2 * dense_k_v<A>;

/// The N of every floating-point wgmma: 8..256 in steps of 8.
__host__ __device__ constexpr bool is_legal_n(int n) { return n >= 8 && n <= 256 && n % 8 == 0; }

/// Registers per thread of a 64 x N accumulator: N/2 floats, or N/4 f16x2 words.
template <class D>
__host__ __device__ constexpr int accumulator_registers(int n) {
  return std::is_same_v<D, f32> ? n / 2 : n / 4;
}

}  // namespace cuprobe::ptx::wgmma
