// gpu tier: ptx/mbarrier.cuh, ptx/bulk.cuh, ptx/cluster.cuh, ptx/elect.cuh, ptx/setmaxnreg.cuh,
// the proxy fences of ptx/fence.cuh and hopper/smem.cuh on an sm_90a GPU (clusters, DSM,
// multicast: hopper_async_cluster.cu).
// Debug checks are forced on (CUPROBE_PTX_CHECKS 1): every mbarrier wait is bounded and traps
// with a sentence instead of hanging, every copy's size and addresses are checked. Outputs are
// poisoned before each launch and compared element by element with host references. The
// death tests (a planted tx mismatch, misaligned copies) live in hopper_async_death.cu.
#define CUPROBE_PTX_CHECKS 1
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/pipeline/state.cuh>
#include <cuprobe/ptx/bulk.cuh>
#include <cuprobe/ptx/cluster.cuh>
#include <cuprobe/ptx/elect.cuh>
#include <cuprobe/ptx/fence.cuh>
#include <cuprobe/ptx/mbarrier.cuh>
#include <cuprobe/ptx/setmaxnreg.cuh>

#include <cstdint>
#include <cstring>
#include <vector>

namespace p = cuprobe::ptx;
namespace mb = cuprobe::ptx::mbarrier;
namespace bulk = cuprobe::ptx::bulk;
namespace cl = cuprobe::ptx::cluster;
namespace h = cuprobe::hopper;

namespace {

// ---- mbarrier phases ----------------------------------------------------------------------

// Every thread arrives once per phase (odd phases with cluster scope) and waits, or thread 0
// arrives for all with a count and the threads poll try_wait with a suspend-time hint. Thread 0
// checks, before its own arrival, that the current phase is not complete and the previous one is;
// every thread checks after the wait that the phase it waited for reads as complete. At the end the
// barrier is invalidated and re-initialised.
__global__ void phase_kernel(unsigned phases, unsigned use_count, unsigned* errors,
                             unsigned* done) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  if (threadIdx.x == 0) {
    mb::init(&bar, use_count ? 1u : blockDim.x);
    mb::fence_init();
  }
  __syncthreads();
  unsigned err = 0;
  for (unsigned i = 0; i < phases; ++i) {
    const unsigned parity = i & 1u;
    if (threadIdx.x == 0) {
      if (mb::test_wait(&bar, parity)) err |= 1u;        // current phase cannot be complete
      if (!mb::test_wait(&bar, parity ^ 1u)) err |= 2u;  // the one before it is
    }
    if (!use_count) {
      if (parity)
        (void)mb::arrive<p::scope::cluster>(&bar);  // an implicit 1-CTA cluster
      else
        (void)mb::arrive(&bar);
      mb::wait(&bar, parity);
    } else {
      if (threadIdx.x == 0) (void)mb::arrive(&bar, 1u);
      // try_wait with a suspend-time hint, in a bounded loop (mb::wait bounds the others).
      unsigned tries = 0;
      while (!mb::try_wait(&bar, parity, 1000u))
        if (++tries == (1u << 24)) {
          err |= 8u;
          break;
        }
    }
    if (!mb::test_wait(&bar, parity)) err |= 4u;
    if (use_count) __syncthreads();  // thread 0 must not arrive for i + 1 before all waited
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    mb::inval(&bar);
    mb::init(&bar, 1);
    (void)mb::arrive(&bar);
    mb::wait(&bar, 0);
    done[0] = phases;
  }
  if (err) atomicOr(errors, err);
}

// A ring of Stages slots guarded by full/empty barriers (32 arrivals each): warp 0 produces,
// warp 1 consumes, both walking pipeline::state from their start states.
template <int Stages>
__global__ void ring_kernel(unsigned iters, unsigned long long* sums, unsigned* errors) {
  __shared__ cuprobe::ptx::mbarrier::object full[Stages], empty[Stages];
  __shared__ unsigned slot[Stages][32];
  if (threadIdx.x == 0) {
    for (int s = 0; s < Stages; ++s) {
      mb::init(&full[s], 32);
      mb::init(&empty[s], 32);
    }
    mb::fence_init();
  }
  __syncthreads();
  const unsigned lane = threadIdx.x % 32;
  if (threadIdx.x < 32) {
    auto st = cuprobe::pipeline::make_producer_start_state<Stages>();
    for (unsigned i = 0; i < iters; ++i, ++st) {
      mb::wait(&empty[st.stage], st.phase);
      slot[st.stage][lane] = i * 32 + lane;
      (void)mb::arrive(&full[st.stage]);
    }
  } else {
    auto st = cuprobe::pipeline::make_consumer_start_state<Stages>();
    unsigned long long sum = 0;
    for (unsigned i = 0; i < iters; ++i, ++st) {
      mb::wait(&full[st.stage], st.phase);
      const unsigned v = slot[st.stage][lane];
      if (v != i * 32 + lane) atomicAdd(errors, 1u);
      sum += v;
      (void)mb::arrive(&empty[st.stage]);
    }
    sums[lane] = sum;
  }
}

}  // namespace

