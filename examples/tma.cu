// tma: the Hopper copy engine beside plain loads and stores, in one run. Single-copy latency
// (16-byte cp.async.bulk and 2-D tensor copies against ld.global.cg, from the L2 and from DRAM),
// then the DRAM stream bandwidth of TMA loads and stores over bytes per copy (1..32 KiB), stages
// in flight (1, 2, 4, 8) and CTAs per SM (1, 2, 4), beside the ld.global read stream and the
// st.global write stream on an array of the same size; the TMA copy stream (bulk load, then bulk
// store of the same buffer) into a second array, its best point then against cudaMemcpy of the
// same arrays in alternating rounds.
//
//   build/hopper/examples/tma --json tma.json        (--quick: fewer points; --small: sanitizer)
//   --explore 1: both chunk orders (interleaved, contiguous) and the evict_first L2 hint on the
//   bulk stores, at fewer sizes. --explore 2: the store variants (wait_group instead of
//   wait_group.read, 2 issuing threads, 3/4 and 1/2 of the grid) at 4 and 8 KiB, stores only.
//   --only latency|streams|multicast: one part (tools/ncu_dram.sh multicast runs
//   --only multicast --profile --quick). --summary PATH: the multicast headline keys
//   (tma.multicast.delivered_tbps, tma.multicast.dram_tbps, tma.multicast.cluster_size).
// Cluster multicast (cuprobe_suite/tma_multicast.cuh): clusters of 1, 2 and 4 walk the array; every
// CTA receives every chunk of its cluster, by multicast (rank r issues slice r into every CTA)
// or with every CTA loading the chunk itself ("per-CTA", the same delivered total); the table
// gives the array's bytes over the time ("DRAM": each byte is read once if the L2 merges the
// per-CTA requests; the ncu mode checks) and what lands in shared memory ("delivered").
//   tools/plot.py heatmap tma.json --where name=tma.load --x copy_kib --y stages --value tbps
//                 --facet copy -o tma_load.png      (scripts/plots.sh makes every plot)
//
// The experiments are cuprobe_suite/tma.cuh (tma_latency, tma_streams) and
// cuprobe_suite/tma_multicast.cuh (tma_multicast); the kernels gen/tma.cuh and
// cuprobe_suite/kernels/tma_multicast.cuh. sm_90 or newer: elsewhere the program refuses with a
// sentence.
#include <cuprobe_suite/suite.cuh>

#include <cstdio>
#include <functional>
#include <optional>
#include <string>

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;

namespace {

/// Latency of 16-byte bulk and tensor copies against ld.global.cg; the table and the results.
void run_latency(const cuprobe::cli& cli, const cuprobe::device_info& dev, double mhz,
                 cuprobe::results& res) {
  ex::tma_latency_options lo;
  lo.run = cli.run_options();
  lo.run.warmup = 0;
  lo.run.clock_mhz = mhz;
  lo.run.stop = cuprobe::stopping_rule::fixed(cli.samples(3, 3));
  if (cli.quick) lo.max_steps = 1u << 14;
  if (cli.small) {  // compute-sanitizer: a hop costs ~0.3 ms there, and the L2 ring is warmed
    lo.l2_bytes = std::size_t(256) << 10;
    lo.dram_bytes = 2 * dev.l2_bytes;
    lo.max_steps = 1024;
  }
  std::fprintf(stderr, "tma: latency\n");
  const auto lat = ex::tma_latency(dev, lo);
  cuprobe::table t({"level", "working set", "ld.global.cg", "bulk 16 B", "tensor 2-D 16 B",
                    "bulk - ld", "tensor - ld"});
  for (const auto* l : {&lat.l2, &lat.dram}) {
    const double ld = l->ld.cycles_per_op(), b = l->bulk.cycles_per_op(),
                 tn = l->tensor.cycles_per_op();
    t.add_row({l->ld.params.at("level").as_string(), cuprobe::fmt_bytes(double(l->bytes)),
               cuprobe::fmt(ld, 1), cuprobe::fmt(b, 1), cuprobe::fmt(tn, 1),
               cuprobe::fmt(b - ld, 1), cuprobe::fmt(tn - ld, 1)});
    for (const auto* m : {&l->ld, &l->bulk, &l->tensor}) res.add(*m);
  }
  std::printf("single-copy latency, cycles per dependent hop (one thread):\n");
  t.print();
}

/// The run options of the streams: one pass per launch, 10 samples (5 with --quick).
cuprobe::run_options stream_run(const cuprobe::cli& cli) {
  cuprobe::run_options r = cli.run_options();
  r.warmup = cli.small ? 1 : 2;
  r.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));
  return r;
}

