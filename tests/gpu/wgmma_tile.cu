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
#include <cuprobe_suite/kernels/wgmma.cuh>

#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace wgt {

namespace wg = cuprobe::ptx::wgmma;
namespace kernels = cuprobe::suite::kernels;
using wg::major;

// The host codecs, random tiles, reference and comparison are the suite's
// (cuprobe_suite/kernels/wgmma_check.cuh), as are the tile stores
// (cuprobe_suite/kernels/wgmma.cuh).
template <class T>
using codec = kernels::wgmma_codec<T>;

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

  if constexpr (!C::rs) kernels::wgmma_store_tile<A::bytes>(smem, p.la, p.a, 64, C::ka);
  kernels::wgmma_store_tile<B::bytes>(smem + p.a_bytes, p.lb, p.b, N, C::k);
  cuprobe::ptx::fence_proxy_async<cuprobe::ptx::space::shared>();  // generic-proxy stores -> async
                                                                   // proxy (wgmma)
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
        f[s].set_bits(e, kernels::wgmma_load_raw<A::bytes>(
                             p.a, std::size_t(q.row) * C::ka + s * C::step_ka + q.col));
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
    const auto sd = wg::accumulate_if(s == 0 ? p.scale_d : true);
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
  std::vector<float> a = kernels::wgmma_random_values<A>(std::size_t(64) * K, seed, a_raw);
  const std::vector<float> b = kernels::wgmma_random_values<B>(std::size_t(N) * K, seed + 1, b_raw);
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
    a_raw = kernels::wgmma_raw_of<A>(s.compressed);
    meta = s.metadata;
  }
  // fp64 reference and the per-element error scale.
  const auto ref =
      kernels::wgmma_reference_of(a, b, 64, N, K, double(C::sa * C::sb), scale_d ? &c : nullptr);

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

  const double tol = kernels::wgmma_tolerance<typename C::D, A>();
  const kernels::wgmma_comparison cmp = kernels::wgmma_compare(d, ref, tol);
  INFO(cmp.message);
  CHECK(cmp.non_finite == 0);
  CHECK(cmp.out_of_bound == 0);
  CHECK(cmp.frobenius <= tol);  // false for NaN
}

}  // namespace wgt
