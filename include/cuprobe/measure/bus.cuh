// cuprobe/measure/bus.cuh: the link between the GPU and the host (PCIe, or a chip-to-chip
// link), named from NVML, with its nominal rate per direction.
//
//   const cuprobe::host_link bus = cuprobe::query_host_link(cuprobe::device_info::query());
//   std::printf("%s: %.1f GB/s per direction\n", bus.name.c_str(),
//               bus.nominal_bytes_per_s ? *bus.nominal_bytes_per_s / 1e9 : 0.0);
//   double r = cuprobe::pcie_nominal_bytes_per_s(5, 16);   // 63.0e9: Gen5 x16
//
// The nominal PCIe rate of one direction: lanes x the per-lane rate x the line code's efficiency
// / 8 (PCI Express Base Specification: Gen1/2 2.5/5 GT/s 8b/10b, Gen3/4/5 8/16/32 GT/s 128b/130b,
// Gen6 64 GT/s FLIT mode, its FLIT overhead not counted), from the maximum generation and width
// (the current ones fall while the link idles): a ceiling on link bytes, not payload
// (docs/system-memory.md). A C2C link: NVML's per-link speed x the links. Unknown: empty.
#pragma once

#include <cstdio>
#include <optional>
#include <string>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/nvml.cuh"

namespace cuprobe {

/// Per-lane transfer rate of PCIe generation `gen`, in GT/s; 0 for a generation it does not know.
constexpr double pcie_lane_gtps(unsigned gen) {
  return gen == 1   ? 2.5
         : gen == 2 ? 5.0
         : gen == 3 ? 8.0
         : gen == 4 ? 16.0
         : gen == 5 ? 32.0
         : gen == 6 ? 64.0
                    : 0.0;
}

/// Line-encoding efficiency of PCIe generation `gen`: 8/10 (Gen1, Gen2), 128/130 (Gen3..Gen5),
/// 1 (Gen6 FLIT mode: no line code); 0 when unknown.
constexpr double pcie_encoding(unsigned gen) {
  return gen == 1 || gen == 2               ? 8.0 / 10.0
         : gen == 3 || gen == 4 || gen == 5 ? 128.0 / 130.0
         : gen == 6                         ? 1.0
                                            : 0.0;
}

/// Nominal bytes/s of one direction of a PCIe link: GT/s x lanes x encoding / 8; 0 when the
/// generation is unknown or the width is 0.
constexpr double pcie_nominal_bytes_per_s(unsigned gen, unsigned lanes) {
  return pcie_lane_gtps(gen) * 1e9 * double(lanes) * pcie_encoding(gen) / 8.0;
}

/// The GPU's link to the host.
struct host_link {
  /// The kind of link (unknown, PCIe or NVLink-C2C), and this link's.
  ///@{
  enum class kind { unknown, pcie, c2c } type = kind::unknown;
  ///@}
  std::string name = "unknown";  ///< "PCIe Gen5 x16", "NVLink-C2C (10 links)", "unknown"
  /// PCIe: the generation and width the nominal rate uses.
  ///@{
  std::optional<unsigned> generation, width;
  ///@}
  /// PCIe: the generation and width at the reading.
  ///@{
  std::optional<unsigned> current_generation, current_width;
  ///@}
  std::optional<double> nominal_bytes_per_s;  ///< one direction
  std::string formula;                        ///< how nominal_bytes_per_s was computed, in words
  std::string why_unknown;                    ///< why the link is unknown ("" when it is known)

  /// The rate of `directions` (1 or 2) directions at once, when known.
  CUPROBE_DECL std::optional<double> nominal(unsigned directions) const;
};

/// "pcie", "c2c" or "unknown".
CUPROBE_DECL const char* to_string(host_link::kind k);

/// The link from NVML's readings: C2C where it reports active links, else PCIe from the
/// generation and width the device and system allow (nvml_pcie_link::max_*), else unknown.
/// Pure (host-testable).
CUPROBE_DECL host_link make_host_link(const nvml_pcie_link& p, const nvml_c2c_link& c);

/// Reads the link of `dev` from NVML (unknown, with the reason, where NVML is unavailable).
CUPROBE_DECL host_link query_host_link(const device_info& dev);

/// The link as a JSON object, one key per field.
CUPROBE_DECL json to_json(const host_link& l);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/bus.cuh"
#endif
