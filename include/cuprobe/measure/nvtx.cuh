// cuprobe/measure/nvtx.cuh: NVTX ranges (nvtx3, header-only, from the toolkit), so that
// Nsight Systems shows each measured region by name. Costs nothing when no tool is attached.
//
//   { cuprobe::nvtx_range r("dram.read float4 .cg");  ... }   // a push/pop pair
#pragma once

#include <nvtx3/nvToolsExt.h>

#include <string>

namespace cuprobe {

/// Pushes an NVTX range on construction and pops it on destruction.
class nvtx_range {
 public:
  /// Pushes a range named `name`, unless `enabled` is false.
  explicit nvtx_range(const std::string& name, bool enabled = true) : on_(enabled) {
    if (on_) nvtxRangePushA(name.c_str());
  }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
  ~nvtx_range() {
    if (on_) nvtxRangePop();
  }

 private:
  bool on_;
};

}  // namespace cuprobe
