// gpu tier: ptx/wgmma.cuh, dense wgmma.mma_async on one warpgroup (tests/gpu/wgmma_tile.cu is
// the harness): every type family at N = 8, 64, 128, 256 with A and B in shared memory in the
// canonical no-swizzle and 128-byte-swizzled layouts (and 32B/64B once), A from registers, the
// transposes (M/N-major operands), negation (imm-scale -1), scale_d = 0 and 1. Each case
// compares D with an fp64 reference (wgmma_tile.cu: tolerances per type; NaN never passes).
#define CUPROBE_TESTING_MAIN
#include "wgmma_tile.cu"

using wgt::cfg;
using wgt::major;
using wgt::run_tile;
namespace wg = cuprobe::ptx::wgmma;

namespace {

constexpr wg::swizzle none = wg::swizzle::none, sw128 = wg::swizzle::b128;

/// N = 8, 64, 128, 256 with A and B both unswizzled, then both 128B-swizzled; scale_d 0 and 1.
template <class D, class A, class B>
void four_n(std::uint64_t seed) {
  run_tile<cfg<D, 8, A, B>>(none, none, false, seed + 1);
  run_tile<cfg<D, 8, A, B>>(sw128, sw128, true, seed + 2);
  run_tile<cfg<D, 64, A, B>>(none, none, true, seed + 3);
  run_tile<cfg<D, 64, A, B>>(sw128, sw128, false, seed + 4);
  run_tile<cfg<D, 128, A, B>>(none, sw128, true, seed + 5);
  run_tile<cfg<D, 128, A, B>>(sw128, none, false, seed + 6);
  run_tile<cfg<D, 256, A, B>>(none, none, false, seed + 7);
  run_tile<cfg<D, 256, A, B>>(sw128, sw128, true, seed + 8);
}

/// A in registers (RS), B unswizzled and 128B-swizzled, N = 64 and 256.
template <class D, class A, class B>
void registers_a(std::uint64_t seed) {
  run_tile<cfg<D, 64, A, B, true>>(none, none, true, seed + 1);
  run_tile<cfg<D, 64, A, B, true>>(none, sw128, false, seed + 2);
  run_tile<cfg<D, 256, A, B, true>>(none, sw128, true, seed + 3);
  run_tile<cfg<D, 256, A, B, true>>(none, none, false, seed + 4);
}

}  // namespace

