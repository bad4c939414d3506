// cuprobe_suite/cache.cuh: bandwidth of the caches: read, write and copy over working
// sets that live in the L1 or the L2, the read curve against working set from L1 through L2 to
// DRAM, and the levels read off it: the one implementation examples/cache_bandwidth and
// device_report call.
//
//   namespace ex = cuprobe::suite;
//   auto l2 = ex::l2_bandwidth(dev, ex::cache_bw_options{});        // read, write, copy
//   std::printf("L2 read %.2f TB/s\n", l2.read_bytes_per_s / 1e12);
//   auto c = ex::cache_curves(dev, ex::cache_curve_options{}, [](const std::string&) {});
//   auto lv = ex::cache_levels_of(dev, c, /*sm_clock_mhz=*/1980);
//
// The kernel is gen::cache_bw_kernel (cuprobe/gen/cache_bw.cuh): float4 elements, U
// accesses in flight per thread whatever the working set (U = 4 for the L2 with one block of 1024
// per SM, U = 16 for the L1 with two blocks of 512 per SM: see cache_bw_unroll), many rounds per
// launch (a launch moves at least bytes_per_launch, so launch overhead stays below 1 % of a
// sample), event-timed, validated exactly. Layouts: "partitioned" with ld.global.cg / st.global.cg
// (the L2, and DRAM past it; the array is the GPU's footprint; block-private chunks:
// cache_bw_options::private_chunks) and "replicated" with default loads (ld.global, cached in L1:
// every SM walks the whole array, so the array is each SM's footprint); the shared L2 curve is the
// replicated layout with ld.global.cg: every line read by every SM, whose requests the L2
// coalesces, so the SMs receive more than its slices look up (what gpu-l2-cache measures).
// Levels (from the device's own sizes): L1 = the replicated curve's peak up to smem_per_sm
// bytes; L2 = median over l2_bytes / 32 .. l2_bytes / 4; DRAM = median over 16 x .. 64 x the
// L2; each capacity = the largest size past the peak whose bandwidth is still above the
// geometric mean of that level and the next one (model::capacity). The L2 headline figures
// (l2_bandwidth) are medians over working sets of about l2_bytes / 16, / 12 and / 8 (3.75 to
// 7.5 MiB on the H200), in block-private chunks. The L2 write runs on cache_bw_options::write_path:
// st.global.cg from the same kernel, or bulk stores from shared memory
// (cuprobe_suite/kernels/cache_bw_tma.cuh, l2_write_tma_measure), chosen by
// examples/cache_bandwidth --l2-write-path.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "cuprobe/calibrate/ceilings.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/gen/cache_bw.cuh"
#include "cuprobe/model/peak.cuh"
#include "cuprobe_suite/curve.cuh"
#include "cuprobe_suite/kernels/cache_bw_tma.cuh"
#include "cuprobe_suite/l2_home_write.cuh"
#include "cuprobe_suite/memory.cuh"

namespace cuprobe::suite {

using gen::cache_bw_unroll;  // U of the L2 kernels (gen/cache_bw.cuh says why 4)

/// Accesses in flight per thread of the L1 (replicated, default-load) kernels: the L1 answers
/// in ~32 cycles, but ptxas keeps only ~6 of 8 unrolled loads in flight, so U = 16 (with
/// 2 x 512 threads per SM) is what reached 120 B/clk/SM on the H200 (U = 8: 83 .. 109).
inline constexpr int cache_bw_l1_unroll = 16;

/// How l2_bandwidth writes (st.global reached 0.42 x the L2 read on the H200):
/// st_global = gen::cache_bw_kernel's st.global.cg (float4, U per thread, the read's shape);
/// tma_bulk = kernels::l2_bulk_write_kernel (cp.async.bulk from shared memory, each CTA its own
/// chunks, l2_tma_write_options); home = kernels::l2_home_write_kernel with every SM writing only
/// lines homed in its own L2 partition (cuprobe_suite/l2_home_write.cuh, l2_write_home::near).
enum class l2_write_path { st_global, tma_bulk, home };
inline const char* to_string(l2_write_path p) {
  return p == l2_write_path::st_global  ? "st_global"
         : p == l2_write_path::tma_bulk ? "tma_bulk"
                                        : "home";
}
/// "st_global", "tma_bulk" or "home"; anything else is refused with a sentence naming `field`.
inline l2_write_path l2_write_path_of(const std::string& s, const std::string& field) {
  if (s == "st_global") return l2_write_path::st_global;
  if (s == "tma_bulk") return l2_write_path::tma_bulk;
  if (s == "home") return l2_write_path::home;
  throw error(field + " must be st_global, tma_bulk or home, got '" + s + "'");
}

/// The tma_bulk write path: bulk stores of copy_bytes from `stages` shared buffers, `issuers`
/// threads per CTA each keeping `stages` stores in flight, ctas_per_sm CTAs per SM.
struct l2_tma_write_options {
  std::uint32_t copy_bytes = 8192;  ///< a multiple of 1 KiB in 1 .. 32 KiB
  unsigned stages = 4;              ///< 1, 2, 4 or 8
  unsigned ctas_per_sm = 2;         ///< 1 .. 32 (and what the shared memory lets fit)
  unsigned issuers = 1;             ///< 1 .. gen::tma_max_store_issuers
  gen::tma_order order = gen::tma_order::contiguous;

