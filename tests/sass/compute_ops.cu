// SASS probe of the compute area: the latency (Chains = 1) and throughput (Chains = 8) chain
// kernels of every operation in cuprobe/gen/ops.cuh plus the user example dp4a_s32, all with
// Unroll = 8, in one cubin. tests/areas/compute.cmake filters them by mangled name: the
// operation's struct name, then Li<Chains>ELi<Unroll>E. tests/gpu/compute_chain.cu runs the
// same kernel shapes on the GPU.

#include <cuprobe/gen/chain.cuh>

#include "compute_user_op.cu"  // dp4a_s32

namespace compute_probe {

namespace g = cuprobe::gen;

/// The chain lengths the probe and the GPU test compile: latency and throughput kernels.
inline constexpr int unroll = 8;
inline constexpr int throughput_chains = 8;

template <class... Ops>
void instantiate() {
  ((void)&g::chain_kernel<Ops, 1, unroll>, ...);
  ((void)&g::chain_kernel<Ops, throughput_chains, unroll>, ...);
}

template void instantiate<g::ops::fma_f32, g::ops::add_f32, g::ops::mul_f32, g::ops::hfma2_f16,
                          g::ops::hfma2_bf16, g::ops::fma_f64, g::ops::imad_u32, g::ops::iadd3_u32,
                          g::ops::lop3_b32, g::ops::rsqrt_f32, g::ops::shfl_idx, dp4a_s32>();

}  // namespace compute_probe
