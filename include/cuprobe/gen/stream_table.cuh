// cuprobe/gen/stream_table.cuh: the host side of the stream kernels: launch shapes, and tables
// of instantiated kernels that the user names by their types.
//
//   namespace gen = cuprobe::gen;  namespace cache = cuprobe::ptx::cache;
//   const gen::stream_table<gen::type_list<float, float4>, gen::type_list<cache::cg, cache::cs>>
//       kernels;                                                     // 2 x 2 x 4 x 2 = 32 kernels
//   const auto& k = kernels.get<gen::stream_pattern::copy, float4, cache::cg>();   // compile-time
//   k.launch(gen::stream_shape(4, 256), workload.args(gen::stream_shape(4, 256)));
//   for (const auto& each : kernels.kernels()) std::puts(each.name().c_str());      // a sweep
//
// A kernel is named by (pattern, element type, load operator, loop mode, grid): get<...>() of a
// combination outside the table is a compile error with a sentence; find(key) of a runtime
// stream_key throws listing what the table holds. The string names are for reports and select().
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/gen/stream_accounting.cuh"
#include "cuprobe/gen/stream_kernels.cuh"

namespace cuprobe::gen {

// ---- Launch shapes. ----

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
  require(
      block_threads >= 1 && block_threads <= 1024,
      "stream_covering_shape: block_threads must be 1..1024, got " + std::to_string(block_threads));
  const std::uint64_t blocks = (elements + unsigned(block_threads) - 1) / unsigned(block_threads);
  require(blocks <= 0x7FFFFFFFu, "stream_covering_shape: " + std::to_string(elements) +
                                     " elements need more than 2^31 - 1 blocks of " +
                                     std::to_string(block_threads));
  launch_shape s;
  s.grid = dim3(static_cast<unsigned>(blocks));
  s.block = dim3(static_cast<unsigned>(block_threads));
  return s;
}

// ---- Type lists and names. ----

template <class... Ts>
struct type_list {};  ///< Element types (or load operators) for stream_table.
template <stream_pattern... Ps>
struct pattern_list {};  ///< Stream patterns for stream_table.
template <loop_mode... Ms>
struct mode_list {};  ///< Loop modes for stream_table.
template <stream_grid... Gs>
struct grid_list {};  ///< Grids for stream_table.
/// Every pattern: read, write, copy and mixed.
using all_patterns = pattern_list<stream_pattern::read, stream_pattern::write, stream_pattern::copy,
                                  stream_pattern::mixed>;
using all_modes = mode_list<loop_mode::launches, loop_mode::in_kernel>;       ///< Both loop modes.
using persistent_grids = grid_list<stream_grid::persistent>;                  ///< Persistent only.
using all_grids = grid_list<stream_grid::persistent, stream_grid::covering>;  ///< Both grids.

/// A short name for an element type in reports ("float4"); the width for others ("b128").
template <class T>
inline constexpr const char* element_name = sizeof(T) == 4   ? "b32"
                                            : sizeof(T) == 8 ? "b64"
                                                             : "b128";
// clang-format off
#define CUPROBE_DETAIL_ELEMENT_NAME(T) template <> inline constexpr const char* element_name<T> = #T;
CUPROBE_DETAIL_ELEMENT_NAME(float) CUPROBE_DETAIL_ELEMENT_NAME(double)
CUPROBE_DETAIL_ELEMENT_NAME(int) CUPROBE_DETAIL_ELEMENT_NAME(unsigned)
CUPROBE_DETAIL_ELEMENT_NAME(float2) CUPROBE_DETAIL_ELEMENT_NAME(float4)
CUPROBE_DETAIL_ELEMENT_NAME(int2) CUPROBE_DETAIL_ELEMENT_NAME(int4)
CUPROBE_DETAIL_ELEMENT_NAME(uint2) CUPROBE_DETAIL_ELEMENT_NAME(uint4)
CUPROBE_DETAIL_ELEMENT_NAME(double2)
#undef CUPROBE_DETAIL_ELEMENT_NAME
    // clang-format on

    /// Names one kernel by its types, at run time. Built from types only (of<...>()), so a key
    /// always denotes a combination that exists; whether a table holds it is find()'s question.
    struct stream_key {
  stream_pattern pattern = stream_pattern::read;
  std::size_t element_bytes = 0;
  const char* element = "";
  const char* load_op = "";
  loop_mode mode = loop_mode::launches;
  stream_grid grid = stream_grid::persistent;

  template <stream_pattern P, class T, class Op, loop_mode M = loop_mode::launches,
            stream_grid G = stream_grid::persistent>
  static stream_key of() {
    return {P, sizeof(T), element_name<T>, Op::name, M, G};
  }
  bool operator==(const stream_key& o) const {
    return pattern == o.pattern && element_bytes == o.element_bytes &&
           std::strcmp(element, o.element) == 0 && std::strcmp(load_op, o.load_op) == 0 &&
           mode == o.mode && grid == o.grid;
  }
  /// "copy float4 cg, launches, persistent"
  std::string name() const {
    return std::string(to_string(pattern)) + " " + element + " " + load_op + ", " +
           to_string(mode) + ", " + to_string(grid);
  }
};

