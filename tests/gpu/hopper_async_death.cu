// gpu tier, death tests: the debug checks of ptx/mbarrier.cuh and ptx/bulk.cuh trap with their
// sentence instead of hanging or corrupting memory. A trap destroys the CUDA context, so each
// case runs in a CHILD process: the test binary re-executes itself (/proc/self/exe, with
// CUPROBE_HOPPER_DEATH=<case> in its environment: cuprobe/testing/child.cuh), the child runs
// one kernel and exits 3 when CUDA reports an error (0 when the kernel completed), and the
// parent checks the exit code and the child's stdout + stderr (device printf goes to stdout).
// The parent waits at most 120 s and kills the child (by its pid) after that: nothing here can
// hang. The "ok" case proves that the
// harness tells a passing kernel from a trapping one.
#define CUPROBE_PTX_CHECKS 1
#define CUPROBE_MBARRIER_TIMEOUT_NS 200000000ull  // 0.2 s: the planted mismatches trap quickly
#define DOCTEST_CONFIG_IMPLEMENT
#include <cuprobe/testing/child.cuh>
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/ptx/bulk.cuh>
#include <cuprobe/ptx/mbarrier.cuh>
#include <cuprobe/ptx/wgmma.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace mb = cuprobe::ptx::mbarrier;
namespace bulk = cuprobe::ptx::bulk;
namespace cl = cuprobe::ptx::cluster;
namespace h = cuprobe::hopper;

namespace {

enum class death_case : unsigned {
  ok,                    // a correct copy: completes
  tx_overcount,          // expect_tx of 2048 bytes, 1024 copied: the wait times out
  multicast_overcount,   // the classic bug: each CTA announces bytes x cluster size
  producer_wrong_phase,  // a producer that starts on the consumer's phase waits forever
  size_not_16,           // bulk::load of 24 bytes
  zero_size,             // bulk::load of 0 bytes
  smem_misaligned,       // destination 8 bytes past a 16-byte boundary
  global_misaligned,     // source 4 bytes past a 16-byte boundary
  tx_phase_limit,        // two expect_tx of 600,000 bytes in one phase: over 2^20 - 1
  descriptor_off16,      // a wgmma descriptor for a tile 8 bytes past a 16-byte boundary
  descriptor_swizzle,    // a 128B-swizzled tile whose base is 128 bytes past 1024
  multicast_mask,        // a multicast to CTA rank 2 of a cluster of 2
  zero_arrivals,         // mbarrier::init with an arrival count of 0
};

__global__ void death_kernel(death_case c, const unsigned char* src, unsigned* out) {
  __shared__ alignas(128) unsigned char buf[4096];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  if (c == death_case::zero_arrivals) {
    if (threadIdx.x == 0) mb::init(&bar, 0);
    return;
  }
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  __syncthreads();
  std::uint32_t announce = 1024, bytes = 1024;
  unsigned dst_offset = 0, src_offset = 0;
  switch (c) {
    case death_case::tx_overcount:
      announce = 2048;
      break;
    case death_case::size_not_16:
      announce = bytes = 24;
      break;
    case death_case::zero_size:
      announce = bytes = 0;
      break;
    case death_case::smem_misaligned:
      dst_offset = 8;
      break;
    case death_case::global_misaligned:
      src_offset = 4;
      break;
    default:
      break;
  }
  if (c == death_case::tx_phase_limit) {
    if (threadIdx.x == 0) {
      mb::expect_tx(&bar, 600000);  // each below the per-call limit,
      mb::expect_tx(&bar, 600000);  // together over the per-phase one
    }
    return;
  }
  if (c == death_case::descriptor_off16 || c == death_case::descriptor_swizzle) {
    namespace wg = cuprobe::ptx::wgmma;
    constexpr auto a = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 64);
    const std::uint32_t base = static_cast<std::uint32_t>(__cvta_generic_to_shared(buf));
    const std::uint32_t aligned = (base + 1023u) & ~1023u;  // no access: only the descriptor
    const std::uint32_t at = aligned + (c == death_case::descriptor_off16 ? 8 : 128);
    out[threadIdx.x] = static_cast<unsigned>(a.descriptor_at(at, 0).encode());
    return;
  }
  if (c == death_case::producer_wrong_phase) {
    // An "empty" barrier nobody has arrived on: the producer's first wait must use parity 1
    // (make_producer_start_state); parity 0 waits for a consumer that never comes.
    mb::wait(&bar, 0);
    return;
  }
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, announce);
    bulk::load(buf + dst_offset, src + src_offset, &bar, bytes);
  }
  mb::wait(&bar, 0);
  out[threadIdx.x] = buf[threadIdx.x];
}