CUPROBE_GPU_TEST_CASE("mbarrier: phases flip over 1000 phases, parity waits and test_wait agree") {
  for (unsigned use_count : {0u, 1u}) {
    CAPTURE(use_count);
    cuprobe::device_buffer<unsigned> errors(1), done(1);
    errors.zero();
    done.poison();
    phase_kernel<<<1, 128>>>(1000, use_count, errors.data(), done.data());
    CUPROBE_CHECK_LAUNCH("phase_kernel");
    CUPROBE_CHECK(cudaDeviceSynchronize());
    CHECK(errors.to_host()[0] == 0u);
    CHECK(done.to_host()[0] == 1000u);
  }
}

template <int Stages>
void check_ring(unsigned iters) {
  cuprobe::device_buffer<unsigned long long> sums(32);
  cuprobe::device_buffer<unsigned> errors(1);
  sums.poison();
  errors.zero();
  ring_kernel<Stages><<<1, 64>>>(iters, sums.data(), errors.data());
  CUPROBE_CHECK_LAUNCH("ring_kernel");
  CUPROBE_CHECK(cudaDeviceSynchronize());
  CHECK(errors.to_host()[0] == 0u);
  const auto s = sums.to_host();
  for (unsigned lane = 0; lane < 32; ++lane) {
    unsigned long long expect = 0;
    for (unsigned i = 0; i < iters; ++i) expect += i * 32ull + lane;
    REQUIRE(s[lane] == expect);
  }
}

CUPROBE_GPU_TEST_CASE("pipeline::state drives a producer/consumer ring (1, 2 and 4 stages)") {
  check_ring<1>(3001);
  check_ring<2>(3001);
  check_ring<4>(10000);
}

// ---- bulk copies: global -> shared -> global ----------------------------------------------

namespace {

constexpr unsigned max_bytes = 64 * 1024;

// One phase per region: arrive_expect_tx + load (odd regions: expect_tx, load, arrive) after
// an L2 prefetch, wait, optionally add `add` to
// every 32-bit word through the generic proxy (then a proxy fence), store back through a bulk
// group, wait_group_read before the buffer is reused.
__global__ void round_trip_kernel(const unsigned char* in, unsigned char* out,
                                  const unsigned* sizes, const unsigned* offsets, unsigned count,
                                  unsigned add) {
  auto* buf = h::aligned_dynamic_smem<h::tma_alignment>();
  auto* words = reinterpret_cast<unsigned*>(buf);
  __shared__ cuprobe::ptx::mbarrier::object bar;
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  __syncthreads();
  for (unsigned k = 0; k < count; ++k) {
    const unsigned bytes = sizes[k], off = offsets[k];
    if (threadIdx.x == 0) {
      bulk::prefetch_l2(in + off, bytes);
      if (k % 2 == 0) {
        (void)mb::arrive_expect_tx(&bar, bytes);
        bulk::load(buf, in + off, &bar, bytes);
      } else {  // announce without arriving, copy, then arrive
        mb::expect_tx(&bar, bytes);
        bulk::load(buf, in + off, &bar, bytes);
        (void)mb::arrive(&bar);
      }
    }
    mb::wait(&bar, k & 1u);
    if (add) {
      for (unsigned w = threadIdx.x; w < bytes / 4; w += blockDim.x) words[w] += add;
      p::fence_proxy_async<p::space::shared>();  // generic writes -> the bulk store's async reads
    }
    __syncthreads();
    if (threadIdx.x == 0) {
      bulk::store(out + off, buf, bytes);
      bulk::commit_group();
      bulk::wait_group_read<0>();  // the buffer may be refilled
    }
    __syncthreads();
  }
  if (threadIdx.x == 0) bulk::wait_group<0>();
}

}  // namespace

