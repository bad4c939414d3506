// SASS probes for ptx/timer.cuh and measure/region_timer.cuh.
#include <cuprobe/measure/region_timer.cuh>
#include <cuprobe/ptx/timer.cuh>

// 64 dependent FMAs inside a region: all of them must sit between the two clock reads.
__global__ void timed_chain(cuprobe::region_timer_view t, float* out, float a, float b) {
  float x = out[threadIdx.x];
  const auto r = t.start();
#pragma unroll
  for (int i = 0; i < 64; ++i) x = fmaf(x, a, b);
  cuprobe::ptx::keep(x);
  t.stop(r);
  out[threadIdx.x] = x;
}

__global__ void readers(unsigned long long* out) {
  out[0] = cuprobe::ptx::clock32();
  out[1] = cuprobe::ptx::clock64();
  out[2] = cuprobe::ptx::globaltimer();
  out[3] = cuprobe::ptx::smid();
  out[4] = cuprobe::ptx::warpid();
  out[5] = cuprobe::ptx::laneid();
}
