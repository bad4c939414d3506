// gpu tier: a kernel that faults inside measure() is reported with the measurement's name and
// the phase it faulted in (warm-up, sample k, graph), not as a bare failed synchronisation. A
// fault destroys the CUDA context, so each case runs in a child process
// (cuprobe/testing/child.cuh): the child measures a kernel that traps on launch number
// `trap_at` and prints the error it got (exit 3), or "no error" (exit 0).
#define DOCTEST_CONFIG_IMPLEMENT
#include <cuprobe/measure/runner.cuh>
#include <cuprobe/testing/child.cuh>
#include <cuprobe/testing/doctest.cuh>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

/// Traps on the launch whose number (counted in *launches from 0) is trap_at; else nothing.
__global__ void trap_on_launch(unsigned* launches, unsigned trap_at) {
  if (threadIdx.x == 0 && atomicAdd(launches, 1u) == trap_at) __trap();
}

/// The child: `name` is "<mode>:<trap_at>", mode launches, graph or none.
int run_child(const std::string& name) {
  const auto colon = name.find(':');
  const std::string mode = name.substr(0, colon);
  const unsigned trap_at = unsigned(std::stoul(name.substr(colon + 1)));
  try {
    cuprobe::device_buffer<unsigned> launches(1);
    launches.zero();
    cuprobe::run_options o;
    o.warmup = 2;
    o.stop = cuprobe::stopping_rule::fixed(5);
    o.graph = mode == "graph";
    unsigned* counter = launches.data();
    cuprobe::measure(
        "faulty.kernel", [&](cudaStream_t s) { trap_on_launch<<<1, 32, 0, s>>>(counter, trap_at); },
        cuprobe::work::op_count(1, "one launch"), o);
    std::printf("child: no error\n");
    return 0;
  } catch (const cuprobe::error& e) {
    std::printf("child: %s\n", e.what());
    return 3;
  }
}

cuprobe::testing::child_result fault(const std::string& c) {
  const auto r = cuprobe::testing::run_self_child("CUPROBE_MEASURE_FAULT", c, 120);
  INFO("case " << c << ", exit code " << r.exit_code << ", child output:\n" << r.output);
  REQUIRE_FALSE(r.timed_out);
  return r;
}

}  // namespace

CUPROBE_GPU_TEST_CASE("fault harness: a kernel that never traps is measured without error") {
  const auto r = fault("launches:1000000");
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("child: no error") != std::string::npos);
}

CUPROBE_GPU_TEST_CASE("a fault in the warm-up names the measurement and the warm-up") {
  const auto r = fault("launches:0");
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("measure(\"faulty.kernel\"), warm-up") != std::string::npos);
}

CUPROBE_GPU_TEST_CASE("a fault in a sample names the measurement and the sample") {
  const auto r = fault("launches:3");  // 2 warm-up launches, then samples 0, 1: 3 is sample 1
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("measure(\"faulty.kernel\"), sample 1") != std::string::npos);
}

CUPROBE_GPU_TEST_CASE("a fault in a graph replay names the measurement and its phase") {
  const auto r = fault("graph:4");
  INFO(r.output);
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("measure(\"faulty.kernel\"), sample") != std::string::npos);
}

int main(int argc, char** argv) {
  if (const char* c = std::getenv("CUPROBE_MEASURE_FAULT")) return run_child(c);
  return cuprobe::testing::run_tests(argc, argv);
}
