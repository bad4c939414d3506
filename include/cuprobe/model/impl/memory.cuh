// cuprobe/model/impl/memory.cuh: the definitions of cuprobe/model/memory.cuh's larger host
// functions. Not a header of its own: memory.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::model {

CUPROBE_DECL bandwidth_limit shared_memory_bandwidth(int sm) {
  require(sm >= 70, "shared_memory_bandwidth: cuprobe has no figure before sm_70");
  return {"shared memory", sm, 128,
          "CUDA C++ Programming Guide, 'Shared Memory' (compute capability 5.x and later): 32 "
          "banks, successive 32-bit words in successive banks, each bank delivering 32 bits per "
          "clock cycle: 32 x 4 B = 128 B/clk/SM"};
}

CUPROBE_DECL bandwidth_limit l1_bandwidth(int sm) {
  require(sm >= 70, "l1_bandwidth: cuprobe has no figure before sm_70");
  return {"L1", sm, 128,
          "unified L1 data cache and shared memory (NVIDIA Volta, Ampere and Hopper architecture "
          "whitepapers: combined L1/shared memory block per SM); its load path returns one "
          "128-byte line per clock, the same width as the 32 x 4 B shared-memory banks"};
}

CUPROBE_DECL std::string describe(const bandwidth_limit& b) {
  return std::string(b.what) + " on sm_" + std::to_string(b.sm) + ": " +
         std::to_string(static_cast<int>(b.bytes_per_clock)) + " B/clk/SM [" + b.source + "]";
}

}  // namespace cuprobe::model
