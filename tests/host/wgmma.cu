// host tier: ptx/wgmma.cuh's host-side parts: the matrix descriptor (bit layout against
// hand-computed values, round trips, checks, printer), the canonical layouts (offsets, LBO/SBO),
// the accumulator and A-fragment maps, and the sparse metadata helper on hand-worked cases.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/ptx/wgmma.cuh>

#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

namespace wg = cuprobe::ptx::wgmma;

// The legality table, at compile time (ptxas 13.0 agreed with each line, see wgmma_types.cuh).
static_assert(wg::is_legal_v<wg::f32, wg::bf16, wg::bf16> &&
              !wg::is_legal_v<wg::f16, wg::bf16, wg::bf16>);
static_assert(wg::is_legal_v<wg::f16, wg::f16, wg::f16> &&
              wg::is_legal_v<wg::f32, wg::f16, wg::f16>);
static_assert(wg::is_legal_v<wg::f32, wg::tf32, wg::tf32> &&
              !wg::is_legal_v<wg::f16, wg::tf32, wg::tf32>);
static_assert(wg::is_legal_v<wg::f16, wg::e5m2, wg::e4m3> &&
              wg::is_legal_v<wg::f32, wg::e4m3, wg::e5m2>);
static_assert(!wg::is_legal_v<wg::f32, wg::f16, wg::bf16> &&
              !wg::is_legal_v<wg::f32, wg::e4m3, wg::f16>);
static_assert(wg::dense_k_v<wg::bf16> == 16 && wg::dense_k_v<wg::tf32> == 8 &&
              wg::dense_k_v<wg::e4m3> == 32);
static_assert(wg::sparse_k_v<wg::f16> == 32 && wg::sparse_k_v<wg::tf32> == 16 &&
              wg::sparse_k_v<wg::e5m2> == 64);
static_assert(wg::is_legal_n(8) && wg::is_legal_n(136) && wg::is_legal_n(256));
static_assert(!wg::is_legal_n(0) && !wg::is_legal_n(12) && !wg::is_legal_n(264));
static_assert(wg::accumulator<wg::f32, 256>::registers == 128 &&
              wg::accumulator<wg::f16, 256>::registers == 64);
static_assert(wg::accumulator<wg::f32, 8>::registers == 4 &&
              wg::accumulator<wg::f16, 8>::registers == 2);

// Descriptors usable in constant expressions: encode/decode round trip.
constexpr wg::descriptor k_sw128{0x400, 16, 1024, 0, wg::swizzle::b128};
static_assert(k_sw128.encode() == 0x4000004000010040ull);
static_assert(wg::descriptor::decode(k_sw128.encode()) == k_sw128);
static_assert(k_sw128.problem() == nullptr);

TEST_CASE("descriptor bits match hand-computed values") {
  // start 0x400 -> 0x40; LBO 16 -> 1 << 16; SBO 1024 -> 64 << 32; 128B -> 1 << 62
  CHECK(k_sw128.encode() == 0x4000004000010040ull);
  // start 0x1230 -> 0x123; LBO 128 -> 8 << 16; SBO 256 -> 16 << 32; no swizzle
  CHECK(wg::descriptor{0x1230, 128, 256, 0, wg::swizzle::none}.encode() == 0x0000001000080123ull);
  // every field at its maximum: 0x3FFF in each 14-bit field, base offset 7, 32B (3)
  CHECK(wg::descriptor{0x3FFF0, 0x3FFF0, 0x3FFF0, 7, wg::swizzle::b32}.encode() ==
        0xC00E3FFF3FFF3FFFull);
  // 64B (2 << 62), base offset 3 (3 << 49), start 0x200, LBO 16, SBO 512
  CHECK(wg::descriptor{0x200, 16, 512, 3, wg::swizzle::b64}.encode() == 0x8006002000010020ull);
  // Each field alone lands at its bits.
  CHECK(wg::descriptor{16, 0, 0, 0, wg::swizzle::none}.encode() == 1ull);
  CHECK(wg::descriptor{0, 16, 0, 0, wg::swizzle::none}.encode() == 1ull << 16);
  CHECK(wg::descriptor{0, 0, 16, 0, wg::swizzle::none}.encode() == 1ull << 32);
  CHECK(wg::descriptor{0, 0, 0, 1, wg::swizzle::b128}.encode() == (1ull << 49 | 1ull << 62));
}

