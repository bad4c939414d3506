// host tier: core/ (errors, random values, launch shapes, device_info without a GPU)
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/cuprobe.cuh>

#include <set>
#include <string>

TEST_CASE("CUPROBE_CHECK throws cuprobe::error naming the call, file:line and the error") {
  try {
    CUPROBE_CHECK(cudaErrorInvalidValue);
    FAIL("CUPROBE_CHECK did not throw");
  } catch (const cuprobe::error& e) {
    const std::string w = e.what();
    CHECK(w.find("cudaErrorInvalidValue") != std::string::npos);
    CHECK(w.find("invalid argument") != std::string::npos);  // the description
    CHECK(w.find("core.cu:") != std::string::npos);          // file:line
    CHECK(w.find("CUPROBE_CHECK") == std::string::npos);     // the call's text, not the macro
    CHECK(e.code() == static_cast<int>(cudaErrorInvalidValue));
  }
  CHECK_NOTHROW(CUPROBE_CHECK(cudaSuccess));
}

TEST_CASE("CUPROBE_CHECK handles driver API results") {
  try {
    CUPROBE_CHECK(CUDA_ERROR_INVALID_VALUE);
    FAIL("CUPROBE_CHECK did not throw");
  } catch (const cuprobe::error& e) {
    const std::string w = e.what();
    CHECK(w.find("CUDA_ERROR_INVALID_VALUE") != std::string::npos);  // the call's text
    // The name comes from the driver where there is one, else the number is given.
    const bool named = w.find(": CUDA_ERROR_INVALID_VALUE") != std::string::npos;
    const bool numbered = w.find("CUresult 1") != std::string::npos;
    CHECK((named || numbered));
    CHECK(e.code() == 1);
  }
  CHECK_NOTHROW(CUPROBE_CHECK(CUDA_SUCCESS));
}

TEST_CASE("require() throws with the given sentence") {
  CHECK_THROWS_WITH_AS(cuprobe::require(false, "bad thing"), "cuprobe: bad thing", cuprobe::error);
  CHECK_NOTHROW(cuprobe::require(true, "fine"));
}

TEST_CASE("host_random is reproducible and stays in range") {
  std::set<int> seen;
  for (int i = 0; i < 1000; ++i) {
    const int v = cuprobe::host_random<int>(7, i, -3, 3);
    CHECK(v >= -3);
    CHECK(v <= 3);
    seen.insert(v);
    CHECK(v == cuprobe::host_random<int>(7, i, -3, 3));
  }
  CHECK(seen.size() == 7);  // every value of the closed range appears
  for (int i = 0; i < 1000; ++i) {
    const float f = cuprobe::host_random<float>(1, i, 2.f, 4.f);
    CHECK(f >= 2.f);
    CHECK(f < 4.f);
  }
  CHECK(cuprobe::host_random<float>(1, 5, 0.f, 1.f) != cuprobe::host_random<float>(2, 5, 0.f, 1.f));
  // The full unsigned range does not divide by zero.
  CHECK_NOTHROW(cuprobe::host_random<unsigned>(3, 3, 0u, ~0u));
}

TEST_CASE("launch_shape counts threads and blocks") {
  cuprobe::launch_shape s{dim3(4, 2, 1), dim3(128, 1, 1), 0};
  CHECK(s.blocks() == 8);
  CHECK(s.block_threads() == 128);
  CHECK(s.threads() == 1024);
  CHECK(cuprobe::grid_for(132, 4) == 528);
}

TEST_CASE("device_info: one clear sentence without a GPU, sane fields with one") {
  if (cuprobe::device_count() == 0) {
    CHECK_THROWS_WITH_AS(cuprobe::device_info::query(), doctest::Contains("no CUDA GPU is visible"),
                         cuprobe::error);
    CHECK_THROWS_AS(cuprobe::require_gpu(), cuprobe::error);
  } else {
    const auto d = cuprobe::device_info::query();
    CHECK(d.sm_count > 0);
    CHECK(!d.name.empty());
  }
}

TEST_CASE("no GPU: the same sentence from the library's entry points, not a driver error name") {
  if (cuprobe::device_count() != 0) {
    MESSAGE("a GPU is visible: the no-GPU sentences are checked on machines without one");
    return;
  }
  // device_buffer (cudaMalloc) and measure() (the runner's device) both say it.
  CHECK_THROWS_WITH_AS(cuprobe::device_buffer<int>(16), doctest::Contains("no CUDA GPU is visible"),
                       cuprobe::error);
  CHECK_THROWS_WITH_AS(cuprobe::measure("x", [](cudaStream_t) {}),
                       doctest::Contains("no CUDA GPU is visible"), cuprobe::error);
  CHECK_THROWS_WITH_AS(
      cuprobe::measure_samples("x", cuprobe::sample_unit::value, [] { return 1.0; }),
      doctest::Contains("no CUDA GPU is visible"), cuprobe::error);
}

TEST_CASE("device_buffer: a size that overflows is refused before any CUDA call") {
  CHECK_THROWS_WITH_AS(cuprobe::device_buffer<float4>((std::size_t(1) << 60) + 1),
                       doctest::Contains("overflow the size of an allocation"), cuprobe::error);
}

TEST_CASE("device_info formats UUIDs and versions as nvidia-smi does") {
  cudaUUID_t u{};
  for (int i = 0; i < 16; ++i) u.bytes[i] = static_cast<char>(i * 17);
  CHECK(cuprobe::device_info::format_uuid(u) == "GPU-00112233-4455-6677-8899-aabbccddeeff");
  CHECK(cuprobe::device_info::version_text(13000) == "13.0");
  CHECK(cuprobe::device_info::version_text(12080) == "12.8");
  cuprobe::device_info d;
  d.memory_clock_khz = 3201000;
  d.memory_bus_width_bits = 6144;
  CHECK(d.nominal_dram_bytes_per_s() == doctest::Approx(2 * 3.201e9 * 768));
}

TEST_CASE("monotonic_s never goes back and sleep_s sleeps at least as long as asked") {
  const double t0 = cuprobe::monotonic_s();
  cuprobe::sleep_s(0.02);
  const double t1 = cuprobe::monotonic_s();
  CHECK(t1 - t0 >= 0.02);
  CHECK(t1 - t0 < 5.0);  // a loaded machine may oversleep, never by seconds
  cuprobe::sleep_s(0);   // nothing, at once
  cuprobe::sleep_s(-1);
  CHECK(cuprobe::monotonic_s() >= t1);
}
