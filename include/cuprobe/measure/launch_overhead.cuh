// cuprobe/measure/launch_overhead.cuh: what launching costs a sample, measured on an empty
// kernel; the runner's "launch_bound" flag compares it with every event-timed sample.
//
//   const auto o = cuprobe::measure_launch_overhead();
//   std::printf("one launch: %.2f us; in a stream: %.2f us each; in a graph: %.2f us each\n",
//               o.single_s * 1e6, o.stream_s * 1e6, o.graph_s * 1e6);
//   double floor = o.floor_s(1, cuprobe::launch_path::stream);   // what a sample cannot go below
//
// single_s: CUDA events around one launch of an empty kernel, median of 64 (what a sample of
// one launch measures when the kernel does nothing). stream_s / graph_s: events around 128
// back-to-back launches (or one graph of 128), per launch, median of 8. The floor of a sample
// of `batch` launches is single_s + (batch - 1) x (stream_s or graph_s). It is measured once
// per device and process (about 10 ms), the first time an event-timed measurement needs it.
#pragma once

#include <cuda_runtime_api.h>

#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/measure/event_timer.cuh"

namespace cuprobe {

/// How the launches of a sample are issued: back to back in a stream, or replayed in a graph.
enum class launch_path { stream, graph };

/// What launching an empty kernel costs, in seconds (measure_launch_overhead()).
struct launch_overhead {
  double single_s = 0;  ///< one launch between two events
  double stream_s = 0;  ///< per launch, back to back in a stream
  double graph_s = 0;   ///< per launch, replayed in a graph

  /// The time a sample of `batch` empty launches takes: what launching alone costs it.
  CUPROBE_DECL double floor_s(std::size_t batch, launch_path path) const;
};

namespace detail {
template <int = 0>
__global__ void empty_launch_kernel() {}
CUPROBE_KEEP_KERNEL(empty_launch_kernel, empty_launch_kernel<0>)  // impl/ launches it
}  // namespace detail

/// Measures launch_overhead on the current device (see the file comment).
CUPROBE_DECL launch_overhead measure_launch_overhead();

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/launch_overhead.cuh"
#endif
