// cuprobe_suite/dsm.cuh: distributed shared memory (sm_90 thread block clusters): the
// latency of a load from a peer CTA's shared memory and the bandwidth of every SM reading its
// neighbour's, against the same loads on the CTA's own shared memory, for clusters of 1 (local),
// 2, 4, 8 and 16 CTAs (16 is non-portable: cluster_launch::allow_non_portable).
//
//   namespace ex = cuprobe::suite;
//   auto lat = ex::dsm_latency(dev, ex::dsm_latency_options{});
//   auto bw = ex::dsm_bandwidth(dev, ex::dsm_bw_options{}, [](const std::string&) {});
//   std::printf("DSM %.0f cycles/hop (own %.0f), %.1f TB/s\n", *lat.latency_cycles,
//               *lat.local_cycles, *bw.read_tbps);   // skipped sizes: lat.skipped, bw.skipped
//
// A cluster size the device cannot launch (cudaOccupancyMaxActiveClusters says 0 fit, or
// refuses the size) is recorded in `skipped` with the reason, never dropped silently. Every CTA
// gets more dynamic shared memory than half an SM's (kernels::dsm_one_cta_per_sm_smem: 115 KiB on
// sm_90 for the chase, the 128 KiB of 32 warps' regions for bandwidth), so no two CTAs of a
// cluster share an SM and every "remote" load crosses the SM-to-SM network; %smid of each CTA is
// recorded (chaser_sm, target_sm; distinct_sms) to show it.
//
// Latency (kernels::dsm_chase_kernel): a sample is one chase, launched as one cluster: rank 0
// chases the ring of rank `target` with ld.shared::cluster.b32 (one untimed pass, then `steps`
// timed hops); unit cycles, iterations = steps, one op = one hop, so cycles_per_op() is cycles
// per hop, seconds() its time at the measurement's clock. Targets at each cluster size: rank 1
// (every rank 1 .. n - 1 with every_rank: the spread over the GPC), and rank 0 itself (the
// control: the same instruction on the own ring). Each rank's ring is drawn with its own seed
// and the chase must end on the node a host walk of the target's ring reaches. Each hop is the
// LD.E through the shared window plus the MOV ptxas adds to pair the 32-bit address with
// SR_SWINHI (tests/sass/dsm.cu): both remote and control pay it; `lds` is the plain ld.shared
// chase (LDS, suite::shared_chase_latency) of the same ring size for reference.
//   latency_cycles = cluster of 2, rank 0 -> rank 1 (summary key dsm.latency.cycles)
//   local_cycles   = cluster of 1, its own ring through ld.shared::cluster
//
// Bandwidth (kernels::dsm_bw_kernel, U = dsm_bw_unroll loads per round): as many clusters as
// cudaOccupancyMaxActiveClusters says fit at once, one CTA per SM; every CTA reads the shared
// memory of rank (rank + 1) % n (remote) or its own (local control; the only point at n = 1). A
// sample is the slowest CTA's cycles; unit cycles, iterations = rounds. Bytes count what the
// lanes receive: CTAs x threads x U x width per round. bytes_per_clock_per_sm = one CTA's bytes
// of a round / cycles of a round (one CTA per SM, so per SM; independent of the clock); tb_per_s
// uses the measurement's clock (run.clock_mhz, else NVML's median). The limit is
// model::shared_memory_bandwidth (32 banks x 4 B per clock: what one SM's shared memory
// delivers). Every thread's sum of what it read is checked against kernels::dsm_bw_sink (the words
// carry the owner's rank).
//   read_tbps = the fastest remote point of the widest width measured (summary key dsm.read.tbps)
#pragma once

#include <algorithm>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/hopper/cluster.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/model/memory.cuh"
#include "cuprobe_suite/kernels/dsm.cuh"
#include "cuprobe_suite/latency.cuh"

