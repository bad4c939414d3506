// dsm: distributed shared memory of thread block clusters (sm_90). The latency of a load from a
// peer CTA's shared memory (rank 0 chasing a ring in rank 1 .. n - 1) against the same load on
// its own, for clusters of 1, 2, 4, 8 and 16 CTAs, and the bandwidth of every SM reading its
// neighbour's shared memory (4, 8, 16 bytes per lane) against reading its own.
//
//   build/hopper/examples/dsm --json dsm.json        (--quick: fewer points; --small: sanitizer)
//
// The experiments are cuprobe_suite/dsm.cuh (dsm_latency, dsm_bandwidth); the kernels
// cuprobe_suite/kernels/dsm.cuh. Each CTA takes more than half an SM's shared memory, so every CTA
// of a cluster is on its own SM: a remote load crosses the SM-to-SM network. sm_90 or newer:
// elsewhere it refuses.
#include <cuprobe_suite/suite.cuh>

#include <cstdio>

namespace ex = cuprobe::suite;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "dsm: distributed shared memory",
        {cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here")});
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    const double mhz = clk.effective_sm_clock_mhz;
    const auto progress = [](const std::string& what) {
      std::fprintf(stderr, "dsm: %s\n", what.c_str());
    };
    ex::dsm_latency_options lo;
    lo.run = cli.run_options();
    lo.run.clock_mhz = mhz;
    lo.run.stop = cuprobe::stopping_rule::fixed(cli.samples(3, 3));
    if (cli.quick || cli.small) lo.every_rank = false;
    if (cli.small) {  // compute-sanitizer: every shared::cluster access is tracked
      lo.steps = 256;
      lo.bytes = 1024;
      lo.cluster_sizes = {1, 2};
    }
    const auto lat = ex::dsm_latency(dev, lo, progress);
    ex::dsm_bw_options bo;
    bo.run = cli.run_options();
    bo.run.clock_mhz = mhz;
    bo.run.stop = cuprobe::stopping_rule::fixed(cli.samples(5, 3));
    if (cli.quick) bo.widths = {16};
    if (cli.small) {
      bo.widths = {16};
      bo.rounds = 2;
      bo.threads = 256;
      bo.cluster_sizes = {1, 2};
    }
    const auto bw = ex::dsm_bandwidth(dev, bo, progress);

    cuprobe::results res(argc, argv);
    std::printf("Distributed shared memory on %s, SM clock %.0f MHz (measured)\n\n",
                dev.name.c_str(), mhz);
    cuprobe::table t({"cluster", "rank 0 reads", "cycles/hop", "ns/hop", "SMs"});
    for (const auto& p : lat.points) {
      t.add_row({std::to_string(p.cluster_size),
                 p.remote() ? "rank " + std::to_string(p.target) : std::string("itself"),
                 cuprobe::fmt(p.m.cycles_per_op(), 1),
                 cuprobe::fmt(p.m.cycles_per_op() / mhz * 1e3, 1),
                 std::to_string(p.chaser_sm) + " -> " + std::to_string(p.target_sm)});
      res.add(p.m);
    }
    if (lat.lds) {
      t.add_row({"-", "ld.shared (LDS)", cuprobe::fmt(lat.lds->cycles_per_op(), 1),
                 cuprobe::fmt(lat.lds->cycles_per_op() / mhz * 1e3, 1), "-"});
      res.add(*lat.lds);
    }
    std::printf("latency (one thread, %s ring per CTA, ld.shared::cluster):\n",
                cuprobe::fmt_bytes(double(lat.ring_bytes)).c_str());
    t.print();
    cuprobe::table b({"cluster", "reads", "B/lane", "CTAs", "B/clk/SM", "TB/s", "x limit"});
    for (const auto& p : bw.points) {
      b.add_row({std::to_string(p.cluster_size), p.remote ? "neighbour" : "own",
                 std::to_string(p.width), std::to_string(p.ctas),
                 cuprobe::fmt(p.bytes_per_clock_per_sm, 1), cuprobe::fmt(p.tb_per_s, 2),
                 cuprobe::fmt(p.bytes_per_clock_per_sm / bw.limit.bytes_per_clock, 3)});
      res.add(p.m);
    }
    std::printf("\nbandwidth (every SM, limit %.0f B/clk/SM: %s):\n", bw.limit.bytes_per_clock,
                bw.limit.source);
    b.print();
    for (const auto* s : {&lat.skipped, &bw.skipped})
      for (const auto& k : *s)
        std::printf("skipped: cluster of %u: %s\n", k.cluster_size, k.reason.c_str());
    res.extra("dsm")["sm_clock_mhz"] = mhz;
    res.print_ceilings();
    res.write(cli);
    if (cli.has("--summary")) {  // keys apart from device_report's dsm.latency/dsm.read
      cuprobe::summary_file sum(argc, argv, dev);
      if (lat.latency_cycles) sum.set("dsm.example.latency.cluster2.cycles", *lat.latency_cycles);
      if (lat.local_cycles) sum.set("dsm.example.latency.own.cycles", *lat.local_cycles);
      if (lat.lds) sum.set("dsm.example.latency.lds.cycles", lat.lds->cycles_per_op());
      double best = 0;
      for (const auto& p : bw.points)
        if (p.remote && p.bytes_per_clock_per_sm > best) best = p.bytes_per_clock_per_sm;
      if (best > 0) {
        sum.set("dsm.example.read.bytes_per_clk_sm", best);
        sum.set("dsm.example.read.fraction_of_limit", best / bw.limit.bytes_per_clock);
      }
      if (bw.read_tbps) sum.set("dsm.example.read.tbps", *bw.read_tbps);
      sum.set("dsm.example.clock_mhz", mhz);
      sum.write(cli);
    }
    return 0;
  });
}
