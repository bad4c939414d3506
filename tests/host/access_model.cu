// host tier: model/access.cuh, the sector model of one warp's request, on hand-worked cases
// (each case's sectors, lines and useful fraction worked out in its comment), the three shapes,
// and the refusals of patterns that cannot be issued.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/model/access.cuh>
#include <cuprobe_suite/kernels/access.cuh>

#include <set>

using cuprobe::model::access_pattern;
using cuprobe::model::access_shape;
using cuprobe::model::warp_sectors;
using doctest::Contains;

namespace {
access_pattern strided(unsigned width, std::uint64_t offset, unsigned stride) {
  access_pattern p;
  p.width = width;
  p.offset = offset;
  p.stride = stride;
  return p;
}
void expect(const access_pattern& p, unsigned sectors, unsigned lines, double useful) {
  const auto c = warp_sectors(p);
  CHECK(c.sectors == sectors);
  CHECK(c.lines == lines);
  CHECK(c.useful_bytes == 32 * p.width);
  CHECK(c.useful_fraction() == doctest::Approx(useful));
}
}  // namespace

TEST_CASE("strided patterns: coalesced, misaligned, non-contiguous") {
  // 32 x 4 B from 0: bytes [0, 128) = sectors 0..3, line 0, all used.
  expect(strided(4, 0, 1), 4, 1, 1.0);
  // From 4: bytes [4, 132) = sectors 0..4, lines 0..1; 128 of 160 bytes used.
  expect(strided(4, 4, 1), 5, 2, 128.0 / 160);
  // From 124: [124, 252) = sectors 3..7, lines 0..1.
  expect(strided(4, 124, 1), 5, 2, 128.0 / 160);
  // Stride 2: lanes 8 B apart over [0, 256): 4 lanes per sector, 8 sectors, 2 lines, half used.
  expect(strided(4, 0, 2), 8, 2, 0.5);
  // Stride 8: lanes 32 B apart: one lane per sector, 32 sectors over 8 lines, 4 of 32 B used.
  expect(strided(4, 0, 8), 32, 8, 0.125);
  // Stride 32: lanes 128 B apart: one lane per line, 32 sectors, 32 lines.
  expect(strided(4, 0, 32), 32, 32, 0.125);
  // 16 B per lane: [0, 512) = 16 sectors, 4 lines, all used; from 16: [16, 528) = 17 and 5.
  expect(strided(16, 0, 1), 16, 4, 1.0);
  expect(strided(16, 16, 1), 17, 5, 512.0 / 544);
  // 8 B, stride 4: lanes 32 B apart, 8 of each sector used: 32 sectors, 8 lines.
  expect(strided(8, 0, 4), 32, 8, 0.25);
  // 1 B per lane: [0, 32) is one sector; from 31: [31, 63) is two.
  expect(strided(1, 0, 1), 1, 1, 1.0);
  expect(strided(1, 31, 1), 2, 1, 0.5);
  // 2 B, from 126: [126, 190) = sectors 3..5, lines 0..1.
  expect(strided(2, 126, 1), 3, 2, 64.0 / 96);
}

// The DRAM bytes of one request, each checked against the counts of every access_patterns point
// at DRAM on an H100 (docs/access-patterns.md): a load reads the 64-byte pair of every sector;
// a store reads each sector it writes in part, and writes every sector.
TEST_CASE("the DRAM bytes of a request: 64-byte pairs read, partial sectors filled") {
  const auto dram = [](unsigned w, std::uint64_t o, unsigned st, unsigned pairs, unsigned partial,
                       unsigned sectors) {
    const auto c = cuprobe::model::warp_sectors(strided(w, o, st));
    CAPTURE(cuprobe::model::label(strided(w, o, st)));
    CHECK(c.pairs == pairs);
    CHECK(c.partial_sectors == partial);
    CHECK(c.dram_load_bytes() == 64.0 * pairs);
    CHECK(c.dram_store_read_bytes() == 32.0 * partial);
    CHECK(c.dram_store_write_bytes() == 32.0 * sectors);
  };
  dram(4, 0, 1, 2, 0, 4);   // [0, 128): 2 pairs, every sector whole
  dram(4, 4, 1, 3, 2, 5);   // [4, 132): pairs 0..2 (1.5 x the bytes used), sectors 0 and 4 in part
  dram(1, 0, 1, 1, 0, 1);   // [0, 32): one whole sector, its pair read (2 x)
  dram(1, 36, 1, 2, 2, 2);  // [36, 68): sectors 1 and 2 in part, in pairs 0 and 1
  dram(16, 0, 2, 16, 32, 32);  // 16 B every 32 B: 32 sectors, each half written, 16 pairs
  dram(16, 16, 1, 9, 2, 17);   // [16, 528): 9 pairs, the first and last sector in part
  dram(2, 0, 32, 32, 32, 32);  // 2 B every 64 B: a pair and a partial sector per lane
}

