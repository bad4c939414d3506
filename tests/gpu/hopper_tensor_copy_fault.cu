// gpu tier: a TMA rule that the hardware enforces but no documentation states, pinned so that a
// driver or GPU that changes it is noticed. In tile mode the dimension-0 start coordinate x the
// element size must be a multiple of 16 bytes: on an H200 (driver 580, CUDA 13.0) a 1-D u8
// tensor_load of a 48-byte box at c0 = 5 stops the kernel with cudaErrorIllegalInstruction at the
// UTMALDG (the map a __grid_constant__ parameter or in global memory alike), at c0 = 16 it
// completes. This is an OBSERVED hardware rule: it is not among cuTensorMapEncodeTiled's
// documented rules, and coordinates are device-side, so cuprobe's host checker (tensor_map_rules)
// cannot enforce it. hopper_tensor_copy.cu keeps every dimension-0 start on 16 bytes because of it.
// The tensor store obeys the same rule (a u8 store of the 48-byte box at c0 = 5 is an illegal
// instruction, at c0 = 16 it lands), and Debug builds trap with the rule's sentence when the
// shared buffer is typed: tma_store_epilogue, whose sources are typed, says so for a tile at a
// column that is not on 16 bytes (n0 = 316 of bf16) instead of ending in the bare illegal
// instruction.
//
// The illegal instruction destroys the CUDA context, so each load runs in a CHILD process
// (cuprobe/testing/child.cuh): the binary re-executes itself with CUPROBE_TENSOR_COPY_RULE=<c0>,
// the child exits 3 on a CUDA error (printing its name), 0 when the kernel completed and the box
// is the input's bytes, 5 when it completed with other bytes. Nothing can hang: the mbarrier wait
// is bounded (CUPROBE_PTX_CHECKS 1) and the parent kills the child after 60 s. Under
// compute-sanitizer the children are not run (the planted fault would count as an error).
#define CUPROBE_PTX_CHECKS 1
#define DOCTEST_CONFIG_IMPLEMENT
#include <cuprobe/testing/child.cuh>
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/core/watchdog.cuh>
#include <cuprobe/hopper/epilogue.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/hopper/tensor_map.cuh>
#include <cuprobe/ptx/bulk.cuh>
#include <cuprobe/ptx/mbarrier.cuh>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace mb = cuprobe::ptx::mbarrier;
namespace bulk = cuprobe::ptx::bulk;
namespace h = cuprobe::hopper;

namespace {

constexpr unsigned dim0 = 128, box_bytes = 48;  // a 1-D u8 tensor of 128 bytes, a 48-byte box

__global__ void load_1d(const __grid_constant__ CUtensorMap map, int c0, unsigned char* out) {
  __shared__ alignas(128) unsigned char box[box_bytes];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, box_bytes);
    bulk::tensor_load(box, &map, &bar, c0);
  }
  mb::wait(&bar, 0);
  if (threadIdx.x < box_bytes) out[threadIdx.x] = box[threadIdx.x];
}

/// A 1-D u16 tensor copy into a typed destination at c0 (the Debug start-coordinate check), or
/// an expect_tx of twice the box's bytes (`overcount`: the bounded wait must end the kernel).
__global__ void load_1d_u16(const __grid_constant__ CUtensorMap map, int c0, bool overcount,
                            std::uint16_t* out) {
  __shared__ alignas(128) std::uint16_t box[64];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, overcount ? 2 * sizeof box : sizeof box);
    bulk::tensor_load(box, &map, &bar, c0);
  }
  mb::wait(&bar, 0);
  out[threadIdx.x] = box[threadIdx.x];
}

