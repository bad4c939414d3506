// wgmma: Hopper tensor-core throughput and latency through wgmma.mma_async, with the SM clock
// measured during every run. One warpgroup's MMA latency; throughput over all SMs against the
// MMAs in flight and the warpgroups per SM; every N, SS against RS and each input type; zero
// against random operands (power drawn); 2:4 sparse against dense; and a sustained run
// (>= 0.5 s per launch) beside the ~7 ms one. Every ~7 ms sample follows 100 ms of idle GPU (a
// run on a rested card, as the peers' one-process-per-figure runs); back_to_back shows the same
// points without the rests.
//
//   build/hopper/examples/wgmma --json wgmma.json --summary wgmma_summary.json
//   defaults: every section at 5 samples a point (within a minute on an H100); --full: 10
//   samples a point and 3 of each sustained run (the reference set's setting); --small: a quick
//   run (also what compute-sanitizer runs); --quick: fewer points; --every-n 1: also bf16 at
//   every N 8..256 (SS and RS); --sustained-ms 0: no sustained run;
//   --rest-ms 0: no idle GPU before the samples (every point back to back)
//
// The experiments are cuprobe_suite/wgmma.cuh (one point) and cuprobe_suite/wgmma_suite.cuh (which
// points, the headline); the kernel is cuprobe_suite/kernels/wgmma.cuh. docs/wgmma.md
// ("Benchmarks") says what each column means. sm_90 (built for sm_90a) only: elsewhere the program
// refuses.
#include <cuprobe_suite/suite.cuh>
#include <cuprobe_suite/wgmma_suite.cuh>

#include <cstdio>
#include <string>

