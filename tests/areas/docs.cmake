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
# Figures in the docs are quoted from the reference set by key (tools/docs_figures.py): every
# <!--fig SET KEY FORMAT-->TEXT<!--/fig--> marker of README.md and docs/*.md names a key of
# docs/results/SET/summary.json and shows its formatted value. The fixture proves the check
# fails on a wrong value and on an unknown key, naming the line of each.
if(Python3_EXECUTABLE)
  add_test(NAME host.docs_figures
    COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tools/docs_figures.py" --check)
  set_tests_properties(host.docs_figures PROPERTIES LABELS host
                       FAIL_REGULAR_EXPRESSION "docs_figures: FAILED")
  set(_figures "${CMAKE_CURRENT_SOURCE_DIR}/docs/fixture")
  add_test(NAME host.docs_figures_catches
    COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tools/docs_figures.py" --check
            --summary "${_figures}/figures_summary.json" --docs "${_figures}/figures.md")
  set_tests_properties(host.docs_figures_catches PROPERTIES LABELS host PASS_REGULAR_EXPRESSION
    "figures.md:5: 'fixture.read.tbps' shows '4.5'[^\n]*\n[^\n]*figures.md:7: unknown key 'fixture.no_such_key'.*docs_figures: FAILED [(]2 problem")
else()
  message(STATUS "cuprobe: no Python 3 interpreter; host.docs_figures is not registered")
endif()
