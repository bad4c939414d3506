// SASS tier probes for ptx/wgmma.cuh: one kernel per representative form. Each runs the
// wgmma discipline on one 64 x N tile: accumulator loaded from memory, register fences,
// wgmma.fence, four K steps (the first with a run-time scale_d), one commit, wait_group<0>,
// stores. tests/areas/wgmma.cmake checks the instruction (HGMMA / QGMMA, shape, types, .SP,
// register A, .negA/.tnspB ...), its count, the order, no local memory, and that ptxas neither
// serialised the MMAs nor had to inject a warpgroup wait or arrive.
#include <cuprobe/ptx/wgmma.cuh>

#include <cstdint>

namespace wg = cuprobe::ptx::wgmma;
using wg::major;

// Form: 0 SS, 1 RS, 2 sparse SS, 3 sparse RS.
template <class D, int N, class A, class B, int Form, major MA = major::k, major MB = major::k,
          int SA = 1, int SB = 1, int Sel = 0>
__device__ __forceinline__ void tile(float* out, std::uint64_t a, std::uint64_t b,
                                     const std::uint32_t* in, bool scale_d) {
  constexpr int steps = 4;
  const unsigned t = threadIdx.x;
  wg::accumulator<D, N> acc;
#pragma unroll
  for (int i = 0; i < acc.registers; ++i)
    acc.reg[i] = static_cast<typename wg::accumulator<D, N>::register_type>(in[i * 128 + t]);
  wg::a_fragment<A> f[steps];
  std::uint32_t meta[steps];
#pragma unroll
  for (int s = 0; s < steps; ++s) {
#pragma unroll
    for (int i = 0; i < 4; ++i) f[s].reg[i] = in[(256 + 4 * s + i) * 128 + t];
    meta[s] = in[(300 + s) * 128 + t];
  }
  wg::fence_operand(acc);
#pragma unroll
  for (int s = 0; s < steps; ++s) wg::fence_operand(f[s]);
  wg::fence();
#pragma unroll
  for (int s = 0; s < steps; ++s) {
    const auto sd = wg::accumulate_if(s == 0 ? scale_d : true);
    const std::uint64_t as = a + 2 * s, bs = b + 2 * s;  // +32 bytes per K step
    if constexpr (Form == 0) wg::mma_async<A, B, MA, MB, SA, SB>(acc, as, bs, sd);
    if constexpr (Form == 1) wg::mma_async<A, B, MA, MB, SA, SB>(acc, f[s], bs, sd);
    if constexpr (Form == 2) wg::mma_async_sp<A, B, Sel, MA, MB, SA, SB>(acc, as, bs, meta[s], sd);
    if constexpr (Form == 3)
      wg::mma_async_sp<A, B, Sel, MA, MB, SA, SB>(acc, f[s], bs, meta[s], sd);
  }
  wg::commit_group();
  wg::wait_group<0>();
  wg::fence_operand(acc);
#pragma unroll
  for (int i = 0; i < acc.registers; ++i) out[i * 128 + t] = static_cast<float>(acc.reg[i]);
}

#define PROBE(NAME, ...)                                                        \
  extern "C" __global__ void NAME(float* out, std::uint64_t a, std::uint64_t b, \
                                  const std::uint32_t* in, bool scale_d) {      \
    tile<__VA_ARGS__>(out, a, b, in, scale_d);                                  \
  }

// 16-bit inputs.
PROBE(probe_bf16_n256, wg::f32, 256, wg::bf16, wg::bf16, 0)
PROBE(probe_bf16_n8, wg::f32, 8, wg::bf16, wg::bf16, 0)
PROBE(probe_bf16_n256_rs, wg::f32, 256, wg::bf16, wg::bf16, 1)
PROBE(probe_f16_f16acc_n128, wg::f16, 128, wg::f16, wg::f16, 0)
PROBE(probe_f16_f16acc_n256_rs, wg::f16, 256, wg::f16, wg::f16, 1)
PROBE(probe_f16_n64_rs, wg::f32, 64, wg::f16, wg::f16, 1)
// Negation and transposes.
PROBE(probe_bf16_nega_tnspab, wg::f32, 64, wg::bf16, wg::bf16, 0, major::mn, major::mn, -1, 1)
PROBE(probe_f16_negb_tnspb_rs, wg::f32, 64, wg::f16, wg::f16, 1, major::k, major::mn, 1, -1)
PROBE(probe_e4m3_negab, wg::f32, 64, wg::e4m3, wg::e4m3, 0, major::k, major::k, -1, -1)
// tf32.
PROBE(probe_tf32_n256, wg::f32, 256, wg::tf32, wg::tf32, 0)
PROBE(probe_tf32_n32_rs, wg::f32, 32, wg::tf32, wg::tf32, 1)
// fp8: all four A/B pairs, both accumulators, N = 256; two RS forms.
PROBE(probe_e4m3_e4m3_f32_n256, wg::f32, 256, wg::e4m3, wg::e4m3, 0)
PROBE(probe_e4m3_e5m2_f32_n256, wg::f32, 256, wg::e4m3, wg::e5m2, 0)
PROBE(probe_e5m2_e4m3_f32_n256, wg::f32, 256, wg::e5m2, wg::e4m3, 0)
PROBE(probe_e5m2_e5m2_f32_n256, wg::f32, 256, wg::e5m2, wg::e5m2, 0)
PROBE(probe_e4m3_e4m3_f16_n256, wg::f16, 256, wg::e4m3, wg::e4m3, 0)
PROBE(probe_e4m3_e5m2_f16_n256, wg::f16, 256, wg::e4m3, wg::e5m2, 0)
PROBE(probe_e5m2_e4m3_f16_n256, wg::f16, 256, wg::e5m2, wg::e4m3, 0)
PROBE(probe_e5m2_e5m2_f16_n256, wg::f16, 256, wg::e5m2, wg::e5m2, 0)
PROBE(probe_e4m3_e5m2_f32_n64_rs, wg::f32, 64, wg::e4m3, wg::e5m2, 1)
PROBE(probe_e5m2_e4m3_f16_n128_rs, wg::f16, 128, wg::e5m2, wg::e4m3, 1)
// Sparse.
PROBE(probe_sp_bf16_n128, wg::f32, 128, wg::bf16, wg::bf16, 2)
PROBE(probe_sp_bf16_n128_sel1, wg::f32, 128, wg::bf16, wg::bf16, 2, major::k, major::k, 1, 1, 1)
PROBE(probe_sp_f16_f16acc_n64_rs, wg::f16, 64, wg::f16, wg::f16, 3)
PROBE(probe_sp_f16_tnspb_n256, wg::f32, 256, wg::f16, wg::f16, 2, major::k, major::mn)
PROBE(probe_sp_tf32_n64_sel1, wg::f32, 64, wg::tf32, wg::tf32, 2, major::k, major::k, 1, 1, 1)
PROBE(probe_sp_tf32_n16_rs, wg::f32, 16, wg::tf32, wg::tf32, 3)
PROBE(probe_sp_e4m3_e5m2_n256, wg::f32, 256, wg::e4m3, wg::e5m2, 2)
PROBE(probe_sp_e5m2_e4m3_f16_n256_rs, wg::f16, 256, wg::e5m2, wg::e4m3, 3)

