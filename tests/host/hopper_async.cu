// host tier: the host-side parts of the Hopper async headers: pipeline::state (constexpr, host
// and device), hopper/smem.cuh's alignment helpers and hopper/cluster.cuh's launch checks,
// which refuse a bad shape with a sentence before any CUDA call (no GPU needed).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/pipeline/state.cuh>
#include <cuprobe/ptx/mbarrier.cuh>

#include <string>

namespace p = cuprobe::ptx;
namespace h = cuprobe::hopper;

// Compile-time: the states are constexpr values.
static_assert(cuprobe::pipeline::make_consumer_start_state<4>() ==
              cuprobe::pipeline::state<4>{0, 0u});
static_assert(cuprobe::pipeline::make_producer_start_state<4>() ==
              cuprobe::pipeline::state<4>{0, 1u});
static_assert(cuprobe::pipeline::make_consumer_start_state<3>().next(3) ==
              cuprobe::pipeline::state<3>{0, 1u});
static_assert(cuprobe::pipeline::make_producer_start_state<3>().next(7) ==
              cuprobe::pipeline::state<3>{1, 1u});
static_assert(h::align_up<128>(129u) == 256u);
static_assert(h::is_aligned<1024>(std::size_t{4096}));
static_assert(h::dynamic_smem_bytes<1024>(4096) == 4096 + 1008);

TEST_CASE("pipeline::state wraps the stage at Stages and flips the phase on each wrap") {
  cuprobe::pipeline::state<3> s = cuprobe::pipeline::make_consumer_start_state<3>();
  const int stages[] = {0, 1, 2, 0, 1, 2, 0};
  const unsigned phases[] = {0, 0, 0, 1, 1, 1, 0};
  for (int i = 0; i < 7; ++i) {
    CAPTURE(i);
    CHECK(s.stage == stages[i]);
    CHECK(s.phase == phases[i]);
    CHECK(cuprobe::pipeline::make_consumer_start_state<3>().next(i) ==
          s);  // n steps at once == n single steps
    ++s;
  }
  cuprobe::pipeline::state<1> one{};
  one.advance();
  CHECK(one.stage == 0);
  CHECK(one.phase == 1u);
  one.advance(5);
  CHECK(one.phase == 0u);
}

TEST_CASE("the producer starts one phase ahead of the consumer, at every step") {
  auto prod = cuprobe::pipeline::make_producer_start_state<4>();
  auto cons = cuprobe::pipeline::make_consumer_start_state<4>();
  for (int i = 0; i < 100; ++i, ++prod, ++cons) {
    REQUIRE(prod.stage == cons.stage);
    REQUIRE(prod.phase == (cons.phase ^ 1u));
  }
}

TEST_CASE("alignment helpers round integers and pointers up to powers of two") {
  CHECK(h::align_up<16>(0u) == 0u);
  CHECK(h::align_up<16>(1u) == 16u);
  CHECK(h::align_up<1024>(std::uint32_t{0x400 + 1}) == 0x800u);
  CHECK(h::align_up(std::size_t{100}, std::size_t{48}) == 144u);
  alignas(1024) static unsigned char arena[4096];
  CHECK(h::align_up<128>(arena + 1) == arena + 128);
  CHECK(h::align_up<128>(arena + 128) == arena + 128);
  CHECK(h::is_aligned<1024>(arena));
  CHECK_FALSE(h::is_aligned<16>(arena + 8));
  CHECK(h::is_power_of_two(1024));
  CHECK_FALSE(h::is_power_of_two(0));
  CHECK_FALSE(h::is_power_of_two(48));
  static_assert(alignof(h::aligned_smem<float[8], 1024>) == 1024);
  static_assert(sizeof(h::aligned_smem<float[8], 128>) == 128);
  h::aligned_smem<int[4], 64> a{};
  a.value[2] = 7;
  CHECK((*a.data())[2] == 7);
}

namespace {
std::string refusal(const h::cluster_launch& c) {
  try {
    h::check_cluster_launch(c);
  } catch (const cuprobe::error& e) {
    return e.what();
  }
  return "";
}
h::cluster_launch shape(dim3 grid, dim3 block, dim3 cluster, bool non_portable = false) {
  h::cluster_launch c;
  c.shape = {grid, block, 0};
  c.cluster = cluster;
  c.allow_non_portable = non_portable;
  return c;
}
}  // namespace

TEST_CASE("check_cluster_launch accepts launchable shapes") {
  CHECK(refusal(shape(dim3(64), dim3(128), dim3(4))).empty());
  CHECK(refusal(shape(dim3(8, 4), dim3(32, 8), dim3(2, 4))).empty());
  CHECK(refusal(shape(dim3(16), dim3(64), dim3(16), true)).empty());
  CHECK(shape(dim3(64), dim3(128), dim3(4)).clusters() == 16u);
  CHECK(shape(dim3(8, 4), dim3(32), dim3(2, 4)).cluster_ctas() == 8u);
}

TEST_CASE("check_cluster_launch refuses bad shapes with a sentence naming the values") {
  auto s = refusal(shape(dim3(10), dim3(128), dim3(4)));
  CHECK(s.find("grid.x = 10 CTAs is not a multiple of cluster.x = 4") != std::string::npos);
  s = refusal(shape(dim3(8, 3), dim3(128), dim3(1, 2)));
  CHECK(s.find("grid.y = 3 CTAs is not a multiple of cluster.y = 2") != std::string::npos);
  s = refusal(shape(dim3(16), dim3(128), dim3(16)));
  CHECK(s.find("a cluster of 16 CTAs exceeds the portable maximum of 8") != std::string::npos);
  CHECK(s.find("allow_non_portable") != std::string::npos);
  s = refusal(shape(dim3(32), dim3(128), dim3(32), true));
  CHECK(s.find("a cluster of 32 CTAs exceeds the hardware maximum of 16") != std::string::npos);
  s = refusal(shape(dim3(8), dim3(0), dim3(2)));
  CHECK(s.find("must be at least 1") != std::string::npos);
  s = refusal(shape(dim3(8), dim3(2048), dim3(2)));
  CHECK(s.find("a block of 2048 threads exceeds the limit of 1024") != std::string::npos);
}
