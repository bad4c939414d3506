// cuprobe/measure/impl/launch_overhead.cuh: the definitions of
// cuprobe/measure/launch_overhead.cuh's larger host functions. Not a header of its own:
// launch_overhead.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL double launch_overhead::floor_s(std::size_t batch, launch_path path) const {
  return single_s +
         double(batch > 0 ? batch - 1 : 0) * (path == launch_path::graph ? graph_s : stream_s);
}

CUPROBE_DECL launch_overhead measure_launch_overhead() {
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