  void validate(const std::string& who) const {
    require(copy_bytes >= 1024 && copy_bytes <= gen::tma_max_copy_bytes && copy_bytes % 1024 == 0,
            who + ": tma.copy_bytes must be a multiple of 1 KiB in 1 .. 32 KiB, got " +
                std::to_string(copy_bytes));
    require(stages == 1 || stages == 2 || stages == 4 || stages == 8,
            who + ": tma.stages must be 1, 2, 4 or 8, got " + std::to_string(stages));
    require(ctas_per_sm >= 1 && ctas_per_sm <= 32,
            who + ": tma.ctas_per_sm must be 1 .. 32, got " + std::to_string(ctas_per_sm));
    require(issuers >= 1 && issuers <= gen::tma_max_store_issuers,
            who + ": tma.issuers must be 1 .. " + std::to_string(gen::tma_max_store_issuers) +
                ", got " + std::to_string(issuers));
  }
  /// "bulk 8 KiB x4 stages, 2 CTA/SM, 1 issuer, contiguous"
  std::string describe() const {
    return "bulk " + std::to_string(copy_bytes / 1024) + " KiB x" + std::to_string(stages) +
           " stages, " + std::to_string(ctas_per_sm) + " CTA/SM, " + std::to_string(issuers) +
           (issuers == 1 ? " issuer, " : " issuers, ") + gen::to_string(order);
  }
};

/// How a cache-bandwidth point runs.
struct cache_bw_options {
  int blocks_per_sm = 1;  ///< the grid: blocks_per_sm x SMs blocks ...
  int threads = 1024;     ///< ... of at most this many threads
  /// Partitioned layout: block-private chunks (fewer threads where a row of one chunk per block
  /// does not fit: gen::cache_bw_private_threads), so the L2 looks up every byte the SMs
  /// receive. false: `threads` always, and blocks share chunks below one row (the L2 then
  /// coalesces their requests).
  bool private_chunks = true;

  /// The threads per block of a point of about `bytes` per array with U accesses per thread.
  int threads_for(const device_info& dev, std::size_t bytes, bool replicated, int u) const {
    if (replicated || !private_chunks) return threads;
    return int(gen::cache_bw_private_threads(bytes, unsigned(blocks_per_sm * dev.sm_count), u,
                                             unsigned(threads)));
  }
  double bytes_per_launch = 8.0 * (1u << 30);  ///< rounds per launch: at least this many bytes
  run_options run = run_options::fixed(2, 10);
  /// l2_bandwidth's write figure: st.global.cg, the fastest path of
  /// `cache_bandwidth --l2-write-path all` on the H200 (4.73 TB/s against at most 4.45 for
  /// bulk stores; docs/memory-ptx.md).
  l2_write_path write_path = l2_write_path::st_global;
  l2_tma_write_options tma;  ///< the tma_bulk path (l2_write_tma_measure)

