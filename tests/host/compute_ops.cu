// host tier: gen/ops.cuh (host twins, 16-bit rounding) and gen/chain.cuh (accounting,
// dispatch, inputs, references, validation). No GPU needed.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/gen/chain.cuh>
#include <cuprobe/gen/ops.cuh>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "../sass/compute_user_op.cu"  // dp4a_s32, the user-operation example

namespace g = cuprobe::gen;
namespace d = cuprobe::gen::detail;

namespace {

// An independent reference for a * b + c in a 16-bit format: every value is an integer
// multiple of 2^-shift (shift chosen by the caller), so a * b + c is one exact __int128, which
// is then rounded to nearest-even with integer arithmetic. Slow, simple, and not the code
// under test (d::fma16 uses doubles and TwoSum).
double exact_fma_reference(double a, double b, double c, int shift, d::format16 f) {
  using i128 = __int128;
  const auto scaled = [&](double v, int s) { return static_cast<i128>(std::ldexp(v, s)); };
  const i128 v = scaled(a, shift) * scaled(b, shift) + scaled(c, 2 * shift);  // x 2^-(2 shift)
  if (v == 0) return 0.0;
  const bool neg = v < 0;
  const i128 m = neg ? -v : v;
  int top = 0;
  while ((m >> (top + 1)) != 0) ++top;  // leading bit: 2^(top - 2 shift)
  const int e = top - 2 * shift;
  const int q = std::max(e, 1 - f.bias()) - f.mant;  // ulp exponent
  const int drop = q + 2 * shift;                    // low bits rounded away (>= 0 here)
  i128 kept = m >> drop;
  REQUIRE(drop > 0);  // true for the operand ranges drawn below
  const i128 rest = m - (kept << drop), half = i128(1) << (drop - 1);
  if (rest > half || (rest == half && (kept & 1))) ++kept;
  const double out = std::ldexp(static_cast<double>(kept), q);
  if (out >= std::ldexp(1.0, f.bias() + 1)) return neg ? -HUGE_VAL : HUGE_VAL;
  return neg ? -out : out;
}

std::uint16_t bits16(double v, d::format16 f) { return d::encode16(d::round16(v, 0, f), f); }

// The 32-bit register of a 16x2 value with both lanes equal to `lane`.
template <class T>
T splat(std::uint16_t lane) {
  return T{lane | (std::uint32_t(lane) << 16)};
}

template <class T>
double lane0(T v) {
  return d::decode16(static_cast<std::uint16_t>(v.bits & 0xFFFFu),
                     std::is_same_v<T, g::f16x2> ? d::binary16 : d::bfloat16);
}

}  // namespace

TEST_CASE("16-bit formats: every finite bit pattern decodes and encodes back to itself") {
  for (d::format16 f : {d::binary16, d::bfloat16}) {
    for (std::uint32_t u = 0; u < 0x10000u; ++u) {
      const double v = d::decode16(static_cast<std::uint16_t>(u), f);
      if (std::isnan(v)) continue;
      REQUIRE(d::encode16(v, f) == u);
      REQUIRE(d::round16(v, 0, f) == v);  // representable values do not move
    }
  }
  CHECK(d::decode16(0x3C00, d::binary16) == 1.0);
  CHECK(d::decode16(0x0001, d::binary16) == std::ldexp(1.0, -24));  // smallest subnormal
  CHECK(d::decode16(0x7BFF, d::binary16) == 65504.0);
  CHECK(d::decode16(0x3F80, d::bfloat16) == 1.0);
  CHECK(std::isinf(d::decode16(0x7C00, d::binary16)));
}

