// cuprobe/gen/ops.cuh: the operations an accumulator chain repeats, one traits struct each.
//
//   using op = cuprobe::gen::ops::fma_f32;            // acc = fma(acc, b, c): one FFMA
//   __device__: acc = op::apply(acc, b, c);            // exactly one instruction per call
//   host:       ref = op::host_apply(acc0, b, c);      // the same bits as the GPU
//   std::printf("%s: %g FLOP per instruction, SASS %s\n", op::name, op::ops, op::sass);
//
// An operation is a struct (derive from op_base<T> for the defaults) with value_type (what the
// chain carries), name (the PTX spelling), ops (per thread-instruction: FLOP for floating point,
// FMA 2, HFMA2 4, add or multiply 1; 1 for integer, logic, MUFU and shuffle, an IMAD too), sass
// (a CMake regex for the SASS on sm_90a: "FFMA", "MUFU\\.RSQ"), kind (its peak-model row),
// apply(acc, b, c) (__device__: one instruction), host_apply (the host twin, bit-exact where the
// hardware is; else `tolerance`, the relative error a chain may accumulate) and sample(seed, i,
// which) (host: an operand in the range where a chain stays finite).
//
// The operands b and c are kernel arguments (runtime values), so nothing folds; inline PTX is
// used where the compiler would otherwise rewrite a chain (integer adds become one multiply,
// approximate functions grow denormal fix-ups). tests/sass/compute_ops.cu checks every op.
//
// Your own operation in five lines (docs/compute.md):
//   struct dp4a_s32 : cuprobe::gen::op_base<int> {
//     static constexpr const char *name = "dp4a.s32.s32", *sass = "IDP\\.4A\\.S8\\.S8";
//     static constexpr double ops = 8;
//     __device__ static int apply(int a, int b, int c) { return __dp4a(a, b, c); }
//     static int host_apply(int a, int b, int c) { /* the same on the CPU */ }
//   };
#pragma once

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/model/op_kind.cuh"
#include "cuprobe/ptx/arith.cuh"