/// The load and store streams beside ld.global / st.global; the table, the best points.
void run_streams(const cuprobe::cli& cli, const cuprobe::device_info& dev, cuprobe::results& res,
                 const std::function<void(const std::string&)>& progress) {
  ex::tma_stream_options so;
  so.run = stream_run(cli);
  so.copies_too = cli.get_integer("--explore") != 2;  // the copy stream, then vs cudaMemcpy
  so.copy_rounds = cli.small ? 3 : cli.quick ? 10 : 20;
  if (cli.quick) {
    so.copy_bytes = {4096, 16384, 32768};
    so.stages = {2, 4, 8};
    so.ctas_per_sm = {1, 2};
  }
  const long long explore = cli.get_integer("--explore");
  if (explore == 1) {
    so.copy_bytes = {4096, 16384};
    so.stages = {2, 8};
    so.ctas_per_sm = {1, 2};
    so.orders = {gen::tma_order::interleaved, gen::tma_order::contiguous};
    so.store_hints = {gen::tma_store_hint::none, gen::tma_store_hint::evict_first};
  }
  if (explore == 2) {  // the store variants, around the best point of the default sweep
    so.loads = false;
    so.copies = {gen::tma_copy::bulk};
    so.copy_bytes = {4096, 8192};
    so.stages = {2, 4, 8};
    so.ctas_per_sm = {1};
    so.store_waits = {gen::tma_store_wait::read, gen::tma_store_wait::complete};
    so.store_issuers = {1, 2};
    so.grid_fractions = {1.0, 0.75, 0.5};
  }
  if (cli.small) {
    so.copy_bytes = {4096};
    so.stages = {2};
    so.ctas_per_sm = {1};
    so.array_bytes = std::uint64_t(8) << 20;
  }
  const auto st = ex::tma_streams(dev, so, progress);
  const auto peer = [](const std::optional<cuprobe::measurement>& m) {
    return m ? m->gb_per_s() : 0.0;
  };
  cuprobe::table s({"direction", "copy", "KiB/copy", "stages", "CTA/SM", "CTAs", "order", "L2 hint",
                    "wait", "issuers", "in flight/SM", "TB/s", "x peer"});
  for (const auto* v : {&st.loads, &st.stores, &st.copies})
    for (const auto& m : *v) {
      const std::string dir = m.params.at("direction").as_string();
      const double p = dir == "copy" ? 0.0 : peer(dir == "store" ? st.write_peer : st.read_peer);
      s.add_row({m.params.at("direction").as_string(), m.params.at("copy").as_string(),
                 cuprobe::fmt(m.params.at("copy_kib").as_number(), 0),
                 cuprobe::fmt(m.params.at("stages").as_number(), 0),
                 cuprobe::fmt(m.params.at("ctas_per_sm").as_number(), 0),
                 cuprobe::fmt(m.params.at("ctas").as_number(), 0), m.params.at("order").as_string(),
                 m.params.at("store_hint").as_string(), m.params.at("store_wait").as_string(),
                 cuprobe::fmt(m.params.at("issuers").as_number(), 0),
                 cuprobe::fmt_bytes(m.params.at("bytes_in_flight_per_sm").as_number()),
                 cuprobe::fmt(m.gb_per_s() / 1e3, 2),
                 p > 0 ? cuprobe::fmt(m.gb_per_s() / p, 3) : "-"});
      res.add(m);
    }
  std::printf("\nDRAM streams over %s (one pass per launch; median of %zu launches):\n",
              cuprobe::fmt_bytes(double(st.array_bytes)).c_str(), so.run.stop.max_samples);
  s.print();
  for (const auto& why : st.skipped) std::printf("skipped: %s\n", why.c_str());
  // The best TMA point of a direction against the plain stream of the same size.
  const auto versus = [&](const char* what, const cuprobe::measurement* best,
                          const std::optional<cuprobe::measurement>& peer, const char* peer_what) {
    if (!best || !peer) return;
    std::printf("best TMA %-5s %.2f TB/s (%s) = %.3f x the %s stream (%.2f TB/s, %s)\n", what,
                best->gb_per_s() / 1e3, best->params.at("case").as_string().c_str(),
                best->gb_per_s() / peer->gb_per_s(), peer_what, peer->gb_per_s() / 1e3,
                peer->params.at("case").as_string().c_str());
  };
  std::printf("\n");
  versus("load", st.loads.empty() ? nullptr : &st.best_load(), st.read_peer, "ld.global read");
  versus("store", st.stores.empty() ? nullptr : &st.best_store(), st.write_peer, "st.global write");
  for (const auto& m : st.peer_points) res.add(m);  // every point that ran, the best among them
  if (st.copy_vs_memcpy) {
    const auto& bc = st.best_copy();
    std::printf(
        "best TMA copy  %.2f TB/s (%s) = %.3f x cudaMemcpy on the same arrays (%zu "
        "alternating rounds, the median of the paired ratios)\n",
        bc.gb_per_s() / 1e3, bc.params.at("case").as_string().c_str(), *st.copy_vs_memcpy,
        so.copy_rounds);
    for (const auto& m : st.copy_head_to_head) res.add(m);
  }
}

