// gpu tier, clusters: ptx/cluster.cuh (special registers, mapa, DSM loads and stores, the
// cluster barrier), remote mbarrier arrives, bulk multicast and shared::cta -> shared::cluster
// copies, and hopper/cluster.cuh's launch helpers, on an sm_90a GPU.
// Debug checks are forced on (CUPROBE_PTX_CHECKS 1): every mbarrier wait is bounded and traps
// with a sentence instead of hanging, every copy's size and addresses are checked. Outputs are
// poisoned before each launch and compared element by element with host references. The
// death tests (a planted tx mismatch, misaligned copies) live in hopper_async_death.cu.
#define CUPROBE_PTX_CHECKS 1
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/ptx/bulk.cuh>
#include <cuprobe/ptx/cluster.cuh>
#include <cuprobe/ptx/fence.cuh>
#include <cuprobe/ptx/mbarrier.cuh>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace p = cuprobe::ptx;
namespace mb = cuprobe::ptx::mbarrier;
namespace bulk = cuprobe::ptx::bulk;
namespace cl = cuprobe::ptx::cluster;
namespace h = cuprobe::hopper;

// ---- clusters: special registers, DSM loads and stores, remote arrives ---------------------

namespace {

constexpr unsigned record = 24;  // words per CTA in dsm_kernel's output

// Each CTA r writes 4-, 8- and 16-byte values and a generic store into CTA (r + 1) % n, then
// arrives on every other CTA's barrier (release.cluster); each CTA waits for its n - 1 arrivals
// (acquire.cluster) and reports what landed in its slots, what it reads remotely from its
// successor, and its special registers.
__global__ void dsm_kernel(unsigned* out) {
  // 4-byte slots at [r], 8-byte at [16 + 2r], 16-byte at [48 + 4r], for up to 16 ranks.
  __shared__ alignas(16) unsigned slots[112];
  __shared__ unsigned gen[16];
  __shared__ alignas(8) unsigned ident[2];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  const unsigned r = cl::ctarank(), n = cl::nctarank();
  for (unsigned i = threadIdx.x; i < 112; i += blockDim.x) slots[i] = 0xdeadbeefu;
  for (unsigned i = threadIdx.x; i < 16; i += blockDim.x) gen[i] = 0xdeadbeefu;
  if (threadIdx.x == 0) {
    ident[0] = 0x5000u + r;
    ident[1] = 0x6000u + r;
    mb::init(&bar, n - 1);
    mb::fence_init();
  }
  cl::sync();  // barriers initialised and every CTA of the cluster running
  const unsigned next = (r + 1) % n, prev = (r + n - 1) % n;
  unsigned* o = out + record * blockIdx.x;
  if (threadIdx.x == 0) {
    cl::st(cl::map_shared(&slots[r], next), 0x1000u + r);
    cl::st(cl::map_shared(&slots[16 + 2 * r], next),
           (static_cast<unsigned long long>(0x2000u + r) << 32) | (0x3000u + r));
    cl::st(cl::map_shared(&slots[48 + 4 * r], next),
           uint4{0x7000u + r, 0x7100u + r, 0x7200u + r, 0x7300u + r});
    *cl::map(&gen[r], next) = 0x4000u + r;
    for (unsigned q = 0; q < n; ++q)
      if (q != r) mb::arrive_remote(&bar, q);
    // Remote loads of the successor's identity (written before the cluster barrier).
    o[16] = cl::ld<unsigned>(cl::map_shared(&ident[0], next));
    const unsigned long long both = cl::ld<unsigned long long>(cl::map_shared(&ident[0], next));
    o[17] = static_cast<unsigned>(both);
    o[18] = static_cast<unsigned>(both >> 32);
    o[19] = *cl::map(&ident[1], next);
    unsigned ranks = 0;
    for (unsigned q = 0; q < n; ++q)
      if (cl::rank_of(cl::map(&ident[0], q)) == q && cl::is_dsm(cl::map(&ident[0], q)))
        ranks |= 1u << q;
    o[20] = ranks;
  }
  mb::wait<p::scope::cluster>(&bar, 0);
  if (threadIdx.x == 0) {
    o[22] = mb::test_wait<p::scope::cluster>(&bar, 0) ? 1u : 0u;
    const dim3 a = cl::ctaid(), b = cl::nctaid(), c = cl::clusterid(), d = cl::nclusterid();
    o[0] = r;
    o[1] = n;
    o[2] = a.x;
    o[3] = b.x;
    o[4] = c.x;
    o[5] = d.x;
    o[6] = cl::is_explicit();
    o[7] = slots[prev];
    o[8] = slots[16 + 2 * prev];
    o[9] = slots[17 + 2 * prev];
    for (int j = 0; j < 4; ++j) o[10 + j] = slots[48 + 4 * prev + j];
    o[14] = gen[prev];
    unsigned untouched = 1;  // every other slot still holds its initial value
    for (unsigned q = 0; q < 16; ++q) {
      if (q == prev) continue;
      if (slots[q] != 0xdeadbeefu || gen[q] != 0xdeadbeefu) untouched = 0;
      for (unsigned j = 0; j < 2; ++j)
        if (slots[16 + 2 * q + j] != 0xdeadbeefu) untouched = 0;
      for (unsigned j = 0; j < 4; ++j)
        if (slots[48 + 4 * q + j] != 0xdeadbeefu) untouched = 0;
    }
    o[15] = untouched;
    o[21] = blockIdx.x;
  }
  cl::sync();  // no CTA exits while a peer may still read its shared memory
}

void check_dsm(unsigned n, unsigned clusters) {
  CAPTURE(n);
  h::cluster_launch c;
  c.shape = {dim3(n * clusters), dim3(64), 0};
  c.cluster = dim3(n);
  c.allow_non_portable = n > h::max_portable_cluster_size;
  REQUIRE(h::max_active_clusters(dsm_kernel, c) > 0);
  cuprobe::device_buffer<unsigned> out(record * n * clusters);
  out.poison();
  h::launch(dsm_kernel, c, out.data());
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto o = out.to_host();
  for (unsigned b = 0; b < n * clusters; ++b) {
    CAPTURE(b);
    const unsigned* v = &o[record * b];
    const unsigned r = b % n, prev = (r + n - 1) % n, next = (r + 1) % n;
    CHECK(v[21] == b);
    CHECK(v[0] == r);
    CHECK(v[1] == n);
    CHECK(v[2] == r);
    CHECK(v[3] == n);
    CHECK(v[4] == b / n);
    CHECK(v[5] == clusters);
    CHECK(v[6] == 1u);
    CHECK(v[7] == 0x1000u + prev);
    CHECK(v[8] == 0x3000u + prev);
    CHECK(v[9] == 0x2000u + prev);
    for (unsigned j = 0; j < 4; ++j) CHECK(v[10 + j] == 0x7000u + 0x100u * j + prev);
    CHECK(v[14] == 0x4000u + prev);
    CHECK(v[15] == 1u);
    CHECK(v[16] == 0x5000u + next);
    CHECK(v[17] == 0x5000u + next);
    CHECK(v[18] == 0x6000u + next);
    CHECK(v[19] == 0x6000u + next);
    CHECK(v[20] == (1u << n) - 1);
    CHECK(v[22] == 1u);
  }
}

}  // namespace