TEST_CASE("descriptor decode inverts encode, and reserved bits are reported") {
  std::mt19937_64 rng(7);
  const wg::swizzle modes[] = {wg::swizzle::none, wg::swizzle::b32, wg::swizzle::b64,
                               wg::swizzle::b128};
  for (int i = 0; i < 2000; ++i) {
    wg::descriptor d;
    d.start_address = std::uint32_t(rng() % 0x4000) * 16;
    d.leading_byte_offset = std::uint32_t(rng() % 0x4000) * 16;
    d.stride_byte_offset = std::uint32_t(rng() % 0x4000) * 16;
    d.layout = modes[rng() % 4];
    d.base_offset = d.layout == wg::swizzle::none ? 0 : std::uint32_t(rng() % 8);
    REQUIRE(d.problem() == nullptr);
    const std::uint64_t bits = d.encode();
    REQUIRE(wg::descriptor::reserved_bits_clear(bits));
    REQUIRE(wg::descriptor::decode(bits) == d);
    // And from the bits: any value with the reserved bits clear survives decode + encode.
    const std::uint64_t raw = rng() & ~0x3FF1C000C000C000ull;
    REQUIRE(wg::descriptor::decode(raw).encode() == raw);
  }
  CHECK_FALSE(wg::descriptor::reserved_bits_clear(1ull << 14));
  CHECK_FALSE(wg::descriptor::reserved_bits_clear(1ull << 31));
  CHECK_FALSE(wg::descriptor::reserved_bits_clear(1ull << 47));
  CHECK_FALSE(wg::descriptor::reserved_bits_clear(1ull << 52));
  CHECK_FALSE(wg::descriptor::reserved_bits_clear(1ull << 61));
  CHECK(wg::descriptor::reserved_bits_clear(0xC00E3FFF3FFF3FFFull));
}

TEST_CASE("descriptor checks: 16-byte units, field ranges, base offset rules") {
  CHECK(std::string(wg::descriptor{0x408, 16, 1024, 0, wg::swizzle::b128}.problem()) ==
        "the start address is not a multiple of 16 bytes");
  CHECK(std::string(wg::descriptor{0x40000, 16, 1024, 0, wg::swizzle::b128}.problem())
            .find("256 KiB") != std::string::npos);
  CHECK(std::string(wg::descriptor{0, 24, 1024, 0, wg::swizzle::b128}.problem())
            .find("(LBO) is not a multiple") != std::string::npos);
  CHECK(std::string(wg::descriptor{0, 16, 0x40000, 0, wg::swizzle::b128}.problem())
            .find("(SBO) is not below") != std::string::npos);
  CHECK(std::string(wg::descriptor{0, 16, 1024, 8, wg::swizzle::b128}.problem()).find("0..7") !=
        std::string::npos);
  CHECK(std::string(wg::descriptor{0, 16, 1024, 1, wg::swizzle::none}.problem())
            .find("without swizzling") != std::string::npos);
  CHECK(wg::descriptor{0x3FFF0, 0x3FFF0, 0x3FFF0, 7, wg::swizzle::b32}.problem() == nullptr);
  CHECK_THROWS_AS(wg::descriptor({0x408, 16, 1024, 0, wg::swizzle::b128}).validate("tile A"),
                  cuprobe::error);
  try {
    wg::descriptor{0x408, 16, 1024, 0, wg::swizzle::b128}.validate("tile A");
  } catch (const cuprobe::error& e) {
    const std::string w = e.what();
    CHECK(w.find("tile A: the start address is not a multiple of 16 bytes") != std::string::npos);
    CHECK(w.find("start 0x408") != std::string::npos);
  }
  CHECK_NOTHROW(k_sw128.validate("tile A"));
  // Base offset of a swizzle pattern that starts off its repeat boundary.
  CHECK(wg::base_offset_for(wg::swizzle::b128, 0x400) == 0);
  CHECK(wg::base_offset_for(wg::swizzle::b128, 0x480) == 1);
  CHECK(wg::base_offset_for(wg::swizzle::b128, 0x780) == 7);
  CHECK(wg::base_offset_for(wg::swizzle::b64, 0x200) == 0);
  CHECK(wg::base_offset_for(wg::swizzle::b64, 0x280) == 5);
  CHECK(wg::base_offset_for(wg::swizzle::b32, 0x100) == 0);
  CHECK(wg::base_offset_for(wg::swizzle::none, 0x90) == 0);
}