/// The 48-byte box (byte k = 3 k + 2) stored from untyped shared memory into a u8 tensor at c0:
/// no Debug check applies (a byte buffer), so the hardware answers a start off 16 bytes.
__global__ void store_1d(const __grid_constant__ CUtensorMap map, int c0) {
  __shared__ alignas(128) unsigned char box[box_bytes];
  if (threadIdx.x < box_bytes) box[threadIdx.x] = static_cast<unsigned char>(3 * threadIdx.x + 2);
  cuprobe::ptx::fence_proxy_async<cuprobe::ptx::space::shared>();
  __syncthreads();
  if (threadIdx.x == 0) {
    bulk::tensor_store(&map, box, c0);
    bulk::commit_group();
    bulk::wait_group<0>();
  }
}

/// One warpgroup's 64 x 200 bf16 accumulator (zeros) through tma_store_epilogue at column n0.
__global__ void epilogue_at(const __grid_constant__ CUtensorMap map,
                            const __grid_constant__ CUtensorMap rest_map, int n0) {
  using epi = h::tma_store_epilogue<__nv_bfloat16, 200, 1>;
  extern __shared__ unsigned char raw[];
  cuprobe::ptx::wgmma::accumulator<cuprobe::ptx::wgmma::f32, 200> acc;
#pragma unroll
  for (int e = 0; e < 100; ++e) acc.reg[e] = 0.f;
  epi::store(acc, h::align_up<1024>(raw), &map, 0, n0, 1, 0, &rest_map);
  epi::drain();
}

/// The child of the store cases: "store:<c0>" (u8 box stored at c0; exits 0 when the tensor
/// holds the box's bytes and nothing else, 5 otherwise) or "epilogue:<n0>"; exits 3 on a CUDA
/// error.
int run_store_child(const std::string& value) {
  const bool epilogue = value.rfind("epilogue:", 0) == 0;
  const int c0 = std::stoi(value.substr(value.find(':') + 1));
  try {
    if (epilogue) {
      constexpr int rows = 64, cols = 512;
      cuprobe::device_buffer<__nv_bfloat16> c(rows * cols);
      const auto map = h::make_tensor_map(
          h::tensor_map_spec::matrix(c.data(), rows, cols, 64, 64, h::swizzle_mode::b128));
      const auto rest = h::make_tensor_map(
          h::tensor_map_spec::matrix(c.data(), rows, cols, 64, 8, h::swizzle_mode::none));
      using epi = h::tma_store_epilogue<__nv_bfloat16, 200, 1>;
      const std::size_t smem = h::dynamic_smem_bytes<1024>(epi::smem_bytes);
      CUPROBE_CHECK(cudaFuncSetAttribute(epilogue_at, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                         int(smem)));
      epilogue_at<<<1, 128, smem>>>(map.get(), rest.get(), c0);
      cuprobe::synchronize_device("the epilogue", 10);
      std::printf("child: kernel completed\n");
      return 0;
    }
    cuprobe::device_buffer<unsigned char> dst(dim0);
    dst.poison(0xEE);
    const h::tensor_map m = h::make_tensor_map(
        h::tensor_map_spec::make(h::element_type::u8, dst.data(), {dim0}, {}, {box_bytes}));
    store_1d<<<1, 64>>>(m.get(), c0);
    cuprobe::synchronize_device("the u8 tensor store", 10);
    std::printf("child: kernel completed\n");
    const std::vector<unsigned char> got = dst.to_host();
    for (int i = 0; i < int(dim0); ++i) {
      const int k = i - c0;
      const unsigned want = k >= 0 && k < int(box_bytes) ? unsigned(3 * k + 2) % 256u : 0xEEu;
      if (got[unsigned(i)] != want) {
        std::printf("child: tensor byte %d is %u, expected %u\n", i, got[unsigned(i)], want);
        return 5;
      }
    }
    std::printf("child: the tensor holds the box\n");
    return 0;
  } catch (const cuprobe::error& x) {
    std::fflush(stdout);
    std::printf("child: %s\n", x.what());
    return 3;
  }
}

