// host tier: cuprobe_suite/dsm.cuh and the host half of cuprobe_suite/kernels/dsm.cuh: every bad
// option is refused with a sentence naming the field before any CUDA call (so the same sentence
// with or without a GPU); the rings, the end-node walk, the address decoding, the expected sums and
// the one-CTA-per-SM sizing are right.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe_suite/dsm.cuh>

#include <set>
#include <string>
#include <vector>

#include "h200_like.cuh"

namespace ex = cuprobe::suite;
namespace kernels = cuprobe::suite::kernels;
using doctest::Contains;

TEST_CASE("dsm_latency: bad options are refused before the GPU is touched") {
  const auto dev = cuprobe_test::h200_like();
  auto refuses = [&](const ex::dsm_latency_options& o, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(ex::dsm_latency(dev, o), Contains(words), cuprobe::error);
  };
  ex::dsm_latency_options o;
  o.cluster_sizes = {};
  refuses(o, "dsm_latency: cluster_sizes must not be empty");
  o = {};
  o.cluster_sizes = {2, 17};
  refuses(o, "cluster sizes are 1 .. 16 CTAs, got 17");
  o.cluster_sizes = {0};
  refuses(o, "got 0");
  o.cluster_sizes = {2, 4, 2};
  refuses(o, "cluster size 2 is listed twice");
  o = {};
  o.stride = 6;
  refuses(o, "stride is 6");
  o.stride = 0;
  refuses(o, "stride is 0");
  o = {};
  o.bytes = 4;
  refuses(o, "fewer than 2 nodes");
  o.bytes = dev.smem_per_block_optin + 4;
  refuses(o, "exceeds the 232448 bytes");
  o = {};
  o.steps = 0;
  refuses(o, "steps is 0");
  o.steps = (1ull << 30) + 1;
  refuses(o, "steps is 1073741825");
  o = {};
  o.run.batch = 2;
  refuses(o, "leave run.batch = 1");
  o = {};
  o.run.warmup = std::size_t(-1);
  refuses(o, "dsm_latency: run_options.warmup");
  // A device without clusters.
  auto a100 = dev;
  a100.cc_major = 8;
  CHECK_THROWS_WITH_AS(
      ex::dsm_latency(a100, ex::dsm_latency_options{}),
      Contains("needs thread block clusters (sm_90 or newer); this device is sm_80"),
      cuprobe::error);
  // The defaults pass, and the ring's default size derives from the device.
  CHECK_NOTHROW(ex::dsm_latency_options{}.validate(dev));
  CHECK(ex::dsm_latency_options{}.ring_bytes(dev) == 16384);
}

TEST_CASE("dsm_bandwidth: bad options are refused before the GPU is touched") {
  const auto dev = cuprobe_test::h200_like();
  auto refuses = [&](const ex::dsm_bw_options& o, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(ex::dsm_bandwidth(dev, o), Contains(words), cuprobe::error);
  };
  ex::dsm_bw_options o;
  o.widths = {};
  refuses(o, "widths must not be empty");
  o.widths = {16, 12};
  refuses(o, "widths are 4, 8 or 16 bytes per lane, got 12");
  o = {};
  o.threads = 100;
  refuses(o, "threads is 100");
  o.threads = 2048;
  refuses(o, "threads is 2048");
  o = {};
  o.rounds = 0;
  refuses(o, "rounds is 0");
  o = {};
  o.cluster_sizes = {32};
  refuses(o, "dsm_bandwidth: cluster sizes are 1 .. 16 CTAs, got 32");
  o = {};
  o.run.graph = true;
  refuses(o, "run.graph off");
  o = {};
  o.run.stop = cuprobe::stopping_rule::adaptive(0.1, -1);
  refuses(o, "max_rel_noise");
  auto a100 = dev;
  a100.cc_major = 8;
  CHECK_THROWS_WITH_AS(ex::dsm_bandwidth(a100, ex::dsm_bw_options{}), Contains("sm_90 or newer"),
                       cuprobe::error);
  CHECK_NOTHROW(ex::dsm_bw_options{}.validate(dev));
}

TEST_CASE("dsm: one CTA per SM takes more than half of the SM's shared memory") {
  const auto dev = cuprobe_test::h200_like();
  // 233472 / 2 + 1 rounded up to whole KiB: 115 KiB; two of them (plus the 1 KiB each CTA
  // reserves) do not fit one SM.
  const std::size_t chase = kernels::dsm_one_cta_per_sm_smem(dev, 16384);
  CHECK(chase == 115 * 1024);
  CHECK(2 * chase > dev.smem_per_sm);
  CHECK(chase <= dev.smem_per_block_optin);
  // 32 warps' regions are more than half already.
  CHECK(kernels::dsm_bw_bytes(1024) == 128 * 1024);
  CHECK(kernels::dsm_one_cta_per_sm_smem(dev, kernels::dsm_bw_bytes(1024)) == 128 * 1024);
  CHECK(kernels::dsm_bw_bytes(33) == 2 * kernels::dsm_bw_region);
  CHECK_THROWS_WITH_AS(kernels::dsm_one_cta_per_sm_smem(dev, dev.smem_per_block_optin + 1),
                       Contains("exceed the 232448 bytes"), cuprobe::error);
  auto none = dev;
  none.smem_per_sm = 0;
  CHECK_THROWS_WITH_AS(kernels::dsm_one_cta_per_sm_smem(none, 1), Contains("no shared memory"),
                       cuprobe::error);
}

