// SASS tier self-test probe: one loop of dependent FMAs (eight per trip, no remainder loop)
// between a load and a store, and nothing else of note.
__global__ void selftest_fma(float* out, float a, float b, int n) {
  float x = out[threadIdx.x];
#pragma unroll 1
  for (int i = 0; i < n; ++i) {
#pragma unroll
    for (int j = 0; j < 8; ++j) x = fmaf(x, a, b);
  }
  out[threadIdx.x] = x;
}
