// cuprobe/measure/nvtx.cuh: NVTX ranges (nvtx3, header-only, from the toolkit), so that
// Nsight Systems shows each measured region by name. Costs nothing when no tool is attached.
// NVTX's header is read only where the bodies are (impl/nvtx.cuh).
//
//   { cuprobe::nvtx_range r("dram.read float4 .cg");  ... }   // a push/pop pair
#pragma once

#include <string>

#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// Pushes an NVTX range on construction and pops it on destruction.
class nvtx_range {
 public:
  /// Pushes a range named `name`, unless `enabled` is false.
  CUPROBE_DECL explicit nvtx_range(const std::string& name, bool enabled = true);
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
  CUPROBE_DECL ~nvtx_range();

 private:
  bool on_;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/nvtx.cuh"
#endif
