// cuprobe/gen/stream_kernels.cuh: the device side of the streaming patterns (read, write, copy,
// mixed NR1W) over global memory, with a cache operator on every access, one pass per launch or
// many passes in one. The host table that picks a kernel by its types: gen/stream_table.cuh;
// buffers and validation: gen/stream_workload.cuh; which bytes count: gen/stream_accounting.cuh.
//
//   namespace gen = cuprobe::gen;  using cg = cuprobe::ptx::cache::cg;
//   __global__ void my_copy(gen::stream_args a) {               // a kernel with your own name
//     gen::stream_body<gen::stream_pattern::copy, float4, cg, cg, cuprobe::loop_mode::launches>(a);
//   }
//   my_copy<<<grid, block>>>(workload.args(shape));             // arguments: stream_workload
//
// Every access goes through cuprobe::ptx::ld / st with the kernel's operators. Elements are 4, 8
// or 16 bytes, seen as 32-bit lanes with integer arithmetic only, so every output is exact: read,
// sink[thread] = wrapping sum of the lanes the thread read over its passes; write, word w =
// stream_written_word(w, pass); copy, out = in; mixed, out = lane-wise sum of `inputs` arrays.
//
// Loop modes: `launches` makes one pass per launch; `in_kernel` makes args.passes passes in one
// launch. ptxas removes a load it can prove redundant even from `asm volatile`, so each pass
// offsets its pointers by pass x args.zero, 0 at run time but unknown to the compiler: every pass
// really loads and stores (tests/sass/cache_stream.cu checks it).
//
// Grids (stream_grid): `persistent` (stream_shape: blocks_per_sm x SMs blocks, grid-stride, U
// elements in flight per thread, either loop mode) or `covering` (stream_covering_shape: one
// element per thread, as the driver launches its cudaMemcpy and cudaMemset kernels; launches
// mode; write, copy and mixed). The covering kernels are straight-line code with few registers,
// so 2048 threads fit on an SM, and the hardware hands their blocks out in address order
// (docs/memory-ptx.md). Layouts:
// `partitioned` (grid-stride: block b always touches the same elements) or `replicated` (read
// only: every block reads the whole array, so an SM's footprint is the whole array: the L1);
// docs/memory-ptx.md explains the choice.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/launch.cuh"  // cuprobe::loop_mode, shared with the runner
#include "cuprobe/gen/stream_accounting.cuh"
#include "cuprobe/ptx/cache.cuh"

