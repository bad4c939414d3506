// host tier: model/peak.cuh (published per-SM throughput, peak of a GPU at a measured clock).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/gen/ops.cuh>
#include <cuprobe/model/peak.cuh>

#include <set>
#include <string>
#include <utility>

namespace m = cuprobe::model;
namespace ops = cuprobe::gen::ops;
using cuprobe::model::op_kind;

TEST_CASE("H100/H200 FP32: 132 SMs x 128 FMA x 2 FLOP x 1.98 GHz = 66.9 TFLOP/s") {
  const m::peak_entry e = m::ops_per_clock_per_sm(90, op_kind::fp32_fma);
  CHECK(e.instructions_per_clock == 128);
  CHECK(e.results_per_clock() == 128);
  CHECK(e.ops_per_instruction() == 2);
  CHECK(e.ops_per_clock() == 256);
  CHECK(m::peak_per_s(132, e.ops_per_clock(), 1.98e9) == doctest::Approx(66.9e12).epsilon(1e-3));
  CHECK(m::peak_per_s(132, e.ops_per_clock(), 1.98e9) == doctest::Approx(132.0 * 256 * 1.98e9));
  // and back: 11.27 TB/s over 132 SMs at 1980 MHz is 43.1 B/clk/SM
  CHECK(m::per_clock_per_sm(11.27e12, 132, 1.98e9) == doctest::Approx(11.27e12 / (132 * 1.98e9)));
  CHECK(m::per_clock_per_sm(m::peak_per_s(132, 128, 1.98e9), 132, 1.98e9) == doctest::Approx(128));
  CHECK_THROWS_AS(m::per_clock_per_sm(1e12, 0, 1.98e9), cuprobe::error);
}

TEST_CASE("table lookups: instruction, result and FLOP accounting per architecture") {
  // sm_90: HFMA2 is 128 instructions = 256 results = 512 FLOP per clock per SM.
  const auto h = m::ops_per_clock_per_sm(90, op_kind::fp16x2_fma);
  CHECK(h.instructions_per_clock == 128);
  CHECK(h.results_per_clock() == 256);
  CHECK(h.ops_per_clock() == 512);
  CHECK(m::ops_per_clock_per_sm(90, op_kind::fp64_fma).ops_per_clock() == 128);
  CHECK(m::ops_per_clock_per_sm(90, op_kind::special_function).instructions_per_clock == 16);
  CHECK(m::ops_per_clock_per_sm(90, op_kind::shuffle).instructions_per_clock == 32);
  CHECK(m::ops_per_clock_per_sm(90, op_kind::int32_add).ops_per_clock() == 64);
  // sm_80: FP32 64, FP64 32, BF16x2 half the FP16x2 rate.
  CHECK(m::ops_per_clock_per_sm(80, op_kind::fp32_fma).instructions_per_clock == 64);
  CHECK(m::ops_per_clock_per_sm(80, op_kind::fp64_fma).instructions_per_clock == 32);
  CHECK(m::ops_per_clock_per_sm(80, op_kind::bf16x2_fma).results_per_clock() == 128);
  CHECK(m::ops_per_clock_per_sm(80, op_kind::fp16x2_fma).results_per_clock() == 256);
  // sm_86 / sm_89: FP32 128 but FP64 2; sm_75: FP32 64, FP64 2.
  CHECK(m::ops_per_clock_per_sm(86, op_kind::fp32_fma).instructions_per_clock == 128);
  CHECK(m::ops_per_clock_per_sm(89, op_kind::fp64_fma).instructions_per_clock == 2);
  CHECK(m::ops_per_clock_per_sm(75, op_kind::fp64_fma).instructions_per_clock == 2);
  CHECK(m::ops_per_clock_per_sm(75, op_kind::fp32_fma).instructions_per_clock == 64);
  // The template form takes the kind from the operation.
  CHECK(m::ops_per_clock_per_sm<ops::fma_f32>(90).kind == op_kind::fp32_fma);
  CHECK(m::ops_per_clock_per_sm<ops::rsqrt_f32>(75).instructions_per_clock == 16);
}