CUPROBE_GPU_TEST_CASE("bulk load/store round trip, 16 B .. 64 KiB, element by element") {
  const std::vector<unsigned> sizes = {16,   32,   48,   64,   80,   112,   128,   144,   256,
                                       1008, 1024, 1040, 4096, 4112, 16384, 32768, 65520, 65536};
  std::vector<unsigned> offsets;
  std::size_t total = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    total += 16 * (1 + i % 3);  // a poisoned gap of 16..48 bytes before each region
    offsets.push_back(static_cast<unsigned>(total));
    total += sizes[i];
  }
  total += 64;
  cuprobe::device_buffer<unsigned char> in(total), out(total);
  in.fill_random(7, 0, 255);
  const auto hin = in.to_host();
  cuprobe::device_buffer<unsigned> dsizes(sizes.size()), doffsets(offsets.size());
  dsizes.upload(sizes);
  doffsets.upload(offsets);
  const std::size_t smem = h::dynamic_smem_bytes<h::tma_alignment>(max_bytes);
  h::set_max_dynamic_smem(round_trip_kernel, smem);
  for (unsigned add : {0u, 0x01010101u}) {
    CAPTURE(add);
    out.poison();
    round_trip_kernel<<<1, 128, smem>>>(in.data(), out.data(), dsizes.data(), doffsets.data(),
                                        static_cast<unsigned>(sizes.size()), add);
    CUPROBE_CHECK_LAUNCH("round_trip_kernel");
    CUPROBE_CHECK(cudaDeviceSynchronize());
    const auto hout = out.to_host();
    std::vector<bool> covered(total, false);
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      CAPTURE(sizes[i]);
      for (unsigned w = 0; w < sizes[i] / 4; ++w) {
        const std::size_t at = offsets[i] + 4 * w;
        std::uint32_t a, b;
        std::memcpy(&a, &hin[at], 4);
        std::memcpy(&b, &hout[at], 4);
        REQUIRE(b == a + add);
        for (int j = 0; j < 4; ++j) covered[at + j] = true;
      }
    }
    for (std::size_t i = 0; i < total; ++i)
      if (!covered[i]) REQUIRE(hout[i] == cuprobe::poison_byte);  // nothing written outside
  }
}

// ---- generic global writes, then a bulk load of them in the same kernel ------------------

namespace {

// The threads st.global a pattern, fence (generic -> async proxy, global), synchronise; then a
// bulk load reads what they wrote and the threads compare it.
__global__ void global_fence_kernel(unsigned* scratch, unsigned words, unsigned* errors) {
  auto* buf = h::aligned_dynamic_smem<h::tma_alignment, unsigned>();
  __shared__ cuprobe::ptx::mbarrier::object bar;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) scratch[i] = i * 7u + 3u;
  p::fence_proxy_async<p::space::global>();
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, words * 4);
    bulk::load(buf, scratch, &bar, words * 4);
  }
  mb::wait(&bar, 0);
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
    if (buf[i] != i * 7u + 3u) atomicAdd(errors, 1u);
}

}  // namespace

CUPROBE_GPU_TEST_CASE(
    "fence_proxy_async<space::global> orders st.global before a bulk load of it") {
  const unsigned words = 8192;
  cuprobe::device_buffer<unsigned> scratch(words), errors(1);
  scratch.poison();
  errors.zero();
  global_fence_kernel<<<1, 256, h::dynamic_smem_bytes<h::tma_alignment>(words * 4)>>>(
      scratch.data(), words, errors.data());
  CUPROBE_CHECK_LAUNCH("global_fence_kernel");
  CUPROBE_CHECK(cudaDeviceSynchronize());
  CHECK(errors.to_host()[0] == 0u);
}

// ---- bulk groups: wait_group<N> and wait_group_read<N> ------------------------------------

namespace {

constexpr unsigned group_words = 1024;  // 4 KiB per group, 4 groups

__device__ unsigned pattern(unsigned w) { return w * 2654435761u + 12345u; }

// Four stores in four groups. After wait_group<3 - g> group g (the oldest pending ones complete
// first) must be visible to the issuing thread: it reads it back. wait_group_read<0> lets the
// threads overwrite the shared buffer, which must not change what reaches global memory.
__global__ void groups_kernel(unsigned* out, unsigned* seen) {
  __shared__ alignas(128) unsigned buf[4 * group_words];
  for (unsigned w = threadIdx.x; w < 4 * group_words; w += blockDim.x) buf[w] = pattern(w);
  p::fence_proxy_async<p::space::shared>();
  __syncthreads();
  if (threadIdx.x == 0) {
    for (unsigned g = 0; g < 4; ++g) {
      bulk::store(out + g * group_words, buf + g * group_words, group_words * 4);
      bulk::commit_group();
    }
    bulk::wait_group_read<0>();
  }
  __syncthreads();
  for (unsigned w = threadIdx.x; w < 4 * group_words; w += blockDim.x) buf[w] = ~pattern(w);
  __syncthreads();
  if (threadIdx.x == 0) {
    const volatile unsigned* v = out;
    bulk::wait_group<3>();
    for (unsigned w = 0; w < group_words; ++w) seen[w] = v[w];
    bulk::wait_group<2>();
    for (unsigned w = group_words; w < 2 * group_words; ++w) seen[w] = v[w];
    bulk::wait_group<1>();
    for (unsigned w = 2 * group_words; w < 3 * group_words; ++w) seen[w] = v[w];
    bulk::wait_group<0>();
    for (unsigned w = 3 * group_words; w < 4 * group_words; ++w) seen[w] = v[w];
  }
}

unsigned host_pattern(unsigned w) { return w * 2654435761u + 12345u; }

}  // namespace

