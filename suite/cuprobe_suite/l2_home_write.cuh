// cuprobe_suite/l2_home_write.cuh: the L2 write bandwidth when each SM writes only lines
// homed in its own L2 partition, in the other one, or anywhere.
//
//   namespace ex = cuprobe::suite;
//   auto homes = ex::l2_map_homes(dev, 8u << 20);       // which partition homes each line, and
//                                                        // which partition each SM sits beside
//   auto w = ex::l2_write_home_measure(dev, homes, ex::l2_write_home::near, 8e9, run);
//   w.check.require();                                   // every word, every SM's blocks
//   std::printf("%.2f TB/s\n", *w.m.rate.bytes_per_s / 1e12);
//
// Why: every st.global / bulk-store write path stops at 17-18 B/clk/SM (4.4-4.75 TB/s) on the
// H200 while reads of the same working sets reach 10-11 TB/s, and Nsight Compute counts ~1.5 L2
// slice accesses per byte written. A read of a line homed in the far partition is answered from
// a copy in the near one after the first pass; a write must reach the line's home, so on a plain
// array half of all writes cross between the partitions. This experiment tells the two apart.
//
// The method:
//  - Lines (l2_time_lines, l2_map_homes): the array is a chase ring of 128-byte nodes, one node
//    per line; one thread on SM probe_sm chases it with an atomic add of zero per hop
//    (gen::chase_load_home: performed where the line is homed, never at a near copy) after one
//    untimed pass, every hop timed (in pieces of 8192 hops, each starting where the last
//    ended). The hops split into two clusters (split_two_clusters, hops above 3 x the fastest
//    5 % set aside as "unsorted"); a line in the lower cluster is homed in probe_sm's partition
//    (partition 0), one in the upper cluster in the other (partition 1).
//  - SMs: which SM ids exist (kernels::sm_census_kernel), then every SM chases the first
//    sample_hops nodes with the same atomics; its median over partition-0 lines against its
//    median over partition-1 lines says which partition it sits beside. A map whose clusters
//    lie less than 10 % apart, or on which some SM cannot be told apart, is refused.
//  - Writes (l2_write_home_measure): a plan gives each SM its lines (kernels::l2_home_write_kernel,
//    2 blocks of 1024 threads per SM, st.global.cg.v4): near = the lines homed in the SM's
//    partition, split evenly over the SMs of that partition; far = the lines of the other
//    partition; any = every line, contiguous ranges in address order over all SMs (the plain
//    pattern, in the same kernel). Unsorted lines are split over all SMs in every plan. So near
//    and far each write every line of the array once per pass, the same bytes as any. The time
//    of a pass is set by the slower partition (the SMs and lines per partition are recorded).
//  - Validated: every word of the array (the write pattern's values), the SMs' block tickets
//    (launches x 2 on every SM id, so each SM wrote its share), and no block fault.
// Limits: the map is of one allocation (physical pages decide the home); the ring's links are
// overwritten by the first write, so a map is timed once and then only written; an SM's lines
// must fit its shared memory (the whole map, 4 bytes per line, is far below that for L2 sizes).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/gen/ordering.cuh"
#include "cuprobe/gen/stream_check.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe_suite/kernels/l2_home_write.cuh"
#include "cuprobe_suite/memory.cuh"

