// teach_wgmma_peak: a tensor-core peak kernel written with cuprobe's wgmma blocks, timed by the
// runner. It includes installed headers only: copy it into your own project.
//   build/hopper/examples/teach_wgmma_peak --json teach_wgmma_peak.json   (--quick: 5 samples)
// One block per SM (shared memory above half an SM's), two warpgroups with a 64 x 256 f32
// accumulator each. A (64 x 64 bf16) and B (256 x 64) sit in shared memory in the canonical
// K-major layout, 128-byte swizzle; each loop trip issues m64n256k16 on the four K steps, commits
// them as one group, then wait_group<1>. Fraction of peak = FLOP per SM cycle (%clock64 of the
// same launch) / model::peak's 4096. Validation: one trip on small integers, exact against the
// host; the timed launches (zero operands: the peak without the power of random data) must leave
// every accumulator zero. Each timed launch runs ~7 ms after 100 ms of idle GPU (rest_ms), so
// every sample starts on a rested card (docs/wgmma.md, "rested samples").
#include <cuprobe/cuprobe.cuh>

#include <cuda_bf16.h>
#include <cstdio>

namespace wg = cuprobe::ptx::wgmma;
namespace ptx = cuprobe::ptx;

namespace {

constexpr int warpgroups = 2, n = 256, k = 64;  // K: four k16 steps resident in shared memory
constexpr double flop_per_mma = 2.0 * 64 * n * 16;
// The validation operands A(r, j) and B(c, j): small integers, exact in bf16 and in f32 sums.
__host__ __device__ constexpr int a_of(int r, int j) { return (3 * r + j) % 5 - 2; }
__host__ __device__ constexpr int b_of(int c, int j) { return (c + 2 * j) % 3 - 1; }

__global__ void __launch_bounds__(128 * warpgroups, 1)
    wgmma_peak(int scale, long long trips, float* d, unsigned* nonzero, unsigned long long* clk) {
  constexpr auto la = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, k);
  constexpr auto lb = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, n, k);
  const unsigned long long c0 = ptx::clock64(), t0 = ptx::globaltimer();  // every thread: no
  extern __shared__ unsigned char raw[];  // branch before the .sync.aligned instructions
  const std::uint32_t pad = (1024 - ptx::smem_address(raw) % 1024) % 1024;  // swizzle atoms
  unsigned char *sa = raw + pad, *sb = sa + la.size_bytes();  // B: 1024-byte aligned too
  const auto put = [](unsigned char* p, int v) { *reinterpret_cast<__nv_bfloat16*>(p) = v; };
  for (int i = threadIdx.x; i < n * k; i += blockDim.x) {  // scale 0: zero operands
    if (i < 64 * k) put(sa + la.swizzled_offset(i / k, i % k), scale * a_of(i / k, i % k));
    put(sb + lb.swizzled_offset(i / k, i % k), scale * b_of(i / k, i % k));
  }
  ptx::fence_proxy_async<ptx::space::shared>();  // the generic stores -> the async proxy (wgmma)
  __syncthreads();
  // One stage of each operand: the descriptors of its four K steps, made before the loop.
  const auto a = wg::smem_operand::of(la, ptx::smem_address(sa), la.size_bytes());
  const auto b = wg::smem_operand::of(lb, ptx::smem_address(sb), lb.size_bytes());
  std::uint64_t da[4], db[4];
#pragma unroll
  for (int s = 0; s < 4; ++s) da[s] = a.at(0, 0, 16 * s), db[s] = b.at(0, 0, 16 * s);
  wg::accumulator<wg::f32, n> acc{};  // zero
  for (long long it = 0; it < trips; ++it) {
    wg::fence_operand(acc);
    wg::fence();
#pragma unroll
    for (int s = 0; s < 4; ++s)
      wg::mma_async<wg::bf16, wg::bf16>(acc, da[s], db[s], wg::accumulate::add);
    wg::commit_group();
    wg::wait_group<1>();  // at most 2 groups (8 MMAs) in flight per warpgroup
  }
  wg::wait_group<0>();
  wg::fence_operand(acc);
  __syncthreads();
  if (threadIdx.x == 0)  // this block's cycles and nanoseconds
    clk[2 * blockIdx.x] = ptx::clock64() - c0, clk[2 * blockIdx.x + 1] = ptx::globaltimer() - t0;
  const wg::coord q = wg::accumulator_coord(threadIdx.x % 128, 0);
  float* dw = d + (threadIdx.x / 128) * 64 * n + q.row * n + q.col;
  unsigned nz = 0;
