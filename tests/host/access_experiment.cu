// host tier: cuprobe_suite/access.cuh without a GPU: every bad option of access_patterns and
// copy_curve is refused with a sentence naming the field before any CUDA call; the pattern
// lists hold what their comments say; the working sets derive from the device's L2 as stated.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe_suite/access.cuh>

#include <set>
#include <string>

#include "h200_like.cuh"

namespace ex = cuprobe::suite;
namespace model = cuprobe::model;
using doctest::Contains;

TEST_CASE("access_patterns: bad options are refused before the GPU is touched") {
  const auto dev = cuprobe_test::h200_like();
  auto refuses = [&](const ex::access_options& o, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(ex::access_patterns(dev, o), Contains(words), cuprobe::error);
  };
  ex::access_options o;
  o.ops = {};
  refuses(o, "access_patterns: ops must not be empty");
  o = {};
  o.levels = {};
  refuses(o, "levels must not be empty");
  o.levels = {ex::access_level::sweep};
  refuses(o, "levels are dram and l2");
  o = {};
  o.patterns = {ex::access_strided(3)};
  refuses(o, "access_pattern: width is 3");
  o.patterns = {ex::access_strided(4, 6)};
  refuses(o, "offset 6 is not a multiple of the width 4");
  o.patterns = {ex::access_strided(4, 0, 40)};
  refuses(o, "stride is 40");
  model::access_pattern g = ex::access_strided(4, 100);
  g.shape = model::access_shape::gather;
  g.lines = 4;  // 8 lanes x 4 B from 100: past the 128-byte slot
  o.patterns = {g};
  refuses(o, "past the 128-byte slot of its line");
  o = {};
  o.run.blocks_per_sm = 0;
  refuses(o, "access_patterns: blocks_per_sm is 0");
  o = {};
  o.run.threads = 100;
  refuses(o, "threads is 100");
  o = {};
  o.run.dram_l2_factor = 0.5;
  refuses(o, "dram_l2_factor must be 1 .. 256");
  o = {};
  o.run.l2_fraction = 1;
  refuses(o, "l2_fraction must be in (0, 0.5]");
  o = {};
  o.run.bytes_per_launch = -1;
  refuses(o, "bytes_per_launch must be 0 .. 10 TB");
  o = {};
  o.run.max_array_bytes = 4096;
  refuses(o, "max_array_bytes must be at least 128 KiB");
  o = {};
  o.run.run.iterations = 4;
  refuses(o, "leave run.mode and run.iterations alone");
  o = {};
  o.run.run.warmup = std::size_t(-1);
  refuses(o, "access_patterns: run_options.warmup");
  auto no_l2 = dev;
  no_l2.l2_bytes = 0;
  CHECK_THROWS_WITH_AS(ex::access_patterns(no_l2, ex::access_options{}),
                       Contains("the device reports no L2 size"), cuprobe::error);
  CHECK_NOTHROW(ex::access_options{}.validate());
}

TEST_CASE("copy_curve: bad options are refused before the GPU is touched") {
  const auto dev = cuprobe_test::h200_like();
  auto refuses = [&](const ex::copy_curve_options& o, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(ex::copy_curve(dev, o), Contains(words), cuprobe::error);
  };
  ex::copy_curve_options o;
  o.widths = {};
  refuses(o, "copy_curve: widths must not be empty");
  o.widths = {4, 2};
  refuses(o, "widths are 4, 8 or 16 bytes, got 2");
  o = {};
  o.points_per_octave = 0;
  refuses(o, "points_per_octave must be 1 .. 16");
  o = {};
  o.min_bytes = 1024;
  refuses(o, "min_bytes must be at least 4 KiB");
  o = {};
  o.max_l2_factor = 0;
  refuses(o, "max_l2_factor must be in (0, 64]");
  o = {};
  o.min_bytes = 1e12;
  refuses(o, "min_bytes is above max_l2_factor x the L2");
  o = {};
  o.run.threads = 2048;
  refuses(o, "copy_curve: threads is 2048");
  CHECK_NOTHROW(ex::copy_curve_options{}.validate());
}