namespace cuprobe::gen {

/// The peak-model row of an operation (model/op_kind.cuh; model/peak.cuh looks it up).
using model::op_kind;

/// Which operand a random draw is for (op::sample).
enum class operand { init, b, c };

/// Two binary16 values packed as in a register, lane 0 in the low 16 bits. A plain struct
/// (trivially copyable, unlike __half2) so that device_buffer and memcpy take it.
struct f16x2 {
  std::uint32_t bits;  ///< The two values: lane 0 in bits 0-15, lane 1 in bits 16-31.
};
/// Two bfloat16 values packed as in a register, lane 0 in the low 16 bits.
struct bf16x2 {
  std::uint32_t bits;  ///< The two values: lane 0 in bits 0-15, lane 1 in bits 16-31.
};

namespace detail {

template <class T>
std::uint64_t bits_of(const T& v) {
  static_assert(sizeof(T) <= 8, "cuprobe: chain values are at most 8 bytes");
  std::uint64_t u = 0;
  std::memcpy(&u, &v, sizeof(T));
  return u;
}

/// The seed a draw for `which` uses: different operands get unrelated streams.
inline std::uint64_t operand_seed(std::uint64_t seed, operand which) {
  return cuprobe::detail::mix64(seed + 0x51ED2701u * (static_cast<unsigned>(which) + 1));
}

/// A binary floating-point format of 16 bits: `mant` stored significand bits, `exp` exponent
/// bits (binary16: 10 and 5; bfloat16: 7 and 8).
struct format16 {
  int mant;
  int exp;
  constexpr int bias() const { return (1 << (exp - 1)) - 1; }
};
inline constexpr format16 binary16{10, 5};
inline constexpr format16 bfloat16{7, 8};

/// The exact value of a 16-bit float's bits (NaN for NaN).
inline double decode16(std::uint16_t bits, format16 f) {
  const int e = (bits >> f.mant) & ((1 << f.exp) - 1);
  const int m = bits & ((1 << f.mant) - 1);
  const double sign = (bits >> 15) ? -1.0 : 1.0;
  if (e == (1 << f.exp) - 1) return m ? std::nan("") : sign * HUGE_VAL;
  if (e == 0) return sign * std::ldexp(m, 1 - f.bias() - f.mant);
  return sign * std::ldexp(m + (1 << f.mant), e - f.bias() - f.mant);
}

/// The bits of `v`, which must be representable in the format (or infinite).
inline std::uint16_t encode16(double v, format16 f) {
  const std::uint16_t sign = std::signbit(v) ? 0x8000u : 0u;
  v = std::fabs(v);
  if (v == 0) return sign;
  if (std::isinf(v)) return static_cast<std::uint16_t>(sign | (((1 << f.exp) - 1) << f.mant));
  int k = 0;
  std::frexp(v, &k);  // v = fraction x 2^k, fraction in [0.5, 1): the leading bit is 2^(k-1)
  const int top = k - 1;
  if (top < 1 - f.bias()) {  // subnormal: v is a multiple of the smallest subnormal
    const unsigned m = static_cast<unsigned>(std::ldexp(v, f.bias() - 1 + f.mant));
    return static_cast<std::uint16_t>(sign | m);
  }
  const unsigned m = static_cast<unsigned>(std::ldexp(v, f.mant - top)) - (1u << f.mant);
  return static_cast<std::uint16_t>(sign | ((top + f.bias()) << f.mant) | m);
}

/// s + err (s = fl(s + err) in double, |err| <= half an ulp of s) rounded to nearest-even in
/// the format, as a double. Only a tie at s can be broken by err: any other rounding boundary
/// strictly between s and s + err would be a double nearer to s + err than s is.
inline double round16(double s, double err, format16 f) {
  if (s == 0 || !std::isfinite(s)) return s;
  int k = 0;
  std::frexp(s, &k);
  const int top = (k - 1 > 1 - f.bias()) ? k - 1 : 1 - f.bias();
  const int q = top - f.mant;  // the exponent of one ulp
  const double scaled = std::ldexp(s, -q);
  const double low = std::floor(scaled);
  double r = 0;
  if (scaled - low == 0.5 && err != 0)
    r = err > 0 ? low + 1 : low;
  else
    r = std::nearbyint(scaled);  // the default rounding mode: to nearest, ties to even
  const double out = std::ldexp(r, q);
  return std::fabs(out) >= std::ldexp(1.0, f.bias() + 1) ? std::copysign(HUGE_VAL, s) : out;
}

/// a * b + c rounded once, for a, b, c in a 16-bit format: a * b is exact in double (at most
/// 22 significant bits), the sum and its exact error come from TwoSum, and round16 rounds the
/// exact value. This is the IEEE fused multiply-add of fma.rn.f16 / fma.rn.bf16.
inline std::uint16_t fma16(std::uint16_t a, std::uint16_t b, std::uint16_t c, format16 f) {
  const double p = decode16(a, f) * decode16(b, f), x = decode16(c, f);
  if (std::isnan(p) || std::isnan(x)) return static_cast<std::uint16_t>(0x7FFFu);
  const double s = p + x;
  const double bp = s - p;
  const double err = (p - (s - bp)) + (x - bp);
  return encode16(round16(s, std::isfinite(s) ? err : 0.0, f), f);
}

/// Lane-wise fma16 of two packed 16-bit values (lane 0 in the low half, as in the register).
template <class T>
T fma16x2(T a, T b, T c, format16 f) {
  auto lane = [&](int s) {
    return static_cast<std::uint32_t>(fma16(static_cast<std::uint16_t>(a.bits >> s),
                                            static_cast<std::uint16_t>(b.bits >> s),
                                            static_cast<std::uint16_t>(c.bits >> s), f));
  };
  return T{lane(0) | (lane(16) << 16)};
}

/// Two independent draws in [lo, hi), rounded to the format and packed like a 16x2 register.
template <class T>
T random16x2(std::uint64_t seed, std::uint64_t index, double lo, double hi, format16 f) {
  const auto lane = [&](std::uint64_t i) {
    return static_cast<std::uint32_t>(encode16(round16(host_random(seed, i, lo, hi), 0.0, f), f));
  };
  return T{lane(2 * index) | (lane(2 * index + 1) << 16)};
}

/// Readable text of a chain value: its number(s) and its bits.
inline std::string format_value(float v) {
  char s[64];
  std::snprintf(s, sizeof s, "%.9g (0x%08llx)", v, static_cast<unsigned long long>(bits_of(v)));
  return s;
}
inline std::string format_value(double v) {
  char s[64];
  std::snprintf(s, sizeof s, "%.17g (0x%016llx)", v, static_cast<unsigned long long>(bits_of(v)));
  return s;
}
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
std::string format_value(T v) {
  char s[64];
  std::snprintf(s, sizeof s, "%lld (0x%llx)", static_cast<long long>(v),
                static_cast<unsigned long long>(bits_of(v)));
  return s;
}
inline std::string format_16x2(std::uint32_t u, format16 f) {
  char s[96];
  std::snprintf(s, sizeof s, "{%.6g, %.6g} (0x%08x)", decode16(u & 0xFFFFu, f),
                decode16(static_cast<std::uint16_t>(u >> 16), f), u);
  return s;
}
inline std::string format_value(f16x2 v) { return format_16x2(v.bits, binary16); }
inline std::string format_value(bf16x2 v) { return format_16x2(v.bits, bfloat16); }

}  // namespace detail

/// Defaults for an operation on T: kind "other", bit-exact comparison, per-thread (no warp
/// exchange), and random operands (integers: every value; floating point: [-1, 1)).
template <class T>
struct op_base {
  using value_type = T;                            ///< The register type the chain carries.
  static constexpr op_kind kind = op_kind::other;  ///< The peak-model row: other.
  /// Largest relative difference a chain's result may have from the host reference; 0: exact.
  static constexpr double tolerance = 0;
  /// True for operations whose result depends on other lanes (see ops::shfl_idx).
  static constexpr bool warp_collective = false;

