// cuprobe/measure/nvml.cuh: NVML, loaded at run time (dlopen "libnvidia-ml.so.1").
//
//   auto& n = cuprobe::nvml::instance();
//   if (n.available()) { auto s = n.sample(n.device_by_uuid(info.uuid)); ... }
//
// Nothing links against NVML (a machine without it reports "unavailable"); the few entry points
// cuprobe reads are declared here (NVML's stable C ABI).
#pragma once

#include <dlfcn.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cuprobe {

/// One reading of the device's state, as NVML reports it. Unread fields are empty.
struct nvml_sample {
  bool available = false;  ///< NVML answered for this device
  /// The SM and memory clocks now, in MHz.
  ///@{
  std::optional<int> sm_clock_mhz, mem_clock_mhz;
  ///@}
  /// The device's maximum SM and memory clocks, in MHz.
  ///@{
  std::optional<int> max_sm_clock_mhz, max_mem_clock_mhz;
  ///@}
  /// The power drawn now and the power limit, in watts.
  ///@{
  std::optional<double> power_w, power_limit_w;
  ///@}
  std::optional<int> temperature_c;              ///< the GPU's temperature, in degrees Celsius
  std::optional<long long> clock_event_reasons;  ///< NVML "clocks event (throttle) reasons" bitmask
  std::optional<bool> ecc_on;                    ///< ECC is enabled (current mode)
  std::optional<bool> persistence_mode;          ///< persistence mode is on
};

/// The device's PCIe link, as NVML reports it; unread fields are empty. The current generation
/// and width drop while the link idles (power saving): read them while the bus is busy.
struct nvml_pcie_link {
  /// The generation and width now (nvmlDeviceGetCurrPcieLink*).
  ///@{
  std::optional<unsigned> generation, width;
  ///@}
  /// The highest generation and the widest width that device and system allow.
  ///@{
  std::optional<unsigned> max_generation, max_width;
  ///@}
  std::optional<unsigned> gpu_max_generation;  ///< the most the GPU allows
};

/// The chip-to-chip link to a CPU (Grace Hopper's NVLink-C2C), from NVML's field values
/// NVML_FI_DEV_C2C_LINK_COUNT (170) and NVML_FI_DEV_C2C_LINK_GET_MAX_BW (172, "C2C Link Speed
/// in MBps for active links"); empty (or 0 links) where the GPU has none.
struct nvml_c2c_link {
  std::optional<unsigned> links;  ///< the number of C2C links (NVML_FI_DEV_C2C_LINK_COUNT)
  std::optional<double> link_mbytes_per_s;  ///< one link's speed as NVML gives it
};

/// One NVLink of a GPU as NVML reports it (nvmlDeviceGetNvLinkState, nvmlDeviceGetNvLinkVersion,
/// the field NVML_FI_DEV_NVLINK_GET_SPEED (164) with the link as scope, and
/// nvmlDeviceGetNvLinkErrorCounter); unread fields are empty.
struct nvml_nvlink_link {
  unsigned index = 0;                  ///< the link's number
  bool active = false;                 ///< nvmlDeviceGetNvLinkState said NVML_FEATURE_ENABLED
  std::optional<unsigned> version;     ///< nvmlNvlinkVersion_t as NVML returns it (6: NVLink 4.0)
  std::optional<double> mbytes_per_s;  ///< the link's speed, "MBps" as NVML gives it
  /// The data-link error counters: replays, recoveries, CRC errors of flits and of data.
  ///@{
  std::optional<unsigned long long> replay, recovery, crc_flit, crc_data;
  ///@}
};

/// A GPU's NVLinks: the links NVML_FI_DEV_NVLINK_LINK_COUNT (91) says it has, each read.
struct nvml_nvlink {
  std::optional<unsigned> links;              ///< links present (empty: NVML does not say)
  std::optional<double> common_mbytes_per_s;  ///< NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON (90)
  std::vector<nvml_nvlink_link> per_link;     ///< every link below `links`
};