CUPROBE_GPU_TEST_CASE("wgmma bf16 x bf16 -> f32: N = 8..256, no swizzle and 128B swizzle") {
  four_n<wg::f32, wg::bf16, wg::bf16>(100);
}
CUPROBE_GPU_TEST_CASE("wgmma f16 x f16 -> f32 and -> f16") {
  four_n<wg::f32, wg::f16, wg::f16>(200);
  four_n<wg::f16, wg::f16, wg::f16>(300);
}
CUPROBE_GPU_TEST_CASE("wgmma tf32 x tf32 -> f32") { four_n<wg::f32, wg::tf32, wg::tf32>(400); }
CUPROBE_GPU_TEST_CASE("wgmma fp8: all four A/B pairs, f32 and f16 accumulators") {
  four_n<wg::f32, wg::e4m3, wg::e4m3>(500);
  four_n<wg::f16, wg::e4m3, wg::e5m2>(600);
  four_n<wg::f32, wg::e5m2, wg::e4m3>(700);
  four_n<wg::f16, wg::e5m2, wg::e5m2>(800);
  run_tile<cfg<wg::f16, 64, wg::e4m3, wg::e4m3>>(sw128, sw128, true, 901);
  run_tile<cfg<wg::f32, 64, wg::e4m3, wg::e5m2>>(none, sw128, true, 902);
  run_tile<cfg<wg::f16, 64, wg::e5m2, wg::e4m3>>(sw128, none, false, 903);
  run_tile<cfg<wg::f32, 64, wg::e5m2, wg::e5m2>>(none, none, true, 904);
}
CUPROBE_GPU_TEST_CASE("wgmma 32B and 64B swizzles, K- and MN-major") {
  using wg::swizzle;
  run_tile<cfg<wg::f32, 64, wg::bf16, wg::bf16>>(swizzle::b32, swizzle::b64, true, 1001);
  run_tile<cfg<wg::f32, 64, wg::bf16, wg::bf16>>(swizzle::b64, swizzle::b32, false, 1002);
  run_tile<cfg<wg::f32, 64, wg::tf32, wg::tf32>>(swizzle::b64, swizzle::b32, true, 1003);
  run_tile<cfg<wg::f32, 64, wg::e4m3, wg::e4m3>>(swizzle::b32, swizzle::b64, true, 1004);
  using T = cfg<wg::f32, 64, wg::f16, wg::f16, false, false, 0, major::mn, major::mn>;
  run_tile<T>(swizzle::b32, swizzle::b64, true, 1005);
  run_tile<T>(swizzle::b64, swizzle::b32, false, 1006);
}
CUPROBE_GPU_TEST_CASE("wgmma with A in registers (RS), every type family") {
  registers_a<wg::f32, wg::bf16, wg::bf16>(1100);
  registers_a<wg::f16, wg::f16, wg::f16>(1200);
  registers_a<wg::f32, wg::tf32, wg::tf32>(1300);
  registers_a<wg::f32, wg::e4m3, wg::e5m2>(1400);
  registers_a<wg::f16, wg::e5m2, wg::e4m3>(1500);
}
CUPROBE_GPU_TEST_CASE("wgmma transposes: M-major A, N-major B (16-bit types)") {
  using TA = cfg<wg::f32, 128, wg::bf16, wg::bf16, false, false, 0, major::mn, major::k>;
  using TB = cfg<wg::f32, 128, wg::bf16, wg::bf16, false, false, 0, major::k, major::mn>;
  using TAB = cfg<wg::f32, 128, wg::bf16, wg::bf16, false, false, 0, major::mn, major::mn>;
  for (wg::swizzle s : {none, sw128}) {
    run_tile<TA>(s, s, true, 1601);
    run_tile<TB>(s, s, false, 1602);
    run_tile<TAB>(s, s, true, 1603);
  }
  using H = cfg<wg::f16, 64, wg::f16, wg::f16, false, false, 0, major::mn, major::mn>;
  run_tile<H>(sw128, none, true, 1604);
  using R = cfg<wg::f32, 256, wg::f16, wg::f16, true, false, 0, major::k, major::mn>;
  run_tile<R>(none, sw128, true, 1605);
  run_tile<R>(none, none, false, 1606);
}
CUPROBE_GPU_TEST_CASE("wgmma negation: imm-scale-a/b = -1") {
  run_tile<cfg<wg::f32, 64, wg::bf16, wg::bf16, false, false, 0, major::k, major::k, -1, 1>>(
      sw128, sw128, true, 1701);
  run_tile<cfg<wg::f32, 64, wg::f16, wg::f16, true, false, 0, major::k, major::k, 1, -1>>(
      none, none, true, 1702);
  run_tile<cfg<wg::f32, 128, wg::e4m3, wg::e4m3, false, false, 0, major::k, major::k, -1, -1>>(
      none, sw128, false, 1703);
  run_tile<cfg<wg::f32, 32, wg::tf32, wg::tf32, false, false, 0, major::k, major::k, -1, 1>>(
      sw128, none, true, 1704);
}
CUPROBE_GPU_TEST_CASE("wgmma scale_d: 0 ignores the accumulator, 1 adds to it") {
  // The same inputs (same seed) both ways: the reference differs by C exactly.
  for (bool sd : {false, true}) {
    run_tile<cfg<wg::f32, 64, wg::bf16, wg::bf16>>(sw128, sw128, sd, 1801);
    run_tile<cfg<wg::f16, 64, wg::e4m3, wg::e4m3>>(none, none, sd, 1802);
    run_tile<cfg<wg::f32, 64, wg::f16, wg::f16, true>>(none, sw128, sd, 1803);
  }
}