CUPROBE_GPU_TEST_CASE(
    "bulk groups: wait_group<N> completes the oldest groups, .read frees sources") {
  cuprobe::device_buffer<unsigned> out(4 * group_words), seen(4 * group_words);
  out.poison();
  seen.poison();
  groups_kernel<<<1, 128>>>(out.data(), seen.data());
  CUPROBE_CHECK_LAUNCH("groups_kernel");
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto o = out.to_host(), s = seen.to_host();
  for (unsigned w = 0; w < 4 * group_words; ++w) {
    REQUIRE(o[w] == host_pattern(w));
    REQUIRE(s[w] == host_pattern(w));
  }
}

// ---- elect.sync and setmaxnreg -----------------------------------------------------------

namespace {

// Warp 0 elects over the full warp; in warp 1 the lanes with lane % 3 == 0 elect among
// themselves (twice: the choice must be the same). out[2 * t] = leader lane, out[2 * t + 1] =
// is_leader, for each thread t that took part; 0xffffffff elsewhere (poison).
__global__ void elect_kernel(unsigned* out) {
  const unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  unsigned mask = 0xffffffffu;
  if (warp == 1) {
    mask = 0;
    for (unsigned l = 0; l < 32; l += 3) mask |= 1u << l;
    if (lane % 3 != 0) return;
  }
  const p::elect_result a = p::elect_sync(mask);
  const p::elect_result b = p::elect_sync(mask);
  out[2 * threadIdx.x] =
      a.leader_lane == b.leader_lane && a.is_leader == b.is_leader ? a.leader_lane : 0xeeeeeeeeu;
  out[2 * threadIdx.x + 1] = a.is_leader ? 1u : 0u;
  if (warp == 0 && p::elect_one_sync()) atomicAdd(&out[128], 1u);
}

// Warpgroup 0 gives registers back, warpgroups 1 and 2 take them; every thread then computes a
// value that the host checks.
__global__ void __launch_bounds__(384, 1) maxnreg_kernel(unsigned* out) {
  const unsigned wg = threadIdx.x / 128;
  if (wg == 0)
    p::setmaxnreg_dec<40>();
  else
    p::setmaxnreg_inc<232>();
  out[threadIdx.x] = threadIdx.x * 3u + wg;
}

}  // namespace

CUPROBE_GPU_TEST_CASE("elect_sync elects exactly one lane, the same every time, inside the mask") {
  cuprobe::device_buffer<unsigned> out(129);
  out.poison();
  CUPROBE_CHECK(cudaMemset(out.data() + 128, 0, 4));
  elect_kernel<<<1, 64>>>(out.data());
  CUPROBE_CHECK_LAUNCH("elect_kernel");
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto o = out.to_host();
  for (unsigned warp = 0; warp < 2; ++warp) {
    CAPTURE(warp);
    unsigned leaders = 0, leader_lane = 0xffffffffu;
    for (unsigned lane = 0; lane < 32; ++lane) {
      const bool in_mask = warp == 0 || lane % 3 == 0;
      const unsigned t = warp * 32 + lane;
      if (!in_mask) {
        CHECK(cuprobe::device_buffer<unsigned>::is_poison(o[2 * t]));
        continue;
      }
      if (leader_lane == 0xffffffffu) leader_lane = o[2 * t];
      CHECK(o[2 * t] == leader_lane);  // every lane sees the same leader, both times
      leaders += o[2 * t + 1];
      if (o[2 * t + 1]) CHECK(lane == leader_lane);
    }
    CHECK(leaders == 1u);
    CHECK(leader_lane < 32u);
    if (warp == 1) CHECK(leader_lane % 3 == 0u);
  }
  CHECK(o[128] == 1u);
}

CUPROBE_GPU_TEST_CASE("setmaxnreg moves registers between warpgroups and the kernel still runs") {
  cudaFuncAttributes a{};
  CUPROBE_CHECK(cudaFuncGetAttributes(&a, maxnreg_kernel));
  MESSAGE("maxnreg_kernel: " << a.numRegs << " registers at entry");
  CHECK(a.numRegs * 384 <= 65536);
  cuprobe::device_buffer<unsigned> out(384);
  out.poison();
  maxnreg_kernel<<<1, 384>>>(out.data());
  CUPROBE_CHECK_LAUNCH("maxnreg_kernel");
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto o = out.to_host();
  for (unsigned t = 0; t < 384; ++t) REQUIRE(o[t] == t * 3u + t / 128);
}
