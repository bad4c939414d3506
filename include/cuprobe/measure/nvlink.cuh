// cuprobe/measure/nvlink.cuh: a GPU's NVLinks from NVML (link count, active links, speed,
// version, error counters) and their nominal rate per direction.
//
//   const cuprobe::nvlink_state l = cuprobe::query_nvlink(cuprobe::device_info::query(0));
//   std::printf("%s: %.1f GB/s per direction\n", l.name.c_str(),
//               l.nominal_bytes_per_s ? *l.nominal_bytes_per_s / 1e9 : 0.0);
//   auto pair = cuprobe::pair_nominal_bytes_per_s(l0, l1);   // the smaller of the two GPUs'
//
// The nominal rate of one direction: the active links x NVML's per-link speed
// (NVML_FI_DEV_NVLINK_GET_SPEED, else _SPEED_MBPS_COMMON; one direction's, MBps = 10^6 B/s), a
// ceiling on link bytes, not payload (docs/multi-gpu.md). Between two GPUs it assumes every
// active link of each reaches the other (pair_nominal_bytes_per_s says so). The error counters:
// NVML's data-link counters summed over active links since the driver loaded; empty without.
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/measure/nvml.cuh"

namespace cuprobe {

/// "NVLink 4.0" for nvmlNvlinkVersion_t `code` (1: 1.0, 2: 2.0, 3: 2.2, 4: 3.0, 5: 3.1, 6: 4.0,
/// 7: 5.0), "NVLink (version code N)" for a code it does not know.
inline std::string nvlink_version_name(unsigned code) {
  static const char* names[] = {"1.0", "2.0", "2.2", "3.0", "3.1", "4.0", "5.0"};
  if (code >= 1 && code <= 7) return std::string("NVLink ") + names[code - 1];
  return "NVLink (version code " + std::to_string(code) + ")";
}

/// A GPU's NVLinks, summarised from NVML's readings.
struct nvlink_state {
  unsigned links = 0;                         ///< links the GPU has (NVML_FI_DEV_NVLINK_LINK_COUNT)
  unsigned active = 0;                        ///< links NVML says are enabled
  std::optional<unsigned> version;            ///< nvmlNvlinkVersion_t of the first active link
  std::optional<double> link_bytes_per_s;     ///< the slowest active link, one direction
  std::optional<double> nominal_bytes_per_s;  ///< one direction: active x link_bytes_per_s
  std::string name = "no NVLink";             ///< "NVLink 4.0 (18 of 18 links active)"
  std::string formula;                        ///< how nominal_bytes_per_s was computed
  std::string why_unknown;                    ///< why the rate is unknown ("" when known)
  /// Sums over the active links of NVML's data-link error counters (empty: not reported).
  ///@{
  std::optional<unsigned long long> replay, recovery, crc_flit, crc_data;
  ///@}

  /// The rate of `directions` (1 or 2) directions at once, when known.
  std::optional<double> nominal(unsigned directions) const {
    if (!nominal_bytes_per_s) return std::nullopt;
    return *nominal_bytes_per_s * directions;
  }
};

/// The state from NVML's readings (pure, host-testable).
inline nvlink_state make_nvlink_state(const nvml_nvlink& n) {
  nvlink_state s;
  s.links = n.links.value_or(0);
  std::optional<double> slowest;
  const auto add = [](std::optional<unsigned long long>& sum,
                      const std::optional<unsigned long long>& v) {
    if (v) sum = sum.value_or(0) + *v;
  };
  for (const auto& l : n.per_link) {
    if (!l.active) continue;
    ++s.active;
    if (!s.version && l.version) s.version = l.version;
    if (l.mbytes_per_s) slowest = std::min(slowest.value_or(*l.mbytes_per_s), *l.mbytes_per_s);
    add(s.replay, l.replay);
    add(s.recovery, l.recovery);
    add(s.crc_flit, l.crc_flit);
    add(s.crc_data, l.crc_data);
  }
  if (s.links == 0) {
    s.why_unknown = "NVML reports no NVLink on this GPU";
    return s;
  }
  s.name = (s.version ? nvlink_version_name(*s.version) : std::string("NVLink")) + " (" +
           std::to_string(s.active) + " of " + std::to_string(s.links) + " links active)";
  const bool per_link = slowest.has_value();
  if (!slowest && n.common_mbytes_per_s) slowest = n.common_mbytes_per_s;
  if (s.active == 0 || !slowest) {
    s.why_unknown = s.active == 0 ? "no NVLink is active" : "NVML reported no NVLink speed";
    return s;
  }
  s.link_bytes_per_s = *slowest * 1e6;
  s.nominal_bytes_per_s = s.active * *s.link_bytes_per_s;
  char f[200];
  std::snprintf(f, sizeof f, "%u active links x %g MB/s (%s), one direction", s.active, *slowest,
                per_link ? "NVML_FI_DEV_NVLINK_GET_SPEED, the slowest active link"
                         : "NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON");
  s.formula = f;
  return s;
}

/// Reads the NVLinks of `dev` from NVML (no links, with the reason, where NVML is unavailable).
inline nvlink_state query_nvlink(const device_info& dev) {
  auto& n = nvml::instance();
  nvlink_state s;
  if (!n.available()) {
    s.why_unknown = "NVML unavailable: " + n.why_unavailable();
    return s;
  }
  const auto d = n.device_by_uuid(dev.uuid);
  if (!d) {
    s.why_unknown = "NVML does not know the device " + dev.uuid;
    return s;
  }
  return make_nvlink_state(n.nvlink(d));
}

/// The nominal one-direction rate between two GPUs: the smaller of their own, assuming every
/// active link of each reaches the other (NVSwitch, or all links wired to that peer).
inline std::optional<double> pair_nominal_bytes_per_s(const nvlink_state& a,
                                                      const nvlink_state& b) {
  if (!a.nominal_bytes_per_s || !b.nominal_bytes_per_s) return std::nullopt;
  return std::min(*a.nominal_bytes_per_s, *b.nominal_bytes_per_s);
}

/// The state as a JSON object, one key per field.
inline json to_json(const nvlink_state& s) {
  json j = json::object();
  j["name"] = s.name;
  j["links"] = s.links;
  j["active"] = s.active;
  j["version_code"] = s.version;
  j["link_bytes_per_s"] = s.link_bytes_per_s;
  j["nominal_bytes_per_s"] = s.nominal_bytes_per_s;
  j["formula"] = s.formula;
  j["why_unknown"] = s.why_unknown;
  j["errors_replay"] = s.replay;
  j["errors_recovery"] = s.recovery;
  j["errors_crc_flit"] = s.crc_flit;
  j["errors_crc_data"] = s.crc_data;
  return j;
}

}  // namespace cuprobe
