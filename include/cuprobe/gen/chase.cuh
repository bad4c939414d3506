// cuprobe/gen/chase.cuh: the pointer chase (global and shared memory): rings, kernels, and one
// chase (one launch, one sample). Repeats, statistics and sweeps go through the measurement
// protocol: cuprobe_suite/latency.cuh (chase_latency, latency_ladder) builds them from this.
//
//   cuprobe::gen::chase_ring ring(64 << 20);                  // 64 MiB, one node per 128 B line
//   auto r = cuprobe::gen::run_chase(ring);                   // one launch, synchronous
//   std::printf("%.1f cycles/hop over %llu hops\n", r.cycles_per_hop,
//               static_cast<unsigned long long>(r.steps));
//   auto sizes = cuprobe::gen::chase_sweep_sizes(4 << 10, 1 << 30);   // working sets of a curve
//
// The ring: bytes / stride nodes, `stride` bytes apart, each node's first 8 bytes the address of
// the next in a random cyclic permutation (Sattolo's algorithm, seeded): `p = *p` is a dependent
// chain whose every hop lands on a random line. With rings = 32, 32 disjoint rings (node i in
// ring i % 32), one per lane, each spanning the working set. docs/memory-latency.md explains
// every choice (stride and TLB, warm-up, step cap, lanes).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/host_buffer.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/opaque.cuh"
#include "cuprobe/ptx/shared.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::gen {

// ------------------------------------------------------------------------------------------
// Loads. The chase kernel takes any callable `std::uint64_t load(const std::uint64_t*)`, e.g.
// [] __device__ (const std::uint64_t* p) { return *reinterpret_cast<const volatile
// std::uint64_t*>(p); }.

/// One hop through ptx::ld with cache operator Op (ptx/cache.cuh): ld.global<.op>.b64.
template <class Op = ptx::cache::none>
struct chase_load {
  /// The word at `p`, loaded with ld.global<.Op>.b64.
  __device__ __forceinline__ std::uint64_t operator()(const std::uint64_t* p) const {
    return ptx::ld<Op>(p);
  }
};
/// ld.global.b64 with the default cache operator (.ca: L1 and L2 on sm_70+).
using chase_load_global = chase_load<ptx::cache::none>;
/// ld.global.cg.b64: cached in L2 only, so the chase sees L2 latency for sets that fit in L1.
using chase_load_global_cg = chase_load<ptx::cache::cg>;

// ------------------------------------------------------------------------------------------
// The ring.

/// The lanes of a warp chase: the most rings one chase follows at once.
inline constexpr unsigned chase_warp_lanes = 32;

/// Successor of every node (uint32 node indices; 4 bytes of host memory per node): `rings`
/// disjoint rings, node i in ring i % rings, each ring one random cycle drawn by Sattolo's
/// algorithm from a counter-based generator (same seed, same rings, on any machine). Nodes past
/// the last multiple of `rings` are left out (their entry is their own index).
inline std::vector<std::uint32_t> chase_successors(std::uint64_t nodes, unsigned rings,
                                                   std::uint64_t seed) {
  require(rings >= 1, "chase_successors: at least one ring");
  require(
      nodes <= std::numeric_limits<std::uint32_t>::max(),
      "chase_successors: at most 2^32 - 1 nodes (node indices are 32-bit); use a larger stride");
  const std::uint64_t per_ring = nodes / rings;
  require(per_ring >= 2, "chase_successors: each ring needs at least 2 nodes (" +
                             std::to_string(nodes) + " nodes for " + std::to_string(rings) +
                             " rings)");
  std::vector<std::uint32_t> next(static_cast<std::size_t>(nodes));
  for (std::uint64_t i = 0; i < nodes; ++i) next[i] = static_cast<std::uint32_t>(i);
  for (unsigned r = 0; r < rings; ++r) {
    // Sattolo on the ring's local indices 0..per_ring-1, kept in place at next[k*rings + r].
    auto at = [&](std::uint64_t k) -> std::uint32_t& { return next[k * rings + r]; };
    for (std::uint64_t k = 0; k < per_ring; ++k) at(k) = static_cast<std::uint32_t>(k);
    const std::uint64_t stream = cuprobe::detail::mix64(seed ^ (0x9E3779B97F4A7C15ull * (r + 1)));
    for (std::uint64_t i = per_ring - 1; i > 0; --i) {
      const std::uint64_t j = ((cuprobe::detail::mix64(stream + i) >> 32) * i) >> 32;  // [0, i)
      std::swap(at(i), at(j));
    }
    for (std::uint64_t k = 0; k < per_ring; ++k)
      at(k) = static_cast<std::uint32_t>(at(k) * rings + r);
  }
  return next;
}

