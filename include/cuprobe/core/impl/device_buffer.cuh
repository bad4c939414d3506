// cuprobe/core/impl/device_buffer.cuh: the definitions of cuprobe/core/device_buffer.cuh's larger
// host functions. Not a header of its own: device_buffer.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe::detail {

CUPROBE_DECL std::string bytes_text(double b) {
  char s[96];
  std::snprintf(s, sizeof s, "%.2f GiB (%.0f bytes)", b / 1073741824.0, b);
  return s;
}

}  // namespace cuprobe::detail

namespace cuprobe {

CUPROBE_DECL scoped_device::scoped_device(int ordinal) {
  if (ordinal < 0) return;
  CUPROBE_CHECK(cudaGetDevice(&previous_));
  if (previous_ != ordinal)
    CUPROBE_CHECK(cudaSetDevice(ordinal));
  else
    previous_ = -1;
}

}  // namespace cuprobe

namespace cuprobe::detail {

CUPROBE_DECL unsigned fill_grid(std::size_t n) {
  const std::size_t blocks = (n + 255) / 256;
  return static_cast<unsigned>(blocks < 4096 ? (blocks ? blocks : 1) : 4096);
}

}  // namespace cuprobe::detail
