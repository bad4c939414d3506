// cuprobe/testing/doctest.cuh: doctest helpers for testing device code (your own PTX wrappers).
//
//   #define CUPROBE_TESTING_MAIN              // in exactly one file: defines main()
//   #include <cuprobe/testing/doctest.cuh>
//
//   CUPROBE_GPU_TEST_CASE("my add.u32 wrapper adds") {
//     auto r = cuprobe::testing::run_on_device<unsigned>([] __device__ { return my_add(2u, 3u); });
//     CHECK(r == 5u);
//   }
//
// Without a GPU the GPU test cases do not run: main() says why and exits with skip_exit_code
// (77), CTest's "Skipped" through SKIP_RETURN_CODE (cuprobe_add_gpu_test() sets it); a GPU test
// binary holds GPU tests only, so a skip never hides a host test. Timing assertions are
// CUPROBE_TIMING_CHECK(cond): under compute-sanitizer (CUPROBE_UNDER_SANITIZER=1, or its
// injection library in the environment) they are skipped, visibly, never counted as passed.
//
// Device lambdas need nvcc's --extended-lambda (cuprobe::cuprobe adds it).
#pragma once

#if defined(CUPROBE_TESTING_MAIN) && !defined(DOCTEST_CONFIG_IMPLEMENT)
#define DOCTEST_CONFIG_IMPLEMENT
#endif
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/core/watchdog.cuh"

namespace cuprobe::testing {

/// Exit code of a GPU test binary that found no GPU; CTest's SKIP_RETURN_CODE.
inline constexpr int skip_exit_code = 77;
/// The doctest test suite that holds every CUPROBE_GPU_TEST_CASE.
inline constexpr const char* gpu_suite = "cuprobe-gpu";

/// True when a CUDA GPU is visible and this program holds code it can run. The reason
/// otherwise is in gpu_unavailable_reason().
inline bool gpu_available(std::string* reason = nullptr) {
  try {
    require_gpu();
    arch::check_kernel_image();
    return true;
  } catch (const cuprobe::error& e) {
    if (reason) *reason = e.what();
    return false;
  }
}

/// True when this process runs under compute-sanitizer: CUPROBE_UNDER_SANITIZER is set to
/// something other than 0, or the injection variables name the sanitizer.
inline bool under_sanitizer() {
  if (const char* e = std::getenv("CUPROBE_UNDER_SANITIZER")) return *e && std::string(e) != "0";
  for (const char* v : {"CUDA_INJECTION64_PATH", "LD_PRELOAD"})
    if (const char* e = std::getenv(v))
      if (std::string(e).find("sanitizer") != std::string::npos) return true;
  return false;
}

namespace detail {
template <class R, class F>
__global__ void run_one_kernel(F f, R* out) {
  *out = f();
}
template <class R, class F>
__global__ void run_each_kernel(F f, R* out, unsigned long long n) {
  const unsigned long long i =
      (1ull * blockIdx.x + 1ull * gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z)) *
          (blockDim.x * blockDim.y * blockDim.z) +
      threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  if (i < n) out[i] = f(i);
}
}  // namespace detail

/// Runs `f()` on one device thread and returns its result. R must be named (the return type of
/// a __device__ lambda cannot be deduced in host code). Every CUDA error is checked; the output
/// is poisoned before the launch.
template <class R, class F>
R run_on_device(F f) {
  device_buffer<R> out(1);
  out.poison();
  detail::run_one_kernel<R><<<1, 1>>>(f, out.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::testing::run_on_device");
  synchronize_device("testing::run_on_device");
  return out.to_host()[0];
}

/// Runs `f(i)` on every thread of `shape` (i: the linear global thread index, block-major) and
/// returns the results, indexed by i.
template <class R, class F>
std::vector<R> run_on_device(const launch_shape& shape, F f) {
  const unsigned long long n = shape.threads();
  device_buffer<R> out(n);
  out.poison();
  detail::run_each_kernel<R><<<shape.grid, shape.block, shape.dynamic_smem>>>(f, out.data(), n);
  CUPROBE_CHECK_LAUNCH("cuprobe::testing::run_on_device");
  synchronize_device("testing::run_on_device");
  return out.to_host();
}

/// The main() behind CUPROBE_TESTING_MAIN: runs doctest; without a GPU it excludes the GPU
/// suite, says so on stderr, and returns skip_exit_code unless something failed.
inline int run_tests(int argc, char** argv) {
  doctest::Context ctx;
  std::string reason;
  const bool gpu = gpu_available(&reason);
  if (!gpu) {
    std::fprintf(stderr, "cuprobe: SKIPPING the GPU tests in this program, not passing them: %s\n",
                 reason.c_str());
    ctx.addFilter("test-suite-exclude", gpu_suite);
  }
  ctx.applyCommandLine(argc, argv);
  const int rc = ctx.run();
  if (ctx.shouldExit() || rc != 0) return rc;
  return gpu ? 0 : skip_exit_code;
}

}  // namespace cuprobe::testing

/// A CHECK of a timing or rate, skipped visibly under compute-sanitizer (see the file comment).
#define CUPROBE_TIMING_CHECK(...)                                         \
  do {                                                                    \
    if (::cuprobe::testing::under_sanitizer())                            \
      MESSAGE("SKIPPED under compute-sanitizer (timing): " #__VA_ARGS__); \
    else                                                                  \
      CHECK(__VA_ARGS__);                                                 \
  } while (0)

/// A doctest test case that needs a GPU; skipped (visibly) without one.
#define CUPROBE_GPU_TEST_CASE(name) \
  TEST_CASE(name* doctest::test_suite(::cuprobe::testing::gpu_suite))

#if defined(CUPROBE_TESTING_MAIN)
int main(int argc, char** argv) { return ::cuprobe::testing::run_tests(argc, argv); }
#endif