TEST_CASE("16-bit rounding: ties to even, the tie broken by a sticky error, overflow") {
  const d::format16 h = d::binary16;
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even gives 1.
  CHECK(d::round16(1 + std::ldexp(1, -11), 0, h) == 1.0);
  // 1 + 3 x 2^-11 is halfway between 1 + 2^-10 and 1 + 2^-9: ties to even gives 1 + 2^-9.
  CHECK(d::round16(1 + 3 * std::ldexp(1, -11), 0, h) == 1 + std::ldexp(1, -9));
  // The same ties with a tiny exact remainder are no longer ties.
  CHECK(d::round16(1 + std::ldexp(1, -11), 1e-30, h) == 1 + std::ldexp(1, -10));
  CHECK(d::round16(1 + 3 * std::ldexp(1, -11), -1e-30, h) == 1 + std::ldexp(1, -10));
  CHECK(std::isinf(d::round16(65520.0, 0, h)));  // halfway to 2^16 rounds to infinity
  CHECK(d::round16(65519.0, 0, h) == 65504.0);
  CHECK(d::round16(std::ldexp(3, -26), 0, h) == std::ldexp(1, -24));  // subnormal rounding
}

TEST_CASE("fma.rn.bf16x2 host twin: the exact remainder decides a tie that double rounding loses") {
  const d::format16 bf = d::bfloat16;
  // a * b = 1 + 2^-1 + 2^-7 + 2^-8: exactly halfway between two bfloat16 neighbours.
  const std::uint16_t a = bits16(1 + std::ldexp(1, -7), bf), b = bits16(1.5, bf);
  const double lower = 1 + std::ldexp(1, -1) + std::ldexp(1, -7);  // odd last bit
  const double upper = 1 + std::ldexp(1, -1) + std::ldexp(1, -6);  // even last bit
  CHECK(d::decode16(d::fma16(a, b, 0, bf), bf) == upper);          // tie -> even
  // c = -2^-100 vanishes when a * b + c is rounded to double, yet puts the exact value below
  // the tie: the correctly rounded result is the lower neighbour.
  const std::uint16_t tiny_neg = bits16(-std::ldexp(1, -100), bf);
  const std::uint16_t tiny_pos = bits16(std::ldexp(1, -100), bf);
  CHECK(d::decode16(d::fma16(a, b, tiny_neg, bf), bf) == lower);
  CHECK(d::decode16(d::fma16(a, b, tiny_pos, bf), bf) == upper);
  // The packed form applies the same to both lanes.
  const auto r = g::ops::hfma2_bf16::host_apply(splat<g::bf16x2>(a), splat<g::bf16x2>(b),
                                                splat<g::bf16x2>(tiny_neg));
  CHECK(r.bits == bits16(lower, bf) * 0x10001u);
}

TEST_CASE("fma.rn.f16 / fma.rn.bf16 host twins equal an exact integer reference") {
  // binary16: all values are multiples of 2^-24, so shift 24 makes them integers.
  // bfloat16 values drawn from [2^-16, 2^16): multiples of 2^-23; shift 24 again.
  for (int fmt = 0; fmt < 2; ++fmt) {
    const d::format16 f = fmt == 0 ? d::binary16 : d::bfloat16;
    int checked = 0;
    for (std::uint64_t i = 0; i < 200000; ++i) {
      const auto draw = [&](std::uint64_t k) {
        const std::uint64_t r = cuprobe::detail::mix64(i * 3 + k + 1000003ull * fmt);
        const int exps = fmt == 0 ? 31 : 33;  // binary16: below 2^15, so no operand is infinite
        const int exponent = int((r >> 16) % exps) - 16;
        const double mag = std::ldexp(1.0 + double(r & 0xFFFF) / 65536.0, exponent);
        const double v = ((r >> 40) & 1) ? -mag : mag;
        const bool subnormal = fmt == 0 && (r >> 41) % 8 == 0;  // one binary16 draw in 8
        return subnormal ? std::ldexp(double((r >> 44) % 1024), -24) : v;
      };
      const std::uint16_t a = bits16(draw(0), f), b = bits16(draw(1), f), c = bits16(draw(2), f);
      const double got = d::decode16(d::fma16(a, b, c, f), f);
      const double want =
          exact_fma_reference(d::decode16(a, f), d::decode16(b, f), d::decode16(c, f), 24, f);
      if (got != want) {
        FAIL_CHECK("fma16 differs for a=" << d::decode16(a, f) << " b=" << d::decode16(b, f)
                                          << " c=" << d::decode16(c, f) << ": " << got << " vs "
                                          << want);
        break;
      }
      ++checked;
    }
    CHECK(checked == 200000);
  }
}

