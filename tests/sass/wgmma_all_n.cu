// SASS tier probe for ptx/wgmma.cuh: every generated asm form compiled for every N. One kernel per
// (type combination, operand form, N): four combinations that between them use all eight asm
// forms (imm-trans or not x SS, RS, sparse SS, sparse RS) with both accumulator kinds (f32
// registers, f16x2 words), each in its four operand forms, for N = 8..256 in steps of 8: 512
// kernels, so that an error in any generated operand list fails to assemble and every shape shows
// in the SASS (tests/areas/wgmma.cmake checks one HGMMA/QGMMA of each shape per form and that
// nothing was serialised). The other eight type combinations differ only in the type names of
// the instruction, which tests/sass/wgmma_ops.cu compiles at N = 256.
#include <cuprobe/ptx/wgmma.cuh>

#include <cstdint>
#include <utility>

namespace wg = cuprobe::ptx::wgmma;

template <class D, class A, class B, int Form, int N>
__global__ void all_n(float* out, std::uint64_t a, std::uint64_t b, const std::uint32_t* in) {
  wg::accumulator<D, N> acc;
#pragma unroll
  for (int i = 0; i < acc.registers; ++i) acc.reg[i] = 0;
  wg::a_fragment<A> f;
#pragma unroll
  for (int i = 0; i < 4; ++i) f.reg[i] = in[threadIdx.x * 4 + i];
  const std::uint32_t meta = in[512 + threadIdx.x];
  wg::fence_operand(acc);
  wg::fence_operand(f);
  wg::fence();
  if constexpr (Form == 0) wg::mma_async<A, B>(acc, a, b, wg::accumulate::overwrite);
  if constexpr (Form == 1) wg::mma_async<A, B>(acc, f, b, wg::accumulate::overwrite);
  if constexpr (Form == 2) wg::mma_async_sp<A, B>(acc, a, b, meta, wg::accumulate::overwrite);
  if constexpr (Form == 3) wg::mma_async_sp<A, B>(acc, f, b, meta, wg::accumulate::overwrite);
  wg::commit_group();
  wg::wait_group<0>();
  wg::fence_operand(acc);
#pragma unroll
  for (int i = 0; i < acc.registers; ++i)
    out[i * 128 + threadIdx.x] = static_cast<float>(acc.reg[i]);
}

// Takes the address of every instantiation, which makes nvcc emit all of them.
template <class D, class A, class B, int Form, int... I>
constexpr auto kernels(std::integer_sequence<int, I...>) {
  using k = void (*)(float*, std::uint64_t, std::uint64_t, const std::uint32_t*);
  return std::integer_sequence<k, &all_n<D, A, B, Form, 8 * (I + 1)>...>{};
}

template <class D, class A, class B>
struct emit {
  static constexpr auto ss = kernels<D, A, B, 0>(std::make_integer_sequence<int, 32>{});
  static constexpr auto rs = kernels<D, A, B, 1>(std::make_integer_sequence<int, 32>{});
  static constexpr auto sp_ss = kernels<D, A, B, 2>(std::make_integer_sequence<int, 32>{});
  static constexpr auto sp_rs = kernels<D, A, B, 3>(std::make_integer_sequence<int, 32>{});
};

template struct emit<wg::f16, wg::f16, wg::f16>;    // imm-trans forms, f16x2 accumulator
template struct emit<wg::f32, wg::bf16, wg::bf16>;  // imm-trans forms, f32 accumulator
template struct emit<wg::f16, wg::e4m3, wg::e5m2>;  // no imm-trans, f16x2 accumulator
template struct emit<wg::f32, wg::tf32, wg::tf32>;  // no imm-trans, f32 accumulator
