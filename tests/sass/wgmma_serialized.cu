// SASS tier self-test probes for the compile-log check (FORBID_PTXAS_WARNING and the default
// rules: ptxas's "wgmma.mma_async instructions are serialized" and "warpgroup.wait/arrive is
// injected"): three kernels whose wgmma pipeline ptxas breaks and one it leaves alone, in one
// cubin, so the tests also show that a FUNCTION filter keeps another kernel's log line out of a
// test. tests/areas/wgmma.cmake expects the first three to FAIL, each for its message.
#include <cuprobe/ptx/wgmma.cuh>

#include <cstdint>

namespace wg = cuprobe::ptx::wgmma;

// A K loop with a run-time trip count: the MMAs of one group are not straight-line code, and
// ptxas injects a warpgroup.arrive per trip (C7519). Without the register fences it reports
// C7515 ("serialized due to non wgmma instructions defining accumulator registers").
extern "C" __global__ void serialized_rolled_loop(float* out, std::uint64_t a, std::uint64_t b,
                                                  int steps) {
  wg::accumulator<wg::f32, 64> acc;
#pragma unroll
  for (int i = 0; i < 32; ++i) acc.reg[i] = 0.f;
  wg::fence_operand(acc);
  wg::fence();
#pragma unroll 1
  for (int s = 0; s < steps; ++s)
    wg::mma_async<wg::bf16, wg::bf16>(acc, a + 2 * s, b + 2 * s, wg::accumulate::add);
  wg::commit_group();
  wg::wait_group<0>();
  wg::fence_operand(acc);
#pragma unroll
  for (int i = 0; i < 32; ++i) out[i * 128 + threadIdx.x] = acc.reg[i];
}

// An accumulator register written between two MMAs with no wgmma.fence: ptxas serialises the
// MMAs (C7511, "insufficient register resources for the wgmma pipeline").
extern "C" __global__ void serialized_touched_accumulator(float* out, std::uint64_t a,
                                                          std::uint64_t b, float x) {
  wg::accumulator<wg::f32, 64> acc;
#pragma unroll
  for (int i = 0; i < 32; ++i) acc.reg[i] = 0.f;
  wg::fence_operand(acc);
  wg::fence();
  wg::mma_async<wg::bf16, wg::bf16>(acc, a, b, wg::accumulate::add);
  acc.reg[3] += x;
  wg::mma_async<wg::bf16, wg::bf16>(acc, a + 2, b + 2, wg::accumulate::add);
  wg::commit_group();
  wg::wait_group<0>();
  wg::fence_operand(acc);
#pragma unroll
  for (int i = 0; i < 32; ++i) out[i * 128 + threadIdx.x] = acc.reg[i];
}

// A register index that is not a compile-time constant, between two MMAs: ptxas injects a
// warpgroup.wait before it and an arrive after it (C7517, C7519).
extern "C" __global__ void serialized_dynamic_index(float* out, std::uint64_t a, std::uint64_t b,
                                                    int j, float x) {
  wg::accumulator<wg::f32, 64> acc;
#pragma unroll
  for (int i = 0; i < 32; ++i) acc.reg[i] = 0.f;
  wg::fence_operand(acc);
  wg::fence();
  wg::mma_async<wg::bf16, wg::bf16>(acc, a, b, wg::accumulate::add);
  acc.reg[j & 31] += x;
  wg::mma_async<wg::bf16, wg::bf16>(acc, a + 2, b + 2, wg::accumulate::add);
  wg::commit_group();
  wg::wait_group<0>();
  wg::fence_operand(acc);
#pragma unroll
  for (int i = 0; i < 32; ++i) out[i * 128 + threadIdx.x] = acc.reg[i];
}

// The same two MMAs done right: unrolled, nothing between them.
extern "C" __global__ void not_serialized(float* out, std::uint64_t a, std::uint64_t b) {
  wg::accumulator<wg::f32, 64> acc;
#pragma unroll
  for (int i = 0; i < 32; ++i) acc.reg[i] = 0.f;
  wg::fence_operand(acc);
  wg::fence();
#pragma unroll
  for (int s = 0; s < 2; ++s)
    wg::mma_async<wg::bf16, wg::bf16>(acc, a + 2 * s, b + 2 * s, wg::accumulate::add);
  wg::commit_group();
  wg::wait_group<0>();
  wg::fence_operand(acc);
#pragma unroll
  for (int i = 0; i < 32; ++i) out[i * 128 + threadIdx.x] = acc.reg[i];
}