TEST_CASE("a permutation within the warp touches the coalesced pattern's sectors") {
  for (unsigned seed : {0u, 1u, 7u, 31u})
    for (unsigned w : {1u, 4u, 16u}) {
      access_pattern p = strided(w, 0, 1);
      p.shape = access_shape::permuted;
      p.seed = seed;
      std::set<std::uint64_t> offsets;
      for (unsigned l = 0; l < 32; ++l) offsets.insert(p.lane_offset(l));
      CHECK(offsets.size() == 32);  // a permutation: every element once
      const auto c = warp_sectors(p), d = warp_sectors(strided(w, 0, 1));
      CHECK(c.sectors == d.sectors);
      CHECK(c.lines == d.lines);
    }
}

TEST_CASE("a gather over k lines touches k lines and one sector per 32 B of each") {
  access_pattern p = strided(4, 0, 1);
  p.shape = access_shape::gather;
  // 4 lines, 8 lanes of 4 B in each: 32 B per line = one sector each.
  p.lines = 4;
  expect(p, 4, 4, 1.0);
  // 32 lines, one lane each: 32 sectors, 4 of 32 bytes used.
  p.lines = 32;
  expect(p, 32, 32, 0.125);
  // 2 lines of 16 lanes x 4 B = 64 B each: 2 sectors per line.
  p.lines = 2;
  expect(p, 4, 2, 1.0);
  // 16 B lanes over 4 lines: 8 lanes x 16 B = 128 B, a whole line each.
  p.width = 16;
  p.lines = 4;
  expect(p, 16, 4, 1.0);
}

TEST_CASE("patterns that cannot be issued are refused, naming the field") {
  auto refused = [](access_pattern p, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(warp_sectors(p), Contains(words), cuprobe::error);
  };
  refused(strided(3, 0, 1), "width is 3");
  refused(strided(4, 2, 1), "offset 2 is not a multiple of the width 4");
  refused(strided(4, 0, 0), "stride is 0");
  refused(strided(4, 0, 33), "stride is 33");
  access_pattern g = strided(16, 0, 1);
  g.shape = access_shape::gather;
  g.lines = 2;  // 16 lanes x 16 B = 256 B per line
  refused(g, "more than a 128-byte line");
  g.lines = 0;
  refused(g, "lines is 0");
}

TEST_CASE("kernels::access_region_bytes: the pattern's span rounded up to a line") {
  using cuprobe::suite::kernels::access_region_bytes;
  CHECK(access_region_bytes(strided(4, 0, 1)) == 128);    // [0, 128)
  CHECK(access_region_bytes(strided(4, 4, 1)) == 256);    // [4, 132)
  CHECK(access_region_bytes(strided(1, 0, 1)) == 128);    // [0, 32)
  CHECK(access_region_bytes(strided(4, 0, 32)) == 4096);  // last lane at 31 x 128, 4 bytes
  CHECK(access_region_bytes(strided(16, 0, 2)) == 1024);  // last lane at 31 x 32, 16 bytes
  access_pattern g = strided(4, 0, 1);
  g.shape = access_shape::gather;
  g.lines = 4;  // last lane: line 3 (3 x 4096), slot 7 (28 bytes), 4 bytes: 12320 -> 12416
  CHECK(access_region_bytes(g) == 12416);
}

TEST_CASE("model::label names the shape") {
  CHECK(cuprobe::model::label(strided(16, 4, 1)) == "w16 o4 s1");
  access_pattern p = strided(4, 0, 1);
  p.shape = access_shape::permuted;
  p.seed = 1;
  CHECK(cuprobe::model::label(p) == "w4 o0 perm1");
  p.shape = access_shape::gather;
  p.lines = 8;
  CHECK(cuprobe::model::label(p) == "w4 o0 gather8");
  CHECK(warp_sectors(strided(4, 0, 2)).predicted_fraction() == doctest::Approx(0.5));
}

