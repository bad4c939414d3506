// cuprobe/gen/stream.cuh: streaming access patterns (read, write, copy, mixed NR1W) over global
// memory, with a cache operator on every access, one pass per launch or many passes in one.
//
//   namespace gen = cuprobe::gen;  namespace cache = cuprobe::ptx::cache;
//   const auto kernels = gen::stream_kernels<gen::type_list<float, float4>,
//                                            gen::type_list<cache::cg, cache::cs, cache::cv>>();
//   const auto& k = gen::find_stream_kernel(kernels, gen::stream_pattern::copy, 16, "cg",
//                                           gen::loop_mode::launches);
//   auto shape = gen::stream_shape(/*blocks_per_sm=*/4, /*block_threads=*/256);
//   k.launch(shape, args);   // args: gen::stream_args, or stream_workload::args() (stream_check.cuh)
//
// Every access goes through cuprobe::ptx::ld / st with the kernel's operators. Element types
// are 4, 8 or 16 bytes (float, uint32_t, float2, float4, uint4, ...); the kernels see them as
// 32-bit lanes and use integer arithmetic only, so every output is exactly predictable:
//   read   sink[thread] = wrapping sum of the 32-bit lanes the thread read, over its passes
//   write  lane word w of the output = stream_written_word(w, pass)
//   copy   out = in
//   mixed  out = lane-wise wrapping sum of the `inputs` input arrays (default 5: 5R1W)
// stream_check.cuh validates them; stream_accounting() says which bytes count.
//
// Loop modes: `launches` makes one pass per launch; `in_kernel` makes args.passes passes in one
// launch. ptxas removes a load it can prove redundant even from `asm volatile` (it hoisted a
// reload of an unchanged address out of a loop in our probes), so each pass offsets its
// pointers by pass x args.zero, a kernel argument that is 0 at run time but unknown to the
// compiler: every pass really loads and stores (tests/sass/cache_stream.cu checks it).
//
// Grids (stream_grid): `persistent` (stream_shape: blocks_per_sm x SMs blocks, grid-stride, U
// elements in flight per thread, either loop mode) or `covering` (stream_covering_shape: one
// element per thread and as many blocks as the array needs, the way the driver launches its
// cudaMemcpy and cudaMemset kernels; launches mode; write, copy and mixed, since a read would
// need a sink word per element). The covering kernels are straight-line code with few
// registers, so 2048 threads fit on an SM, and the hardware hands their blocks out in address
// order: on the H200 they write and copy faster than any persistent shape (docs/memory-ptx.md).
//   const auto cover = gen::stream_covering_kernels<gen::type_list<float4>,
//                                                   gen::type_list<cache::cs>>();
//   gen::find_stream_kernel(cover, gen::stream_pattern::write, 16, "cs", gen::loop_mode::launches,
//                           gen::stream_grid::covering).launch(
//       gen::stream_covering_shape(args.elements, 256), args);
//
// Layouts: `partitioned` (grid-stride: each element is touched once per pass by the whole grid;
// block b always touches the same elements, so an SM's footprint is about
// elements x blocks_on_that_SM / grid_blocks) or `replicated` (read only: every block reads the
// whole array, block-stride; an SM's footprint is the whole array). Use replicated with a small
// array to see the L1, partitioned for L2 and DRAM; docs/memory-ptx.md explains the choice.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/launch.cuh"  // cuprobe::loop_mode, shared with the runner
#include "cuprobe/gen/stream_accounting.cuh"
#include "cuprobe/ptx/cache.cuh"

