// cuprobe/measure/event_timer.cuh: a CUDA event pair on a stream (RAII).
//
//   cuprobe::event_timer t(stream);
//   t.start();  my_kernel<<<g, b, 0, stream>>>(...);  t.stop();
//   double s = t.seconds();   // waits for the stop event
//
// Events time what the GPU executes between the two records on the stream, launch gaps
// included; their resolution is about half a microsecond (measured by cuprobe_suite/timers.cuh).
#pragma once

#include <cuda_runtime_api.h>

#include <string>
#include <utility>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/watchdog.cuh"

namespace cuprobe {

/// One cudaEvent_t, RAII. Move-only.
class cuda_event {
 public:
  /// Creates the event with these cudaEventCreateWithFlags flags.
  explicit cuda_event(unsigned flags = cudaEventDefault) {
    CUPROBE_CHECK(cudaEventCreateWithFlags(&e_, flags));
  }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  /// Takes the event of `o`, which is left empty.
  cuda_event(cuda_event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  /// Destroys this event and takes the event of `o`, which is left empty.
  cuda_event& operator=(cuda_event&& o) noexcept {
    if (this != &o) {
      if (e_) cudaEventDestroy(e_);
      e_ = std::exchange(o.e_, nullptr);
    }
    return *this;
  }
  ~cuda_event() {
    if (e_) cudaEventDestroy(e_);
  }
  cudaEvent_t get() const noexcept { return e_; }                         ///< the event handle
  void record(cudaStream_t s) { CUPROBE_CHECK(cudaEventRecord(e_, s)); }  ///< records it on `s`
  /// Waits for the event, at most default_watchdog_s() (core/watchdog.cuh).
  void synchronize() { wait_for(e_, "cuda_event::synchronize"); }

 private:
  cudaEvent_t e_ = nullptr;
};

/// One cudaStream_t, RAII (non-blocking with respect to the legacy default stream).
class cuda_stream {
 public:
  CUPROBE_DECL cuda_stream();
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  ~cuda_stream() {
    if (s_) cudaStreamDestroy(s_);
  }
  cudaStream_t get() const noexcept { return s_; }       ///< the stream handle
  operator cudaStream_t() const noexcept { return s_; }  ///< the stream handle, for launches
  /// Waits for the stream's work, at most default_watchdog_s() (core/watchdog.cuh).
  void synchronize() { wait_for(s_, "cuda_stream::synchronize"); }

 private:
  cudaStream_t s_ = nullptr;
};

/// A start/stop event pair recorded on one stream.
class event_timer {
 public:
  /// A timer of the work on `stream` (nullptr: the legacy default stream).
  explicit event_timer(cudaStream_t stream = nullptr) : stream_(stream) {}
  void start() { start_.record(stream_); }  ///< records the start event on the stream
  void stop() { stop_.record(stream_); }    ///< records the stop event on the stream
  /// Waits for the stop event, at most `limit_s` (core/watchdog.cuh); `what` names the wait
  /// in the sentence of a timeout.
  void wait(const std::string& what, double limit_s = default_watchdog_s()) {
    wait_for(stop_.get(), what, limit_s);
  }
  /// Milliseconds between start() and stop(), waiting for the stop event.
  CUPROBE_DECL float milliseconds();
  double seconds() { return milliseconds() * 1e-3; }        ///< milliseconds() in seconds
  cudaStream_t stream() const noexcept { return stream_; }  ///< the stream it records on

 private:
  cudaStream_t stream_;
  cuda_event start_, stop_;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/event_timer.cuh"
#endif
