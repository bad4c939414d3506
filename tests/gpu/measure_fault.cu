// gpu tier: a kernel that faults inside measure() is reported with the measurement's name and
// the phase it faulted in (warm-up, sample k, graph), not as a bare failed synchronisation. A
// fault destroys the CUDA context, so each case runs in a child process
// (cuprobe/testing/child.cuh): the child measures a kernel that traps on launch number
// `trap_at` and prints the error it got (exit 3), or "no error" (exit 0).
#define DOCTEST_CONFIG_IMPLEMENT
#define CUPROBE_PTX_CHECKS 0  // Release device code, whatever the build type: what users time
#include <cuprobe/measure/runner.cuh>
#include <cuprobe/ptx/shared.cuh>
#include <cuprobe/ptx/wgmma.cuh>
#include <cuprobe/testing/child.cuh>
#include <cuprobe/testing/doctest.cuh>

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace {

/// Traps on the launch whose number (counted in *launches from 0) is trap_at; else nothing.
__global__ void trap_on_launch(unsigned* launches, unsigned trap_at) {
  if (threadIdx.x == 0 && atomicAdd(launches, 1u) == trap_at) __trap();
}

/// Never ends: waits for a flag nobody sets.
__global__ void spin_forever(const volatile unsigned* flag) {
  while (*flag == 0) {
  }
}

/// Builds the descriptor of a 128B-swizzled bf16 tile at shared address `base` + `off`: a tile
/// off 16 bytes (off 8) would make an MMA read the wrong elements, so Release traps.
__global__ void descriptor_kernel(unsigned off, unsigned long long* out) {
  namespace wg = cuprobe::ptx::wgmma;
  __shared__ alignas(1024) unsigned char tile[2048];
  constexpr auto a = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 8, 64);
  out[threadIdx.x] = a.descriptor_at(cuprobe::ptx::smem_address(tile) + off, 0).encode();
}

/// "descriptor:<offset>": measure() of descriptor_kernel; prints the error (exit 3) or none.
int run_descriptor_child(const std::string& name) {
  const unsigned off = unsigned(std::stoul(name.substr(name.find(':') + 1)));
  try {
    cuprobe::device_buffer<unsigned long long> out(32);
    unsigned long long* o = out.data();
    cuprobe::measure(
        "wgmma.descriptor", [&](cudaStream_t s) { descriptor_kernel<<<1, 32, 0, s>>>(off, o); },
        cuprobe::work::op_count(1, "one launch"), cuprobe::run_options::fixed(1, 3));
    std::printf("child: no error\n");
    return 0;
  } catch (const cuprobe::error& e) {
    std::printf("child: %s\n", e.what());
    return 3;
  }
}

constexpr double hang_limit_s = 3;

/// The hang children: "hang:caught" (measure(), the error caught and printed, exit 3),
/// "hang:uncaught" (the error ends the process), "hang:sampler" (measure_samples whose sampler
/// blocks in cudaStreamSynchronize itself: the watchdog thread ends the process, status 124).
/// Each prints its CLOCK_MONOTONIC time before measuring, for the parent's timing.
int run_hang_child(const std::string& mode) {
  cuprobe::device_buffer<unsigned> flag(1);
  flag.zero();
  const unsigned* f = flag.data();
  cuprobe::run_options o;
  o.warmup = 1;
  o.stop = cuprobe::stopping_rule::fixed(3);
  o.watchdog_s = hang_limit_s;
  std::printf("child: start %.6f\n", cuprobe::monotonic_s());
  std::fflush(stdout);
  auto spin = [&](cudaStream_t s) { spin_forever<<<1, 1, 0, s>>>(f); };
  if (mode == "hang:uncaught") {
    cuprobe::measure("spin", spin, cuprobe::work::op_count(1, "one launch"), o);
    return 0;
  }
  if (mode == "hang:sampler") {
    cuprobe::measure_samples(
        "spin.sampler", cuprobe::sample_unit::value,
        [&](const cuprobe::launch_context& ctx) {
          spin(ctx.stream);
          (void)cudaStreamSynchronize(ctx.stream);  // blocks: only the watchdog thread can help
          return 1.0;
        },
        cuprobe::work::op_count(1, "one launch"), o);
    return 0;
  }
  try {
    cuprobe::measure("spin", spin, cuprobe::work::op_count(1, "one launch"), o);
    std::printf("child: no error\n");
    return 0;
  } catch (const cuprobe::error& e) {
    std::printf("child: %s\n", e.what());
    std::fflush(stdout);
    return 3;
  }
}