  void validate() const {
    tma.validate("cache_bw");
    require(blocks_per_sm >= 1 && blocks_per_sm <= 32,
            "cache_bw: blocks_per_sm must be 1 .. 32, got " + std::to_string(blocks_per_sm));
    require(
        threads >= 32 && threads <= 1024 && threads % 32 == 0,
        "cache_bw: threads must be a multiple of 32 in 32 .. 1024, got " + std::to_string(threads));
    require(std::isfinite(bytes_per_launch) && bytes_per_launch >= (1 << 20) &&
                bytes_per_launch <= 1e13,
            "cache_bw: bytes_per_launch must be 1 MiB .. 10 TB");
    require(run.mode == loop_mode::launches && run.iterations == 1,
            "cache_bw: a sample is one launch; leave run.mode and run.iterations alone");
    validate_options(run, "cache_bw");
  }
};

/// Pattern P (read, write, copy) of float4 over arrays of about `bytes` each (whole chunks of
/// threads x U elements), partitioned or replicated, with load operator LdOp (stores paired:
/// gen::paired_store_t), U accesses in flight per thread; validated exactly: the library's
/// measure_cache_bw (calibrate/ceilings.cuh) with these options.
template <gen::stream_pattern P, class LdOp, int U = cache_bw_unroll>
stream_result cache_bw_measure(const device_info& dev, std::size_t bytes, bool replicated,
                               const cache_bw_options& o) {
  o.validate();
  const int threads = o.threads_for(dev, bytes, replicated, U);
  stream_result r;
  r.m = measure_cache_bw<P, LdOp, U>(dev, bytes, replicated, o.blocks_per_sm, threads,
                                     o.bytes_per_launch, o.run, data_source::any, r.check);
  r.m.with_param("pattern", gen::to_string(P))
      .with_param("load", ptx::load_instruction<LdOp>)
      .with_param("store", ptx::store_instruction<gen::paired_store_t<LdOp>>)
      .with_param("layout", replicated ? "replicated" : "partitioned")
      .with_param("unroll", U)
      .with_param("blocks_per_sm", o.blocks_per_sm)
      .with_param("threads", threads)
      .with_param("private_chunks", !replicated && o.private_chunks);
  return r;
}

/// What the tma_bulk path needs of the device (sm_90, the buffers' shared memory), checked before
/// any CUDA call; returns the dynamic shared memory of a block.
inline std::size_t l2_tma_write_check(const device_info& dev, const cache_bw_options& o) {
  require(dev.sm() >= 90, "cache_bw: write_path tma_bulk needs sm_90 or newer (bulk copies); " +
                              dev.name + " is sm_" + std::to_string(dev.sm()));
  const std::size_t smem = gen::tma_stream_smem_bytes(o.tma.copy_bytes, o.tma.stages);
  require(smem <= dev.smem_per_block_optin,
          "cache_bw: tma.copy_bytes x tma.stages need " + std::to_string(smem) +
              " bytes of shared memory per block, more than the " +
              std::to_string(dev.smem_per_block_optin) + " a block may use");
  return smem;
}

/// Whether o.tma's ctas_per_sm blocks of its shared memory fit on an SM of this GPU (an explore
/// sweep skips what does not; l2_write_tma_measure refuses it with a sentence).
template <class T = void>
bool l2_tma_write_fits(const device_info& dev, const cache_bw_options& o) {
  o.validate();
  if (dev.sm() < 90) return false;
  const std::size_t smem = gen::tma_stream_smem_bytes(o.tma.copy_bytes, o.tma.stages);
  if (smem > dev.smem_per_block_optin) return false;
  return gen::detail::tma_pick_pow2(o.tma.stages, "cache_bw: tma.stages", [&](auto st) {
    const auto kernel = kernels::l2_bulk_write_kernel<decltype(st)::value>;
    CUPROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem)));
    int fit = 0;
    CUPROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &fit, kernel, int(kernels::l2_bulk_write_threads), smem));
    return fit >= int(o.tma.ctas_per_sm);
  });
}