namespace cuprobe::gen {

using cuprobe::loop_mode;  // launches: one pass per launch; in_kernel: args.passes per launch
/// How a kernel's grid walks the arrays (see the file comment).
enum class stream_grid { persistent, covering };

inline const char* to_string(stream_pattern p) {
  switch (p) {
    case stream_pattern::read: return "read";
    case stream_pattern::write: return "write";
    case stream_pattern::copy: return "copy";
    case stream_pattern::mixed: return "mixed";
  }
  return "?";
}
using cuprobe::to_string;
inline const char* to_string(stream_layout l) {
  return l == stream_layout::partitioned ? "partitioned" : "replicated";
}
inline const char* to_string(stream_grid g) {
  return g == stream_grid::persistent ? "persistent" : "covering";
}

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
template <class Op> struct paired_store { using type = ptx::cache::none; };
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
template <class Op>
using paired_store_t = typename paired_store<Op>::type;

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
inline constexpr unsigned stream_unroll = P == stream_pattern::mixed ? 2 : sizeof(T) == 16 ? 4 : 8;

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
__global__ void stream_pass_kernel(stream_args a) {
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
__global__ void stream_covering_kernel(stream_args a) {
  stream_covering_body<P, T, LdOp, StOp>(a);
}

// ---- Launch shape and the runtime table of kernels. ----

/// A 1-D grid of blocks_per_sm x SMs blocks of block_threads threads. sm_count 0: the current
/// device's.
inline launch_shape stream_shape(int blocks_per_sm, int block_threads, int sm_count = 0) {
  require(blocks_per_sm >= 1, "stream_shape: blocks_per_sm must be at least 1");
  require(block_threads >= 1 && block_threads <= 1024,
          "stream_shape: block_threads must be 1..1024, got " + std::to_string(block_threads));
  if (sm_count == 0) {
    int dev = 0;
    CUPROBE_CHECK(cudaGetDevice(&dev));
    CUPROBE_CHECK(cudaDeviceGetAttribute(&sm_count, cudaDevAttrMultiProcessorCount, dev));
  }
  require(sm_count >= 1, "stream_shape: sm_count must be positive");
  launch_shape s;
  s.grid = dim3(grid_for(sm_count, blocks_per_sm));
  s.block = dim3(static_cast<unsigned>(block_threads));
  return s;
}

/// The grid of a covering kernel: one thread per element, ceil(elements / block_threads)
/// blocks of block_threads threads.
inline launch_shape stream_covering_shape(std::uint64_t elements, int block_threads) {
  require(elements >= 1, "stream_covering_shape: elements must be at least 1");
  require(block_threads >= 1 && block_threads <= 1024,
          "stream_covering_shape: block_threads must be 1..1024, got " +
              std::to_string(block_threads));
  const std::uint64_t blocks = (elements + unsigned(block_threads) - 1) / unsigned(block_threads);
  require(blocks <= 0x7FFFFFFFu, "stream_covering_shape: " + std::to_string(elements) +
                                     " elements need more than 2^31 - 1 blocks of " +
                                     std::to_string(block_threads));
  launch_shape s;
  s.grid = dim3(static_cast<unsigned>(blocks));
  s.block = dim3(static_cast<unsigned>(block_threads));
  return s;
}

template <class... Ts> struct type_list {};
template <stream_pattern... Ps> struct pattern_list {};
template <loop_mode... Ms> struct mode_list {};
using all_patterns = pattern_list<stream_pattern::read, stream_pattern::write,
                                  stream_pattern::copy, stream_pattern::mixed>;
using all_modes = mode_list<loop_mode::launches, loop_mode::in_kernel>;

/// A short name for an element type in reports ("float4"); the width for others ("b128").
template <class T>
inline constexpr const char* element_name = sizeof(T) == 4 ? "b32" : sizeof(T) == 8 ? "b64" : "b128";
#define CUPROBE_DETAIL_ELEMENT_NAME(T) template <> inline constexpr const char* element_name<T> = #T;
CUPROBE_DETAIL_ELEMENT_NAME(float) CUPROBE_DETAIL_ELEMENT_NAME(double)
CUPROBE_DETAIL_ELEMENT_NAME(int) CUPROBE_DETAIL_ELEMENT_NAME(unsigned)
CUPROBE_DETAIL_ELEMENT_NAME(float2) CUPROBE_DETAIL_ELEMENT_NAME(float4)
CUPROBE_DETAIL_ELEMENT_NAME(int2) CUPROBE_DETAIL_ELEMENT_NAME(int4)
CUPROBE_DETAIL_ELEMENT_NAME(uint2) CUPROBE_DETAIL_ELEMENT_NAME(uint4)
CUPROBE_DETAIL_ELEMENT_NAME(double2)
#undef CUPROBE_DETAIL_ELEMENT_NAME

/// One instantiated stream kernel and what it does, for runtime selection.
struct stream_kernel {
  stream_pattern pattern = stream_pattern::read;
  loop_mode mode = loop_mode::launches;
  stream_grid grid = stream_grid::persistent;  ///< covering: launches mode, stream_covering_shape
  std::size_t element_bytes = 0;
  const char* element = "";
  const char* load_op = "";     ///< the load tag's name: the table's key (write too)
  const char* store_op = "";    ///< paired_store_t<load op>'s name
  const char* load_ptx = "";    ///< "ld.global.cg"
  const char* store_ptx = "";   ///< "st.global.cg"
  void (*kernel)(stream_args) = nullptr;

  /// "copy float4 ld.global.cg -> st.global.cg, in_kernel"; covering grids end in
  /// ", launches, covering".
  std::string name() const {
    std::string s = std::string(to_string(pattern)) + " " + element + " ";
    if (pattern == stream_pattern::read) s += load_ptx;
    else if (pattern == stream_pattern::write) s += store_ptx;
    else s += std::string(load_ptx) + " -> " + store_ptx;
    s += std::string(", ") + to_string(mode);
    return grid == stream_grid::covering ? s + ", covering" : s;
  }

  /// Checks `a` against this kernel (sentences for null, misaligned or inconsistent
  /// arguments) and launches it; asynchronous: errors of the run show at the next sync.
  void launch(const launch_shape& shape, const stream_args& a, cudaStream_t stream = nullptr) const;
};

namespace detail {

inline void check_stream_pointer(const void* p, std::size_t element_bytes, const std::string& what) {
  require(p != nullptr, what + " is null");
  require(reinterpret_cast<std::uintptr_t>(p) % element_bytes == 0,
          what + " is not aligned to the element size (" + std::to_string(element_bytes) +
              " bytes)");
}

inline void check_stream_args(const stream_kernel& k, const launch_shape& s, const stream_args& a) {
  const std::string who = "stream kernel '" + k.name() + "': ";
  require(a.zero == 0, who + "stream_args::zero must be 0 (it only hides the pass offset from "
                             "the compiler)");
  require(s.grid.y == 1 && s.grid.z == 1 && s.block.y == 1 && s.block.z == 1,
          who + "the stream kernels take 1-D grids and blocks (see stream_shape)");
  require(a.elements > 0, who + "stream_args::elements is 0");
  require(k.mode == loop_mode::launches || a.passes >= 1, who + "in_kernel needs passes >= 1");
  require(!a.replicated || k.pattern == stream_pattern::read,
          who + "only the read pattern takes the replicated layout");
  require(k.grid == stream_grid::persistent ||
              std::uint64_t(s.grid.x) * s.block.x >= a.elements,
          who + "the grid has " + std::to_string(std::uint64_t(s.grid.x) * s.block.x) +
              " threads for " + std::to_string(a.elements) +
              " elements: a covering kernel needs one thread per element "
              "(use stream_covering_shape)");
  const bool reads = k.pattern != stream_pattern::write;
  const unsigned inputs = k.pattern == stream_pattern::mixed ? a.inputs : (reads ? 1u : 0u);
  require(inputs <= max_stream_inputs && (k.pattern != stream_pattern::mixed || inputs >= 1),
          who + "stream_args::inputs must be 1..8 for mixed");
  for (unsigned i = 0; i < inputs; ++i)
    check_stream_pointer(a.in[i], k.element_bytes, who + "input " + std::to_string(i));
  if (k.pattern != stream_pattern::read) check_stream_pointer(a.out, k.element_bytes, who + "output");
  if (k.pattern == stream_pattern::read) check_stream_pointer(a.sink, 4, who + "sink");
}

template <stream_pattern P, class T, class Op, loop_mode M>
stream_kernel describe_stream_kernel() {  // every field but the kernel pointer
  using S = paired_store_t<Op>;
  stream_kernel k;
  k.pattern = P;
  k.mode = M;
  k.element_bytes = sizeof(T);
  k.element = element_name<T>;
  k.load_op = Op::name;
  k.store_op = S::name;
  k.load_ptx = ptx::load_instruction<Op>;
  k.store_ptx = ptx::store_instruction<S>;
  return k;
}

template <stream_pattern P, class T, class Op, loop_mode M>
stream_kernel make_stream_kernel() {
  stream_kernel k = describe_stream_kernel<P, T, Op, M>();
  k.kernel = &stream_pass_kernel<P, T, Op, paired_store_t<Op>, M>;
  return k;
}

template <stream_pattern P, class T, class Op>
stream_kernel make_covering_kernel() {
  // Not make_stream_kernel: that would instantiate the persistent kernel too.
  stream_kernel k = describe_stream_kernel<P, T, Op, loop_mode::launches>();
  k.grid = stream_grid::covering;
  k.kernel = &stream_covering_kernel<P, T, Op, paired_store_t<Op>>;
  return k;
}
template <class T, class Op, stream_pattern... Ps>
void add_covering_patterns(std::vector<stream_kernel>& v, pattern_list<Ps...>) {
  (v.push_back(make_covering_kernel<Ps, T, Op>()), ...);
}
template <class T, class... Ops, class PL>
void add_covering_ops(std::vector<stream_kernel>& v, type_list<Ops...>, PL pl) {
  (add_covering_patterns<T, Ops>(v, pl), ...);
}
template <class... Ts, class OL, class PL>
void add_covering(std::vector<stream_kernel>& v, type_list<Ts...>, OL ol, PL pl) {
  (add_covering_ops<Ts>(v, ol, pl), ...);
}

template <stream_pattern P, class T, class Op, loop_mode... Ms>
void add_modes(std::vector<stream_kernel>& v) {
  (v.push_back(make_stream_kernel<P, T, Op, Ms>()), ...);
}
template <class T, class Op, stream_pattern... Ps, loop_mode... Ms>
void add_patterns(std::vector<stream_kernel>& v, pattern_list<Ps...>, mode_list<Ms...>) {
  (add_modes<Ps, T, Op, Ms...>(v), ...);
}
template <class T, class... Ops, class PL, class ML>
void add_ops(std::vector<stream_kernel>& v, type_list<Ops...>, PL pl, ML ml) {
  (add_patterns<T, Ops>(v, pl, ml), ...);
}
template <class... Ts, class OL, class PL, class ML>
void add_types(std::vector<stream_kernel>& v, type_list<Ts...>, OL ol, PL pl, ML ml) {
  (add_ops<Ts>(v, ol, pl, ml), ...);
}

}  // namespace detail

inline void stream_kernel::launch(const launch_shape& shape, const stream_args& a,
                                  cudaStream_t stream) const {
  require(kernel != nullptr, "stream_kernel::launch: empty stream_kernel");
  detail::check_stream_args(*this, shape, a);
  stream_args copy = a;
  void* params[] = {&copy};
  CUPROBE_CHECK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), shape.grid, shape.block,
                                 params, shape.dynamic_smem, stream));
}