namespace detail {
template <int = 0>
__global__ void chase_link_kernel(std::uint64_t* base, const std::uint32_t* next, std::uint64_t n,
                                  std::uint64_t stride_words) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    base[i * stride_words] = reinterpret_cast<std::uint64_t>(base + next[i] * stride_words);
}
}  // namespace detail

/// Where a ring lives: device memory (cudaMalloc), or host memory mapped into the device's
/// address space (host_buffer, host_memory::mapped: every hop crosses the bus to the host).
enum class chase_placement { device, host_mapped };

inline const char* to_string(chase_placement p) {  ///< "device" or "host_mapped".
  return p == chase_placement::device ? "device" : "host_mapped";
}

/// What a chase ring's memory holds besides the links: `links_only` (the default: the other bytes
/// of each node are left as they are, so no memset changes the L2 state a chase starts from) or
/// `zeroed` (every byte is zeroed before linking, for chases that copy whole nodes: a TMA copy of
/// a node would otherwise read uninitialised memory).
enum class chase_fill { links_only, zeroed };

/// A ring (the working set) in device memory, or in mapped host memory (chase_placement).
/// Built on the host (successors) and linked on the device (addresses; a host-mapped ring is
/// linked by the host, which writes its own memory), so a 4 GiB device ring costs 4 bytes of
/// host memory per node and no host copy of the working set. Move-only, like the memory it owns.
class chase_ring {
 public:
  /// `bytes` is rounded down to a multiple of stride x rings. `stride` (bytes between nodes)
  /// is a multiple of 8: 128 = one L1/L2 line; 4 KiB, 64 KiB, 2 MiB expose TLB reach.
  /// `fill`: chase_fill::zeroed for chases that copy whole nodes (see chase_fill).
  explicit chase_ring(std::size_t bytes, std::size_t stride = 128, unsigned rings = 1,
                      std::uint64_t seed = 1, chase_fill fill = chase_fill::links_only,
                      chase_placement placement = chase_placement::device)
      : stride_(stride), rings_(rings), seed_(seed), placement_(placement) {
    require(
        stride >= 8 && stride % 8 == 0,
        "chase_ring: the stride must be a multiple of 8 bytes (a node holds an 8-byte address)");
    require(rings == 1 || rings == chase_warp_lanes,
            "chase_ring: rings must be 1 (one chain) or 32 (one ring per lane of a warp)");
    nodes_ = bytes / stride / rings * rings;
    require(nodes_ >= 2ull * rings, "chase_ring: " + std::to_string(bytes) +
                                        " bytes hold fewer than " + std::to_string(2 * rings) +
                                        " nodes of stride " + std::to_string(stride));
    const std::vector<std::uint32_t> next = chase_successors(nodes_, rings, seed);
    const std::size_t words = static_cast<std::size_t>(nodes_ * (stride / 8));
    if (placement == chase_placement::host_mapped) {
      host_ = host_buffer<std::uint64_t>(words, cuprobe::host_memory::mapped);
      if (fill == chase_fill::zeroed) host_.poison(0);
      base_ = host_.device_data();
      const std::uint64_t* dev = host_.device_data();
      for (std::uint64_t i = 0; i < nodes_; ++i)
        host_[i * (stride / 8)] = reinterpret_cast<std::uint64_t>(dev + next[i] * (stride / 8));
      return;
    }
    mem_ = device_buffer<std::uint64_t>(words);
    base_ = mem_.data();
    if (fill == chase_fill::zeroed) mem_.zero();
    device_buffer<std::uint32_t> d_next(next.size());
    d_next.upload(next);
    const std::uint64_t blocks = std::min<std::uint64_t>((nodes_ + 255) / 256, 4096);
    detail::chase_link_kernel<<<static_cast<unsigned>(blocks), 256>>>(mem_.data(), d_next.data(),
                                                                      nodes_, stride / 8);
    CUPROBE_CHECK_LAUNCH("cuprobe::gen::chase_ring link kernel");
    synchronize_device("gen::chase_ring (linking the ring)");
  }