TEST_CASE("descriptor printer") {
  CHECK(k_sw128.to_string() ==
        "wgmma descriptor 0x4000004000010040: start 0x400, LBO 16 B, SBO 1024 B, base offset 0, "
        "swizzle 128B");
  CHECK(wg::descriptor{0x1230, 128, 256, 0, wg::swizzle::none}.to_string() ==
        "wgmma descriptor 0x0000001000080123: start 0x1230, LBO 128 B, SBO 256 B, base offset 0, "
        "swizzle none");
  CHECK(wg::descriptor{0x200, 16, 512, 3, wg::swizzle::b64}.to_string().find(
            "base offset 3, swizzle 64B") != std::string::npos);
  CHECK(std::string(wg::swizzle_name(wg::swizzle::b32)) == "32B");
}

TEST_CASE("canonical layouts: hand-computed offsets, LBO and SBO") {
  // bf16, K-major, no swizzle, 64 x 64 (128 bytes of K): core matrices along K are adjacent.
  constexpr auto kn = wg::canonical_layout::of<wg::bf16>(wg::swizzle::none, wg::major::k, 64, 64);
  static_assert(kn.problem() == nullptr);
  CHECK(kn.leading_byte_offset() == 128);
  CHECK(kn.stride_byte_offset() == 1024);
  CHECK(kn.offset(0, 0) == 0);
  CHECK(kn.offset(1, 0) == 16);
  CHECK(kn.offset(7, 7) == 126);
  CHECK(kn.offset(0, 8) == 128);   // next core matrix along K: LBO
  CHECK(kn.offset(8, 0) == 1024);  // next core matrix along M: SBO
  CHECK(kn.offset(9, 9) == 1024 + 128 + 16 + 2);
  CHECK(kn.swizzled_offset(9, 9) == kn.offset(9, 9));
  CHECK(kn.descriptor_at(0x1000, 16) ==
        wg::descriptor{0x1000 + 256, 128, 1024, 0, wg::swizzle::none});

  // bf16, K-major, 128B swizzle, 64 x 64: rows of 128 bytes, 8-row atoms of 1024 bytes.
  constexpr auto ks = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 64);
  CHECK(ks.leading_byte_offset() == 16);
  CHECK(ks.stride_byte_offset() == 1024);
  CHECK(ks.offset(3, 5) == 394);
  CHECK(ks.swizzled_offset(3, 5) == 442);  // 0x18A ^ (3 << 4)
  CHECK(ks.swizzled_offset(0, 5) == 10);   // row 0 of an atom is not permuted
  CHECK(ks.descriptor_at(0x400, 16) == wg::descriptor{0x420, 16, 1024, 0, wg::swizzle::b128});
  CHECK(ks.descriptor_at(0x400, 16).encode() == 0x4000004000010042ull);
  // Two atom columns along K: the second follows the whole M extent.
  constexpr auto ks2 = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 128);
  CHECK(ks2.offset(0, 64) == 8192);
  CHECK(ks2.descriptor_at(0, 80).start_address == 8192 + 32);

  // tf32, K-major, 64B swizzle, 16 x 16 (64 bytes of K).
  constexpr auto t64 = wg::canonical_layout::of<wg::tf32>(wg::swizzle::b64, wg::major::k, 16, 16);
  CHECK(t64.stride_byte_offset() == 512);
  CHECK(t64.offset(9, 3) == 512 + 64 + 12);
  CHECK(t64.swizzled_offset(9, 3) == ((512 + 64 + 12) ^ 0x00));  // bits 7..8 of 588 are 0
  CHECK(t64.swizzled_offset(10, 3) == ((512 + 128 + 12) ^ 0x10));

  // e4m3, K-major, 32B swizzle, 8 x 32.
  constexpr auto e32 = wg::canonical_layout::of<wg::e4m3>(wg::swizzle::b32, wg::major::k, 8, 32);
  CHECK(e32.offset(5, 17) == 177);
  CHECK(e32.swizzled_offset(5, 17) == 161);  // bit 7 set: bit 4 flips

  // f16, MN-major, no swizzle, M = 64, K = 16: SBO steps along M (16 bytes), LBO along K.
  constexpr auto mn = wg::canonical_layout::of<wg::f16>(wg::swizzle::none, wg::major::mn, 64, 16);
  CHECK(mn.stride_byte_offset() == 128);
  CHECK(mn.leading_byte_offset() == 1024);
  CHECK(mn.offset(9, 3) == 128 + 48 + 2);
  CHECK(mn.offset(0, 8) == 1024);

  // bf16, MN-major, 128B swizzle, N = 128, K = 16: atoms of 8 K rows x 128 bytes of N.
  constexpr auto ms = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::mn, 128, 16);
  CHECK(ms.leading_byte_offset() == 1024);
  CHECK(ms.stride_byte_offset() == 2048);
  CHECK(ms.offset(70, 9) == 1024 + 2048 + 128 + 12);
  CHECK(ms.descriptor_at(0x2000, 0) == wg::descriptor{0x2000, 1024, 2048, 0, wg::swizzle::b128});
}