namespace cuprobe::suite {

/// The cycles of one timed hop to every node of `ring` (one ring, any size) from SM `sm`, by
/// node: gen::chase_hops with `load`, one untimed pass first, then pieces of 8192 timed hops,
/// each starting where the last ended, until every node was timed once.
template <class Load>
std::vector<std::uint32_t> l2_time_lines(const gen::chase_ring& ring, std::uint32_t sm, Load load,
                                         cudaStream_t stream = nullptr) {
  require(ring.rings() == 1, "l2_time_lines: the ring must be one ring (rings = 1)");
  const std::uint64_t n = ring.nodes();
  const auto next = gen::chase_successors(n, 1, ring.seed());
  std::vector<std::uint32_t> cycles(n, 0);
  std::uint64_t x = 0, done = 0;
  while (done < n) {
    const auto hops = std::uint32_t(std::min<std::uint64_t>(8192, n - done));
    const auto h = gen::chase_hops(ring, sm, hops, done == 0 ? n : 0, load, stream, x);
    for (std::uint32_t i = 0; i < hops; ++i, x = next[x]) cycles[x] = h.cycles[i];
    require(h.last_node == x,
            "l2_time_lines: the chase ended off the ring's order, so its hops name no line");
    done += hops;
  }
  return cycles;
}

/// Which partition homes each line of one allocation, and which partition each SM sits beside.
struct l2_homes {
  gen::chase_ring ring;            ///< the array (its links are overwritten by writes)
  std::vector<std::uint8_t> line;  ///< per line: 0 = probe_sm's partition, 1 = other, 2 = unsorted
  std::vector<int> sm;             ///< per SM id: 0, 1, or -1 (no SM has this id)
  std::uint32_t probe_sm = 0;
  double near_cycles = 0, far_cycles = 0;  ///< probe_sm's two clusters, cycles per atomic hop
  double min_sm_separation = 0;  ///< over the SMs: |median(part 1) - median(part 0)| / the smaller
  std::uint64_t lines_in[3] = {0, 0, 0};
  unsigned sms_in[2] = {0, 0};
  bool separated = false;  ///< lines and SMs placed by partition; else only `any` plans
  std::string why;         ///< when not separated: the sentence

