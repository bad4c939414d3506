// cuprobe_suite/tma_multicast.cuh: what cluster multicast does to a TMA load stream from
// DRAM. For clusters of 1, 2 and 4 CTAs, every cluster walks chunks of one large array and every
// CTA receives every chunk of its cluster, either by multicast (rank r issues slice r into all
// CTAs: the array is requested from the L2 once per cluster) or with each CTA loading the whole
// chunk itself (the non-multicast stream of the same delivered total: the L2 is asked Cluster
// times). The kernels are cuprobe_suite/kernels/tma_multicast.cuh; cuprobe_suite/tma.cuh includes
// this header, and examples/tma.cu calls it.
//
//   namespace ex = cuprobe::suite;
//   auto r = ex::tma_multicast(dev, ex::tma_multicast_options{}, [](const std::string&) {});
//   const auto& b = r.best_multicast();
//   std::printf("clusters of %.0f: %.2f TB/s into shared memory, %.2f TB/s of DRAM\n",
//               b.params.at("cluster_size").as_number(), ex::tma_delivered_tbps(b),
//               ex::tma_dram_tbps(b));
//
// Accounting. Each point is one measurement named "tma.multicast", event-timed by the runner,
// one pass over the array per launch. Its declared work is the array's bytes (each byte is read
// from global memory by ONE cluster), declared as DRAM work, so gb_per_s() is the DRAM rate if
// every byte comes from DRAM once (param dram_tbps; the ncu script's multicast mode checks that
// with dram__bytes_read); delivered_tbps = cluster size x that is what lands in shared memory,
// summed over the CTAs; l2_request_bytes is what the CTAs ask of the L2 per pass (the array with
// multicast, cluster size x the array without). Validated after the samples: sums[r], the words
// every rank-r CTA received, must each be launches x (0 + 1 + ... + words - 1) (the array holds
// word i = i). The grid is as many clusters as cudaOccupancyMaxActiveClusters says fit at once,
// at most SMs x ctas_per_sm / cluster size CTAs (param ctas: clusters of 4 may not fill every
// SM); a point whose blocks or clusters do not fit is listed in `skipped` with a sentence.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/gen/tma.cuh"
#include "cuprobe/hopper/cluster.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe_suite/dsm.cuh"
#include "cuprobe_suite/kernels/tma_multicast.cuh"
#include "cuprobe_suite/memory.cuh"

namespace cuprobe::suite {

/// Throws cuprobe::error, naming `who`, unless every size is a multiple of 1 KiB in 1 .. 32 KiB
/// (`sizes` names them), every stage count 1, 2, 4 or 8 and every CTAs-per-SM count 1 .. 32: the
/// sweeps the stream kernels can run (cuprobe_suite/tma*.cuh check their options with it).
inline void tma_require_sweep(const std::string& who, const char* sizes,
                              const std::vector<std::uint32_t>& bytes,
                              const std::vector<unsigned>& stages,
                              const std::vector<unsigned>& ctas_per_sm) {
  for (auto b : bytes)
    require(
        b >= 1024 && b <= gen::tma_max_copy_bytes && b % 1024 == 0,
        who + ": " + sizes + " are multiples of 1 KiB in 1 .. 32 KiB, got " + std::to_string(b));
  for (auto s : stages)
    require(s == 1 || s == 2 || s == 4 || s == 8,
            who + ": stages are 1, 2, 4 or 8, got " + std::to_string(s));
  for (auto c : ctas_per_sm)
    require(c >= 1 && c <= 32, who + ": CTAs per SM are 1 .. 32, got " + std::to_string(c));
}

struct tma_multicast_options {
  std::vector<unsigned> cluster_sizes = {1, 2, 4};  ///< 1, 2, 4 or 8
  std::vector<bool> multicast = {true, false};      ///< false: every CTA loads the chunk itself
  /// Multicast only: the relay's remote arrival, release.cluster (false) and/or relaxed (true).
  std::vector<bool> relaxed_relay = {false, true};
  /// Bytes every CTA receives per stage: multiples of 1 KiB in 1 .. 32 KiB.
  std::vector<std::uint32_t> chunk_bytes = {8192, 16384, 32768};
  std::vector<unsigned> stages = {2, 4, 8};  ///< 1, 2, 4 or 8
  std::vector<unsigned> ctas_per_sm = {1, 2};
  unsigned consumer_warps = 4;
  std::optional<std::uint64_t> array_bytes;  ///< default dram_array_bytes(dev, 1 array)
  run_options run = run_options::fixed(2, 10);

