// fma_throughput: FP32 FMA throughput against the number of independent accumulators per
// thread (1..16) and the block size, beside the peak at the SM clock measured during the run.
//
//   build/hopper/examples/fma_throughput --json fma.json        (--quick: fewer points)
//
// Each point fills every SM once (max active blocks per SM x SMs), runs ~2 ms per launch, is
// the median of 15 samples, and has its results validated against the host (std::fma, same
// order). The analysis (suite::analyse_chain_sweep) says where latency stops being
// exposed (the fewest chains reaching 97 % of the best rate for a block size) and where
// register pressure starts to cost occupancy (the fewest chains whose occupancy is below the
// block size's best).
#include <cuprobe_suite/suite.cuh>

#include <cstdio>
#include <vector>

using op = cuprobe::gen::ops::fma_f32;
namespace ex = cuprobe::suite;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "fma_throughput: FP32 FMA TFLOP/s vs chains and block size");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::results res(argc, argv);

    const bool short_run = cli.quick || cli.small;
    const std::vector<int> chains =
        short_run ? std::vector<int>{1, 2, 4, 8, 16}
                  : std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    const std::vector<unsigned> blocks =
        short_run ? std::vector<unsigned>{256, 1024} : std::vector<unsigned>{128, 256, 512, 1024};
    ex::throughput_options o;
    o.run = cli.run_options();
    o.run.warmup = 2;
    o.run.stop = cuprobe::stopping_rule::fixed(cli.small ? 3 : 15);
    if (cli.small) o.target_ms = 0.05;
    const auto s = ex::chain_sweep<op, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>(
        dev, chains, blocks, o, [](int n, unsigned b) {
          std::fprintf(stderr, "fma_throughput: %d chains x %u threads\n", n, b);
        });
    const auto lat = ex::chain_latency<op>(ex::latency_options{});
    cuprobe::require(lat.check.ok, "latency run validation failed: " + lat.check.message);

    cuprobe::table t({"chains", "block", "blocks/SM", "regs", "occupancy", "TFLOP/s", "% of peak",
                      "FFMA/clk/SM", "clock MHz", "valid"});
    for (const auto& p : s.points) {
      const auto& r = p.r;
      t.add_row(
          {std::to_string(p.chains), std::to_string(p.block),
           std::to_string(r.kernel.max_active_blocks_per_sm), std::to_string(r.kernel.registers),
           cuprobe::fmt(100 * r.kernel.occupancy, 0) + "%", cuprobe::fmt(r.m.tflop_per_s(), 2),
           cuprobe::fmt(
               r.fraction_of_peak ? std::optional<double>(100 * *r.fraction_of_peak) : std::nullopt,
               1),
           cuprobe::fmt(r.instructions_per_clock_per_sm, 1), cuprobe::fmt(r.m.rate.clock_mhz, 0),
           r.check.ok ? "yes" : "NO"});
      res.add(r.m).with_param("name", "fma.f32");
    }
    cuprobe::table a({"block", "best TFLOP/s", "best % of peak", "chains to reach 97 % of best",
                      "first chains with lower occupancy"});
    cuprobe::json& x = res.extra("fma_throughput");
    for (const auto& b : s.blocks) {
      a.add_row({std::to_string(b.block), cuprobe::fmt(b.best_tflops, 2),
                 cuprobe::fmt(100 * b.best_fraction, 1),
                 b.chains_to_97pct ? std::to_string(*b.chains_to_97pct) : "-",
                 b.first_lower_occupancy ? std::to_string(*b.first_lower_occupancy)
                                         : "none up to " + std::to_string(chains.back())});
      cuprobe::json e = cuprobe::json::object();
      e["best_tflops"] = b.best_tflops;
      e["best_fraction_of_peak"] = b.best_fraction;
      e["chains_to_97pct"] = b.chains_to_97pct;
      e["first_chains_with_lower_occupancy"] = b.first_lower_occupancy;
      x["by_block"][std::to_string(b.block)] = e;
    }
    const auto& best = s.points[s.best];
    x["best_tflops"] = best.r.m.tflop_per_s();
    x["best_fraction_of_peak"] = best.r.fraction_of_peak;
    x["latency_cycles"] = lat.m.cycles_per_op();
    const auto peak = cuprobe::model::describe(cuprobe::model::ops_per_clock_per_sm<op>(dev.sm()));
    x["peak_source"] = peak;

    std::printf("FP32 FMA on %s (%d SMs); peak model: %s\n\n", dev.name.c_str(), dev.sm_count,
                peak.c_str());
    t.print();
    std::printf("\n");
    a.print();
    std::printf("\ndependent FFMA latency: %.2f cycles (median of %zu, range %.2f..%.2f)\n",
                lat.m.cycles_per_op(), lat.m.stats.count, lat.m.stats.min, lat.m.stats.max);
    std::printf("best: %.2f TFLOP/s = %.1f %% of the peak at the measured clock\n",
                best.r.m.tflop_per_s(), 100 * best.r.fraction_of_peak.value_or(0));
    res.add(lat.m);
    res.print_ceilings();
    res.write(cli);
    return 0;
  });
}
