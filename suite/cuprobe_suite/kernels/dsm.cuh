// cuprobe_suite/kernels/dsm.cuh: distributed shared memory (DSM, sm_90 thread block
// clusters): the pointer chase from one CTA into a peer CTA's shared memory, and the bandwidth
// kernel in which every CTA reads its neighbour's shared memory, both with ld.shared::cluster and
// timed by %clock64 inside the kernel. Host launch: hopper/cluster.cuh; the experiments that
// measure through the protocol: cuprobe_suite/dsm.cuh.
//
//   kernels::dsm_chase_args a;  a.next = d_next;  a.nodes = 4096;  a.stride = 4;  a.target = 1;
//   a.warmup = 4096;  a.steps = 1 << 14;  a.out = d_out;  a.smids = d_smids;
//   hopper::cluster_launch c;  c.cluster = dim3(2);                     // one cluster of 2 CTAs
//   c.shape = {dim3(2), dim3(128), kernels::dsm_one_cta_per_sm_smem(dev, 16384)};
//   hopper::launch(kernels::dsm_chase_kernel<0>, c, a);    // rank 0 chases the ring of rank 1
//   // cycles per hop = out.cycles / a.steps; dsm_chase_node(out, ...) = where the chase ended
//
// The chase. Every CTA of the cluster links a ring of `nodes` nodes, `stride` bytes apart, in
// its own dynamic shared memory: node i holds the 32-bit .shared::cluster address (mapa of the
// CTA's own rank) of its successor next[rank x nodes + i], so the chase loop is p = ld(p) with
// no mapa per hop, and the ring it follows lies wholly in the target's shared memory. Each rank
// has its own ring (the host draws them with different seeds), so the node the chase ends on
// proves whose memory was read. After a cluster barrier (every ring linked, every CTA running)
// thread 0 of rank 0 chases the ring of rank `target` with ld.shared::cluster.b32: `warmup`
// untimed hops, then `steps` hops between two clock64() reads (ptx::opaque at both, as in
// gen/chase.cuh). target = 0 is the control: rank 0's own ring through the same instruction.
// A last cluster barrier keeps every CTA alive until the chase is done (the PTX ISA leaves
// access to the shared memory of an exited CTA undefined).
//
// The bandwidth kernel. Every warp fills its own dsm_bw_region (4 KiB) of dynamic shared
// memory, then, after a cluster barrier, reads the same region of CTA (rank + peer_step) % n:
// peer_step 1 is the neighbour, 0 the CTA's own shared memory through ld.shared::cluster (the
// local control). A round is U loads of sizeof(T) = 4, 8 or 16 bytes per lane (the warp's 32
// lanes on consecutive elements: conflict-free), load k on the k-th 32-element chunk of the
// region (mod the region), all issued before any result is used; round r and load k add
// (r x U + k) x zero elements to the address (0 at run time) so that ptxas can neither merge
// nor hoist them. Thread 0 records the %clock64 cycles of all rounds (from the cluster barrier
// to a block barrier after the rounds); sink[thread] keeps the sum of the words read, which
// carry the owner's rank (dsm_bw_sink is its host twin). Launch it with more dynamic shared
// memory than half an SM's (dsm_one_cta_per_sm_smem) so that no two CTAs share an SM: every
// CTA's traffic then crosses the SM-to-SM network (smids[] shows it).
//
// In SASS (sm_90a, tests/sass/dsm.cu and tests/areas/dsm.cmake pin it): ld.shared::cluster is a
// generic LD.E / LD.E.64 / LD.E.128 on the 64-bit pair {32-bit address, SR_SWINHI} (the shared
// window), mapa a PRMT of the rank into the address, barrier.cluster UCGABAR_ARV + UCGABAR_WAIT.
// A chase hop is MOV + LD.E (the MOV pairs the loaded address with SR_SWINHI), for the remote
// target and the control alike.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/ptx/cluster.cuh"
#include "cuprobe/ptx/opaque.cuh"
#include "cuprobe/ptx/shared.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::suite::kernels {

// ------------------------------------------------------------------------------------------
// Shared-memory sizing (host).

/// Dynamic shared memory that keeps one CTA per SM: at least `need` bytes and more than half of
/// the SM's shared memory (so a second CTA cannot fit beside it), in whole KiB. Throws when that
/// exceeds what a block may opt in to.
inline std::size_t dsm_one_cta_per_sm_smem(const device_info& dev, std::size_t need) {
  require(dev.smem_per_sm > 0 && dev.smem_per_block_optin > 0,
          "dsm: the device reports no shared memory per SM or per block");
  const std::size_t half = dev.smem_per_sm / 2 + 1;
  const std::size_t bytes = (std::max(need, half) + 1023) / 1024 * 1024;
  require(bytes <= dev.smem_per_block_optin,
          "dsm: " + std::to_string(bytes) + " bytes of shared memory per CTA (" +
              std::to_string(need) + " needed, more than half of the SM's " +
              std::to_string(dev.smem_per_sm) + " to keep one CTA per SM) exceed the " +
              std::to_string(dev.smem_per_block_optin) + " bytes a block may opt in to");
  return bytes;
}

