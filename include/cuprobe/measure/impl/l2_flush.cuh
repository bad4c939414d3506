// cuprobe/measure/impl/l2_flush.cuh: the definitions of cuprobe/measure/l2_flush.cuh's larger host
// functions. Not a header of its own: l2_flush.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL void l2_flush::operator()(cudaStream_t s) {
  CUPROBE_CHECK(cudaMemsetAsync(buf_.data(), ++value_, buf_.bytes(), s));
}

}  // namespace cuprobe