  void validate() const {
    require(!cluster_sizes.empty() && !multicast.empty() && !chunk_bytes.empty() &&
                !stages.empty() && !ctas_per_sm.empty() && !relaxed_relay.empty(),
            "tma_multicast: cluster_sizes, multicast, relaxed_relay, chunk_bytes, stages and "
            "ctas_per_sm must not be empty");
    for (auto n : cluster_sizes)
      require(n == 1 || n == 2 || n == 4 || n == 8,
              "tma_multicast: cluster sizes are 1, 2, 4 or 8, got " + std::to_string(n));
    tma_require_sweep("tma_multicast", "chunk bytes", chunk_bytes, stages, ctas_per_sm);
    require(consumer_warps >= 1 && consumer_warps <= 30,
            "tma_multicast: consumer_warps must be 1 .. 30 (the block has two more warps)");
    require(!array_bytes || *array_bytes >= std::uint64_t(gen::tma_max_copy_bytes) *
                                                kernels::tma_multicast_max_cluster,
            "tma_multicast: array_bytes must be at least 256 KiB (one 32 KiB chunk per CTA of "
            "a cluster of 8)");
    require(run.batch == 1 && !run.graph,
            "tma_multicast: the checksum counts launches; leave run.batch = 1 and run.graph off");
    validate_options(run, "tma_multicast");
  }
};

/// What lands in shared memory, summed over the CTAs, in TB/s: cluster size x the array rate.
inline double tma_delivered_tbps(const measurement& m) {
  return m.params.at("delivered_tbps").as_number();
}
/// The array's bytes over the time, in TB/s: the DRAM rate if each byte is read once.
inline double tma_dram_tbps(const measurement& m) { return m.params.at("dram_tbps").as_number(); }

struct tma_multicast_result {
  std::vector<measurement> points;   ///< every point measured, validated
  std::vector<std::string> skipped;  ///< points that do not fit, and why
  std::uint64_t array_bytes = 0;

  /// The multicast point that delivers the most into shared memory, among clusters of 2 or
  /// more (among all multicast points when only clusters of 1 were run).
  const measurement& best_multicast() const {
    const measurement* best = nullptr;
    for (int pass = 0; pass < 2 && !best; ++pass)
      for (const auto& m : points) {
        if (!m.params.at("multicast").as_bool()) continue;
        if (pass == 0 && m.params.at("cluster_size").as_number() < 2) continue;
        if (!best || tma_delivered_tbps(m) > tma_delivered_tbps(*best)) best = &m;
      }
    require(best != nullptr, "tma_multicast: no multicast point was measured");
    return *best;
  }
  /// The fastest point of `cluster` CTAs with or without multicast; nullptr when none ran.
  const measurement* best_of(unsigned cluster, bool multicast) const {
    const measurement* best = nullptr;
    for (const auto& m : points)
      if (m.params.at("cluster_size").as_number() == cluster &&
          m.params.at("multicast").as_bool() == multicast &&
          (!best || m.gb_per_s() > best->gb_per_s()))
        best = &m;
    return best;
  }
};

namespace detail {
struct tma_multicast_point {
  unsigned cluster;
  bool multicast;
  std::uint32_t chunk_bytes;
  unsigned stages, ctas_per_sm;
  bool relaxed_relay = false;  ///< multicast only
};

/// "multicast 16 KiB x4 stages, clusters of 4, 1 CTA/SM" ("per-CTA ..." without multicast).
inline std::string tma_multicast_name(const tma_multicast_point& p) {
  return std::string(p.multicast ? "multicast " : "per-CTA ") +
         std::to_string(p.chunk_bytes / 1024) + " KiB x" + std::to_string(p.stages) +
         " stages, clusters of " + std::to_string(p.cluster) + ", " +
         std::to_string(p.ctas_per_sm) + " CTA/SM" +
         (p.multicast && p.cluster > 1 && p.relaxed_relay ? ", relaxed relay" : "");
}

template <class T = void>
std::optional<measurement> tma_multicast_at(const device_info& dev,
                                            const device_buffer<std::uint32_t>& array,
                                            const tma_multicast_point& p,
                                            const tma_multicast_options& o,
                                            tma_multicast_result& r) {
  const auto kernel = kernels::tma_multicast_kernel_for<T>(p.cluster, p.multicast, p.stages);
  const unsigned threads = kernels::tma_multicast_threads(o.consumer_warps);
  const std::size_t smem = gen::tma_stream_smem_bytes(p.chunk_bytes, p.stages);
  const std::string name = tma_multicast_name(p);
  const auto skip = [&](const std::string& why) {
    r.skipped.push_back(name + ": " + why);
    return std::nullopt;
  };
  if (smem > dev.smem_per_block_optin)
    return skip(std::to_string(smem) + " bytes of shared memory exceed the " +
                std::to_string(dev.smem_per_block_optin) + " a block may use");
  hopper::cluster_launch c;
  c.shape = {dim3(p.cluster), dim3(threads), smem};
  c.cluster = dim3(p.cluster);
  std::string why;
  const int fit_clusters = dsm_fit(kernel, c, why);  // also sets the smem attribute
  if (fit_clusters == 0) return skip(why);
  int fit = 0;
  CUPROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&fit, kernel, int(threads), smem));
  if (fit < int(p.ctas_per_sm))
    return skip("only " + std::to_string(fit) + " such blocks (" + std::to_string(smem) +
                " bytes of shared memory each) fit on an SM");
  const unsigned clusters =
      std::min(unsigned(fit_clusters), unsigned(dev.sm_count) * p.ctas_per_sm / p.cluster);
  if (clusters == 0) return skip("no cluster of this size fits the SMs");
  c.shape.grid = dim3(clusters * p.cluster);