namespace cuprobe::gen {

using cuprobe::loop_mode;  // launches: one pass per launch; in_kernel: args.passes per launch

/// The arguments of every stream kernel (one type for all, so that a table of kernels can hold
/// them). Pointers are device pointers aligned to the element size.
struct stream_args {
  const void* in[max_stream_inputs] = {};  ///< read, copy: in[0]; mixed: in[0 .. inputs)
  void* out = nullptr;                     ///< write, copy, mixed
  std::uint32_t* sink = nullptr;           ///< read: one word per thread of the grid
  std::uint64_t elements = 0;              ///< elements per array
  std::uint32_t inputs = 1;                ///< mixed: number of input arrays (1..8)
  std::uint32_t passes = 1;                ///< in_kernel: passes per launch (launches: 1)
  std::uint32_t first_pass = 0;            ///< pass number of the launch's first pass
  std::uint32_t replicated = 0;            ///< 1: stream_layout::replicated (read only)
  std::uint64_t zero = 0;                  ///< must be 0 (see the header comment)
};

// ---- Exact values: shared by the kernels, the host helpers and the device checks. ----

/// Input array k, 32-bit word w (word = element x lanes + lane): what
/// stream_workload::fill_inputs(seed) writes, i.e. host_random<uint32_t>(seed + k, w, 0, ~0).
__host__ __device__ inline std::uint32_t stream_input_word(std::uint64_t seed, unsigned input,
                                                           std::uint64_t word) {
  return cuprobe::detail::random_value<std::uint32_t>(seed + input, word, 0u, 0xFFFFFFFFu);
}

/// What the write pattern stores in 32-bit word w of the output during pass `pass`.
__host__ __device__ constexpr std::uint32_t stream_written_word(std::uint64_t word,
                                                                std::uint32_t pass) {
  return static_cast<std::uint32_t>(word) ^ ((pass + 1u) * 0x9E3779B9u);
}

// ---- Store operator paired with each load operator (copy, mixed and write use it). ----

/// The store operator that goes with load operator Op: the same cache policy where the store
/// has one (cg, cs, the L1 hints), write-through for the volatile load (cv -> wt, both
/// .STRONG.SYS in SASS), write-back for ca (both .STRONG.SM), streaming for last-use (lu ->
/// cs), and the plain store for the rest (none, nc, L2 prefetch sizes).
// clang-format off
template <class Op> struct paired_store { using type = ptx::cache::none; /**< The store. */ };
template <> struct paired_store<ptx::cache::ca> { using type = ptx::cache::wb; };
template <> struct paired_store<ptx::cache::cg> { using type = ptx::cache::cg; };
template <> struct paired_store<ptx::cache::cs> { using type = ptx::cache::cs; };
template <> struct paired_store<ptx::cache::lu> { using type = ptx::cache::cs; };
template <> struct paired_store<ptx::cache::cv> { using type = ptx::cache::wt; };
template <> struct paired_store<ptx::cache::nc_ca> { using type = ptx::cache::wb; };
template <> struct paired_store<ptx::cache::nc_cg> { using type = ptx::cache::cg; };
template <> struct paired_store<ptx::cache::nc_cs> { using type = ptx::cache::cs; };
#define CUPROBE_DETAIL_PAIR_HINT(LOAD, STORE) \
  template <> struct paired_store<ptx::cache::LOAD> { using type = ptx::cache::STORE; };
CUPROBE_DETAIL_PAIR_HINT(evict_normal, evict_normal)
CUPROBE_DETAIL_PAIR_HINT(evict_unchanged, evict_unchanged)
CUPROBE_DETAIL_PAIR_HINT(evict_first, evict_first)
CUPROBE_DETAIL_PAIR_HINT(evict_last, evict_last)
CUPROBE_DETAIL_PAIR_HINT(no_allocate, no_allocate)
CUPROBE_DETAIL_PAIR_HINT(nc_evict_first, evict_first)
CUPROBE_DETAIL_PAIR_HINT(nc_evict_last, evict_last)
CUPROBE_DETAIL_PAIR_HINT(nc_no_allocate, no_allocate)
#undef CUPROBE_DETAIL_PAIR_HINT
// clang-format on
template <class Op>
using paired_store_t = typename paired_store<Op>::type;  ///< paired_store<Op>::type.

// ---- The kernels. ----

namespace detail {

template <class T>
struct lanes_of {
  std::uint32_t w[sizeof(T) / 4];
};

template <class T>
__device__ __forceinline__ lanes_of<T> to_lanes(const T& v) {
  lanes_of<T> r;
  std::memcpy(&r, &v, sizeof(T));
  return r;
}
template <class T>
__device__ __forceinline__ T from_lanes(const lanes_of<T>& r) {
  T v;
  std::memcpy(&v, &r, sizeof(T));
  return v;
}
template <class T>
__device__ __forceinline__ std::uint32_t lane_sum(const T& v) {
  const lanes_of<T> l = to_lanes(v);
  std::uint32_t s = 0;
#pragma unroll
  for (unsigned j = 0; j < sizeof(T) / 4; ++j) s += l.w[j];
  return s;
}

}  // namespace detail

namespace detail {

/// Elements each thread has in flight per loop trip: 4 x 16 B, 8 x 4 B or 8 B; mixed: 2 x N.
template <stream_pattern P, class T>
inline constexpr unsigned stream_unroll = P == stream_pattern::mixed ? 2
                                          : sizeof(T) == 16          ? 4
                                                                     : 8;

/// for (i = begin; i < n; i += step) use(i, get(i)), with U get()s issued before their use()s,
/// so that U loads are in flight at once (an unrolled loop with an exit test after every
/// element would wait for each load in turn).
template <unsigned U, class Get, class Use>
__device__ __forceinline__ void strided_loop(std::uint64_t begin, std::uint64_t step,
                                             std::uint64_t n, Get&& get, Use&& use) {
  std::uint64_t i = begin;
  for (; i + (U - 1) * step < n; i += U * step) {
    decltype(get(i)) v[U];
#pragma unroll
    for (unsigned u = 0; u < U; ++u) v[u] = get(i + u * step);
#pragma unroll
    for (unsigned u = 0; u < U; ++u) use(i + u * step, v[u]);
  }
  for (; i < n; i += step) use(i, get(i));
}

/// The element the write pattern stores at index i in pass `pass` (stream_written_word lanes).
template <class T>
__device__ __forceinline__ T written_element(std::uint64_t i, std::uint32_t pass) {
  constexpr unsigned lanes = sizeof(T) / 4;
  const std::uint32_t salt = (pass + 1u) * 0x9E3779B9u;
  lanes_of<T> v;
#pragma unroll
  for (unsigned j = 0; j < lanes; ++j) v.w[j] = static_cast<std::uint32_t>(i * lanes + j) ^ salt;
  return from_lanes<T>(v);
}

/// The mixed pattern's element i: the lane-wise wrapping sum of inputs 0 .. a.inputs, each
/// offset by `off` elements (loads predicated on the run-time input count).
template <class T, class LdOp>
__device__ __forceinline__ T mixed_element(const stream_args& a, std::uint64_t off,
                                           std::uint64_t i) {
  lanes_of<T> s{};
#pragma unroll
  for (unsigned k = 0; k < max_stream_inputs; ++k) {
    if (k < a.inputs) {
      const auto v = to_lanes(ptx::ld<LdOp>(static_cast<const T*>(a.in[k]) + off + i));
#pragma unroll
      for (unsigned j = 0; j < sizeof(T) / 4; ++j) s.w[j] += v.w[j];
    }
  }
  return from_lanes<T>(s);
}

template <class T, class LdOp, class StOp>
__device__ __forceinline__ void check_stream_types() {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
                "cuprobe::gen stream kernels take elements of 4, 8 or 16 bytes (float, "
                "uint32_t, float2, float4, uint4, ...)");
  static_assert(std::is_trivially_copyable_v<T>, "cuprobe::gen: T must be trivially copyable");
  static_assert(ptx::is_load_operator<LdOp>, "cuprobe::gen: LdOp must be a load operator");
  static_assert(ptx::is_store_operator<StOp>, "cuprobe::gen: StOp must be a store operator");
}

}  // namespace detail