  /// A random operand for `which`: any integer, or a float in [-1, 1).
  static T sample(std::uint64_t seed, std::uint64_t index, operand which) {
    static_assert(std::is_arithmetic_v<T>,
                  "cuprobe::gen::op_base<T>::sample draws only arithmetic T; give your operation "
                  "its own static sample(seed, index, which)");
    const std::uint64_t s = detail::operand_seed(seed, which);
    if constexpr (std::is_integral_v<T>)
      return host_random<T>(s, index, std::numeric_limits<T>::min(), std::numeric_limits<T>::max());
    else
      return host_random<T>(s, index, T(-1), T(1));
  }
};

namespace detail {
inline double draw(std::uint64_t s, std::uint64_t i, double lo, double hi, double*) {
  return host_random(s, i, lo, hi);
}
inline float draw(std::uint64_t s, std::uint64_t i, double lo, double hi, float*) {
  return host_random(s, i, static_cast<float>(lo), static_cast<float>(hi));
}
inline f16x2 draw(std::uint64_t s, std::uint64_t i, double lo, double hi, f16x2*) {
  return random16x2<f16x2>(s, i, lo, hi, binary16);
}
inline bf16x2 draw(std::uint64_t s, std::uint64_t i, double lo, double hi, bf16x2*) {
  return random16x2<bf16x2>(s, i, lo, hi, bfloat16);
}
}  // namespace detail

/// Floating-point multiply-add chains x <- x * b + c: with b in [0.5, 0.999) and c in
/// [-0.25, 0.25) they stay bounded (|x| below max(|x0|, 250)) for any number of steps.
template <class T>
struct contracting_op : op_base<T> {
  /// A random operand: b in [0.5, 0.999), c in [-0.25, 0.25), the start in [-1, 1).
  static T sample(std::uint64_t seed, std::uint64_t index, operand which) {
    const double lo = which == operand::b ? 0.5 : which == operand::c ? -0.25 : -1.0;
    const double hi = which == operand::b ? 0.999 : which == operand::c ? 0.25 : 1.0;
    return detail::draw(detail::operand_seed(seed, which), index, lo, hi, static_cast<T*>(nullptr));
  }
};

namespace ops {

/// fma.rn.f32: acc * b + c, one FFMA, 2 FLOP. The host twin is std::fma: both round once.
struct fma_f32 : contracting_op<float> {
  static constexpr const char* name = "fma.rn.f32";   ///< Its PTX spelling.
  static constexpr double ops = 2;                    ///< FLOP per instruction.
  static constexpr const char* sass = "FFMA";         ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::fp32_fma;  ///< Its peak-model row.
  /// One step of the chain on the device: one FFMA.
  __device__ static float apply(float acc, float b, float c) { return __fmaf_rn(acc, b, c); }
  /// The host twin: std::fma, rounded once.
  static float host_apply(float acc, float b, float c) { return std::fma(acc, b, c); }
};

/// add.rn.f32: acc + b, one FADD, 1 FLOP (c is unused). __fadd_rn is never contracted.
struct add_f32 : op_base<float> {
  static constexpr const char* name = "add.rn.f32";   ///< Its PTX spelling.
  static constexpr double ops = 1;                    ///< FLOP per instruction.
  static constexpr const char* sass = "FADD";         ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::fp32_add;  ///< Its peak-model row.
  /// One step of the chain on the device: one FADD.
  __device__ static float apply(float acc, float b, float) { return __fadd_rn(acc, b); }
  /// The host twin: acc + b.
  static float host_apply(float acc, float b, float) { return acc + b; }
};

/// mul.rn.f32: acc * b, one FMUL, 1 FLOP (c is unused). b is drawn within 2^-16 of 1, so that
/// a chain of a million steps neither overflows nor underflows.
struct mul_f32 : op_base<float> {
  static constexpr const char* name = "mul.rn.f32";   ///< Its PTX spelling.
  static constexpr double ops = 1;                    ///< FLOP per instruction.
  static constexpr const char* sass = "FMUL";         ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::fp32_mul;  ///< Its peak-model row.
  /// One step of the chain on the device: one FMUL.
  __device__ static float apply(float acc, float b, float) { return __fmul_rn(acc, b); }
  /// The host twin: acc * b.
  static float host_apply(float acc, float b, float) { return acc * b; }
  /// A random operand: b within 2^-16 of 1, the others in [0.5, 2).
  static float sample(std::uint64_t seed, std::uint64_t index, operand which) {
    const std::uint64_t s = detail::operand_seed(seed, which);
    if (which == operand::b) return host_random<float>(s, index, 1.f - 0x1p-16f, 1.f + 0x1p-16f);
    return host_random<float>(s, index, 0.5f, 2.f);
  }
};

/// What fma.rn.f16x2 and fma.rn.bf16x2 share: 4 FLOP (2 lanes x FMA), the contracting operand
/// ranges, and the host twin, which rounds the exact a * b + c of each lane once
/// (detail::fma16), as the hardware does.
template <class T>
struct packed16_fma : contracting_op<T> {
  static constexpr double ops = 4;  ///< FLOP per instruction.
  /// The host twin: each lane's exact a * b + c, rounded once.
  static T host_apply(T acc, T b, T c) {
    constexpr detail::format16 f = std::is_same_v<T, f16x2> ? detail::binary16 : detail::bfloat16;
    return detail::fma16x2(acc, b, c, f);
  }
};

/// fma.rn.f16x2: two half-precision FMAs in one HFMA2. On sm_90 ptxas spreads independent
/// HFMA2 over two pipes, spelling half of them HFMA2.MMA.
struct hfma2_f16 : packed16_fma<f16x2> {
  static constexpr const char* name = "fma.rn.f16x2";               ///< Its PTX spelling.
  static constexpr const char* sass = "HFMA2(\\.MMA)? R[0-9]+, R";  ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::fp16x2_fma;              ///< Its peak-model row.
  /// One step of the chain on the device: one HFMA2.
  __device__ static f16x2 apply(f16x2 acc, f16x2 b, f16x2 c) {
    return f16x2{ptx::fma_rn_f16x2(acc.bits, b.bits, c.bits)};
  }
};

/// fma.rn.bf16x2: two bfloat16 FMAs in one HFMA2.BF16_V2 on sm_90 (HFMA2.MMA.BF16_V2 for the
/// half ptxas puts on the second pipe). Native from sm_80; refused, with a sentence, when
/// instantiated for an older target.
struct hfma2_bf16 : packed16_fma<bf16x2> {
  static constexpr const char* name = "fma.rn.bf16x2";               ///< Its PTX spelling.
  static constexpr const char* sass = "HFMA2(\\.MMA)?\\.BF16_V2 R";  ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::bf16x2_fma;               ///< Its peak-model row.
  /// One step of the chain on the device: one HFMA2.BF16_V2 (sm_80 or newer).
  template <class T = bf16x2>  // a template, so that the guard fires only when used
  __device__ static T apply(T acc, T b, T c) {
    CUPROBE_REQUIRE_SM(800, T,
                       "cuprobe::gen::ops::hfma2_bf16 needs sm_80 or newer (fma.rn.bf16x2)");
    return T{ptx::fma_rn_bf16x2(acc.bits, b.bits, c.bits)};
  }
};

/// fma.rn.f64: acc * b + c, one DFMA, 2 FLOP; host twin std::fma.
struct fma_f64 : contracting_op<double> {
  static constexpr const char* name = "fma.rn.f64";   ///< Its PTX spelling.
  static constexpr double ops = 2;                    ///< FLOP per instruction.
  static constexpr const char* sass = "DFMA";         ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::fp64_fma;  ///< Its peak-model row.
  /// One step of the chain on the device: one DFMA.
  __device__ static double apply(double acc, double b, double c) { return __fma_rn(acc, b, c); }
  /// The host twin: std::fma.
  static double host_apply(double acc, double b, double c) { return std::fma(acc, b, c); }
};

/// mad.lo.u32: acc * b + c modulo 2^32, one IMAD, counted as 1 op. Inline PTX keeps the
/// optimiser from reshaping the unrolled polynomial.
struct imad_u32 : op_base<unsigned> {
  static constexpr const char* name = "mad.lo.u32";               ///< Its PTX spelling.
  static constexpr double ops = 1;                                ///< Operations per instruction.
  static constexpr const char* sass = "IMAD R[0-9]+, U?R[0-9]+";  ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::int32_mad;             ///< Its peak-model row.
  /// One step of the chain on the device: one IMAD.
  __device__ static unsigned apply(unsigned acc, unsigned b, unsigned c) {
    return ptx::mad_lo_u32(acc, b, c);
  }
  /// The host twin: acc * b + c modulo 2^32.
  static unsigned host_apply(unsigned acc, unsigned b, unsigned c) { return acc * b + c; }
};

/// Two add.u32, acc + b + c modulo 2^32, which ptxas fuses into one three-input IADD3:
/// 1 op (one integer instruction). In plain C++ the optimiser turns a chain of adds into
/// acc + n * b, and ptxas turns two PTX adds of the same b into one IMAD; adding b and c in
/// every step leaves it one dependent IADD3 per step (checked in tests/sass/compute_ops.cu).
struct iadd3_u32 : op_base<unsigned> {
  static constexpr const char* name = "add.u32+add.u32";           ///< Its PTX spelling.
  static constexpr double ops = 1;                                 ///< Operations per instruction.
  static constexpr const char* sass = "IADD3 R[0-9]+, U?R[0-9]+";  ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::int32_add;              ///< Its peak-model row.
  /// One step of the chain on the device: one IADD3.
  __device__ static unsigned apply(unsigned acc, unsigned b, unsigned c) {
    return ptx::add3_u32(acc, b, c);
  }
  /// The host twin: acc + b + c modulo 2^32.
  static unsigned host_apply(unsigned acc, unsigned b, unsigned c) { return acc + b + c; }
};

/// lop3.b32 with LUT 0x6A, (acc & b) ^ c: one LOP3.LUT, 1 op. The host twin evaluates the
/// truth table bit by bit, so another LUT needs only a new constant.
struct lop3_b32 : op_base<unsigned> {
  static constexpr unsigned lut = 0x6A;  ///< (a & b) ^ c with a = 0xF0, b = 0xCC, c = 0xAA
  static constexpr const char* name = "lop3.b32";    ///< Its PTX spelling.
  static constexpr double ops = 1;                   ///< Operations per instruction.
  static constexpr const char* sass = "LOP3\\.LUT";  ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::logic;    ///< Its peak-model row.
  /// One step of the chain on the device: one LOP3.LUT.
  __device__ static unsigned apply(unsigned acc, unsigned b, unsigned c) {
    return ptx::lop3_b32<lut>(acc, b, c);
  }
  /// The host twin: the truth table `lut`, bit by bit.
  static unsigned host_apply(unsigned a, unsigned b, unsigned c) {
    unsigned r = 0;
    for (int i = 0; i < 32; ++i) {
      const unsigned idx = (((a >> i) & 1u) << 2) | (((b >> i) & 1u) << 1) | ((c >> i) & 1u);
      r |= ((lut >> idx) & 1u) << i;
    }
    return r;
  }
};

/// rsqrt.approx.ftz.f32: acc <- 1 / sqrt(acc), one MUFU.RSQ (b and c are unused), 1 op. The
/// .ftz form is a single MUFU; without it ptxas adds a denormal fix-up around it. The chain
/// x -> x^(-1/2) is a contraction towards 1 (relative errors halve each step), so with the
/// instruction's relative error below 2^-22.9 (PTX ISA, rsqrt) a whole chain stays within
/// 2 x (2^-22.9 + 2^-24) of the double-precision reference: `tolerance` is 1e-6.
struct rsqrt_f32 : op_base<float> {
  static constexpr const char* name = "rsqrt.approx.ftz.f32";  ///< Its PTX spelling.
  static constexpr double ops = 1;                             ///< FLOP per instruction.
  static constexpr const char* sass = "MUFU\\.RSQ";            ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::special_function;   ///< Its peak-model row.
  static constexpr double tolerance = 1e-6;  ///< The relative error a whole chain may accumulate.
  /// One step of the chain on the device: one MUFU.RSQ.
  __device__ static float apply(float acc, float, float) { return ptx::rsqrt_approx_ftz_f32(acc); }
  /// The host twin: 1 / sqrt(acc) in double precision.
  static float host_apply(float acc, float, float) {
    return static_cast<float>(1.0 / std::sqrt(static_cast<double>(acc)));
  }
  /// A random operand in [0.25, 4).
  static float sample(std::uint64_t seed, std::uint64_t index, operand which) {
    return host_random<float>(detail::operand_seed(seed, which), index, 0.25f, 4.f);
  }
};

/// shfl.sync.idx.b32: every lane takes the value of lane (lane + b) mod 32, one SHFL.IDX, 1 op
/// (c is unused). The value travels around the warp, so the reference simulates whole warps
/// (host_apply_warp) and launches need whole warps (blocks of a multiple of 32 threads).
struct shfl_idx : op_base<unsigned> {
  static constexpr const char* name = "shfl.sync.idx.b32";  ///< Its PTX spelling.
  static constexpr double ops = 1;                          ///< Operations per instruction.
  static constexpr const char* sass = "SHFL\\.IDX";         ///< Its SASS (a regex).
  static constexpr op_kind kind = op_kind::shuffle;         ///< Its peak-model row.
  static constexpr bool warp_collective = true;  ///< The value of each lane depends on other lanes.
  /// One step of the chain on the device: one SHFL.IDX from lane (lane + b) mod 32.
  __device__ static unsigned apply(unsigned acc, unsigned b, unsigned) {
    // The source lane is the low 5 bits of threadIdx.x + b: loop-invariant, computed once.
    return __shfl_sync(0xFFFFFFFFu, acc, static_cast<int>(threadIdx.x + b));
  }
  /// The host twin, over a whole warp: lane l takes the value of lane (l + b) mod 32.
  static void host_apply_warp(std::array<unsigned, 32>& lanes, unsigned b, unsigned) {
    const std::array<unsigned, 32> in = lanes;
    for (unsigned l = 0; l < 32; ++l) lanes[l] = in[(l + b) & 31u];
  }
  /// A random operand: b in [1, 31] (a shift that moves the value), the others any.
  static unsigned sample(std::uint64_t seed, std::uint64_t index, operand which) {
    const std::uint64_t s = detail::operand_seed(seed, which);
    return which == operand::b ? host_random<unsigned>(s, index, 1u, 31u)
                               : host_random<unsigned>(s, index, 0u, ~0u);
  }
};

}  // namespace ops

}  // namespace cuprobe::gen
