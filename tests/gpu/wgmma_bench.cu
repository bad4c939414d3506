// gpu tier: cuprobe_suite/wgmma.cuh on an sm_90 GPU: bf16 m64n256k16 SS throughput over every SM
// reaches 80 % of the tensor-core peak at the clock measured in the kernel (a timing check,
// skipped visibly under compute-sanitizer), one block per SM, clocks and NVML on record; random
// operands give the fp64 reference's D in every warpgroup (SS, RS, sparse, tf32, fp8; 1 and 2
// warpgroups per SM); the latency chain is finite, positive and not below what one MMA needs
// at the peak rate.
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe_suite/wgmma.cuh>

#include <cmath>
#include <string>

namespace ex = cuprobe::suite;
namespace kernels = cuprobe::suite::kernels;
namespace wg = cuprobe::ptx::wgmma;

namespace {
bool sm90(const cuprobe::device_info& dev) {
  if (dev.sm() == 90) return true;
  MESSAGE("skipped: " << dev.name << " (sm_" << dev.sm() << ") has no wgmma (sm_90 only)");
  return false;
}
ex::wgmma_throughput_options short_run(bool random, unsigned warpgroups = 1) {
  const bool san = cuprobe::testing::under_sanitizer();
  ex::wgmma_throughput_options o;
  o.random = random;
  o.warpgroups = warpgroups;
  o.target_ms = san ? 0.05 : 7;
  o.run = cuprobe::run_options::fixed(1, san ? 1 : 5);
  return o;
}
template <class C>
ex::wgmma_throughput_result checked(const cuprobe::device_info& dev,
                                    const ex::wgmma_throughput_options& o) {
  auto r = ex::wgmma_throughput<C>(dev, o);
  INFO(r.config, ", ", r.warpgroups, " warpgroup(s), ", o.random ? "random" : "zero", ": ",
       r.check.message);
  CHECK(r.check.ok);
  CHECK(r.check.d.ok);
  CHECK(r.check.sums_agree);
  CHECK(r.check.one_block_per_sm);
  CHECK(r.clock.blocks == unsigned(dev.sm_count));
  CHECK(r.m.samples.size() == o.run.stop.max_samples);
  return r;
}
}  // namespace

CUPROBE_GPU_TEST_CASE("wgmma bf16 m64n256k16 SS: >= 80 % of peak at the in-kernel clock") {
  const auto dev = cuprobe::device_info::query();
  if (!sm90(dev)) return;
  for (unsigned w : {1u, 2u}) {
    const auto r = checked<kernels::wgmma_bench<wg::bf16, 256>>(dev, short_run(false, w));
    MESSAGE(r.config << ", " << w << " warpgroup(s)/SM, " << r.in_flight << ": " << r.tflops
                     << " TFLOP/s in " << r.run_ms << " ms launches, in-kernel clock "
                     << r.clock.median_mhz << " MHz (" << r.clock.min_mhz << " .. "
                     << r.clock.max_mhz << "), NVML " << r.nvml_clock_mhz.value_or(-1) << " MHz, "
                     << r.flop_per_clk_per_sm
                     << " FLOP/clk/SM = " << 100 * r.fraction_of_peak.value_or(0)
                     << " % of peak; loop alone " << r.loop_flop_per_clk_per_sm << " FLOP/clk/SM");
    CHECK(r.check.zero_is_zero);
    REQUIRE(r.fraction_of_peak);
    CHECK(r.peak_flop_per_clk == 4096);
    CHECK(r.clock.median_mhz > 200);
    CHECK(r.clock.median_mhz < 4000);
    CHECK(std::isfinite(r.tflops));
    CHECK(r.tflops > 0);
    CHECK(r.m.params.at("clock_mhz").as_number() == r.clock.median_mhz);
    CUPROBE_TIMING_CHECK(*r.fraction_of_peak >= 0.80);
    CUPROBE_TIMING_CHECK(*r.fraction_of_peak <= 1.01);
    CUPROBE_TIMING_CHECK(r.run_ms >= 5);  // ~7 ms asked for, longer below the peak clock
    CUPROBE_TIMING_CHECK(std::fabs(r.clock.span_ns / 1e6 - r.run_ms) < 0.05 * r.run_ms);
  }
}

CUPROBE_GPU_TEST_CASE("wgmma random operands: every warpgroup's D is the fp64 reference's") {
  const auto dev = cuprobe::device_info::query();
  if (!sm90(dev)) return;
  checked<kernels::wgmma_bench<wg::bf16, 256>>(dev, short_run(true, 2));
  checked<kernels::wgmma_bench<wg::bf16, 256, true>>(dev, short_run(true, 2));
  checked<kernels::wgmma_bench<wg::bf16, 256, false, true>>(dev, short_run(true));
  checked<kernels::wgmma_bench<wg::tf32, 64>>(dev, short_run(true, 3));
  checked<kernels::wgmma_bench<wg::e4m3, 128, false, false, 4, kernels::wgmma_no_wait>>(
      dev, short_run(true));
  auto o = short_run(true);
  o.validate_iterations = 64;  // a longer chain: 256 K blocks
  checked<kernels::wgmma_bench<wg::bf16, 256>>(dev, o);
}

CUPROBE_GPU_TEST_CASE("wgmma latency: finite, positive, not below one MMA at the peak rate") {
  const auto dev = cuprobe::device_info::query();
  if (!sm90(dev)) return;
  ex::wgmma_latency_options o;
  if (cuprobe::testing::under_sanitizer()) o.iterations = 8;
  o.random = true;
  const auto l = ex::wgmma_latency<wg::bf16, 256>(dev, o);
  INFO(l.check.message);
  CHECK(l.check.ok);
  CHECK(std::isfinite(l.cycles));
  CHECK(l.cycles > 0);
  MESSAGE(l.config << ": " << l.cycles << " cycles per MMA (min " << l.m.stats.min << ", max "
                   << l.m.stats.max << ")");
  // m64n256k16 is 524288 FLOP: 128 cycles at 4096 FLOP/clk/SM; a dependent MMA takes longer.
  CUPROBE_TIMING_CHECK(l.cycles >= 128);
  CUPROBE_TIMING_CHECK(l.cycles < 10000);
  const auto s = ex::wgmma_latency<wg::bf16, 64>(dev, o);
  CHECK(s.check.ok);
  CUPROBE_TIMING_CHECK(s.cycles >= 32);
  CUPROBE_TIMING_CHECK(s.cycles <= l.cycles);
}
