// latency_ladder: load-to-use latency against working set, 4 KiB to 4 GiB, by pointer chase;
// the L1, L2 and DRAM plateaus, TLB effects at the largest sets, and shared memory. Then the
// TLB reach by stride (.cg loads, one node per 2 MiB page, and per 64 KiB) and who chases (one thread, a
// warp on one ring, a warp gathering from 32 rings) at L1, L2, DRAM and shared-memory sizes.
//
//   build/h200/examples/latency_ladder --json latency.json      (--quick: to 1 GiB, fewer points)
//
// One thread chases a random cyclic permutation of 128-byte-spaced nodes (gen/chase.cuh),
// timed with clock64; each working set is chased 3 times and the median kept. Cycles are
// converted to ns with the effective SM clock measured first (clock64 over globaltimer).
// Default loads (ld.global, cached in L1) and .cg loads (L2 only) give two curves.
#include <cuprobe/cuprobe.cuh>
#include <cuprobe/suite/latency.cuh>
#include <cuprobe/suite/latency_more.cuh>

#include <cstdio>

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(argc, argv, "latency_ladder: latency vs working set");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    const double mhz = clk.effective_sm_clock_mhz;

    cuprobe::suite::latency_ladder_options o;
    if (cli.quick) {
      o.max_bytes = std::size_t(1) << 30;
      o.points_per_octave = 1;
      o.repeats = 1;
      o.cg_max_bytes = std::size_t(64) << 20;
      o.max_steps = 1u << 16;
    }
    const auto progress = [](const std::string& what) {
      std::fprintf(stderr, "latency_ladder: %s\n", what.c_str());
    };
    const auto lad = cuprobe::suite::latency_ladder(dev, mhz, o, progress);
    cuprobe::suite::tlb_sweep_options to;
    cuprobe::suite::lane_modes_options lo;
    if (cli.quick) {
      to.strides = {std::size_t(2) << 20};
      to.max_bytes = std::size_t(1) << 30;
      to.repeats = lo.repeats = 1;
    }
    const auto tlb = cuprobe::suite::tlb_sweep(dev, mhz, to, progress);
    const auto lanes = cuprobe::suite::lane_modes(dev, mhz, lo, progress);

    cuprobe::results res(argc, argv);
    cuprobe::table t({"load", "working set", "cycles/hop", "ns/hop", "min", "max"});
    for (const auto& m : lad.points) {
      t.add_row(
          {m.params.at("load").as_string(), cuprobe::fmt_bytes(m.params.at("bytes").as_number()),
           cuprobe::fmt(m.rate.cycles_per_op, 1), cuprobe::fmt(m.rate.cycles_per_op / mhz * 1e3, 1),
           cuprobe::fmt(m.time.min * mhz * 1e6, 1), cuprobe::fmt(m.time.max * mhz * 1e6, 1)});
      res.add(m);
    }
    cuprobe::table lv({"level", "cycles", "ns", "window"});
    auto level = [&](const char* name, double c, const char* window) {
      lv.add_row({name, cuprobe::fmt(c, 1, true), cuprobe::fmt(c < 0 ? -1 : c / mhz * 1e3, 1, true),
                  window});
      res.extra("latency_ladder")["levels"][name] = c < 0 ? cuprobe::json() : cuprobe::json(c);
    };
    level("L1", lad.l1, "ld.global, <= 32 KiB");
    level("L2", lad.l2, "ld.global, 2..16 MiB");
    level("L2 (.cg)", lad.l2_cg, "ld.global.cg, <= 16 MiB");
    level("DRAM", lad.dram, "ld.global, 4 x L2 .. 1 GiB");
    level("shared memory", lad.smem, "ld.shared, 16 KiB ring");
    cuprobe::json& ex = res.extra("latency_ladder");
    ex["sm_clock_mhz"] = mhz;
    ex["nvml_sm_clock_mhz"] = clk.nvml_sm_clock_mhz;
    ex["plateaus"] = cuprobe::model::describe(lad.plateaus, mhz);

    std::printf("Pointer-chase latency on %s, SM clock %.0f MHz (measured)\n\n", dev.name.c_str(),
                mhz);
    t.print();
    std::printf("\nlevels:\n");
    lv.print();
    std::printf("\nplateaus found in the ld.global curve:\n%s",
                cuprobe::model::describe(lad.plateaus, mhz).c_str());

    cuprobe::table tt({"load", "working set", "2 MiB pages", "cycles/hop", "ns/hop"});
    for (const auto& m : tlb) {
      tt.add_row({m.params.at("load").as_string(),
                  cuprobe::fmt_bytes(m.params.at("bytes").as_number()),
                  cuprobe::fmt(m.params.at("pages_2mib").as_number(), 0),
                  cuprobe::fmt(m.rate.cycles_per_op, 1),
                  cuprobe::fmt(m.rate.cycles_per_op / mhz * 1e3, 1)});
      res.add(m);
    }
    std::printf("\nTLB reach: .cg loads, one node per stride, warm rings (the lines stay in the L2):\n");
    tt.print();
    cuprobe::table tl({"level", "working set", "lanes", "cycles/hop", "ns/hop"});
    for (const auto& m : lanes) {
      tl.add_row({m.params.at("level").as_string(),
                  cuprobe::fmt_bytes(m.params.at("bytes").as_number()),
                  m.params.at("lanes").as_string(), cuprobe::fmt(m.rate.cycles_per_op, 1),
                  cuprobe::fmt(m.rate.cycles_per_op / mhz * 1e3, 1)});
      res.add(m);
    }
    std::printf(
        "\nWho chases (one: one thread; warp_same: 32 lanes, one address; warp_own: 32 lanes, "
        "32 rings, a gather per hop):\n");
    tl.print();
    res.write(cli);
    return 0;
  });
}
