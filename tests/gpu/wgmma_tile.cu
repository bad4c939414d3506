// The one-warpgroup tile harness of the wgmma GPU tests: included by tests/gpu/wgmma.cu and
// tests/gpu/wgmma_sparse.cu, not a test program by itself.
//
// One block of 128 threads (one warpgroup) stores a random 64 x K A and N x K B (row-major on
// the host, B as N x K, i.e. D = A * B^T) into shared memory with ordinary stores, in the
// canonical layout asked for (K- or MN-major, any swizzle; ptx/detail/wgmma_desc.cuh says where
// each element goes), fences the generic proxy against the async one
// (fence.proxy.async.shared::cta), loads C into the accumulator through accumulator_coord, runs
// four K steps of mma_async (SS or RS, dense or sparse; the first with the run-time scale_d),
// waits, and writes D through the same map. The host compares D with an fp64 reference built
// from the exact (already rounded) input values: the relative Frobenius error and every element
// against tol x (sum_k |a b| + |c|), the tolerance of the type. The output starts as NaN
// (0xFF bytes), so an element left unwritten, and any NaN, fails.
#pragma once

#include <cuprobe/ptx/fence.cuh>
#include <cuprobe/ptx/wgmma.cuh>
#include <cuprobe/testing/doctest.cuh>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