TEST_CASE("host twins of the 32-bit operations") {
  using namespace g::ops;
  CHECK(fma_f32::host_apply(1.5f, 2.f, 0.25f) == 3.25f);
  CHECK(fma_f64::host_apply(1.5, 2.0, 0.25) == 3.25);
  // One rounding: (1 + 2^-23)(1 - 2^-23) - 1 = -2^-46 exactly; two roundings would give 0.
  CHECK(fma_f32::host_apply(1 + 0x1p-23f, 1 - 0x1p-23f, -1.f) == -0x1p-46f);
  CHECK(add_f32::host_apply(1.f, 0x1p-24f, 99.f) == 1.f);  // ties to even; c unused
  CHECK(mul_f32::host_apply(3.f, 0.5f, 99.f) == 1.5f);
  CHECK(imad_u32::host_apply(0x80000001u, 3u, 7u) == 0x8000000Au);  // modulo 2^32
  CHECK(iadd3_u32::host_apply(0xFFFFFFFFu, 2u, 3u) == 4u);
  for (unsigned i = 0; i < 1000; ++i) {
    const unsigned a = unsigned(cuprobe::detail::mix64(i));
    const unsigned b = unsigned(cuprobe::detail::mix64(i + 7));
    const unsigned c = unsigned(cuprobe::detail::mix64(i + 13));
    REQUIRE(lop3_b32::host_apply(a, b, c) == ((a & b) ^ c));  // LUT 0x6A
  }
  CHECK(rsqrt_f32::host_apply(4.f, 0, 0) == 0.5f);
  CHECK(rsqrt_f32::host_apply(0.25f, 0, 0) == 2.f);
  // The user example: bytes (1, 2, 3, 4) . (-1, -1, -1, -1) + 10 = 0.
  CHECK(dp4a_s32::host_apply(0x04030201, -1, 10) == 0);
  CHECK(dp4a_s32::host_apply(0x7F7F7F7F, 0x7F7F7F7F, 0) == 4 * 127 * 127);
}

TEST_CASE("the shuffle reference rotates the warp and returns after 32 steps") {
  std::array<unsigned, 32> lanes;
  for (unsigned l = 0; l < 32; ++l) lanes[l] = 100 + l;
  auto once = lanes;
  g::ops::shfl_idx::host_apply_warp(once, 3, 0);
  for (unsigned l = 0; l < 32; ++l) CHECK(once[l] == 100 + ((l + 3) % 32));
  CHECK(g::warp_chain_reference<g::ops::shfl_idx>(lanes, 5, 0, 32) == lanes);
  CHECK(g::warp_chain_reference<g::ops::shfl_idx>(lanes, 5, 0, 2) ==
        g::warp_chain_reference<g::ops::shfl_idx>(lanes, 10, 0, 1));
}

TEST_CASE("every operation's traits: ops per instruction, names, SASS patterns") {
  CHECK(g::ops::fma_f32::ops == 2);
  CHECK(g::ops::hfma2_f16::ops == 4);
  CHECK(g::ops::hfma2_bf16::ops == 4);
  CHECK(g::ops::fma_f64::ops == 2);
  CHECK(g::ops::add_f32::ops == 1);
  CHECK(g::ops::imad_u32::ops == 1);
  CHECK(dp4a_s32::kind == g::op_kind::other);  // op_base default
  CHECK(dp4a_s32::tolerance == 0);
  CHECK(std::string(g::ops::rsqrt_f32::sass) == "MUFU\\.RSQ");
  CHECK(std::string(cuprobe::model::to_string(g::op_kind::bf16x2_fma)) == "bf16x2_fma");
  CHECK(g::ops::shfl_idx::warp_collective);
  CHECK_FALSE(g::ops::fma_f32::warp_collective);
}

