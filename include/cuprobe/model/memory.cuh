// cuprobe/model/memory.cuh: the memory ceilings an SM can state, with their sources (host only).
//
//   auto l1 = cuprobe::model::l1_bandwidth(90);        // 128 B/clk/SM, and where that comes from
//   double peak = cuprobe::model::peak_per_s(dev.sm_count, l1.bytes_per_clock, clock_hz);
//   std::printf("%s\n", describe(l1).c_str());
//
// These are the per-SM datapath widths the measured figures are compared with (bytes per clock
// per SM at the SM clock measured during the run). The DRAM ceiling is the device's own
// (device_info::nominal_dram_bytes_per_s: bus width x memory clock x 2).
#pragma once

#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe::model {

/// One per-SM bandwidth ceiling.
struct bandwidth_limit {
  const char* what = "";       ///< "shared memory", "L1"
  int sm = 0;                  ///< architecture, 90 for sm_90
  double bytes_per_clock = 0;  ///< per SM
  const char* source = "";     ///< the document and section it comes from; how derived
};

/// Shared memory: 32 banks, each 4 bytes wide per clock, on every architecture cuprobe builds
/// for (sm_75 and newer).
CUPROBE_DECL bandwidth_limit shared_memory_bandwidth(int sm);

/// L1 data cache load path: the same 128 B/clk/SM datapath as shared memory on the unified
/// L1/shared-memory SMs (sm_70 and newer): one 128-byte line (4 sectors) per clock.
CUPROBE_DECL bandwidth_limit l1_bandwidth(int sm);

/// "L1 on sm_90: 128 B/clk/SM [source]".
CUPROBE_DECL std::string describe(const bandwidth_limit& b);

}  // namespace cuprobe::model

#if CUPROBE_HEADER_BODIES
#include "cuprobe/model/impl/memory.cuh"
#endif