/// The cluster multicast stream beside the per-CTA stream of the same delivered total; the
/// table, the best point, and its headline keys in `sum` and the results' "tma" section.
void run_multicast(const cuprobe::cli& cli, const cuprobe::device_info& dev, cuprobe::results& res,
                   cuprobe::summary_file& sum,
                   const std::function<void(const std::string&)>& progress) {
  ex::tma_multicast_options mo;
  mo.run = stream_run(cli);
  if (cli.quick) {
    mo.chunk_bytes = {16384};
    mo.stages = {4};
    mo.ctas_per_sm = {1};
  }
  if (cli.small) {
    mo.chunk_bytes = {4096};
    mo.stages = {2};
    mo.ctas_per_sm = {1};
    mo.array_bytes = std::uint64_t(8) << 20;
  }
  const auto r = ex::tma_multicast(dev, mo, progress);
  cuprobe::table t({"cluster", "load", "KiB/chunk", "slice", "stages", "CTA/SM", "CTAs",
                    "L2 asked/pass", "DRAM TB/s", "delivered TB/s"});
  for (const auto& m : r.points) {
    t.add_row({cuprobe::fmt(m.params.at("cluster_size").as_number(), 0),
               m.params.at("multicast").as_bool() ? "multicast" : "per-CTA",
               cuprobe::fmt(m.params.at("chunk_kib").as_number(), 0),
               cuprobe::fmt_bytes(m.params.at("slice_bytes").as_number()),
               cuprobe::fmt(m.params.at("stages").as_number(), 0),
               cuprobe::fmt(m.params.at("ctas_per_sm").as_number(), 0),
               cuprobe::fmt(m.params.at("ctas").as_number(), 0),
               cuprobe::fmt_bytes(m.params.at("l2_request_bytes").as_number()),
               cuprobe::fmt(ex::tma_dram_tbps(m), 2), cuprobe::fmt(ex::tma_delivered_tbps(m), 2)});
    res.add(m);
  }
  std::printf(
      "\ncluster multicast over %s (one pass per launch; DRAM = array bytes / time, delivered = "
      "bytes landing in shared memory, summed over the CTAs):\n",
      cuprobe::fmt_bytes(double(r.array_bytes)).c_str());
  t.print();
  for (const auto& why : r.skipped) std::printf("skipped: %s\n", why.c_str());
  if (r.points.empty()) return;
  const auto& best = r.best_multicast();
  const unsigned n = unsigned(best.params.at("cluster_size").as_number());
  std::printf("\nbest multicast: %s: %.2f TB/s delivered, %.2f TB/s of the array\n",
              best.params.at("case").as_string().c_str(), ex::tma_delivered_tbps(best),
              ex::tma_dram_tbps(best));
  for (const auto* other : {r.best_of(n, false), r.best_of(1, false)})
    if (other)
      std::printf("  beside %s: %.2f TB/s delivered, %.2f TB/s of the array\n",
                  other->params.at("case").as_string().c_str(), ex::tma_delivered_tbps(*other),
                  ex::tma_dram_tbps(*other));
  auto& extra = res.extra("tma");
  extra["multicast.delivered_tbps"] = ex::tma_delivered_tbps(best);
  extra["multicast.dram_tbps"] = ex::tma_dram_tbps(best);
  extra["multicast.cluster_size"] = double(n);
  sum.set("tma.multicast.delivered_tbps", ex::tma_delivered_tbps(best));
  sum.set("tma.multicast.dram_tbps", ex::tma_dram_tbps(best));
  sum.set("tma.multicast.cluster_size", double(n));
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "tma: TMA latency, stream bandwidth and cluster multicast",
        {cuprobe::cli_option::integer("--explore",
                                      "1: both chunk orders and the evict_first store hint, at "
                                      "fewer sizes (how the defaults were chosen); 2: the store "
                                      "variants (wait_group, issuers, grid fractions)",
                                      0, 2, 0),
         cuprobe::cli_option::text("--only", "run one part: latency, streams or multicast", "all"),
         cuprobe::cli_option::path("--summary", "write the multicast headline metrics (JSON)")});
    const std::string only = cli.get("--only");
    cuprobe::require(only == "all" || only == "latency" || only == "streams" || only == "multicast",
                     "tma: --only takes latency, streams, multicast or all, got '" + only + "'");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::require(dev.cc_major >= 9, "tma: the copy engine (TMA) needs sm_90 or newer; " +
                                            dev.name + " is sm_" + std::to_string(dev.cc_major) +
                                            std::to_string(dev.cc_minor));
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    const double mhz = clk.effective_sm_clock_mhz;
    const std::function<void(const std::string&)> progress = [](const std::string& what) {
      std::fprintf(stderr, "tma: %s\n", what.c_str());
    };
    cuprobe::results res(argc, argv);
    cuprobe::summary_file sum(argc, argv, dev);
    std::printf("TMA on %s, SM clock %.0f MHz (measured)\n\n", dev.name.c_str(), mhz);
    if (only == "all" || only == "latency") run_latency(cli, dev, mhz, res);
    if (only == "all" || only == "streams") run_streams(cli, dev, res, progress);
    if (only == "all" || only == "multicast") run_multicast(cli, dev, res, sum, progress);
    res.extra("tma")["sm_clock_mhz"] = mhz;
    res.print_ceilings();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    return 0;
  });
}
