// host tier: the WGMMA benchmark's host side: the tensor-core peak table (model/peak.cuh), the
// configuration traits, loop trips, shared-memory sizing, operand tiles and the analysis of the
// block records (cuprobe_suite/kernels/wgmma.cuh), the codecs, reference and comparison
// (cuprobe_suite/kernels/wgmma_check.cuh), and the options every experiment refuses with a sentence
// (cuprobe_suite/wgmma*.cuh), all without a GPU.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe_suite/wgmma_suite.cuh>

#include <cmath>
#include <string>
#include <vector>

#include "h200_like.cuh"

namespace kernels = cuprobe::suite::kernels;
namespace ex = cuprobe::suite;
namespace wg = cuprobe::ptx::wgmma;
namespace m = cuprobe::model;

TEST_CASE(
    "tensor peaks: 4096 dense bf16/f16, 2048 tf32, 8192 fp8 FLOP/clk/SM on sm_90, x2 sparse") {
  CHECK(m::find_tensor_peak(90, "bf16")->dense_flop_per_clock == 4096);
  CHECK(m::find_tensor_peak(90, "f16")->dense_flop_per_clock == 4096);
  CHECK(m::find_tensor_peak(90, "tf32")->dense_flop_per_clock == 2048);
  CHECK(m::find_tensor_peak(90, "e4m3")->dense_flop_per_clock == 8192);
  CHECK(m::find_tensor_peak(90, "e5m2")->flop_per_clock(m::sparsity::two_four) == 16384);
  CHECK(m::find_tensor_peak(90, "bf16")->flop_per_clock(m::sparsity::two_four) == 8192);
  CHECK_FALSE(m::find_tensor_peak(80, "bf16").has_value());
  CHECK_FALSE(m::find_tensor_peak(90, "s8").has_value());
  // The datasheet figure they come from: 132 SMs x 1.83 GHz x 4096 = 989.4 dense TFLOP/s.
  CHECK(m::peak_per_s(132, 4096, 1.83e9) == doctest::Approx(989.4e12).epsilon(1e-3));
  CHECK(m::peak_per_s(132, 2048, 1.83e9) == doctest::Approx(494.7e12).epsilon(1e-3));
  CHECK(m::peak_per_s(132, 8192, 1.83e9) == doctest::Approx(1978.9e12).epsilon(1e-3));
  for (const auto& e : m::tensor_peak_table) {
    CHECK(std::string(e.source).find("H100") != std::string::npos);
    CHECK(e.dense_flop_per_clock > 0);
  }
  const std::string d = m::describe(*m::find_tensor_peak(90, "bf16"), m::sparsity::two_four);
  CHECK(d.find("sm_90 bf16 tensor (wgmma, 2:4 sparse, twice the dense figure): 8192 FLOP/clk/SM") ==
        0);
  CHECK(d.find("989.4 TFLOPS") != std::string::npos);
}

TEST_CASE("tensor_peak<T>: typed by the wgmma type tag, FLOP/s at a given clock, refusal named") {
  CHECK(m::tensor_peak<wg::bf16>(90).dense_flop_per_clock == 4096);
  CHECK(m::tensor_peak<wg::tf32>(90).dense_flop_per_clock == 2048);
  CHECK(m::tensor_peak<wg::e4m3>(90).flop_per_clock() == 8192);
  CHECK(m::tensor_peak<wg::f16>(90).flop_per_clock(m::sparsity::two_four) == 8192);
  const auto bf16 = m::tensor_peak<wg::bf16>(90);
  CHECK(bf16.flop_per_s(132, 1.83e9) == doctest::Approx(989.4e12).epsilon(1e-3));
  CHECK(bf16.flop_per_s(132, 1.83e9, m::sparsity::two_four) ==
        doctest::Approx(1978.9e12).epsilon(1e-3));
  CHECK_THROWS_WITH_AS(
      m::tensor_peak<wg::bf16>(80),
      doctest::Contains("tensor_peak<bf16>: no published tensor-core figure for sm_80"),
      cuprobe::error);
  CHECK_THROWS_AS(bf16.flop_per_s(132, 0), cuprobe::error);
}