// ------------------------------------------------------------------------------------------
// The chase.

/// What dsm_chase_kernel writes: the timed cycles, and the .shared::cluster addresses of the
/// node the chase ended on and of node 0 of the chased ring.
struct dsm_chase_out {
  unsigned long long cycles;
  std::uint32_t last;
  std::uint32_t base;
};

struct dsm_chase_args {
  const std::uint32_t* next = nullptr;  ///< nctarank x nodes successors: rank r's at [r x nodes]
  std::uint32_t nodes = 0;              ///< per ring (per CTA)
  std::uint32_t stride = 4;             ///< bytes between nodes, a multiple of 4
  std::uint32_t target = 1;             ///< the rank whose ring rank 0 chases (0: its own)
  std::uint64_t warmup = 0;             ///< untimed hops
  std::uint64_t steps = 1;              ///< timed hops
  dsm_chase_out* out = nullptr;
  std::uint32_t* smids = nullptr;  ///< one per rank: the SM the CTA ran on (may be null)
};

/// The body of dsm_chase_kernel (see the file comment); call it from your own __global__
/// function for a kernel with a name you choose.
template <class T = void>
__device__ __forceinline__ void dsm_chase_body(const dsm_chase_args& a) {
  namespace cl = ptx::cluster;
  extern __shared__ __align__(16) unsigned char dsm_chase_smem[];
  const std::uint32_t rank = cl::ctarank();
  const std::uint32_t base = ptx::smem_address(dsm_chase_smem);
  const std::uint32_t* next = a.next + std::size_t(rank) * a.nodes;
  for (std::uint32_t i = threadIdx.x; i < a.nodes; i += blockDim.x)
    ptx::st_shared<std::uint32_t>(base + i * a.stride,
                                  cl::map_shared(base + next[i] * a.stride, rank));
  if (threadIdx.x == 0 && a.smids) a.smids[rank] = ptx::smid();
  cl::sync();  // every ring linked, every CTA of the cluster running
  if (rank == 0 && threadIdx.x == 0) {
    const std::uint32_t start = cl::map_shared(base, a.target);
    std::uint32_t p = start;
    for (std::uint64_t i = 0; i < a.warmup; ++i) p = cl::ld<std::uint32_t>(p);
    ptx::opaque(p);
    const std::uint64_t t0 = ptx::clock64();
#pragma unroll 4
    for (std::uint64_t i = 0; i < a.steps; ++i) p = cl::ld<std::uint32_t>(p);
    ptx::opaque(p);
    const std::uint64_t t1 = ptx::clock64();
    *a.out = {t1 - t0, p, start};
  }
  cl::sync();  // no CTA exits while rank 0 may still read its shared memory
}

/// Launch as one cluster (grid = cluster) with at least nodes x stride bytes of dynamic shared
/// memory; any block size (the threads link the ring together).
template <int = 0>
__global__ void dsm_chase_kernel(dsm_chase_args a) {
  dsm_chase_body(a);
}

/// The successors of every rank's ring: `ranks` random single cycles of `nodes` nodes
/// (chase_successors with seed + rank), rank r's at [r x nodes, (r + 1) x nodes).
inline std::vector<std::uint32_t> dsm_successors(std::uint32_t nodes, unsigned ranks,
                                                 std::uint64_t seed) {
  require(ranks >= 1, "dsm_successors: at least one rank");
  std::vector<std::uint32_t> all;
  all.reserve(std::size_t(nodes) * ranks);
  for (unsigned r = 0; r < ranks; ++r) {
    const std::vector<std::uint32_t> n = gen::chase_successors(nodes, 1, seed + r);
    all.insert(all.end(), n.begin(), n.end());
  }
  return all;
}

/// The node a chase of rank `target`'s ring reaches from node 0 after `hops` hops (host walk).
inline std::uint32_t dsm_expected_node(const std::vector<std::uint32_t>& next, std::uint32_t nodes,
                                       unsigned target, std::uint64_t hops) {
  require(std::size_t(target + 1) * nodes <= next.size(),
          "dsm_expected_node: rank " + std::to_string(target) + " has no ring in the successors");
  const std::uint32_t* ring = next.data() + std::size_t(target) * nodes;
  std::uint32_t p = 0;
  for (std::uint64_t i = 0; i < hops % nodes; ++i) p = ring[p];  // a single cycle of `nodes`
  return p;
}

/// The node index `out.last` names, or nothing when it is no node of the chased ring.
inline std::optional<std::uint32_t> dsm_chase_node(const dsm_chase_out& out, std::uint32_t nodes,
                                                   std::uint32_t stride) {
  if (stride == 0 || out.last < out.base) return std::nullopt;
  const std::uint32_t off = out.last - out.base;
  if (off % stride != 0 || off / stride >= nodes) return std::nullopt;
  return off / stride;
}

// ------------------------------------------------------------------------------------------
// Bandwidth.

/// Bytes of shared memory each warp fills and its peer's warp reads.
inline constexpr unsigned dsm_bw_region = 4096;