TEST_CASE("smem_operand: every stage, row and K step is descriptor_at of that address") {
  struct shape {
    wg::canonical_layout l;
    int row_step, k_step;
  };
  const shape shapes[] = {
      {wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 128, 64), 64, 16},
      {wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 128), 8, 16},
      {wg::canonical_layout::of<wg::bf16>(wg::swizzle::none, wg::major::k, 128, 32), 64, 16},
      {wg::canonical_layout::of<wg::f16>(wg::swizzle::none, wg::major::mn, 128, 32), 64, 16},
      {wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::mn, 128, 32), 64, 16},
      {wg::canonical_layout::of<wg::e4m3>(wg::swizzle::b64, wg::major::k, 64, 64), 8, 32},
  };
  for (const auto& sh : shapes) {
    REQUIRE(sh.l.problem() == nullptr);
    const std::uint32_t stage = (sh.l.size_bytes() + 1023) / 1024 * 1024, base = 0x2400;
    REQUIRE(wg::smem_operand::problem(sh.l, stage) == nullptr);
    const auto op = wg::smem_operand::of(sh.l, base, stage);
    for (int s = 0; s < 4; ++s)
      for (int r = 0; r < sh.l.mn; r += sh.row_step)
        for (int k0 = 0; k0 < sh.l.k; k0 += sh.k_step) {
          const auto d = sh.l.descriptor_at(base + s * stage + sh.l.offset(r, 0), k0);
          CHECK(op.at(s, r, k0) == d.encode());
          CHECK(d.base_offset == 0);
        }
  }
  const auto t = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 128, 64);
  CHECK(std::string(wg::smem_operand::problem(t, 16384 + 512)).find("1024 bytes for 128B") !=
        std::string::npos);
  CHECK(std::string(wg::smem_operand::problem(t, 8192)).find("overlap") != std::string::npos);
  // examples/gemm.cu's operands (128 x 64 A and N x 64 B, bf16, 128B swizzle, K-major) against
  // the offsets its loop once added by hand: stage x bytes + 8 KiB per 64-row half + 32 per K step.
  constexpr int n = 256;
  const auto bl = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, n, 64);
  const auto a64 = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 64);
  const std::uint32_t a_bytes = 128 * 64 * 2, b_bytes = n * 64 * 2, a0 = 0x400,
                      b0 = 0x400 + 4 * a_bytes;
  const auto a = wg::smem_operand::of(t, a0, a_bytes);
  const auto b = wg::smem_operand::of(bl, b0, b_bytes);
  for (int c = 0; c < 2; ++c) {
    const std::uint64_t a_hand = a64.descriptor_at(a0 + c * 64 * 128, 0).encode();
    const std::uint64_t b_hand = bl.descriptor_at(b0, 0).encode();
    for (int st = 0; st < 4; ++st)
      for (int j = 0; j < 4; ++j) {
        CHECK(a.at(st, 64 * c, 16 * j) == a_hand + ((st * a_bytes + 32 * j) >> 4));
        CHECK(b.at(st, 0, 16 * j) == b_hand + ((st * b_bytes + 32 * j) >> 4));
      }
  }
}

