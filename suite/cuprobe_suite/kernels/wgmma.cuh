// cuprobe_suite/kernels/wgmma.cuh: the WGMMA benchmark kernel (sm_90a): back-to-back
// wgmma.mma_async on operand tiles resident in shared memory (SS) or with A in registers (RS),
// dense or 2:4 sparse, from one or more warpgroups per SM, with the groups in flight chosen at
// compile time; the same kernel on one warpgroup with one MMA per group and wait_group<0> is the
// latency chain. The host side: the configuration's traits, its operand tiles and the analysis of
// the per-block records. The experiments that measure through the protocol:
// cuprobe_suite/wgmma.cuh.
//
//   namespace kernels = cuprobe::suite::kernels;
//   using C = kernels::wgmma_bench<wg::bf16, 256>;        // SS, dense, 4 MMAs per group,
//                                                         // wait_group<1> after each commit
//   auto ops = kernels::make_wgmma_operands<C>(/*random=*/true, /*seed=*/1);
//   kernels::wgmma_bench_args a{...};  a.iterations = 25000;   // 100k MMAs per warpgroup
//   kernels::wgmma_bench_kernel<C><<<sms, 128 * warpgroups, smem>>>(a);
//   auto clk = kernels::analyse_wgmma_records(records);     // in-kernel SM clock, SMs
//
// What the kernel does (every block, every warpgroup):
//   1. Records %clock64 and %globaltimer at entry (every thread reads them; thread 0 stores).
//   2. Stores the operand tiles (raw elements from global memory, row-major) into dynamic shared
//      memory in the canonical K-major layout with the 128-byte swizzle (ptx/detail/wgmma_desc):
//      A 64 x (4 x k_A) (sparse: the compressed A), B N x (4 x k), i.e. four K steps of one MMA
//      each; fence.proxy.async and a barrier. RS: each warpgroup loads the four A fragments of
//      those steps into registers instead (a_fragment_coord), sparse: four metadata words.
//   3. Zeroes its 64 x N f32 accumulator and runs `iterations` loop trips of `unroll` MMAs each,
//      MMA u on K step u % 4, all with scale-d = 1 into the one accumulator (one dependent
//      chain per warpgroup, as a GEMM's K loop). Groups: a wgmma.fence before every `Group`
//      MMAs, a commit after them, and wait_group<Depth> after the commit; Depth = wgmma_no_wait
//      never waits inside the loop (the hardware's queue is the only limit). At most
//      Group x (Depth + 1) MMAs are committed and not known complete; `unroll` = max(Group, 4).
//   4. wait_group<0>, a barrier (every warpgroup done), then %clock64 / %globaltimer again: the
//      record's end. The accumulators are consumed: every thread stores the sum of its
//      accumulator registers (fixed order) to sums[], and the block `check_block` (a run-time
//      value the compiler cannot know) stores its whole D, warpgroup by warpgroup, to d[].
// Every warpgroup of every block computes the same D from the same tiles, so the sums agree
// bitwise across blocks and warpgroups; D of one K block is A x B^T over K = 4 x k, and after R
// trips D = (R x unroll / 4) x A B^T (the host reference, cuprobe_suite/kernels/wgmma_check.cuh).
//
// Choices: one kernel for throughput and latency (grid, warpgroups and Group/Depth differ); the
// block size is a run-time multiple of 128 up to C::max_warpgroups (3: 384 threads leave 168
// registers each, enough for the 128 of an N = 256 f32 accumulator; 2 for RS with N > 192,
// which needs the four A fragments too); one block per SM is the caller's job (dynamic shared
// memory above half an SM's: wgmma_one_block_per_sm_smem); the clocks are read by all threads
// so that no branch precedes the .sync.aligned instructions.
// Instantiating the kernel outside an sm_90a pass is a compile error (ptx/wgmma.cuh's sentence).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/shared.cuh"
#include "cuprobe/ptx/timer.cuh"
#include "cuprobe/ptx/wgmma.cuh"
#include "cuprobe_suite/kernels/wgmma_check.cuh"