  explicit l2_homes(std::size_t bytes) : ring(bytes, kernels::l2_home_line_bytes, 1, 23) {}
  std::uint32_t sm_ids() const { return std::uint32_t(sm.size()); }
  std::uint64_t lines() const { return ring.nodes(); }
};

/// SM ids present on the device (kernels::sm_census_kernel over 2 x SMs blocks of 1024 threads).
inline std::vector<std::uint32_t> sm_ids_present(const device_info& dev) {
  device_buffer<unsigned> counts(kernels::sm_census_ids), faults(1);
  counts.zero();
  faults.zero();
  kernels::sm_census_kernel<><<<unsigned(2 * dev.sm_count), 1024>>>(counts.data(), faults.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::suite::kernels::sm_census_kernel");
  require(faults.to_host()[0] == 0,
          "sm_ids_present: an SM id is above " + std::to_string(kernels::sm_census_ids - 1));
  const auto c = counts.to_host();
  std::vector<std::uint32_t> ids;
  for (std::uint32_t s = 0; s < c.size(); ++s)
    if (c[s]) ids.push_back(s);
  require(int(ids.size()) == dev.sm_count,
          "sm_ids_present: blocks ran on " + std::to_string(ids.size()) +
              " SM ids, the device has " + std::to_string(dev.sm_count) + " SMs");
  return ids;
}

/// Sorts the lines of a new array of `bytes` by home and the SMs by partition (the file
/// comment's method). When the partitions cannot be told apart (the clusters or an SM's two
/// medians less than 10 % apart, or a sample of one partition only: a GPU of one partition, or a
/// run under compute-sanitizer, whose instrumentation swamps the timing) the map says why
/// (l2_homes::separated, why) instead of throwing: every SM then counts as partition 0 and only
/// l2_write_home::any can be written.
inline l2_homes l2_map_homes(const device_info& dev, std::size_t bytes, std::uint32_t probe_sm = 0,
                             std::uint32_t sample_hops = 1024) {
  l2_homes h(bytes);
  h.probe_sm = probe_sm;
  const auto ids = sm_ids_present(dev);
  h.sm.assign(ids.back() + 1, -1);
  for (std::uint32_t s : ids) h.sm[s] = 0;
  const auto t = l2_time_lines(h.ring, probe_sm, gen::chase_load_home{});
  const double cap = 3 * summarize(std::vector<double>(t.begin(), t.end())).p05;
  const auto c = split_two_clusters(t, cap);
  h.near_cycles = c[0];
  h.far_cycles = c[1];
  h.line.resize(t.size());
  for (std::size_t i = 0; i < t.size(); ++i)
    h.line[i] = t[i] > cap ? 2 : std::fabs(t[i] - c[0]) <= std::fabs(t[i] - c[1]) ? 0 : 1;
  for (auto l : h.line) ++h.lines_in[l];
  const auto refuse = [&](const std::string& why) {
    h.why = "l2_map_homes: " + why;
    h.sms_in[0] = unsigned(ids.size());
    h.sms_in[1] = 0;
    for (std::uint32_t s : ids) h.sm[s] = 0;
    return std::move(h);
  };
  if (!(h.far_cycles > 1.1 * h.near_cycles))
    return refuse("from SM " + std::to_string(probe_sm) + " the two clusters of atomic hops (" +
                  fmt(h.near_cycles, 0) + " and " + fmt(h.far_cycles, 0) +
                  " cycles) are less than 10 % apart: no line can be placed by partition");
  // Which partition each SM sits beside: its atomics to the first sample_hops nodes.
  const auto next = gen::chase_successors(h.ring.nodes(), 1, h.ring.seed());
  const auto sample = std::uint32_t(std::min<std::uint64_t>(sample_hops, h.ring.nodes()));
  std::vector<std::uint8_t> sample_home(sample);
  for (std::uint64_t i = 0, x = 0; i < sample; ++i, x = next[x]) sample_home[i] = h.line[x];
  h.min_sm_separation = 1e30;
  for (std::uint32_t s : ids) {
    const auto r = gen::chase_hops(h.ring, s, sample, 0, gen::chase_load_home{});
    std::vector<double> to[2];
    for (std::uint32_t i = 0; i < sample; ++i)
      if (sample_home[i] < 2) to[sample_home[i]].push_back(r.cycles[i]);
    if (to[0].empty() || to[1].empty())
      return refuse("the first " + std::to_string(sample) +
                    " lines hold lines of one partition only: raise sample_hops");
    const double m0 = median(to[0]), m1 = median(to[1]);
    h.sm[s] = m0 <= m1 ? 0 : 1;
    h.min_sm_separation = std::min(h.min_sm_separation, std::fabs(m1 - m0) / std::min(m0, m1));
    ++h.sms_in[h.sm[s]];
  }
  if (!(h.min_sm_separation > 0.1))
    return refuse("some SM sees the two partitions' lines less than 10 % apart (" +
                  fmt(100 * h.min_sm_separation, 1) + " %): it cannot be placed");
  if (h.sms_in[0] == 0 || h.sms_in[1] == 0) return refuse("every SM sits beside one partition");
  h.separated = true;
  return h;
}

/// Where the lines an SM writes are homed.
enum class l2_write_home { near, far, any };
inline const char* to_string(l2_write_home w) {
  return w == l2_write_home::near ? "near" : w == l2_write_home::far ? "far" : "any";
}

/// The lines each SM writes: lines[sm_first[s] .. sm_first[s + 1]) for SM id s.
struct l2_home_plan {
  std::vector<std::uint32_t> lines, sm_first;
  std::uint64_t most_per_sm = 0;
  std::uint32_t active_sms = 0;  ///< SMs with at least one line
};

/// The plan of `mode` over `h` (the file comment): every line exactly once. `active` > 0: only
/// that many SMs write (every k-th present id, k = present / active), the others get no lines:
/// whether the write rate is a limit per SM or of the L2 as a whole.
/// `line`: per line 0, 1 (the partition homing it) or 2 (unsorted); `sm`: per SM id 0, 1 (the
/// partition it sits beside) or -1 (no such SM): l2_homes::line and l2_homes::sm.
inline l2_home_plan l2_home_plan_of(const std::vector<std::uint8_t>& line,
                                    const std::vector<int>& sm, l2_write_home mode,
                                    std::uint32_t active = 0) {
  std::vector<std::vector<std::uint32_t>> per(sm.size());
  std::vector<std::uint32_t> present, all_sms, in_part[2];
  for (std::uint32_t s = 0; s < sm.size(); ++s)
    if (sm[s] >= 0) present.push_back(s);
  require(!present.empty(), "l2_home_plan_of: no SM");
  // `want` of `from`, evenly spaced (all when want is 0 or more than there are).
  const auto pick = [](const std::vector<std::uint32_t>& from, std::size_t want) {
    const std::size_t k = want == 0 ? from.size() : std::min(want, from.size());
    std::vector<std::uint32_t> v;
    for (std::size_t i = 0; i < k; ++i) v.push_back(from[i * from.size() / k]);
    return v;
  };
  if (mode == l2_write_home::any) {
    all_sms = pick(present, active);
  } else {  // each partition's share of the active SMs, at least one
    std::vector<std::uint32_t> of_part[2];
    for (std::uint32_t s : present) of_part[sm[s]].push_back(s);
    for (int p = 0; p < 2; ++p) {
      const std::size_t want =
          active == 0 ? 0
                      : std::max<std::size_t>(
                            1, (std::size_t(active) * of_part[p].size() + present.size() / 2) /
                                   present.size());
      for (std::uint32_t s : pick(of_part[p], want)) all_sms.push_back(s);
    }
  }
  for (std::uint32_t s : all_sms) in_part[sm[s]].push_back(s);
  // Contiguous, even ranges of `lines` over `sms`.
  const auto spread = [&](const std::vector<std::uint32_t>& lines,
                          const std::vector<std::uint32_t>& sms) {
    require(!sms.empty() || lines.empty(), "l2_home_plan_of: a partition has no SM");
    for (std::size_t k = 0; k < sms.size(); ++k)
      for (std::size_t i = lines.size() * k / sms.size(); i < lines.size() * (k + 1) / sms.size();
           ++i)
        per[sms[k]].push_back(lines[i]);
  };
  std::vector<std::uint32_t> of[3];
  for (std::uint32_t l = 0; l < line.size(); ++l)
    of[mode == l2_write_home::any ? 2 : line[l]].push_back(l);
  if (mode != l2_write_home::any)
    for (int p = 0; p < 2; ++p) spread(of[mode == l2_write_home::near ? p : 1 - p], in_part[p]);
  spread(of[2], all_sms);
  l2_home_plan plan;
  plan.sm_first.push_back(0);
  for (const auto& v : per) {
    plan.lines.insert(plan.lines.end(), v.begin(), v.end());
    plan.sm_first.push_back(std::uint32_t(plan.lines.size()));
    plan.most_per_sm = std::max<std::uint64_t>(plan.most_per_sm, v.size());
    plan.active_sms += v.empty() ? 0 : 1;
  }
  return plan;
}

inline l2_home_plan l2_home_plan_of(const l2_homes& h, l2_write_home mode,
                                    std::uint32_t active = 0) {
  return l2_home_plan_of(h.line, h.sm, mode, active);
}

/// The L2 write of `mode` over the lines of `h` (kernels::l2_home_write_kernel, st.global.cg, 2 x
/// 1024 threads per SM), enough passes per launch for bytes_per_launch; validated (the file
/// comment). A template (T unused), like the other L2 write paths.
template <class T = void>
stream_result l2_write_home_measure(const device_info& dev, l2_homes& h, l2_write_home mode,
                                    double bytes_per_launch, const run_options& run,
                                    std::uint32_t active = 0) {
  using StOp = ptx::cache::cg;
  const auto kernel = kernels::l2_home_write_kernel<StOp>;
  constexpr unsigned threads = 1024, blocks_per_sm = 2;
  require(mode == l2_write_home::any || h.separated,
          "l2_write_home: a " + std::string(to_string(mode)) +
              " plan needs a map that told the partitions apart; " + h.why);
  const l2_home_plan plan = l2_home_plan_of(h, mode, active);
  const std::uint64_t per_block = (plan.most_per_sm + blocks_per_sm - 1) / blocks_per_sm;
  const std::size_t smem = std::size_t(per_block) * 4;
  require(smem <= dev.smem_per_block_optin / blocks_per_sm,
          "l2_write_home: " + std::to_string(per_block) + " lines per block need " +
              fmt_bytes(double(smem)) + " of shared memory; the array is too large");
  CUPROBE_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(std::max<std::size_t>(smem, 1))));
  int fit = 0;
  CUPROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, int(threads), smem));
  require(fit == int(blocks_per_sm), "l2_write_home: " + std::to_string(fit) +
                                         " blocks of 1024 threads fit on an SM, not exactly 2");
  const double array = double(h.lines()) * kernels::l2_home_line_bytes;
  const auto passes =
      std::uint32_t(std::max(1.0, std::min(4e9, std::ceil(bytes_per_launch / array))));
  device_buffer<std::uint32_t> lines(plan.lines.size()), first(plan.sm_first.size());
  lines.upload(plan.lines);
  first.upload(plan.sm_first);
  device_buffer<unsigned> tickets(h.sm_ids()), faults(1);
  tickets.zero();
  faults.zero();
  kernels::l2_home_write_args a;
  a.out = reinterpret_cast<float4*>(h.ring.address(0));
  a.lines = lines.data();
  a.sm_first = first.data();
  a.sm_ids = h.sm_ids();
  a.blocks_per_sm = blocks_per_sm;
  a.passes = passes;
  a.max_lines = std::uint32_t(per_block);
  a.tickets = tickets.data();
  a.faults = faults.data();
  const launch_shape shape{dim3(blocks_per_sm * unsigned(dev.sm_count)), dim3(threads), smem};
  std::uint64_t launches = 0;
  stream_result r;
  r.m = measure_counted(
      "cache.write", kernel, shape, a, "launch of cuprobe::suite::kernels::l2_home_write_kernel",
      work::bytes_moved(0, array * passes,
                        std::string("write: every line once per pass, each SM its plan's lines (") +
                            to_string(mode) + ")")
          .with_working_set(array),
      run, launches);
  cuprobe::synchronize_device("suite::l2_home_write");
  // The array as 32-bit words (the ring's memory is 64-bit words, little-endian).
  const auto dwords = h.ring.memory().to_host();
  std::vector<std::uint32_t> words(dwords.size() * 2);
  for (std::size_t i = 0; i < dwords.size(); ++i) {
    words[2 * i] = std::uint32_t(dwords[i]);
    words[2 * i + 1] = std::uint32_t(dwords[i] >> 32);
  }
  r.check = gen::check_output(gen::stream_pattern::write, words, 0, 1, 0);
  const auto t = tickets.to_host();
  std::uint64_t wrong_sms = 0;
  for (std::uint32_t s = 0; s < h.sm_ids(); ++s)
    wrong_sms += t[s] != (h.sm[s] >= 0 ? launches * blocks_per_sm : 0);
  const bool fault = faults.to_host()[0] != 0;
  r.check.ok = r.check.ok && wrong_sms == 0 && !fault;
  r.check.message += "; " + std::to_string(wrong_sms) + " SM ids without exactly " +
                     std::to_string(blocks_per_sm) + " blocks per launch" +
                     (fault ? "; a block could not run its share" : "");
  r.m.with_launch(shape)
      .with_kernel(kernel_attributes::of(kernel, int(threads)))
      .with_param("pattern", "write")
      .with_param("write_path", "home")
      .with_param("home", to_string(mode))
      .with_param("store", ptx::store_instruction<StOp>)
      .with_param("probe_sm", h.probe_sm)
      .with_param("near_cycles", h.near_cycles)
      .with_param("far_cycles", h.far_cycles)
      .with_param("lines_partition0", double(h.lines_in[0]))
      .with_param("lines_partition1", double(h.lines_in[1]))
      .with_param("lines_unsorted", double(h.lines_in[2]))
      .with_param("sms_partition0", h.sms_in[0])
      .with_param("sms_partition1", h.sms_in[1])
      .with_param("most_lines_per_sm", double(plan.most_per_sm))
      .with_param("active_sms", double(plan.active_sms))
      .with_param("rounds", double(passes))
      .with_param("array_bytes", array)
      .with_param("working_set_bytes", array)
      .with_param("valid", r.check.ok);
  return r;
}