namespace wgt {

namespace wg = cuprobe::ptx::wgmma;
using wg::major;

// ---- Host codecs: a float rounded to the element type, and its raw bits. ----
template <class T>
struct codec;
template <>
struct codec<wg::bf16> {
  using raw = std::uint16_t;
  static raw encode(float v) { return __nv_bfloat16_raw(__float2bfloat16_rn(v)).x; }
  static float decode(raw r) {
    __nv_bfloat16_raw b;
    b.x = r;
    return __bfloat162float(__nv_bfloat16(b));
  }
};
template <>
struct codec<wg::f16> {
  using raw = std::uint16_t;
  static raw encode(float v) { return __half_raw(__float2half_rn(v)).x; }
  static float decode(raw r) {
    __half_raw h;
    h.x = r;
    return __half2float(__half(h));
  }
};
template <>
struct codec<wg::tf32> {  // an fp32 with the low 13 mantissa bits zero (rounded)
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
template <__nv_fp8_interpretation_t I>
struct fp8_codec {
  using raw = std::uint8_t;
  static raw encode(float v) { return __nv_cvt_float_to_fp8(v, __NV_SATFINITE, I); }
  static float decode(raw r) { return __half2float(__half(__nv_cvt_fp8_to_halfraw(r, I))); }
};
template <>
struct codec<wg::e4m3> : fp8_codec<__NV_E4M3> {};
template <>
struct codec<wg::e5m2> : fp8_codec<__NV_E5M2> {};

/// One test configuration (all compile-time: the instruction's immediates and shape).
template <class D_, int N_, class A_, class B_, bool RS_ = false, bool Sparse_ = false,
          int Sel_ = 0, major MA_ = major::k, major MB_ = major::k, int SA_ = 1, int SB_ = 1>
struct cfg {
  using D = D_;
  using A = A_;
  using B = B_;
  static constexpr int n = N_, sel = Sel_, sa = SA_, sb = SB_;
  static constexpr bool rs = RS_, sparse = Sparse_;
  static constexpr major ma = MA_, mb = MB_;
  static constexpr int steps = 4;
  static constexpr int step_k = Sparse_ ? wg::sparse_k_v<A_> : wg::dense_k_v<A_>;  // B's K per step
  static constexpr int k = steps * step_k;                                         // B's K
  static constexpr int ka = Sparse_ ? k / 2 : k;  // stored A elements per row
  static constexpr int step_ka = ka / steps;
};

struct tile_args {
  const unsigned char* a;       // 64 x ka raw elements, row-major
  const unsigned char* b;       // n x k raw elements, row-major
  const std::uint32_t* meta;    // steps x 128 metadata words (sparse)
  const float* c;               // 64 x n
  float* d;                     // 64 x n
  wg::canonical_layout la, lb;  // where A and B go in shared memory
  std::uint32_t a_bytes;        // B's offset from A's (1024-byte multiple)
  bool scale_d;                 // the first step adds C
};

template <int E>
__device__ __forceinline__ std::uint32_t load_raw(const unsigned char* p, std::size_t i) {
  if constexpr (E == 1)
    return p[i];
  else if constexpr (E == 2)
    return reinterpret_cast<const std::uint16_t*>(p)[i];
  else
    return reinterpret_cast<const std::uint32_t*>(p)[i];
}
template <int E>
__device__ __forceinline__ void store_tile(unsigned char* smem, const wg::canonical_layout& l,
                                           const unsigned char* src, int rows, int cols) {
  for (int i = int(threadIdx.x); i < rows * cols; i += 128) {
    const int r = i / cols, c = i % cols;
    const std::uint32_t v = load_raw<E>(src, std::size_t(i));
    unsigned char* p = smem + l.swizzled_offset(r, c);
    if constexpr (E == 1)
      *p = static_cast<std::uint8_t>(v);
    else if constexpr (E == 2)
      *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(v);
    else
      *reinterpret_cast<std::uint32_t*>(p) = v;
  }
}

template <class C>
__global__ void __launch_bounds__(128) tile_kernel(tile_args p) {
  using A = typename C::A;
  using B = typename C::B;
  constexpr int N = C::n, S = C::steps;
  extern __shared__ unsigned char smem_raw[];
  const std::uint32_t raw_addr = static_cast<std::uint32_t>(__cvta_generic_to_shared(smem_raw));
  const std::uint32_t pad = (1024u - raw_addr % 1024u) % 1024u;  // swizzle atoms: 1024-aligned
  unsigned char* smem = smem_raw + pad;
  const std::uint32_t sa = raw_addr + pad, sb = sa + p.a_bytes;
  const int t = int(threadIdx.x);

  if constexpr (!C::rs) store_tile<A::bytes>(smem, p.la, p.a, 64, C::ka);
  store_tile<B::bytes>(smem + p.a_bytes, p.lb, p.b, N, C::k);
  cuprobe::ptx::fence_proxy_async_shared_cta();  // generic-proxy stores -> async proxy (wgmma)
  __syncthreads();

  wg::accumulator<typename C::D, N> acc;
#pragma unroll
  for (int e = 0; e < acc.elements; ++e) {
    const wg::coord q = wg::accumulator_coord(t, e);
    acc.set(e, p.c[q.row * N + q.col]);
  }
  wg::a_fragment<A> f[S];
  std::uint64_t da[S], db[S];
  std::uint32_t meta[S];
#pragma unroll
  for (int s = 0; s < S; ++s) {
#pragma unroll
    for (int i = 0; i < 4; ++i) f[s].reg[i] = 0;
    if constexpr (C::rs) {
#pragma unroll
      for (int e = 0; e < wg::a_fragment_elements_v<A>; ++e) {
        const wg::coord q = wg::a_fragment_coord<A>(t, e);
        f[s].set_bits(e,
                      load_raw<A::bytes>(p.a, std::size_t(q.row) * C::ka + s * C::step_ka + q.col));
      }
    }
    da[s] = p.la.descriptor_at(sa, s * C::step_ka).encode();
    db[s] = p.lb.descriptor_at(sb, s * C::step_k).encode();
    meta[s] = C::sparse ? p.meta[s * 128 + t] : 0u;
  }
  wg::fence_operand(acc);
#pragma unroll
  for (int s = 0; s < S; ++s) wg::fence_operand(f[s]);
  wg::fence();
#pragma unroll
  for (int s = 0; s < S; ++s) {
    const bool sd = s == 0 ? p.scale_d : true;
    if constexpr (!C::sparse && !C::rs)
      wg::mma_async<A, B, C::ma, C::mb, C::sa, C::sb>(acc, da[s], db[s], sd);
    else if constexpr (!C::sparse)
      wg::mma_async<A, B, C::ma, C::mb, C::sa, C::sb>(acc, f[s], db[s], sd);
    else if constexpr (!C::rs)
      wg::mma_async_sp<A, B, C::sel, C::ma, C::mb, C::sa, C::sb>(acc, da[s], db[s], meta[s], sd);
    else
      wg::mma_async_sp<A, B, C::sel, C::ma, C::mb, C::sa, C::sb>(acc, f[s], db[s], meta[s], sd);
  }
  wg::commit_group();
  wg::wait_group<0>();
  wg::fence_operand(acc);
#pragma unroll
  for (int e = 0; e < acc.elements; ++e) {
    const wg::coord q = wg::accumulator_coord(t, e);
    p.d[q.row * N + q.col] = acc.get(e);
  }
}

/// The tolerance of a type combination (relative Frobenius error, and per element against
/// sum_k |a b| + |c|): f32 accumulation of 16-bit or tf32 inputs 1e-3, f16 accumulation 1e-2,
/// fp8 inputs 2e-2 (the fp8 MMA accumulates with fewer bits than fp32).
template <class C>
constexpr double tolerance() {
  if constexpr (wg::is_fp8_v<typename C::A>)
    return 2e-2;
  else if constexpr (std::is_same_v<typename C::D, wg::f16>)
    return 1e-2;
  else
    return 1e-3;
}

template <class T>
std::vector<float> random_values(std::size_t n, std::uint64_t seed,
                                 std::vector<std::uint8_t>& raw) {
  using R = typename codec<T>::raw;
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  raw.assign(n * sizeof(R), 0);
  for (std::size_t i = 0; i < n; ++i) {
    const R r = codec<T>::encode(u(rng));
    v[i] = codec<T>::decode(r);
    std::memcpy(raw.data() + i * sizeof(R), &r, sizeof(R));
  }
  return v;
}
template <class T>
std::vector<std::uint8_t> raw_of(const std::vector<float>& v) {
  using R = typename codec<T>::raw;
  std::vector<std::uint8_t> raw(v.size() * sizeof(R));
  for (std::size_t i = 0; i < v.size(); ++i) {
    const R r = codec<T>::encode(v[i]);
    std::memcpy(raw.data() + i * sizeof(R), &r, sizeof(R));
  }
  return raw;
}

/// Runs one tile of configuration C with the given shared-memory layouts and checks D.
template <class C>
void run_tile(wg::swizzle swizzle_a, wg::swizzle swizzle_b, bool scale_d, std::uint64_t seed) {
  using A = typename C::A;
  using B = typename C::B;
  constexpr int N = C::n, K = C::k;
  INFO("D = ", C::D::name, ", A = ", A::name, ", B = ", B::name, ", N = ", N, ", K = ", K,
       C::rs ? ", A in registers" : ", A in shared memory", C::sparse ? ", sparse" : "",
       ", selector ", C::sel, ", A ", C::ma == major::mn ? "M" : "K", "-major swizzle ",
       wg::swizzle_name(swizzle_a), ", B ", C::mb == major::mn ? "N" : "K", "-major swizzle ",
       wg::swizzle_name(swizzle_b), ", scale A ", C::sa, ", scale B ", C::sb, ", scale_d ",
       scale_d);
  std::vector<std::uint8_t> a_raw, b_raw;
  std::vector<float> a = random_values<A>(std::size_t(64) * K, seed, a_raw);
  const std::vector<float> b = random_values<B>(std::size_t(N) * K, seed + 1, b_raw);
  std::vector<float> c(std::size_t(64) * N);
  {
    std::mt19937_64 rng(seed + 2);
    std::uniform_real_distribution<float> u(-1.f, 1.f);
    for (auto& x : c) x = codec<wg::f16>::decode(codec<wg::f16>::encode(u(rng)));  // f16-exact
  }
  std::vector<std::uint32_t> meta(C::steps * 128, 0);
  if constexpr (C::sparse) {
    const wg::sparse_tile s = wg::prune_2_4<A>(a, K, C::sel);
    a = s.pruned;  // what the tensor core multiplies
    a_raw = raw_of<A>(s.compressed);
    meta = s.metadata;
  }
  // fp64 reference and the per-element error scale.
  std::vector<double> ref(std::size_t(64) * N), scale(ref.size());
  for (int m = 0; m < 64; ++m)
    for (int n = 0; n < N; ++n) {
      double sum = 0, abs = 0;
      for (int k = 0; k < K; ++k) {
        const double ab = double(a[std::size_t(m) * K + k]) * double(b[std::size_t(n) * K + k]);
        sum += ab;
        abs += std::fabs(ab);
      }
      const double cv = scale_d ? double(c[std::size_t(m) * N + n]) : 0.0;
      ref[std::size_t(m) * N + n] = double(C::sa * C::sb) * sum + cv;
      scale[std::size_t(m) * N + n] = abs + std::fabs(cv);
    }

  const auto la = wg::canonical_layout::of<A>(swizzle_a, C::ma, 64, C::ka);
  const auto lb = wg::canonical_layout::of<B>(swizzle_b, C::mb, N, K);
  la.validate("A tile");
  lb.validate("B tile");
  const std::uint32_t a_bytes = (la.size_bytes() + 1023u) / 1024u * 1024u;
  const std::size_t smem = a_bytes + lb.size_bytes() + 1024;
  cuprobe::device_buffer<std::uint8_t> da(a_raw.size()), db(b_raw.size());
  cuprobe::device_buffer<std::uint32_t> dm(meta.size());
  cuprobe::device_buffer<float> dc(c.size()), dd(c.size());
  da.upload(a_raw);
  db.upload(b_raw);
  dm.upload(meta);
  dc.upload(c);
  dd.poison(0xFF);  // NaN
  CUPROBE_CHECK(
      cudaFuncSetAttribute(tile_kernel<C>, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  tile_args args{da.data(), db.data(), dm.data(), dc.data(), dd.data(), la, lb, a_bytes, scale_d};
  tile_kernel<C><<<1, 128, smem>>>(args);
  CUPROBE_CHECK_LAUNCH("wgmma tile_kernel");
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const std::vector<float> d = dd.to_host();

  const double tol = tolerance<C>();
  double err2 = 0, ref2 = 0, worst = 0;
  int non_finite = 0, bad = 0, first_bad = -1;
  for (std::size_t i = 0; i < d.size(); ++i) {
    if (!std::isfinite(d[i])) {
      ++non_finite;
      if (first_bad < 0) first_bad = int(i);
      continue;
    }
    const double e = std::fabs(double(d[i]) - ref[i]);
    err2 += e * e;
    ref2 += ref[i] * ref[i];
    const double r = e / (scale[i] + 1e-6);
    worst = std::max(worst, r);
    if (r > tol) {
      ++bad;
      if (first_bad < 0) first_bad = int(i);
    }
  }
  const double frob = non_finite ? NAN : std::sqrt(err2 / ref2);
  INFO("relative Frobenius error ", frob, ", worst element error / sum|ab| ", worst, ", tolerance ",
       tol, ", non-finite ", non_finite, ", out of bound ", bad);
  std::string first = "none";
  if (first_bad >= 0)
    first = "D(" + std::to_string(first_bad / N) + ", " + std::to_string(first_bad % N) +
            ") = " + std::to_string(d[std::size_t(first_bad)]) + ", reference " +
            std::to_string(ref[std::size_t(first_bad)]);
  INFO("first bad element: ", first);
  CHECK(non_finite == 0);
  CHECK(bad == 0);
  CHECK(frob <= tol);  // false for NaN
}

}  // namespace wgt