TEST_CASE("wgmma_bench traits: shape, K steps, FLOP per MMA, shared memory, launch bound") {
  using C = kernels::wgmma_bench<wg::bf16, 256>;
  CHECK(C::shape() == "m64n256k16");
  CHECK(C::name() == "bf16.m64n256k16.ss");
  CHECK(C::in_flight() == "4 MMAs per group, wait_group<1>");
  CHECK(C::flop_per_mma == 2.0 * 64 * 256 * 16);
  CHECK(C::unroll == 4);
  CHECK(C::k == 64);
  CHECK(C::ka == 64);
  CHECK(C::b_offset == 8192);                       // 64 x 64 bf16, a multiple of 1024
  CHECK(C::smem_bytes == 8192 + 256 * 128 + 1024);  // B: 256 rows x 128 bytes
  CHECK(C::max_warpgroups == 3);
  using S = kernels::wgmma_bench<wg::bf16, 256, false, true, 1, 0>;
  CHECK(S::name() == "bf16.m64n256k32.ss.sp");
  CHECK(S::in_flight() == "1 MMA per group, wait_group<0>");
  CHECK(S::k == 128);  // B: 4 steps x 32
  CHECK(S::ka == 64);  // A: 4 steps x 16 stored elements
  CHECK(S::flop_per_mma == 2.0 * 64 * 256 * 32);
  using R = kernels::wgmma_bench<wg::e4m3, 256, true, false, 8, kernels::wgmma_no_wait>;
  CHECK(R::name() == "e4m3.m64n256k32.rs");
  CHECK(R::in_flight() == "8 MMAs per group, no wait in the loop");
  CHECK(R::unroll == 8);
  CHECK(R::b_offset == 0);  // A in registers: no A tile
  CHECK(R::max_warpgroups == 2);
  CHECK(kernels::wgmma_bench<wg::tf32, 64>::shape() == "m64n64k8");
  CHECK(kernels::wgmma_bench<wg::tf32, 64>::k == 32);
  CHECK(kernels::wgmma_k_blocks<C>(10) == 10);
  CHECK(kernels::wgmma_k_blocks<R>(10) == 20);
}

TEST_CASE("wgmma_iterations: loop trips for a launch length at the peak and a clock") {
  // 7 ms at 1980 MHz is 13.86 M cycles; m64n256k16 (524288 FLOP) at 4096 FLOP/clk/SM takes 128:
  // 108,281 MMAs per SM, 4 per trip, one warpgroup: 27070 trips; two share the SM: half each.
  CHECK(kernels::wgmma_iterations(7, 1980, 4096, 524288, 4, 1) == 27070);
  CHECK(kernels::wgmma_iterations(7, 1980, 4096, 524288, 4, 2) == 13535);
  CHECK(kernels::wgmma_iterations(0.0001, 1980, 4096, 524288, 4, 3) == 1);  // at least one
  CHECK_THROWS_WITH_AS(kernels::wgmma_iterations(7, 0, 4096, 524288, 4, 1),
                       doctest::Contains("every argument must be positive"), cuprobe::error);
}

TEST_CASE("one block per SM: more than half the SM's shared memory, refused above the opt-in") {
  const auto d = cuprobe_test::h200_like();
  const std::size_t s = kernels::wgmma_one_block_per_sm_smem(d, 42 * 1024);
  CHECK(s > d.smem_per_sm / 2);
  CHECK(s % 1024 == 0);
  CHECK(2 * s > d.smem_per_sm);
  CHECK(kernels::wgmma_one_block_per_sm_smem(d, 200 * 1024) == 200 * 1024);
  CHECK_THROWS_WITH_AS(kernels::wgmma_one_block_per_sm_smem(d, 300 * 1024),
                       doctest::Contains("bytes a block may opt in to"), cuprobe::error);
}

TEST_CASE("analyse_wgmma_records: in-kernel clock, span, loop cycles, SMs; refuses disorder") {
  std::vector<kernels::wgmma_block_record> r = {
      {1000, 1000 + 19800000, 5000, 5000 + 10000000, 2000, 3, 1},  // 1980 MHz
      {0, 18000000, 6000, 6000 + 10000000, 1000, 7, 1},            // 1800 MHz
      {0, 19000000, 4000, 4000 + 10000000, 1000, 7, 1}};           // 1900 MHz, same SM as #2
  const auto c = kernels::analyse_wgmma_records(r);
  CHECK(c.median_mhz == doctest::Approx(1900));
  CHECK(c.min_mhz == doctest::Approx(1800));
  CHECK(c.max_mhz == doctest::Approx(1980));
  CHECK(c.span_ns == doctest::Approx(10002000));  // 4000 .. 10006000
  CHECK(c.median_loop_cycles == doctest::Approx(18999000));
  CHECK(c.blocks == 3);
  CHECK(c.distinct_sms == 2);
  r[1].clock_end = 0;  // never written
  CHECK_THROWS_WITH_AS(kernels::analyse_wgmma_records(r), doctest::Contains("was the kernel run?"),
                       cuprobe::error);
  CHECK_THROWS_AS(kernels::analyse_wgmma_records({}), cuprobe::error);
}