TEST_CASE("canonical layouts are bijections onto their bytes, swizzled or not") {
  const wg::swizzle modes[] = {wg::swizzle::none, wg::swizzle::b32, wg::swizzle::b64,
                               wg::swizzle::b128};
  for (int bytes : {1, 2, 4})
    for (wg::major order : {wg::major::k, wg::major::mn})
      for (wg::swizzle s : modes) {
        const int w = int(wg::swizzle_bytes(s));
        wg::canonical_layout l{s, order, bytes, 0, 0};
        l.mn = order == wg::major::k ? 32 : 2 * w / bytes;
        l.k = order == wg::major::k ? 2 * w / bytes : 16;
        REQUIRE(l.problem() == nullptr);
        std::set<std::uint32_t> plain, swz;
        for (int r = 0; r < l.mn; ++r)
          for (int c = 0; c < l.k; ++c) {
            const std::uint32_t o = l.offset(r, c);
            REQUIRE(o % bytes == 0);
            REQUIRE(o < l.size_bytes());
            plain.insert(o);
            swz.insert(l.swizzled_offset(r, c));
          }
        CHECK(plain.size() == std::size_t(l.mn) * std::size_t(l.k));
        CHECK(swz.size() == plain.size());
        CHECK(*swz.rbegin() < l.size_bytes());
      }
}

TEST_CASE("canonical layout checks name the rule") {
  using L = wg::canonical_layout;
  CHECK(std::string(L::of<wg::bf16>(wg::swizzle::none, wg::major::k, 12, 16).problem())
            .find("multiples of 8") != std::string::npos);
  CHECK(std::string(L::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 48).problem())
            .find("swizzle width") != std::string::npos);
  CHECK(std::string(L::of<wg::bf16>(wg::swizzle::none, wg::major::k, 64, 4).problem())
            .find("16 bytes") != std::string::npos);
  CHECK(std::string(L::of<wg::f16>(wg::swizzle::none, wg::major::mn, 64, 12).problem())
            .find("K in multiples of 8") != std::string::npos);
  CHECK(std::string(L::of<wg::f16>(wg::swizzle::b64, wg::major::mn, 16, 16).problem())
            .find("swizzle width") != std::string::npos);
  CHECK(std::string(L{wg::swizzle::none, wg::major::k, 3, 8, 16}.problem()).find("1, 2 or 4") !=
        std::string::npos);
  CHECK(L::of<wg::bf16>(wg::swizzle::none, wg::major::k, 4096, 64).problem() !=
        nullptr);  // > 256 KiB
  CHECK_THROWS_AS(L::of<wg::bf16>(wg::swizzle::none, wg::major::k, 12, 16).validate("B tile"),
                  cuprobe::error);
}