namespace cuprobe::suite::kernels {

/// Depth of a configuration that never waits inside its MMA loop.
inline constexpr int wgmma_no_wait = -1;
/// The most warpgroups a block of the benchmark kernel may have (its launch bound / 128): 3
/// (384 threads: 168 registers each), 2 for RS with N above 192, whose accumulator and four A
/// fragments need more (at 168 ptxas spills and serialises the MMAs, C7512).
inline constexpr int wgmma_max_warpgroups = 3;
/// K steps of one MMA each that the resident tiles hold.
inline constexpr int wgmma_tile_steps = 4;

/// One benchmark configuration: input type A (B is the same type, D is f32), N, A from
/// registers (RS) or shared memory, dense or 2:4 sparse, MMAs per commit group, and the
/// wait_group depth after each commit (wgmma_no_wait: none inside the loop).
template <class A_, int N_, bool RS_ = false, bool Sparse_ = false, int Group_ = 4, int Depth_ = 1>
struct wgmma_bench {
  using A = A_;
  using B = A_;
  using D = ptx::wgmma::f32;
  static_assert(ptx::wgmma::is_input_v<A_> && ptx::wgmma::is_legal_n(N_),
                "cuprobe::suite::kernels::wgmma_bench: A must be a wgmma input type and N 8..256 "
                "in steps of 8");
  static_assert(Group_ == 1 || Group_ == 2 || Group_ == 4 || Group_ == 8,
                "cuprobe::suite::kernels::wgmma_bench: Group (MMAs per commit group) must be 1, "
                "2, 4 or 8");
  static_assert(Depth_ >= wgmma_no_wait && Depth_ <= 7,
                "cuprobe::suite::kernels::wgmma_bench: Depth must be 0..7 (wait_group<Depth>) or "
                "wgmma_no_wait");
  static constexpr int n = N_, group = Group_, depth = Depth_, steps = wgmma_tile_steps;
  static constexpr int max_warpgroups = RS_ && N_ > 192 ? 2 : wgmma_max_warpgroups;
  static constexpr bool rs = RS_, sparse = Sparse_;
  static constexpr int unroll = Group_ > steps ? Group_ : steps;  ///< MMAs per loop trip
  /// K of one MMA (B's columns per step) and the A elements stored per row per step.
  static constexpr int step_k = Sparse_ ? ptx::wgmma::sparse_k_v<A_> : ptx::wgmma::dense_k_v<A_>;
  static constexpr int step_ka = ptx::wgmma::dense_k_v<A_>;
  static constexpr int k = steps * step_k, ka = steps * step_ka;
  /// FLOP of one MMA: 2 x 64 x N x K (sparse: K of the instruction, as NVIDIA counts sparse
  /// FLOP, so that sparse at the dense rate of instructions is 2 x the dense FLOP/s).
  static constexpr double flop_per_mma = 2.0 * 64 * N_ * step_k;
  /// The resident tiles: K-major, 128-byte swizzle; A 64 x ka, B N x k. (Functions, not
  /// constexpr members: device code may not refer to a host variable of class type.)
  __host__ __device__ static constexpr ptx::wgmma::canonical_layout layout_a() {
    return ptx::wgmma::canonical_layout::of<A_>(ptx::wgmma::swizzle::b128, ptx::wgmma::major::k, 64,
                                                ka);
  }
  __host__ __device__ static constexpr ptx::wgmma::canonical_layout layout_b() {
    return ptx::wgmma::canonical_layout::of<A_>(ptx::wgmma::swizzle::b128, ptx::wgmma::major::k, N_,
                                                k);
  }
  static_assert(layout_a().problem() == nullptr && layout_b().problem() == nullptr);
  /// Shared-memory offset of B (A's tile rounded up to 1024 bytes; 0 for RS) and the bytes the
  /// tiles need, with 1024 for aligning the dynamic shared memory.
  static constexpr std::uint32_t b_offset =
      RS_ ? 0u : (layout_a().size_bytes() + 1023u) / 1024u * 1024u;
  static constexpr std::size_t smem_bytes = b_offset + layout_b().size_bytes() + 1024u;