TEST_CASE("codecs: raw bits of 1.0 and rounding of every input type") {
  CHECK(kernels::wgmma_codec<wg::bf16>::encode(1.0f) == 0x3F80);
  CHECK(kernels::wgmma_codec<wg::f16>::encode(1.0f) == 0x3C00);
  CHECK(kernels::wgmma_codec<wg::tf32>::encode(1.0f) == 0x3F800000u);
  CHECK(kernels::wgmma_codec<wg::e4m3>::encode(1.0f) == 0x38);
  CHECK(kernels::wgmma_codec<wg::e5m2>::encode(1.0f) == 0x3C);
  // tf32 keeps 10 mantissa bits, rounded to nearest: 1 + 2^-11 rounds up to 1 + 2^-10.
  const float x = 1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -12);
  CHECK(kernels::wgmma_codec<wg::tf32>::decode(kernels::wgmma_codec<wg::tf32>::encode(x)) ==
        1.0f + std::ldexp(1.0f, -10));
  CHECK(kernels::wgmma_codec<wg::e4m3>::decode(kernels::wgmma_codec<wg::e4m3>::encode(1000.f)) ==
        448.f);
  std::vector<std::uint8_t> raw;
  const auto v = kernels::wgmma_random_values<wg::bf16>(100, 7, raw);
  CHECK(raw.size() == 200);
  CHECK(kernels::wgmma_raw_of<wg::bf16>(v) == raw);  // the values are exact in the type
  for (float f : v) CHECK((f >= -1.f && f <= 1.f));
}

TEST_CASE("reference and comparison: hand-worked tile, repeats, a bad element, NaN, zeros") {
  // A 2 x 2, B 2 x 2 (rows are N): D = A B^T.
  const std::vector<float> a = {1, 2, 3, 4}, b = {1, -1, 0.5f, 0.25f};
  const auto ref = kernels::wgmma_reference_of(a, b, 2, 2, 2, 1.0, nullptr, 3.0);
  CHECK(ref.d == std::vector<double>{3 * -1.0, 3 * 1.0, 3 * -1.0, 3 * 2.5});
  CHECK(ref.scale == std::vector<double>{3 * 3.0, 3 * 1.0, 3 * 7.0, 3 * 2.5});
  auto ok = kernels::wgmma_compare({-3.f, 3.f, -3.f, 7.5f}, ref, 1e-3);
  CHECK(ok.ok);
  CHECK(ok.frobenius == 0);
  auto bad = kernels::wgmma_compare({-3.f, 3.f, -3.f, 7.0f}, ref, 1e-3);
  CHECK_FALSE(bad.ok);
  CHECK(bad.out_of_bound == 1);
  CHECK(bad.first_bad == 3);
  CHECK(bad.message.find("first bad element D(1, 1) = 7.0") != std::string::npos);
  auto nan = kernels::wgmma_compare({-3.f, NAN, -3.f, 7.5f}, ref, 1e-3);
  CHECK_FALSE(nan.ok);
  CHECK(nan.non_finite == 1);
  const auto zero = kernels::wgmma_reference_of({0, 0, 0, 0}, b, 2, 2, 2);
  CHECK(kernels::wgmma_compare({0, 0, 0, 0}, zero, 1e-3).ok);
  CHECK_FALSE(kernels::wgmma_compare({0, 0, 0, 1e-3f}, zero, 1e-3).ok);
  volatile int k3 = 3;  // opaque: GCC 13 otherwise follows the throwing call into the loop
  CHECK_THROWS_WITH_AS(kernels::wgmma_reference_of(a, b, 2, 2, k3), doctest::Contains("rows x k"),
                       cuprobe::error);
  CHECK(kernels::wgmma_tolerance<wg::f32, wg::bf16>() == 1e-3);
  CHECK(kernels::wgmma_tolerance<wg::f16, wg::f16>() == 1e-2);
  CHECK(kernels::wgmma_tolerance<wg::f32, wg::e4m3>() == 2e-2);
}

