// device_report: cuprobe's main job, a one-page report of the GPU it runs on.
//
//   build/h200/examples/device_report --summary docs/results/h200/summary.json
//
// Sections: the device (device_info), its environment now (NVML), the timers (overheads,
// resolution, effective SM clock), compute (FP32 FMA peak and latencies) and memory (DRAM
// bandwidth, the latency ladder, L2 bandwidth). The headline numbers go to --summary (schema
// cuprobe.summary/1), written by this program only; --json keeps every measurement behind them.
// The sections are short versions of examples/timers, fma_throughput, instruction_table,
// dram_bandwidth, latency_ladder and cache_bandwidth, through the same suite/ functions.
#include <cuprobe/cuprobe.cuh>
#include <cuprobe/suite/compute.cuh>
#include <cuprobe/suite/latency.cuh>
#include <cuprobe/suite/memory.cuh>

#include <cstdio>
#include <string>
#include <type_traits>

namespace {

void section(const char* title) { std::printf("\n== %s ==\n", title); }

void print_device(const cuprobe::device_info& d) {
  section("device");
  std::printf("GPU                 %s (%s)\n", d.name.c_str(), d.uuid.c_str());
  std::printf("PCI bus             %s\n", d.pci_bus_id.c_str());
  std::printf("compute capability  %s\n", d.compute_capability().c_str());
  std::printf("SMs                 %d\n", d.sm_count);
  std::printf("SM clock (max)      %.0f MHz\n", d.sm_clock_khz / 1e3);
  std::printf("L2                  %.1f MiB\n", d.l2_bytes / 1048576.0);
  std::printf("shared memory       %zu KiB/SM, %zu KiB/block opt-in\n", d.smem_per_sm / 1024,
              d.smem_per_block_optin / 1024);
  std::printf("memory              %.1f GiB, %d-bit bus, %.0f MHz, nominal %.2f TB/s\n",
              d.global_mem_bytes / 1073741824.0, d.memory_bus_width_bits, d.memory_clock_khz / 1e3,
              d.nominal_dram_bytes_per_s() / 1e12);
  std::printf("ECC                 %s\n", d.ecc_enabled ? "on" : "off");
  std::printf("driver / runtime    %s / %s (CUDA API level)\n",
              cuprobe::device_info::version_text(d.driver_version).c_str(),
              cuprobe::device_info::version_text(d.runtime_version).c_str());
}

void print_environment(const cuprobe::device_info& d) {
  section("environment (NVML, now)");
  auto& n = cuprobe::nvml::instance();
  if (!n.available()) {
    std::printf("NVML unavailable: %s\n", n.why_unavailable().c_str());
    return;
  }
  const auto s = cuprobe::environment_probe(d.uuid).sample();
  auto val = [](double v, const char* unit, int prec = 0) {
    return v < 0 ? std::string("unavailable") : cuprobe::fmt(v, prec) + " " + unit;
  };
  std::printf("driver              %s\n", n.driver_version().c_str());
  std::printf("SM clock            %s (max %s)\n", val(s.sm_clock_mhz, "MHz").c_str(),
              val(s.max_sm_clock_mhz, "MHz").c_str());
  std::printf("memory clock        %s (max %s)\n", val(s.mem_clock_mhz, "MHz").c_str(),
              val(s.max_mem_clock_mhz, "MHz").c_str());
  std::printf("power               %s of %s limit\n", val(s.power_w, "W", 1).c_str(),
              val(s.power_limit_w, "W").c_str());
  std::printf("temperature         %s\n", val(s.temperature_c, "C").c_str());
  std::string reasons;
  for (const auto& r : cuprobe::clock_event_reason_names(s.clock_event_reasons))
    reasons += (reasons.empty() ? "" : ", ") + r;
  std::printf("clock event reasons %s\n", reasons.empty() ? "none" : reasons.c_str());
  std::printf("ECC / persistence   %s / %s\n",
              s.ecc_current < 0 ? "unavailable"
              : s.ecc_current   ? "on"
                                : "off",
              s.persistence_mode < 0 ? "unavailable"
              : s.persistence_mode   ? "on"
                                     : "off");
}

double report_timers(cuprobe::summary_file& sum, bool quick) {
  section("timers");
  const int repeats = quick ? 3 : 7;
  std::vector<double> c32, c64, tick, ev, mhz, nvml;
  for (int i = 0; i < repeats; ++i) {
    const auto c = cuprobe::characterise_timers(20);
    c32.push_back(c.clock32_overhead_cycles);
    c64.push_back(c.clock64_overhead_cycles);
    tick.push_back(c.globaltimer_tick_ns);
    ev.push_back(c.event_resolution_us);
    mhz.push_back(c.effective_sm_clock_mhz);
    if (c.nvml_sm_clock_mhz > 0) nvml.push_back(c.nvml_sm_clock_mhz);
  }
  auto med = [](const std::vector<double>& v) { return cuprobe::summarize(v).median; };
  std::printf("%%clock read        %.0f cycles\n", med(c32));
  std::printf("%%clock64 read      %.0f cycles\n", med(c64));
  std::printf("%%globaltimer tick  %.0f ns\n", med(tick));
  std::printf("event resolution   %.3f us\n", med(ev));
  std::printf("effective SM clock %.0f MHz (NVML: %s)\n", med(mhz),
              nvml.empty() ? "unavailable" : cuprobe::fmt(med(nvml), 0).c_str());
  std::printf("(median of %d repeats; examples/timers gives the full table)\n", repeats);
  sum.set("timer.clock.overhead_cycles", med(c32));
  sum.set("timer.clock64.overhead_cycles", med(c64));
  sum.set("timer.globaltimer.tick_ns", med(tick));
  sum.set("timer.event.resolution_us", med(ev));
  sum.set("clock.sm.effective_mhz", med(mhz));
  if (!nvml.empty()) sum.set("clock.sm.nvml_mhz", med(nvml));
  return med(mhz);
}

void report_compute(const cuprobe::device_info& d, cuprobe::summary_file& sum,
                    cuprobe::results& res) {
  section("compute");
  namespace ops = cuprobe::gen::ops;
  using op = ops::fma_f32;
  // The best of 8, 10 and 12 independent chains x 128, 512 and 1024 threads per block (the
  // plateau of examples/fma_throughput; single configurations vary by about half a percent).
  cuprobe::suite::throughput_result best;
  unsigned best_chains = 0;
  const auto try_chains = [&](auto chains) {
    for (unsigned block : {128u, 512u, 1024u}) {
      auto r = cuprobe::suite::chain_throughput<op, decltype(chains)::value>(d, block);
      cuprobe::require(r.check.ok, "FMA validation failed: " + r.check.message);
      if (best.m.samples_s.empty() || r.m.rate.flop_per_s > best.m.rate.flop_per_s) {
        best = r;
        best_chains = decltype(chains)::value;
      }
      res.add(r.m);
    }
  };
  try_chains(std::integral_constant<unsigned, 8>{});
  try_chains(std::integral_constant<unsigned, 10>{});
  try_chains(std::integral_constant<unsigned, 12>{});
  std::printf(
      "FP32 FMA            %.2f TFLOP/s = %.1f %% of %.2f TFLOP/s peak at %.0f MHz "
      "(best of 8, 10, 12 chains x 128, 512, 1024 threads: %u chains, %s threads)\n",
      best.m.tflop_per_s(), 100 * best.fraction_of_peak, best.peak_ops_per_s / 1e12,
      best.m.rate.clock_mhz, best_chains, best.m.params.at("block").dump().c_str());
  sum.set("fma.f32.tflops", best.m.tflop_per_s());
  sum.set("fma.f32.fraction_of_peak", best.fraction_of_peak);
  auto lat = [&](const char* name, auto l) {
    cuprobe::require(l.check.ok, std::string("latency validation failed: ") + l.check.message);
    std::printf("%-19s %.2f cycles (dependent)\n", name, l.cycles_per_step);
    return l.cycles_per_step;
  };
  sum.set("fma.f32.latency_cycles", lat("FFMA latency", cuprobe::suite::chain_latency<op>()));
  lat("DFMA latency", cuprobe::suite::chain_latency<ops::fma_f64>());
  lat("HFMA2 latency", cuprobe::suite::chain_latency<ops::hfma2_f16>());
}

void report_memory(const cuprobe::device_info& d, cuprobe::summary_file& sum, cuprobe::results& res,
                   double clock_mhz, bool quick) {
  section("memory");
  namespace gen = cuprobe::gen;
  cuprobe::suite::dram_sweep sweep;
  sweep.persistent = quick ? std::vector<std::pair<int, int>>{{2, 512}, {4, 256}, {4, 512}}
                           : std::vector<std::pair<int, int>>{{1, 256}, {1, 512},  {1, 1024},
                                                              {2, 512}, {4, 256},  {2, 1024},
                                                              {4, 512}, {8, 256}};
  sweep.covering = quick ? std::vector<int>{256} : std::vector<int>{128, 256, 512, 1024};
  sweep.array_bytes = cuprobe::suite::dram_array_bytes(d);
  cuprobe::run_options o;
  o.warmup = 2;
  o.stop = cuprobe::stopping_rule::fixed(10);
  double bw[3] = {0, 0, 0};
  const gen::stream_pattern pats[3] = {gen::stream_pattern::read, gen::stream_pattern::write,
                                       gen::stream_pattern::copy};
  const char* keys[3] = {"dram.read.tbps", "dram.write.tbps", "dram.copy.tbps"};
  cuprobe::measurement peer[3];  // write: cudaMemset, copy: cudaMemcpy, on the same arrays
  for (int i = 0; i < 3; ++i) {
    std::vector<cuprobe::measurement> all;
    const auto m = cuprobe::suite::best_dram_bandwidth(d, pats[i], sweep, o, &all, &peer[i]);
    for (auto& x : all) res.add(std::move(x));
    bw[i] = m.rate.bytes_per_s;
    std::printf("DRAM %-6s         %.2f TB/s (%s, %s, %s)%s\n", gen::to_string(pats[i]),
                bw[i] / 1e12, m.params.at("case").as_string().c_str(),
                m.params.at("config").as_string().c_str(), m.declared.accounting.c_str(),
                cuprobe::has_flag(m.flags, "above_dram_peak") ? "  FLAG above_dram_peak" : "");
    sum.set(keys[i], bw[i] / 1e12);
  }
  auto& mc = peer[2];
  std::printf("cudaMemcpy D2D      %.2f TB/s (read + written); copy kernel / memcpy = %.3f\n",
              mc.rate.bytes_per_s / 1e12, bw[2] / mc.rate.bytes_per_s);
  sum.set("dram.copy_vs_memcpy", bw[2] / mc.rate.bytes_per_s);
  sum.set("dram.memcpy.tbps", mc.rate.bytes_per_s / 1e12);
  res.add(std::move(mc));
  auto& ms = peer[1];
  std::printf("cudaMemset          %.2f TB/s (written); write kernel / memset = %.3f\n",
              ms.rate.bytes_per_s / 1e12, bw[1] / ms.rate.bytes_per_s);
  sum.set("dram.memset.tbps", ms.rate.bytes_per_s / 1e12);
  res.add(std::move(ms));

  // L2 read bandwidth: .cg float4 reads of 4, 8 and 16 MiB arrays, many passes per launch.
  {
    const auto kernels =
        gen::stream_kernels<gen::type_list<float4>, gen::type_list<cuprobe::ptx::cache::cg>,
                            gen::pattern_list<gen::stream_pattern::read>,
                            gen::mode_list<cuprobe::loop_mode::in_kernel>>();
    std::vector<double> v;
    for (std::size_t mib : {4, 8, 16}) {
      gen::stream_workload w(gen::stream_pattern::read, 16, (mib << 20) / 16);
      w.fill_inputs(5);
      auto r = cuprobe::suite::stream_bandwidth(
          kernels[0], w, gen::stream_shape(4, 256, d.sm_count), cuprobe::loop_mode::in_kernel,
          std::uint32_t((512u << 20) / (mib << 20)), o, false);
      r.check.require();
      v.push_back(r.m.rate.bytes_per_s);
      res.add(std::move(r.m));
    }
    const double l2 = cuprobe::summarize(v).median;
    std::printf("L2 read (.cg)       %.2f TB/s (median over 4, 8, 16 MiB working sets)\n",
                l2 / 1e12);
    sum.set("l2.read.tbps", l2 / 1e12);
  }

  cuprobe::suite::latency_ladder_options lo;
  lo.max_bytes = std::size_t(1) << 30;
  lo.points_per_octave = 1;
  lo.repeats = quick ? 1 : 3;
  lo.cg_max_bytes = 0;
  lo.max_steps = 1u << 16;
  const auto lad = cuprobe::suite::latency_ladder(d, clock_mhz, lo, [](const std::string&) {});
  for (auto& m : lad.points) res.add(m);
  auto show = [&](const char* name, const char* key, double c) {
    std::printf("%-19s %.1f cycles = %.1f ns\n", name, c, c / clock_mhz * 1e3);
    if (c > 0) sum.set(key, c);
  };
  show("latency L1", "latency.l1.cycles", lad.l1);
  show("latency L2", "latency.l2.cycles", lad.l2);
  show("latency DRAM", "latency.dram.cycles", lad.dram);
  show("latency shared", "latency.smem.cycles", lad.smem);
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(argc, argv, "device_report: a one-page report of this GPU",
                                         {{"--summary", "write the headline metrics (JSON) here"}});
    const auto d = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    std::printf("cuprobe %s device report\n", cuprobe::version_string);
    cuprobe::summary_file sum(argc, argv, d);
    print_device(d);
    print_environment(d);
    const double mhz = report_timers(sum, cli.quick);
    cuprobe::results res(argc, argv);
    report_compute(d, sum, res);
    report_memory(d, sum, res, mhz, cli.quick);
    res.write(cli);
    if (cli.has("--summary")) {
      sum.write(cli.get("--summary", ""));
      std::printf("\nsummary written to %s\n", cli.get("--summary", "").c_str());
    }
    return 0;
  });
}