CUPROBE_GPU_TEST_CASE("clusters of 2, 4 and 8 CTAs: registers, DSM ld/st, remote arrives") {
  check_dsm(2, 4);
  check_dsm(4, 4);
  check_dsm(8, 2);
}

CUPROBE_GPU_TEST_CASE("a 16-CTA cluster runs with the non-portable opt-in where the GPU allows") {
  h::cluster_launch c;
  c.shape = {dim3(16), dim3(64), 0};
  c.cluster = dim3(16);
  c.allow_non_portable = true;
  const int potential = h::max_potential_cluster_size(dsm_kernel, c);
  MESSAGE("cudaOccupancyMaxPotentialClusterSize: " << potential);
  if (potential < 16) {
    MESSAGE("this GPU runs at most " << potential << "-CTA clusters of this kernel: not tested");
    return;
  }
  check_dsm(16, 1);
}

namespace {
// At most 64 threads per block (.maxntid 64): a launch with 128 is refused by the driver.
__global__ void __launch_bounds__(64) small_block_kernel(unsigned* out) {
  if (out) out[threadIdx.x] = threadIdx.x;
}
}  // namespace

CUPROBE_GPU_TEST_CASE("hopper::launch turns a launch the driver refuses into a sentence") {
  h::cluster_launch c;
  c.shape = {dim3(4), dim3(128), 0};
  c.cluster = dim3(2);
  std::string what;
  try {
    h::launch(small_block_kernel, c, static_cast<unsigned*>(nullptr));
  } catch (const cuprobe::error& e) {
    what = e.what();
  }
  INFO(what);
  CHECK(what.find("cuprobe: hopper::launch: cudaLaunchKernelEx refused a grid of (4, 1, 1) CTAs "
                  "in clusters of (2, 1, 1) = 2 CTAs, blocks of (128, 1, 1) threads") !=
        std::string::npos);
  CUPROBE_CHECK(cudaDeviceSynchronize());  // nothing sticky left behind
}

CUPROBE_GPU_TEST_CASE("hopper::launch turns a refused shared-memory request into cuprobe::error") {
  h::cluster_launch c;
  c.shape = {dim3(8), dim3(64), 300 * 1024};  // more dynamic shared memory than any SM has
  c.cluster = dim3(2);
  CHECK_THROWS_AS(h::launch(dsm_kernel, c, static_cast<unsigned*>(nullptr)), cuprobe::error);
  CUPROBE_CHECK(cudaGetLastError());  // nothing sticky left behind
}

// ---- multicast and shared::cta -> shared::cluster copies -----------------------------------