TEST_CASE("accumulator map: hand-computed slots, a bijection, and its inverse") {
  CHECK(wg::accumulator_coord(0, 0) == wg::coord{0, 0});
  CHECK(wg::accumulator_coord(0, 1) == wg::coord{0, 1});
  CHECK(wg::accumulator_coord(0, 2) == wg::coord{8, 0});
  CHECK(wg::accumulator_coord(0, 3) == wg::coord{8, 1});
  CHECK(wg::accumulator_coord(0, 4) == wg::coord{0, 8});
  CHECK(wg::accumulator_coord(1, 0) == wg::coord{0, 2});
  CHECK(wg::accumulator_coord(4, 0) == wg::coord{1, 0});
  CHECK(wg::accumulator_coord(32, 0) == wg::coord{16, 0});
  CHECK(wg::accumulator_coord(37, 5) == wg::coord{17, 11});
  CHECK(wg::accumulator_coord(127, 127) == wg::coord{63, 255});
  for (int n : {8, 64, 256}) {
    std::set<int> seen;
    for (int t = 0; t < 128; ++t)
      for (int e = 0; e < n / 2; ++e) {
        const wg::coord c = wg::accumulator_coord(t, e);
        REQUIRE(c.row >= 0);
        REQUIRE(c.row < 64);
        REQUIRE(c.col >= 0);
        REQUIRE(c.col < n);
        seen.insert(c.row * n + c.col);
        const wg::accumulator_slot s = wg::accumulator_owner(c.row, c.col);
        REQUIRE(s.thread == t);
        REQUIRE(s.element == e);
      }
    CHECK(seen.size() == std::size_t(64 * n));
  }
}

TEST_CASE("f16 accumulators pack two elements per register, low half first") {
  wg::accumulator<wg::f16, 8> a{};
  a.set(0, 1.5f);
  a.set(1, -2.0f);
  CHECK(a.reg[0] == 0xC0003E00u);
  CHECK(a.get(0) == 1.5f);
  CHECK(a.get(1) == -2.0f);
  a.set(3, 0.25f);
  CHECK(a.reg[1] == 0x34000000u);
  wg::accumulator<wg::f32, 8> f{};
  f.set(2, 3.0f);
  CHECK(f.reg[2] == 3.0f);
  CHECK(f.get(2) == 3.0f);
}

template <class A>
void check_fragment_bijection() {
  constexpr int k = wg::dense_k_v<A>;
  std::set<int> seen;
  for (int t = 0; t < 128; ++t)
    for (int e = 0; e < wg::a_fragment_elements_v<A>; ++e) {
      const wg::coord c = wg::a_fragment_coord<A>(t, e);
      REQUIRE(c.row >= 0);
      REQUIRE(c.row < 64);
      REQUIRE(c.col >= 0);
      REQUIRE(c.col < k);
      seen.insert(c.row * k + c.col);
    }
  CHECK(seen.size() == std::size_t(64 * k));
}

TEST_CASE("A fragment maps: hand-computed slots and bijections onto 64 x K") {
  CHECK(wg::a_fragment_coord<wg::bf16>(0, 0) == wg::coord{0, 0});
  CHECK(wg::a_fragment_coord<wg::bf16>(0, 1) == wg::coord{0, 1});
  CHECK(wg::a_fragment_coord<wg::bf16>(0, 2) == wg::coord{8, 0});
  CHECK(wg::a_fragment_coord<wg::bf16>(0, 4) == wg::coord{0, 8});
  CHECK(wg::a_fragment_coord<wg::f16>(5, 3) == wg::coord{9, 3});
  CHECK(wg::a_fragment_coord<wg::bf16>(0, 7) == wg::coord{8, 9});
  CHECK(wg::a_fragment_coord<wg::tf32>(5, 2) == wg::coord{1, 5});
  CHECK(wg::a_fragment_coord<wg::tf32>(5, 1) == wg::coord{9, 1});
  CHECK(wg::a_fragment_coord<wg::e4m3>(5, 13) == wg::coord{9, 21});
  CHECK(wg::a_fragment_coord<wg::e5m2>(33, 2) == wg::coord{16, 6});
  check_fragment_bijection<wg::bf16>();
  check_fragment_bijection<wg::tf32>();
  check_fragment_bijection<wg::e4m3>();
  wg::a_fragment<wg::bf16> b{};
  b.set_bits(3, 0xABCD);
  CHECK(b.reg[1] == 0xABCD0000u);
  b.set_bits(2, 0x1234);
  CHECK(b.reg[1] == 0xABCD1234u);
  wg::a_fragment<wg::e4m3> q{};
  q.set_bits(6, 0x7F);
  CHECK(q.reg[1] == 0x007F0000u);
  wg::a_fragment<wg::tf32> t{};
  t.set_bits(3, 0x3F800000u);
  CHECK(t.reg[3] == 0x3F800000u);
}

