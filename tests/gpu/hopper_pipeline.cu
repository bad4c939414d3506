// gpu tier: the pipeline blocks of hopper/ and pipeline/ on an sm_90a GPU. (1) tma_store_epilogue:
// one warpgroup's accumulator, filled with a value that encodes (row, col), goes through stmatrix
// and TMA stores into a poisoned matrix at (m0, n0); every element of the box must hold its
// value and every element outside it must stay poisoned (N = 256 and 128; 1, 2 and N/64
// buffers; several stores in a row so that a buffer is reused while earlier stores are in
// flight; N = 200 and 88, whose last N % 64 columns go through a second map, also where the
// matrix's edge clips them; every n0 a multiple of 8, as the epilogue requires);
// direct_store_epilogue the same way, with columns cut at n_end. (2) mbarrier_ring: a producer
// thread streams chunks of an array through a ring of 2..8 stages into two consumer warps per CTA,
// which fold every word into a checksum (every consumer thread releases each stage: racecheck then
// sees each read ordered before the copy that overwrites it); with clusters of 2 the chunks are
// multicast (each CTA loads half of each chunk into both) and both CTAs must see every byte;
// hundreds of trips around the ring. Debug checks are on (CUPROBE_PTX_CHECKS 1): every wait is
// bounded and traps with a sentence.
#define CUPROBE_PTX_CHECKS 1
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/core/device_buffer.cuh>
#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe/hopper/epilogue.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/hopper/tensor_map.cuh>
#include <cuprobe/pipeline/ring.cuh>
#include <cuprobe/ptx/bulk.cuh>
#include <cuprobe/ptx/cluster.cuh>

#include <cuda_bf16.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

namespace p = cuprobe::ptx;
namespace h = cuprobe::hopper;
namespace wg = cuprobe::ptx::wgmma;

