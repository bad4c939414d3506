// cuprobe_suite/tma.cuh: what the Hopper copy engine (TMA) delivers, beside the plain
// loads and stores of the same bytes in the same run: single-copy latency from the L2 and from
// DRAM (bulk and tensor copies against ld.global.cg), and DRAM stream bandwidth of TMA loads and
// stores swept over bytes per copy, stages in flight and CTAs per SM. examples/tma.cu and
// device_report call it.
//
//   namespace ex = cuprobe::suite;
//   auto lat = ex::tma_latency(dev, ex::tma_latency_options{});
//   std::printf("L2: bulk %.0f, ld.global.cg %.0f cycles\n", lat.l2.bulk.cycles_per_op(),
//               lat.l2.ld.cycles_per_op());
//   auto s = ex::tma_streams(dev, ex::tma_stream_options{}, [](const std::string&) {});
//   std::printf("TMA load %.2f TB/s = %.3f x ld.global\n", s.best_load().gb_per_s() / 1e3,
//               s.best_load().gb_per_s() / s.read_peer->gb_per_s());
//
// Latency: one ring (gen::chase_ring) per level, chased by one thread three ways in turn: a
// ld.global.cg (the library's L2 chase), a 16-byte cp.async.bulk per hop and a 16-byte 2-D
// tensor copy per hop (gen::chase_bulk_load / chase_tensor_load): the same nodes, the same hops,
// so the differences are the copy engine's. The L2 ring is L2/8 (fits the near and far
// partitions' share with room; the hops see both, like the ladder's L2 point), warmed by one full
// pass in the kernel; the DRAM ring is 16 x the L2 at a 128-byte stride, chased cold (no warm-up,
// the L2 flushed before each sample by the runner), so every hop misses the L2; the address
// translation the three loads pay is the same.
// Streams: see gen/tma.cuh for the kernels. Every point is event-timed by the runner, one pass
// over the array per launch, the array (64 x the L2 by default: dram_array_bytes) declared as
// the DRAM working set. Loads are validated by the sum of every word received (the array holds
// word i = i; the expected sum counts every launch the runner made), stores by checking the
// whole output after the samples. The copy stream (copies_too) reads the array into a second one
// of the same size, is checked word for word against it, and its best point then meets
// cudaMemcpy of the same arrays in alternating rounds (versus_memcpy, cuprobe_suite/memory.cuh). A
// point whose shared memory does not fit `ctas_per_sm` blocks on an SM is skipped with a sentence
// in `skipped`. The peers (the ld.global read stream and the st.global write stream, dram_sweep)
// run on an array of the same size in the same call. Store variants (options, each a sweep axis):
// wait_group instead of wait_group.read before a buffer is reused, 2 .. 4 issuing threads, and a
// grid below SMs x CTAs per SM (grid_fractions). Cluster multicast: cuprobe_suite/tma_multicast.cuh
// (included here).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/gen/stream.cuh"
#include "cuprobe/gen/tma.cuh"
#include "cuprobe/hopper/tensor_map.cuh"
#include "cuprobe/measure/interleave.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe_suite/kernels/cache_bw_tma.cuh"
#include "cuprobe_suite/latency.cuh"
#include "cuprobe_suite/memory.cuh"
#include "cuprobe_suite/tma_multicast.cuh"

namespace cuprobe::suite {

// ------------------------------------------------------------------------------------------
// Latency.

struct tma_latency_options {
  std::optional<std::size_t> l2_bytes;    ///< default: L2 / 8
  std::optional<std::size_t> dram_bytes;  ///< default: 16 x L2 (capped by free memory)
  std::size_t stride = 128;               ///< bytes between nodes: a power of two >= 128
  std::uint64_t max_steps = 1u << 16;     ///< timed hops per chase
  run_options run = run_options::fixed(0, 3);

