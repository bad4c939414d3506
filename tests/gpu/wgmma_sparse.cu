// gpu tier: ptx/wgmma.cuh, sparse wgmma.mma_async.sp on one warpgroup (tests/gpu/wgmma_tile.cu is
// the harness): random A pruned on the host by prune_2_4 (2:4, tf32 1:2), the compressed A in
// shared memory (or registers) and the metadata words in registers, against the product of the
// pruned dense A. f16/bf16 (k32), tf32 (k16), fp8 (k64), both sparsity selectors where they
// exist, no swizzle and 128B swizzle, an N-major B, negation, scale_d 0 and 1.
#define CUPROBE_TESTING_MAIN
#include "wgmma_tile.cu"

using wgt::cfg;
using wgt::major;
using wgt::run_tile;
namespace wg = cuprobe::ptx::wgmma;

namespace {
constexpr wg::swizzle none = wg::swizzle::none, sw128 = wg::swizzle::b128;
/// Sparse SS configuration: D, N, A, B, selector (and the rest as cfg has it).
template <class D, int N, class A, class B, int Sel = 0, major MB = major::k, int SA = 1>
using sp = cfg<D, N, A, B, false, true, Sel, major::k, MB, SA, 1>;
template <class D, int N, class A, class B, int Sel = 0>
using sp_rs = cfg<D, N, A, B, true, true, Sel>;
}  // namespace

CUPROBE_GPU_TEST_CASE("wgmma.sp bf16 and f16: N = 8..256, both selectors, both layouts") {
  run_tile<sp<wg::f32, 8, wg::bf16, wg::bf16>>(none, none, false, 2001);
  run_tile<sp<wg::f32, 64, wg::bf16, wg::bf16>>(sw128, sw128, true, 2002);
  run_tile<sp<wg::f32, 128, wg::bf16, wg::bf16, 1>>(none, sw128, true, 2003);
  run_tile<sp<wg::f32, 256, wg::bf16, wg::bf16>>(sw128, none, false, 2004);
  run_tile<sp<wg::f32, 256, wg::bf16, wg::bf16, 1>>(sw128, sw128, true, 2005);
  run_tile<sp<wg::f16, 64, wg::f16, wg::f16>>(none, none, true, 2006);
  run_tile<sp<wg::f16, 64, wg::f16, wg::f16, 1>>(sw128, sw128, false, 2007);
  run_tile<sp<wg::f32, 128, wg::f16, wg::f16>>(sw128, none, true, 2008);
}
CUPROBE_GPU_TEST_CASE("wgmma.sp with an N-major B and a negated A") {
  run_tile<sp<wg::f32, 128, wg::f16, wg::f16, 0, major::mn>>(none, none, true, 2101);
  run_tile<sp<wg::f32, 128, wg::f16, wg::f16, 1, major::mn>>(sw128, sw128, false, 2102);
  run_tile<sp<wg::f32, 64, wg::bf16, wg::bf16, 0, major::k, -1>>(sw128, sw128, true, 2103);
}
CUPROBE_GPU_TEST_CASE("wgmma.sp tf32 (1:2): both selectors") {
  run_tile<sp<wg::f32, 16, wg::tf32, wg::tf32>>(none, none, true, 2201);
  run_tile<sp<wg::f32, 128, wg::tf32, wg::tf32, 1>>(sw128, sw128, false, 2202);
  run_tile<sp<wg::f32, 256, wg::tf32, wg::tf32>>(sw128, none, true, 2203);
}
CUPROBE_GPU_TEST_CASE("wgmma.sp fp8 (k64, every thread holds metadata)") {
  run_tile<sp<wg::f32, 64, wg::e4m3, wg::e5m2>>(none, none, true, 2301);
  run_tile<sp<wg::f32, 256, wg::e4m3, wg::e4m3>>(sw128, sw128, false, 2302);
  run_tile<sp<wg::f16, 128, wg::e5m2, wg::e4m3>>(sw128, none, true, 2303);
  run_tile<sp<wg::f16, 8, wg::e5m2, wg::e5m2>>(none, sw128, true, 2304);
}
CUPROBE_GPU_TEST_CASE("wgmma.sp with the compressed A in registers (RS)") {
  run_tile<sp_rs<wg::f32, 64, wg::bf16, wg::bf16>>(none, none, true, 2401);
  run_tile<sp_rs<wg::f16, 128, wg::f16, wg::f16, 1>>(none, sw128, false, 2402);
  run_tile<sp_rs<wg::f32, 32, wg::tf32, wg::tf32>>(none, sw128, true, 2403);
  run_tile<sp_rs<wg::f32, 128, wg::e4m3, wg::e4m3>>(none, none, true, 2404);
}