  std::uint64_t nodes() const noexcept { return nodes_; }  ///< the number of nodes, in all rings
  std::uint64_t nodes_per_ring() const noexcept { return nodes_ / rings_; }  ///< nodes per ring
  unsigned rings() const noexcept { return rings_; }       ///< the number of rings
  std::size_t stride() const noexcept { return stride_; }  ///< bytes between consecutive nodes
  /// The working set: nodes x stride.
  std::size_t bytes() const noexcept { return static_cast<std::size_t>(nodes_ * stride_); }
  std::uint64_t seed() const noexcept { return seed_; }  ///< the seed the rings were drawn from
  /// Device address of node i (ring r starts at node r).
  std::uint64_t address(std::uint64_t node) const {
    return reinterpret_cast<std::uint64_t>(base_) + node * stride_;
  }
  /// Where the ring lives.
  chase_placement placement() const noexcept { return placement_; }
  /// The node whose address is `a`; throws if `a` is not a node of this ring.
  std::uint64_t node_of(std::uint64_t a) const {
    const std::uint64_t base = address(0);
    require(a >= base && (a - base) % stride_ == 0 && (a - base) / stride_ < nodes_,
            "chase_ring: the chase ended at an address outside the ring; the load functor must "
            "return the 8 bytes stored at the address it is given");
    return (a - base) / stride_;
  }
  /// Reads the links back and turns them into node indices (for tests). Copies only the link
  /// word of each node (a strided copy): the rest of a node is never written (unless
  /// chase_fill::zeroed), and copying it would read uninitialised device memory (initcheck says
  /// so).
  std::vector<std::uint32_t> successors_on_device() const {
    std::vector<std::uint64_t> words(static_cast<std::size_t>(nodes_));
    CUPROBE_CHECK(cudaMemcpy2D(words.data(), 8, base_, stride_, 8, static_cast<std::size_t>(nodes_),
                               cudaMemcpyDefault));
    std::vector<std::uint32_t> next(static_cast<std::size_t>(nodes_));
    for (std::uint64_t i = 0; i < nodes_; ++i)
      next[i] = static_cast<std::uint32_t>(node_of(words[i]));
    return next;
  }
  /// The device memory of a device ring (empty for a host-mapped one: host()).
  const device_buffer<std::uint64_t>& memory() const noexcept { return mem_; }
  /// The host memory of a host-mapped ring (empty for a device one: memory()).
  const host_buffer<std::uint64_t>& host() const noexcept { return host_; }

 private:
  device_buffer<std::uint64_t> mem_;
  host_buffer<std::uint64_t> host_;
  std::uint64_t* base_ = nullptr;
  std::uint64_t nodes_ = 0;
  std::size_t stride_;
  unsigned rings_;
  std::uint64_t seed_;
  chase_placement placement_;
};

// ------------------------------------------------------------------------------------------
// Running a chase.

/// Who chases: one thread; a warp whose 32 lanes chase ring 0 from the same node (one address
/// per warp load: the same latency as one thread, through the warp path); or a warp whose lane
/// l chases its own ring l (32 different lines per warp load, 32 misses in flight).
enum class chase_lanes { one, warp_same, warp_own };
/// Warm-up before the timed hops: automatic (one full pass of the ring when it is no longer
/// than max_steps, so that a ring that fits a cache is measured hitting it; none for longer
/// rings, which no cache holds), none, or always one full pass.
enum class chase_warmup { automatic, none, full_pass };

/// "one", "warp_same" or "warp_own".
inline const char* to_string(chase_lanes l) {
  return l == chase_lanes::one ? "one" : l == chase_lanes::warp_same ? "warp_same" : "warp_own";
}