namespace cuprobe::suite {

inline constexpr int dsm_bw_unroll = 8;  ///< loads per thread per round

/// A cluster size that was not measured, and why.
struct dsm_skip {
  unsigned cluster_size = 0;
  std::string reason;
};

namespace detail {
struct dsm_quiet {
  void operator()(const std::string&) const {}
};

inline void dsm_check_common(const std::vector<unsigned>& sizes, const run_options& run,
                             const std::string& who) {
  require(!sizes.empty(), who + ": cluster_sizes must not be empty");
  std::set<unsigned> seen;
  for (unsigned n : sizes) {
    require(n >= 1 && n <= hopper::max_non_portable_cluster_size,
            who + ": cluster sizes are 1 .. " +
                std::to_string(hopper::max_non_portable_cluster_size) + " CTAs, got " +
                std::to_string(n));
    require(seen.insert(n).second,
            who + ": cluster size " + std::to_string(n) + " is listed twice");
  }
  require(run.batch == 1 && !run.graph,
          who + ": in-kernel samples; leave run.batch = 1 and run.graph off");
  validate_options(run, who);
}

inline void dsm_check_device(const device_info& dev, const std::string& who) {
  require(dev.sm() >= 90, who +
                              ": distributed shared memory needs thread block clusters (sm_90 or "
                              "newer); this device is sm_" +
                              std::to_string(dev.sm()));
}

/// `clusters` clusters of n CTAs in a line (rank = blockIdx.x % n), non-portable above 8.
inline hopper::cluster_launch dsm_launch(unsigned n, unsigned clusters, unsigned threads,
                                         std::size_t smem) {
  hopper::cluster_launch c;
  c.shape = {dim3(n * clusters), dim3(threads), smem};
  c.cluster = dim3(n);
  c.allow_non_portable = n > hopper::max_portable_cluster_size;
  return c;
}

/// How many clusters of `c`'s shape fit at once; 0 with the reason in `why` when none does or
/// the driver refuses the size.
template <class... P>
int dsm_fit(void (*kernel)(P...), const hopper::cluster_launch& c, std::string& why) {
  const std::string what = "clusters of " + std::to_string(c.cluster_ctas()) + " CTAs (" +
                           std::to_string(c.shape.block_threads()) + " threads, " +
                           std::to_string(c.shape.dynamic_smem) +
                           " bytes of dynamic shared memory each)";
  try {
    const int fit = hopper::max_active_clusters(kernel, c);
    if (fit <= 0)
      why = "cudaOccupancyMaxActiveClusters says no " + what + " can be resident on this device";
    return std::max(fit, 0);
  } catch (const error& e) {
    (void)cudaGetLastError();
    why = "cudaOccupancyMaxActiveClusters refused " + what + ": " + e.what();
    return 0;
  }
}
}  // namespace detail

// ------------------------------------------------------------------------------------------
// Latency.

struct dsm_latency_options {
  std::vector<unsigned> cluster_sizes = {1, 2, 4, 8, 16};
  std::optional<std::size_t> bytes;  ///< ring per CTA; default smem_per_block / 3 (16 KiB sm_90)
  std::uint32_t stride = 4;          ///< bytes between nodes, a multiple of 4
  std::uint64_t steps = 1u << 14;    ///< timed hops per chase (after one untimed pass)
  bool every_rank = true;            ///< rank 0 chases each rank 1 .. n - 1, else rank 1 only
  bool local_control = true;         ///< at n >= 2 also rank 0's own ring (target 0)
  bool lds_reference = true;         ///< the ld.shared chase of the same ring size (`lds`)
  std::uint64_t seed = 1;
  run_options run = run_options::fixed(1, 3);