TEST_CASE("access pattern lists") {
  // Offsets 0 .. 128: every 4 bytes for narrow elements, every width for wide ones.
  CHECK(ex::access_offset_sweep(4).size() == 33);
  CHECK(ex::access_offset_sweep(1).size() == 33);
  CHECK(ex::access_offset_sweep(16).size() == 9);
  CHECK(ex::access_offset_sweep(8, 16).size() == 9);
  for (const auto& p : ex::access_offset_sweep(8)) CHECK(p.offset % 8 == 0);
  CHECK(ex::access_stride_sweep(4).size() == 32);
  CHECK(ex::access_stride_sweep(4, true).size() == 6);  // 1, 2, 4, 8, 16, 32
  // Gathers that fit: 16-byte lanes need at least 4 lines (8 x 16 B = 128 B per line).
  const auto g16 = ex::access_shape_set(16);
  CHECK(g16.size() == 1 + 4);  // permutation + 4, 8, 16, 32 lines
  CHECK(ex::access_shape_set(4).size() == 1 + 6);
  // The test set: every pattern valid, no label twice, every width present.
  std::set<std::string> labels;
  std::set<unsigned> widths;
  for (const auto& p : ex::access_test_set()) {
    CHECK_NOTHROW(cuprobe::suite::kernels::access_layout_of(p));
    CHECK(labels.insert(model::label(p)).second);
    widths.insert(p.width);
  }
  CHECK(widths == std::set<unsigned>{1, 2, 4, 8, 16});
  CHECK(labels.count("w4 o4 s1") == 1);  // the misaligned headlines
  CHECK(labels.count("w16 o16 s1") == 1);
  CHECK(labels.count("w16 o0 s2") == 1);  // the stride-2 headline
  CHECK(labels.count("w4 o0 gather32") == 1);
}

TEST_CASE("access working sets derive from the L2") {
  const auto dev = cuprobe_test::h200_like();  // 60 MiB of L2
  ex::access_run_options o;
  // DRAM, aligned 4-byte read: 8 x 60 MiB of sectors = 480 MiB, every byte touched.
  CHECK(ex::access_array_bytes_for(dev, ex::access_strided(4), ex::access_op::read,
                                   ex::access_level::dram, o) == 480ull << 20);
  // A copy splits it between its two arrays.
  CHECK(ex::access_array_bytes_for(dev, ex::access_strided(4), ex::access_op::copy,
                                   ex::access_level::dram, o) == 240ull << 20);
  // Stride 2: lanes 8 B apart touch all 8 sectors of a 256-byte region (half of each used), so
  // the array equals the touched bytes again.
  CHECK(ex::access_array_bytes_for(dev, ex::access_strided(4, 0, 2), ex::access_op::read,
                                   ex::access_level::dram, o) == 480ull << 20);
  // Stride 32 of 16-byte lanes: one sector in every 512 bytes; a region ends at 31 x 512 + 16 =
  // 15888 bytes, rounded up to 16000 (125 lines), and touches 32 sectors.
  const auto sparse = ex::access_strided(16, 0, 32);
  CHECK(cuprobe::suite::kernels::access_region_bytes(sparse) == 16000);
  const std::uint64_t regions = (480ull << 20) / (32 * 32);  // 32 sectors of 32 B per region
  CHECK(ex::access_array_bytes_for(dev, sparse, ex::access_op::read, ex::access_level::dram, o) ==
        regions * 16000);
  // L2: an eighth of the L2 (7.5 MiB) of sectors.
  CHECK(ex::access_array_bytes_for(dev, ex::access_strided(16), ex::access_op::read,
                                   ex::access_level::l2, o) == 7864320);
  // A gather over 32 lines: groups of 32 regions over 32 pages; one sector per line touched, so
  // a group (128 KiB) touches 32 x 32 sectors = 32 KiB.
  model::access_pattern g = ex::access_strided(4);
  g.shape = model::access_shape::gather;
  g.lines = 32;
  CHECK(cuprobe::suite::kernels::access_sectors_per_group(g) == 32 * 32);
  CHECK(ex::access_array_bytes_for(dev, g, ex::access_op::read, ex::access_level::l2, o) ==
        7864320 / 32768 * 131072);
}