/// How long to chase, and who chases.
struct chase_options {
  chase_lanes lanes = chase_lanes::one;           ///< who chases
  chase_warmup warmup = chase_warmup::automatic;  ///< warm-up before the timed hops
  unsigned passes = 4;                            ///< timed hops = nodes per ring x passes ...
  std::uint64_t min_steps = 1u << 14;             ///< ... at least this many (small rings) ...
  std::uint64_t max_steps = 1u << 19;  ///< ... at most this many (~0.3-0.5 s at DRAM latency)
  cudaStream_t stream = nullptr;       ///< the stream the chase runs on
};

/// Timed hops for a ring of `nodes_per_ring`: clamp(nodes x passes, min_steps, max_steps).
inline std::uint64_t chase_timed_steps(std::uint64_t nodes_per_ring, const chase_options& o) {
  require(o.min_steps >= 1 && o.min_steps <= o.max_steps,
          "chase_options: need 1 <= min_steps <= max_steps");
  const std::uint64_t want = nodes_per_ring * std::max(1u, o.passes);
  return std::clamp(want, o.min_steps, o.max_steps);
}

/// Warm-up hops for a ring of `nodes_per_ring` (see chase_warmup).
inline std::uint64_t chase_warmup_steps(std::uint64_t nodes_per_ring, const chase_options& o) {
  return o.warmup == chase_warmup::none                                         ? 0
         : o.warmup == chase_warmup::full_pass || nodes_per_ring <= o.max_steps ? nodes_per_ring
                                                                                : 0;
}

/// What one chase measured.
struct chase_result {
  std::size_t bytes = 0;                  ///< working set: nodes x stride
  std::size_t stride = 0;                 ///< bytes between consecutive nodes
  std::uint64_t nodes = 0;                ///< the number of nodes, in all rings
  unsigned rings = 1;                     ///< the number of rings
  chase_lanes lanes = chase_lanes::one;   ///< who chased
  std::uint64_t steps = 0;                ///< timed hops per lane
  std::uint64_t warmup_steps = 0;         ///< untimed hops before them
  std::uint64_t cycles = 0;               ///< timed cycles (the slowest lane)
  double cycles_per_hop = 0;              ///< cycles / steps
  std::vector<std::uint64_t> last_nodes;  ///< per lane: the node reached after all hops
};

/// Per-lane input of the chase kernels: start address (or shared offset) per lane.
struct chase_kernel_args {
  std::uint64_t start[chase_warp_lanes];  ///< the start address per lane
  std::uint64_t warmup;                   ///< untimed hops before the timed ones
  std::uint64_t steps;                    ///< timed hops per lane
  unsigned lanes;                         ///< the number of lanes that chase
};
/// Per-lane output: timed cycles and where the chain ended (so it cannot be optimised away).
struct chase_lane_out {
  unsigned long long cycles;  ///< timed cycles
  unsigned long long last;    ///< where the chain ended
};

/// The global-memory chase: lane l < a.lanes follows p = load(p) from a.start[l], a.warmup hops
/// untimed, then a.steps hops between two clock64() reads. ptx::opaque(p) at both reads makes
/// p opaque there, so the compiler cannot start or finish the chain outside the timed
/// region; the hardware may still have the last load in flight at the second read and the last
/// warm-up load at the first (an error of at most one hop out of a.steps).
template <class Load>
__global__ void chase_kernel(chase_kernel_args a, Load load, chase_lane_out* out) {
  const unsigned lane = threadIdx.x;
  if (lane >= a.lanes) return;
  std::uint64_t p = a.start[lane];
  for (std::uint64_t i = 0; i < a.warmup; ++i) p = load(reinterpret_cast<const std::uint64_t*>(p));
  ptx::opaque(p);
  const std::uint64_t t0 = ptx::clock64();
#pragma unroll 4
  for (std::uint64_t i = 0; i < a.steps; ++i) p = load(reinterpret_cast<const std::uint64_t*>(p));
  ptx::opaque(p);
  const std::uint64_t t1 = ptx::clock64();
  out[lane] = {t1 - t0, p};
}

