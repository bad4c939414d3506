// cuprobe_suite/kernels/wgmma_check.cuh: the host twins of wgmma kernels: element codecs (a
// float rounded to a wgmma input type, and its raw bits), random operand tiles, the fp64 reference
// of D = A x B^T and the comparison of a kernel's D with it, with the tolerance of each type. Host
// only; the wgmma GPU tests (tests/gpu/wgmma_tile.cu) and the benchmarks
// (cuprobe_suite/kernels/wgmma.cuh, cuprobe_suite/wgmma.cuh) share it.
//
//   namespace wg = cuprobe::ptx::wgmma;  namespace kernels = cuprobe::suite::kernels;
//   std::vector<std::uint8_t> a_raw, b_raw;                             // what the GPU gets
//   auto a = kernels::wgmma_random_values<wg::bf16>(64 * 64, 1, a_raw);  // what it means
//   auto b = kernels::wgmma_random_values<wg::bf16>(256 * 64, 2, b_raw);
//   auto ref = kernels::wgmma_reference_of(a, b, 64, 256, 64);     // fp64, D = A B^T
//   auto c = kernels::wgmma_compare(d_from_gpu, ref, kernels::wgmma_tolerance<wg::f32,
//   wg::bf16>()); if (!c.ok) std::puts(c.message.c_str());
//
// The comparison: the relative Frobenius error ||D - ref|| / ||ref|| and every element against
// tol x (sum_k |a b| + |c|) (the scale: a sum of products of random signs cancels, so a relative
// error per element would be meaningless); a non-finite element fails. Tolerances: 1e-3 for f32
// accumulation of 16-bit or tf32 inputs, 1e-2 for f16 accumulation, 2e-2 for fp8 inputs (their
// MMA accumulates with fewer bits than fp32).
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/ptx/wgmma.cuh"