TEST_CASE("kernels::access_layout: regions never share a sector; gathers tile their pages") {
  using cuprobe::suite::kernels::access_layout_of;
  // Strided: one region after the other, region_bytes apart.
  const auto l = access_layout_of(strided(4, 4, 1));
  CHECK(l.group_bytes == 256);
  CHECK(l.regions_per_group() == 1);
  CHECK(l.region_start(3) == 768);
  CHECK(l.regions_in(1000) == 3);
  CHECK(l.bytes_of(3) == 768);
  // Gather over 4 lines: groups of 32 regions over 4 pages, region r in slot r mod 32.
  access_pattern g = strided(4, 0, 1);
  g.shape = access_shape::gather;
  g.lines = 4;
  const auto gl = access_layout_of(g);
  CHECK(gl.group_bytes == 4 * 4096);
  CHECK(gl.regions_per_group() == 32);
  CHECK(gl.region_start(0) == 0);
  CHECK(gl.region_start(1) == 128);
  CHECK(gl.region_start(31) == 31 * 128);
  CHECK(gl.region_start(32) == 4 * 4096);
  CHECK(gl.bytes_of(33) == 2 * 4 * 4096);
  CHECK(cuprobe::suite::kernels::access_sectors_per_group(g) == 32 * 4);
  // For several shapes: the sectors of 70 consecutive regions are distinct, and their count is
  // regions x the model's sectors per request.
  access_pattern shapes[] = {
      strided(4, 4, 1), strided(16, 16, 1), strided(1, 31, 1), strided(8, 0, 3), g,
      strided(2, 0, 1)};
  shapes[5].shape = access_shape::permuted;
  shapes[5].seed = 5;
  for (const auto& p : shapes) {
    CAPTURE(cuprobe::model::label(p));
    const auto lay = access_layout_of(p);
    std::set<std::uint64_t> sectors;
    std::size_t total = 0;
    for (std::uint64_t r = 0; r < 70; ++r) {
      std::set<std::uint64_t> mine;
      for (unsigned lane = 0; lane < 32; ++lane)
        for (unsigned b = 0; b < p.width; ++b)
          mine.insert((lay.region_start(r) + p.lane_offset(lane) + b) / 32);
      total += mine.size();
      for (auto s : mine) sectors.insert(s);
    }
    CHECK(sectors.size() == total);
    CHECK(total == 70 * warp_sectors(p).sectors);
  }
  // A gather whose lanes overrun the slot is refused.
  g.offset = 100;
  CHECK_THROWS_WITH_AS(access_layout_of(g), Contains("past the 128-byte slot of its line"),
                       cuprobe::error);
}

TEST_CASE("kernels::access_element_fold and access_expected_sink: the host twins") {
  using cuprobe::suite::kernels::access_element_fold;
  const std::uint64_t seed = 3;
  const auto word = [&](std::uint64_t i) {
    return cuprobe::host_random<std::uint32_t>(seed, i, 0u, 0xFFFFFFFFu);
  };
  CHECK(access_element_fold(seed, 8, 4) == word(2));
  CHECK(access_element_fold(seed, 8, 8) == (word(2) ^ word(3)));
  CHECK(access_element_fold(seed, 16, 16) == (word(4) ^ word(5) ^ word(6) ^ word(7)));
  CHECK(access_element_fold(seed, 9, 1) == ((word(2) >> 8) & 0xFF));  // little-endian byte 1
  CHECK(access_element_fold(seed, 10, 2) == (word(2) >> 16));
  // Two warps, 5 regions of a 4-byte stride-1 read, 3 passes: warp 1 reads regions 1 and 3.
  cuprobe::suite::kernels::access_args a;
  a.pattern = strided(4, 0, 1);
  a.layout = cuprobe::suite::kernels::access_layout_of(a.pattern);
  a.regions = 5;
  a.passes = 3;
  const std::uint32_t lane7 = word((128 + 28) / 4) + word((3 * 128 + 28) / 4);
  CHECK(cuprobe::suite::kernels::access_expected_sink(a, 2, 32 + 7, seed) == 3 * lane7);
}