  std::size_t ring_bytes(const device_info& dev) const {
    return bytes.value_or(dev.smem_per_block / 3 / 4 * 4);
  }
  /// Throws cuprobe::error naming the field; no CUDA call.
  void validate(const device_info& dev) const {
    detail::dsm_check_common(cluster_sizes, run, "dsm_latency");
    detail::dsm_check_device(dev, "dsm_latency");
    require(stride >= 4 && stride % 4 == 0,
            "dsm_latency: stride is " + std::to_string(stride) +
                "; it must be a multiple of 4 bytes (a node holds a 32-bit address)");
    const std::size_t b = ring_bytes(dev);
    require(b / stride >= 2, "dsm_latency: a ring of " + std::to_string(b) +
                                 " bytes holds fewer than 2 nodes of stride " +
                                 std::to_string(stride));
    require(b <= dev.smem_per_block_optin,
            "dsm_latency: a ring of " + std::to_string(b) + " bytes exceeds the " +
                std::to_string(dev.smem_per_block_optin) + " bytes of shared memory a CTA may use");
    require(steps >= 1 && steps <= (1ull << 30),
            "dsm_latency: steps is " + std::to_string(steps) + "; it must be 1 .. 2^30");
  }
};

/// One chase: rank 0 of a cluster of `cluster_size` CTAs chasing the ring of rank `target`.
struct dsm_latency_point {
  measurement m;  ///< unit cycles; cycles_per_op() = cycles per hop
  unsigned cluster_size = 1;
  unsigned target = 0;                         ///< 0: rank 0's own ring (the control)
  std::uint32_t chaser_sm = 0, target_sm = 0;  ///< %smid of rank 0 and of the target
  std::uint32_t last_node = 0, expected_node = 0;
  bool remote() const { return target != 0; }
};

struct dsm_latency_result {
  std::vector<dsm_latency_point> points;
  std::optional<measurement> lds;  ///< ld.shared chase of the same bytes (LDS)
  std::vector<dsm_skip> skipped;
  std::size_t ring_bytes = 0;
  std::size_t smem_per_cta = 0;
  std::optional<double> latency_cycles;  ///< cluster of 2, rank 1 (dsm.latency.cycles)
  std::optional<double> local_cycles;    ///< cluster of 1, its own ring
};

namespace detail {
template <int = 0>
dsm_latency_point dsm_chase_point(const dsm_latency_options& o, const hopper::cluster_launch& c,
                                  std::uint32_t nodes, const std::vector<std::uint32_t>& next,
                                  const device_buffer<std::uint32_t>& d_next, unsigned target) {
  const unsigned n = c.cluster_ctas();
  device_buffer<kernels::dsm_chase_out> out(1);
  device_buffer<std::uint32_t> smids(n);
  kernels::dsm_chase_args a;
  a.next = d_next.data();
  a.nodes = nodes;
  a.stride = o.stride;
  a.target = target;
  a.warmup = nodes;  // one full pass: the ring has been read once before the timed hops
  a.steps = o.steps;
  a.out = out.data();
  a.smids = smids.data();
  dsm_latency_point p;
  p.cluster_size = n;
  p.target = target;
  p.expected_node = kernels::dsm_expected_node(next, nodes, target, a.warmup + a.steps);
  const std::string who = "dsm_latency (cluster of " + std::to_string(n) + ", rank 0 -> rank " +
                          std::to_string(target) + ")";
  auto sampler = [&](const launch_context& ctx) {
    out.poison(poison_byte, ctx.stream);
    smids.poison(poison_byte, ctx.stream);
    hopper::cluster_launch l = c;
    l.stream = ctx.stream;
    hopper::launch(kernels::dsm_chase_kernel<0>, l, a);
    cuprobe::wait_for(ctx.stream, "");
    const kernels::dsm_chase_out h = out.to_host()[0];
    require(!device_buffer<kernels::dsm_chase_out>::is_poison(h),
            who + ": the chase wrote no result");
    const auto node = kernels::dsm_chase_node(h, nodes, o.stride);
    require(
        node && *node == p.expected_node,
        who + ": the chase ended on " +
            (node ? "node " + std::to_string(*node) : std::string("an address outside the ring")) +
            "; a host walk of rank " + std::to_string(target) + "'s ring reaches node " +
            std::to_string(p.expected_node));
    p.last_node = *node;
    const std::vector<std::uint32_t> sm = smids.to_host();
    p.chaser_sm = sm[0];
    p.target_sm = sm[target];
    return double(h.cycles);
  };
  run_options ro = o.run;
  ro.mode = loop_mode::in_kernel;
  ro.iterations = o.steps;
  p.m = measure_samples(
      "dsm.latency", sample_unit::cycles, sampler,
      work::op_count(1, "one dependent ld.shared::cluster.b32 (hop); cycles_per_op = cycles/hop"),
      ro);
  p.m.with_launch(c.shape)
      .with_kernel(kernel_attributes::of(kernels::dsm_chase_kernel<0>, int(c.shape.block_threads()),
                                         c.shape.dynamic_smem))
      .with_param("load", "ld.shared::cluster")
      .with_param("cluster_size", n)
      .with_param("target_rank", target)
      .with_param("remote", target != 0)
      .with_param("bytes", double(std::size_t(nodes) * o.stride))
      .with_param("stride", o.stride)
      .with_param("steps", double(o.steps))
      .with_param("warmup_steps", double(nodes))
      .with_param("chaser_sm", p.chaser_sm)
      .with_param("target_sm", p.target_sm)
      .with_param("smem_per_cta", double(c.shape.dynamic_smem))
      .with_param("cycles_per_hop", p.m.rate.cycles_per_op)
      .with_param("ns_per_hop", p.m.rate.seconds ? json(*p.m.rate.seconds * 1e9) : json());
  return p;
}
}  // namespace detail

/// Every chase above; `progress(label)` before each cluster size.
template <class Progress = detail::dsm_quiet>
dsm_latency_result dsm_latency(const device_info& dev, const dsm_latency_options& o,
                               Progress&& progress = Progress{}) {
  o.validate(dev);
  dsm_latency_result r;
  r.ring_bytes = o.ring_bytes(dev);
  const auto nodes = static_cast<std::uint32_t>(r.ring_bytes / o.stride);
  r.smem_per_cta = kernels::dsm_one_cta_per_sm_smem(dev, std::size_t(nodes) * o.stride);
  constexpr unsigned threads = 128;  // they link the ring; one of them chases
  for (unsigned n : o.cluster_sizes) {
    progress("DSM latency, cluster of " + std::to_string(n));
    const hopper::cluster_launch c = detail::dsm_launch(n, 1, threads, r.smem_per_cta);
    std::string why;
    if (detail::dsm_fit(kernels::dsm_chase_kernel<0>, c, why) == 0) {
      r.skipped.push_back({n, why});
      continue;
    }
    const std::vector<std::uint32_t> next = kernels::dsm_successors(nodes, n, o.seed);
    device_buffer<std::uint32_t> d_next(next.size());
    d_next.upload(next);
    std::vector<unsigned> targets;
    if (n == 1 || o.local_control) targets.push_back(0);
    for (unsigned t = 1; t < n && (t == 1 || o.every_rank); ++t) targets.push_back(t);
    for (unsigned t : targets) {
      r.points.push_back(detail::dsm_chase_point(o, c, nodes, next, d_next, t));
      const auto& p = r.points.back();
      if (n == 2 && t == 1) r.latency_cycles = p.m.cycles_per_op();
      if (n == 1) r.local_cycles = p.m.cycles_per_op();
    }
  }
  if (o.lds_reference) {
    progress("ld.shared latency");
    chase_latency_options co;
    co.chase.min_steps = co.chase.max_steps = o.steps;
    co.chase.warmup = gen::chase_warmup::full_pass;
    co.run = o.run;
    co.name = "dsm.latency";
    r.lds = shared_chase_latency(r.ring_bytes, co);
    r.lds->with_param("remote", false).with_param("cluster_size", json());
  }
  return r;
}

// ------------------------------------------------------------------------------------------
// Bandwidth.

struct dsm_bw_options {
  std::vector<unsigned> cluster_sizes = {1, 2, 4, 8, 16};
  std::vector<unsigned> widths = {4, 8, 16};  ///< bytes per lane per load
  unsigned threads = 1024;                    ///< per CTA, one CTA per SM
  std::uint32_t rounds = 1024;
  bool local_control = true;  ///< at n >= 2 also each CTA reading its own shared memory
  run_options run = run_options::fixed(1, 5);

