// fma_throughput: FP32 FMA throughput against the number of independent accumulators per
// thread (1..16) and the block size, beside the peak at the SM clock measured during the run.
//
//   build/h200/examples/fma_throughput --json fma.json        (--quick: fewer points)
//
// Each point fills every SM once (max active blocks per SM x SMs), runs ~2 ms per launch, is
// the median of 15 samples, and has its results validated against the host (std::fma, same
// order). The analysis says where latency stops being exposed (the fewest chains reaching
// 97 % of the best rate for a block size) and where register pressure starts to cost
// occupancy (the fewest chains whose occupancy is below the block size's best).
#include <cuprobe/cuprobe.cuh>
#include <cuprobe/suite/compute.cuh>

#include <cstdio>
#include <map>
#include <vector>

using op = cuprobe::gen::ops::fma_f32;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "fma_throughput: FP32 FMA TFLOP/s vs chains and block size");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::results res(argc, argv);

    const std::vector<int> chain_counts =
        cli.quick ? std::vector<int>{1, 2, 4, 8, 16}
                  : std::vector<int>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    const std::vector<unsigned> blocks =
        cli.quick ? std::vector<unsigned>{256, 1024} : std::vector<unsigned>{128, 256, 512, 1024};

    cuprobe::table t({"chains", "block", "blocks/SM", "regs", "occupancy", "TFLOP/s", "% of peak",
                      "FFMA/clk/SM", "clock MHz", "valid"});
    struct point {
      int chains;
      unsigned block;
      double tflops, frac, occupancy;
      bool valid;
    };
    std::vector<point> pts;
    auto pts_sweep = cuprobe::sweep::cartesian({cuprobe::sweep::axis::of("block", blocks),
                                                cuprobe::sweep::axis::of("chains", chain_counts)});
    cuprobe::sweep::run(pts_sweep, "fma.f32", [&](const cuprobe::sweep::point& p) {
      const int n = int(p.get_int("chains"));
      const unsigned block = unsigned(p.get_int("block"));
      auto r = cuprobe::gen::dispatch_chains<1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16>(
          n, [&](auto c) {
            return cuprobe::suite::chain_throughput<op, decltype(c)::value>(dev, block);
          });
      cuprobe::require(r.check.ok, "validation failed: " + r.check.message);
      t.add_row({std::to_string(n), std::to_string(block),
                 std::to_string(r.kernel.max_active_blocks_per_sm),
                 std::to_string(r.kernel.registers),
                 cuprobe::fmt(100 * r.kernel.occupancy, 0) + "%",
                 cuprobe::fmt(r.m.tflop_per_s(), 2), cuprobe::fmt(100 * r.fraction_of_peak, 1),
                 cuprobe::fmt(r.instructions_per_clock_per_sm, 1),
                 cuprobe::fmt(r.m.rate.clock_mhz, 0), r.check.ok ? "yes" : "NO"});
      pts.push_back(
          {n, block, r.m.tflop_per_s(), r.fraction_of_peak, r.kernel.occupancy, r.check.ok});
      res.add(std::move(r.m)).with_param("name", "fma.f32");
    });

    const auto lat = cuprobe::suite::chain_latency<op>();
    cuprobe::require(lat.check.ok, "latency run validation failed: " + lat.check.message);

    // The analysis: per block size, where latency stops being exposed and occupancy drops.
    cuprobe::table a({"block", "best TFLOP/s", "best % of peak", "chains to reach 97 % of best",
                      "first chains with lower occupancy"});
    cuprobe::json& ex = res.extra("fma_throughput");
    double best = 0, best_frac = 0;
    for (unsigned b : blocks) {
      double top = 0, top_frac = 0, top_occ = 0;
      for (const auto& p : pts)
        if (p.block == b) {
          top = std::max(top, p.tflops);
          top_frac = std::max(top_frac, p.frac);
          top_occ = std::max(top_occ, p.occupancy);
        }
      int knee = -1, occ_drop = -1;
      for (const auto& p : pts)
        if (p.block == b) {
          if (knee < 0 && p.tflops >= 0.97 * top) knee = p.chains;
          if (occ_drop < 0 && p.occupancy < top_occ - 1e-9) occ_drop = p.chains;
        }
      a.add_row({std::to_string(b), cuprobe::fmt(top, 2), cuprobe::fmt(100 * top_frac, 1),
                 std::to_string(knee), occ_drop < 0 ? "none up to 16" : std::to_string(occ_drop)});
      cuprobe::json e = cuprobe::json::object();
      e["best_tflops"] = top;
      e["best_fraction_of_peak"] = top_frac;
      e["chains_to_97pct"] = knee;
      e["first_chains_with_lower_occupancy"] = occ_drop;
      ex["by_block"][std::to_string(b)] = e;
      best = std::max(best, top);
      best_frac = std::max(best_frac, top_frac);
    }
    ex["best_tflops"] = best;
    ex["best_fraction_of_peak"] = best_frac;
    ex["latency_cycles"] = lat.cycles_per_step;
    ex["peak_source"] =
        cuprobe::model::describe(cuprobe::model::ops_per_clock_per_sm<op>(dev.sm()));

    std::printf(
        "FP32 FMA on %s (%d SMs); peak model: %s\n\n", dev.name.c_str(), dev.sm_count,
        cuprobe::model::describe(cuprobe::model::ops_per_clock_per_sm<op>(dev.sm())).c_str());
    t.print();
    std::printf("\n");
    a.print();
    std::printf("\ndependent FFMA latency: %.2f cycles (median of %d, range %.2f..%.2f)\n",
                lat.cycles_per_step, lat.repeats, lat.min, lat.max);
    std::printf("best: %.2f TFLOP/s = %.1f %% of the peak at the measured clock\n", best,
                100 * best_frac);
    res.write(cli);
    return 0;
  });
}
