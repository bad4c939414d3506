// device_report: cuprobe's main job, a one-page report of the GPU it runs on.
//
//   build/h200/examples/device_report --summary docs/results/h200/summary.json
//
// Sections: the device (device_info), its environment now (NVML), the timers (overheads,
// resolution, effective SM clock). The headline numbers go to --summary (schema
// cuprobe.summary/1), written by this program only.
#include <cuprobe/cuprobe.cuh>

#include <cstdio>
#include <string>

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
              s.ecc_current < 0 ? "unavailable" : s.ecc_current ? "on" : "off",
              s.persistence_mode < 0 ? "unavailable" : s.persistence_mode ? "on" : "off");
}

void report_timers(cuprobe::summary_file& sum, bool quick) {
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
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const auto cli = cuprobe::cli::parse(argc, argv, "device_report: a one-page report of this GPU",
                                         {{"--summary", "write the headline metrics (JSON) here"}});
    const auto d = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    std::printf("cuprobe %s device report\n", cuprobe::version_string);
    cuprobe::summary_file sum(argc, argv, d);
    print_device(d);
    print_environment(d);
    report_timers(sum, cli.quick);
    if (cli.has("--summary")) {
      sum.write(cli.get("--summary", ""));
      std::printf("\nsummary written to %s\n", cli.get("--summary", "").c_str());
    }
    return 0;
  } catch (const cuprobe::error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