/// The tma_bulk write (kernels::l2_bulk_write_kernel, o.tma) over an array of about `bytes`,
/// rounded down to whole rounds of grid x tma.copy_bytes (every CTA owns as many chunks), enough
/// passes per launch for bytes_per_launch; validated: every word of the output, and the count of
/// bulk stores issued against passes x chunks x launches. A template (T unused) so that including
/// this header compiles for targets without bulk copies; the GPU must be sm_90 or newer.
template <class T = void>
stream_result l2_write_tma_measure(const device_info& dev, std::size_t bytes,
                                   const cache_bw_options& o) {
  o.validate();
  const l2_tma_write_options& t = o.tma;
  const std::size_t smem = l2_tma_write_check(dev, o);
  return gen::detail::tma_pick_pow2(t.stages, "cache_bw: tma.stages", [&](auto st) {
    constexpr int S = decltype(st)::value;
    const auto kernel = kernels::l2_bulk_write_kernel<S>;
    const unsigned threads = kernels::l2_bulk_write_threads;
    CUPROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(smem)));
    int fit = 0;
    CUPROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, int(threads), smem));
    require(fit >= int(t.ctas_per_sm),
            "cache_bw: tma.ctas_per_sm is " + std::to_string(t.ctas_per_sm) + " but only " +
                std::to_string(fit) + " blocks of " + std::to_string(smem) +
                " bytes of shared memory fit on an SM");
    const unsigned grid = t.ctas_per_sm * unsigned(dev.sm_count);
    const std::uint64_t round = std::uint64_t(grid) * t.copy_bytes;  // one chunk per CTA
    const std::uint64_t array = std::uint64_t(bytes) / round * round;
    require(array >= round, "cache_bw: tma_bulk writes whole rounds of grid x tma.copy_bytes (" +
                                fmt_bytes(double(round)) + "); " + fmt_bytes(double(bytes)) +
                                " is smaller");
    const std::uint64_t passes =
        std::max<std::uint64_t>(1, std::uint64_t(std::ceil(o.bytes_per_launch / double(array))));
    require(passes <= 0xFFFFFFFFu, "cache_bw: more than 2^32 passes per launch");
    device_buffer<std::uint32_t> out(array / 4);
    out.poison();
    device_buffer<unsigned long long> stores(1);
    stores.zero();
    kernels::l2_bulk_write_args a;
    a.dst = out.data();
    a.chunks_per_cta = array / round;
    a.copy_bytes = t.copy_bytes;
    a.passes = std::uint32_t(passes);
    a.issuers = t.issuers;
    a.order = t.order;
    a.stores = stores.data();
    const launch_shape shape{dim3(grid), dim3(threads), smem};
    std::uint64_t launches = 0;
    stream_result r;
    r.m = measure_counted(
        "cache.write", kernel, shape, a, "launch of cuprobe::suite::kernels::l2_bulk_write_kernel",
        work::bytes_moved(0, double(array) * double(passes),
                          "write: every byte stored from shared memory by cp.async.bulk, per pass")
            .with_working_set(double(array)),
        o.run, launches);
    cuprobe::synchronize_device("suite::l2_write_tma_measure");
    const unsigned long long wrong = kernels::tma_store_mismatches(
        out.data(), array / 4, t.copy_bytes / 4, unsigned(dev.sm_count) * 8);
    const unsigned long long issued = stores.to_host()[0];
    const unsigned long long want = launches * passes * (array / t.copy_bytes);
    r.check.checked = array / 4;
    r.check.mismatches = wrong;
    r.check.ok = wrong == 0 && issued == want;
    r.check.message = "cache_bw tma_bulk write: " + std::to_string(wrong) + " of " +
                      std::to_string(array / 4) + " words differ from the shared buffers, " +
                      std::to_string(issued) + " bulk stores issued of " + std::to_string(want) +
                      " (" + std::to_string(launches) + " launches x " + std::to_string(passes) +
                      " passes x " + std::to_string(array / t.copy_bytes) + " chunks)";
    r.m.with_launch(shape)
        .with_kernel(kernel_attributes::of(kernel, int(threads)))
        .with_param("pattern", "write")
        .with_param("write_path", to_string(l2_write_path::tma_bulk))
        .with_param("store", "cp.async.bulk.global.shared::cta.bulk_group")
        .with_param("layout", std::string("partitioned, ") + gen::to_string(t.order))
        .with_param("tma", t.describe())
        .with_param("copy_bytes", t.copy_bytes)
        .with_param("stages", t.stages)
        .with_param("issuers", t.issuers)
        .with_param("ctas_per_sm", t.ctas_per_sm)
        .with_param("bytes_in_flight_per_sm",
                    double(t.copy_bytes) * t.stages * t.issuers * t.ctas_per_sm)
        .with_param("rounds", double(passes))
        .with_param("array_bytes", double(array))
        .with_param("working_set_bytes", double(array))
        .with_param("valid", r.check.ok);
    return r;
  });
}

