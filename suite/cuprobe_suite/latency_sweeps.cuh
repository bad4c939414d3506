// cuprobe_suite/latency_sweeps.cuh: two pointer-chase experiments beside the latency
// ladder (cuprobe_suite/latency.cuh), shared by examples/latency_ladder:
//
//   TLB reach by stride   .cg loads (L2 only), one node per `stride` bytes, working sets doubling
//                         from 2 x stride. The lines touched are few (one per node) and stay in
//                         the L2, so the steps in the curve are the address translation's.
//                         Default loads would hide it: they hit the L1 while its lines hold the
//                         ring, whatever the number of pages (seen on the H200 up to 1,024 pages
//                         of 2 MiB). Strides derive from the driver's allocation granularity
//                         (device_info::allocation_granularity, the large page: 2 MiB on
//                         sm_70..sm_90) and 1/32 of it (64 KiB, the small page).
//   Who chases            one thread, a warp on one ring (one address per warp load) and a warp
//                         gathering from 32 rings (32 lines per warp load), at an L1-, an L2-
//                         and a DRAM-sized working set, and in shared memory.
//
//   namespace ex = cuprobe::suite;
//   auto tlb = ex::tlb_sweep(dev, ex::tlb_sweep_options{}, [](const std::string&) {});
//   auto lanes = ex::lane_modes(dev, ex::lane_modes_options{}, [](const std::string&) {});
//   for (const auto& m : tlb) std::printf("%s %.1f\n", m.params.at("load").as_string().c_str(),
//                                         m.cycles_per_op());
//
// Every point is a chase measurement (suite::chase_latency): samples are fresh chases of
// the same ring, one op is a hop, cycles_per_op() the latency in cycles per hop.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe_suite/latency.cuh"

namespace cuprobe::suite {

struct tlb_sweep_options {
  /// Default: the allocation granularity (2 MiB) and 1/32 of it (64 KiB).
  std::vector<std::size_t> strides;
  std::optional<std::size_t> max_bytes;  ///< default 256 x the L2 (15 GiB); capped by free memory
  unsigned repeats = 3;
  std::uint64_t max_steps = 1u << 16;  ///< timed hops per chase; at least chase_options::min_steps
  run_options run = chase_latency_options{}.run;

  std::vector<std::size_t> strides_for(const device_info& dev) const {
    if (!strides.empty()) return strides;
    const std::size_t page = dev.allocation_granularity.value_or(std::size_t(2) << 20);
    return {page, page / 32};
  }
  void validate(const device_info& dev) const {
    for (std::size_t s : strides_for(dev))
      require(s >= 128 && s % 8 == 0, "tlb_sweep: a stride of " + std::to_string(s) +
                                          " bytes is not a multiple of 8 of at least 128");
    require(repeats >= 1 && repeats <= 1000, "tlb_sweep: repeats must be 1 .. 1000");
    require(max_steps >= gen::chase_options{}.min_steps,
            "tlb_sweep: max_steps (" + std::to_string(max_steps) +
                ") is below chase_options' "
                "min_steps (" +
                std::to_string(gen::chase_options{}.min_steps) + ")");
    validate_options(run, "tlb_sweep");
  }
};

/// .cg chases at each stride over working sets 2 x stride, 4 x stride, ... max_bytes. Each ring
/// is warmed by one full pass first (its lines fit the L2), so a point measures the steady
/// state: L2 hits, translated by whichever TLB level still holds the page. Measurements are
/// named "latency.tlb"; params load ("ld.global.cg, stride 2 MiB"), stride, bytes, pages
/// (working set / allocation granularity).
template <class Progress>
std::vector<measurement> tlb_sweep(const device_info& dev, const tlb_sweep_options& o,
                                   Progress&& progress) {
  o.validate(dev);
  std::vector<measurement> out;
  chase_latency_options co;
  co.chase.max_steps = o.max_steps;
  co.chase.warmup = gen::chase_warmup::full_pass;
  co.run = o.run;
  co.run.stop = stopping_rule::fixed(o.repeats);
  co.name = "latency.tlb";
  const double page = double(dev.allocation_granularity.value_or(std::size_t(2) << 20));
  const std::size_t max_bytes = o.max_bytes.value_or(256 * dev.l2_bytes);
  for (std::size_t stride : o.strides_for(dev)) {
    co.load = "ld.global.cg, stride " + fmt_bytes(double(stride));
    for (std::size_t bytes = 2 * stride; bytes <= max_bytes; bytes *= 2) {
      std::size_t free_b = 0, total_b = 0;
      CUPROBE_CHECK(cudaMemGetInfo(&free_b, &total_b));
      if (bytes + (std::size_t(512) << 20) > free_b) break;  // the largest sets need the room
      progress(co.load + " " + fmt_bytes(double(bytes)));
      gen::chase_ring ring(bytes, stride, 1, bytes ^ stride);
      measurement m = chase_latency(ring, co, gen::chase_load_global_cg{});
      m.with_param("pages", double(ring.bytes()) / page).with_param("page_bytes", page);
      out.push_back(std::move(m));
    }
  }
  return out;
}

struct lane_modes_options {
  std::optional<std::size_t> l1_bytes;      ///< default smem_per_sm / 16 (14 KiB on sm_90)
  std::optional<std::size_t> l2_bytes;      ///< default L2 / 8 (7.5 MiB)
  std::optional<std::size_t> dram_bytes;    ///< default 16 x the L2 (960 MiB)
  std::optional<std::size_t> shared_bytes;  ///< default smem_per_block / 3 (16 KiB)
  unsigned repeats = 3;
  std::uint64_t max_steps = 1u << 18;  ///< as the ladder's; at least chase_options::min_steps
  run_options run = chase_latency_options{}.run;