namespace {

// Every CTA announces the bytes that land in ITS buffer (not bytes x cluster size). split = 0:
// rank 0 multicasts the whole buffer; split = 1: rank r multicasts slice r to every CTA.
__global__ void multicast_kernel(const unsigned char* src, unsigned char* out, unsigned bytes,
                                 unsigned split) {
  auto* buf = h::aligned_dynamic_smem<h::tma_alignment>();
  __shared__ cuprobe::ptx::mbarrier::object bar;
  const unsigned r = cl::ctarank(), n = cl::nctarank();
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();  // releases the init: a relaxed cluster arrive suffices (CUTLASS's pattern)
  }
  cl::arrive_relaxed();
  cl::wait();
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, bytes);
    const auto all = static_cast<std::uint16_t>((1u << n) - 1);
    if (split) {
      const unsigned slice = bytes / n;
      bulk::load_multicast(buf + r * slice, src + r * slice, &bar, all, slice);
    } else if (r == 0) {
      bulk::load_multicast(buf, src, &bar, all, bytes);
    }
  }
  mb::wait(&bar, 0);
  for (unsigned i = threadIdx.x; i < bytes / 4; i += blockDim.x)
    reinterpret_cast<unsigned*>(out + std::size_t(blockIdx.x) * bytes)[i] =
        reinterpret_cast<const unsigned*>(buf)[i];
  cl::sync();
}

// CTA r fills its source with a pattern of r (dsm = 1: with st.shared::cluster through its own
// rank, then the shared::cluster proxy fence), copies it into CTA (r + 1) % n's destination,
// completing on that CTA's barrier, where that CTA announced the bytes.
__global__ void peer_copy_kernel(unsigned* out, unsigned words, unsigned dsm) {
  auto* base = h::aligned_dynamic_smem<h::tma_alignment, unsigned>();
  unsigned* src = base;
  unsigned* dst = base + words;
  __shared__ cuprobe::ptx::mbarrier::object bar;
  const unsigned r = cl::ctarank(), n = cl::nctarank();
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) {
    if (dsm)
      cl::st(cl::map_shared(src + i, r), (r << 24) | i);  // st.shared::cluster, own rank
    else
      src[i] = (r << 24) | i;
    dst[i] = 0xdeadbeefu;
  }
  if (dsm) p::fence_proxy_async<p::space::cluster>();  // st.shared::cluster -> the copy's reads
  p::fence_proxy_async<p::space::shared>();            // st.shared -> the copy's reads and writes
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  cl::sync();
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, words * 4);
    const unsigned next = (r + 1) % n;
    bulk::copy_to_cluster(cl::map(dst, next), src, cl::map(&bar, next), words * 4);
  }
  mb::wait(&bar, 0);
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) out[blockIdx.x * words + i] = dst[i];
  cl::sync();
}

}  // namespace

CUPROBE_GPU_TEST_CASE("bulk load_multicast fills every CTA of 2- and 4-CTA clusters") {
  const unsigned bytes = 32 * 1024;
  cuprobe::device_buffer<unsigned char> src(bytes);
  src.fill_random(11, 0, 255);
  const auto hs = src.to_host();
  const std::size_t smem = h::dynamic_smem_bytes<h::tma_alignment>(bytes);
  for (unsigned n : {2u, 4u}) {
    for (unsigned split : {0u, 1u}) {
      CAPTURE(n);
      CAPTURE(split);
      const unsigned clusters = 3;
      h::cluster_launch c;
      c.shape = {dim3(n * clusters), dim3(128), smem};
      c.cluster = dim3(n);
      cuprobe::device_buffer<unsigned char> out(std::size_t(bytes) * n * clusters);
      out.poison();
      h::launch(multicast_kernel, c, static_cast<const unsigned char*>(src.data()), out.data(),
                bytes, split);
      CUPROBE_CHECK(cudaDeviceSynchronize());
      const auto ho = out.to_host();
      for (unsigned b = 0; b < n * clusters; ++b)
        for (unsigned i = 0; i < bytes; ++i) REQUIRE(ho[std::size_t(b) * bytes + i] == hs[i]);
    }
  }
}

CUPROBE_GPU_TEST_CASE("bulk copy_to_cluster moves a buffer into the next CTA's shared memory") {
  const unsigned words = 4096;
  const std::size_t smem = h::dynamic_smem_bytes<h::tma_alignment>(2 * words * 4);
  for (unsigned dsm : {0u, 1u})
    for (unsigned n : {2u, 4u}) {
      CAPTURE(n);
      CAPTURE(dsm);
      h::cluster_launch c;
      c.shape = {dim3(2 * n), dim3(128), smem};
      c.cluster = dim3(n);
      cuprobe::device_buffer<unsigned> out(std::size_t(words) * 2 * n);
      out.poison();
      h::launch(peer_copy_kernel, c, out.data(), words, dsm);
      CUPROBE_CHECK(cudaDeviceSynchronize());
      const auto o = out.to_host();
      for (unsigned b = 0; b < 2 * n; ++b) {
        const unsigned prev = (b % n + n - 1) % n;
        for (unsigned i = 0; i < words; ++i)
          REQUIRE(o[std::size_t(b) * words + i] == ((prev << 24) | i));
      }
    }
}
