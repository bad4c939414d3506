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
  double floor_s(std::size_t batch, launch_path path) const {
    return single_s +
           double(batch > 0 ? batch - 1 : 0) * (path == launch_path::graph ? graph_s : stream_s);
  }
};

namespace detail {
template <int = 0>
__global__ void empty_launch_kernel() {}
}  // namespace detail

/// Measures launch_overhead on the current device (see the file comment).
inline launch_overhead measure_launch_overhead() {
  constexpr int singles = 64, rounds = 8, batch = 128;
  cuda_stream s;
  event_timer t(s);
  auto launch = [&] { detail::empty_launch_kernel<<<1, 1, 0, s>>>(); };
  launch();  // module load, first-launch costs
  CUPROBE_CHECK_LAUNCH("cuprobe::measure_launch_overhead");
  s.synchronize();
  launch_overhead o;
  std::vector<double> v;
  for (int i = 0; i < singles; ++i) {
    t.start();
    launch();
    t.stop();
    v.push_back(t.seconds());
  }
  o.single_s = median(v);
  v.clear();
  for (int r = 0; r < rounds; ++r) {
    t.start();
    for (int i = 0; i < batch; ++i) launch();
    t.stop();
    v.push_back(t.seconds() / batch);
  }
  o.stream_s = median(v);
  cudaGraph_t g = nullptr;
  cudaGraphExec_t e = nullptr;
  CUPROBE_CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  for (int i = 0; i < batch; ++i) launch();
  CUPROBE_CHECK(cudaStreamEndCapture(s, &g));
  const cudaError_t inst = cudaGraphInstantiate(&e, g, 0);
  if (inst != cudaSuccess) cudaGraphDestroy(g);
  CUPROBE_CHECK(inst);
  v.clear();
  for (int r = 0; r <= rounds; ++r) {  // r == 0: the graph's first replay, not kept
    t.start();
    const cudaError_t l = cudaGraphLaunch(e, s);
    t.stop();
    if (l != cudaSuccess) {
      cudaGraphExecDestroy(e);
      cudaGraphDestroy(g);
      CUPROBE_CHECK(l);
    }
    const double sec = t.seconds();
    if (r > 0) v.push_back(sec / batch);
  }
  cudaGraphExecDestroy(e);
  cudaGraphDestroy(g);
  CUPROBE_CHECK_LAUNCH("cuprobe::measure_launch_overhead");
  o.graph_s = median(v);
  return o;
}

}  // namespace cuprobe
