// cuprobe/measure/impl/bus.cuh: the definitions of cuprobe/measure/bus.cuh's larger host functions.
// Not a header of its own: bus.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::optional<double> host_link::nominal(unsigned directions) const {
  if (!nominal_bytes_per_s) return std::nullopt;
  return *nominal_bytes_per_s * directions;
}

CUPROBE_DECL const char* to_string(host_link::kind k) {
  return k == host_link::kind::pcie ? "pcie" : k == host_link::kind::c2c ? "c2c" : "unknown";
}

CUPROBE_DECL host_link make_host_link(const nvml_pcie_link& p, const nvml_c2c_link& c) {
  host_link l;
  l.current_generation = p.generation;
  l.current_width = p.width;
  if (c.links && *c.links > 0 && c.link_mbytes_per_s && *c.link_mbytes_per_s > 0) {
    l.type = host_link::kind::c2c;
    l.name = "NVLink-C2C (" + std::to_string(*c.links) + " links)";
    l.nominal_bytes_per_s = *c.links * *c.link_mbytes_per_s * 1e6;
    char f[160];
    std::snprintf(f, sizeof f, "%u links x %g MB/s (NVML_FI_DEV_C2C_LINK_GET_MAX_BW per link)",
                  *c.links, *c.link_mbytes_per_s);
    l.formula = f;
    return l;
  }
  const std::optional<unsigned> gen = p.max_generation ? p.max_generation : p.generation;
  const std::optional<unsigned> width = p.max_width ? p.max_width : p.width;
  if (!gen || !width || pcie_nominal_bytes_per_s(*gen, *width) <= 0) {
    l.why_unknown = !gen || !width ? "NVML reported no PCIe generation and width"
                                   : "PCIe generation " + std::to_string(*gen) + " x" +
                                         std::to_string(*width) + " has no known rate";
    return l;
  }
  l.type = host_link::kind::pcie;
  l.generation = gen;
  l.width = width;
  l.name = "PCIe Gen" + std::to_string(*gen) + " x" + std::to_string(*width);
  l.nominal_bytes_per_s = pcie_nominal_bytes_per_s(*gen, *width);
  char f[160];
  std::snprintf(f, sizeof f, "%g GT/s x %u lanes x %s / 8 bits", pcie_lane_gtps(*gen), *width,
                *gen <= 2   ? "8/10"
                : *gen <= 5 ? "128/130"
                            : "1 (FLIT mode, FLIT overhead not counted)");
  l.formula = f;
  return l;
}

CUPROBE_DECL host_link query_host_link(const device_info& dev) {
  auto& n = nvml::instance();
  if (!n.available()) {
    host_link l;
    l.why_unknown = "NVML unavailable: " + n.why_unavailable();
    return l;
  }
  const auto d = n.device_by_uuid(dev.uuid);
  if (!d) {
    host_link l;
    l.why_unknown = "NVML does not know the device " + dev.uuid;
    return l;
  }
  return make_host_link(n.pcie_link(d), n.c2c_link(d));
}

CUPROBE_DECL json to_json(const host_link& l) {
  json j = json::object();
  j["kind"] = to_string(l.type);
  j["name"] = l.name;
  j["generation"] = l.generation;
  j["width"] = l.width;
  j["current_generation"] = l.current_generation;
  j["current_width"] = l.current_width;
  j["nominal_bytes_per_s"] = l.nominal_bytes_per_s;
  j["formula"] = l.formula;
  j["why_unknown"] = l.why_unknown;
  return j;
}

}  // namespace cuprobe