// Every CTA announces bytes x cluster size (wrong: only `bytes` land in each CTA); rank 0
// multicasts `bytes` to every CTA. The waits time out with "announced" = 2 x bytes.
__global__ void multicast_overcount_kernel(const unsigned char* src, unsigned* out) {
  __shared__ alignas(128) unsigned char buf[4096];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  const unsigned r = cl::ctarank(), n = cl::nctarank();
  const std::uint32_t bytes = 4096;
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  cl::sync();
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, bytes * n);  // THE BUG: should be `bytes`
    if (r == 0)
      bulk::load_multicast(buf, src, &bar, static_cast<std::uint16_t>((1u << n) - 1), bytes);
  }
  mb::wait(&bar, 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[threadIdx.x];
  cl::sync();
}

// Rank 0 of a cluster of 2 multicasts to ranks 0 and 2 (mask 0b101): rank 2 does not exist.
__global__ void multicast_mask_kernel(const unsigned char* src, unsigned* out) {
  __shared__ alignas(128) unsigned char buf[4096];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  cl::sync();
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, 1024);
    if (cl::ctarank() == 0) bulk::load_multicast(buf, src, &bar, std::uint16_t{0b101}, 1024);
  }
  mb::wait(&bar, 0);
  out[blockIdx.x * blockDim.x + threadIdx.x] = buf[threadIdx.x];
  cl::sync();
}

const char* case_name(death_case c) {
  switch (c) {
    case death_case::ok:
      return "ok";
    case death_case::tx_overcount:
      return "tx_overcount";
    case death_case::multicast_overcount:
      return "multicast_overcount";
    case death_case::producer_wrong_phase:
      return "producer_wrong_phase";
    case death_case::size_not_16:
      return "size_not_16";
    case death_case::zero_size:
      return "zero_size";
    case death_case::smem_misaligned:
      return "smem_misaligned";
    case death_case::global_misaligned:
      return "global_misaligned";
    case death_case::tx_phase_limit:
      return "tx_phase_limit";
    case death_case::descriptor_off16:
      return "descriptor_off16";
    case death_case::descriptor_swizzle:
      return "descriptor_swizzle";
    case death_case::multicast_mask:
      return "multicast_mask";
    case death_case::zero_arrivals:
      return "zero_arrivals";
  }
  return "?";
}

/// The child: runs one case, reports on stderr, exits 3 on a CUDA error, 0 on completion.
int run_child(const std::string& name) {
  death_case c = death_case::ok;
  bool known = false;
  for (unsigned i = 0; i <= static_cast<unsigned>(death_case::zero_arrivals); ++i)
    if (name == case_name(static_cast<death_case>(i))) {
      c = static_cast<death_case>(i);
      known = true;
    }
  if (!known) {
    std::fprintf(stderr, "child: unknown case '%s'\n", name.c_str());
    return 4;
  }
  unsigned char* src = nullptr;
  unsigned* out = nullptr;
  if (cudaMalloc(&src, 8192) != cudaSuccess ||
      cudaMalloc(&out, 4096 * sizeof(unsigned)) != cudaSuccess) {
    std::fprintf(stderr, "child: cudaMalloc failed\n");
    return 5;
  }
  cudaMemset(src, 0x5a, 8192);
  cudaError_t e = cudaSuccess;
  if (c == death_case::multicast_overcount || c == death_case::multicast_mask) {
    h::cluster_launch l;
    l.shape = {dim3(2), dim3(128), 0};
    l.cluster = dim3(2);
    try {
      h::launch(
          c == death_case::multicast_mask ? multicast_mask_kernel : multicast_overcount_kernel, l,
          static_cast<const unsigned char*>(src), out);
    } catch (const cuprobe::error& x) {
      std::fprintf(stderr, "child: launch failed: %s\n", x.what());
      return 6;
    }
  } else {
    death_kernel<<<1, 128>>>(c, src, out);
  }
  e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  std::fflush(stdout);
  if (e != cudaSuccess) {
    std::fprintf(stderr, "child: CUDA error %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
    return 3;
  }
  std::fprintf(stderr, "child: kernel completed\n");
  return 0;
}

/// Re-executes this binary with CUPROBE_HOPPER_DEATH=<name> (cuprobe/testing/child.cuh).
cuprobe::testing::child_result run_death_case(const std::string& name) {
  return cuprobe::testing::run_self_child("CUPROBE_HOPPER_DEATH", name, 120);
}

void expect_trap(const std::string& name, const std::vector<std::string>& sentences) {
  const auto r = run_death_case(name);
  INFO("case " << name << ", exit code " << r.exit_code << ", signal " << r.signal
               << ", child output:\n"
               << r.output);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);  // the child saw a CUDA error (the trap), not a hang or a pass
  CHECK(r.output.find("child: CUDA error") != std::string::npos);
  for (const auto& s : sentences) {
    CAPTURE(s);
    CHECK(r.output.find(s) != std::string::npos);
  }
}

}  // namespace

