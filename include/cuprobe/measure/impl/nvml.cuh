// cuprobe/measure/impl/nvml.cuh: the definitions of cuprobe/measure/nvml.cuh's larger host
// functions. Not a header of its own: nvml.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::vector<std::string> clock_event_reason_names(std::optional<long long> reasons) {
  static const struct {
    long long bit;
    const char* name;
  } table[] = {{0x1, "gpu_idle"},
               {0x2, "applications_clocks_setting"},
               {0x4, "sw_power_cap"},
               {0x8, "hw_slowdown"},
               {0x10, "sync_boost"},
               {0x20, "sw_thermal_slowdown"},
               {0x40, "hw_thermal_slowdown"},
               {0x80, "hw_power_brake_slowdown"},
               {0x100, "display_clock_setting"}};
  std::vector<std::string> out;
  if (!reasons) return out;
  const long long bits = *reasons;
  for (const auto& e : table)
    if (bits & e.bit) out.push_back(e.name);
  return out;
}

CUPROBE_DECL std::string nvml::driver_version() const {
  char buf[96] = {};
  if (!ok_ || !sys_driver_version_ || sys_driver_version_(buf, sizeof buf) != 0) return "";
  return buf;
}

CUPROBE_DECL auto nvml::device_by_uuid(const std::string& uuid) const -> device {
  device d = nullptr;
  if (!ok_ || !by_uuid_ || by_uuid_(uuid.c_str(), &d) != 0) return nullptr;
  return d;
}

CUPROBE_DECL nvml_sample nvml::sample(device d) const {
  nvml_sample s;
  if (!ok_ || !d) return s;
  s.available = true;
  unsigned v = 0;
  if (clock_ && clock_(d, 1 /*NVML_CLOCK_SM*/, &v) == 0) s.sm_clock_mhz = int(v);
  if (clock_ && clock_(d, 2 /*NVML_CLOCK_MEM*/, &v) == 0) s.mem_clock_mhz = int(v);
  if (max_clock_ && max_clock_(d, 1, &v) == 0) s.max_sm_clock_mhz = int(v);
  if (max_clock_ && max_clock_(d, 2, &v) == 0) s.max_mem_clock_mhz = int(v);
  if (power_ && power_(d, &v) == 0) s.power_w = v / 1000.0;
  if (power_limit_ && power_limit_(d, &v) == 0) s.power_limit_w = v / 1000.0;
  if (temperature_ && temperature_(d, 0 /*NVML_TEMPERATURE_GPU*/, &v) == 0)
    s.temperature_c = int(v);
  s.clock_event_reasons = clock_event_reasons(d);
  int cur = 0, pending = 0;
  if (ecc_ && ecc_(d, &cur, &pending) == 0) s.ecc_on = cur == 1;
  if (persistence_ && persistence_(d, &cur) == 0) s.persistence_mode = cur == 1;
  return s;
}

CUPROBE_DECL std::optional<int> nvml::sm_clock_mhz(device d) const {
  unsigned v = 0;
  if (ok_ && d && clock_ && clock_(d, 1, &v) == 0) return int(v);
  return std::nullopt;
}

CUPROBE_DECL std::optional<long long> nvml::clock_event_reasons(device d) const {
  unsigned long long r = 0;
  if (ok_ && d && reasons_ && reasons_(d, &r) == 0) return static_cast<long long>(r);
  return std::nullopt;
}

CUPROBE_DECL nvml_pcie_link nvml::pcie_link(device d) const {
  nvml_pcie_link l;
  if (!ok_ || !d) return l;
  const auto read = [&](int (*f)(device, unsigned*), std::optional<unsigned>& out) {
    unsigned v = 0;
    if (f && f(d, &v) == 0) out = v;
  };
  read(pcie_gen_, l.generation);
  read(pcie_width_, l.width);
  read(pcie_max_gen_, l.max_generation);
  read(pcie_max_width_, l.max_width);
  read(pcie_gpu_max_gen_, l.gpu_max_generation);
  return l;
}

CUPROBE_DECL nvml_c2c_link nvml::c2c_link(device d) const {
  nvml_c2c_link c;
  if (!ok_ || !d || !field_values_) return c;
  field_value f[2] = {};
  f[0].field_id = 170;  // NVML_FI_DEV_C2C_LINK_COUNT
  f[1].field_id = 172;  // NVML_FI_DEV_C2C_LINK_GET_MAX_BW
  if (field_values_(d, 2, f) != 0) return c;
  if (auto v = f[0].number()) c.links = static_cast<unsigned>(*v);
  if (auto v = f[1].number()) c.link_mbytes_per_s = *v;
  return c;
}

