// cuprobe/report/impl/meta.cuh: the definitions of cuprobe/report/meta.cuh's larger host functions.
// Not a header of its own: meta.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::string compile_flags() {
  std::string s;
#ifdef CUPROBE_COMPILE_FLAGS
  s = CUPROBE_COMPILE_FLAGS;
#endif
#ifdef __CUDACC_VER_MAJOR__
  s += std::string(s.empty() ? "" : " | ") +
       "nvcc " CUPROBE_STRINGIFY(__CUDACC_VER_MAJOR__) "." CUPROBE_STRINGIFY(
           __CUDACC_VER_MINOR__) "." CUPROBE_STRINGIFY(__CUDACC_VER_BUILD__);
#endif
#ifdef __CUDA_ARCH_LIST__
  s += " | arch " CUPROBE_STRINGIFY(__CUDA_ARCH_LIST__);
#endif
#ifdef NDEBUG
  s += " | NDEBUG";
#endif
  return s;
}

CUPROBE_DECL std::string command_line(int argc, char** argv) {
  std::string s;
  for (int i = 0; i < argc; ++i) {
    if (i) s += ' ';
    s += argv[i];
  }
  return s;
}

CUPROBE_DECL json run_meta(int argc, char** argv) {
  json m = json::object();
  m["library"] = "cuprobe";
  m["library_version"] = version_string;
  m["date"] = utc_now_iso8601();
  m["command_line"] = command_line(argc, argv);
  m["compile_flags"] = compile_flags();
  m["commit"] = git_commit();
  return m;
}

CUPROBE_DECL json to_json(const device_info& d) {
  json j = json::object();
  j["name"] = d.name;
  j["uuid"] = d.uuid;
  j["pci_bus_id"] = d.pci_bus_id;
  j["compute_capability"] = d.compute_capability();
  j["sm_count"] = d.sm_count;
  j["max_threads_per_sm"] = d.max_threads_per_sm;
  j["max_blocks_per_sm"] = d.max_blocks_per_sm;
  j["regs_per_sm"] = d.regs_per_sm;
  j["l2_bytes"] = d.l2_bytes;
  j["smem_per_sm_bytes"] = d.smem_per_sm;
  j["smem_per_block_optin_bytes"] = d.smem_per_block_optin;
  j["global_mem_bytes"] = d.global_mem_bytes;
  j["memory_bus_width_bits"] = d.memory_bus_width_bits;
  j["memory_clock_mhz"] = d.memory_clock_khz / 1e3;
  j["sm_clock_max_mhz"] = d.sm_clock_khz / 1e3;
  j["nominal_dram_gb_per_s"] = d.nominal_dram_bytes_per_s() / 1e9;
  j["ecc_enabled"] = d.ecc_enabled;
  j["driver_api_version"] = device_info::version_text(d.driver_version);
  j["runtime_version"] = device_info::version_text(d.runtime_version);
  const std::string drv = nvml::instance().driver_version();
  j["driver_version"] = drv.empty() ? json("unavailable") : json(drv);
  return j;
}

CUPROBE_DECL json to_json(const nvml_sample& s) {
  json j = json::object();
  j["available"] = s.available;
  if (!s.available) return j;
  j["sm_clock_mhz"] = s.sm_clock_mhz;
  j["mem_clock_mhz"] = s.mem_clock_mhz;
  j["max_sm_clock_mhz"] = s.max_sm_clock_mhz;
  j["max_mem_clock_mhz"] = s.max_mem_clock_mhz;
  j["power_w"] = s.power_w;
  j["power_limit_w"] = s.power_limit_w;
  j["temperature_c"] = s.temperature_c;
  j["clock_event_reasons"] = json::array_of(clock_event_reason_names(s.clock_event_reasons));
  j["ecc"] = s.ecc_on;
  j["persistence_mode"] = s.persistence_mode;
  return j;
}

}  // namespace cuprobe