TEST_CASE("every entry names a source, appears once, and sits on a known architecture") {
  std::set<std::pair<int, int>> seen;
  for (const m::peak_entry& e : m::peak_table) {
    CHECK(std::string(e.source).size() > 20);
    CHECK(e.instructions_per_clock > 0);
    CHECK(e.kind != op_kind::other);
    CHECK(seen.insert({e.sm, static_cast<int>(e.kind)}).second);  // no duplicates
  }
  CHECK(m::known_architectures() == std::vector<int>{75, 80, 86, 89, 90, 100, 120});
  // sm_75 through sm_90 have every row the chain operations need (BF16 is not native on
  // sm_75; its 8.6 / 8.9 rate is not published separately).
  for (int sm : {75, 80, 86, 89, 90})
    for (op_kind k : {op_kind::fp32_fma, op_kind::fp32_add, op_kind::fp32_mul, op_kind::fp16x2_fma,
                      op_kind::fp64_fma, op_kind::int32_add, op_kind::int32_mad,
                      op_kind::special_function, op_kind::logic, op_kind::shuffle})
      CHECK_MESSAGE(m::find_peak(sm, k).has_value(),
                    "sm_" << sm << " " << cuprobe::model::to_string(k));
}

TEST_CASE("the built-in operations count operations as the peak model does") {
  CHECK(ops::fma_f32::ops == m::ops_per_instruction(ops::fma_f32::kind));
  CHECK(ops::add_f32::ops == m::ops_per_instruction(ops::add_f32::kind));
  CHECK(ops::mul_f32::ops == m::ops_per_instruction(ops::mul_f32::kind));
  CHECK(ops::hfma2_f16::ops == m::ops_per_instruction(ops::hfma2_f16::kind));
  CHECK(ops::hfma2_bf16::ops == m::ops_per_instruction(ops::hfma2_bf16::kind));
  CHECK(ops::fma_f64::ops == m::ops_per_instruction(ops::fma_f64::kind));
  CHECK(ops::imad_u32::ops == m::ops_per_instruction(ops::imad_u32::kind));
  CHECK(ops::iadd3_u32::ops == m::ops_per_instruction(ops::iadd3_u32::kind));
  CHECK(ops::lop3_b32::ops == m::ops_per_instruction(ops::lop3_b32::kind));
  CHECK(ops::rsqrt_f32::ops == m::ops_per_instruction(ops::rsqrt_f32::kind));
  CHECK(ops::shfl_idx::ops == m::ops_per_instruction(ops::shfl_idx::kind));
}

TEST_CASE("unknown architectures and missing rows: std::nullopt, or an error with a sentence") {
  CHECK_FALSE(m::find_peak(70, op_kind::fp32_fma).has_value());
  CHECK_FALSE(m::find_peak(75, op_kind::bf16x2_fma).has_value());
  CHECK_FALSE(m::find_peak(90, op_kind::other).has_value());
  CHECK_THROWS_WITH_AS(m::ops_per_clock_per_sm(70, op_kind::fp32_fma),
                       "cuprobe: the peak model has no published throughput for fp32_fma on sm_70 "
                       "(it has one for sm_75, sm_80, sm_86, sm_89, sm_90, sm_100, sm_120); pass "
                       "the figure yourself to peak_per_s()",
                       cuprobe::error);
  CHECK_THROWS_WITH_AS(m::ops_per_clock_per_sm(90, op_kind::other),
                       doctest::Contains("(nor on any architecture)"), cuprobe::error);
}

TEST_CASE("peak_per_s refuses non-positive inputs; describe() spells out the accounting") {
  CHECK_THROWS_AS(m::peak_per_s(0, 256, 1.98e9), cuprobe::error);
  CHECK_THROWS_AS(m::peak_per_s(132, 0, 1.98e9), cuprobe::error);
  CHECK_THROWS_WITH_AS(m::peak_per_s(132, 256, 0), doctest::Contains("clock_hz must be positive"),
                       cuprobe::error);
  const std::string d = m::describe(m::ops_per_clock_per_sm(90, op_kind::fp16x2_fma));
  CHECK(d.find("sm_90 fp16x2_fma: 128 instructions/clk/SM x 4 = 512 ops/clk/SM (256 results)") ==
        0);
  CHECK(d.find("H100 Tensor Core GPU Architecture") != std::string::npos);
  CHECK(d.find("16-bit floating-point add, multiply, multiply-add") != std::string::npos);
}