  void validate() const {
    require(stride >= 128 && (stride & (stride - 1)) == 0,
            "tma_latency: the stride must be a power of two of at least 128 bytes, got " +
                std::to_string(stride));
    require(max_steps >= 1024 && max_steps <= (1u << 24),
            "tma_latency: max_steps must be 1024 .. 2^24");
    require(!l2_bytes || *l2_bytes >= 64 * stride, "tma_latency: l2_bytes below 64 nodes");
    require(!dram_bytes || *dram_bytes >= 64 * stride, "tma_latency: dram_bytes below 64 nodes");
  }
};

/// The three chases of one ring.
struct tma_latency_level {
  measurement ld, bulk, tensor;  ///< cycles_per_op() = cycles per hop
  std::size_t bytes = 0;
};
struct tma_latency_result {
  tma_latency_level l2, dram;
};

namespace detail {
/// A device copy of the 2-D tensor map over `ring` that chase_tensor_load uses.
inline device_buffer<CUtensorMap> chase_tensor_map(const gen::chase_ring& ring) {
  const auto spec = hopper::tensor_map_spec::make(
      hopper::element_type::u64, reinterpret_cast<const void*>(ring.address(0)),
      {ring.stride() / 8, ring.nodes()}, {ring.stride()}, {2, 1});
  const hopper::tensor_map tm = hopper::make_tensor_map(spec);
  device_buffer<CUtensorMap> d(1);
  d.upload({tm.get()});
  return d;
}

inline unsigned log2_of(std::size_t v) {
  unsigned s = 0;
  while ((std::size_t(1) << s) < v) ++s;
  return s;
}

template <class T = void>
tma_latency_level tma_latency_at(std::size_t bytes, const tma_latency_options& o,
                                 const std::string& level) {
  const gen::chase_ring ring(bytes, o.stride, 1, 1, gen::chase_fill::zeroed);  // 16-byte copies
  const auto map = chase_tensor_map(ring);
  chase_latency_options co;
  co.run = o.run;
  co.chase.max_steps = o.max_steps;
  co.chase.min_steps = std::min<std::uint64_t>(co.chase.min_steps, o.max_steps);
  co.name = "tma.latency." + level;
  // The L2 ring is warmed by one full pass in the kernel (every node in the L2); the DRAM ring
  // is chased cold: no warm-up, and the L2 flushed before every sample (the timed hops of one
  // sample would otherwise be L2 hits in the next).
  const bool dram = level == "dram";
  co.chase.warmup = dram ? gen::chase_warmup::none : gen::chase_warmup::full_pass;
  co.run.flush_l2 = dram;
  const auto tag = [&](measurement& m, const char* how) {
    m.with_param("level", level).with_param("copy", how).with_param("copy_bytes", 16);
  };
  tma_latency_level r;
  r.bytes = ring.bytes();
  co.load = "ld.global.cg";
  r.ld = chase_latency(ring, co, gen::chase_load_global_cg{});
  tag(r.ld, "ld.global.cg");
  co.load = "cp.async.bulk (16 B)";
  r.bulk = chase_latency(ring, co, gen::chase_bulk_load<16>{});
  tag(r.bulk, "bulk");
  gen::chase_tensor_load<16> t;
  t.map = map.data();
  t.base = ring.address(0);
  t.stride_shift = log2_of(ring.stride());
  co.load = "cp.async.bulk.tensor.2d (16 B)";
  r.tensor = chase_latency(ring, co, t);
  tag(r.tensor, "tensor");
  return r;
}
}  // namespace detail

/// Latency of a 16-byte bulk copy, a 16-byte tensor copy and a ld.global.cg, from the L2 and from
/// DRAM (see the file comment).
/// A template only so that including this header compiles for targets without TMA.
template <class T = void>
tma_latency_result tma_latency(const device_info& dev, const tma_latency_options& o) {
  o.validate();
  require(dev.l2_bytes > 0, "tma_latency: the device reports no L2 size");
  tma_latency_result r;
  const std::size_t l2 = o.l2_bytes.value_or(dev.l2_bytes / 8);
  const std::size_t dram = o.dram_bytes.value_or(16 * dev.l2_bytes);
  require_room_for_ring(dram, o.stride, "tma_latency");
  r.l2 = detail::tma_latency_at<T>(l2, o, "l2");
  r.dram = detail::tma_latency_at<T>(dram, o, "dram");
  return r;
}

// ------------------------------------------------------------------------------------------
// Streams.

struct tma_stream_options {
  std::vector<gen::tma_copy> copies = {gen::tma_copy::bulk, gen::tma_copy::tensor};
  std::vector<std::uint32_t> copy_bytes = {1024, 2048, 4096, 8192, 16384, 32768};
  std::vector<unsigned> stages = {1, 2, 4, 8};  ///< 1, 2, 4 or 8
  std::vector<unsigned> ctas_per_sm = {1, 2, 4};
  std::vector<gen::tma_order> orders = {gen::tma_order::interleaved};
  /// Bulk stores only (tensor stores and loads take none).
  std::vector<gen::tma_store_hint> store_hints = {gen::tma_store_hint::none};
  /// Stores only: how each issuer bounds its groups, and how many threads issue.
  std::vector<gen::tma_store_wait> store_waits = {gen::tma_store_wait::read};
  std::vector<unsigned> store_issuers = {1};  ///< 1 .. gen::tma_max_store_issuers
  /// The grid as a fraction of SMs x ctas_per_sm (rounded, at least 1 CTA): below 1, fewer
  /// CTAs than that share the DRAM.
  std::vector<double> grid_fractions = {1.0};
  unsigned consumer_warps = 4;
  bool loads = true, stores = true;
  /// The copy stream too (bulk copies, the stage counts of 2 or more, interleaved chunks, the
  /// whole grid) from the array into a second one, then its best point against cudaMemcpy on
  /// the same arrays in copy_rounds alternating rounds.
  bool copies_too = false;
  std::size_t copy_rounds = 10;
  bool peers = true;  ///< the ld.global / st.global streams, same size
  /// Default dram_array_bytes(dev, 1 array), 2 arrays with copies_too.
  std::optional<std::uint64_t> array_bytes;
  run_options run = run_options::fixed(2, 10);

