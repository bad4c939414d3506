// A template to copy: your own inline-PTX wrapper, its GPU test (doctest) and its SASS test.
//
//   The wrapper:   byte_swap32(x) with prmt.b32 (one PRMT instruction in SASS).
//   The GPU test:  CUPROBE_GPU_TEST_CASE below; skipped, visibly, where no GPU exists.
//   The SASS test: examples/CMakeLists.txt disassembles this program's object, as the build
//                  compiles it, and checks that byte_swap_kernel has exactly one PRMT:
//                    cuprobe_add_sass_test(test_my_ptx TARGET test_my_ptx
//                      FUNCTION "byte_swap_kernel" CHECK "PRMT == 1")
#include <cstdint>

// 1. The wrapper. asm volatile is not needed: the result depends only on the operand.
__device__ __forceinline__ std::uint32_t byte_swap32(std::uint32_t x) {
  std::uint32_t r;
  asm("prmt.b32 %0, %1, 0, 0x0123;" : "=r"(r) : "r"(x));
  return r;
}

// 2. The kernel the SASS test disassembles (and the GPU test could launch too).
__global__ void byte_swap_kernel(const std::uint32_t* in, std::uint32_t* out) {
  out[threadIdx.x] = byte_swap32(in[threadIdx.x]);
}

#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

// 3. The GPU test: run the wrapper on the device, check against the host.
CUPROBE_GPU_TEST_CASE("byte_swap32 reverses the bytes") {
  using cuprobe::testing::run_on_device;
  CHECK(run_on_device<std::uint32_t>([] __device__ { return byte_swap32(0x11223344u); }) ==
        0x44332211u);
  // Every thread of a launch, against a host reference.
  const auto v = run_on_device<std::uint32_t>(
      cuprobe::launch_shape{dim3(4), dim3(256), 0},
      [] __device__(unsigned long long i) { return byte_swap32(std::uint32_t(i * 2654435761u)); });
  for (std::size_t i = 0; i < v.size(); ++i) {
    const std::uint32_t x = std::uint32_t(i * 2654435761u);
    const std::uint32_t ref = (x >> 24) | ((x >> 8) & 0xff00u) | ((x << 8) & 0xff0000u) | (x << 24);
    REQUIRE(v[i] == ref);
  }
}
