// cuprobe_suite/l2_partitions.cuh: what crossing the L2's partitions costs, per SM.
//
//   namespace ex = cuprobe::suite;
//   auto p = ex::l2_partitions(dev, ex::l2_partition_options{}, [](const std::string&) {});
//   std::printf("near %.0f, far %.0f cycles; crossing costs %.0f cycles and %.0f %% of the "
//               "bandwidth\n", p.near_cycles, p.far_cycles, p.far_cycles - p.near_cycles,
//               100 * (1 - p.far_bytes_per_s.value_or(0) / p.near_bytes_per_s));
//
// The method (docs/memory-latency.md, "The two L2 partitions", with its limits):
//  - Latency, per SM. One thread on SM s (gen::chase_hops) chases a ring with .cg loads, warmed
//    by one full pass from that SM, and times every hop. On a ring of near_bytes (l2_bytes / 8
//    by default) every hop is an L2 hit in the SM's near partition: the median is the near
//    latency. On a ring of mixed_bytes (3/4 of the L2) the lines no longer fit one partition:
//    the hops split into two clusters (1-D 2-means on the hops below 3 x the near latency; the
//    rest are DRAM misses and are counted apart): the upper cluster's median is the far
//    latency, its share the far fraction. Each is a measurement (unit cycles) whose samples
//    are `repeats` chases from that SM.
//  - Bandwidth, whole GPU. The read bandwidth of gen::cache_bw_kernel (.cg) at near_bytes and
//    at mixed_bytes, in block-private chunks of one block size for both; with the far fraction f
//    seen at mixed_bytes, the far bandwidth is what makes the mix take its time: 1 / B_mixed = (1 -
//    f) / B_near + f / B_far (a model: it assumes that near and far accesses do not overlap
//    differently from near ones).
//  - Line by line (l2_classify_lines): every hop of a ring of at most 8192 lines timed from one
//    SM names its line, so the two clusters sort the lines themselves; with an atomic hop
//    (gen::chase_load_home) by the partition that homes them (cuprobe_suite/ordering.cuh places
//    fence-cost stores on near or far lines with it).
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe_suite/cache.cuh"

namespace cuprobe::suite {

struct l2_partition_options {
  std::optional<std::size_t> near_bytes;   ///< default l2_bytes / 8
  std::optional<std::size_t> mixed_bytes;  ///< default 3/4 of l2_bytes
  std::uint32_t hops = 4096;               ///< timed hops per chase (<= 8192)
  unsigned repeats = 3;                    ///< chases per SM and ring
  std::vector<std::uint32_t> sms;          ///< SM ids to probe; default 8 spread evenly
  bool bandwidth = true;                   ///< also the read bandwidth at both sizes
  cache_bw_options bw;
  run_options run = [] {
    run_options o;
    o.warmup = 0;
    return o;
  }();