  void validate() const {
    require(!copies.empty() && !copy_bytes.empty() && !stages.empty() && !ctas_per_sm.empty() &&
                !orders.empty() && !store_hints.empty() && !store_waits.empty() &&
                !store_issuers.empty() && !grid_fractions.empty(),
            "tma_streams: copies, copy_bytes, stages, ctas_per_sm, orders, store_hints, "
            "store_waits, store_issuers and grid_fractions must not be empty");
    tma_require_sweep("tma_streams", "bytes per copy", copy_bytes, stages, ctas_per_sm);
    require(consumer_warps >= 1 && consumer_warps <= 31,
            "tma_streams: consumer_warps must be 1 .. 31");
    for (auto i : store_issuers)
      require(i >= 1 && i <= gen::tma_max_store_issuers && i <= 1 + consumer_warps,
              "tma_streams: store issuers are 1 .. " + std::to_string(gen::tma_max_store_issuers) +
                  " and at most the warps of a block (1 + consumer_warps), got " +
                  std::to_string(i));
    for (auto f : grid_fractions)
      require(f > 0 && f <= 1,
              "tma_streams: grid fractions are in (0, 1], got " + std::to_string(f));
    require(!array_bytes || *array_bytes >= gen::tma_max_copy_bytes,
            "tma_streams: array_bytes must be at least 32 KiB");
    require(!copies_too || (copy_rounds >= 1 && copy_rounds <= 1000),
            "tma_streams: copy_rounds must be 1 .. 1000");
    require(run.batch == 1 && !run.graph,
            "tma_streams: the load check counts launches; leave run.batch = 1 and run.graph off");
    validate_options(run, "tma_streams");
  }
};

struct tma_stream_result {
  std::vector<measurement> loads, stores;  ///< every point measured, validated
  std::vector<measurement> copies;         ///< copies_too: every copy point, validated
  /// copies_too: the best copy point and cudaMemcpy in alternating rounds, and the median of
  /// their paired ratios.
  std::vector<measurement> copy_head_to_head;
  std::optional<double> copy_vs_memcpy;
  std::vector<std::string> skipped;                  ///< points that do not fit, and why
  std::optional<measurement> read_peer, write_peer;  ///< best ld.global read / st.global write
  std::vector<measurement> peer_points;  ///< every point of those two streams, validated
  std::uint64_t array_bytes = 0;

  const measurement& best_load() const { return best(loads, "load"); }
  const measurement& best_store() const { return best(stores, "store"); }
  const measurement& best_copy() const { return best(copies, "copy"); }