/// The shared-memory chase: the block links `nodes` nodes of `stride` bytes in dynamic shared
/// memory from `next` (node indices), each holding the 32-bit shared address of its successor;
/// lanes then chase with ld.shared.b32 (ptx::ld_shared; start and last are node indices here).
template <int = 0>
__global__ void shared_chase_kernel(const std::uint32_t* next, std::uint32_t nodes,
                                    std::uint32_t stride, chase_kernel_args a,
                                    chase_lane_out* out) {
  extern __shared__ __align__(16) unsigned char chase_smem[];
  const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(chase_smem));
  for (std::uint32_t i = threadIdx.x; i < nodes; i += blockDim.x)
    *reinterpret_cast<std::uint32_t*>(chase_smem + std::size_t(i) * stride) =
        base + next[i] * stride;
  __syncthreads();
  const unsigned lane = threadIdx.x;
  if (lane >= a.lanes) return;
  std::uint32_t p = base + static_cast<std::uint32_t>(a.start[lane]) * stride;
  for (std::uint64_t i = 0; i < a.warmup; ++i) p = ptx::ld_shared<std::uint32_t>(p);
  const std::uint64_t t0 = ptx::clock64();
#pragma unroll 4
  for (std::uint64_t i = 0; i < a.steps; ++i) p = ptx::ld_shared<std::uint32_t>(p);
  ptx::opaque(p);
  const std::uint64_t t1 = ptx::clock64();
  out[lane] = {t1 - t0, (p - base) / stride};
}

namespace detail {
inline unsigned chase_lane_count(chase_lanes l) {
  return l == chase_lanes::one ? 1u : chase_warp_lanes;
}

inline void chase_check_rings(chase_lanes l, unsigned rings) {
  require(l == chase_lanes::warp_own ? rings == chase_warp_lanes : rings == 1,
          std::string("chase: lanes = ") + to_string(l) +
              (l == chase_lanes::warp_own ? " needs a ring built with rings = 32"
                                          : " needs a ring built with rings = 1"));
}

/// Fills `a` (starts: node r for lane r in warp_own, node 0 otherwise) and the result header.
inline chase_result chase_prepare(chase_kernel_args& a, std::uint64_t nodes, std::size_t stride,
                                  unsigned rings, const chase_options& o) {
  chase_check_rings(o.lanes, rings);
  chase_result r;
  r.nodes = nodes;
  r.stride = stride;
  r.bytes = static_cast<std::size_t>(nodes * stride);
  r.rings = rings;
  r.lanes = o.lanes;
  r.steps = chase_timed_steps(nodes / rings, o);
  r.warmup_steps = chase_warmup_steps(nodes / rings, o);
  a = {};
  a.lanes = chase_lane_count(o.lanes);
  a.steps = r.steps;
  a.warmup = r.warmup_steps;
  for (unsigned l = 0; l < a.lanes; ++l) a.start[l] = o.lanes == chase_lanes::warp_own ? l : 0;
  return r;
}

/// Reads the per-lane outputs back, fills cycles and the per-hop figures.
template <class ToNode>
void chase_finish(chase_result& r, const device_buffer<chase_lane_out>& out, unsigned lanes,
                  const chase_options& o, ToNode to_node) {
  wait_for(o.stream, "gen::chase_finish");
  const std::vector<chase_lane_out> h = out.to_host();
  for (unsigned l = 0; l < lanes; ++l) {
    require(!device_buffer<chase_lane_out>::is_poison(h[l]), "chase: a lane wrote no result");
    r.cycles = std::max<std::uint64_t>(r.cycles, h[l].cycles);
    r.last_nodes.push_back(to_node(h[l].last));
  }
  r.cycles_per_hop = static_cast<double>(r.cycles) / static_cast<double>(r.steps);
}
}  // namespace detail