/// The child of the u16 cases: "u16:<c0>" or "overcount"; exits 3 on a CUDA error.
int run_u16_child(const std::string& value) {
  const bool overcount = value == "overcount";
  const int c0 = overcount ? 0 : std::stoi(value.substr(4));
  try {
    cuprobe::device_buffer<std::uint16_t> src(256), out(64);
    src.zero();
    const h::tensor_map m = h::make_tensor_map(
        h::tensor_map_spec::make(h::element_type::u16, src.data(), {256}, {}, {64}));
    load_1d_u16<<<1, 64>>>(m.get(), c0, overcount, out.data());
    cuprobe::synchronize_device("the u16 tensor copy", 10);
    std::printf("child: kernel completed\n");
    return 0;
  } catch (const cuprobe::error& x) {
    std::fflush(stdout);
    std::printf("child: %s\n", x.what());
    return 3;
  }
}

/// The child: one load at c0 = `value`; see the file comment for its exit codes.
int run_child(const std::string& value) {
  if (value == "overcount" || value.rfind("u16:", 0) == 0) return run_u16_child(value);
  if (value.rfind("store:", 0) == 0 || value.rfind("epilogue:", 0) == 0)
    return run_store_child(value);
  const int c0 = std::stoi(value);
  try {
    std::vector<unsigned char> in(dim0);
    for (unsigned i = 0; i < dim0; ++i) in[i] = static_cast<unsigned char>(i * 7 + 1);
    cuprobe::device_buffer<unsigned char> src(dim0), out(box_bytes);
    src.upload(in);
    out.poison();
    const h::tensor_map m = h::make_tensor_map(
        h::tensor_map_spec::make(h::element_type::u8, src.data(), {dim0}, {}, {box_bytes}));
    load_1d<<<1, 64>>>(m.get(), c0, out.data());
    cudaError_t e = cudaGetLastError();
    if (e == cudaSuccess) e = cudaDeviceSynchronize();
    std::fflush(stdout);
    if (e != cudaSuccess) {
      std::printf("child: CUDA error %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
      return 3;
    }
    std::printf("child: kernel completed\n");
    const std::vector<unsigned char> got = out.to_host();
    for (unsigned k = 0; k < box_bytes; ++k) {
      const int i = c0 + static_cast<int>(k);
      const unsigned char want = i >= 0 && i < int(dim0) ? in[unsigned(i)] : 0;  // zero fill
      if (got[k] != want) {
        std::printf("child: box byte %u is %u, expected %u\n", k, got[k], want);
        return 5;
      }
    }
    std::printf("child: the box is the input\n");
    return 0;
  } catch (const cuprobe::error& x) {
    std::printf("child: %s\n", x.what());
    return 6;
  }
}

cuprobe::testing::child_result load_at(int c0) {
  const auto r =
      cuprobe::testing::run_self_child("CUPROBE_TENSOR_COPY_RULE", std::to_string(c0), 60);
  INFO("u8 rank 1 box 48 at c0 = ", c0, ": exit code ", r.exit_code, ", signal ", r.signal,
       ", child output:\n", r.output);
  REQUIRE_FALSE(r.timed_out);
  return r;
}

}  // namespace

CUPROBE_GPU_TEST_CASE("TMA tile mode: a u8 load at c0 = 16 (16-byte aligned) completes") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: runs child processes");
    return;
  }
  const auto r = load_at(16);
  INFO("child output:\n", r.output);
  CHECK(r.exit_code == 0);
  CHECK(r.output.find("child: the box is the input") != std::string::npos);
}

CUPROBE_GPU_TEST_CASE("TMA tile mode: a u8 load at c0 = 5 is cudaErrorIllegalInstruction") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: the child faults on purpose");
    return;
  }
  const auto r = load_at(5);
  INFO("child output:\n", r.output,
       "\nexit 0 or 5: the load completed, the rule no longer holds on this driver / GPU: "
       "update this file and hopper_tensor_copy.cu's header");
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("cudaErrorIllegalInstruction") != std::string::npos);
}