namespace ex = cuprobe::suite;
using cuprobe::fmt;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv,
        "wgmma: tensor-core (wgmma) throughput and latency\n"
        "--full takes 10 samples a point (5 without it) and 3 of each sustained run (2)",
        {cuprobe::cli_option::integer("--every-n", "1: also bf16 at every N 8..256, SS and RS", 0,
                                      1, 0),
         cuprobe::cli_option::number("--short-ms", "length of one launch", 0.01, 1000, 7),
         cuprobe::cli_option::number("--sustained-ms",
                                     "length of a sustained launch (0: none; else >= 500)", 0,
                                     60000, 600),
         cuprobe::cli_option::number(
             "--rest-ms", "idle GPU before each sample of a short point (0: none)", 0, 60000, 100),
         cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here")});
    ex::wgmma_suite_options o;
    o.setting = cli.small                           ? ex::wgmma_setting::small
                : cli.get_integer("--every-n") == 1 ? ex::wgmma_setting::every_n
                : cli.quick                         ? ex::wgmma_setting::quick
                                                    : ex::wgmma_setting::standard;
    o.run = cli.run_options();
    o.run.warmup = cli.small ? 1 : 2;
    o.samples = cli.samples(cli.full ? 10 : 5, 5);
    o.sustained_samples = cli.samples(cli.full ? 3 : 2, 2);
    o.short_ms = cli.small ? 0.2 : cli.get_number("--short-ms");
    o.sustained_ms = cli.get_number("--sustained-ms");
    o.rest_ms = cli.get_number("--rest-ms");
    o.validate();  // before any CUDA call: a refused option never reaches the GPU
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const auto s = ex::wgmma_suite(
        dev, o, [](const std::string& what) { std::fprintf(stderr, "wgmma: %s\n", what.c_str()); });

    cuprobe::results res(argc, argv);
    std::printf(
        "WGMMA on %s (%d SMs); peak model: %s\n", dev.name.c_str(), dev.sm_count,
        cuprobe::model::describe(cuprobe::model::tensor_peak<cuprobe::ptx::wgmma::bf16>(dev.sm()))
            .c_str());
    cuprobe::table lt({"latency", "cycles/MMA", "min", "max", "valid"});
    for (const auto& l : s.latency) {
      lt.add_row({l.config, fmt(l.cycles, 1), fmt(l.m.stats.min, 1), fmt(l.m.stats.max, 1),
                  l.check.ok ? "yes" : "NO"});
      res.add(l.m);
    }
    std::printf("\none warpgroup, one MMA then wait_group<0>, a chain of them:\n");
    lt.print();

    cuprobe::table t({"section", "config", "in flight", "WG/SM", "operands", "TFLOP/s", "run ms",
                      "clock MHz", "NVML MHz", "FLOP/clk/SM", "% peak", "% peak NVML", "W",
                      "valid"});
    for (const auto& p : s.points) {
      const auto& r = p.r;
      const auto pct = [](std::optional<double> f) {
        return fmt(f ? std::optional<double>(100 * *f) : std::nullopt, 1);
      };
      t.add_row({p.section, r.config, r.in_flight, std::to_string(r.warpgroups),
                 r.random ? "random" : "zero", fmt(r.tflops, 1), fmt(r.run_ms, 2),
                 fmt(r.clock.median_mhz, 0), fmt(r.nvml_clock_mhz, 0),
                 fmt(r.flop_per_clk_per_sm, 0), pct(r.fraction_of_peak),
                 pct(r.fraction_of_peak_nvml),
                 fmt(ex::wgmma_nvml_during::median_of(r.nvml.power_w), 0),
                 r.check.ok ? "yes" : "NO: " + r.check.message});
      res.add(r.m).with_param("section", p.section);
    }
    std::printf(
        "\nthroughput, one block per SM (clock: in the kernel; NVML: read during it); %s:\n",
        o.rest_ms > 0 && !cli.small
            ? (fmt(o.rest_ms, 0) + " ms of idle GPU before each sample but back_to_back and "
                                   "sustained")
                  .c_str()
            : "no rests");
    t.print();

    const auto& h = s.points[s.headline].r;
    std::printf(
        "\nheadline: bf16 m64n256k16 SS, zero operands: %.1f TFLOP/s = %.1f %% of peak at the "
        "in-kernel clock %.0f MHz (%s at NVML's %s MHz); %u warpgroup(s)/SM, %s, %.2f ms "
        "launches\n",
        h.tflops, 100 * h.fraction_of_peak.value_or(0), h.clock.median_mhz,
        h.fraction_of_peak_nvml ? (fmt(100 * *h.fraction_of_peak_nvml, 1) + " %").c_str() : "-",
        fmt(h.nvml_clock_mhz, 0).c_str(), h.warpgroups, h.in_flight.c_str(), h.run_ms);
    const auto sp = s.sparse_vs_dense("bf16", 256);
    if (sp)
      std::printf("sparse / dense, bf16 m64n256: %.3f (2 would be the whole 2:4 gain)\n", *sp);

    cuprobe::summary_file sum(argc, argv, dev);
    if (h.fraction_of_peak) sum.set("wgmma.bf16.fraction_of_peak", *h.fraction_of_peak);
    sum.set("wgmma.clock_mhz", h.clock.median_mhz);
    sum.set("wgmma.bf16.tflops", h.tflops);
    sum.set("wgmma.bf16.run_ms", h.run_ms);
    if (!s.latency.empty()) sum.set("wgmma.bf16.latency_cycles", s.latency.front().cycles);
    const auto key = [&](const char* name, const ex::wgmma_throughput_result* r) {
      if (!r) return;
      sum.set(std::string(name) + ".tflops", r->tflops);
      sum.set(std::string(name) + ".clock_mhz", r->clock.median_mhz);
      sum.set(std::string(name) + ".run_ms", r->run_ms);
      if (auto pw = ex::wgmma_nvml_during::median_of(r->nvml.power_w))
        sum.set(std::string(name) + ".power_w", *pw);
    };
    key("wgmma.bf16.zero", s.find("operands", "bf16.m64n256k16.ss"));
    key("wgmma.bf16.random", s.find("operands", "bf16.m64n256k16.ss", true));
    key("wgmma.bf16.sustained", s.find("sustained", "bf16.m64n256k16.ss"));
    key("wgmma.bf16.sustained.random", s.find("sustained", "bf16.m64n256k16.ss", true));
    key("wgmma.tf32", s.find("sizes", "tf32.m64n256k8.ss"));
    key("wgmma.e4m3", s.find("sizes", "e4m3.m64n256k32.ss"));
    // The same short runs without the rests before their samples (the card heated).
    key("wgmma.bf16.back_to_back", s.find("back_to_back", "bf16.m64n256k16.ss"));
    key("wgmma.tf32.back_to_back", s.find("back_to_back", "tf32.m64n256k8.ss"));
    key("wgmma.e4m3.back_to_back", s.find("back_to_back", "e4m3.m64n256k32.ss"));
    key("wgmma.bf16.sparse", s.find("sparse", "bf16.m64n256k32.ss.sp"));
    if (sp) sum.set("wgmma.bf16.sparse_vs_dense", *sp);
    cuprobe::json& x = res.extra("wgmma");
    x["headline_config"] = h.config;
    x["headline_in_flight"] = h.in_flight;
    x["warpgroups_per_sm"] = s.warpgroups;
    x["peak_source"] = h.peak_source;
    x["metrics"] = sum.metrics();
    res.print_ceilings();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    if (!s.all_valid()) {
      std::fprintf(stderr, "wgmma: validation FAILED for a point marked NO above\n");
      return 1;
    }
    return 0;
  });
}