/// One instantiated stream kernel and what it does.
struct stream_kernel {
  stream_key key;                                 ///< the kernel's name, by its types
  stream_pattern pattern = stream_pattern::read;  ///< what it reads and writes
  loop_mode mode = loop_mode::launches;           ///< how it repeats passes
  stream_grid grid = stream_grid::persistent;  ///< covering: launches mode, stream_covering_shape
  std::size_t element_bytes = 0;               ///< sizeof the element type
  const char* element = "";                    ///< the element type's name (element_name)
  const char* load_op = "";    ///< the load tag's name (write kernels too: it picks the store)
  const char* store_op = "";   ///< paired_store_t<load op>'s name
  const char* load_ptx = "";   ///< "ld.global.cg"
  const char* store_ptx = "";  ///< "st.global.cg"
  void (*kernel)(stream_args) = nullptr;  ///< the kernel

  /// "copy float4 ld.global.cg -> st.global.cg, in_kernel"; covering grids end in
  /// ", launches, covering".
  std::string name() const {
    std::string s = std::string(to_string(pattern)) + " " + element + " ";
    if (pattern == stream_pattern::read)
      s += load_ptx;
    else if (pattern == stream_pattern::write)
      s += store_ptx;
    else
      s += std::string(load_ptx) + " -> " + store_ptx;
    s += std::string(", ") + to_string(mode);
    return grid == stream_grid::covering ? s + ", covering" : s;
  }

  /// Checks `a` against this kernel (sentences for null, misaligned or inconsistent
  /// arguments) and launches it; asynchronous: errors of the run show at the next sync.
  void launch(const launch_shape& shape, const stream_args& a, cudaStream_t stream = nullptr) const;
};