/// The L2 write against how many SMs write, and by home (l2_write_scaling).
struct l2_write_scaling_options {
  std::optional<std::size_t> bytes;   ///< default l2_bytes / 16 (one SM's lines fit its blocks)
  std::vector<std::uint32_t> active;  ///< default 1, 2, 4, 8, 16, SMs / 4, SMs / 2, SMs
  double bytes_per_launch = 8.0 * (1u << 30);  ///< with every SM; scaled by active / SMs
  std::uint32_t sample_hops = 1024;            ///< l2_map_homes: hops per SM placing the SMs
  run_options run = run_options::fixed(2, 10);
};

struct l2_write_scaling_result {
  std::vector<measurement> points;  ///< any-home writes at each active count, then near, far
  std::vector<std::uint32_t> active;
  std::vector<double> per_sm_bytes_per_s;  ///< of each any-home point, per writing SM
  /// near and far: every SM; any: the total at the last count of `active` (every SM by default)
  double near_bytes_per_s = 0, far_bytes_per_s = 0, any_bytes_per_s = 0;
  double near_cycles = 0, far_cycles = 0;
  std::uint64_t lines_in[3] = {0, 0, 0};
  unsigned sms_in[2] = {0, 0};
  bool separated = false;  ///< near and far measured (l2_homes::separated)
  std::string why;
};