 private:
  static const measurement& best(const std::vector<measurement>& v, const char* what) {
    require(!v.empty(), std::string("tma_streams: no ") + what + " point was measured");
    return *std::max_element(v.begin(), v.end(), [](const measurement& a, const measurement& b) {
      return a.gb_per_s() < b.gb_per_s();
    });
  }
};

namespace detail {
/// The array as [rows][128 B] of 32-bit words with a box of copy_bytes / 128 rows, in global
/// memory for the kernels. Loads: 128-byte swizzle (the shared layout a GEMM wants; the sum does
/// not care); stores: none (shared layout = global layout, so the output check holds).
inline device_buffer<CUtensorMap> stream_tensor_map(const void* base, std::uint64_t bytes,
                                                    std::uint32_t copy_bytes, bool store) {
  const std::uint32_t w = gen::tma_row_bytes / 4;
  auto spec = hopper::tensor_map_spec::make(hopper::element_type::u32, base,
                                            {w, bytes / gen::tma_row_bytes}, {gen::tma_row_bytes},
                                            {w, copy_bytes / gen::tma_row_bytes});
  if (!store) spec = spec.with_swizzle(hopper::swizzle_mode::b128);
  const hopper::tensor_map tm = hopper::make_tensor_map(spec);
  device_buffer<CUtensorMap> d(1);
  d.upload({tm.get()});
  return d;
}

struct tma_point {
  gen::tma_copy copy;
  std::uint32_t copy_bytes;
  unsigned stages, ctas_per_sm;
  gen::tma_order order = gen::tma_order::interleaved;
  gen::tma_store_hint hint = gen::tma_store_hint::none;
  gen::tma_store_wait wait = gen::tma_store_wait::read;
  unsigned issuers = 1;
  double grid_fraction = 1.0;
};

/// The CTAs of a stream point: SMs x CTAs per SM x the grid fraction, rounded, at least 1.
inline unsigned tma_grid_ctas(unsigned sms, unsigned ctas_per_sm, double fraction) {
  const double n = double(sms) * ctas_per_sm * fraction;
  return std::max(1u, static_cast<unsigned>(n + 0.5));
}

/// Which stream a point measures.
enum class tma_direction { load, store, copy };
inline const char* to_string(tma_direction d) {  ///< "load", "store" or "copy"
  return d == tma_direction::load ? "load" : d == tma_direction::store ? "store" : "copy";
}

/// "load bulk 8 KiB x4 stages, 2 CTA/SM" (+ ", contiguous", ", evict_first", ", wait_group",
/// ", 2 issuers", ", 0.5 of the grid" when not default).
inline std::string tma_point_name(const tma_point& p, tma_direction d) {
  char fraction[48] = "";
  if (p.grid_fraction != 1.0)
    std::snprintf(fraction, sizeof fraction, ", %g of the grid", p.grid_fraction);
  return std::string(to_string(d)) + " " + gen::to_string(p.copy) + " " +
         std::to_string(p.copy_bytes / 1024) + " KiB x" + std::to_string(p.stages) + " stages, " +
         std::to_string(p.ctas_per_sm) + " CTA/SM" +
         (p.order == gen::tma_order::interleaved ? "" : ", contiguous") +
         (p.hint == gen::tma_store_hint::none ? "" : ", evict_first") +
         (p.wait == gen::tma_store_wait::read ? "" : ", wait_group") +
         (p.issuers == 1 ? "" : ", " + std::to_string(p.issuers) + " issuers") + fraction;
}

/// One stream point on `array` (uint32 words; the copy stream reads it, holding word i = i, and
/// writes `out`); nullopt (and a sentence in r.skipped) when its blocks do not fit.
template <class T = void>
std::optional<measurement> tma_stream_point(const device_info& dev,
                                            device_buffer<std::uint32_t>& array, const tma_point& p,
                                            tma_direction d, const tma_stream_options& o,
                                            tma_stream_result& r,
                                            device_buffer<std::uint32_t>* out = nullptr) {
  const bool store = d == tma_direction::store, copy = d == tma_direction::copy;
  require(!copy || (out && p.copy == gen::tma_copy::bulk && array.size() < (1ull << 32)),
          "tma_streams: the copy stream copies bulk, into a second array, of below 2^32 words");
  const auto kernel = copy    ? gen::tma_copy_stream_kernel_for<T>(p.stages)
                      : store ? gen::tma_store_stream_kernel_for<T>(p.copy, p.stages)
                              : gen::tma_load_stream_kernel_for<T>(p.copy, p.stages);
  const unsigned threads = copy ? 32u : gen::tma_stream_threads(o.consumer_warps);
  const std::size_t smem = gen::tma_stream_smem_bytes(p.copy_bytes, p.stages);
  const std::string name = tma_point_name(p, d);
  if (smem > dev.smem_per_block_optin) {
    r.skipped.push_back(name + ": " + std::to_string(smem) + " bytes of shared memory exceed the " +
                        std::to_string(dev.smem_per_block_optin) + " a block may use");
    return std::nullopt;
  }
  CUPROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(smem)));
  int fit = 0;
  CUPROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, int(threads), smem));
  if (fit < int(p.ctas_per_sm)) {
    r.skipped.push_back(name + ": only " + std::to_string(fit) + " such blocks (" +
                        std::to_string(smem) + " bytes of shared memory each) fit on an SM");
    return std::nullopt;
  }
  const std::uint64_t bytes = array.bytes() / p.copy_bytes * p.copy_bytes;
  gen::tma_stream_args a;
  a.chunks = bytes / p.copy_bytes;
  a.copy_bytes = p.copy_bytes;
  a.order = p.order;
  a.hint = p.hint;
  a.wait = p.wait;
  a.issuers = p.issuers;
  device_buffer<CUtensorMap> map;
  if (p.copy == gen::tma_copy::tensor) {
    map = stream_tensor_map(array.data(), bytes, p.copy_bytes, store);
    a.map = map.data();
  }
  device_buffer<std::uint32_t> sum(1);
  if (copy) {
    a.src = array.data();
    a.dst = out->data();
    out->poison();
  } else if (store) {
    a.dst = array.data();
    array.poison();
  } else {
    a.src = array.data();
    a.sum = sum.data();
    sum.zero();
  }
  const launch_shape shape{
      dim3(tma_grid_ctas(unsigned(dev.sm_count), p.ctas_per_sm, p.grid_fraction)), dim3(threads),
      smem};
  std::uint64_t launches = 0;
  run_options ro = o.run;
  ro.mode = loop_mode::launches;
  ro.iterations = 1;
  measurement m = measure(
      std::string("tma.") + to_string(d),
      [&](cudaStream_t s) {
        kernel<<<shape.grid, shape.block, shape.dynamic_smem, s>>>(a);
        CUPROBE_CHECK_LAUNCH("cuprobe::gen::tma_stream_kernel");
        ++launches;
      },
      work::bytes_moved(store ? 0 : double(bytes), store || copy ? double(bytes) : 0,
                        std::string(copy    ? "bytes loaded into and stored from"
                                    : store ? "bytes stored from"
                                            : "bytes loaded into") +
                            " shared memory per pass (one pass per launch)")
          .with_source(data_source::dram)
          .with_working_set((copy ? 2.0 : 1.0) * double(bytes)),
      ro);
  cuprobe::synchronize_device("suite::tma (the validation launch)");
  bool valid = false;
  if (store || copy) {  // a store writes word i as i mod the buffer's words, a copy as i
    const unsigned long long n = kernels::tma_store_mismatches(
        (copy ? out : &array)->data(), bytes / 4,
        copy ? std::uint32_t(bytes / 4) : p.copy_bytes / 4, unsigned(dev.sm_count) * 8);
    require(n == 0, "tma_streams: " + name + " left " + std::to_string(n) +
                        " words of the output different from " +
                        (copy ? "the input" : "what the shared buffers held"));
    valid = true;
  } else {
    const std::uint32_t want = static_cast<std::uint32_t>(launches) * gen::tma_iota_sum(bytes / 4);
    const std::uint32_t got = sum.to_host()[0];
    require(got == want, "tma_streams: " + name + ": the consumers summed " + std::to_string(got) +
                             " over " + std::to_string(launches) + " launches, expected " +
                             std::to_string(want) + " (a copy delivered wrong or missing bytes)");
    valid = true;
  }
  // Per SM: copies x stages x CTAs (x issuers for stores: each bounds its own groups).
  const std::size_t in_flight =
      std::size_t(p.copy_bytes) * p.stages * p.ctas_per_sm * (store ? p.issuers : 1);
  m.with_launch(shape)
      .with_kernel(kernel_attributes::of(kernel, int(threads)))
      .with_param("case", name)
      .with_param("direction", to_string(d))
      .with_param("copy", gen::to_string(p.copy))
      .with_param("copy_bytes", p.copy_bytes)
      .with_param("copy_kib", p.copy_bytes / 1024)
      .with_param("stages", p.stages)
      .with_param("order", gen::to_string(p.order))
      .with_param("store_hint", gen::to_string(p.hint))
      .with_param("store_wait", store ? gen::to_string(p.wait) : "-")
      .with_param("issuers", store ? p.issuers : 1u)
      .with_param("grid_fraction", p.grid_fraction)
      .with_param("ctas", shape.grid.x)
      .with_param("ctas_per_sm", p.ctas_per_sm)
      .with_param("consumer_warps", d == tma_direction::load ? o.consumer_warps : 0u)
      .with_param("bytes_in_flight_per_sm", double(in_flight))
      .with_param("array_bytes", double(bytes))
      .with_param("tbps", m.gb_per_s() / 1e3)
      .with_param("valid", valid);
  return m;
}

