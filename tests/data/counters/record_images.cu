// Records the counter data images beside it (copy_<set>.counterdata) on a Hopper GPU, for the host
// test that evaluates them without one (tests/host/counters.cu). Not built by CMake; README.md
// here gives the command and the card they came from.
#include <cuprobe/measure/cupti.cuh>

#include <cstdio>
#include <string>

__global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : ".";
  const std::size_t n = std::size_t(1) << 26;  // 1 GiB per array
  float4 *a = nullptr, *b = nullptr;
  CUPROBE_CHECK(cudaMalloc(&a, n * 16));
  CUPROBE_CHECK(cudaMalloc(&b, n * 16));
  CUPROBE_CHECK(cudaMemset(a, 0, n * 16));
  CUPROBE_CHECK(cudaMemset(b, 0, n * 16));
  cudaStream_t s = nullptr;
  CUPROBE_CHECK(cudaStreamCreate(&s));
  for (const char* set : {"dram", "access", "sol"}) {
    cuprobe::counters::profiler p(cuprobe::counters::parse(set));
    p.keep_images(true);
    if (!p.ready()) {
      std::printf("%s: %s\n", set, p.missing().c_str());
      return 1;
    }
    const auto r = p.collect([&] { copy4<<<132 * 8, 256, 0, s>>>(a, b, n); }, s, 1.0, [] {}, 10.0,
                             cuprobe::counters::range_kind::sample);
    cuprobe::counters::save_image(r, dir + "/copy_" + set + ".counterdata");
    std::printf("%s: %zu passes, chip %s\n", set, r.passes, r.chip.c_str());
  }
  return 0;
}
