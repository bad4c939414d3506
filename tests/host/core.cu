// host tier: core/ (errors, random values, launch shapes, device_info without a GPU)
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/cuprobe.cuh>

#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
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

TEST_CASE("cuprobe::error: one \"cuprobe: \" prefix however the message was composed") {
  CHECK(std::string(cuprobe::error("cuprobe: cuprobe::hopper::launch: refused").what()) ==
        "cuprobe: hopper::launch: refused");
  CHECK(std::string(cuprobe::error("cuprobe: cuprobe: twice").what()) == "cuprobe: twice");
  CHECK(std::string(cuprobe::error("gemm: no prefix").what()) == "cuprobe: gemm: no prefix");
  try {
    cuprobe::require(false, "cuprobe::gen::thing: bad");
    FAIL("require did not throw");
  } catch (const cuprobe::error& e) {
    CHECK(std::string(e.what()) == "cuprobe: gen::thing: bad");
  }
  CHECK(cuprobe::detail::is_device_fault(cudaErrorIllegalAddress));
  CHECK(cuprobe::detail::is_device_fault(cudaErrorLaunchFailure));
  CHECK_FALSE(cuprobe::detail::is_device_fault(cudaErrorInvalidValue));
}

TEST_CASE("watchdog: the default limit, from the environment, and refused run_options") {
  unsetenv("CUPROBE_WATCHDOG_S");
  unsetenv("CUPROBE_UNDER_SANITIZER");
  CHECK(cuprobe::default_watchdog_s() == 10.0);
  setenv("CUPROBE_UNDER_SANITIZER", "1", 1);
  CHECK(cuprobe::default_watchdog_s() == 300.0);
  setenv("CUPROBE_WATCHDOG_S", "2.5", 1);
  CHECK(cuprobe::default_watchdog_s() == 2.5);
  setenv("CUPROBE_WATCHDOG_S", "soon", 1);  // not a number: the default
  CHECK(cuprobe::default_watchdog_s() == 300.0);
  unsetenv("CUPROBE_WATCHDOG_S");
  unsetenv("CUPROBE_UNDER_SANITIZER");
  cuprobe::run_options o;
  o.watchdog_s = -1;
  CHECK_THROWS_WITH_AS(cuprobe::validate_options(o, "t"), doctest::Contains("watchdog_s is -1"),
                       cuprobe::error);
  o.watchdog_s = std::nan("");
  CHECK_THROWS_AS(cuprobe::validate_options(o, "t"), cuprobe::error);
  o.watchdog_s = 30;
  CHECK_NOTHROW(cuprobe::validate_options(o, "t"));
  cuprobe::detail::wait_limit automatic{0};
  automatic.after_warmup(0.5);  // 100 x 0.5 s > 10 s
  CHECK(automatic.now == 50.0);
  cuprobe::detail::wait_limit given{4};
  given.after_warmup(0.5);
  CHECK(given.now == 4.0);
}

TEST_CASE("watchdog: a wait that does not end throws the hang sentence, then every wait does") {
  REQUIRE_FALSE(cuprobe::gpu_context_lost());
  const double t0 = cuprobe::monotonic_s();
  cuprobe::note_block_in_use(cuprobe::block_in_use::tensor_copies);
  try {
    cuprobe::detail::poll_until([] { return false; }, "the planted wait", 0.05);
    FAIL("poll_until did not throw");
  } catch (const cuprobe::error& e) {
    const std::string w = e.what();
    CHECK(w.rfind("cuprobe: the planted wait: the GPU work has not finished after 0.", 0) == 0);
    CHECK(w.find("the limit is 0.05 s: run_options::watchdog_s or CUPROBE_WATCHDOG_S") !=
          std::string::npos);
    CHECK(w.find("GPU context cannot be used again") != std::string::npos);
    CHECK(w.find("a bulk copy whose size or addresses are not multiples of 16 bytes") !=
          std::string::npos);
    CHECK(w.find("a tensor copy whose box holds fewer bytes than its barrier expects") !=
          std::string::npos);
    CHECK(w.find("rebuild without NDEBUG") != std::string::npos);
    CHECK(w.find("compute-sanitizer") != std::string::npos);
  }
  CHECK(cuprobe::monotonic_s() - t0 < 2.0);
  CHECK(cuprobe::gpu_context_lost());
  CHECK_THROWS_WITH_AS(cuprobe::detail::poll_until([] { return true; }, "later", 1),
                       doctest::Contains("an earlier wait timed out"), cuprobe::error);
  cuprobe::gpu_context_lost() = false;  // the rest of this program has no GPU to lose
}

TEST_CASE("watchdog_guard: a guard not released in time ends the process with status 124") {
  const double t0 = cuprobe::monotonic_s();
  const pid_t pid = fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {  // the child: a guard of 0.2 s, then a call that "blocks" for 10 s
    cuprobe::watchdog_guard g("the planted block", 0.2);
    cuprobe::sleep_s(10);
    _exit(0);
  }
  int status = 0;
  REQUIRE(waitpid(pid, &status, 0) == pid);
  const double took = cuprobe::monotonic_s() - t0;
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 124);
  CHECK(took >= 1.2);  // the limit + the 1 s grace
  CHECK(took < 5.0);
  // A guard released in time ends nothing.
  { cuprobe::watchdog_guard g("released", 0.1); }
  cuprobe::sleep_s(1.3);  // had it fired, this test program would have ended with status 124
}
