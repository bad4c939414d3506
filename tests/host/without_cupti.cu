// host tier: the whole public library built as on a toolkit without CUPTI's profiler headers
// (CUPROBE_WITHOUT_CUPTI, what CMake's CUPROBE_WITH_CUPTI=OFF sets): it compiles, and a counter
// request gets one sentence saying why it has no counters. Its own program (the define must come
// before the first include), not one of the unity-built host programs.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/cuprobe.cuh>

#include <string>

static_assert(CUPROBE_CUPTI_HEADERS == 0, "CUPROBE_WITHOUT_CUPTI must leave CUPTI out");

TEST_CASE("without CUPTI: a request parses, the profiler is never ready and says why") {
  const auto req = cuprobe::counters::parse("dram,sol");
  CHECK_FALSE(req.empty());
  cuprobe::counters::profiler p(req);
  CHECK_FALSE(p.ready());
  CHECK(p.missing().find("compiled without CUPTI") != std::string::npos);
  CHECK_THROWS_AS(p.collect([] {}, nullptr), cuprobe::error);
  cuprobe::counters::profiler none(cuprobe::counters::parse(""));
  CHECK(none.missing().empty());
}