/// The child: `name` is "<mode>:<trap_at>", mode launches, graph or none.
int run_child(const std::string& name) {
  if (name.rfind("hang:", 0) == 0) return run_hang_child(name);
  if (name.rfind("descriptor:", 0) == 0) return run_descriptor_child(name);
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

CUPROBE_GPU_TEST_CASE("after a device fault the error says what to do next, with one prefix") {
  const auto r = fault("launches:3");
  INFO(r.output);
  CHECK(r.output.find("rebuild without NDEBUG") != std::string::npos);
  CHECK(r.output.find("compute-sanitizer") != std::string::npos);
  const auto line = r.output.substr(r.output.find("child: "));
  CHECK(line.find("cuprobe: ") == line.rfind("cuprobe: "));  // one prefix
}

namespace {
struct hang_run {
  cuprobe::testing::child_result r;
  double after_start_s = 1e9;  // from the child's "start" line to its exit
};
hang_run hang(const std::string& mode) {
  hang_run h;
  h.r = cuprobe::testing::run_self_child("CUPROBE_MEASURE_FAULT", mode, 60);
  const double end = cuprobe::monotonic_s();
  const auto at = h.r.output.find("child: start ");
  if (at != std::string::npos) h.after_start_s = end - std::stod(h.r.output.substr(at + 13));
  INFO(mode << ": exit code " << h.r.exit_code << ", signal " << h.r.signal << ", "
            << h.after_start_s << " s after the start, child output:\n"
            << h.r.output);
  REQUIRE_FALSE(h.r.timed_out);
  return h;
}
void expect_hang_sentence(const std::string& out) {
  CHECK(out.find("the GPU work has not finished after") != std::string::npos);
  CHECK(out.find("the GPU context cannot be used again") != std::string::npos);
  CHECK(out.find("likely causes: an mbarrier phase that never completes") != std::string::npos);
  CHECK(out.find("rebuild without NDEBUG") != std::string::npos);
}
}  // namespace

CUPROBE_GPU_TEST_CASE(
    "Release: a spinning kernel in measure() ends in one sentence within limit + 2 s") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: the child leaves a kernel spinning on purpose");
    return;
  }
  const auto h = hang("hang:caught");
  INFO(h.r.output);
  CHECK((h.r.exit_code == 3 || h.r.exit_code == 124));  // 124: CUDA's teardown waited
  CHECK(h.r.output.find("child: cuprobe: measure(\"spin\"), warm-up: the GPU work") !=
        std::string::npos);
  expect_hang_sentence(h.r.output);
  CHECK(h.after_start_s <= hang_limit_s + 2);
  MESSAGE("caught: exit " << h.r.exit_code << " " << h.after_start_s << " s after the start");
}

CUPROBE_GPU_TEST_CASE("Release: uncaught, the hang error ends the process within limit + 2 s") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: the child leaves a kernel spinning on purpose");
    return;
  }
  const auto h = hang("hang:uncaught");
  INFO(h.r.output);
  CHECK(h.r.signal == SIGABRT);  // std::terminate
  expect_hang_sentence(h.r.output);
  CHECK(h.after_start_s <= hang_limit_s + 2);
}

CUPROBE_GPU_TEST_CASE("Release: a sampler blocked inside CUDA is ended by the watchdog thread") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: the child leaves a kernel spinning on purpose");
    return;
  }
  const auto h = hang("hang:sampler");
  INFO(h.r.output);
  CHECK(h.r.exit_code == 124);
  CHECK(h.r.output.find("cuprobe: measure(\"spin.sampler\"), warm-up: the GPU work") !=
        std::string::npos);
  expect_hang_sentence(h.r.output);
  CHECK(h.after_start_s <= hang_limit_s + 2);
}

int main(int argc, char** argv) {
  if (const char* c = std::getenv("CUPROBE_MEASURE_FAULT")) return run_child(c);
  return cuprobe::testing::run_tests(argc, argv);
}

CUPROBE_GPU_TEST_CASE("Release: a wgmma tile off 16 bytes traps instead of computing wrong D") {
  const auto good = fault("descriptor:1024");  // a whole 1024-byte repeat further: correct
  CHECK(good.exit_code == 0);
  CHECK(good.output.find("child: no error") != std::string::npos);
  const auto r = fault("descriptor:8");
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("measure(\"wgmma.descriptor\"), warm-up") != std::string::npos);
  CHECK(r.output.find("rebuild without NDEBUG") != std::string::npos);
}