  /// Throws cuprobe::error naming the field; no CUDA call.
  void validate(const device_info& dev) const {
    detail::dsm_check_common(cluster_sizes, run, "dsm_bandwidth");
    detail::dsm_check_device(dev, "dsm_bandwidth");
    require(!widths.empty(), "dsm_bandwidth: widths must not be empty");
    for (unsigned w : widths)
      require(w == 4 || w == 8 || w == 16,
              "dsm_bandwidth: widths are 4, 8 or 16 bytes per lane, got " + std::to_string(w));
    require(threads >= 32 && threads <= 1024 && threads % 32 == 0,
            "dsm_bandwidth: threads is " + std::to_string(threads) +
                "; it must be a multiple of 32 in 32 .. 1024");
    require(rounds >= 1 && rounds <= (1u << 24),
            "dsm_bandwidth: rounds is " + std::to_string(rounds) + "; it must be 1 .. 2^24");
  }
};

/// One bandwidth point: its measurement and the figures read off it.
struct dsm_bw_point {
  measurement m;  ///< unit cycles per round (the slowest CTA)
  unsigned cluster_size = 1;
  unsigned width = 16;  ///< bytes per lane per load
  bool remote = true;   ///< read rank (rank + 1) % n; false: the CTA's own shared memory
  unsigned clusters = 0, ctas = 0, distinct_sms = 0;
  double bytes_per_clock_per_sm = 0;
  std::optional<double> tb_per_s;  ///< at the measurement's clock (m.rate.clock_mhz)
};

struct dsm_bw_result {
  std::vector<dsm_bw_point> points;
  std::vector<dsm_skip> skipped;
  model::bandwidth_limit limit;
  std::optional<double> read_tbps;  ///< fastest remote point of the widest width (dsm.read.tbps)
};

namespace detail {
template <class T>
dsm_bw_point dsm_bw_measure(const device_info& dev, const dsm_bw_options& o,
                            const hopper::cluster_launch& c, bool remote) {
  constexpr int U = dsm_bw_unroll;
  const unsigned n = c.cluster_ctas(), ctas = unsigned(c.shape.blocks());
  device_buffer<unsigned long long> cycles(ctas);
  device_buffer<std::uint32_t> sink(std::size_t(ctas) * o.threads);
  device_buffer<std::uint32_t> smids(ctas);
  kernels::dsm_bw_args a;
  a.rounds = o.rounds;
  a.peer_step = remote ? 1 : 0;
  a.cycles = cycles.data();
  a.sink = sink.data();
  a.smids = smids.data();
  const std::string what = std::string(remote ? "remote" : "local") + " ld.shared::cluster " +
                           std::to_string(sizeof(T)) + " B per lane, clusters of " +
                           std::to_string(n);
  // Every thread read what its peer wrote (the words carry the owner's rank), and every CTA had
  // an SM of its own (the per-SM figure needs it): checked after every launch.
  std::vector<std::uint32_t> want(std::size_t(n) * o.threads);
  for (unsigned rank = 0; rank < n; ++rank)
    for (unsigned t = 0; t < o.threads; ++t)
      want[std::size_t(rank) * o.threads + t] =
          kernels::dsm_bw_sink(sizeof(T), U, o.rounds, t, (rank + a.peer_step) % n);
  dsm_bw_point p;
  auto sampler = [&](const launch_context& ctx) {
    cycles.poison(poison_byte, ctx.stream);
    sink.poison(poison_byte, ctx.stream);
    smids.poison(poison_byte, ctx.stream);
    hopper::cluster_launch l = c;
    l.stream = ctx.stream;
    hopper::launch(kernels::dsm_bw_kernel<T, U>, l, a);
    cuprobe::wait_for(ctx.stream, "");
    unsigned long long worst = 0;
    for (unsigned long long v : cycles.to_host()) {
      require(!device_buffer<unsigned long long>::is_poison(v),
              "dsm_bandwidth (" + what + "): a CTA wrote no cycles");
      worst = std::max(worst, v);
    }
    const std::vector<std::uint32_t> got = sink.to_host();
    for (std::size_t i = 0; i < got.size(); ++i) {
      const std::size_t b = i / o.threads;
      require(got[i] == want[(b % n) * o.threads + i % o.threads],
              "dsm_bandwidth (" + what + "): CTA " + std::to_string(b) + " thread " +
                  std::to_string(i % o.threads) + " did not read the words its peer rank " +
                  std::to_string((b % n + a.peer_step) % n) + " wrote");
    }
    const std::vector<std::uint32_t> sm = smids.to_host();
    p.distinct_sms = unsigned(std::set<std::uint32_t>(sm.begin(), sm.end()).size());
    require(p.distinct_sms == ctas, "dsm_bandwidth (" + what + "): " + std::to_string(ctas) +
                                        " CTAs ran on only " + std::to_string(p.distinct_sms) +
                                        " SMs; the per-SM figure needs one CTA per SM");
    return double(worst);
  };
  run_options ro = o.run;
  ro.mode = loop_mode::in_kernel;
  ro.iterations = o.rounds;
  const double per_round = double(ctas) * o.threads * U * sizeof(T);  // bytes, whole grid
  p.cluster_size = n;
  p.width = sizeof(T);
  p.remote = remote;
  p.clusters = unsigned(c.clusters());
  p.ctas = ctas;
  p.m = measure_samples("dsm.read", sample_unit::cycles, sampler,
                        work::bytes_moved(per_round, 0, what + ": CTAs x threads x U x width"), ro);
  p.bytes_per_clock_per_sm = per_round / ctas / p.m.stats.median;
  if (p.m.rate.bytes_per_s) p.tb_per_s = *p.m.rate.bytes_per_s / 1e12;
  const auto lim = model::shared_memory_bandwidth(dev.sm());
  p.m.with_launch(c.shape)
      .with_kernel(
          kernel_attributes::of(kernels::dsm_bw_kernel<T, U>, int(o.threads), c.shape.dynamic_smem))
      .with_param("instruction", "ld.shared::cluster")
      .with_param("remote", remote)
      .with_param("bytes_per_lane", sizeof(T))
      .with_param("cluster_size", n)
      .with_param("clusters", p.clusters)
      .with_param("ctas", ctas)
      .with_param("distinct_sms", p.distinct_sms)
      .with_param("threads", o.threads)
      .with_param("rounds", o.rounds)
      .with_param("unroll", U)
      .with_param("smem_per_cta", double(c.shape.dynamic_smem))
      .with_param("bytes_per_clock_per_sm", p.bytes_per_clock_per_sm)
      .with_param("tb_per_s", p.tb_per_s ? json(*p.tb_per_s) : json())
      .with_param("limit_bytes_per_clock_per_sm", lim.bytes_per_clock)
      .with_param("limit_source", lim.source);
  return p;
}

template <class T>
void dsm_bw_size(const device_info& dev, const dsm_bw_options& o, unsigned n, dsm_bw_result& r) {
  const std::size_t smem = kernels::dsm_one_cta_per_sm_smem(dev, kernels::dsm_bw_bytes(o.threads));
  hopper::cluster_launch c = dsm_launch(n, 1, o.threads, smem);
  std::string why;
  const int fit = dsm_fit(kernels::dsm_bw_kernel<T, dsm_bw_unroll>, c, why);
  if (fit == 0) {
    r.skipped.push_back({n, std::to_string(sizeof(T)) + " B per lane: " + why});
    return;
  }
  c = dsm_launch(n, unsigned(fit), o.threads, smem);
  if (n > 1) r.points.push_back(dsm_bw_measure<T>(dev, o, c, true));
  if (n == 1 || o.local_control) r.points.push_back(dsm_bw_measure<T>(dev, o, c, false));
}
}  // namespace detail

/// Every point above; `progress(label)` before each cluster size.
template <class Progress = detail::dsm_quiet>
dsm_bw_result dsm_bandwidth(const device_info& dev, const dsm_bw_options& o,
                            Progress&& progress = Progress{}) {
  o.validate(dev);
  dsm_bw_result r;
  r.limit = model::shared_memory_bandwidth(dev.sm());
  for (unsigned n : o.cluster_sizes) {
    progress("DSM bandwidth, cluster of " + std::to_string(n));
    for (unsigned w : o.widths) {
      if (w == 4) detail::dsm_bw_size<std::uint32_t>(dev, o, n, r);
      if (w == 8) detail::dsm_bw_size<uint2>(dev, o, n, r);
      if (w == 16) detail::dsm_bw_size<uint4>(dev, o, n, r);
    }
  }
  const unsigned widest = *std::max_element(o.widths.begin(), o.widths.end());
  for (const auto& p : r.points)
    if (p.remote && p.width == widest && p.tb_per_s && (!r.read_tbps || *p.tb_per_s > *r.read_tbps))
      r.read_tbps = p.tb_per_s;
  return r;
}

}  // namespace cuprobe::suite