namespace cuprobe::suite::kernels {

/// Host codec of a wgmma input type: encode(v) rounds v to the type (to nearest; fp8
/// saturating) and gives its raw bits, decode(raw) the value those bits hold.
template <class T>
struct wgmma_codec;
namespace detail {
/// The 16-bit types through their CUDA type T (float -> T rounds to nearest) and its raw struct.
template <class T, class Raw>
struct codec16 {
  using raw = std::uint16_t;
  static raw encode(float v) { return Raw(T(v)).x; }
  static float decode(raw r) {
    Raw b;
    b.x = r;
    return float(T(b));
  }
};
}  // namespace detail
template <>
struct wgmma_codec<ptx::wgmma::bf16> : detail::codec16<__nv_bfloat16, __nv_bfloat16_raw> {};
template <>
struct wgmma_codec<ptx::wgmma::f16> : detail::codec16<__half, __half_raw> {};
template <>
struct wgmma_codec<ptx::wgmma::tf32> {  ///< an fp32 with the low 13 mantissa bits zero (rounded)
  using raw = std::uint32_t;
  static raw encode(float v) {
    raw u;
    std::memcpy(&u, &v, 4);
    return (u + 0x1000u) & 0xFFFFE000u;
  }
  static float decode(raw r) {
    float v;
    std::memcpy(&v, &r, 4);
    return v;
  }
};
namespace detail {
template <__nv_fp8_interpretation_t I>
struct fp8_codec {
  using raw = std::uint8_t;
  static raw encode(float v) { return __nv_cvt_float_to_fp8(v, __NV_SATFINITE, I); }
  static float decode(raw r) { return __half2float(__half(__nv_cvt_fp8_to_halfraw(r, I))); }
};
}  // namespace detail
template <>
struct wgmma_codec<ptx::wgmma::e4m3> : detail::fp8_codec<__NV_E4M3> {};
template <>
struct wgmma_codec<ptx::wgmma::e5m2> : detail::fp8_codec<__NV_E5M2> {};

/// `n` values drawn uniformly from [-1, 1) (std::mt19937_64 seeded with `seed`) and rounded to
/// T; `raw` receives their bits (sizeof(raw) bytes each, little-endian, in order).
template <class T>
std::vector<float> wgmma_random_values(std::size_t n, std::uint64_t seed,
                                       std::vector<std::uint8_t>& raw) {
  using R = typename wgmma_codec<T>::raw;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  raw.assign(n * sizeof(R), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const R r = wgmma_codec<T>::encode(u(rng));
    v[i] = wgmma_codec<T>::decode(r);
    std::memcpy(raw.data() + i * sizeof(R), &r, sizeof(R));
  }
  return v;
}

/// The raw bits of `v` in type T (each value rounded by the codec).
template <class T>
std::vector<std::uint8_t> wgmma_raw_of(const std::vector<float>& v) {
  using R = typename wgmma_codec<T>::raw;
  std::vector<std::uint8_t> raw(v.size() * sizeof(R));
  for (std::size_t i = 0; i < v.size(); ++i) {
    const R r = wgmma_codec<T>::encode(v[i]);
    std::memcpy(raw.data() + i * sizeof(R), &r, sizeof(R));
  }
  return raw;
}

/// The tolerance of D = A x B (+ C) for accumulator D and input A (see the file comment).
template <class D, class A>
constexpr double wgmma_tolerance() {
  if constexpr (ptx::wgmma::is_fp8_v<A>)
    return 2e-2;
  else if constexpr (std::is_same_v<D, ptx::wgmma::f16>)
    return 1e-2;
  else
    return 1e-3;
}

/// The fp64 reference of a rows x cols tile: d = repeat x ab_scale x (A B^T) (+ C), with
/// scale = repeat x sum_k |a b| (+ |c|), the per-element error scale.
struct wgmma_reference {
  int rows = 0, cols = 0;
  std::vector<double> d, scale;  ///< rows x cols, row-major
};

/// A (rows x k) and B (cols x k), row-major, as the values the tensor core multiplies (already
/// rounded to their type; for sparse A the pruned dense matrix). `repeat`: how many times the
/// same product was accumulated (a benchmark that re-runs one K block); `c`: the initial
/// accumulator (rows x cols) or nullptr for zero.
inline wgmma_reference wgmma_reference_of(const std::vector<float>& a, const std::vector<float>& b,
                                          int rows, int cols, int k, double ab_scale = 1.0,
                                          const std::vector<float>* c = nullptr,
                                          double repeat = 1.0) {
  require(rows > 0 && cols > 0 && k > 0 && a.size() == std::size_t(rows) * std::size_t(k) &&
              b.size() == std::size_t(cols) * std::size_t(k) &&
              (!c || c->size() == std::size_t(rows) * std::size_t(cols)),
          "wgmma_reference_of: A must be rows x k and B cols x k (and C rows x cols), got " +
              std::to_string(a.size()) + " and " + std::to_string(b.size()) + " elements for " +
              std::to_string(rows) + " x " + std::to_string(cols) + " x " + std::to_string(k));
  wgmma_reference r;
  r.rows = rows;
  r.cols = cols;
  r.d.assign(std::size_t(rows) * std::size_t(cols), 0.0);
  r.scale.assign(r.d.size(), 0.0);
  for (int m = 0; m < rows; ++m)
    for (int n = 0; n < cols; ++n) {
      double sum = 0, abs = 0;
      for (int j = 0; j < k; ++j) {
        const double ab = double(a[std::size_t(m) * k + j]) * double(b[std::size_t(n) * k + j]);
        sum += ab;
        abs += std::fabs(ab);
      }
      const std::size_t i = std::size_t(m) * cols + n;
      const double cv = c ? double((*c)[i]) : 0.0;
      r.d[i] = repeat * ab_scale * sum + cv;
      r.scale[i] = repeat * abs + std::fabs(cv);
    }
  return r;
}

/// What wgmma_compare found.
struct wgmma_comparison {
  bool ok = false;
  double frobenius = 0;  ///< ||D - ref|| / ||ref|| (0 when both are zero; NaN with non-finite D)
  double worst = 0;      ///< the largest |D - ref| / (scale + 1e-6)
  int non_finite = 0;    ///< elements of D that are NaN or infinite
  int out_of_bound = 0;  ///< elements whose error is above tol x scale
  int first_bad = -1;    ///< index of the first non-finite or out-of-bound element
  double tolerance = 0;
  std::string message;  ///< one sentence with the numbers (and the first bad element)
};

/// Compares `d` (the kernel's D, rows x cols row-major) with `ref` at tolerance `tol`.
inline wgmma_comparison wgmma_compare(const std::vector<float>& d, const wgmma_reference& ref,
                                      double tol) {
  require(d.size() == ref.d.size(), "wgmma_compare: D has " + std::to_string(d.size()) +
                                        " elements, the reference " + std::to_string(ref.d.size()));
  wgmma_comparison c;
  c.tolerance = tol;
  double err2 = 0, ref2 = 0;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!std::isfinite(d[i])) {
      ++c.non_finite;
      if (c.first_bad < 0) c.first_bad = int(i);
      continue;
    }
    const double e = std::fabs(double(d[i]) - ref.d[i]);
    err2 += e * e;
    ref2 += ref.d[i] * ref.d[i];
    const double r = e / (ref.scale[i] + 1e-6);
    c.worst = std::max(c.worst, r);
    if (r > tol) {
      ++c.out_of_bound;
      if (c.first_bad < 0) c.first_bad = int(i);
    }
  }
  c.frobenius = c.non_finite ? NAN : ref2 > 0 ? std::sqrt(err2 / ref2) : (err2 > 0 ? INFINITY : 0);
  c.ok = c.non_finite == 0 && c.out_of_bound == 0 && c.frobenius <= tol;
  c.message = "relative Frobenius error " + std::to_string(c.frobenius) +
              ", worst element error / sum|ab| " + std::to_string(c.worst) + ", tolerance " +
              std::to_string(tol) + ", non-finite " + std::to_string(c.non_finite) +
              ", out of bound " + std::to_string(c.out_of_bound);
  if (c.first_bad >= 0) {
    const std::size_t i = std::size_t(c.first_bad);
    c.message += "; first bad element D(" + std::to_string(int(i) / ref.cols) + ", " +
                 std::to_string(int(i) % ref.cols) + ") = " + std::to_string(d[i]) +
                 ", reference " + std::to_string(ref.d[i]);
  }
  return c;
}

}  // namespace cuprobe::suite::kernels
