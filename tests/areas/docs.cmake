# docs: the code blocks of README.md and docs/*.md marked "```cpp compile" or "```cpp body"
# compile (tests/docs/check_snippets.cmake: one translation unit for all of them, each block
# reported by its page and line). Host tier: no GPU.
add_test(NAME host.docs_snippets
  COMMAND "${CMAKE_COMMAND}" -DROOT=${PROJECT_SOURCE_DIR} -DNVCC=${CMAKE_CUDA_COMPILER}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/docs_snippets -P "${CMAKE_CURRENT_SOURCE_DIR}/docs/check_snippets.cmake")
set_tests_properties(host.docs_snippets PROPERTIES LABELS host TIMEOUT 1800
                     FAIL_REGULAR_EXPRESSION "cuprobe-docs: FAILED")
# The grouping hides no failure: in tests/docs/fixture/page.md the third block does not compile;
# the check names it by its line, still reports the other two as compiling, and fails.
set(_fixture "${CMAKE_CURRENT_SOURCE_DIR}/docs/fixture/page.md")
add_test(NAME host.docs_snippets_grouping_reports_each
  COMMAND "${CMAKE_COMMAND}" -DROOT=${PROJECT_SOURCE_DIR} -DNVCC=${CMAKE_CUDA_COMPILER}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/docs_snippets_fixture "-DDOCS=${_fixture}"
          "-DBODY_PRELUDE=#include <cuprobe/core/device_info.cuh>\n#include <cstdio>\n"
          -P "${CMAKE_CURRENT_SOURCE_DIR}/docs/check_snippets.cmake")
set_tests_properties(host.docs_snippets_grouping_reports_each PROPERTIES LABELS host PASS_REGULAR_EXPRESSION
  "page.md:4: compiles [(]alone[)].*page.md:10: compiles [(]alone[)].*page.md:14: does NOT compile.*undeclared_on_purpose.*cuprobe-docs: FAILED")
