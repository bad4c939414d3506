// cuprobe/measure/impl/event_timer.cuh: the definitions of cuprobe/measure/event_timer.cuh's larger
// host functions. Not a header of its own: event_timer.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL cuda_stream::cuda_stream() {
  CUPROBE_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking));
}

CUPROBE_DECL float event_timer::milliseconds() {
  stop_.synchronize();
  float ms = 0;
  CUPROBE_CHECK(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
  return ms;
}

}  // namespace cuprobe