/// Chases `ring` in global memory with `load` and returns the cycles (and ns) per hop.
template <class Load = chase_load_global>
chase_result run_chase(const chase_ring& ring, const chase_options& o = {}, Load load = {}) {
  chase_kernel_args a;
  chase_result r = detail::chase_prepare(a, ring.nodes(), ring.stride(), ring.rings(), o);
  for (unsigned l = 0; l < a.lanes; ++l) a.start[l] = ring.address(a.start[l]);
  device_buffer<chase_lane_out> out(chase_warp_lanes);
  out.poison(poison_byte, o.stream);
  chase_kernel<Load><<<1, a.lanes, 0, o.stream>>>(a, load, out.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::gen::chase_kernel");
  detail::chase_finish(r, out, a.lanes, o, [&](std::uint64_t p) { return ring.node_of(p); });
  return r;
}

/// Chases a ring of `bytes` in shared memory (stride 4: lane l of warp_own always hits bank l).
/// Above 48 KiB the kernel needs the opt-in attribute cudaFuncAttributeMaxDynamicSharedMemorySize,
/// which this function sets; the device's opt-in limit (227 KiB on sm_90) bounds `bytes`.
inline chase_result run_shared_chase(std::size_t bytes, const chase_options& o = {},
                                     std::size_t stride = 4, std::uint64_t seed = 1) {
  require(
      stride >= 4 && stride % 4 == 0,
      "run_shared_chase: the stride must be a multiple of 4 bytes (a node holds a 32-bit address)");
  const unsigned rings = o.lanes == chase_lanes::warp_own ? chase_warp_lanes : 1;
  const std::uint64_t nodes = bytes / stride / rings * rings;
  require(nodes >= 2ull * rings, "run_shared_chase: " + std::to_string(bytes) +
                                     " bytes hold too few nodes for " + std::to_string(rings) +
                                     " ring(s)");
  const std::size_t smem = static_cast<std::size_t>(nodes * stride);
  int dev = 0, optin = 0;
  CUPROBE_CHECK(cudaGetDevice(&dev));
  CUPROBE_CHECK(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, dev));
  require(smem <= static_cast<std::size_t>(optin),
          "run_shared_chase: " + std::to_string(smem) + " bytes exceed the " +
              std::to_string(optin) +
              " bytes of shared memory a block may opt in to on this device");
  CUPROBE_CHECK(cudaFuncSetAttribute(
      shared_chase_kernel<0>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  chase_kernel_args a;
  chase_result r = detail::chase_prepare(a, nodes, stride, rings, o);
  device_buffer<std::uint32_t> next(static_cast<std::size_t>(nodes));
  next.upload(chase_successors(nodes, rings, seed));
  device_buffer<chase_lane_out> out(chase_warp_lanes);
  out.poison(poison_byte, o.stream);
  shared_chase_kernel<0>
      <<<1, chase_warp_lanes, smem, o.stream>>>(next.data(), static_cast<std::uint32_t>(nodes),
                                                static_cast<std::uint32_t>(stride), a, out.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::gen::shared_chase_kernel");
  detail::chase_finish(r, out, a.lanes, o, [](std::uint64_t n) { return n; });
  return r;
}

// ------------------------------------------------------------------------------------------
// One SM, every hop timed: the latency distribution an SM sees (L2 near and far partitions).

/// The kernel behind chase_hops: of the blocks of the grid, the first to start on SM
/// `target_sm` (claimed[0] decides) chases the ring with one thread from node `start`: `warmup`
/// untimed hops, then hops timed one by one (%clock64 before the load, after its value is used)
/// into dynamic shared memory, copied out at the end. Every other block returns at once.
template <class Load>
__global__ void chase_hops_kernel(std::uint64_t start, std::uint64_t warmup, std::uint32_t hops,
                                  std::uint32_t target_sm, Load load, unsigned* claimed,
                                  std::uint32_t* hop_cycles, chase_lane_out* out) {
  extern __shared__ std::uint32_t chase_hop_times[];
  if (threadIdx.x != 0 || ptx::smid() != target_sm || atomicCAS(claimed, 0u, 1u) != 0u) return;
  std::uint64_t p = start;
  for (std::uint64_t i = 0; i < warmup; ++i) p = load(reinterpret_cast<const std::uint64_t*>(p));
  for (std::uint32_t h = 0; h < hops; ++h) {
    ptx::opaque(p);
    const std::uint64_t t0 = ptx::clock64();
    p = load(reinterpret_cast<const std::uint64_t*>(p));
    ptx::opaque(p);  // the load's value is in hand before the second read
    const std::uint64_t t1 = ptx::clock64();
    chase_hop_times[h] = static_cast<std::uint32_t>(t1 - t0);
  }
  for (std::uint32_t h = 0; h < hops; ++h) hop_cycles[h] = chase_hop_times[h];
  *out = {0, p};
}

/// What chase_hops measured on one SM.
struct chase_hops_result {
  std::uint32_t sm = 0;               ///< the SM the chase ran on
  std::vector<std::uint32_t> cycles;  ///< per hop, in order (clock-read overhead included)
  std::uint64_t last_node = 0;        ///< where the chase ended (validates the hops)
};

/// Chases `ring` from SM `sm` with one thread and returns the cycles of every one of `hops`
/// timed hops (after `warmup` untimed ones), starting at node `start_node` (a longer ring is
/// timed in pieces: each call starts where the last ended, chase_hops_result::last_node). The
/// grid is 4 x SMs blocks so that some block starts on every SM; throws when none started on
/// `sm` (an SM id the device does not have). Shared memory: 4 bytes per hop (hops <= 8192).
template <class Load = chase_load_global_cg>
chase_hops_result chase_hops(const chase_ring& ring, std::uint32_t sm, std::uint32_t hops,
                             std::uint64_t warmup, Load load = {}, cudaStream_t stream = nullptr,
                             std::uint64_t start_node = 0) {
  require(hops >= 1 && hops <= 8192,
          "chase_hops: hops must be 1 .. 8192, got " + std::to_string(hops));
  require(ring.rings() == 1, "chase_hops: the ring must be built with rings = 1");
  require(start_node < ring.nodes(),
          "chase_hops: start_node " + std::to_string(start_node) + " is not a node of the ring");
  int dev = 0, sms = 0;
  CUPROBE_CHECK(cudaGetDevice(&dev));
  CUPROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  device_buffer<unsigned> claimed(1);
  claimed.zero(stream);
  device_buffer<std::uint32_t> cycles(hops);
  cycles.poison(poison_byte, stream);
  device_buffer<chase_lane_out> out(1);
  out.poison(poison_byte, stream);
  chase_hops_kernel<Load><<<unsigned(4 * sms), 32, hops * 4, stream>>>(
      ring.address(start_node), warmup, hops, sm, load, claimed.data(), cycles.data(), out.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::gen::chase_hops_kernel");
  wait_for(stream, "gen::chase_hops");
  require(claimed.to_host()[0] == 1, "chase_hops: no block started on SM " + std::to_string(sm) +
                                         " (the device has " + std::to_string(sms) + " SMs)");
  chase_hops_result r;
  r.sm = sm;
  r.cycles = cycles.to_host();
  r.last_node = ring.node_of(out.to_host()[0].last);
  return r;
}

// ------------------------------------------------------------------------------------------
// Sweeps.

/// Working sets from min_bytes to max_bytes, `points_per_octave` per doubling (1: powers of
/// two), each rounded to a multiple of stride x rings and at least two nodes per ring.
inline std::vector<std::size_t> chase_sweep_sizes(std::size_t min_bytes, std::size_t max_bytes,
                                                  unsigned points_per_octave = 1,
                                                  std::size_t stride = 128, unsigned rings = 1) {
  require(min_bytes > 0 && min_bytes <= max_bytes,
          "chase_sweep_sizes: need 0 < min_bytes <= max_bytes");
  require(points_per_octave >= 1 && points_per_octave <= 64,
          "chase_sweep_sizes: points_per_octave must be 1..64");
  require(stride > 0 && rings > 0, "chase_sweep_sizes: stride and rings must be positive");
  const double unit = static_cast<double>(stride) * rings;
  std::vector<std::size_t> sizes;
  for (unsigned i = 0;; ++i) {
    const double x = static_cast<double>(min_bytes) * std::exp2(double(i) / points_per_octave);
    if (x > static_cast<double>(max_bytes) * (1 + 1e-9)) break;
    const std::size_t b = static_cast<std::size_t>(std::llround(x / unit) * unit);
    if (b < 2 * unit || b > max_bytes) continue;
    if (sizes.empty() || b > sizes.back()) sizes.push_back(b);
  }
  return sizes;
}

}  // namespace cuprobe::gen