TEST_CASE("access summary keys: predictions always, measurements when measured") {
  using keys_t = std::vector<std::pair<std::string, double>>;
  // keys[from..] are `want`, in order
  const auto expect_keys = [](const keys_t& keys, std::size_t from, const keys_t& want) {
    REQUIRE(keys.size() >= from + want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
      CHECK(keys[from + i].first == want[i].first);
      CHECK(keys[from + i].second == doctest::Approx(want[i].second));
    }
  };
  ex::access_result r;
  auto keys = ex::access_summary_metrics(r);
  // Each headline: the sector model's fraction, then the DRAM bytes the pair model reads per
  // byte used (16 B at stride 2: 16 pairs of 64 B for 512 B; 4 B at offset 4: 3 pairs for 128 B;
  // 16 B at offset 16: 9 pairs for 512 B).
  CHECK(keys.size() == 6);
  expect_keys(keys, 0,
              {{"access.stride2.predicted", 0.5},
               {"access.stride2.dram_read_predicted", 2.0},
               {"access.misaligned4.predicted", 128.0 / 160},
               {"access.misaligned4.dram_read_predicted", 1.5},
               {"access.misaligned16.predicted", 512.0 / 544},
               {"access.misaligned16.dram_read_predicted", 576.0 / 512}});
  ex::access_point p;
  p.pattern = ex::access_strided(16, 0, 2);
  p.op = ex::access_op::read;
  p.level = ex::access_level::dram;
  p.measured_fraction = 0.49;
  r.points.push_back(p);
  keys = ex::access_summary_metrics(r);
  CHECK(keys.size() == 7);
  expect_keys(keys, 0, {{"access.stride2.fraction", 0.49}});
  CHECK(ex::access_stride2(r, ex::access_level::l2).fraction == std::nullopt);
  // With DRAM counters: the bytes DRAM read per byte declared, and DRAM's busy share of the
  // point and of its aligned twin (16-byte lanes, offset 0, stride 1).
  const auto counted = [](double bytes_read, double busy) {
    cuprobe::counters::result c;
    c.spec = "dram";
    c.values = {
        {"dram__bytes_read.sum", "DRAM bytes read", bytes_read, "byte"},
        {"dram__throughput.avg.pct_of_peak_sustained_elapsed", "DRAM busy", busy, "percent"}};
    return c;
  };
  r.points[0].m.declared = cuprobe::work::bytes_moved(1000, 0, "1000 B read");
  r.points[0].m.counters = counted(2000, 91);
  ex::access_point aligned = p;
  aligned.pattern = ex::access_strided(16);
  aligned.m.counters = counted(1000, 88);
  r.points.push_back(aligned);
  keys = ex::access_summary_metrics(r);
  CHECK(keys.size() == 10);
  expect_keys(keys, 3,
              {{"access.stride2.dram_read_per_declared", 2.0},
               {"access.stride2.dram_busy_percent", 91},
               {"access.stride2.aligned_dram_busy_percent", 88}});
  // With the DRAM model declared: how far the counts are from it, over every counted DRAM point.
  r.points[0].m.declared.with_dram_model(2100, 0);  // counted 2000: 4.8 % below
  r.points[1].m.declared.with_dram_model(1000, 0);  // counted 1000: on the model
  keys = ex::access_summary_metrics(r);
  CHECK(keys.size() == 13);
  expect_keys(keys, 10,
              {{"access.dram_model.points", 2},
               {"access.dram_model.read_error_max", 100.0 / 2100},
               {"access.dram_model.write_error_max", 0}});
}