TEST_CASE("sparse metadata slots: hand-worked cases") {
  using S = wg::metadata_slot;
  const auto eq = [](S a, S b) { return a.thread == b.thread && a.shift == b.shift; };
  CHECK(eq(wg::metadata_slot_of<wg::bf16>(0, 0, 0), S{0, 0}));
  CHECK(eq(wg::metadata_slot_of<wg::bf16>(0, 0, 1), S{2, 0}));
  CHECK(eq(wg::metadata_slot_of<wg::bf16>(8, 0, 0), S{0, 16}));
  CHECK(eq(wg::metadata_slot_of<wg::f16>(0, 4, 0), S{1, 0}));
  CHECK(eq(wg::metadata_slot_of<wg::f16>(17, 5, 0), S{37, 4}));
  CHECK(eq(wg::metadata_slot_of<wg::f16>(63, 7, 1), S{127, 28}));
  CHECK(eq(wg::metadata_slot_of<wg::tf32>(9, 6, 1), S{4 + 2 + 1, 16 + 8}));
  CHECK(eq(wg::metadata_slot_of<wg::e4m3>(8, 8, 0), S{3, 0}));
  CHECK(eq(wg::metadata_slot_of<wg::e4m3>(0, 15, 0), S{2, 28}));
  CHECK(eq(wg::metadata_slot_of<wg::e5m2>(9, 3, 0), S{5, 12}));
  CHECK(wg::is_valid_selector<wg::bf16>(1));
  CHECK_FALSE(wg::is_valid_selector<wg::bf16>(2));
  CHECK_FALSE(wg::is_valid_selector<wg::e4m3>(1));
  CHECK(wg::metadata_nibble<wg::bf16>(1, 2) == 0x9u);
  CHECK(wg::metadata_nibble<wg::bf16>(0, 3) == 0xCu);
  CHECK(wg::metadata_nibble<wg::tf32>(0, 0) == 0x4u);
  CHECK(wg::metadata_nibble<wg::tf32>(1, 0) == 0xEu);
}

TEST_CASE("prune_2_4 keeps the two largest magnitudes and builds the metadata words (bf16)") {
  // Every chunk {0, 0, 5, -7} keeps indices 2 and 3 (nibble 0xE), except two hand-made ones.
  std::vector<float> d(64 * 32);
  for (std::size_t i = 0; i < d.size(); ++i) d[i] = (i % 4 == 2) ? 5.f : (i % 4 == 3) ? -7.f : 0.f;
  const float row0_chunk0[4] = {0.5f, -3.f, 2.f, 1.f};  // keeps 1, 2: nibble 0b1001
  const float row8_chunk1[4] = {1.f, 0.f, 0.f, 2.f};    // keeps 0, 3: nibble 0b1100
  for (int i = 0; i < 4; ++i) d[i] = row0_chunk0[i], d[8 * 32 + 4 + i] = row8_chunk1[i];
  for (int sel : {0, 1}) {
    const wg::sparse_tile s = wg::prune_2_4<wg::bf16>(d, 32, sel);
    REQUIRE(s.metadata.size() == 128);
    CHECK(s.metadata[std::size_t(2 * sel)] == 0xEECEEEE9u);  // row 0 (bits 0..15), row 8 (16..31)
    CHECK(s.metadata[std::size_t(2 * sel + 1)] == 0xEEEEEEEEu);  // chunks 4..7 of rows 0 and 8
    CHECK(s.metadata[std::size_t(2 - 2 * sel)] == wg::unread_metadata_word);  // the other pair
    CHECK(s.metadata[127 - std::size_t(2 * (1 - sel))] == 0xEEEEEEEEu);
    CHECK(s.compressed[0] == -3.f);
    CHECK(s.compressed[1] == 2.f);
    CHECK(s.compressed[2] == 5.f);
    CHECK(s.compressed[8 * 16 + 2] == 1.f);
    CHECK(s.compressed[8 * 16 + 3] == 2.f);
    CHECK(s.pruned[0] == 0.f);
    CHECK(s.pruned[1] == -3.f);
    CHECK(s.pruned[2] == 2.f);
    CHECK(s.pruned[3] == 0.f);
  }
  // Ties keep the lower indices.
  std::vector<float> ones(64 * 32, 1.f);
  const wg::sparse_tile t = wg::prune_2_4<wg::f16>(ones, 32, 0);
  CHECK(t.metadata[0] == 0x44444444u);
  CHECK(t.pruned[2] == 0.f);
}