  /// "m64n256k16" (sparse: "m64n256k32")
  static std::string shape() { return "m64n" + std::to_string(N_) + "k" + std::to_string(step_k); }
  /// "bf16.m64n256k16.ss" (+ ".sp" when sparse).
  static std::string name() {
    return std::string(A_::name) + "." + shape() + (RS_ ? ".rs" : ".ss") + (Sparse_ ? ".sp" : "");
  }
  /// "4 MMAs per group, wait_group<1>" or "... no wait in the loop".
  static std::string in_flight() {
    return std::to_string(Group_) + (Group_ == 1 ? " MMA" : " MMAs") + " per group, " +
           (Depth_ == wgmma_no_wait ? std::string("no wait in the loop")
                                    : "wait_group<" + std::to_string(Depth_) + ">");
  }
};

/// What thread 0 of each block writes: %clock64 and %globaltimer at entry and after the last
/// MMA of every warpgroup completed, %clock64 when the MMAs began, the SM and the warpgroups.
struct wgmma_block_record {
  std::uint64_t clock_start, clock_end;
  std::uint64_t ns_start, ns_end;
  std::uint64_t loop_start;
  std::uint32_t smid, warpgroups;
};

struct wgmma_bench_args {
  const std::uint8_t* a = nullptr;  ///< 64 x ka raw elements of A, row-major (sparse: compressed)
  const std::uint8_t* b = nullptr;  ///< N x k raw elements of B, row-major
  const std::uint32_t* meta = nullptr;    ///< sparse: steps x 128 metadata words ([step * 128 + t])
  long long iterations = 1;               ///< loop trips: MMAs per warpgroup = iterations x unroll
  unsigned check_block = 0;               ///< the block whose D goes to d
  float* d = nullptr;                     ///< warpgroups x 64 x N floats: D of check_block
  float* sums = nullptr;                  ///< grid x block floats: each thread's accumulator sum
  wgmma_block_record* records = nullptr;  ///< one per block
};

/// Element i (E = 1, 2 or 4 bytes) of the raw array p, as 32 bits.
template <int E>
__device__ __forceinline__ std::uint32_t wgmma_load_raw(const std::uint8_t* p, std::size_t i) {
  if constexpr (E == 1)
    return p[i];
  else if constexpr (E == 2)
    return reinterpret_cast<const std::uint16_t*>(p)[i];
  else
    return reinterpret_cast<const std::uint32_t*>(p)[i];
}
/// All threads of the block store the row-major raw tile `src` (rows x cols elements of E
/// bytes) where layout `l` puts each element (1024-byte aligned base: swizzled_offset).
template <int E>
__device__ __forceinline__ void wgmma_store_tile(unsigned char* smem,
                                                 const ptx::wgmma::canonical_layout& l,
                                                 const std::uint8_t* src, int rows, int cols) {
  for (int i = int(threadIdx.x); i < rows * cols; i += int(blockDim.x)) {
    const std::uint32_t v = wgmma_load_raw<E>(src, std::size_t(i));
    unsigned char* p = smem + l.swizzled_offset(i / cols, i % cols);
    if constexpr (E == 1)
      *p = static_cast<std::uint8_t>(v);
    else if constexpr (E == 2)
      *reinterpret_cast<std::uint16_t*>(p) = static_cast<std::uint16_t>(v);
    else
      *reinterpret_cast<std::uint32_t*>(p) = v;
  }
}

/// The body of wgmma_bench_kernel<C> (see the file comment); call it from your own __global__
/// function (with __launch_bounds__(128 x warpgroups, 1)) for a kernel of your own name.
template <class C>
__device__ __forceinline__ void wgmma_bench_body(const wgmma_bench_args& p) {
  namespace wg = ptx::wgmma;
  using A = typename C::A;
  using B = typename C::B;
  constexpr int N = C::n, S = C::steps, U = C::unroll, G = C::group;
  {  // thread 0's stores are predicated, not a branch before the .sync.aligned instructions
    const std::uint64_t c = ptx::clock64(), ns = ptx::globaltimer();
    if (threadIdx.x == 0) {
      p.records[blockIdx.x].clock_start = c;
      p.records[blockIdx.x].ns_start = ns;
    }
  }
  extern __shared__ unsigned char wgmma_bench_smem[];
  const std::uint32_t raw_addr = ptx::smem_address(wgmma_bench_smem);
  const std::uint32_t pad = (1024u - raw_addr % 1024u) % 1024u;  // swizzle atoms: 1024-aligned
  unsigned char* smem = wgmma_bench_smem + pad;
  const std::uint32_t sa = raw_addr + pad, sb = sa + C::b_offset;
  constexpr wg::canonical_layout la = C::layout_a(), lb = C::layout_b();
  if constexpr (!C::rs) wgmma_store_tile<A::bytes>(smem, la, p.a, 64, C::ka);
  wgmma_store_tile<B::bytes>(smem + C::b_offset, lb, p.b, N, C::k);
  ptx::fence_proxy_async<ptx::space::shared>();  // generic-proxy stores -> the async proxy (wgmma)
  __syncthreads();

  const int t = int(threadIdx.x % 128u);
  wg::accumulator<typename C::D, N> acc;
#pragma unroll
  for (int i = 0; i < acc.registers; ++i) acc.reg[i] = 0.f;
  wg::a_fragment<A> f[C::rs ? S : 1];  // RS: the A fragments of the four K steps
  std::uint64_t da[S], db[S];
  std::uint32_t meta[C::sparse ? S : 1];
#pragma unroll
  for (int s = 0; s < S; ++s) {
    if constexpr (C::rs) {
#pragma unroll
      for (int i = 0; i < 4; ++i) f[s].reg[i] = 0;
#pragma unroll
      for (int e = 0; e < wg::a_fragment_elements_v<A>; ++e) {
        const wg::coord q = wg::a_fragment_coord<A>(t, e);
        f[s].set_bits(
            e, wgmma_load_raw<A::bytes>(p.a, std::size_t(q.row) * C::ka + s * C::step_ka + q.col));
      }
      wg::fence_operand(f[s]);
    }
    if constexpr (C::sparse) meta[s] = p.meta[s * 128 + t];
    da[s] = la.descriptor_at(sa, s * C::step_ka).encode();
    db[s] = lb.descriptor_at(sb, s * C::step_k).encode();
  }
  {
    const std::uint64_t c = ptx::clock64();
    if (threadIdx.x == 0) p.records[blockIdx.x].loop_start = c;
  }
  for (long long it = 0; it < p.iterations; ++it) {
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const int s = u % S;
      if (u % G == 0) {
        wg::fence_operand(acc);
        wg::fence();
      }
      if constexpr (!C::sparse && !C::rs)
        wg::mma_async<A, B>(acc, da[s], db[s], wg::accumulate::add);
      else if constexpr (!C::sparse)
        wg::mma_async<A, B>(acc, f[s], db[s], wg::accumulate::add);
      else if constexpr (!C::rs)
        wg::mma_async_sp<A, B>(acc, da[s], db[s], meta[s], wg::accumulate::add);
      else
        wg::mma_async_sp<A, B>(acc, f[s], db[s], meta[s], wg::accumulate::add);
      if (u % G == G - 1) {
        wg::commit_group();
        if constexpr (C::depth != wgmma_no_wait) wg::wait_group<(C::depth < 0 ? 0 : C::depth)>();
      }
    }
  }
  wg::wait_group<0>();
  wg::fence_operand(acc);
  __syncthreads();  // every warpgroup's MMAs are done
  const std::uint64_t clock_end = ptx::clock64(), ns_end = ptx::globaltimer();
  if (threadIdx.x == 0) {
    wgmma_block_record& r = p.records[blockIdx.x];
    r.clock_end = clock_end;
    r.ns_end = ns_end;
    r.smid = ptx::smid();
    r.warpgroups = blockDim.x / 128u;
  }

