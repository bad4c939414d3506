// cuprobe/measure/impl/nvtx.cuh: the definitions of cuprobe/measure/nvtx.cuh's host functions, and
// NVTX's header, which only they need. Not a header of its own: nvtx.cuh includes it at its end in
// the header-only mode, and cuprobe/implementation.cuh in the separate compilation (linkage.cuh).
#pragma once

#include <nvtx3/nvToolsExt.h>

namespace cuprobe {

CUPROBE_DECL nvtx_range::nvtx_range(const std::string& name, bool enabled) : on_(enabled) {
  if (on_) nvtxRangePushA(name.c_str());
}

CUPROBE_DECL nvtx_range::~nvtx_range() {
  if (on_) nvtxRangePop();
}

}  // namespace cuprobe
