// latency_ladder: load-to-use latency against working set, 4 KiB to 64 x the L2, by pointer
// chase; the L1, L2 and DRAM plateaus, TLB effects at the largest sets, and shared memory. Then
// the TLB reach by stride (.cg loads, one node per large page and per small page) and who
// chases (one thread, a warp on one ring, a warp gathering from 32 rings) at L1, L2, DRAM and
// shared-memory sizes.
//
//   build/hopper/examples/latency_ladder --json latency.json    (--quick: to 16 x L2, fewer points)
//
// One thread chases a random cyclic permutation of 128-byte-spaced nodes (gen/chase.cuh),
// timed with clock64; each working set is chased 3 times through the measurement protocol and
// the median kept (cuprobe_suite/latency.cuh, cuprobe_suite/latency_sweeps.cuh). Cycles are
// converted to ns with the effective SM clock measured first (clock64 over globaltimer).
// Default loads (ld.global, cached in L1) and .cg loads (L2 only) give two curves.
#include <cuprobe_suite/suite.cuh>

#include <cstdio>

namespace ex = cuprobe::suite;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(argc, argv, "latency_ladder: latency vs working set");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    const double mhz = clk.effective_sm_clock_mhz;

    ex::latency_ladder_options o;
    o.run = cli.run_options();
    o.run.warmup = 0;
    o.run.clock_mhz = mhz;
    ex::tlb_sweep_options to;
    ex::lane_modes_options lo;
    to.run = lo.run = o.run;
    if (cli.quick || cli.small) {
      o.max_bytes = (cli.small ? 4 : 16) * dev.l2_bytes;
      o.points_per_octave = 1;
      o.repeats = 1;
      o.cg_max_bytes = dev.l2_bytes;
      o.max_steps = 1u << (cli.small ? 14 : 16);
      to.strides = {dev.allocation_granularity.value_or(std::size_t(2) << 20)};
      to.max_bytes = (cli.small ? 1 : 16) * dev.l2_bytes;
      to.repeats = lo.repeats = 1;
      to.max_steps = lo.max_steps = 1u << 14;
      if (cli.small) lo.dram_bytes = 2 * dev.l2_bytes;
    }
    const auto progress = [](const std::string& what) {
      std::fprintf(stderr, "latency_ladder: %s\n", what.c_str());
    };
    const auto lad = ex::latency_ladder(dev, o, progress);
    const auto tlb = ex::tlb_sweep(dev, to, progress);
    const auto lanes = ex::lane_modes(dev, lo, progress);

    cuprobe::results res(argc, argv);
    cuprobe::table t({"load", "working set", "cycles/hop", "ns/hop", "min", "max"});
    const auto ns = [&](double cycles) { return cuprobe::fmt(cycles / mhz * 1e3, 1); };
    for (const auto& m : lad.points) {
      t.add_row({m.params.at("load").as_string(),
                 cuprobe::fmt_bytes(m.params.at("bytes").as_number()),
                 cuprobe::fmt(m.cycles_per_op(), 1), ns(m.cycles_per_op()),
                 cuprobe::fmt(m.stats.min, 1), cuprobe::fmt(m.stats.max, 1)});
      res.add(m);
    }
    cuprobe::table lv({"level", "cycles", "ns", "window"});
    auto level = [&](const char* name, std::optional<double> c, const std::string& window) {
      lv.add_row({name, cuprobe::fmt(c, 1), c ? ns(*c) : "-", window});
      res.extra("latency_ladder")["levels"][name] = c;
    };
    const auto mib = [](double b) { return cuprobe::fmt_bytes(b); };
    level("L1", lad.l1, "ld.global, the first plateau");
    level("L2", lad.l2, "ld.global, " + mib(lad.l2_window_lo) + " .. " + mib(lad.l2_window_hi));
    level("L2 (.cg)", lad.l2_cg, "ld.global.cg, <= " + mib(lad.l2_window_hi));
    level("DRAM", lad.dram,
          "ld.global, " + mib(lad.dram_window_lo) + " .. " + mib(lad.dram_window_hi));
    level("shared memory", lad.smem, "ld.shared, " + mib(double(lad.smem_bytes)) + " ring");
    cuprobe::json& x = res.extra("latency_ladder");
    x["sm_clock_mhz"] = mhz;
    x["nvml_sm_clock_mhz"] = clk.nvml_sm_clock_mhz;
    x["plateaus"] = cuprobe::suite::describe(lad.plateaus, mhz);

    std::printf("Pointer-chase latency on %s, SM clock %.0f MHz (measured)\n\n", dev.name.c_str(),
                mhz);
    t.print();
    std::printf("\nlevels:\n");
    lv.print();
    std::printf("\nplateaus found in the ld.global curve:\n%s",
                cuprobe::suite::describe(lad.plateaus, mhz).c_str());

    cuprobe::table tt({"load", "working set", "pages", "cycles/hop", "ns/hop"});
    for (const auto& m : tlb) {
      tt.add_row({m.params.at("load").as_string(),
                  cuprobe::fmt_bytes(m.params.at("bytes").as_number()),
                  cuprobe::fmt(m.params.at("pages").as_number(), 0),
                  cuprobe::fmt(m.cycles_per_op(), 1), ns(m.cycles_per_op())});
      res.add(m);
    }
    std::printf(
        "\nTLB reach: .cg loads, one node per stride, warm rings (the lines stay in the L2); "
        "pages of %s:\n",
        cuprobe::fmt_bytes(double(dev.allocation_granularity.value_or(std::size_t(2) << 20)))
            .c_str());
    tt.print();
    cuprobe::table tl({"level", "working set", "lanes", "cycles/hop", "ns/hop"});
    for (const auto& m : lanes) {
      tl.add_row({m.params.at("level").as_string(),
                  cuprobe::fmt_bytes(m.params.at("bytes").as_number()),
                  m.params.at("lanes").as_string(), cuprobe::fmt(m.cycles_per_op(), 1),
                  ns(m.cycles_per_op())});
      res.add(m);
    }
    std::printf(
        "\nWho chases (one: one thread; warp_same: 32 lanes, one address; warp_own: 32 lanes, "
        "32 rings, a gather per hop):\n");
    tl.print();
    res.print_ceilings();
    res.write(cli);
    return 0;
  });
}