  void validate() const {
    require(repeats >= 1 && repeats <= 1000, "lane_modes: repeats must be 1 .. 1000");
    require(max_steps >= gen::chase_options{}.min_steps,
            "lane_modes: max_steps (" + std::to_string(max_steps) +
                ") is below chase_options' "
                "min_steps (" +
                std::to_string(gen::chase_options{}.min_steps) + ")");
    validate_options(run, "lane_modes");
  }
};

/// One thread, warp_same and warp_own chases (gen::chase_lanes) at an L1, an L2 and a DRAM
/// working set (128-byte stride, default loads; the DRAM set is not warmed and the L2 is
/// flushed before each sample) and in shared memory (4-byte stride). Measurements are named
/// "latency.lanes"; params load ("ld.global" or "ld.shared"), lanes, level, bytes.
template <class Progress>
std::vector<measurement> lane_modes(const device_info& dev, const lane_modes_options& o,
                                    Progress&& progress) {
  o.validate();
  std::vector<measurement> out;
  const struct {
    const char* level;
    std::size_t bytes;
  } levels[] = {{"L1", o.l1_bytes.value_or(dev.smem_per_sm / 16)},
                {"L2", o.l2_bytes.value_or(dev.l2_bytes / 8)},
                {"DRAM", o.dram_bytes.value_or(16 * dev.l2_bytes)}};
  const std::size_t shared = o.shared_bytes.value_or(dev.smem_per_block / 3 / 4 * 4);
  for (auto lanes :
       {gen::chase_lanes::one, gen::chase_lanes::warp_same, gen::chase_lanes::warp_own}) {
    chase_latency_options co;
    co.chase.lanes = lanes;
    co.chase.max_steps = o.max_steps;
    co.run = o.run;
    co.run.stop = stopping_rule::fixed(o.repeats);
    co.name = "latency.lanes";
    const unsigned rings = lanes == gen::chase_lanes::warp_own ? gen::chase_warp_lanes : 1;
    for (const auto& lv : levels) {
      progress(std::string("lanes ") + gen::to_string(lanes) + " " + lv.level);
      require_room_for_ring(lv.bytes, 128, "lane_modes");
      gen::chase_ring ring(lv.bytes, 128, rings, 3);
      const bool cold = lv.bytes > dev.l2_bytes;
      chase_latency_options c = co;
      c.chase.warmup = cold ? gen::chase_warmup::none : gen::chase_warmup::full_pass;
      c.run.flush_l2 = cold;
      measurement m = chase_latency(ring, c);
      m.with_param("level", lv.level);
      out.push_back(std::move(m));
    }
    progress(std::string("lanes ") + gen::to_string(lanes) + " shared memory");
    measurement m = shared_chase_latency(shared, co);
    m.with_param("level", "shared memory");
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace cuprobe::suite
