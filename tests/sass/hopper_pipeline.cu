// SASS probes for ptx/barrier.cuh, ptx/matrix.cuh, mbarrier::arrive_remote_relaxed and the
// pipeline / epilogue blocks of hopper/ (sm_90a); tests/areas/hopper_pipeline.cmake pins the
// instructions of each probe_<name> kernel.
#include <cuprobe/hopper/epilogue.cuh>
#include <cuprobe/pipeline/ring.cuh>
#include <cuprobe/ptx/barrier.cuh>
#include <cuprobe/ptx/matrix.cuh>
#include <cuprobe/ptx/mbarrier.cuh>
#include <cuprobe/ptx/shared.cuh>

#include <cstdint>

namespace p = cuprobe::ptx;
namespace h = cuprobe::hopper;
namespace wg = cuprobe::ptx::wgmma;

#define PROBE(NAME) extern "C" __global__ void NAME(unsigned* out, unsigned n)

PROBE(probe_named_barrier_sync) {
  p::named_barrier_sync(1 + n % 4, 128 * (1 + n % 2));
  out[threadIdx.x] = n;
}
PROBE(probe_named_barrier_arrive) {
  out[threadIdx.x] = n;
  p::named_barrier_arrive(1 + n % 4, 256);
}

__shared__ alignas(128) std::uint32_t tile[32 * 64];
__device__ std::uint32_t row_address() { return p::smem_address(tile) + 16u * (threadIdx.x % 32u); }
PROBE(probe_stmatrix_x1) {
  p::stmatrix<1>(row_address(), {{n}});
  out[0] = tile[n % 64];
}
PROBE(probe_stmatrix_x2) {
  p::stmatrix<2>(row_address(), {{n, n + 1}});
  out[0] = tile[n % 64];
}
PROBE(probe_stmatrix_x4) {
  p::stmatrix<4>(row_address(), {{n, n + 1, n + 2, n + 3}});
  out[0] = tile[n % 64];
}
PROBE(probe_stmatrix_x4_trans) {
  p::stmatrix<4, p::matrix_order::transposed>(row_address(), {{n, n + 1, n + 2, n + 3}});
  out[0] = tile[n % 64];
}
PROBE(probe_ldmatrix_x4) {
  tile[threadIdx.x] = n;
  __syncwarp();
  const auto f = p::ldmatrix<4>(row_address());
  out[threadIdx.x] = f.reg[0] + f.reg[1] + f.reg[2] + f.reg[3];
}
PROBE(probe_ldmatrix_x2_trans) {
  tile[threadIdx.x] = n;
  __syncwarp();
  const auto f = p::ldmatrix<2, p::matrix_order::transposed>(row_address());
  out[threadIdx.x] = f.reg[0] + f.reg[1];
}

__shared__ cuprobe::ptx::mbarrier::object bar;
PROBE(probe_arrive_remote_relaxed) {
  p::mbarrier::arrive_remote_relaxed(&bar, n % 2);
  out[0] = n;
}
__shared__ cuprobe::pipeline::mbarrier_ring<4, 2> pipe2;
PROBE(probe_pipeline_release_cluster) {
  auto s = pipe2.consumer_start();
  s.advance(int(n % 4));
  pipe2.release(s);
  out[0] = n;
}

extern "C" __global__ void probe_epilogue_256(const __grid_constant__ CUtensorMap map, float* in,
                                              int m0) {
  using epi = h::tma_store_epilogue<__nv_bfloat16, 256, 2>;
  __shared__ alignas(1024) unsigned char buf[epi::smem_bytes];
  wg::accumulator<wg::f32, 256> acc;
#pragma unroll
  for (int e = 0; e < 128; ++e) acc.reg[e] = in[e * 128 + threadIdx.x];
  epi::store(acc, buf, &map, m0, 0, 1);
  epi::drain();
}

// N = 200: three swizzled 64-column sub-tiles and the last 8 columns through the second map.
extern "C" __global__ void probe_epilogue_200(const __grid_constant__ CUtensorMap map,
                                              const __grid_constant__ CUtensorMap rest_map,
                                              float* in, int m0) {
  using epi = h::tma_store_epilogue<__nv_bfloat16, 200, 2>;
  __shared__ alignas(1024) unsigned char buf[epi::smem_bytes];
  wg::accumulator<wg::f32, 200> acc;
#pragma unroll
  for (int e = 0; e < 100; ++e) acc.reg[e] = in[e * 128 + threadIdx.x];
  epi::store(acc, buf, &map, m0, 0, 1, 0, &rest_map);
  epi::drain();
}

// The direct store of a 64 x 200 accumulator: per row half, six quads of blocks (4 shuffles
// each, one 16-byte store) and one last block (a 4-byte store); no shared memory, no barrier.
extern "C" __global__ void probe_direct_store_200(__nv_bfloat16* c, float* in, int m0, int n0) {
  wg::accumulator<wg::f32, 200> acc;
#pragma unroll
  for (int e = 0; e < 100; ++e) acc.reg[e] = in[e * 128 + threadIdx.x];
  h::direct_store_epilogue<__nv_bfloat16, 200>::store(acc, c, 8192, m0, n0, 8192);
}
