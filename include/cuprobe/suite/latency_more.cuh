// cuprobe/suite/latency_more.cuh: two pointer-chase experiments beside the latency ladder
// (suite/latency.cuh), shared by examples/latency_ladder:
//
//   TLB reach by stride   .cg loads (L2 only), one node per `stride` bytes (2 MiB: one node per
//                         large page), working sets doubling from 2 x stride. The lines touched
//                         are few (one per node) and stay in the L2, so the steps in the curve
//                         are the address translation's. Default loads would hide it: they hit
//                         the L1 while its 2,048 lines (256 KiB) hold the ring, whatever the
//                         number of pages (seen on the H200 up to 1,024 pages of 2 MiB).
//   Who chases            one thread, a warp on one ring (one address per warp load) and a warp
//                         gathering from 32 rings (32 lines per warp load), at an L1-sized, an
//                         L2-sized and a DRAM-sized working set, and in shared memory.
//
//   auto tlb = cuprobe::suite::tlb_sweep(dev, mhz, {}, [](const std::string&) {});
//   auto lanes = cuprobe::suite::lane_modes(dev, mhz, {}, [](const std::string&) {});
//   for (const auto& m : tlb) std::printf("%s %g\n", m.params.at("load").dump().c_str(),
//                                         m.rate.cycles_per_op);
//
// Every point is a measurement whose samples are the repeats (same ring, a fresh chase each)
// and whose one op is a hop: rates.cycles_per_op is the latency in cycles per hop.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/measure/l2_flush.cuh"
#include "cuprobe/report/table.cuh"
#include "cuprobe/suite/latency.cuh"

namespace cuprobe::suite {

struct tlb_sweep_options {
  /// 2 MiB: the page size cudaMalloc gives large allocations; 64 KiB: 32 nodes per such page.
  std::vector<std::size_t> strides = {std::size_t(2) << 20, std::size_t(64) << 10};
  std::size_t max_bytes = std::size_t(16) << 30;  ///< capped by free memory
  int repeats = 3;
  std::uint64_t max_steps = 1u << 16;  ///< timed hops per chase; at least chase_options::min_steps
};

/// .cg chases at each stride over working sets 2 x stride, 4 x stride, ... max_bytes. Each ring
/// is warmed by one full pass first (its lines, at most 256 Ki of them at 64 KiB and 16 GiB, fit
/// the L2), so a point measures the steady state: L2 hits, translated by whichever TLB level
/// still holds the page. Measurements are named "latency.tlb"; params load ("ld.global.cg,
/// stride 2 MiB"), stride, bytes, pages_2mib (working set / 2 MiB).
template <class Progress>
std::vector<measurement> tlb_sweep(const device_info& dev, double clock_mhz,
                                   const tlb_sweep_options& o, Progress&& progress) {
  require(clock_mhz > 0, "tlb_sweep: pass the SM clock in MHz");
  std::vector<measurement> out;
  gen::chase_options co;
  co.max_steps = o.max_steps;
  co.sm_clock_mhz = clock_mhz;
  co.warmup = gen::chase_warmup::full_pass;
  for (std::size_t stride : o.strides) {
    const std::string load = "ld.global.cg, stride " + fmt_bytes(double(stride));
    for (std::size_t bytes = 2 * stride; bytes <= o.max_bytes; bytes *= 2) {
      std::size_t free_b = 0, total_b = 0;
      CUPROBE_CHECK(cudaMemGetInfo(&free_b, &total_b));
      if (bytes + (std::size_t(512) << 20) > free_b) break;  // the largest sets need the room
      progress(load + " " + fmt_bytes(double(bytes)));
      gen::chase_ring ring(bytes, stride, 1, bytes ^ stride);
      std::vector<gen::chase_result> runs;
      for (int r = 0; r < o.repeats; ++r)
        runs.push_back(gen::run_chase(ring, co, gen::chase_load_global_cg{}));
      measurement m = detail::chase_measurement(load, ring.bytes(), runs, clock_mhz, dev);
      m.name = "latency.tlb";
      m.with_param("pages_2mib", double(ring.bytes()) / double(std::size_t(2) << 20));
      out.push_back(std::move(m));
    }
  }
  return out;
}

struct lane_modes_options {
  std::size_t l1_bytes = std::size_t(16) << 10;
  std::size_t l2_bytes = std::size_t(8) << 20;
  std::size_t dram_bytes = std::size_t(1) << 30;
  std::size_t shared_bytes = std::size_t(16) << 10;
  int repeats = 3;
  std::uint64_t max_steps = 1u << 18;  ///< as the ladder's; at least chase_options::min_steps
};

/// One thread, warp_same and warp_own chases (gen::chase_lanes) at an L1, an L2 and a DRAM
/// working set (128-byte stride, default loads; the DRAM set is not warmed and the L2 is flushed
/// before each repeat) and in shared memory (4-byte stride). Measurements are named
/// "latency.lanes"; params load ("ld.global" or "ld.shared"), lanes, level, bytes.
template <class Progress>
std::vector<measurement> lane_modes(const device_info& dev, double clock_mhz,
                                    const lane_modes_options& o, Progress&& progress) {
  require(clock_mhz > 0, "lane_modes: pass the SM clock in MHz");
  std::vector<measurement> out;
  l2_flush flush(dev.l2_bytes);
  const struct {
    const char* level;
    std::size_t bytes;
  } levels[] = {{"L1", o.l1_bytes}, {"L2", o.l2_bytes}, {"DRAM", o.dram_bytes}};
  for (auto lanes : {gen::chase_lanes::one, gen::chase_lanes::warp_same, gen::chase_lanes::warp_own}) {
    gen::chase_options co;
    co.lanes = lanes;
    co.max_steps = o.max_steps;
    co.sm_clock_mhz = clock_mhz;
    const unsigned rings = lanes == gen::chase_lanes::warp_own ? gen::chase_warp_lanes : 1;
    for (const auto& lv : levels) {
      progress(std::string("lanes ") + gen::to_string(lanes) + " " + lv.level);
      gen::chase_ring ring(lv.bytes, 128, rings, 3);
      const bool cold = lv.bytes > dev.l2_bytes;
      gen::chase_options rco = co;
      rco.warmup = cold ? gen::chase_warmup::none : gen::chase_warmup::full_pass;
      std::vector<gen::chase_result> runs;
      for (int r = 0; r < o.repeats; ++r) {
        if (cold) flush(nullptr);
        runs.push_back(gen::run_chase(ring, rco));
      }
      measurement m = detail::chase_measurement("ld.global", ring.bytes(), runs, clock_mhz, dev);
      m.name = "latency.lanes";
      m.with_param("lanes", gen::to_string(lanes)).with_param("level", lv.level);
      out.push_back(std::move(m));
    }
    progress(std::string("lanes ") + gen::to_string(lanes) + " shared memory");
    std::vector<gen::chase_result> runs;
    for (int r = 0; r < o.repeats; ++r) runs.push_back(gen::run_shared_chase(o.shared_bytes, co));
    measurement m = detail::chase_measurement("ld.shared", o.shared_bytes, runs, clock_mhz, dev);
    m.name = "latency.lanes";
    m.with_param("lanes", gen::to_string(lanes)).with_param("level", "shared memory");
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace cuprobe::suite
