// gpu tier, death tests of cuprobe_suite/kernels/tma_multicast.cuh: in a debug build the multicast
// stream kernel traps with its sentence instead of hanging or corrupting a peer's shared memory
// when it is launched in clusters of the wrong size or given a chunk its ranks cannot split; the
// correct launch completes with the right per-rank sums. A trap destroys the CUDA context, so each
// case runs in a child process (cuprobe/testing/child.cuh: the binary re-executes itself with
// CUPROBE_TMA_DEATH=<case>); the child exits 3 on a CUDA error and 0 when the kernel completed,
// and the parent, which waits at most 120 s, checks the exit code and the output.
#define CUPROBE_PTX_CHECKS 1
#define CUPROBE_MBARRIER_TIMEOUT_NS 200000000ull  // 0.2 s: a hang would trap quickly
#define DOCTEST_CONFIG_IMPLEMENT
#include <cuprobe/testing/child.cuh>
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/gen/tma.cuh>
#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe_suite/kernels/tma_multicast.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace gen = cuprobe::gen;
namespace kernels = cuprobe::suite::kernels;
namespace h = cuprobe::hopper;

namespace {

constexpr std::uint32_t chunk = 4096;
constexpr std::uint64_t chunks = 64;

/// The child: runs one case, exits 3 on a CUDA error, 0 on completion (after checking the sums).
int run_child(const std::string& name) {
  if (name != "ok" && name != "wrong_cluster" && name != "bad_chunk") {
    std::fprintf(stderr, "child: unknown case '%s'\n", name.c_str());
    return 4;
  }
  std::uint32_t* array = nullptr;
  std::uint32_t* sums = nullptr;
  const std::uint64_t words = chunks * chunk / 4;
  if (cudaMalloc(&array, words * 4) != cudaSuccess || cudaMalloc(&sums, 4 * 4) != cudaSuccess) {
    std::fprintf(stderr, "child: cudaMalloc failed\n");
    return 5;
  }
  cudaMemset(sums, 0, 4 * 4);
  gen::tma_iota_kernel<<<64, 256>>>(array, words);
  kernels::tma_multicast_args a;
  a.src = array;
  a.chunk_bytes = name == "bad_chunk" ? 1040 : chunk;  // 1040 is not a multiple of 16 x 4
  a.chunks = a.chunk_bytes == chunk ? chunks : words * 4 / a.chunk_bytes;
  a.sums = sums;
  const auto kernel = kernels::tma_multicast_stream_kernel<2, 4, true>;
  const std::size_t smem = gen::tma_stream_smem_bytes(a.chunk_bytes, 2);
  if (name == "wrong_cluster") {
    kernel<<<8, kernels::tma_multicast_threads(4), smem>>>(a);  // no clusters: each CTA alone
  } else {
    h::cluster_launch l;
    l.shape = {dim3(8), dim3(kernels::tma_multicast_threads(4)), smem};
    l.cluster = dim3(4);
    try {
      h::launch(kernel, l, a);
    } catch (const cuprobe::error& x) {
      std::fprintf(stderr, "child: launch failed: %s\n", x.what());
      return 6;
    }
  }
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  std::fflush(stdout);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "child: CUDA error %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return 3;
  }
  std::uint32_t got[4] = {};
  cudaMemcpy(got, sums, sizeof got, cudaMemcpyDeviceToHost);
  for (unsigned r = 0; r < 4; ++r)
    if (got[r] != gen::tma_iota_sum(words)) {
      std::fprintf(stderr, "child: rank %u summed %u, expected %u\n", r, got[r],
                   gen::tma_iota_sum(words));
      return 7;
    }
  std::fprintf(stderr, "child: kernel completed, sums right\n");
  return 0;
}

cuprobe::testing::child_result run_case(const std::string& name) {
  return cuprobe::testing::run_self_child("CUPROBE_TMA_DEATH", name, 120);
}

bool has_clusters() {
  const auto dev = cuprobe::device_info::query();
  if (dev.cc_major >= 9) return true;
  MESSAGE("SKIPPED: sm_" << dev.sm() << " has no clusters or TMA multicast");
  return false;
}

void expect_trap(const std::string& name, const std::vector<std::string>& sentences) {
  const auto r = run_case(name);
  INFO("case " << name << ", exit code " << r.exit_code << ", child output:\n" << r.output);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  for (const auto& s : sentences) {
    CAPTURE(s);
    CHECK(r.output.find(s) != std::string::npos);
  }
}

}  // namespace

CUPROBE_GPU_TEST_CASE("multicast stream, debug build: a correct cluster launch completes") {
  if (!has_clusters()) return;
  const auto r = run_case("ok");
  INFO("child output:\n" << r.output);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("child: kernel completed, sums right") != std::string::npos);
  CHECK(r.output.find("TIMEOUT") == std::string::npos);
}

CUPROBE_GPU_TEST_CASE("multicast stream, debug build: traps when not launched in its clusters") {
  if (!has_clusters()) return;
  expect_trap("wrong_cluster",
              {"cuprobe::suite::kernels::tma_multicast_stream_kernel<Cluster = 4>: bad "
               "cluster size: it runs in clusters of 1 CTAs"});
}

CUPROBE_GPU_TEST_CASE("multicast stream, debug build: traps on a chunk its ranks cannot split") {
  if (!has_clusters()) return;
  expect_trap("bad_chunk",
              {"tma_multicast_stream_kernel<Cluster = 4>: bad chunk_bytes", "chunk_bytes 1040"});
}

int main(int argc, char** argv) {
  if (const char* c = std::getenv("CUPROBE_TMA_DEATH")) return run_child(c);
  return cuprobe::testing::run_tests(argc, argv);
}