/// The points of one direction, in sweep order. The store axes (hints, waits, issuers) vary the
/// stores only, and L2 hints only bulk stores; a load point takes their defaults. Copy points:
/// bulk, 2 stages or more, interleaved, the whole grid.
inline std::vector<tma_point> tma_stream_points(const tma_stream_options& o, tma_direction d) {
  std::vector<tma_point> v;
  if (d == tma_direction::copy) {
    for (auto b : o.copy_bytes)
      for (auto s : o.stages)
        for (auto c : o.ctas_per_sm)
          if (s >= 2) v.push_back(tma_point{gen::tma_copy::bulk, b, s, c});
    return v;
  }
  const bool store = d == tma_direction::store;
  for (auto copy : o.copies)
    for (auto b : o.copy_bytes)
      for (auto s : o.stages)
        for (auto c : o.ctas_per_sm)
          for (auto order : o.orders)
            for (auto f : o.grid_fractions) {
              tma_point p{copy, b, s, c, order};
              p.grid_fraction = f;
              if (!store) {
                v.push_back(p);
                continue;
              }
              for (auto hint : o.store_hints)
                for (auto wait : o.store_waits)
                  for (auto issuers : o.store_issuers) {
                    if (hint != gen::tma_store_hint::none && copy != gen::tma_copy::bulk) continue;
                    p.hint = hint;
                    p.wait = wait;
                    p.issuers = issuers;
                    v.push_back(p);
                  }
            }
  return v;
}