  const std::uint64_t bytes = array.bytes() / p.chunk_bytes * p.chunk_bytes;
  kernels::tma_multicast_args a;
  a.src = array.data();
  a.chunk_bytes = p.chunk_bytes;
  a.chunks = bytes / p.chunk_bytes;
  a.relaxed_relay = p.relaxed_relay;
  device_buffer<std::uint32_t> sums(p.cluster);
  sums.zero();
  a.sums = sums.data();
  std::uint64_t launches = 0;
  run_options ro = o.run;
  ro.mode = loop_mode::launches;
  ro.iterations = 1;
  measurement m = measure(
      "tma.multicast",
      [&](cudaStream_t s) {
        hopper::cluster_launch l = c;
        l.stream = s;
        hopper::launch(kernel, l, a);
        ++launches;
      },
      work::bytes_moved(double(bytes), 0,
                        "array bytes read from global memory per pass, each by one cluster "
                        "(shared memory receives cluster size x these; one pass per launch)")
          .with_source(cuprobe::data_source::dram)
          .with_working_set(double(bytes)),
      ro);
  cuprobe::synchronize_device("suite::tma_multicast (the validation launch)");
  const std::uint32_t want = static_cast<std::uint32_t>(launches) * gen::tma_iota_sum(bytes / 4);
  const std::vector<std::uint32_t> got = sums.to_host();
  for (unsigned rank = 0; rank < p.cluster; ++rank)
    require(got[rank] == want, "tma_multicast: " + name + ": the rank-" + std::to_string(rank) +
                                   " CTAs summed " + std::to_string(got[rank]) + " over " +
                                   std::to_string(launches) + " launches, expected " +
                                   std::to_string(want) +
                                   " (a copy delivered wrong or missing bytes)");
  const double dram_tbps = m.gb_per_s() / 1e3;
  m.with_launch(c.shape)
      .with_kernel(kernel_attributes::of(kernel, int(threads), smem))
      .with_param("case", name)
      .with_param("multicast", p.multicast)
      .with_param("relaxed_relay", p.multicast && p.cluster > 1 && p.relaxed_relay)
      .with_param("cluster_size", p.cluster)
      .with_param("clusters", clusters)
      .with_param("ctas", clusters * p.cluster)
      .with_param("chunk_bytes", p.chunk_bytes)
      .with_param("chunk_kib", p.chunk_bytes / 1024)
      .with_param("slice_bytes",
                  kernels::tma_multicast_slice_bytes(p.chunk_bytes, p.cluster, p.multicast))
      .with_param("stages", p.stages)
      .with_param("ctas_per_sm", p.ctas_per_sm)
      .with_param("consumer_warps", o.consumer_warps)
      .with_param("bytes_in_flight_per_sm", double(p.chunk_bytes) * p.stages * p.ctas_per_sm)
      .with_param("unique_bytes_in_flight", double(clusters) * p.chunk_bytes * p.stages)
      .with_param("array_bytes", double(bytes))
      .with_param("l2_request_bytes", double(bytes) * (p.multicast ? 1 : p.cluster))
      .with_param("dram_tbps", dram_tbps)
      .with_param("delivered_bytes", double(bytes) * p.cluster)
      .with_param("delivered_tbps", dram_tbps * p.cluster)
      .with_param("valid", true);
  return m;
}
}  // namespace detail

/// Every selected point (see the file comment), on one iota array.
template <class Progress>
tma_multicast_result tma_multicast(const device_info& dev, const tma_multicast_options& o,
                                   Progress&& progress) {
  o.validate();
  require(dev.sm() >= 90,
          "tma_multicast: cluster multicast needs sm_90 or newer; this device is sm_" +
              std::to_string(dev.sm()));
  tma_multicast_result r;
  dram_size size;
  size.arrays = 1;
  const std::uint64_t unit =
      std::uint64_t(gen::tma_max_copy_bytes) * kernels::tma_multicast_max_cluster;
  r.array_bytes = o.array_bytes.value_or(dram_array_bytes(dev, size)) / unit * unit;
  device_buffer<std::uint32_t> array(r.array_bytes / 4);
  gen::tma_iota_kernel<<<unsigned(dev.sm_count) * 8, 256>>>(array.data(), array.size());
  CUPROBE_CHECK_LAUNCH("cuprobe::gen::tma_iota_kernel");
  for (auto n : o.cluster_sizes)
    for (bool mc : o.multicast)
      for (auto b : o.chunk_bytes)
        for (auto s : o.stages)
          for (auto c : o.ctas_per_sm)
            for (bool relaxed : o.relaxed_relay) {
              if (relaxed && !(mc && n > 1) && o.relaxed_relay.size() > 1)
                continue;  // no relay without multicast: one point, not two
              const detail::tma_multicast_point p{n, mc, b, s, c, relaxed && mc && n > 1};
              progress(detail::tma_multicast_name(p));
              auto m = detail::tma_multicast_at(dev, array, p, o, r);
              if (m) r.points.push_back(std::move(*m));
            }
  return r;
}

}  // namespace cuprobe::suite
