// gpu tier: gen/chain.cuh with every operation of gen/ops.cuh and the user example dp4a_s32.
// Each test launches the latency kernel (1 chain) and the throughput kernel (8 chains), the
// shapes tests/sass/compute_ops.cu checks in SASS, with fresh random inputs and poisoned
// outputs, and compares every result with the host reference; the recorded cycles must be
// plausible (1 to 1000 cycles per dependent step).
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/gen/chain.cuh>

#include <cstdint>
#include <string>

#include "../sass/compute_user_op.cu"  // dp4a_s32

namespace g = cuprobe::gen;

namespace {

constexpr int unroll = 8;

template <class Op, int Chains, int Unroll = unroll>
void run_and_validate(unsigned grid, unsigned block, int iterations, std::uint64_t seed,
                      bool timed = true) {
  using T = typename Op::value_type;
  const unsigned long long threads = 1ull * grid * block;
  const auto in = g::make_chain_inputs<Op>(threads, Chains, seed);
  cuprobe::device_buffer<T> init(in.init.size()), out(in.init.size());
  init.upload(in.init);
  out.poison();
  cuprobe::device_buffer<unsigned long long> cycles(grid);
  cycles.poison();
  const g::chain_args<T> args{init.data(), out.data(), in.b,
                              in.c,        iterations, timed ? cycles.data() : nullptr};
  g::launch_chain<Op, Chains, Unroll>(grid, block, args);
  CUPROBE_CHECK(cudaDeviceSynchronize());

  const auto steps = g::chain_steps(iterations, Unroll);
  const auto check = g::validate_chains<Op>(in, out.to_host(), steps, block);
  INFO(Op::name << ", " << Chains << " chain(s): " << check.message);
  CHECK(check.ok);
  CHECK(check.checked == in.init.size());

  for (unsigned long long c : cycles.to_host()) {
    if (!timed) {
      CHECK(cuprobe::device_buffer<unsigned long long>::is_poison(c));  // nothing was written
      continue;
    }
    const double per_step = g::cycles_per_step(c, iterations, Unroll);
    INFO(Op::name << ", " << Chains << " chain(s): " << per_step << " cycles per step");
    CUPROBE_TIMING_CHECK(per_step >= 1.0);
    CUPROBE_TIMING_CHECK(per_step <= 1000.0);
  }
}

// Latency shape (1 chain, 2 blocks of 64) and throughput shape (8 chains, 4 blocks of 128).
template <class Op>
void latency_and_throughput(std::uint64_t seed) {
  run_and_validate<Op, 1>(2, 64, 40, seed);
  run_and_validate<Op, 8>(4, 128, 20, seed + 1);
}

}  // namespace

// One test case per operation (doctest lists them as "...<type>"); the messages name Op::name.
TEST_CASE_TEMPLATE("latency and throughput chains match the host reference" *
                       doctest::test_suite(cuprobe::testing::gpu_suite),
                   Op, g::ops::fma_f32, g::ops::add_f32, g::ops::mul_f32, g::ops::hfma2_f16,
                   g::ops::hfma2_bf16, g::ops::fma_f64, g::ops::imad_u32, g::ops::iadd3_u32,
                   g::ops::lop3_b32, g::ops::rsqrt_f32, g::ops::shfl_idx, dp4a_s32) {
  latency_and_throughput<Op>(cuprobe::detail::mix64(std::string(Op::name).size()));
}

CUPROBE_GPU_TEST_CASE("rsqrt chains are validated before they converge to 1") {
  // At the fixed point 1, x^(-1/2) and x^(1/2) look alike: three steps, before the chain
  // converges, tell them apart (the sign of log x flips at every step).
  run_and_validate<g::ops::rsqrt_f32, 1, 1>(1, 64, 3, 113);
}

CUPROBE_GPU_TEST_CASE("two launches give the FFMA latency without the fixed costs") {
  using op = g::ops::fma_f32;
  const auto in = g::make_chain_inputs<op>(32, 1, 400);
  cuprobe::device_buffer<float> init(32), out(32);
  init.upload(in.init);
  cuprobe::device_buffer<unsigned long long> cycles(1);
  auto run = [&](int iterations) {
    cycles.poison();
    g::launch_chain<op, 1, unroll>(
        1, 32, {init.data(), out.data(), in.b, in.c, iterations, cycles.data()});
    CUPROBE_CHECK(cudaDeviceSynchronize());
    return cycles.to_host()[0];
  };
  run(100);  // warm-up: instruction cache, TLB, the first touch of init
  const unsigned long long short_run = run(100), long_run = run(1100);
  CUPROBE_TIMING_CHECK(long_run > short_run);
  const double latency = g::cycles_per_step_difference(short_run, 100, long_run, 1100, unroll);
  INFO("FFMA: " << latency << " cycles per dependent step");
  CUPROBE_TIMING_CHECK(latency >= 1.0);
  CUPROBE_TIMING_CHECK(latency <= 1000.0);
}

CUPROBE_GPU_TEST_CASE("dispatch_chains sweeps chain counts; a null cycles pointer is not written") {
  for (int chains : {1, 2, 4}) {
    g::dispatch_chains<1, 2, 4>(chains, [&](auto c) {
      run_and_validate<g::ops::fma_f32, decltype(c)::value>(3, 96, 5, 200 + chains);
    });
  }
  run_and_validate<g::ops::fma_f32, 2>(2, 32, 3, 300, /*timed=*/false);
}
