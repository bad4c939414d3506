// tests/host/h200_like.cuh: an H200-like device_info, filled as device_info::query() would fill
// it on the H200, for host tests of experiments that must refuse bad options (or size their
// work) without a GPU. Not a library header: the host tests include it by relative path.
#pragma once

#include <cuprobe/core/device_info.cuh>

namespace cuprobe_test {
inline cuprobe::device_info h200_like() {
  cuprobe::device_info d;
  d.name = "test H200";
  d.cc_major = 9;
  d.sm_count = 132;
  d.l2_bytes = 62914560;
  d.smem_per_sm = 233472;
  d.smem_per_block = 49152;
  d.smem_per_block_optin = 232448;
  d.sm_clock_khz = 1980000;
  d.max_threads_per_sm = 2048;
  d.max_blocks_per_sm = 32;
  return d;
}

/// h200_like() with the identity and memory device_info::query() gives the H200 (its name, the
/// bus width and memory clock NVML reports there), under the test's own `uuid`.
inline cuprobe::device_info h200_card(const char* uuid) {
  auto d = h200_like();
  d.name = "NVIDIA H200";
  d.uuid = uuid;
  d.memory_bus_width_bits = 6016;
  d.memory_clock_khz = 3201000;
  return d;
}
}  // namespace cuprobe_test