  void validate() const {
    require(hops >= 64 && hops <= 8192, "l2_partitions: hops must be 64 .. 8192");
    require(repeats >= 1 && repeats <= 100, "l2_partitions: repeats must be 1 .. 100");
    bw.validate();
    validate_options(run, "l2_partitions");
  }
};

/// One SM's two latencies.
struct l2_partition_sm {
  std::uint32_t sm = 0;
  measurement near, far;     ///< unit cycles: per chase, the median near hop / far-cluster median
  double far_fraction = 0;   ///< of the last mixed chase's L2 hops, the share in the far cluster
  double dram_fraction = 0;  ///< of its hops, the share above 3 x the near latency
};

struct l2_partition_result {
  std::vector<l2_partition_sm> per_sm;
  double near_cycles = 0, far_cycles = 0, far_fraction = 0;  ///< medians over the SMs
  double near_bytes = 0, mixed_bytes = 0;
  std::vector<measurement> bandwidth;  ///< read at near_bytes, at mixed_bytes
  double near_bytes_per_s = 0, mixed_bytes_per_s = 0;
  std::optional<double> far_bytes_per_s;  ///< from the model in the file comment
};

/// Which L2 partition holds a line for an SM: unplaced (not chosen: wherever an allocation put
/// it), near (the partition wired to the SM's GPC) or far (across the crossbar).
enum class l2_home { unplaced, near, far };

inline const char* to_string(l2_home h) {
  return h == l2_home::near ? "near" : h == l2_home::far ? "far" : "unplaced";
}

/// The lines of a ring told apart by the time one SM takes to reach them.
struct l2_line_homes {
  std::uint32_t sm = 0;
  std::vector<std::uint64_t> near, far;    ///< device addresses of the ring's 128-byte lines
  double near_cycles = 0, far_cycles = 0;  ///< the two clusters' medians, cycles per hop
  double above_fraction = 0;  ///< share of hops above 3 x the fastest 5 % (left out: misses)
  /// The clusters lie at least 10 % apart; closer, the split is noise and tells no line apart.
  bool separated() const { return far_cycles > 1.1 * near_cycles; }
};

/// Times one hop to every line of `ring` (one ring of 128-byte nodes) from SM `sm`
/// (l2_time_lines: gen::chase_hops with `load` after one untimed pass). The hops split in two
/// clusters (split_two_clusters, hops above 3 x the fastest 5 % set aside) and each line goes to
/// the cluster whose median is nearer its hop. With gen::chase_load_home (an atomic, performed
/// where the line is homed) this sorts lines by the partition that homes them; with .cg loads
/// on a ring that fits the near partition every line answers near (l2_partitions' method).
template <class Load>
l2_line_homes l2_classify_lines(const gen::chase_ring& ring, std::uint32_t sm, Load load,
                                cudaStream_t stream = nullptr) {
  require(ring.rings() == 1 && ring.stride() == 128,
          "l2_classify_lines: the ring must be one ring of nodes 128 bytes apart, got stride " +
              std::to_string(ring.stride()));
  const auto t = l2_time_lines(ring, sm, load, stream);
  const double cap = 3 * summarize(std::vector<double>(t.begin(), t.end())).p05;
  const auto c = split_two_clusters(t, cap);
  l2_line_homes r;
  r.sm = sm;
  r.near_cycles = c[0];
  r.far_cycles = c[1];
  r.above_fraction = c[3];
  for (std::uint64_t x = 0; x < t.size(); ++x) {
    if (t[x] > cap) continue;
    (std::fabs(t[x] - c[0]) <= std::fabs(t[x] - c[1]) ? r.near : r.far).push_back(ring.address(x));
  }
  return r;
}

template <class Progress>
l2_partition_result l2_partitions(const device_info& dev, const l2_partition_options& o,
                                  Progress&& progress) {
  o.validate();
  require(dev.l2_bytes > 0, "l2_partitions: the device reports no L2 size");
  l2_partition_result r;
  r.near_bytes = double(o.near_bytes.value_or(dev.l2_bytes / 8));
  r.mixed_bytes = double(o.mixed_bytes.value_or(dev.l2_bytes / 4 * 3));
  const gen::chase_ring near_ring(std::size_t(r.near_bytes), 128, 1, 17);
  const gen::chase_ring mixed_ring(std::size_t(r.mixed_bytes), 128, 1, 19);
  std::vector<std::uint32_t> sms = o.sms;
  // Eight SMs spread over the ids by default: every SM costs a full pass over the mixed ring
  // per chase (about 0.1 s on an H200), and GPCs hold consecutive ids.
  if (sms.empty())
    for (int i = 0; i < std::min(8, dev.sm_count); ++i)
      sms.push_back(std::uint32_t(i * dev.sm_count / std::min(8, dev.sm_count)));
  run_options ro = o.run;
  ro.stop = stopping_rule::fixed(o.repeats);
  std::vector<double> nears, fars, fracs;
  for (std::uint32_t sm : sms) {
    progress("SM " + std::to_string(sm));
    l2_partition_sm p;
    p.sm = sm;
    double near_median = 0;
    p.near = measure_samples(
        "l2.partition.near", sample_unit::cycles,
        [&](cudaStream_t s) {
          const auto h = gen::chase_hops(near_ring, sm, o.hops, near_ring.nodes(),
                                         gen::chase_load_global_cg{}, s);
          near_median = median(std::vector<double>(h.cycles.begin(), h.cycles.end()));
          return near_median;
        },
        work::op_count(1, "one .cg hop from this SM, near-partition ring"), ro);
    p.far = measure_samples(
        "l2.partition.far", sample_unit::cycles,
        [&](cudaStream_t s) {
          const auto h = gen::chase_hops(mixed_ring, sm, o.hops, mixed_ring.nodes(),
                                         gen::chase_load_global_cg{}, s);
          const auto c = split_two_clusters(h.cycles, 3 * p.near.stats.median);
          p.far_fraction = c[2];
          p.dram_fraction = c[3];
          return c[1];
        },
        work::op_count(1, "one .cg hop from this SM, upper cluster of a ring of 3/4 of the L2"),
        ro);
    for (auto* m : {&p.near, &p.far})
      m->with_param("sm", sm)
          .with_param("near_bytes", r.near_bytes)
          .with_param("mixed_bytes", r.mixed_bytes);
    p.far.with_param("far_fraction", p.far_fraction).with_param("dram_fraction", p.dram_fraction);
    nears.push_back(p.near.stats.median);
    fars.push_back(p.far.stats.median);
    fracs.push_back(p.far_fraction);
    r.per_sm.push_back(std::move(p));
  }
  r.near_cycles = median(nears);
  r.far_cycles = median(fars);
  r.far_fraction = median(fracs);
  if (o.bandwidth) {
    progress("read bandwidth at both sizes");
    // One block size for both (the one whose private chunks fit near_bytes), so that only the
    // lines' homes differ, not the loads in flight.
    cache_bw_options bw = o.bw;
    bw.threads = bw.threads_for(dev, std::size_t(r.near_bytes), false, gen::cache_bw_unroll);
    for (double bytes : {r.near_bytes, r.mixed_bytes}) {
      auto b = cache_bw_measure<gen::stream_pattern::read, ptx::cache::cg>(dev, std::size_t(bytes),
                                                                           false, bw);
      b.check.require();
      (bytes == r.near_bytes ? r.near_bytes_per_s : r.mixed_bytes_per_s) = *b.m.rate.bytes_per_s;
      b.m.with_param("partition_probe", bytes == r.near_bytes ? "near" : "mixed");
      r.bandwidth.push_back(std::move(b.m));
    }
    const double f = r.far_fraction;
    const double inv_far = (1.0 / r.mixed_bytes_per_s - (1 - f) / r.near_bytes_per_s) / f;
    if (f > 0.01 && inv_far > 0) r.far_bytes_per_s = 1.0 / inv_far;
  }
  return r;
}

}  // namespace cuprobe::suite