/// Dynamic shared memory the regions of a block of `threads` take (before the one-CTA-per-SM
/// padding of dsm_one_cta_per_sm_smem).
constexpr std::size_t dsm_bw_bytes(unsigned threads) {
  return std::size_t((threads + 31) / 32) * dsm_bw_region;
}

struct dsm_bw_args {
  std::uint32_t rounds = 1;
  std::uint32_t peer_step = 1;           ///< read CTA (rank + peer_step) % n; 0: its own
  std::uint32_t zero = 0;                ///< must be 0
  unsigned long long* cycles = nullptr;  ///< one per CTA
  std::uint32_t* sink = nullptr;         ///< one per thread
  std::uint32_t* smids = nullptr;        ///< one per CTA (may be null)
};

/// The body of dsm_bw_kernel (see the file comment); call it from your own __global__ function
/// for a kernel with a name you choose.
template <class T, int U>
__device__ __forceinline__ void dsm_bw_body(const dsm_bw_args& a) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "cuprobe::suite::kernels::dsm_bw_kernel: elements of 4, 8 or 16 bytes");
  static_assert(U >= 1 && U <= 32, "cuprobe::suite::kernels::dsm_bw_kernel: U is 1 .. 32");
  namespace cl = ptx::cluster;
  extern __shared__ __align__(16) unsigned char dsm_bw_buf[];
  constexpr unsigned chunk = 32 * sizeof(T);  // bytes of one warp-wide load
  constexpr unsigned chunks = dsm_bw_region / chunk;
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  const std::uint32_t rank = cl::ctarank(), n = cl::nctarank();
  const std::uint32_t peer = (rank + a.peer_step) % n;
  const std::uint32_t region = ptx::smem_address(dsm_bw_buf) + warp * dsm_bw_region;
  // Every word of the warp's region gets a value before any CTA reads it (unrolled: the rounds
  // loop stays the kernel's only loop, as its SASS tests expect).
#pragma unroll
  for (unsigned i = 0; i < dsm_bw_region / 4 / 32; ++i) {
    const unsigned w = lane + 32 * i;
    ptx::st_shared<std::uint32_t>(region + 4 * w, w ^ (warp << 16) ^ (rank << 24));
  }
  std::uint32_t addr[U];
#pragma unroll
  for (int k = 0; k < U; ++k)
    addr[k] = cl::map_shared(region + (unsigned(k) % chunks) * chunk + lane * sizeof(T), peer);
  if (threadIdx.x == 0 && a.smids) a.smids[blockIdx.x] = ptx::smid();
  cl::sync();  // every region written, every CTA of the cluster running
  std::uint32_t acc = 0;
  const std::uint64_t t0 = ptx::clock64();
  // One round per iteration, not unrolled: U loads in flight per thread is the kernel's knob,
  // and the SASS tests pin exactly U per iteration.
#pragma unroll 1
  for (std::uint32_t r = 0; r < a.rounds; ++r) {
    T v[U];
#pragma unroll
    for (int k = 0; k < U; ++k)
      v[k] = cl::ld<T>(addr[k] + (r * U + unsigned(k)) * a.zero * unsigned(sizeof(T)));
#pragma unroll
    for (int k = 0; k < U; ++k) {
      std::uint32_t bits[sizeof(T) / 4];
      std::memcpy(bits, &v[k], sizeof(T));
#pragma unroll
      for (unsigned j = 0; j < sizeof(T) / 4; ++j) acc += bits[j];
    }
  }
  __syncthreads();
  const std::uint64_t t1 = ptx::clock64();
  if (threadIdx.x == 0 && a.cycles) a.cycles[blockIdx.x] = t1 - t0;
  if (a.sink) a.sink[std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x] = acc;
  cl::sync();  // no CTA exits while its peer may still read its shared memory
}

/// Launch in clusters, with dsm_one_cta_per_sm_smem(dev, dsm_bw_bytes(blockDim.x)) bytes of
/// dynamic shared memory.
template <class T, int U>
__global__ void dsm_bw_kernel(dsm_bw_args a) {
  dsm_bw_body<T, U>(a);
}

/// What dsm_bw_kernel leaves in sink[thread] of a CTA that read CTA `peer` of its cluster with
/// loads of `bytes` per lane, U = `u`, `rounds` rounds: rounds x the sum of one round's words
/// (mod 2^32). The words carry the owner's rank, so the sum says whose memory was read.
inline std::uint32_t dsm_bw_sink(unsigned bytes, int u, std::uint32_t rounds, unsigned thread,
                                 std::uint32_t peer) {
  const unsigned lane = thread & 31u, warp = thread >> 5;
  const unsigned chunk = 32 * bytes, chunks = dsm_bw_region / chunk;
  std::uint32_t round = 0;
  for (int k = 0; k < u; ++k) {
    const unsigned first = ((unsigned(k) % chunks) * chunk + lane * bytes) / 4;
    for (unsigned j = 0; j < bytes / 4; ++j) round += (first + j) ^ (warp << 16) ^ (peer << 24);
  }
  return round * rounds;
}

}  // namespace cuprobe::suite::kernels