CUPROBE_GPU_TEST_CASE(
    "Debug: a typed u16 load at c0 = 4 (8 bytes) traps with the rule's sentence") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: the child faults on purpose");
    return;
  }
  const auto ok = cuprobe::testing::run_self_child("CUPROBE_TENSOR_COPY_RULE", "u16:8", 60);
  INFO("c0 = 8 (16 bytes): exit code ", ok.exit_code, ", child output:\n", ok.output);
  CHECK(ok.exit_code == 0);
  const auto r = cuprobe::testing::run_self_child("CUPROBE_TENSOR_COPY_RULE", "u16:4", 60);
  INFO("c0 = 4: exit code ", r.exit_code, ", child output:\n", r.output);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("cuprobe::ptx::bulk::tensor_load: the dimension-0 start coordinate 4 x "
                      "2-byte elements is not a multiple of 16 bytes") != std::string::npos);
}

CUPROBE_GPU_TEST_CASE(
    "TMA tile mode: a u8 store at c0 = 16 lands, at c0 = 5 is cudaErrorIllegalInstruction") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: the child faults on purpose");
    return;
  }
  const auto ok = cuprobe::testing::run_self_child("CUPROBE_TENSOR_COPY_RULE", "store:16", 60);
  INFO("c0 = 16: exit code ", ok.exit_code, ", child output:\n", ok.output);
  CHECK(ok.exit_code == 0);
  CHECK(ok.output.find("child: the tensor holds the box") != std::string::npos);
  const auto r = cuprobe::testing::run_self_child("CUPROBE_TENSOR_COPY_RULE", "store:5", 60);
  INFO("c0 = 5: exit code ", r.exit_code, ", child output:\n", r.output,
       "\nexit 0 or 5: the store completed, the rule no longer holds for stores on this driver / "
       "GPU: update this file and ptx/bulk.cuh's check_start");
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("cudaErrorIllegalInstruction") != std::string::npos);
}

CUPROBE_GPU_TEST_CASE(
    "Debug: tma_store_epilogue at a column off 16 bytes traps with the rule's sentence") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: the child faults on purpose");
    return;
  }
  const auto ok = cuprobe::testing::run_self_child("CUPROBE_TENSOR_COPY_RULE", "epilogue:312", 60);
  INFO("n0 = 312 (624 bytes): exit code ", ok.exit_code, ", child output:\n", ok.output);
  CHECK(ok.exit_code == 0);
  const auto r = cuprobe::testing::run_self_child("CUPROBE_TENSOR_COPY_RULE", "epilogue:316", 60);
  INFO("n0 = 316: exit code ", r.exit_code, ", child output:\n", r.output);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("cuprobe::ptx::bulk::tensor_store: the dimension-0 start coordinate 316 x "
                      "2-byte elements is not a multiple of 16 bytes") != std::string::npos);
}

CUPROBE_GPU_TEST_CASE(
    "Debug: expect_tx of twice a tensor copy's bytes traps and the process ends") {
  if (cuprobe::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer: the child faults on purpose");
    return;
  }
  const double t0 = cuprobe::monotonic_s();
  const auto r = cuprobe::testing::run_self_child("CUPROBE_TENSOR_COPY_RULE", "overcount", 60);
  const double took = cuprobe::monotonic_s() - t0;
  INFO("exit code ", r.exit_code, ", signal ", r.signal, ", ", took, " s, child output:\n",
       r.output);
  REQUIRE_FALSE(r.timed_out);
  CHECK(r.output.find("cuprobe::ptx::mbarrier::wait: TIMEOUT") != std::string::npos);
  // The device trap ends the kernel: the child's wait returns the launch failure (exit 3), not
  // the host's hang sentence ("not finished") nor the watchdog thread's status 124.
  CHECK(r.exit_code == 3);
  CHECK(r.output.find("cudaErrorLaunchFailure") != std::string::npos);
  CHECK(r.output.find("not finished") == std::string::npos);
  CHECK(took < 20);
}

int main(int argc, char** argv) {
  if (const char* c = std::getenv("CUPROBE_TENSOR_COPY_RULE")) return run_child(c);
  return cuprobe::testing::run_tests(argc, argv);
}
