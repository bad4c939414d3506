// host tier: ptx/fence.cuh tags and names, gen/ordering.cuh names, defaults and argument checks
// (everything that runs without a GPU).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/gen/ordering.cuh>
#include <cuprobe/ptx/fence.cuh>
#include <cuprobe_suite/ordering.cuh>

#include "h200_like.cuh"

#include <cmath>
#include <string>
#include <type_traits>

namespace g = cuprobe::gen;
namespace p = cuprobe::ptx;

// The tags are CCCL's, so they can be handed to cuda::ptx directly.
static_assert(std::is_same_v<p::scope::gpu, cuda::ptx::scope_gpu_t>);
static_assert(std::is_same_v<p::sem::acq_rel, cuda::ptx::sem_acq_rel_t>);
// In the host pass every valid combination is "supported" (no device code is generated here);
// invalid tags never are.
static_assert(p::fence_supported_v<p::sem::sc, p::scope::cluster>);
static_assert(!p::fence_supported_v<int, p::scope::gpu>);
static_assert(!p::fence_supported_v<p::sem::sc, int>);
static_assert(p::detail::fence_min_arch<p::sem::sc, p::scope::gpu> == 700);
static_assert(p::detail::fence_min_arch<p::sem::sc, p::scope::cluster> == 900);
static_assert(p::detail::fence_min_arch<p::sem::release, p::scope::cta> == 900);

TEST_CASE("scope_name and sem_name give the PTX spellings") {
  CHECK(std::string(p::scope_name<p::scope::cta>()) == "cta");
  CHECK(std::string(p::scope_name<p::scope::cluster>()) == "cluster");
  CHECK(std::string(p::scope_name<p::scope::gpu>()) == "gpu");
  CHECK(std::string(p::scope_name<p::scope::sys>()) == "sys");
  CHECK(std::string(p::sem_name<p::sem::sc>()) == "sc");
  CHECK(std::string(p::sem_name<p::sem::acq_rel>()) == "acq_rel");
  CHECK(std::string(p::sem_name<p::sem::acquire>()) == "acquire");
  CHECK(std::string(p::sem_name<p::sem::release>()) == "release");
  constexpr const char* n = p::scope_name<p::scope::gpu>();  // usable at compile time
  static_assert(n[0] == 'g');
}

TEST_CASE("publish_pattern names") {
  CHECK(std::string(g::to_string(g::publish_pattern::fence_then_atomic)) == "fence_then_atomic");
  CHECK(std::string(g::to_string(g::publish_pattern::acq_rel_atomic)) == "acq_rel_atomic");
  CHECK(std::string(g::to_string(g::publish_pattern::release_atomic_acquire_load)) ==
        "release_atomic_acquire_load");
  CHECK(g::last_block_sum_threads == 256);
}

TEST_CASE(
    "fence_cost results default to unsupported and unknown; bad arguments are refused first") {
  namespace ex = cuprobe::suite;
  const ex::fence_cost_result c;
  CHECK(!c.supported);
  CHECK(!c.with);
  CHECK(!c.without);
  CHECK(!c.cycles_per_fence);
  const ex::fence_cost_options o;
  CHECK(o.iterations == 1024);
  CHECK(o.run.stop.max_samples == 5);
  // Refused before any CUDA call, so the same sentence with or without a GPU.
  CHECK_THROWS_WITH_AS((ex::fence_cost<p::sem::sc, p::scope::gpu>(0, o)),
                       doctest::Contains("threads must be 1..1024"), cuprobe::error);
  ex::fence_cost_options none;
  none.run.stop = cuprobe::stopping_rule::fixed(0);
  CHECK_THROWS_WITH_AS((ex::fence_cost<p::sem::sc, p::scope::gpu>(32, none)),
                       doctest::Contains("min_samples"), cuprobe::error);
  ex::fence_cost_options zero;
  zero.iterations = 0;
  CHECK_THROWS_WITH_AS((ex::fence_cost<p::sem::sc, p::scope::gpu>(32, zero)),
                       doctest::Contains("iterations is 0"), cuprobe::error);
  CHECK_THROWS_WITH_AS(g::last_block_sum(0), doctest::Contains("max_blocks must be at least 1"),
                       cuprobe::error);
  ex::publish_consume_options pc;
  pc.launches = 0;
  CHECK_THROWS_WITH_AS(ex::publish_consume(g::publish_pattern::acq_rel_atomic, pc),
                       doctest::Contains("launches is 0"), cuprobe::error);
}

TEST_CASE("fence_cost placement: names, defaults, and the options' refusals before any CUDA call") {
  namespace ex = cuprobe::suite;
  CHECK(std::string(ex::to_string(ex::l2_home::unplaced)) == "unplaced");
  CHECK(std::string(ex::to_string(ex::l2_home::near)) == "near");
  CHECK(std::string(ex::to_string(ex::l2_home::far)) == "far");
  const ex::fence_cost_options o;
  CHECK(o.home == ex::l2_home::unplaced);  // the default stays: one allocation, wherever it lands
  CHECK(o.sm == 0);
  const ex::fence_cost_result c;
  CHECK(c.home == ex::l2_home::unplaced);
  CHECK(!c.sm);
  // Two clusters count as apart from 10 % on; an unsplit classification tells no line apart.
  ex::l2_line_homes h;
  h.near_cycles = 300;
  h.far_cycles = 320;
  CHECK(!h.separated());
  h.far_cycles = 560;
  CHECK(h.separated());
  CHECK(cuprobe::suite::kernels::fence_cost_rows == 8);
  CHECK(cuprobe::suite::kernels::fence_cost_unclaimed == 0xffffffffu);

  ex::fence_cost_options odd;
  odd.iterations = 100;  // not a multiple of the 8 rows
  CHECK_THROWS_WITH_AS((ex::fence_cost<p::sem::sc, p::scope::gpu>(32, odd)),
                       doctest::Contains("iterations is 100; it must be a multiple of 8"),
                       cuprobe::error);
  ex::fence_cost_options bad_home;
  bad_home.home = static_cast<ex::l2_home>(7);
  CHECK_THROWS_WITH_AS((ex::fence_cost<p::sem::sc, p::scope::gpu>(32, bad_home)),
                       doctest::Contains("home is not one of unplaced, near, far"), cuprobe::error);
  const auto dev = cuprobe_test::h200_like();
  ex::fence_cost_options far_sm;
  far_sm.sm = 132;
  CHECK_THROWS_WITH_AS(
      ex::fence_cost_by_home(dev, far_sm),
      doctest::Contains("fence_cost_by_home: sm is 132; the device has SMs 0 .. 131"),
      cuprobe::error);
  CHECK_THROWS_WITH_AS(ex::fence_cost_by_home(dev, odd), doctest::Contains("multiple of 8"),
                       cuprobe::error);
}