namespace {

// The value of C(row, col): exact in bf16 (integers below 256).
__host__ __device__ float cell(int row, int col) { return float((row * 7 + col * 3) % 251); }

template <int N, int Buffers>
__global__ void epilogue_kernel(const __grid_constant__ CUtensorMap map,
                                const __grid_constant__ CUtensorMap rest_map, int m0, int n0,
                                int repeats) {
  using epi = h::tma_store_epilogue<__nv_bfloat16, N, Buffers>;
  extern __shared__ unsigned char raw[];
  unsigned char* buf = h::align_up<1024>(raw);
  wg::accumulator<wg::f32, N> acc;
  for (int r = 0; r < repeats; ++r) {  // the same box again: buffers reused behind the stores
#pragma unroll
    for (int e = 0; e < N / 2; ++e) {
      const wg::coord c = wg::accumulator_coord(int(threadIdx.x), e);
      acc.reg[e] = cell(m0 + c.row, n0 + c.col);
    }
    epi::store(acc, buf, &map, m0, n0, 1, 0, &rest_map);
  }
  epi::drain();
}

template <int N, int Buffers>
void check_epilogue(int m0, int n0) {
  constexpr int rows = 192, cols = 512;
  cuprobe::device_buffer<__nv_bfloat16> c(rows * cols);
  c.poison(0xFF);
  const auto map = h::make_tensor_map(
      h::tensor_map_spec::matrix(c.data(), rows, cols, 64, 64, h::swizzle_mode::b128));
  // The last N % 64 columns: box {N % 64, 64}, unswizzled (the full map when there are none).
  const auto rest_map = h::make_tensor_map(
      N % 64 == 0
          ? h::tensor_map_spec::matrix(c.data(), rows, cols, 64, 64, h::swizzle_mode::b128)
          : h::tensor_map_spec::matrix(c.data(), rows, cols, 64, N % 64, h::swizzle_mode::none));
  using epi = h::tma_store_epilogue<__nv_bfloat16, N, Buffers>;
  const std::size_t smem = h::dynamic_smem_bytes<1024>(epi::smem_bytes);
  CUPROBE_CHECK(cudaFuncSetAttribute(epilogue_kernel<N, Buffers>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  epilogue_kernel<N, Buffers><<<1, 128, smem>>>(map.get(), rest_map.get(), m0, n0, 3);
  CUPROBE_CHECK(cudaGetLastError());
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto got = c.to_host();
  int wrong = 0, poisoned_ok = 0;
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k) {
      std::uint16_t bits;
      std::memcpy(&bits, &got[std::size_t(r) * cols + k], 2);
      const bool inside = r >= m0 && r < m0 + 64 && k >= n0 && k < n0 + N;
      if (inside)
        wrong += float(got[std::size_t(r) * cols + k]) != cell(r, k);
      else
        poisoned_ok += bits == 0xFFFF;
    }
  CHECK(wrong == 0);
  CHECK(poisoned_ok == rows * cols - 64 * std::min(N, cols - n0));  // the matrix clips the box
}

template <int N>
__global__ void direct_kernel(__nv_bfloat16* c, std::size_t ld, int m0, int n0, int n_end) {
  wg::accumulator<wg::f32, N> acc;
#pragma unroll
  for (int e = 0; e < N / 2; ++e) {
    const wg::coord x = wg::accumulator_coord(int(threadIdx.x), e);
    acc.reg[e] = cell(m0 + x.row, n0 + x.col);
  }
  h::direct_store_epilogue<__nv_bfloat16, N>::store(acc, c, ld, m0, n0, n_end);
}

/// direct_store_epilogue of a 64 x N tile at (m0, n0) of a poisoned 192 x 512 matrix, columns
/// from n_end on left alone: the tile's cells hold their values, every other cell its poison.
template <int N>
void check_direct(int m0, int n0, int n_end) {
  constexpr int rows = 192, cols = 512;
  cuprobe::device_buffer<__nv_bfloat16> c(rows * cols);
  c.poison(0xFF);
  direct_kernel<N><<<1, 128>>>(c.data(), cols, m0, n0, n_end);
  CUPROBE_CHECK(cudaGetLastError());
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto got = c.to_host();
  int wrong = 0, poisoned_ok = 0, inside_cells = 0;
  for (int r = 0; r < rows; ++r)
    for (int k = 0; k < cols; ++k) {
      std::uint16_t bits;
      std::memcpy(&bits, &got[std::size_t(r) * cols + k], 2);
      const bool inside = r >= m0 && r < m0 + 64 && k >= n0 && k < n0 + N && k < n_end;
      inside_cells += inside;
      if (inside)
        wrong += float(got[std::size_t(r) * cols + k]) != cell(r, k);
      else
        poisoned_ok += bits == 0xFFFF;
    }
  CHECK(wrong == 0);
  CHECK(poisoned_ok == rows * cols - inside_cells);
}

// ---- the ring: chunks of `words` 32-bit words, Stages deep, Cluster CTAs ----
template <int Stages, int Cluster>
__global__ void __launch_bounds__(96)
    ring_kernel(const std::uint32_t* in, int chunks, int words, unsigned long long* sums) {
  extern __shared__ unsigned char raw[];
  unsigned char* buf = h::align_up<128>(raw);
  auto& pipe = *reinterpret_cast<cuprobe::pipeline::mbarrier_ring<Stages, Cluster>*>(
      buf + Stages * words * 4);
  const unsigned rank = Cluster > 1 ? p::cluster::ctarank() : 0;
  if (threadIdx.x == 0) pipe.init(64);  // every consumer thread releases (racecheck sees each)
  if constexpr (Cluster > 1)
    p::cluster::sync();
  else
    __syncthreads();
  const unsigned warp = threadIdx.x / 32;
  const std::uint32_t bytes = std::uint32_t(words) * 4, slice = bytes / Cluster;
  if (warp == 0) {
    if (threadIdx.x == 0) {
      auto st = pipe.producer_start();
      for (int c = 0; c < chunks; ++c, ++st) {
        pipe.acquire(st);
        auto* bar = pipe.fill(st, bytes);
        unsigned char* dst = buf + st.stage * bytes + rank * slice;
        const auto* src =
            reinterpret_cast<const unsigned char*>(in + std::size_t(c) * words) + rank * slice;
        if constexpr (Cluster == 1)
          p::bulk::load(dst, src, bar, slice);
        else
          p::bulk::load_multicast(dst, src, bar, (1u << Cluster) - 1, slice);
      }
    }
  } else {  // two consumer warps: warp 1 sums the even words, warp 2 the odd ones
    auto st = pipe.consumer_start();
    unsigned long long sum = 0;
    for (int c = 0; c < chunks; ++c, ++st) {
      pipe.wait_full(st);
      const auto* w = reinterpret_cast<const std::uint32_t*>(buf + st.stage * bytes);
      for (int i = 2 * int(threadIdx.x % 32) + int(warp - 1); i < words; i += 64)
        sum += w[i] * (unsigned long long)(c + 1);
      pipe.release(st);  // each thread's reads are done: 64 releases per CTA per phase
    }
    atomicAdd(&sums[blockIdx.x], sum);
  }
  if constexpr (Cluster > 1) p::cluster::sync();
}

template <int Stages, int Cluster>
void check_ring(int chunks, int words, int clusters) {
  const int ctas = clusters * Cluster;
  cuprobe::device_buffer<std::uint32_t> in(std::size_t(chunks) * words);
  in.fill_random(Stages * 100 + Cluster, 0u, 1000000u);
  cuprobe::device_buffer<unsigned long long> sums(ctas);
  sums.zero();
  const auto host = in.to_host();
  unsigned long long want = 0;
  for (int c = 0; c < chunks; ++c)
    for (int i = 0; i < words; ++i) want += host[std::size_t(c) * words + i] * (c + 1ull);
  h::cluster_launch l;
  l.shape = {dim3(ctas), dim3(96),
             h::dynamic_smem_bytes<128>(Stages * words * 4 +
                                        sizeof(cuprobe::pipeline::mbarrier_ring<Stages, Cluster>))};
  l.cluster = dim3(Cluster);
  h::launch(ring_kernel<Stages, Cluster>, l, in.data(), chunks, words, sums.data());
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto got = sums.to_host();
  for (int b = 0; b < ctas; ++b) {
    CAPTURE(b);
    CHECK(got[std::size_t(b)] == want);  // every CTA saw every chunk (multicast included)
  }
}

}  // namespace

CUPROBE_GPU_TEST_CASE(
    "tma_store_epilogue places a 64 x N accumulator exactly, with any buffer count") {
  check_epilogue<256, 2>(64, 128);
  check_epilogue<256, 1>(0, 256);
  check_epilogue<256, 4>(128, 0);
  check_epilogue<128, 2>(64, 384);
  // N % 64 != 0: the narrow last sub-tile through its own map, in the last sub-tile's group.
  check_epilogue<200, 2>(64, 200);
  check_epilogue<200, 3>(128, 0);
  // The 512-column matrix clips the tile: from 328 on, the last full sub-tile's last 8 columns
  // and the whole narrow one; from 320 on, the narrow one. (A start such as 316, whose first
  // column is not on 16 bytes, is not a tile the epilogue accepts: the tensor store is an illegal
  // instruction there, pinned by hopper_tensor_copy_fault.cu.)
  check_epilogue<200, 1>(0, 328);
  check_epilogue<200, 1>(0, 320);
  check_epilogue<88, 1>(64, 8);
}

CUPROBE_GPU_TEST_CASE(
    "direct_store_epilogue writes a 64 x N accumulator exactly, and nothing past n_end") {
  check_direct<256>(64, 128, 512);
  check_direct<200>(0, 200, 512);
  check_direct<200>(128, 320, 512);  // the matrix's edge cuts the tile's last 8 columns
  check_direct<200>(64, 0, 104);     // n_end inside the tile: the blocks from it on skipped
  check_direct<88>(64, 8, 512);      // two groups of four blocks, then three 4-byte blocks
  check_direct<8>(0, 504, 512);      // one block, 4 bytes per lane
}

CUPROBE_GPU_TEST_CASE(
    "mbarrier_ring streams every chunk through 2..8 stages, with and without multicast") {
  check_ring<2, 1>(300, 1024, 4);
  check_ring<4, 1>(500, 2048, 8);
  check_ring<8, 1>(257, 512, 2);
  check_ring<2, 2>(300, 1024, 4);
  check_ring<4, 2>(500, 2048, 8);
  check_ring<3, 4>(200, 1024, 2);
}