TEST_CASE("operands: zeros with the trivial metadata, random sparse pruned 2:4 with its own") {
  using D = kernels::wgmma_bench<wg::bf16, 64>;
  const auto z = kernels::make_wgmma_operands<D>(false, 1);
  CHECK(z.a_raw.size() == 64 * 64 * 2);
  CHECK(z.b_raw.size() == 64 * 64 * 2);
  CHECK(z.metadata == std::vector<std::uint32_t>(4 * 128, wg::unread_metadata_word));
  for (auto byte : z.b_raw) CHECK(byte == 0);
  using S = kernels::wgmma_bench<wg::bf16, 64, false, true>;
  const auto s = kernels::make_wgmma_operands<S>(true, 1);
  CHECK(s.a.size() == 64 * 128);         // pruned dense A: 64 x K
  CHECK(s.a_raw.size() == 64 * 64 * 2);  // compressed: 64 x K/2
  CHECK(s.b.size() == 64 * 128);
  CHECK(s.metadata.size() == 4 * 128);
  int zeros = 0;
  for (float x : s.a) zeros += x == 0.f;
  CHECK(zeros >= 64 * 64);  // at least half of every chunk of 4 is pruned
  const auto r = kernels::make_wgmma_operands<D>(true, 1);
  CHECK(r.random);
  int nonzero = 0;
  for (float x : r.a) nonzero += x != 0.f;
  CHECK(nonzero > 64 * 60);
}

TEST_CASE("options are refused with a sentence before anything runs") {
  const auto dev = cuprobe_test::h200_like();
  ex::wgmma_throughput_options t;
  t.warpgroups = 4;
  CHECK_THROWS_WITH_AS(t.validate(3), doctest::Contains("warpgroups must be 1 .. 3"),
                       cuprobe::error);
  t.warpgroups = 1;
  t.target_ms = 0;
  CHECK_THROWS_WITH_AS(t.validate(3), doctest::Contains("target_ms must be"), cuprobe::error);
  t.target_ms = 7;
  t.validate_iterations = 0;
  CHECK_THROWS_WITH_AS(t.validate(3), doctest::Contains("validate_iterations"), cuprobe::error);
  t.validate_iterations = 4;
  t.run.mode = cuprobe::loop_mode::in_kernel;
  CHECK_THROWS_WITH_AS(t.validate(3), doctest::Contains("one launch per sample"), cuprobe::error);
  t.run.mode = cuprobe::loop_mode::launches;
  t.validate(3);
  // RS with N = 256 allows two warpgroups only (the launch bound).
  t.warpgroups = 3;
  using R = kernels::wgmma_bench<wg::bf16, 256, true>;
  CHECK_THROWS_WITH_AS(ex::wgmma_throughput<R>(dev, t), doctest::Contains("must be 1 .. 2"),
                       cuprobe::error);
  // A device that is not sm_90: refused before any CUDA call.
  auto a100 = dev;
  a100.cc_major = 8;
  using C = kernels::wgmma_bench<wg::bf16, 256>;
  CHECK_THROWS_WITH_AS(ex::wgmma_throughput<C>(a100, {}),
                       doctest::Contains("wgmma exists on sm_90"), cuprobe::error);
  ex::wgmma_latency_options l;
  l.iterations = 0;
  CHECK_THROWS_WITH_AS(l.validate(), doctest::Contains("iterations must be 1 .. 2^24"),
                       cuprobe::error);
  ex::wgmma_suite_options s;
  s.validate();
  s.sustained_ms = 100;
  CHECK_THROWS_WITH_AS(s.validate(), doctest::Contains("at least half a second"), cuprobe::error);
  s.sustained_ms = 0;
  s.validate();
  s.short_ms = 5000;
  CHECK_THROWS_WITH_AS(s.validate(), doctest::Contains("short_ms must be"), cuprobe::error);
  s.short_ms = 7;
  s.rest_ms = -1;
  CHECK_THROWS_WITH_AS(s.validate(), doctest::Contains("rest_ms must be 0 .. 60000"),
                       cuprobe::error);
  s.rest_ms = 0;  // samples back to back
  s.validate();
  s.samples = 0;
  CHECK_THROWS_AS(s.validate(), cuprobe::error);
}

TEST_CASE("suite result: find, sparse over dense, validity") {
  ex::wgmma_suite_result s;
  CHECK_FALSE(s.all_valid());
  ex::wgmma_throughput_result d, sp;
  d.config = "bf16.m64n256k16.ss";
  d.type = "bf16";
  d.n = 256;
  d.tflops = 900;
  d.check.ok = true;
  sp = d;
  sp.config = "bf16.m64n256k32.ss.sp";
  sp.sparse = true;
  sp.tflops = 1500;
  s.points.push_back({"sizes", d});
  s.points.push_back({"sparse", sp});
  CHECK(s.find("sizes", "bf16.m64n256k16.ss") == &s.points[0].r);
  CHECK(s.find("sizes", "bf16.m64n256k16.ss", true) == nullptr);
  CHECK(s.sparse_vs_dense("bf16", 256) == doctest::Approx(1500.0 / 900));
  CHECK_FALSE(s.sparse_vs_dense("tf32", 256).has_value());
  CHECK(s.all_valid());
  s.points[1].r.check.ok = false;
  CHECK_FALSE(s.all_valid());
}