/// The copy point `p` against cudaMemcpy on the same arrays (versus_memcpy, o.copy_rounds
/// rounds), its output validated after a launch of its own; the point has run before (its
/// shared-memory attribute is set).
template <class T = void>
std::vector<measurement> tma_copy_vs_memcpy(const device_info& dev,
                                            device_buffer<std::uint32_t>& in,
                                            device_buffer<std::uint32_t>& out, const tma_point& p,
                                            const tma_stream_options& o) {
  const auto kernel = gen::tma_copy_stream_kernel_for<T>(p.stages);
  const std::uint64_t bytes = in.bytes() / p.copy_bytes * p.copy_bytes;
  gen::tma_stream_args a;
  a.chunks = bytes / p.copy_bytes;
  a.copy_bytes = p.copy_bytes;
  a.src = in.data();
  a.dst = out.data();
  const launch_shape shape{dim3(tma_grid_ctas(unsigned(dev.sm_count), p.ctas_per_sm, 1.0)),
                           dim3(32), gen::tma_stream_smem_bytes(p.copy_bytes, p.stages)};
  const auto launch = [=](cudaStream_t s) {
    kernel<<<shape.grid, shape.block, shape.dynamic_smem, s>>>(a);
    CUPROBE_CHECK_LAUNCH("cuprobe::gen::tma_copy_stream_kernel");
  };
  const double b = double(bytes);
  auto ms = versus_memcpy(contestant("tma.copy", launch,
                                     work::bytes_moved(b, b,
                                                       "bytes loaded into and stored from "
                                                       "shared memory (one pass per launch)")
                                         .with_source(data_source::dram)
                                         .with_working_set(2.0 * b)),
                          out.data(), in.data(), bytes, o.run, o.copy_rounds);
  out.poison();
  launch(nullptr);
  cuprobe::synchronize_device("suite::tma (the copy's validation launch)");
  const unsigned long long n = kernels::tma_store_mismatches(
      out.data(), bytes / 4, std::uint32_t(bytes / 4), unsigned(dev.sm_count) * 8);
  const std::string name = tma_point_name(p, tma_direction::copy);
  require(n == 0, "tma_streams: " + name + " against cudaMemcpy left " + std::to_string(n) +
                      " words of the output different from the input");
  ms[0].with_launch(shape).with_param("case", name);
  return ms;
}