TEST_CASE("chain accounting: steps, instructions, operations, cycles per step") {
  CHECK(g::chain_steps(100) == 1600);  // default unroll 16
  CHECK(g::chain_steps(100, 8) == 800);
  // 132 x 1024 threads, 8 chains, 1000 iterations of 16 steps
  CHECK(g::chain_instructions(132 * 1024, 8, 1000) == 132ull * 1024 * 8 * 1000 * 16);
  CHECK(g::chain_operations<g::ops::fma_f32>(1024, 4, 10, 8) == 2.0 * 1024 * 4 * 10 * 8);
  CHECK(g::chain_operations<g::ops::hfma2_f16>(32, 1, 1, 1) == 128.0);
  CHECK(g::cycles_per_step(6400, 100) == 4.0);
  // 600 fixed cycles in both launches cancel: (6400 + 600) - (640 + 600) over 90 x 16 steps.
  CHECK(g::cycles_per_step_difference(1240, 10, 7000, 100) == 4.0);
  CHECK(g::cycles_per_step_difference(100, 1, 50, 2, 8) == -6.25);  // noise is not hidden
  CHECK_THROWS_AS(g::cycles_per_step_difference(1, 5, 2, 5), cuprobe::error);
}

TEST_CASE("dispatch_chains picks the compiled count, returns f's result, refuses others") {
  int seen = 0;
  g::dispatch_chains<1, 2, 4, 8, 16>(8, [&](auto c) { seen = decltype(c)::value; });
  CHECK(seen == 8);
  const int twice = g::dispatch_chains<1, 3>(3, [](auto c) { return 2 * decltype(c)::value; });
  CHECK(twice == 6);
  CHECK_THROWS_WITH_AS((g::dispatch_chains<1, 2, 4>(5, [](auto) {})),
                       "cuprobe: dispatch_chains: 5 chains was not compiled in (1, 2, 4)",
                       cuprobe::error);
}

TEST_CASE("make_chain_inputs: reproducible, layout [chain][thread], operands in range") {
  using op = g::ops::fma_f32;
  const auto a = g::make_chain_inputs<op>(64, 3, 11), b = g::make_chain_inputs<op>(64, 3, 11);
  REQUIRE(a.init.size() == 192);
  CHECK(a.init == b.init);
  CHECK(a.b == b.b);
  CHECK(a.init != g::make_chain_inputs<op>(64, 3, 12).init);
  CHECK((a.b >= 0.5f && a.b < 0.999f));
  CHECK((a.c >= -0.25f && a.c < 0.25f));
  for (float v : a.init) REQUIRE((v >= -1.f && v < 1.f));
  const auto r = g::make_chain_inputs<g::ops::rsqrt_f32>(32, 1, 1);
  for (float v : r.init) REQUIRE((v >= 0.25f && v < 4.f));
  const auto s = g::make_chain_inputs<g::ops::shfl_idx>(32, 1, 1);
  CHECK((s.b >= 1u && s.b <= 31u));
  const auto h = g::make_chain_inputs<g::ops::hfma2_f16>(32, 2, 5);
  CHECK((lane0(h.b) >= 0.5 && lane0(h.b) < 1.0));
  CHECK_THROWS_AS(g::make_chain_inputs<op>(0, 1, 1), cuprobe::error);
}

TEST_CASE("chain_reference repeats host_apply; the chains stay finite") {
  using op = g::ops::fma_f32;
  float x = 0.75f;
  for (int i = 0; i < 100; ++i) x = std::fma(x, 0.9f, 0.1f);
  CHECK(g::chain_reference<op>(0.75f, 0.9f, 0.1f, 100) == x);
  const auto in = g::make_chain_inputs<g::ops::hfma2_f16>(32, 1, 3);
  const auto h = g::chain_reference<g::ops::hfma2_f16>(in.init[0], in.b, in.c, 100000);
  CHECK(std::isfinite(lane0(h)));
  CHECK(std::isfinite(g::chain_reference<g::ops::rsqrt_f32>(3.f, 0, 0, 100000)));
  CHECK(std::fabs(g::chain_reference<g::ops::rsqrt_f32>(3.f, 0, 0, 1000) - 1.f) < 1e-6f);
}

