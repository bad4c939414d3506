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
  static littles_law from(const littles_law_input& in) {
    require(std::isfinite(in.bandwidth_bytes_per_s) && in.bandwidth_bytes_per_s > 0,
            "littles_law: the bandwidth must be a positive number of bytes per second");
    require(std::isfinite(in.latency_cycles) && in.latency_cycles > 0,
            "littles_law: the latency must be a positive number of cycles");
    require(std::isfinite(in.clock_hz) && in.clock_hz > 0,
            "littles_law: the clock must be a positive frequency in Hz (e.g. 1.98e9)");
    require(in.sm_count > 0, "littles_law: the SM count must be positive");
    require(std::isfinite(in.bytes_per_warp_load) && in.bytes_per_warp_load > 0,
            "littles_law: the bytes per warp-level load must be positive (128 for 32 x 4 B)");
    littles_law m;
    m.in = in;
    m.bytes_per_clock = in.bandwidth_bytes_per_s / in.clock_hz;
    m.latency_ns = in.latency_cycles / in.clock_hz * 1e9;
    m.bytes_in_flight = m.bytes_per_clock * in.latency_cycles;
    m.bytes_in_flight_per_sm = m.bytes_in_flight / in.sm_count;
    m.warp_loads_in_flight = m.bytes_in_flight / in.bytes_per_warp_load;
    m.warp_loads_in_flight_per_sm = m.bytes_in_flight_per_sm / in.bytes_per_warp_load;
    return m;
  }

  /// A few readable lines, one figure each, ending in a newline.
  std::string describe() const {
    char buf[768];
    std::snprintf(buf, sizeof buf,
                  "Little's law: %.1f GB/s at %.0f cycles (%.1f ns at %.0f MHz), %d SMs\n"
                  "  bytes per clock          %10.2f B/clk\n"
                  "  bytes in flight (GPU)    %10.0f B\n"
                  "  bytes in flight per SM   %10.0f B\n"
                  "  warp loads in flight/SM  %10.1f  (of %.0f B each)\n",
                  in.bandwidth_bytes_per_s / 1e9, in.latency_cycles, latency_ns, in.clock_hz / 1e6,
                  in.sm_count, bytes_per_clock, bytes_in_flight, bytes_in_flight_per_sm,
                  warp_loads_in_flight_per_sm, in.bytes_per_warp_load);
    return buf;
  }
};

}  // namespace cuprobe::model