/// The read and write streams of dram_sweep on an array of `bytes`: the peers.
inline dram_sweep_result tma_peer_streams(const device_info& dev, std::uint64_t bytes,
                                          const run_options& run) {
  namespace cache = ptx::cache;
  const gen::stream_table<gen::type_list<float4>, gen::type_list<cache::cg, cache::cs>,
                          gen::pattern_list<gen::stream_pattern::read, gen::stream_pattern::write>,
                          gen::all_modes, gen::all_grids>
      kernels;
  dram_sweep_options o;
  o.patterns = {gen::stream_pattern::read, gen::stream_pattern::write};
  o.persistent = {{2, 512}, {4, 256}, {4, 512}};
  o.covering = {256};
  o.array_bytes = bytes;
  o.peers = false;
  o.run = run;
  return dram_sweep(dev, kernels, o, [](const std::string&) {});
}
}  // namespace detail

/// Every selected point of the load and store streams, then the peers; see the file comment.
template <class Progress>
tma_stream_result tma_streams(const device_info& dev, const tma_stream_options& o,
                              Progress&& progress) {
  o.validate();
  tma_stream_result r;
  dram_size size;
  size.arrays = o.copies_too ? 2 : 1;
  r.array_bytes = o.array_bytes.value_or(dram_array_bytes(dev, size)) / gen::tma_max_copy_bytes *
                  gen::tma_max_copy_bytes;
  {
    using dir = detail::tma_direction;
    device_buffer<std::uint32_t> array(r.array_bytes / 4);
    std::optional<device_buffer<std::uint32_t>> out;
    if (o.copies_too) out.emplace(r.array_bytes / 4);
    for (dir d : {dir::load, dir::copy, dir::store}) {  // the stores overwrite the loads' input
      if (d == dir::load ? !o.loads : d == dir::store ? !o.stores : !o.copies_too) continue;
      if (d != dir::store) {
        gen::tma_iota_kernel<<<unsigned(dev.sm_count) * 8, 256>>>(array.data(), array.size());
        CUPROBE_CHECK_LAUNCH("cuprobe::gen::tma_iota_kernel");
      }
      auto& into = d == dir::load ? r.loads : d == dir::store ? r.stores : r.copies;
      std::optional<detail::tma_point> best;  // the fastest point, for the copy's head-to-head
      double best_bw = 0;
      for (const auto& p : detail::tma_stream_points(o, d)) {
        progress(detail::tma_point_name(p, d));
        auto m = detail::tma_stream_point(dev, array, p, d, o, r, out ? &*out : nullptr);
        if (!m) continue;
        if (m->gb_per_s() > best_bw) {
          best = p;
          best_bw = m->gb_per_s();
        }
        into.push_back(std::move(*m));
      }
      if (d == dir::copy && best) {
        progress("the best copy point vs cudaMemcpy, interleaved");
        r.copy_head_to_head = detail::tma_copy_vs_memcpy(dev, array, *out, *best, o);
        r.copy_vs_memcpy = paired_ratio(r.copy_head_to_head[0], r.copy_head_to_head[1]);
      }
    }
  }
  if (o.peers) {
    progress("ld.global / st.global streams");
    auto peers = detail::tma_peer_streams(dev, r.array_bytes, o.run);
    r.read_peer = peers.best(gen::stream_pattern::read);
    r.write_peer = peers.best(gen::stream_pattern::write);
    r.peer_points = std::move(peers.all);
  }
  return r;
}

}  // namespace cuprobe::suite
