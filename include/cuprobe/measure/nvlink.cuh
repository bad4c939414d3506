// cuprobe/measure/nvlink.cuh: a GPU's NVLinks from NVML (link count, active links, speed,
// version, error counters) and their nominal rate per direction.
//
//   const cuprobe::nvlink_state l = cuprobe::query_nvlink(cuprobe::device_info::query(0));
//   std::printf("%s: %.1f GB/s per direction\n", l.name.c_str(),
//               l.nominal_bytes_per_s ? *l.nominal_bytes_per_s / 1e9 : 0.0);
//   auto pair = cuprobe::pair_nominal_bytes_per_s(l0, l1);   // the smaller of the two GPUs'
//   for (const auto& g : cuprobe::query_node()) ...           // every GPU, NVML, NVLinks
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
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/nvml.cuh"

namespace cuprobe {

/// "NVLink 4.0" for nvmlNvlinkVersion_t `code` (1: 1.0, 2: 2.0, 3: 2.2, 4: 3.0, 5: 3.1, 6: 4.0,
/// 7: 5.0), "NVLink (version code N)" for a code it does not know.
CUPROBE_DECL std::string nvlink_version_name(unsigned code);

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
  CUPROBE_DECL std::optional<double> nominal(unsigned directions) const;
};

/// The state from NVML's readings (pure, host-testable).
CUPROBE_DECL nvlink_state make_nvlink_state(const nvml_nvlink& n);

/// Reads the NVLinks of `dev` from NVML (no links, with the reason, where NVML is unavailable).
CUPROBE_DECL nvlink_state query_nvlink(const device_info& dev);

/// The nominal one-direction rate between two GPUs: the smaller of their own, assuming every
/// active link of each reaches the other (NVSwitch, or all links wired to that peer).
CUPROBE_DECL std::optional<double> pair_nominal_bytes_per_s(const nvlink_state& a,
                                                            const nvlink_state& b);

/// The state as a JSON object, one key per field.
CUPROBE_DECL json to_json(const nvlink_state& s);

/// One GPU of this node: its facts, NVML's reading and its NVLinks.
struct node_gpu {
  device_info info;     ///< the CUDA facts
  nvml_sample state;    ///< NVML's reading when queried
  nvlink_state nvlink;  ///< the NVLinks
};

/// Every GPU this process sees, in ordinal order (empty without a GPU; no exception);
/// report/node.cuh writes it as JSON (node_json).
CUPROBE_DECL std::vector<node_gpu> query_node();

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/nvlink.cuh"
#endif