namespace detail {

inline void check_stream_pointer(const void* p, std::size_t element_bytes,
                                 const std::string& what) {
  require(p != nullptr, what + " is null");
  require(
      reinterpret_cast<std::uintptr_t>(p) % element_bytes == 0,
      what + " is not aligned to the element size (" + std::to_string(element_bytes) + " bytes)");
}

inline void check_stream_args(const stream_kernel& k, const launch_shape& s, const stream_args& a) {
  const std::string who = "stream kernel '" + k.name() + "': ";
  require(a.zero == 0, who +
                           "stream_args::zero must be 0 (it only hides the pass offset from "
                           "the compiler)");
  require(s.grid.y == 1 && s.grid.z == 1 && s.block.y == 1 && s.block.z == 1,
          who + "the stream kernels take 1-D grids and blocks (see stream_shape)");
  require(a.elements > 0, who + "stream_args::elements is 0");
  require(k.mode == loop_mode::launches || a.passes >= 1, who + "in_kernel needs passes >= 1");
  require(!a.replicated || k.pattern == stream_pattern::read,
          who + "only the read pattern takes the replicated layout");
  require(k.grid == stream_grid::persistent || std::uint64_t(s.grid.x) * s.block.x >= a.elements,
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
  if (k.pattern != stream_pattern::read)
    check_stream_pointer(a.out, k.element_bytes, who + "output");
  if (k.pattern == stream_pattern::read) check_stream_pointer(a.sink, 4, who + "sink");
}

template <stream_pattern P, class T, class Op, loop_mode M, stream_grid G>
stream_kernel make_stream_kernel() {
  using S = paired_store_t<Op>;
  stream_kernel k;
  k.key = stream_key::of<P, T, Op, M, G>();
  k.pattern = P;
  k.mode = M;
  k.grid = G;
  k.element_bytes = sizeof(T);
  k.element = element_name<T>;
  k.load_op = Op::name;
  k.store_op = S::name;
  k.load_ptx = ptx::load_instruction<Op>;
  k.store_ptx = ptx::store_instruction<S>;
  if constexpr (G == stream_grid::covering)
    k.kernel = &stream_covering_kernel<P, T, Op, S>;
  else
    k.kernel = &stream_pass_kernel<P, T, Op, S, M>;
  return k;
}

template <class X, class... Xs>
inline constexpr bool one_of = (std::is_same_v<X, Xs> || ...);
template <class X, class L>
struct in_type_list;
template <class X, class... Xs>
struct in_type_list<X, type_list<Xs...>> {
  static constexpr bool value = one_of<X, Xs...>;
};
template <stream_pattern P, class L>
struct in_pattern_list;
template <stream_pattern P, stream_pattern... Ps>
struct in_pattern_list<P, pattern_list<Ps...>> {
  static constexpr bool value = ((P == Ps) || ...);
};
template <loop_mode M, class L>
struct in_mode_list;
template <loop_mode M, loop_mode... Ms>
struct in_mode_list<M, mode_list<Ms...>> {
  static constexpr bool value = ((M == Ms) || ...);
};
template <stream_grid G, class L>
struct in_grid_list;
template <stream_grid G, stream_grid... Gs>
struct in_grid_list<G, grid_list<Gs...>> {
  static constexpr bool value = ((G == Gs) || ...);
};

/// A covering kernel exists for write, copy and mixed, one pass per launch.
template <stream_pattern P, loop_mode M, stream_grid G>
inline constexpr bool stream_combination_exists = G == stream_grid::persistent ||
                                                  (P != stream_pattern::read &&
                                                   M == loop_mode::launches);

// Every combination of the lists, in order: element, operator, pattern, mode, grid.
template <class T, class Op, stream_pattern P, loop_mode M, stream_grid G>
void add_one(std::vector<stream_kernel>& v) {
  if constexpr (stream_combination_exists<P, M, G>)
    v.push_back(make_stream_kernel<P, T, Op, M, G>());
}
template <class T, class Op, stream_pattern P, loop_mode M, stream_grid... Gs>
void add_grids_of(std::vector<stream_kernel>& v, grid_list<Gs...>) {
  (add_one<T, Op, P, M, Gs>(v), ...);
}
template <class T, class Op, stream_pattern P, class GL, loop_mode... Ms>
void add_modes(std::vector<stream_kernel>& v, mode_list<Ms...>, GL) {
  (add_grids_of<T, Op, P, Ms>(v, GL{}), ...);
}
template <class T, class Op, class ML, class GL, stream_pattern... Ps>
void add_patterns(std::vector<stream_kernel>& v, pattern_list<Ps...>, ML, GL) {
  (add_modes<T, Op, Ps>(v, ML{}, GL{}), ...);
}
template <class T, class PL, class ML, class GL, class... Ops>
void add_ops(std::vector<stream_kernel>& v, type_list<Ops...>, PL, ML, GL) {
  (add_patterns<T, Ops>(v, PL{}, ML{}, GL{}), ...);
}
template <class OL, class PL, class ML, class GL, class... Ts>
void add_elements(std::vector<stream_kernel>& v, type_list<Ts...>, OL, PL, ML, GL) {
  (add_ops<Ts>(v, OL{}, PL{}, ML{}, GL{}), ...);
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

/// The one kernel of a combination, instantiated where it is asked for.
template <stream_pattern P, class T, class Op, loop_mode M = loop_mode::launches,
          stream_grid G = stream_grid::persistent>
stream_kernel make_stream_kernel() {
  static_assert(detail::stream_combination_exists<P, M, G>,
                "cuprobe::gen::make_stream_kernel: a covering grid takes write, copy and mixed, "
                "one pass per launch (loop_mode::launches); read needs a persistent grid");
  return detail::make_stream_kernel<P, T, Op, M, G>();
}

/// A set of instantiated kernels: the runtime view that experiments and sweeps iterate over.
class stream_kernel_set {
 public:
  stream_kernel_set() = default;
  /// A set of the given kernels.
  explicit stream_kernel_set(std::vector<stream_kernel> k) : kernels_(std::move(k)) {}
  /// The kernels, in the order added.
  const std::vector<stream_kernel>& kernels() const noexcept { return kernels_; }
  std::size_t size() const noexcept { return kernels_.size(); }  ///< The number of kernels.
  bool contains(const stream_key& key) const {  ///< True when it holds the kernel `key` names.
    for (const auto& k : kernels_)
      if (k.key == key) return true;
    return false;
  }
  /// The kernel named by `key`, or cuprobe::error listing what the set holds.
  const stream_kernel& find(const stream_key& key) const {
    for (const auto& k : kernels_)
      if (k.key == key) return k;
    std::string have;
    for (const auto& k : kernels_) have += "\n  " + k.key.name();
    throw error("cuprobe: stream kernel set: no kernel " + key.name() +
                "; the set holds:" + (have.empty() ? std::string(" nothing") : have));
  }
  /// The kernels for which `keep(kernel)` is true (e.g. the operators a command line names).
  template <class Predicate>
  stream_kernel_set select(Predicate&& keep) const {
    std::vector<stream_kernel> out;
    for (const auto& k : kernels_)
      if (keep(k)) out.push_back(k);
    return stream_kernel_set(std::move(out));
  }
  /// Adds the kernels of another set.
  stream_kernel_set& add(const stream_kernel_set& o) {
    kernels_.insert(kernels_.end(), o.kernels_.begin(), o.kernels_.end());
    return *this;
  }

 protected:
  std::vector<stream_kernel> kernels_;  ///< The kernels, in the order added.
};

/// Every combination of Elements x LoadOps x Patterns x Modes x Grids that exists (covering
/// grids: write, copy and mixed, launches), instantiated in the calling translation unit: ask
/// only for what you sweep. get<...>() names one by its types and is a compile error for a
/// combination outside the table.
template <class Elements, class LoadOps, class Patterns = all_patterns, class Modes = all_modes,
          class Grids = persistent_grids>
class stream_table : public stream_kernel_set {
 public:
  stream_table() {
    detail::add_elements(kernels_, Elements{}, LoadOps{}, Patterns{}, Modes{}, Grids{});
  }

  template <stream_pattern P, class T, class Op, loop_mode M = loop_mode::launches,
            stream_grid G = stream_grid::persistent>
  /// True when the table holds the kernel of these types.
  static constexpr bool holds =
      detail::in_type_list<T, Elements>::value&& detail::in_type_list<Op, LoadOps>::value&&
          detail::in_pattern_list<P, Patterns>::value&& detail::in_mode_list<M, Modes>::value&&
              detail::in_grid_list<G, Grids>::value&& detail::stream_combination_exists<P, M, G>;

  template <stream_pattern P, class T, class Op, loop_mode M = loop_mode::launches,
            stream_grid G = stream_grid::persistent>
  /// The kernel of these types; a compile error when the table does not hold it.
  const stream_kernel& get() const {
    static_assert(detail::in_type_list<T, Elements>::value,
                  "cuprobe::gen::stream_table::get: this element type is not in the table's "
                  "Elements list");
    static_assert(detail::in_type_list<Op, LoadOps>::value,
                  "cuprobe::gen::stream_table::get: this load operator is not in the table's "
                  "LoadOps list");
    static_assert(detail::in_pattern_list<P, Patterns>::value,
                  "cuprobe::gen::stream_table::get: this pattern is not in the table's Patterns");
    static_assert(detail::in_mode_list<M, Modes>::value,
                  "cuprobe::gen::stream_table::get: this loop mode is not in the table's Modes");
    static_assert(detail::in_grid_list<G, Grids>::value,
                  "cuprobe::gen::stream_table::get: this grid is not in the table's Grids");
    static_assert(detail::stream_combination_exists<P, M, G>,
                  "cuprobe::gen::stream_table::get: a covering grid takes write, copy and mixed, "
                  "one pass per launch; read needs a persistent grid");
    return find(stream_key::of<P, T, Op, M, G>());
  }
};

}  // namespace cuprobe::gen