CUPROBE_GPU_TEST_CASE("death harness: a correct copy completes in the child") {
  const auto r = run_death_case("ok");
  INFO("child output:\n" << r.output);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("child: kernel completed") != std::string::npos);
  CHECK(r.output.find("TIMEOUT") == std::string::npos);
}

CUPROBE_GPU_TEST_CASE("mbarrier::wait traps on expect_tx of more bytes than are copied") {
  expect_trap("tx_overcount", {"cuprobe::ptx::mbarrier::wait: TIMEOUT", "block (0,0,0)", "parity 0",
                               "tx bytes this CTA announced on it since init: 2048",
                               "issued by this CTA's bulk copies: 1024",
                               "(1024 announced but not issued here", "raw mbarrier word 0x"});
}

CUPROBE_GPU_TEST_CASE("mbarrier::wait traps on the multicast over-count (bytes x cluster size)") {
  expect_trap("multicast_overcount", {"cuprobe::ptx::mbarrier::wait: TIMEOUT", "parity 0",
                                      "tx bytes this CTA announced on it since init: 8192"});
}

CUPROBE_GPU_TEST_CASE("mbarrier::wait traps when a producer starts on the consumer's phase") {
  expect_trap("producer_wrong_phase", {"cuprobe::ptx::mbarrier::wait: TIMEOUT", "parity 0",
                                       "tx bytes this CTA announced on it since init: 0"});
}

CUPROBE_GPU_TEST_CASE("bulk::load traps on sizes that are not positive multiples of 16") {
  expect_trap("size_not_16", {"cuprobe::ptx::bulk::load: size 24 bytes is not a positive "
                              "multiple of 16"});
  expect_trap("zero_size", {"cuprobe::ptx::bulk::load: size 0 bytes is not a positive "
                            "multiple of 16"});
}

CUPROBE_GPU_TEST_CASE("bulk::load traps on shared and global addresses off 16 bytes") {
  expect_trap("smem_misaligned",
              {"cuprobe::ptx::bulk::load: destination", "is not aligned to 16 bytes"});
  expect_trap("global_misaligned",
              {"cuprobe::ptx::bulk::load: source", "is not aligned to 16 bytes"});
}

CUPROBE_GPU_TEST_CASE("mbarrier: one phase's announced bytes over 2^20 - 1 trap, each call below") {
  expect_trap("tx_phase_limit", {"cuprobe::ptx::mbarrier::expect_tx: this phase's announced bytes "
                                 "reach 1200000, over the tx-count limit of 2^20 - 1 per phase"});
}

CUPROBE_GPU_TEST_CASE(
    "wgmma descriptor_at traps on a tile off 16 bytes and a swizzle base off 1024") {
  expect_trap("descriptor_off16", {"cuprobe::ptx::wgmma::canonical_layout::descriptor_at: the "
                                   "start address is not a multiple of 16 bytes",
                                   "the MMA would read the wrong elements"});
  expect_trap(
      "descriptor_swizzle",
      {"cuprobe::ptx::wgmma::canonical_layout::descriptor_at: a swizzled tile's base is not "
       "a multiple of 8 x the swizzle width"});
}

CUPROBE_GPU_TEST_CASE("bulk::load_multicast traps on a mask naming a CTA outside the cluster") {
  expect_trap("multicast_mask", {"cuprobe::ptx::bulk::load_multicast: ctaMask 0x5 is empty or "
                                 "names CTAs beyond the cluster's 2"});
}

CUPROBE_GPU_TEST_CASE("mbarrier::init traps on an arrival count of 0") {
  expect_trap("zero_arrivals", {"cuprobe::ptx::mbarrier::init: expected arrival count 0 is outside "
                                "1 .. 2^20 - 1"});
}

int main(int argc, char** argv) {
  if (const char* c = std::getenv("CUPROBE_HOPPER_DEATH")) return run_child(c);
  return cuprobe::testing::run_tests(argc, argv);
}