/// The stream kernel for one combination (the store operator paired with Op).
template <stream_pattern P, class T, class Op, loop_mode M>
stream_kernel make_stream_kernel() {
  return detail::make_stream_kernel<P, T, Op, M>();
}

/// Every combination of element type x load operator x pattern x loop mode, instantiated in
/// the calling translation unit: ask only for what you sweep (4 patterns x 2 types x 3
/// operators x 2 modes = 48 kernels).
template <class Elements, class LoadOps, class Patterns = all_patterns, class Modes = all_modes>
std::vector<stream_kernel> stream_kernels() {
  std::vector<stream_kernel> v;
  detail::add_types(v, Elements{}, LoadOps{}, Patterns{}, Modes{});
  return v;
}

/// The covering-grid kernels (stream_grid::covering, launches mode) of every element type x
/// load operator x pattern (write, copy and mixed by default; read is not allowed).
template <class Elements, class LoadOps,
          class Patterns = pattern_list<stream_pattern::write, stream_pattern::copy,
                                        stream_pattern::mixed>>
std::vector<stream_kernel> stream_covering_kernels() {
  std::vector<stream_kernel> v;
  detail::add_covering(v, Elements{}, LoadOps{}, Patterns{});
  return v;
}

/// The kernel of `kernels` that matches, or cuprobe::error listing what the table holds.
inline const stream_kernel& find_stream_kernel(const std::vector<stream_kernel>& kernels,
                                               stream_pattern pattern, std::size_t element_bytes,
                                               std::string_view load_op, loop_mode mode,
                                               stream_grid grid = stream_grid::persistent) {
  for (const auto& k : kernels)
    if (k.pattern == pattern && k.element_bytes == element_bytes && k.load_op == load_op &&
        k.mode == mode && k.grid == grid)
      return k;
  std::string have;
  for (const auto& k : kernels) have += "\n  " + k.name() + " (load op " + k.load_op + ")";
  throw error("cuprobe: find_stream_kernel: no " + std::string(to_string(pattern)) + " kernel for " +
              std::to_string(element_bytes) + "-byte elements, load operator '" +
              std::string(load_op) + "', " + to_string(mode) + ", " + to_string(grid) +
              " grid; the table holds:" + have);
}

}  // namespace cuprobe::gen