/// The body of every stream kernel; call it from your own __global__ function to get a kernel
/// with a name you choose (tests/sass/cache_stream.cu does).
template <stream_pattern P, class T, class LdOp, class StOp, loop_mode M>
__device__ __forceinline__ void stream_body(const stream_args& a) {
  detail::check_stream_types<T, LdOp, StOp>();
  constexpr unsigned U = detail::stream_unroll<P, T>;
  const std::uint64_t tid = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t begin = a.replicated ? threadIdx.x : tid;
  const std::uint64_t step = a.replicated ? blockDim.x : std::uint64_t(gridDim.x) * blockDim.x;
  const std::uint64_t n = a.elements;
  const std::uint32_t passes = M == loop_mode::in_kernel ? a.passes : 1u;
  std::uint32_t acc = 0;
  for (std::uint32_t p = 0; p < passes; ++p) {
    const std::uint64_t off = p * a.zero;  // 0, but the compiler cannot know it
    const T* in = static_cast<const T*>(a.in[0]) + off;
    T* out = static_cast<T*>(a.out) + off;
    const auto load = [&](std::uint64_t i) { return ptx::ld<LdOp>(in + i); };
    const auto store = [&](std::uint64_t i, const T& v) { ptx::st<StOp>(out + i, v); };
    if constexpr (P == stream_pattern::read) {
      detail::strided_loop<U>(begin, step, n, load,
                              [&](std::uint64_t, const T& v) { acc += detail::lane_sum(v); });
    } else if constexpr (P == stream_pattern::write) {
      const auto value = [&](std::uint64_t i) {
        return detail::written_element<T>(i, a.first_pass + p);
      };
      detail::strided_loop<U>(begin, step, n, value, store);
    } else if constexpr (P == stream_pattern::copy) {
      detail::strided_loop<U>(begin, step, n, load, store);
    } else {
      const auto sum = [&](std::uint64_t i) { return detail::mixed_element<T, LdOp>(a, off, i); };
      detail::strided_loop<U>(begin, step, n, sum, store);
    }
  }
  if constexpr (P == stream_pattern::read) ptx::st(a.sink + tid, acc);
}

template <stream_pattern P, class T, class LdOp, class StOp, loop_mode M>
__global__ void stream_pass_kernel(stream_args a) {  ///< stream_body as a __global__ kernel.
  stream_body<P, T, LdOp, StOp, M>(a);
}

/// The body of the covering-grid kernels: thread i of the grid handles element i, once (one
/// pass per launch, pass number a.first_pass); threads past a.elements do nothing. No loop, so
/// no pass offset is needed. Write, copy and mixed only.
template <stream_pattern P, class T, class LdOp, class StOp>
__device__ __forceinline__ void stream_covering_body(const stream_args& a) {
  detail::check_stream_types<T, LdOp, StOp>();
  static_assert(P != stream_pattern::read,
                "cuprobe::gen: a covering grid takes write, copy and mixed (a read would need a "
                "sink word per element); read with stream_body on a persistent grid");
  const std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= a.elements) return;
  T* out = static_cast<T*>(a.out) + i;
  if constexpr (P == stream_pattern::write)
    ptx::st<StOp>(out, detail::written_element<T>(i, a.first_pass));
  else if constexpr (P == stream_pattern::copy)
    ptx::st<StOp>(out, ptx::ld<LdOp>(static_cast<const T*>(a.in[0]) + i));
  else
    ptx::st<StOp>(out, detail::mixed_element<T, LdOp>(a, 0, i));
}

template <stream_pattern P, class T, class LdOp, class StOp>
__global__ void stream_covering_kernel(stream_args a) {  ///< stream_covering_body as a kernel.
  stream_covering_body<P, T, LdOp, StOp>(a);
}

}  // namespace cuprobe::gen