/// The L2 write of o.write_path over about `bytes`: cache_bw_measure's st.global.cg write,
/// l2_write_tma_measure, or l2_write_home_measure (near) over a new array mapped by l2_map_homes.
template <class T = void>
stream_result l2_write_measure(const device_info& dev, std::size_t bytes,
                               const cache_bw_options& o) {
  if (o.write_path == l2_write_path::tma_bulk) return l2_write_tma_measure<T>(dev, bytes, o);
  if (o.write_path == l2_write_path::home) {
    l2_homes h = l2_map_homes(dev, bytes);
    return l2_write_home_measure<T>(dev, h, l2_write_home::near, o.bytes_per_launch, o.run);
  }
  auto r = cache_bw_measure<gen::stream_pattern::write, ptx::cache::cg>(dev, bytes, false, o);
  r.m.with_param("write_path", to_string(l2_write_path::st_global));
  return r;
}

struct cache_curve_options {
  unsigned points_per_octave = 2;
  std::optional<std::size_t> l1_max_bytes;  ///< default 16 x smem_per_sm (3.6 MiB on sm_90)
  std::optional<std::size_t> l2_max_bytes;  ///< default 64 x the L2 (3.75 GiB on the H200)
  cache_bw_options l1 = [] {                ///< the L1 curve: two blocks of 512 per SM
    cache_bw_options o;
    o.blocks_per_sm = 2;
    o.threads = 512;
    // About 0.5 ms per launch at the L1's rate: a launch's ramp and tail are a fixed cost, 7 %
    // of a 74 us launch of 2 GiB (docs/memory-ptx.md).
    o.bytes_per_launch = 16.0 * (1u << 30);
    return o;
  }();
  cache_bw_options l2;  ///< the L2/DRAM curve (and the shared L2 curve)
  /// The shared L2 curve: every SM reads the whole array with ld.global.cg (replicated layout,
  /// the L2 curve's shape), so every line is read by every SM, as gpu-l2-cache's blocks share
  /// their regions; from l2_bytes / 64 to 2 x the L2. Off: no such curve.
  bool l2_shared = true;

  void validate() const {
    require(points_per_octave >= 1 && points_per_octave <= 16,
            "cache_curves: points_per_octave must be 1 .. 16");
    l1.validate();
    l2.validate();
  }
};

struct cache_curves_result {
  std::vector<measurement> points;  ///< the L1 curve, the L2/DRAM curve, the shared L2 curve
  std::vector<curve_point> l1, l2, l2_shared;  ///< (array bytes, GB/s)
};

/// The read-bandwidth curves (see the file comment); `progress(label)` before each point.
/// Working sets double points_per_octave times per octave, from 4 KiB (L1) and l2_bytes / 64
/// (L2); the L1 curve's smaller sets are one chunk read with wrap-around
/// (cuprobe/gen/cache_bw.cuh).
template <class Progress>
cache_curves_result cache_curves(const device_info& dev, const cache_curve_options& o,
                                 Progress&& progress) {
  o.validate();
  cache_curves_result res;
  auto run_curve = [&](bool replicated, const cache_bw_options& co, double lo, double hi,
                       const char* label, auto op, auto unroll) {
    using Op = decltype(op);
    constexpr int U = decltype(unroll)::value;
    std::vector<curve_point> c;
    double last = 0;
    for (int i = 0;; ++i) {
      const double want = lo * std::exp2(double(i) / o.points_per_octave);
      if (want > hi) break;
      // The bytes the kernel will read (gen::cache_bw_size_of: whole chunks, or whole rows of
      // block-private ones), so that points which round to the same size are measured once.
      const unsigned t = unsigned(co.threads_for(dev, std::size_t(want), replicated, U));
      const double bytes =
          want < 16.0 * t * U
              ? std::floor(want / 512) * 512
              : 16.0 * double(gen::cache_bw_size_of(gen::stream_pattern::read, std::size_t(want),
                                                    unsigned(co.blocks_per_sm * dev.sm_count), t, U,
                                                    replicated, co.bytes_per_launch)
                                  .elements);
      if (bytes <= last) continue;
      last = bytes;
      progress(std::string(label) + " " + fmt_bytes(bytes));
      auto r = cache_bw_measure<gen::stream_pattern::read, Op, U>(dev, std::size_t(bytes),
                                                                  replicated, co);
      r.check.require();
      c.push_back({bytes, r.m.gb_per_s()});
      r.m.with_param("curve", label);
      res.points.push_back(std::move(r.m));
    }
    return c;
  };
  res.l1 = run_curve(true, o.l1, 4096.0, double(o.l1_max_bytes.value_or(16 * dev.smem_per_sm)),
                     "L1 (replicated, ld.global)", ptx::cache::none{},
                     std::integral_constant<int, cache_bw_l1_unroll>{});
  res.l2 = run_curve(false, o.l2, double(dev.l2_bytes) / 64,
                     double(o.l2_max_bytes.value_or(64 * dev.l2_bytes)),
                     "L2/DRAM (partitioned, ld.global.cg)", ptx::cache::cg{},
                     std::integral_constant<int, cache_bw_unroll>{});
  if (o.l2_shared)
    res.l2_shared = run_curve(
        true, o.l2, double(dev.l2_bytes) / 64,
        std::min(2.0 * double(dev.l2_bytes), double(o.l2_max_bytes.value_or(64 * dev.l2_bytes))),
        "L2 shared (replicated, ld.global.cg)", ptx::cache::cg{},
        std::integral_constant<int, cache_bw_unroll>{});
  return res;
}