/// One map (l2_map_homes) of an array of o.bytes, then the any-home write with each count of
/// writing SMs (an SM's port when few write; the L2's intake when the sum stops growing), and
/// the near and far writes with every SM when the map told the partitions apart (else
/// r.separated is false and r.why says why). Every point validated (require()d).
template <class T = void>
l2_write_scaling_result l2_write_scaling(const device_info& dev,
                                         const l2_write_scaling_options& o = {}) {
  validate_options(o.run, "l2_write_scaling");
  l2_write_scaling_result r;
  l2_homes h = l2_map_homes(dev, o.bytes.value_or(dev.l2_bytes / 16), 0, o.sample_hops);
  r.near_cycles = h.near_cycles;
  r.far_cycles = h.far_cycles;
  for (int i = 0; i < 3; ++i) r.lines_in[i] = h.lines_in[i];
  r.sms_in[0] = h.sms_in[0];
  r.sms_in[1] = h.sms_in[1];
  const auto sms = std::uint32_t(dev.sm_count);
  r.active = o.active;
  if (r.active.empty())
    for (std::uint32_t k : {1u, 2u, 4u, 8u, 16u, sms / 4, sms / 2, sms})
      if (k >= 1 && (r.active.empty() || k > r.active.back())) r.active.push_back(k);
  const auto one = [&](l2_write_home mode, std::uint32_t k) {
    const std::uint32_t writing = k == 0 ? sms : std::min(k, sms);
    auto w = l2_write_home_measure<T>(dev, h, mode, o.bytes_per_launch * writing / sms, o.run, k);
    w.check.require();
    const double bps = *w.m.rate.bytes_per_s;
    r.points.push_back(std::move(w.m));
    return bps;
  };
  for (std::uint32_t k : r.active) r.per_sm_bytes_per_s.push_back(one(l2_write_home::any, k) / k);
  r.any_bytes_per_s = r.per_sm_bytes_per_s.back() * r.active.back();
  r.separated = h.separated;
  r.why = h.why;
  if (!h.separated) return r;  // near and far not measured: r.why says why
  r.near_bytes_per_s = one(l2_write_home::near, 0);
  r.far_bytes_per_s = one(l2_write_home::far, 0);
  return r;
}

}  // namespace cuprobe::suite
