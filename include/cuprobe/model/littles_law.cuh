// cuprobe/model/littles_law.cuh: Little's law for a memory system (host only).
//
//   auto m = cuprobe::model::littles_law::from({/*bytes_per_s=*/4.0e12, /*latency_cycles=*/700,
//                                               /*clock_hz=*/1.98e9, /*sm_count=*/132});
//   std::printf("%s", m.describe().c_str());   // bytes in flight for the GPU and per SM
//   if (m.warp_loads_in_flight_per_sm > 32) ...   // more than 32 warps could keep outstanding?
//
// Little's law: the mean number of requests in a system = arrival rate x time in the system.
// For memory: bytes in flight = bandwidth x latency. To reach a bandwidth at a given latency,
// the GPU must keep that many bytes outstanding; divided by SMs and by the bytes of one
// warp-level load, it says how many loads each SM must have in flight (occupancy x ILP).
// The latency is taken in SM cycles (what a pointer chase measures) and converted with the SM
// clock; the bandwidth in bytes per second.
#pragma once

#include <cmath>
#include <cstdio>
#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe::model {

/// The measured (or nominal) figures Little's law starts from.
struct littles_law_input {
  double bandwidth_bytes_per_s = 0;  ///< e.g. 4.0e12 for 4 TB/s
  double latency_cycles = 0;         ///< load-to-use latency under load, SM cycles
  double clock_hz = 0;               ///< SM clock the latency was counted in
  int sm_count = 0;                  ///< SMs that share the bandwidth
  double bytes_per_warp_load = 128;  ///< one coalesced warp load of 32 x 4 B
};

/// What Little's law derives from littles_law_input.
struct littles_law {
  littles_law_input in;               ///< the figures it starts from
  double bytes_per_clock = 0;         ///< bandwidth / clock: bytes the memory delivers per SM cycle
  double latency_ns = 0;              ///< latency_cycles / clock
  double bytes_in_flight = 0;         ///< bandwidth x latency, whole GPU
  double bytes_in_flight_per_sm = 0;  ///< bytes_in_flight / sm_count
  double warp_loads_in_flight = 0;    ///< bytes_in_flight / bytes_per_warp_load
  double warp_loads_in_flight_per_sm = 0;  ///< the above per SM

  /// Checks the inputs (all positive and finite) and derives every figure.
  CUPROBE_DECL static littles_law from(const littles_law_input& in);

  /// A few readable lines, one figure each, ending in a newline.
  CUPROBE_DECL std::string describe() const;
};

}  // namespace cuprobe::model

#if CUPROBE_HEADER_BODIES
#include "cuprobe/model/impl/littles_law.cuh"
#endif