TEST_CASE("validate_chains accepts the reference and names the first mismatch") {
  using op = g::ops::imad_u32;
  const auto in = g::make_chain_inputs<op>(256, 4, 21);
  std::vector<unsigned> out(in.init.size());
  for (int k = 0; k < 4; ++k)
    for (unsigned t = 0; t < 256; ++t)
      out[k * 256 + t] = g::chain_reference<op>(in.init[k * 256 + t], in.b, in.c, 64);
  const auto ok = g::validate_chains<op>(in, out, 64, 128);
  CHECK(ok.ok);
  CHECK(static_cast<bool>(ok));
  CHECK(ok.checked == 1024);
  CHECK(ok.message.empty());

  out[2 * 256 + 130] ^= 1u;                 // chain 2, thread 130 = block 1, thread 2
  std::memset(&out[3 * 256 + 5], 0xA5, 4);  // chain 3, thread 5: never written
  const auto bad = g::validate_chains<op>(in, out, 64, 128);
  CHECK_FALSE(bad.ok);
  CHECK(bad.mismatches == 2);
  CHECK(bad.message.find("mad.lo.u32: chain 2 of thread 130 (block 1, thread 2) after 64 steps") ==
        0);
  CHECK(bad.message.find("2 of 1024 values differ") != std::string::npos);
  const auto steps_wrong = g::validate_chains<op>(in, out, 63);
  CHECK(steps_wrong.mismatches == 1024);
  CHECK_THROWS_AS(g::validate_chains<op>(in, std::vector<unsigned>(5), 64), cuprobe::error);

  // The poison sentence for a value the kernel never wrote.
  std::vector<unsigned> unwritten(in.init.size(), 0xA5A5A5A5u);
  const auto never = g::validate_chains<op>(in, unwritten, 64);
  CHECK(never.message.find("still poisoned") != std::string::npos);
}

TEST_CASE("validate_chains: tolerance for MUFU, whole warps for the shuffle") {
  using r = g::ops::rsqrt_f32;
  const auto in = g::make_chain_inputs<r>(32, 1, 2);
  std::vector<float> out(32);
  for (int t = 0; t < 32; ++t) out[t] = g::chain_reference<r>(in.init[t], 0, 0, 50) * (1 + 5e-7f);
  CHECK(g::validate_chains<r>(in, out, 50).ok);  // within 1e-6 relative
  out[7] *= 1.00001f;
  CHECK_FALSE(g::validate_chains<r>(in, out, 50).ok);

  using s = g::ops::shfl_idx;
  const auto sin = g::make_chain_inputs<s>(64, 2, 9);
  std::vector<unsigned> sout(sin.init.size());
  for (int k = 0; k < 2; ++k)
    for (int w = 0; w < 64; w += 32)
      for (int l = 0; l < 32; ++l)  // after 3 steps lane l holds the initial value of l + 3b
        sout[k * 64 + w + l] = sin.init[k * 64 + w + ((l + 3 * sin.b) % 32)];
  CHECK(g::validate_chains<s>(sin, sout, 3).ok);
  CHECK_FALSE(g::validate_chains<s>(sin, sout, 4).ok);
}

TEST_CASE("launch_chain refuses bad arguments before anything is launched") {
  g::chain_args<float> a;  // null pointers
  CHECK_THROWS_WITH_AS((g::launch_chain<g::ops::fma_f32, 1>(1, 32, a)),
                       doctest::Contains("init and out must be device pointers"), cuprobe::error);
  // Never dereferenced: every check below fails before a launch.
  float* fake = reinterpret_cast<float*>(256);
  a.init = fake;
  a.out = fake;
  a.iterations = 0;
  CHECK_THROWS_WITH_AS((g::launch_chain<g::ops::fma_f32, 1>(1, 32, a)),
                       doctest::Contains("iterations must be at least 1, got 0"), cuprobe::error);
  a.iterations = 1;
  CHECK_THROWS_AS((g::launch_chain<g::ops::fma_f32, 1>(0, 32, a)), cuprobe::error);
  unsigned* ufake = reinterpret_cast<unsigned*>(256);
  g::chain_args<unsigned> s{ufake, ufake, 1u, 0u, 1, nullptr};
  CHECK_THROWS_WITH_AS((g::launch_chain<g::ops::shfl_idx, 1>(1, 48, s)),
                       doctest::Contains("block size must be a multiple of 32, got 48"),
                       cuprobe::error);
}