// Two groups in flight: wait_group<1> lets the second run on while the first is read.
extern "C" __global__ void probe_wait_group_1(float* out, std::uint64_t a, std::uint64_t b) {
  wg::accumulator<wg::f32, 64> x, y;
#pragma unroll
  for (int i = 0; i < 32; ++i) x.reg[i] = 0.f, y.reg[i] = 0.f;
  wg::fence_operand(x);
  wg::fence_operand(y);
  wg::fence();
  wg::mma_async<wg::bf16, wg::bf16>(x, a, b, wg::accumulate::overwrite);
  wg::commit_group();
  wg::mma_async<wg::bf16, wg::bf16>(y, a + 2, b + 2, wg::accumulate::overwrite);
  wg::commit_group();
  wg::wait_group<1>();
  wg::fence_operand(x);
#pragma unroll
  for (int i = 0; i < 32; ++i) out[i * 128 + threadIdx.x] = x.reg[i];
  wg::wait_group<0>();
  wg::fence_operand(y);
#pragma unroll
  for (int i = 0; i < 32; ++i) out[(32 + i) * 128 + threadIdx.x] = y.reg[i];
}

// CONFIG Release (the default of cuprobe_add_sass_test) defines NDEBUG; CONFIG Debug does not.
extern "C" __global__ void probe_config(float* out) {
#if !defined(NDEBUG)
  if (out[threadIdx.x] != 0.f) __trap();
#endif
  out[threadIdx.x] = 1.f;
}

// descriptor_at checks in every build: Release traps (no printf, no call) on a start off 16
// bytes or a swizzled base off the pattern's repeat; Debug prints the sentence first (a call).
extern "C" __global__ void probe_descriptor_at(unsigned long long* out, unsigned base) {
  constexpr auto a = cuprobe::ptx::wgmma::canonical_layout::of<cuprobe::ptx::wgmma::bf16>(
      cuprobe::ptx::wgmma::swizzle::b128, cuprobe::ptx::wgmma::major::k, 64, 64);
  out[threadIdx.x] = a.descriptor_at(base, 16).encode();
}

// The library's shape of a timed wgmma loop: descriptors built (and checked) once from a
// run-time base before the loop, advanced inside it by adding 16-byte units. The Release check's
// trap must lie outside the loop, and the loop must hold the MMAs unserialised.
extern "C" __global__ void probe_descriptor_loop(float* out, unsigned base, int trips) {
  namespace wg = cuprobe::ptx::wgmma;
  constexpr auto a = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 64);
  constexpr auto b = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 64);
  const std::uint64_t da = a.descriptor_at(base, 0).encode();
  const std::uint64_t db = b.descriptor_at(base + a.size_bytes(), 0).encode();
  wg::accumulator<wg::f32, 64> acc{};
#pragma unroll 1
  for (int it = 0; it < trips; ++it) {
    wg::fence_operand(acc);
    wg::fence();
#pragma unroll
    for (int s = 0; s < 4; ++s)  // K steps of 16 bf16 = 32 bytes = 2 units
      wg::mma_async<wg::bf16, wg::bf16>(acc, da + 2 * s, db + 2 * s, wg::accumulate::add);
    wg::commit_group();
    wg::wait_group<1>();
  }
  wg::wait_group<0>();
  wg::fence_operand(acc);
#pragma unroll
  for (int i = 0; i < acc.registers; ++i) out[i * 128 + threadIdx.x] = acc.reg[i];
}
