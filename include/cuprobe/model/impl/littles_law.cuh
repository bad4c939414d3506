// cuprobe/model/impl/littles_law.cuh: the definitions of cuprobe/model/littles_law.cuh's larger
// host functions. Not a header of its own: littles_law.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe::model {

CUPROBE_DECL littles_law littles_law::from(const littles_law_input& in) {
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

CUPROBE_DECL std::string littles_law::describe() const {
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

}  // namespace cuprobe::model