  float sum = 0.f;
#pragma unroll
  for (int e = 0; e < acc.elements; ++e) sum += acc.get(e);
  p.sums[std::size_t(blockIdx.x) * blockDim.x + threadIdx.x] = sum;
  if (blockIdx.x == p.check_block) {
    // accumulator_coord(t, e) = accumulator_coord(t, 0) + accumulator_coord(0, e): one base
    // address per thread and compile-time offsets (no address register per element).
    const wg::coord q0 = wg::accumulator_coord(t, 0);
    float* d = p.d + std::size_t(threadIdx.x / 128u) * 64 * N + q0.row * N + q0.col;
#pragma unroll
    for (int e = 0; e < acc.elements; ++e) {
      d[wg::accumulator_coord(0, e).row * N + wg::accumulator_coord(0, e).col] = acc.get(e);
    }
  }
}

/// The benchmark kernel of configuration C: blocks of 128 x (1 .. C::max_warpgroups) threads,
/// C::smem_bytes of dynamic shared memory or more.
template <class C>
__global__ void __launch_bounds__(C::max_warpgroups * 128, 1)
    wgmma_bench_kernel(wgmma_bench_args p) {
  wgmma_bench_body<C>(p);
}

// ------------------------------------------------------------------------------------------
// Host side.

/// Dynamic shared memory that keeps one block per SM: at least `need` bytes and more than half
/// of the SM's shared memory, in whole KiB; throws when a block may not opt in to that much.
inline std::size_t wgmma_one_block_per_sm_smem(const device_info& dev, std::size_t need) {
  require(dev.smem_per_sm > 0 && dev.smem_per_block_optin > 0,
          "wgmma benchmark: the device reports no shared memory per SM or per block");
  const std::size_t bytes = (std::max(need, dev.smem_per_sm / 2 + 1) + 1023) / 1024 * 1024;
  require(bytes <= dev.smem_per_block_optin,
          "wgmma benchmark: " + std::to_string(bytes) +
              " bytes of shared memory per block (the tiles need " + std::to_string(need) +
              "; more than half of the SM's " + std::to_string(dev.smem_per_sm) +
              " keeps one block per SM) exceed the " + std::to_string(dev.smem_per_block_optin) +
              " bytes a block may opt in to");
  return bytes;
}

