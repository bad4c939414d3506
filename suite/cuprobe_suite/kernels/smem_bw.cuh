// cuprobe_suite/kernels/smem_bw.cuh: shared-memory bandwidth: ld.shared or st.shared of 4, 8
// or 16 bytes per lane, at a chosen stride between lanes (bank conflicts) or all lanes on one word
// (broadcast), timed inside the kernel.
//
//   namespace kernels = cuprobe::suite::kernels;
//   kernels::smem_bw_args a;  a.rounds = 4096;  a.stride = 1;  a.cycles = d_cycles;
//   a.sink = d_sink;
//   kernels::smem_bw_kernel<std::uint32_t, false, 8>
//       <<<sms, 1024, kernels::smem_bw_bytes(1024)>>>(a);   // one block of 32 warps per SM
//   // bytes per SM = 32 warps x rounds x 8 x 32 lanes x 4 B, over d_cycles[block] cycles
//
// Every warp owns a region of smem_bw_region bytes (4 KiB) of dynamic shared memory, so that no
// two warps touch the same word (racecheck-clean, and the stores are no write-write race).
// Lane l accesses element (l x stride) mod (region / sizeof(T)) of its warp's region; stride 0
// puts every lane on element 0 (a broadcast for loads). With 4-byte elements and stride s
// (1..32), a warp's 32 addresses fall into 32 / gcd(s, 32) distinct banks: a gcd(s, 32)-way
// conflict; 8- and 16-byte elements take 2 and 4 wavefronts of 128 bytes when conflict-free.
// A round is U accesses of the same pattern (all issued before any result is used); round r and
// access k add (r x U + k) x zero elements to the address (0 at run time, unknown to the
// compiler), so ptxas can neither merge them nor drop a store the next one overwrites. Thread 0
// of each block records the %clock64 cycles of all rounds (after a barrier, before a barrier);
// sink[thread] keeps the loads' XOR (read) so nothing is dead. tests/sass/cache_bw.cu pins the
// instruction width and the U accesses per round.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuprobe/ptx/opaque.cuh"
#include "cuprobe/ptx/shared.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::suite::kernels {

/// Bytes of shared memory each warp owns.
inline constexpr unsigned smem_bw_region = 4096;

/// Dynamic shared memory a block of `threads` needs.
constexpr std::size_t smem_bw_bytes(unsigned threads) {
  return std::size_t((threads + 31) / 32) * smem_bw_region;
}

struct smem_bw_args {
  std::uint32_t rounds = 1;
  std::uint32_t stride = 1;              ///< elements between lanes; 0: every lane on element 0
  std::uint32_t zero = 0;                ///< must be 0
  unsigned long long* cycles = nullptr;  ///< one per block
  std::uint32_t* sink = nullptr;         ///< one per thread (loads); may be null for stores
};

/// The body of smem_bw_kernel (see the file comment); call it from your own __global__ function
/// for a kernel with a name you choose.
template <class T, bool Store, int U>
__device__ __forceinline__ void smem_bw_body(const smem_bw_args& a) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "cuprobe::suite::kernels::smem_bw_kernel: elements of 4, 8 or 16 bytes");
  static_assert(U >= 1 && U <= 32, "cuprobe::suite::kernels::smem_bw_kernel: U is 1 .. 32");
  extern __shared__ __align__(16) unsigned char smem_bw_buf[];
  constexpr unsigned per_region = smem_bw_region / sizeof(T);
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  const std::uint32_t region = ptx::smem_address(smem_bw_buf) + warp * smem_bw_region;
  const std::uint32_t my = region + ((lane * a.stride) % per_region) * sizeof(T);
  // For loads, every word of the warp's region gets a value before anything reads it
  // (unrolled: the rounds loop stays the kernel's only loop, as its SASS tests expect). The
  // store kernel reads nothing.
  if constexpr (!Store) {
#pragma unroll
    for (unsigned i = 0; i < smem_bw_region / 4 / 32; ++i) {
      const unsigned w = lane + 32 * i;
      ptx::st_shared<std::uint32_t>(region + 4 * w, w ^ (warp << 16));
    }
  }
  __syncthreads();
  std::uint32_t acc = 0;
  const std::uint64_t t0 = ptx::clock64();
  // One round per iteration, not unrolled: U accesses in flight is the kernel's one knob, and
  // the SASS tests pin exactly U per iteration.
#pragma unroll 1
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    if constexpr (Store) {
#pragma unroll
      for (int k = 0; k < U; ++k) {
        T v;
        std::uint32_t bits[sizeof(T) / 4];
#pragma unroll
        for (unsigned j = 0; j < sizeof(T) / 4; ++j) bits[j] = r + k + j;
        std::memcpy(&v, bits, sizeof(T));
        ptx::st_shared<T>(my + (r * U + k) * a.zero * sizeof(T), v);
      }
    } else {
      T v[U];
#pragma unroll
      for (int k = 0; k < U; ++k) v[k] = ptx::ld_shared<T>(my + (r * U + k) * a.zero * sizeof(T));
#pragma unroll
      for (int k = 0; k < U; ++k) {
        std::uint32_t bits[sizeof(T) / 4];
        std::memcpy(bits, &v[k], sizeof(T));
#pragma unroll
        for (unsigned j = 0; j < sizeof(T) / 4; ++j) acc ^= bits[j];
      }
    }
  }
  __syncthreads();
  const std::uint64_t t1 = ptx::clock64();
  if (threadIdx.x == 0 && a.cycles) a.cycles[blockIdx.x] = t1 - t0;
  if (a.sink) a.sink[std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x] = acc;
}

/// Launch with smem_bw_bytes(blockDim.x) bytes of dynamic shared memory.
template <class T, bool Store, int U>
__global__ void smem_bw_kernel(smem_bw_args a) {
  smem_bw_body<T, Store, U>(a);
}

/// Ways of the bank conflict a warp's 4-byte accesses at `stride` words produce: gcd(stride, 32)
/// (32 lanes over 32 banks of 4 bytes); 1 for stride 0 (a broadcast is one wavefront).
constexpr unsigned smem_conflict_ways(unsigned stride) {
  if (stride == 0) return 1;
  unsigned a = stride % 32, b = 32;
  if (a == 0) return 32;
  while (a) {
    const unsigned t = b % a;
    b = a;
    a = t;
  }
  return b;
}

}  // namespace cuprobe::suite::kernels
