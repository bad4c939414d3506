// cuprobe/measure/nvml.cuh: NVML, loaded at run time (dlopen "libnvidia-ml.so.1").
//
//   auto& n = cuprobe::nvml::instance();
//   if (n.available()) { auto s = n.sample(n.device_by_uuid(info.uuid)); ... }
//
// Nothing links against NVML (a machine without it reports "unavailable"); the few entry points
// cuprobe reads are declared here (NVML's stable C ABI).
#pragma once
#include "cuprobe/core/linkage.cuh"

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
CUPROBE_DECL std::vector<std::string> clock_event_reason_names(std::optional<long long> reasons);

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
  CUPROBE_DECL std::string driver_version() const;

  /// The NVML handle of the GPU with this UUID ("GPU-..."), nullptr when not found.
  CUPROBE_DECL device device_by_uuid(const std::string& uuid) const;

  /// Reads clocks, power, temperature, clock event reasons, ECC and persistence mode.
  CUPROBE_DECL nvml_sample sample(device d) const;

  /// Only the SM clock (cheap enough to read after every sample).
  CUPROBE_DECL std::optional<int> sm_clock_mhz(device d) const;

  /// Only the clock event reasons bitmask.
  CUPROBE_DECL std::optional<long long> clock_event_reasons(device d) const;

  /// The PCIe link (nvmlDeviceGetCurrPcieLinkGeneration/Width, nvmlDeviceGetMaxPcieLink*,
  /// nvmlDeviceGetGpuMaxPcieLinkGeneration).
  CUPROBE_DECL nvml_pcie_link pcie_link(device d) const;

  /// The chip-to-chip link (nvmlDeviceGetFieldValues, see nvml_c2c_link).
  CUPROBE_DECL nvml_c2c_link c2c_link(device d) const;

  /// The NVLinks of `d` (see nvml_nvlink); no links on a GPU without NVLink or without NVML.
  CUPROBE_DECL nvml_nvlink nvlink(device d) const;

  nvml(const nvml&) = delete;
  nvml& operator=(const nvml&) = delete;

 private:
  CUPROBE_DECL nvml();
  CUPROBE_DECL ~nvml();
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
    CUPROBE_DECL std::optional<double> number() const;
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

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/nvml.cuh"
#endif
