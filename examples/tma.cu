// tma: the Hopper copy engine beside plain loads and stores, in one run. Single-copy latency
// (16-byte cp.async.bulk and 2-D tensor copies against ld.global.cg, from the L2 and from DRAM),
// then the DRAM stream bandwidth of TMA loads and stores over bytes per copy (1..32 KiB), stages
// in flight (1, 2, 4, 8) and CTAs per SM (1, 2, 4), beside the ld.global read stream and the
// st.global write stream on an array of the same size.
//
//   build/h200/examples/tma --json tma.json        (--quick: fewer points; --small: sanitizer)
//   --explore 1: both chunk orders (interleaved, contiguous) and the evict_first L2 hint on the
//   bulk stores, at fewer sizes.
//   tools/plot.py heatmap tma.json --where name=tma.load --x copy_kib --y stages --value tbps
//                 --facet copy -o tma_load.png      (scripts/plots.sh makes every plot)
//
// The experiments are experiments/tma.cuh (tma_latency, tma_streams); the kernels gen/tma.cuh.
// sm_90 or newer: elsewhere the program refuses with a sentence.
#include <cuprobe/cuprobe.cuh>

#include <cstdio>
#include <optional>

namespace ex = cuprobe::experiments;
namespace gen = cuprobe::gen;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "tma: TMA latency and stream bandwidth",
        {cuprobe::cli_option::integer("--explore",
                                      "1: both chunk orders and the evict_first store hint, at "
                                      "fewer sizes (how the defaults were chosen)",
                                      0, 1, 0)});
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::require(dev.cc_major >= 9, "tma: the copy engine (TMA) needs sm_90 or newer; " +
                                            dev.name + " is sm_" + std::to_string(dev.cc_major) +
                                            std::to_string(dev.cc_minor));
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    const double mhz = clk.effective_sm_clock_mhz;
    const auto progress = [](const std::string& what) {
      std::fprintf(stderr, "tma: %s\n", what.c_str());
    };

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
    progress("latency");
    const auto lat = ex::tma_latency(dev, lo);

    ex::tma_stream_options so;
    so.run = cli.run_options();
    so.run.warmup = cli.small ? 1 : 2;
    so.run.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));
    if (cli.quick) {
      so.copy_bytes = {4096, 16384, 32768};
      so.stages = {2, 4, 8};
      so.ctas_per_sm = {1, 2};
    }
    if (cli.get_integer("--explore") == 1) {
      so.copy_bytes = {4096, 16384};
      so.stages = {2, 8};
      so.ctas_per_sm = {1, 2};
      so.orders = {gen::tma_order::interleaved, gen::tma_order::contiguous};
      so.store_hints = {gen::tma_store_hint::none, gen::tma_store_hint::evict_first};
    }
    if (cli.small) {
      so.copy_bytes = {4096};
      so.stages = {2};
      so.ctas_per_sm = {1};
      so.array_bytes = std::uint64_t(8) << 20;
    }
    const auto st = ex::tma_streams(dev, so, progress);

    cuprobe::results res(argc, argv);
    std::printf("TMA on %s, SM clock %.0f MHz (measured)\n\n", dev.name.c_str(), mhz);
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

    const auto peer = [](const std::optional<cuprobe::measurement>& m) {
      return m ? m->gb_per_s() : 0.0;
    };
    cuprobe::table s({"direction", "copy", "KiB/copy", "stages", "CTA/SM", "order", "L2 hint",
                      "in flight/SM", "TB/s", "x peer"});
    for (const auto* v : {&st.loads, &st.stores})
      for (const auto& m : *v) {
        const bool store = m.params.at("direction").as_string() == "store";
        const double p = peer(store ? st.write_peer : st.read_peer);
        s.add_row({m.params.at("direction").as_string(), m.params.at("copy").as_string(),
                   cuprobe::fmt(m.params.at("copy_kib").as_number(), 0),
                   cuprobe::fmt(m.params.at("stages").as_number(), 0),
                   cuprobe::fmt(m.params.at("ctas_per_sm").as_number(), 0),
                   m.params.at("order").as_string(), m.params.at("store_hint").as_string(),
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
                            const std::optional<cuprobe::measurement>& peer,
                            const char* peer_what) {
      if (!best || !peer) return;
      std::printf("best TMA %-5s %.2f TB/s (%s) = %.3f x the %s stream (%.2f TB/s, %s)\n", what,
                  best->gb_per_s() / 1e3, best->params.at("case").as_string().c_str(),
                  best->gb_per_s() / peer->gb_per_s(), peer_what, peer->gb_per_s() / 1e3,
                  peer->params.at("case").as_string().c_str());
      res.add(*peer);
    };
    std::printf("\n");
    versus("load", st.loads.empty() ? nullptr : &st.best_load(), st.read_peer, "ld.global read");
    versus("store", st.stores.empty() ? nullptr : &st.best_store(), st.write_peer,
           "st.global write");
    res.extra("tma")["sm_clock_mhz"] = mhz;
    res.write(cli);
    return 0;
  });
}
