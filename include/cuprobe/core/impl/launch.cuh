// cuprobe/core/impl/launch.cuh: the definitions of cuprobe/core/launch.cuh's larger host functions.
// Not a header of its own: launch.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL const char* to_string(loop_mode m) {
  return m == loop_mode::launches ? "launches" : "in_kernel";
}

CUPROBE_DECL unsigned long long launch_shape::threads() const {
  return 1ull * grid.x * grid.y * grid.z * block.x * block.y * block.z;
}

}  // namespace cuprobe