TEST_CASE("prune_2_4: tf32 keeps one of two, fp8 spreads metadata over all four threads") {
  std::vector<float> t(64 * 16);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = (i % 2 == 1) ? -0.5f : 0.25f;  // keeps 1: 0xE
  t[2] = 2.f;  // row 0, chunk 1 keeps 0: nibble 4 at bits 4..7
  const wg::sparse_tile s = wg::prune_2_4<wg::tf32>(t, 16, 0);
  CHECK(s.metadata[0] == 0xEEEEEE4Eu);
  CHECK(s.metadata[2] == wg::unread_metadata_word);
  CHECK(s.compressed[0] == -0.5f);
  CHECK(s.compressed[1] == 2.f);

  std::vector<float> q(64 * 64);
  for (std::size_t i = 0; i < q.size(); ++i) q[i] = (i % 4 == 2) ? 5.f : (i % 4 == 3) ? -7.f : 0.f;
  for (int i = 0; i < 4; ++i) q[9 * 64 + 48 + i] = i == 0 ? 3.f : 0.f;  // row 9, chunk 12: nibble 4
  const wg::sparse_tile f = wg::prune_2_4<wg::e4m3>(q, 64, 0);
  CHECK(f.metadata[7] == 0xEEE4EEEEu);  // thread 4*1 + 2*1 + 1: row 9 (+8), chunks 8..15
  for (int th = 0; th < 128; ++th)
    if (th != 7) REQUIRE(f.metadata[std::size_t(th)] == 0xEEEEEEEEu);
  CHECK(f.compressed[9 * 32 + 24] == 3.f);
  CHECK(f.compressed[9 * 32 + 25] == 0.f);
}

TEST_CASE("prune_2_4 refuses what the instruction cannot take") {
  std::vector<float> d(64 * 32);
  CHECK_THROWS_AS(wg::prune_2_4<wg::bf16>(d, 16, 0), cuprobe::error);  // K below one sparse step
  CHECK_THROWS_AS(wg::prune_2_4<wg::bf16>(d, 64, 0), cuprobe::error);  // size mismatch
  CHECK_THROWS_AS(wg::prune_2_4<wg::bf16>(d, 32, 2), cuprobe::error);
  std::vector<float> q(64 * 64);
  CHECK_THROWS_AS(wg::prune_2_4<wg::e4m3>(q, 64, 1), cuprobe::error);
  try {
    wg::prune_2_4<wg::e5m2>(q, 64, 1);
  } catch (const cuprobe::error& e) {
    CHECK(std::string(e.what()).find("sparsity selector 1 is not 0") != std::string::npos);
  }
  const wg::sparse_tile two = wg::prune_2_4<wg::bf16>(std::vector<float>(64 * 64, 1.f), 64, 1);
  CHECK(two.metadata.size() == 256);
  CHECK(two.metadata[128 + 2] == 0x44444444u);
}
