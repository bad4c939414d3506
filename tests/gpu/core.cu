// gpu tier: core/ (device_info, device_buffer, rotation sets, the run-on-device harness)
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/cuprobe.cuh>

#include <cstdint>

CUPROBE_GPU_TEST_CASE("device_info reads a plausible device") {
  const auto d = cuprobe::device_info::query();
  CHECK(!d.name.empty());
  CHECK(d.cc_major >= 7);
  CHECK(d.sm_count > 0);
  CHECK(d.l2_bytes > 0);
  CHECK(d.smem_per_block_optin >= d.smem_per_block);
  CHECK(d.global_mem_bytes > (1ull << 30));
  CHECK(d.memory_bus_width_bits > 0);
  CHECK(d.memory_clock_khz > 0);
  CHECK(d.driver_version >= d.runtime_version / 1000 * 1000);
  CHECK(d.uuid.rfind("GPU-", 0) == 0);
  CHECK(d.uuid.size() == 40);
  CHECK(cuprobe::arch::check_kernel_image() == d.sm());
}

CUPROBE_GPU_TEST_CASE("device_buffer: vector types fill lane by lane, like the host twin") {
  cuprobe::device_buffer<float4> b(1000);
  b.fill_random(1, 0.f, 1.f);  // the README's five lines
  const auto h = b.to_host();
  for (std::size_t i = 0; i < h.size(); ++i) {
    const float4 want = cuprobe::host_random_lanes<float4>(1, i, 0.f, 1.f);
    REQUIRE(h[i].x == want.x);
    REQUIRE(h[i].w == want.w);
    REQUIRE(h[i].x >= 0.f);
    REQUIRE(h[i].y < 1.f);
  }
  cuprobe::device_buffer<uint4> u(100);
  u.fill_random(2, 5u, 9u);
  for (const auto& v : u.to_host()) REQUIRE((v.x >= 5u && v.z <= 9u));
}

CUPROBE_GPU_TEST_CASE("device_buffer: overflowing sizes and impossible allocations say so") {
  CHECK_THROWS_WITH_AS(cuprobe::device_buffer<float4>((std::size_t(1) << 60) + 1),
                       doctest::Contains("overflow the size of an allocation"), cuprobe::error);
  // 200 TiB: the message names the size asked for and the free memory.
  bool thrown = false;
  try {
    cuprobe::device_buffer<char> huge(std::size_t(200) << 40);
  } catch (const cuprobe::error& e) {
    const std::string m = e.what();
    CHECK(m.find("cudaMalloc of 204800.00 GiB") != std::string::npos);
    CHECK(m.find("free of") != std::string::npos);
    thrown = true;
  }
  CHECK(thrown);
}

CUPROBE_GPU_TEST_CASE("device_buffer: poison, fill, random fill and copies") {
  cuprobe::device_buffer<std::uint32_t> b(100003);  // not a multiple of any block size
  b.poison();
  for (auto v : b.to_host()) REQUIRE(cuprobe::device_buffer<std::uint32_t>::is_poison(v));
  b.fill(7u);
  for (auto v : b.to_host()) REQUIRE(v == 7u);
  b.fill_random(99, 10u, 20u);
  const auto h = b.to_host();
  for (std::size_t i = 0; i < h.size(); ++i)
    REQUIRE(h[i] == cuprobe::host_random<std::uint32_t>(99, i, 10u, 20u));
  std::vector<std::uint32_t> up(h.size(), 3u);
  b.upload(up);
  CHECK(b.to_host() == up);
  CHECK_THROWS_AS(b.upload(std::vector<std::uint32_t>(5)), cuprobe::error);

  cuprobe::device_buffer<double> d(4097);
  d.fill_random(5, -1.0, 1.0);
  const auto hd = d.to_host();
  for (std::size_t i = 0; i < hd.size(); ++i)
    REQUIRE(hd[i] == cuprobe::host_random<double>(5, i, -1.0, 1.0));  // bit-identical
}

namespace {
// One thread spins `cycles` SM cycles, then writes v to *p (late_write) or copies *in to *out.
__global__ void late_write(unsigned* p, unsigned v, long long cycles) {
  for (const long long t0 = clock64(); clock64() - t0 < cycles;) {
  }
  *p = v;
}
__global__ void late_copy(const unsigned* in, unsigned* out, long long cycles) {
  for (const long long t0 = clock64(); clock64() - t0 < cycles;) {
  }
  *out = *in;
}
}  // namespace

CUPROBE_GPU_TEST_CASE("device_buffer: to_host(stream) and upload(h, stream) wait for that stream") {
  cuprobe::cuda_stream s;  // non-blocking, like the runner's: the legacy stream does not wait
  cuprobe::device_buffer<unsigned> b(1), out(1);
  b.upload({1u});
  const long long spin = 20'000'000;  // about 10 ms at 2 GHz
  late_write<<<1, 1, 0, s>>>(b.data(), 2u, spin);
  CUPROBE_CHECK_LAUNCH("late_write");
  CHECK(b.to_host(s)[0] == 2u);  // the value written after the spin
  late_copy<<<1, 1, 0, s>>>(b.data(), out.data(), spin);
  CUPROBE_CHECK_LAUNCH("late_copy");
  b.upload({3u}, s);  // after late_copy read the 2
  CHECK(out.to_host(s)[0] == 2u);
  CHECK(b.to_host()[0] == 3u);
}

CUPROBE_GPU_TEST_CASE("device_buffer moves own their memory once") {
  cuprobe::device_buffer<int> a(16);
  int* p = a.data();
  cuprobe::device_buffer<int> b(std::move(a));
  CHECK(b.data() == p);
  CHECK(a.data() == nullptr);
  CHECK(a.size() == 0);
  cuprobe::device_buffer<int> c;
  c = std::move(b);
  CHECK(c.data() == p);
  CHECK(c.size() == 16);
}

CUPROBE_GPU_TEST_CASE("rotation_set covers the requested bytes and cycles") {
  auto r = cuprobe::rotation_set<float>::covering(1 << 20, 10u << 20);  // 4 MiB sets, >= 10 MiB
  CHECK(r.size() == 3);
  CHECK(r.total_bytes() >= (10u << 20));
  float* first = r.next().data();
  r.next();
  r.next();
  CHECK(r.next().data() == first);
  CHECK(r[0].data() == first);
  r.fill_random(1, 0.f, 1.f);
  CHECK(r[1].to_host()[10] == cuprobe::host_random<float>(2, 10, 0.f, 1.f));
}

CUPROBE_GPU_TEST_CASE("run_on_device returns one thread's result and every thread's") {
  const int r = cuprobe::testing::run_on_device<int>([] __device__ { return 6 * 7; });
  CHECK(r == 42);
  cuprobe::launch_shape s{dim3(3), dim3(64), 0};
  const auto v = cuprobe::testing::run_on_device<unsigned long long>(
      s, [] __device__(unsigned long long i) { return i * i; });
  REQUIRE(v.size() == 192);
  for (unsigned long long i = 0; i < v.size(); ++i) REQUIRE(v[i] == i * i);
}

CUPROBE_GPU_TEST_CASE("kernel_attributes reports registers and occupancy") {
  auto a = cuprobe::kernel_attributes::of(cuprobe::detail::fill_kernel<float>, 256);
  CHECK(a.registers > 0);
  CHECK(a.max_active_blocks_per_sm >= 1);
  CHECK(a.occupancy > 0.0);
  CHECK(a.occupancy <= 1.0);
  CHECK(a.binary_version >= 70);
}
