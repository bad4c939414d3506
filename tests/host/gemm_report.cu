// host tier: cuprobe_suite/gemm_report.cuh's description of a GEMM row (gemm_kernel_config): the
// names that results and docs quote, and the parameters every row carries in the JSON; the split
// of its head-to-head rounds at a step (cuprobe_suite/levels.cuh).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe_suite/gemm_report.cuh>

#include <cstddef>
#include <string>
#include <vector>

namespace ex = cuprobe::suite;
namespace h = cuprobe::hopper;

TEST_CASE("gemm_kernel_config: the row names of examples/gemm") {
  ex::gemm_kernel_config k{4, 2, 2, false, 128, 256, {h::raster::grouped_m, 8}};
  CHECK(k.name() == "cluster 2, 4 stages, 2 epilogue buffers, grouped_m 8");
  k.options.promote = h::l2_promotion_mode::none;
  CHECK(k.name() == "cluster 2, 4 stages, 2 epilogue buffers, grouped_m 8, no L2 promotion");
  k.options = {h::raster::grouped_m, 8, h::tail_mode::on};
  CHECK(k.name() == "cluster 2, 4 stages, 2 epilogue buffers, grouped_m 8, stream-K tail");
  k.options.tail = h::tail_mode::automatic;
  CHECK(k.name() ==
        "cluster 2, 4 stages, 2 epilogue buffers, grouped_m 8, stream-K tail auto (off)");
  k.tail_used = true;
  CHECK(k.name() ==
        "cluster 2, 4 stages, 2 epilogue buffers, grouped_m 8, stream-K tail auto (on)");
  k.options.order = h::raster::hilbert;  // no group in the name
  CHECK(k.name() == "cluster 2, 4 stages, 2 epilogue buffers, hilbert, stream-K tail auto (on)");
  const ex::gemm_kernel_config pp{5, 2, 1, true, 128, 192, {h::raster::grouped_m, 8}};
  CHECK(pp.name() == "ping-pong 128x192, cluster 2, 5 stages, 1 epilogue buffers, grouped_m 8");
  const ex::gemm_kernel_config direct{5, 2, 0, true, 128, 200, {h::raster::grouped_m, 8}};
  CHECK(direct.name() == "ping-pong 128x200, cluster 2, 5 stages, direct stores, grouped_m 8");
  cuprobe::measurement m;
  direct.describe(m);
  CHECK(m.params.at("epilogue").as_string() == "direct");
  CHECK(m.params.at("tile_n").as_integer() == 200);
}

TEST_CASE("gemm_kernel_config: describe() sets the row's parameters") {
  const ex::gemm_kernel_config k{
      4, 4, 2, false, 128, 256, {h::raster::grouped_m, 8, h::tail_mode::automatic}, true};
  cuprobe::measurement m;
  k.describe(m);
  CHECK(m.params.at("stages").as_integer() == 4);
  CHECK(m.params.at("cluster").as_integer() == 4);
  CHECK(m.params.at("raster").as_string() == "grouped_m");
  CHECK(m.params.at("stream_k_tail").as_string() == h::tail_mode_name(h::tail_mode::automatic));
  CHECK(m.params.at("stream_k_tail_used").as_bool());
  CHECK(m.params.at("schedule").as_string() == "cooperative");
  CHECK(m.params.at("tile_n").as_integer() == 256);
  CHECK(m.params.find("consumer_lag") == nullptr);  // removed with the lag rows
}

TEST_CASE("parse_gemm_shapes: --shapes of examples/gemm") {
  const auto s = ex::parse_gemm_shapes("8192x8192x2048,4096x4096x4096");
  REQUIRE(s.size() == 2);
  CHECK(s[0].name() == "8192x8192x2048");
  CHECK(s[1].m == 4096);
  CHECK(s[1].k == 4096);
  CHECK(ex::parse_gemm_shapes("1x2x3")[0].name() == "1x2x3");
  CHECK(ex::parse_gemm_shapes("1048575x1x1")[0].m == 1048575);
  for (const char* bad :
       {"", ",", "8192x8192x2048,", "8192x8192", "8192x8192x2048x1", "8192*8192*2048",
        "0x8192x2048", "-1x8192x2048", "8192x8192x1048576", "99999999999x1x1", " 8192x8192x2048",
        "8192x8192x2048 ", "8192xx8192x2048"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(ex::parse_gemm_shapes(bad), doctest::Contains("expected MxNxK[,MxNxK...]"),
                         cuprobe::error);
  }
}

TEST_CASE("split_levels: the two sides of a step, nothing without one") {
  // examples/gemm's cuBLASLt at 8192^3 on GPU-5d20bbbe: 4 rounds before the card stepped down.
  const auto lv = ex::split_levels({1.386, 1.388, 1.388, 1.386, 1.561, 1.563, 1.625, 1.653});
  CHECK(lv.stepped());
  CHECK(lv.low == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(lv.high == std::vector<std::size_t>{4, 5, 6, 7});
  CHECK_FALSE(ex::split_levels({1.0, 1.02, 1.04}).stepped());  // 4 %: noise, no step
  CHECK(ex::split_levels({1.0, 1.02, 1.04}, 0.03).stepped());
  CHECK_FALSE(ex::split_levels({}).stepped());
  CHECK_FALSE(ex::split_levels({0.0, 1.0}).stepped());  // no ratio to a zero
}
