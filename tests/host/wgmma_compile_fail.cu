// Compile-fail probes for ptx/wgmma.cuh: each CUPROBE_CASE must NOT compile, and the error must
// be the library's sentence (tests/areas/wgmma.cmake runs nvcc on each case and matches the
// sentence). Case 0 compiles, for every target: merely including the header is fine anywhere.
// Not a test executable.
#include <cuprobe/ptx/wgmma.cuh>

namespace wg = cuprobe::ptx::wgmma;

__global__ void probe(float* out, std::uint64_t a, std::uint64_t b, std::uint32_t meta) {
#if CUPROBE_CASE == 1  // A in registers cannot be M-major (RS has no imm-trans-a)
  wg::accumulator<wg::f32, 64> acc;
  wg::a_fragment<wg::bf16> f{};
  wg::mma_async<wg::bf16, wg::bf16, wg::major::mn>(acc, f, b, wg::accumulate::add);
#elif CUPROBE_CASE == 2   // tf32 has no transpose
  wg::accumulator<wg::f32, 64> acc;
  wg::mma_async<wg::tf32, wg::tf32, wg::major::mn>(acc, a, b, wg::accumulate::add);
#elif CUPROBE_CASE == 3   // fp8 has no transpose either (B here)
  wg::accumulator<wg::f32, 64> acc;
  wg::mma_async<wg::e4m3, wg::e5m2, wg::major::k, wg::major::mn>(acc, a, b, wg::accumulate::add);
#elif CUPROBE_CASE == 4   // N must be a multiple of 8
  wg::accumulator<wg::f32, 12> acc;
  (void)acc;
#elif CUPROBE_CASE == 5   // N at most 256
  wg::accumulator<wg::f16, 264> acc;
  (void)acc;
#elif CUPROBE_CASE == 6   // bf16 accumulates in f32 only
  wg::accumulator<wg::f16, 64> acc;
  wg::mma_async<wg::bf16, wg::bf16>(acc, a, b, wg::accumulate::add);
#elif CUPROBE_CASE == 7   // tf32 accumulates in f32 only
  wg::accumulator<wg::f16, 64> acc;
  wg::mma_async_sp<wg::tf32, wg::tf32>(acc, a, b, meta, wg::accumulate::add);
#elif CUPROBE_CASE == 8   // sm_90 without the a: no wgmma (compiled for sm_90)
  wg::accumulator<wg::f32, 64> acc;
  wg::mma_async<wg::bf16, wg::bf16>(acc, a, b, wg::accumulate::add);
#elif CUPROBE_CASE == 9   // the fences need sm_90a too (compiled for sm_80)
  wg::fence();
#elif CUPROBE_CASE == 10  // wait_group<8> would silently be 7
  wg::wait_group<8>();
#elif CUPROBE_CASE == 11  // fp8 sparsity selector must be 0
  wg::accumulator<wg::f32, 64> acc;
  wg::mma_async_sp<wg::e4m3, wg::e4m3, 1>(acc, a, b, meta, wg::accumulate::add);
#elif CUPROBE_CASE == 12  // no mixed 16-bit families
  wg::accumulator<wg::f32, 64> acc;
  wg::mma_async<wg::f16, wg::bf16>(acc, a, b, wg::accumulate::add);
#elif CUPROBE_CASE == 13  // imm-scale is +-1
  wg::accumulator<wg::f32, 64> acc;
  wg::mma_async<wg::f16, wg::f16, wg::major::k, wg::major::k, 2>(acc, a, b, wg::accumulate::add);
#elif CUPROBE_CASE == 14  // the accumulator is f32 or f16
  wg::accumulator<wg::bf16, 64> acc;
  (void)acc;
#elif CUPROBE_CASE == 15  // selector 2 does not exist for 16-bit types
  wg::accumulator<wg::f32, 64> acc;
  wg::mma_async_sp<wg::bf16, wg::bf16, 2>(acc, a, b, meta, wg::accumulate::add);
#endif
  (void)out, (void)a, (void)b, (void)meta;
}