#pragma unroll
  for (int e = 0; e < acc.elements; ++e) {  // the accumulator is used: checked, block 0 stored
    nz += acc.reg[e] != 0.f;
    if (blockIdx.x == 0)
      dw[wg::accumulator_coord(0, e).row * n + wg::accumulator_coord(0, e).col] = acc.reg[e];
  }
  if (nz) atomicAdd(nonzero, nz);
}
}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(argc, argv, "teach_wgmma_peak: a wgmma peak kernel");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const double peak = cuprobe::model::tensor_peak<wg::bf16>(dev.sm()).flop_per_clock();
    const double target_ms = cli.small ? 0.2 : 7;  // the length of one timed launch
    const long long trips = std::max(  // for target_ms at the peak: 4 MMAs x 2 warpgroups/trip
        1ll, (long long)(target_ms * dev.sm_clock_khz * peak / flop_per_mma / 8));
    const std::size_t smem = std::max<std::size_t>(42 << 10, dev.smem_per_sm / 2 + 1);  // 1/SM
    CUPROBE_CHECK(
        cudaFuncSetAttribute(wgmma_peak, cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
    const unsigned grid = unsigned(dev.sm_count), block = 128 * warpgroups;
    cuprobe::device_buffer<float> d(warpgroups * 64 * n);
    cuprobe::device_buffer<unsigned> nonzero(1);
    cuprobe::device_buffer<unsigned long long> clk(2 * grid);
    d.poison(), nonzero.zero();  // validation: one trip, D = A B^T over K = 64, exact in f32
    wgmma_peak<<<grid, block, smem>>>(1, 1, d.data(), nonzero.data(), clk.data());
    CUPROBE_CHECK_LAUNCH("wgmma_peak");
    const std::vector<float> hd = d.to_host();
    int wrong = 0;
    for (int i = 0; i < warpgroups * 64 * n; ++i) {
      int ref = 0;  // D(r, c) = sum over j of A(r, j) B(c, j)
      for (int j = 0; j < k; ++j) ref += a_of(i / n % 64, j) * b_of(i % n, j);
      wrong += hd[i] != float(ref);
    }
    cuprobe::run_options o = cli.run_options();
    o.warmup = cli.small ? 1 : 2;
    o.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));
    o.rest_ms = cli.small ? 0 : 100;  // idle GPU before each sample: every sample on a rested card
    nonzero.zero();
    const double mmas = double(grid) * warpgroups * trips * 4;
    auto mine = cuprobe::measure(
        "teach.wgmma_peak",
        [&](cudaStream_t s) {
          wgmma_peak<<<grid, block, smem, s>>>(0, trips, d.data(), nonzero.data(), clk.data());
        },
        cuprobe::work::flop_count(mmas * flop_per_mma, mmas, "2 x 64 x 256 x 16 FLOP per MMA"), o);
    const unsigned nz = nonzero.to_host()[0];
    std::vector<double> mhz, cycles;  // of the last launch, block by block
    const auto h = clk.to_host();
    for (unsigned i = 0; i < grid; ++i)
      cycles.push_back(double(h[2 * i])), mhz.push_back(1e3 * h[2 * i] / double(h[2 * i + 1]));
    const double fraction = mmas * flop_per_mma / grid / cuprobe::median(cycles) / peak;
    const bool ok = wrong == 0 && nz == 0;
    mine.with_kernel(cuprobe::kernel_attributes::of(wgmma_peak, int(block), smem))
        .with_param("fraction_of_peak", fraction)
        .with_param("clock_mhz", cuprobe::median(mhz))
        .with_param("target_ms", target_ms)
        .with_param("valid", ok);
    std::printf(
        "bf16 m64n256k16 SS on %s, %d warpgroups/SM, peak %.0f FLOP/clk/SM (model::peak):\n"
        "  %.1f TFLOP/s, %.1f %% of peak at the in-kernel clock %.0f MHz\n"
        "  validation: %d wrong elements of D, %u non-zero accumulators: %s\n",
        dev.name.c_str(), warpgroups, peak, mine.tflop_per_s(), 100 * fraction,
        cuprobe::median(mhz), wrong, nz, ok ? "ok" : "FAILED");
    cuprobe::results res(argc, argv);
    cuprobe::json& x = res.extra("teach_wgmma_peak");
    x["tflop_per_s"] = mine.tflop_per_s(), x["fraction_of_peak"] = fraction, x["valid"] = ok;
    res.add(std::move(mine));
    res.print_ceilings();
    res.write(cli);
    return ok ? 0 : 1;
  });
}
