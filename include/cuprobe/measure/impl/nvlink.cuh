// cuprobe/measure/impl/nvlink.cuh: the definitions of cuprobe/measure/nvlink.cuh's larger host
// functions. Not a header of its own: nvlink.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::string nvlink_version_name(unsigned code) {
  static const char* names[] = {"1.0", "2.0", "2.2", "3.0", "3.1", "4.0", "5.0"};
  if (code >= 1 && code <= 7) return std::string("NVLink ") + names[code - 1];
  return "NVLink (version code " + std::to_string(code) + ")";
}

CUPROBE_DECL std::optional<double> nvlink_state::nominal(unsigned directions) const {
  if (!nominal_bytes_per_s) return std::nullopt;
  return *nominal_bytes_per_s * directions;
}

CUPROBE_DECL nvlink_state make_nvlink_state(const nvml_nvlink& n) {
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

CUPROBE_DECL nvlink_state query_nvlink(const device_info& dev) {
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

CUPROBE_DECL std::optional<double> pair_nominal_bytes_per_s(const nvlink_state& a,
                                                            const nvlink_state& b) {
  if (!a.nominal_bytes_per_s || !b.nominal_bytes_per_s) return std::nullopt;
  return std::min(*a.nominal_bytes_per_s, *b.nominal_bytes_per_s);
}

CUPROBE_DECL json to_json(const nvlink_state& s) {
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

CUPROBE_DECL std::vector<node_gpu> query_node() {
  std::vector<node_gpu> v;
  for (int i = 0; i < device_count(); ++i) {
    node_gpu g;
    g.info = device_info::query(i);
    g.state = nvml::instance().sample(nvml::instance().device_by_uuid(g.info.uuid));
    g.nvlink = query_nvlink(g.info);
    v.push_back(std::move(g));
  }
  return v;
}

}  // namespace cuprobe