/// The levels read off the curves, in GB/s and bytes per clock per SM at `sm_clock_mhz`.
struct cache_levels {
  std::optional<double> l1_gbps, l2_gbps, dram_gbps;
  std::optional<double> l1_bytes_per_clock_per_sm, l2_bytes_per_clock_per_sm,
      dram_bytes_per_clock_per_sm;
  /// How far each level reaches (reach, curve.cuh): its capacity when it evicts in LRU order.
  std::optional<double> l1_reach_bytes, l2_reach_bytes;
  /// The L2's reach against the size the device reports, in one sentence ("" when within
  /// 0.8 .. 1.25 x of it, or unknown): l2_reach_note().
  std::string l2_reach_note;
  double l1_window_hi = 0, l2_window_lo = 0, l2_window_hi = 0, dram_window_lo = 0,
         dram_window_hi = 0;
};

/// What the L2's reach says against the size the device reports, when they differ by more than
/// 0.8 .. 1.25 x ("" otherwise): past its size a cache that evicts in LRU order falls within a
/// step; one whose bandwidth stays up keeps part of the larger working set, so its reach is not
/// its capacity.
inline std::string l2_reach_note(double reach_bytes, double reported_bytes) {
  if (!(reach_bytes > 0) || !(reported_bytes > 0)) return "";
  const double x = reach_bytes / reported_bytes;
  if (x > 1.25)
    return "the L2's bandwidth stays above the geometric mean of its rate and DRAM's up to " +
           fmt_bytes(reach_bytes) + ", " + fmt(x, 2) + " x the " + fmt_bytes(reported_bytes) +
           " the device reports: past its size it still serves part of the reads (an LRU cache "
           "would miss every line of a cyclic read one step past it), so this is its reach, not "
           "its capacity";
  if (x < 0.8)
    return "the L2's bandwidth falls below the geometric mean of its rate and DRAM's at " +
           fmt_bytes(reach_bytes) + ", " + fmt(x, 2) + " x the " + fmt_bytes(reported_bytes) +
           " the device reports: part of it does not hold this read's lines (another "
           "partition's copy, a carve-out, set conflicts)";
  return "";
}

inline cache_levels cache_levels_of(const device_info& dev, const cache_curves_result& c,
                                    double sm_clock_mhz) {
  require(sm_clock_mhz > 0, "cache_levels_of: pass the SM clock in MHz");
  cache_levels lv;
  lv.l1_window_hi = double(dev.smem_per_sm);
  lv.l2_window_lo = double(dev.l2_bytes) / 32;
  lv.l2_window_hi = double(dev.l2_bytes) / 4;
  lv.dram_window_lo = 16.0 * double(dev.l2_bytes);
  lv.dram_window_hi = 64.0 * double(dev.l2_bytes);
  // L1: the peak of the replicated curve up to the shared-memory size (small arrays leave
  // threads idle and pay the pass loop per element, so the curve rises before it plateaus);
  // past L1 the replicated reads are served by the L2: the curve's tail.
  lv.l1_gbps = peak_up_to(c.l1, lv.l1_window_hi);
  lv.l2_gbps = window_median(c.l2, lv.l2_window_lo, lv.l2_window_hi);
  lv.dram_gbps = window_median(c.l2, lv.dram_window_lo, lv.dram_window_hi);
  const std::optional<double> l1_next =
      c.l1.empty() ? lv.l2_gbps : std::optional(c.l1.back().value);
  if (lv.l1_gbps && l1_next) lv.l1_reach_bytes = reach(c.l1, *lv.l1_gbps, *l1_next);
  if (lv.l2_gbps && lv.dram_gbps) {
    lv.l2_reach_bytes = reach(c.l2, *lv.l2_gbps, *lv.dram_gbps);
    if (lv.l2_reach_bytes)
      lv.l2_reach_note = l2_reach_note(*lv.l2_reach_bytes, double(dev.l2_bytes));
  }
  const auto per_clk = [&](const std::optional<double>& gbps) -> std::optional<double> {
    if (!gbps) return std::nullopt;
    return model::per_clock_per_sm(*gbps * 1e9, dev.sm_count, sm_clock_mhz * 1e6);
  };
  lv.l1_bytes_per_clock_per_sm = per_clk(lv.l1_gbps);
  lv.l2_bytes_per_clock_per_sm = per_clk(lv.l2_gbps);
  lv.dram_bytes_per_clock_per_sm = per_clk(lv.dram_gbps);
  return lv;
}