/// Names of the bits of nvml_sample::clock_event_reasons (NVML's nvmlClocksEventReason*).
inline std::vector<std::string> clock_event_reason_names(std::optional<long long> reasons) {
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

/// The bits that mean the clocks are held down by power or heat (not idling or settings).
inline constexpr long long throttle_reason_mask = 0x4 | 0x8 | 0x20 | 0x40 | 0x80;

/// The NVML library, loaded once at run time; every reading is empty where it is unavailable.
class nvml {
 public:
  using device = void*;  ///< an NVML device handle (nvmlDevice_t)

  /// The one instance, loaded on first use.
  static nvml& instance() {
    static nvml n;
    return n;
  }
  bool available() const noexcept { return ok_; }  ///< NVML was loaded and initialised
  /// Why NVML is unavailable ("" when it is available).
  const std::string& why_unavailable() const noexcept { return why_; }
  /// The driver version NVML reports ("" when unknown).
  std::string driver_version() const {
    char buf[96] = {};
    if (!ok_ || !sys_driver_version_ || sys_driver_version_(buf, sizeof buf) != 0) return "";
    return buf;
  }

  /// The NVML handle of the GPU with this UUID ("GPU-..."), nullptr when not found.
  device device_by_uuid(const std::string& uuid) const {
    device d = nullptr;
    if (!ok_ || !by_uuid_ || by_uuid_(uuid.c_str(), &d) != 0) return nullptr;
    return d;
  }

  /// Reads clocks, power, temperature, clock event reasons, ECC and persistence mode.
  nvml_sample sample(device d) const {
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

  /// Only the SM clock (cheap enough to read after every sample).
  std::optional<int> sm_clock_mhz(device d) const {
    unsigned v = 0;
    if (ok_ && d && clock_ && clock_(d, 1, &v) == 0) return int(v);
    return std::nullopt;
  }

  /// Only the clock event reasons bitmask.
  std::optional<long long> clock_event_reasons(device d) const {
    unsigned long long r = 0;
    if (ok_ && d && reasons_ && reasons_(d, &r) == 0) return static_cast<long long>(r);
    return std::nullopt;
  }

  /// The PCIe link (nvmlDeviceGetCurrPcieLinkGeneration/Width, nvmlDeviceGetMaxPcieLink*,
  /// nvmlDeviceGetGpuMaxPcieLinkGeneration).
  nvml_pcie_link pcie_link(device d) const {
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

  /// The chip-to-chip link (nvmlDeviceGetFieldValues, see nvml_c2c_link).
  nvml_c2c_link c2c_link(device d) const {
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

  /// The NVLinks of `d` (see nvml_nvlink); no links on a GPU without NVLink or without NVML.
  nvml_nvlink nvlink(device d) const {
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

  nvml(const nvml&) = delete;
  nvml& operator=(const nvml&) = delete;

 private:
  nvml() {
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
  ~nvml() {
    if (ok_ && shutdown_) shutdown_();
    // The library stays loaded: other static destructors may still hold NVML pointers.
  }
  /// NVML's nvmlFieldValue_t (its stable layout: ids, timestamps, value type, return, union).
  struct field_value {
    unsigned field_id = 0, scope_id = 0;
    long long timestamp = 0, latency_us = 0;
    int value_type = 0;   ///< nvmlValueType_t: 0 double, 1 uint, 2 ulong, 3 ull, 4 sll, 5 int
    int nvml_return = 0;  ///< nvmlReturn_t of this field
    union {
      double d;
      unsigned ui;
      unsigned long ul;
      unsigned long long ull;
      long long sll;
      int si;
    } value = {};
    std::optional<double> number() const {
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
  };

  template <class F>
  F sym(const char* name) {
    return reinterpret_cast<F>(dlsym(lib_, name));
  }

  void* lib_ = nullptr;
  bool ok_ = false;
  std::string why_;
  int (*shutdown_)() = nullptr;
  int (*by_uuid_)(const char*, device*) = nullptr;
  int (*clock_)(device, int, unsigned*) = nullptr;
  int (*max_clock_)(device, int, unsigned*) = nullptr;
  int (*power_)(device, unsigned*) = nullptr;
  int (*power_limit_)(device, unsigned*) = nullptr;
  int (*temperature_)(device, int, unsigned*) = nullptr;
  int (*reasons_)(device, unsigned long long*) = nullptr;
  int (*ecc_)(device, int*, int*) = nullptr;
  int (*persistence_)(device, int*) = nullptr;
  int (*sys_driver_version_)(char*, unsigned) = nullptr;
  int (*pcie_gen_)(device, unsigned*) = nullptr;
  int (*pcie_width_)(device, unsigned*) = nullptr;
  int (*pcie_max_gen_)(device, unsigned*) = nullptr;
  int (*pcie_max_width_)(device, unsigned*) = nullptr;
  int (*pcie_gpu_max_gen_)(device, unsigned*) = nullptr;
  int (*field_values_)(device, int, field_value*) = nullptr;
  int (*nvlink_state_)(device, unsigned, int*) = nullptr;
  int (*nvlink_version_)(device, unsigned, unsigned*) = nullptr;
  int (*nvlink_errors_)(device, unsigned, int, unsigned long long*) = nullptr;
};

}  // namespace cuprobe
