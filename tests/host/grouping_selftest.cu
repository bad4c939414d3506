// host tier, the grouping self-test: the host programs hold many test files each (a unity
// build). This file holds one case that passes and one that fails on purpose; its test,
// host.grouping_selftest, passes only when the failure is reported under this file's own test,
// with its name and one failure in two cases (tests/areas/core.cmake). The other files of the
// same program see neither case (their tests select their own file).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

TEST_CASE("grouping self-test: this case passes") { CHECK(1 + 1 == 2); }

TEST_CASE("grouping self-test: this case fails on purpose") {
  const int planted = 1;
  CHECK(planted == 2);
}