/// The L2's read, write and copy bandwidth: partitioned .cg kernels over working sets of
/// l2_bytes / 16, / 12 and / 8; each figure is the median over the three. The write runs on
/// o.write_path (l2_write_measure). A template (T unused) for the same reason as
/// l2_write_tma_measure; call it as l2_bandwidth(dev, o).
struct l2_bandwidth_result {
  std::vector<measurement> points;  ///< read, write, copy at each working set
  double read_bytes_per_s = 0, write_bytes_per_s = 0, copy_bytes_per_s = 0;
  std::vector<double> working_sets;  ///< bytes per array (of the read and the copy)
  l2_write_path write_path = l2_write_path::st_global;
};

template <class T = void>
l2_bandwidth_result l2_bandwidth(const device_info& dev, const cache_bw_options& o) {
  o.validate();
  require(dev.l2_bytes > 0, "l2_bandwidth: the device reports no L2 size");
  if (o.write_path == l2_write_path::tma_bulk) (void)l2_tma_write_check(dev, o);
  l2_bandwidth_result r;
  std::vector<double> rd, wr, cp;
  for (std::size_t div : {16, 12, 8}) {
    const std::size_t bytes = dev.l2_bytes / div;
    r.working_sets.push_back(double(bytes));
    auto one = [&](auto pattern, std::vector<double>& into) {
      auto s = cache_bw_measure<decltype(pattern)::value, ptx::cache::cg>(dev, bytes, false, o);
      s.check.require();
      into.push_back(*s.m.rate.bytes_per_s);
      r.points.push_back(std::move(s.m));
    };
    one(std::integral_constant<gen::stream_pattern, gen::stream_pattern::read>{}, rd);
    auto w = l2_write_measure<T>(dev, bytes, o);
    w.check.require();
    wr.push_back(*w.m.rate.bytes_per_s);
    r.points.push_back(std::move(w.m));
    one(std::integral_constant<gen::stream_pattern, gen::stream_pattern::copy>{}, cp);
  }
  r.read_bytes_per_s = median(rd);
  r.write_bytes_per_s = median(wr);
  r.copy_bytes_per_s = median(cp);
  r.write_path = o.write_path;
  return r;
}

/// The L1's read bandwidth without the whole curve: the replicated read (default loads) at
/// working sets of smem_per_sm / 16, / 8 and / 4 per SM (14, 28 and 57 KiB on sm_90); the
/// figure is the peak of the three, as cache_levels_of reads L1 off the curve.
struct l1_bandwidth_result {
  std::vector<measurement> points;
  double read_bytes_per_s = 0;
  std::vector<double> working_sets;  ///< bytes per SM
};

/// The L1 options of cache_curve_options (two blocks of 512 per SM) are a good `o`; the kernel
/// runs with cache_bw_l1_unroll accesses in flight per thread.
inline l1_bandwidth_result l1_bandwidth(const device_info& dev, const cache_bw_options& o) {
  o.validate();
  require(dev.smem_per_sm > 0, "l1_bandwidth: the device reports no shared memory per SM");
  l1_bandwidth_result r;
  for (std::size_t div : {16, 8, 4}) {
    const std::size_t bytes = dev.smem_per_sm / div;
    r.working_sets.push_back(double(bytes));
    auto s = cache_bw_measure<gen::stream_pattern::read, ptx::cache::none, cache_bw_l1_unroll>(
        dev, bytes, true, o);
    s.check.require();
    r.read_bytes_per_s = std::max(r.read_bytes_per_s, *s.m.rate.bytes_per_s);
    r.points.push_back(std::move(s.m));
  }
  return r;
}

}  // namespace cuprobe::suite