CUPROBE_DECL nvml_nvlink nvml::nvlink(device d) const {
  nvml_nvlink n;
  if (!ok_ || !d || !field_values_) return n;
  field_value f[2] = {};
  f[0].field_id = 91;  // NVML_FI_DEV_NVLINK_LINK_COUNT
  f[1].field_id = 90;  // NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON
  if (field_values_(d, 2, f) != 0) return n;
  if (auto v = f[0].number()) n.links = static_cast<unsigned>(*v);
  if (auto v = f[1].number(); v && *v > 0) n.common_mbytes_per_s = *v;
  for (unsigned i = 0; i < n.links.value_or(0) && i < 64; ++i) {
    nvml_nvlink_link l;
    l.index = i;
    int state = 0;
    l.active = nvlink_state_ && nvlink_state_(d, i, &state) == 0 && state == 1;
    unsigned v = 0;
    if (nvlink_version_ && nvlink_version_(d, i, &v) == 0) l.version = v;
    field_value speed = {};
    speed.field_id = 164;  // NVML_FI_DEV_NVLINK_GET_SPEED, scope: the link
    speed.scope_id = i;
    if (field_values_(d, 1, &speed) == 0)
      if (auto s = speed.number(); s && *s > 0) l.mbytes_per_s = *s;
    std::optional<unsigned long long>* counters[] = {&l.replay, &l.recovery, &l.crc_flit,
                                                     &l.crc_data};
    for (int c = 0; c < 4; ++c) {  // NVML_NVLINK_ERROR_DL_REPLAY .. _DL_CRC_DATA
      unsigned long long x = 0;
      if (nvlink_errors_ && nvlink_errors_(d, i, c, &x) == 0) *counters[c] = x;
    }
    n.per_link.push_back(l);
  }
  return n;
}

CUPROBE_DECL nvml::nvml() {
  lib_ = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib_) {
    const char* e = dlerror();
    why_ = std::string("libnvidia-ml.so.1 could not be loaded: ") + (e ? e : "unknown error");
    return;
  }
  auto init = sym<int (*)()>("nvmlInit_v2");
  shutdown_ = sym<int (*)()>("nvmlShutdown");
  by_uuid_ = sym<int (*)(const char*, device*)>("nvmlDeviceGetHandleByUUID");
  clock_ = sym<int (*)(device, int, unsigned*)>("nvmlDeviceGetClockInfo");
  max_clock_ = sym<int (*)(device, int, unsigned*)>("nvmlDeviceGetMaxClockInfo");
  power_ = sym<int (*)(device, unsigned*)>("nvmlDeviceGetPowerUsage");
  power_limit_ = sym<int (*)(device, unsigned*)>("nvmlDeviceGetEnforcedPowerLimit");
  temperature_ = sym<int (*)(device, int, unsigned*)>("nvmlDeviceGetTemperature");
  reasons_ = sym<int (*)(device, unsigned long long*)>("nvmlDeviceGetCurrentClocksEventReasons");
  if (!reasons_)
    reasons_ =
        sym<int (*)(device, unsigned long long*)>("nvmlDeviceGetCurrentClocksThrottleReasons");
  ecc_ = sym<int (*)(device, int*, int*)>("nvmlDeviceGetEccMode");
  persistence_ = sym<int (*)(device, int*)>("nvmlDeviceGetPersistenceMode");
  sys_driver_version_ = sym<int (*)(char*, unsigned)>("nvmlSystemGetDriverVersion");
  pcie_gen_ = sym<int (*)(device, unsigned*)>("nvmlDeviceGetCurrPcieLinkGeneration");
  pcie_width_ = sym<int (*)(device, unsigned*)>("nvmlDeviceGetCurrPcieLinkWidth");
  pcie_max_gen_ = sym<int (*)(device, unsigned*)>("nvmlDeviceGetMaxPcieLinkGeneration");
  pcie_max_width_ = sym<int (*)(device, unsigned*)>("nvmlDeviceGetMaxPcieLinkWidth");
  pcie_gpu_max_gen_ = sym<int (*)(device, unsigned*)>("nvmlDeviceGetGpuMaxPcieLinkGeneration");
  field_values_ = sym<int (*)(device, int, field_value*)>("nvmlDeviceGetFieldValues");
  nvlink_state_ = sym<int (*)(device, unsigned, int*)>("nvmlDeviceGetNvLinkState");
  nvlink_version_ = sym<int (*)(device, unsigned, unsigned*)>("nvmlDeviceGetNvLinkVersion");
  nvlink_errors_ =
      sym<int (*)(device, unsigned, int, unsigned long long*)>("nvmlDeviceGetNvLinkErrorCounter");
  if (!init || !by_uuid_) {
    why_ = "libnvidia-ml.so.1 lacks nvmlInit_v2 or nvmlDeviceGetHandleByUUID";
    return;
  }
  const int rc = init();
  if (rc != 0) {
    why_ = "nvmlInit_v2 failed with NVML error " + std::to_string(rc);
    return;
  }
  ok_ = true;
}

CUPROBE_DECL nvml::~nvml() {
  if (ok_ && shutdown_) shutdown_();
  // The library stays loaded: other static destructors may still hold NVML pointers.
}

CUPROBE_DECL std::optional<double> nvml::field_value::number() const {
  if (nvml_return != 0) return std::nullopt;
  switch (value_type) {
    case 0:
      return value.d;
    case 1:
      return double(value.ui);
    case 2:
      return double(value.ul);
    case 3:
      return double(value.ull);
    case 4:
      return double(value.sll);
    case 5:
      return double(value.si);
    default:
      return std::nullopt;
  }
}

}  // namespace cuprobe