TEST_CASE("dsm: every rank has its own ring, each one cycle through all nodes") {
  const std::uint32_t nodes = 257;
  const unsigned ranks = 4;
  const auto next = kernels::dsm_successors(nodes, ranks, 7);
  REQUIRE(next.size() == std::size_t(nodes) * ranks);
  for (unsigned r = 0; r < ranks; ++r) {
    std::set<std::uint32_t> seen;
    std::uint32_t p = 0;
    for (std::uint32_t i = 0; i < nodes; ++i) {
      CHECK(seen.insert(p).second);
      p = next[std::size_t(r) * nodes + p];
      REQUIRE(p < nodes);
    }
    CHECK(p == 0);  // back at the start after one pass
    CHECK(seen.size() == nodes);
  }
  // Different seeds per rank: the rings differ, so the end node says whose ring was chased.
  CHECK(std::vector<std::uint32_t>(next.begin(), next.begin() + nodes) !=
        std::vector<std::uint32_t>(next.begin() + nodes, next.begin() + 2 * nodes));
  unsigned differ = 0;
  for (unsigned r = 1; r < ranks; ++r)
    differ += kernels::dsm_expected_node(next, nodes, 0, 1000) !=
              kernels::dsm_expected_node(next, nodes, r, 1000);
  CHECK(differ >= 2);
  // The walk: 0 hops stays at node 0, one pass returns to it, k hops = k successor steps.
  CHECK(kernels::dsm_expected_node(next, nodes, 2, 0) == 0);
  CHECK(kernels::dsm_expected_node(next, nodes, 2, nodes) == 0);
  CHECK(kernels::dsm_expected_node(next, nodes, 2, 1) == next[2 * nodes]);
  CHECK(kernels::dsm_expected_node(next, nodes, 2, nodes + 2) == next[2 * nodes + next[2 * nodes]]);
  CHECK_THROWS_WITH_AS(kernels::dsm_expected_node(next, nodes, 4, 1),
                       Contains("rank 4 has no ring"), cuprobe::error);
}

TEST_CASE("dsm: the chase's end address decodes to a node of the ring, or to nothing") {
  kernels::dsm_chase_out o{};
  o.base = 0x01000400u;  // rank 1's window, dynamic shared memory at 0x400
  o.last = o.base + 4 * 100;
  CHECK(kernels::dsm_chase_node(o, 4096, 4) == 100u);
  o.last = o.base + 4 * 4096;  // one past the ring
  CHECK(!kernels::dsm_chase_node(o, 4096, 4));
  o.last = o.base + 6;  // not on a node
  CHECK(!kernels::dsm_chase_node(o, 4096, 4));
  o.last = o.base - 4;  // below the ring (another CTA's window, or a poisoned word)
  CHECK(!kernels::dsm_chase_node(o, 4096, 4));
  o.last = o.base + 128 * 3;
  CHECK(kernels::dsm_chase_node(o, 16, 128) == 3u);
}

TEST_CASE("dsm: the sums the bandwidth kernel leaves name the rank that was read") {
  // One round of 8 16-byte loads: lane 0 of warp 0 reads words 0..3 of chunks 0..7 (chunk = 128
  // words), each word w of rank r's region holding w ^ (warp << 16) ^ (r << 24).
  std::uint32_t want = 0;
  for (unsigned k = 0; k < 8; ++k)
    for (unsigned j = 0; j < 4; ++j) want += (k * 128 + j) ^ (3u << 24);
  CHECK(kernels::dsm_bw_sink(16, 8, 1, 0, 3) == want);
  CHECK(kernels::dsm_bw_sink(16, 8, 5, 0, 3) == 5 * want);
  // Another rank, lane or warp reads other words.
  CHECK(kernels::dsm_bw_sink(16, 8, 5, 0, 2) != kernels::dsm_bw_sink(16, 8, 5, 0, 3));
  CHECK(kernels::dsm_bw_sink(16, 8, 5, 1, 3) != kernels::dsm_bw_sink(16, 8, 5, 0, 3));
  CHECK(kernels::dsm_bw_sink(16, 8, 5, 32, 3) != kernels::dsm_bw_sink(16, 8, 5, 0, 3));
  // 4-byte loads: lane l reads word l of chunks 0..7 (chunk = 32 words).
  std::uint32_t four = 0;
  for (unsigned k = 0; k < 8; ++k) four += (k * 32 + 5) ^ (1u << 16) ^ (1u << 24);
  CHECK(kernels::dsm_bw_sink(4, 8, 1, 32 + 5, 1) == four);
  // Past the region the chunks wrap: 32 16-byte loads cover it 4 times over.
  CHECK(kernels::dsm_bw_sink(16, 32, 1, 0, 0) == 4 * kernels::dsm_bw_sink(16, 8, 1, 0, 0));
}