/// The operands of configuration C: what the kernel gets (raw tiles, metadata) and what the
/// tensor core multiplies (values; A pruned when sparse), zero or random (uniform in [-1, 1),
/// rounded to the type, drawn from `seed` for A and seed + 1 for B).
struct wgmma_operands {
  std::vector<std::uint8_t> a_raw, b_raw;  ///< A: 64 x ka (compressed when sparse); B: N x k
  std::vector<std::uint32_t> metadata;     ///< steps x 128 words (all 0x44444444 when dense)
  std::vector<float> a, b;                 ///< A: 64 x k (pruned when sparse); B: N x k
  bool random = false;
};
/// The operands of an A-type configuration of width n (its K: the four resident steps).
template <class A>
wgmma_operands make_wgmma_operands_for(int n, bool sparse, bool random, std::uint64_t seed) {
  require(ptx::wgmma::is_legal_n(n),
          "make_wgmma_operands: N = " + std::to_string(n) + " is not 8 .. 256 in steps of 8");
  const int k = wgmma_tile_steps * (sparse ? ptx::wgmma::sparse_k_v<A> : ptx::wgmma::dense_k_v<A>);
  wgmma_operands o;
  o.random = random;
  const std::size_t na = std::size_t(64) * k, nb = std::size_t(n) * k;
  if (random) {
    o.a = wgmma_random_values<A>(na, seed, o.a_raw);
    o.b = wgmma_random_values<A>(nb, seed + 1, o.b_raw);
  } else {
    o.a.assign(na, 0.f);
    o.b.assign(nb, 0.f);
    o.a_raw = wgmma_raw_of<A>(o.a);
    o.b_raw = wgmma_raw_of<A>(o.b);
  }
  o.metadata.assign(std::size_t(wgmma_tile_steps) * 128, ptx::wgmma::unread_metadata_word);
  if (sparse) {
    const ptx::wgmma::sparse_tile s = ptx::wgmma::prune_2_4<A>(o.a, k, 0);
    o.a = s.pruned;
    o.a_raw = wgmma_raw_of<A>(s.compressed);
    o.metadata = s.metadata;
  }
  return o;
}
/// The same for configuration C.
template <class C>
wgmma_operands make_wgmma_operands(bool random, std::uint64_t seed) {
  return make_wgmma_operands_for<typename C::A>(C::n, C::sparse, random, seed);
}
/// The same with the input type by its PTX name ("bf16", "f16", "tf32", "e4m3", "e5m2").
inline wgmma_operands make_wgmma_operands_of(const std::string& type, int n, bool sparse,
                                             bool random, std::uint64_t seed) {
  namespace wg = ptx::wgmma;
  if (type == wg::bf16::name) return make_wgmma_operands_for<wg::bf16>(n, sparse, random, seed);
  if (type == wg::f16::name) return make_wgmma_operands_for<wg::f16>(n, sparse, random, seed);
  if (type == wg::tf32::name) return make_wgmma_operands_for<wg::tf32>(n, sparse, random, seed);
  if (type == wg::e4m3::name) return make_wgmma_operands_for<wg::e4m3>(n, sparse, random, seed);
  if (type == wg::e5m2::name) return make_wgmma_operands_for<wg::e5m2>(n, sparse, random, seed);
  throw error("cuprobe: make_wgmma_operands: '" + type +
              "' is not a wgmma input type (bf16, f16, tf32, e4m3, e5m2)");
}

