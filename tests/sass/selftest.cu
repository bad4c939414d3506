// SASS tier self-test probe: a loop of dependent FMAs and nothing else of note.
__global__ void selftest_fma(float* out, float a, float b, int n) {
  float x = out[threadIdx.x];
#pragma unroll 8
  for (int i = 0; i < n; ++i) x = fmaf(x, a, b);
  out[threadIdx.x] = x;
}