/// K blocks (one pass over the four resident K steps) a warpgroup accumulates in `iterations`
/// loop trips of `unroll` MMAs: D = that x A B^T.
inline double wgmma_k_blocks(long long iterations, int unroll) {
  return double(iterations) * unroll / wgmma_tile_steps;
}
template <class C>
double wgmma_k_blocks(long long iterations) {
  return wgmma_k_blocks(iterations, C::unroll);
}

/// Loop trips for a launch of about `target_ms` on a GPU that ran at `peak_flop_per_clk` per SM
/// and `clock_mhz`, with `warpgroups` warpgroups per SM sharing the SM's tensor cores (at least
/// 1). The real launch is longer by 1 / (fraction of peak reached) and clock_mhz / the clock.
inline long long wgmma_iterations(double target_ms, double clock_mhz, double peak_flop_per_clk,
                                  double flop_per_mma, int unroll, int warpgroups) {
  require(target_ms > 0 && clock_mhz > 0 && peak_flop_per_clk > 0 && flop_per_mma > 0 &&
              unroll > 0 && warpgroups > 0,
          "wgmma_iterations: every argument must be positive");
  const double mmas_per_sm = target_ms * 1e-3 * clock_mhz * 1e6 * peak_flop_per_clk / flop_per_mma;
  return std::max(1ll, static_cast<long long>(mmas_per_sm / (double(unroll) * warpgroups) + 0.5));
}

/// The records of one launch, summarised: the SM clock each block ran at (its %clock64 cycles
/// over its %globaltimer nanoseconds), the span of the launch in globaltimer nanoseconds, the
/// cycles of the MMA loop, and on how many different SMs the blocks ran.
struct wgmma_run_clock {
  double median_mhz = 0, min_mhz = 0, max_mhz = 0;
  double span_ns = 0;              ///< latest end - earliest start, over the blocks
  double median_block_cycles = 0;  ///< kernel start to end (%clock64), median of blocks
  double median_loop_cycles = 0;   ///< loop start to end (all warpgroups done), median of blocks
  double max_loop_cycles = 0;
  unsigned blocks = 0, distinct_sms = 0;
};
inline wgmma_run_clock analyse_wgmma_records(const std::vector<wgmma_block_record>& r) {
  require(!r.empty(), "analyse_wgmma_records: no records");
  wgmma_run_clock c;
  std::vector<double> mhz, loop, whole;
  std::set<std::uint32_t> sms;
  std::uint64_t first = r[0].ns_start, last = r[0].ns_end;
  for (const wgmma_block_record& b : r) {
    require(b.clock_end > b.clock_start && b.ns_end > b.ns_start && b.clock_end >= b.loop_start &&
                b.loop_start >= b.clock_start,
            "analyse_wgmma_records: a block record is not in order (start " +
                std::to_string(b.clock_start) + ", loop " + std::to_string(b.loop_start) +
                ", end " + std::to_string(b.clock_end) + " cycles; " + std::to_string(b.ns_start) +
                " .. " + std::to_string(b.ns_end) + " ns): was the kernel run?");
    mhz.push_back(double(b.clock_end - b.clock_start) / double(b.ns_end - b.ns_start) * 1e3);
    loop.push_back(double(b.clock_end - b.loop_start));
    whole.push_back(double(b.clock_end - b.clock_start));
    sms.insert(b.smid);
    first = std::min(first, b.ns_start);
    last = std::max(last, b.ns_end);
  }
  c.median_mhz = median(mhz);
  c.min_mhz = *std::min_element(mhz.begin(), mhz.end());
  c.max_mhz = *std::max_element(mhz.begin(), mhz.end());
  c.span_ns = double(last - first);
  c.median_loop_cycles = median(loop);
  c.median_block_cycles = median(whole);
  c.max_loop_cycles = *std::max_element(loop.begin(), loop.end());
  c.blocks = unsigned(r.size());
  c.distinct_sms = unsigned(sms.size());
  return c;
}

}  // namespace cuprobe::suite::kernels
