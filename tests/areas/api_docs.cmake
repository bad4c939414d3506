# api_docs: the API reference of include/cuprobe/ builds with doxygen (docs/Doxyfile) and every
# public entity has a sentence (scripts/api-docs.sh). Host tier: no GPU, no build. Skipped
# (exit 77, with a sentence) only when doxygen is not installed.
add_test(NAME host.api_docs
  COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/api-docs.sh" "${CMAKE_CURRENT_BINARY_DIR}/api_docs")
set_tests_properties(host.api_docs PROPERTIES LABELS host SKIP_RETURN_CODE 77)
# ... which must be able to fail: over tests/docs/fixture_api/ it names the one undocumented
# public function, and neither the documented one nor the one in a detail namespace.
add_test(NAME host.api_docs_catches
  COMMAND bash "${PROJECT_SOURCE_DIR}/scripts/api-docs.sh"
          --input "${CMAKE_CURRENT_SOURCE_DIR}/docs/fixture_api"
          "${CMAKE_CURRENT_BINARY_DIR}/api_docs_catches")
set_tests_properties(host.api_docs_catches PROPERTIES LABELS host SKIP_RETURN_CODE 77
  PASS_REGULAR_EXPRESSION
    "fixture_api/undocumented.cuh:11: cuprobe::undocumented_on_purpose\\(\\) \\(function\\).*api-docs: FAILED: 1 undocumented public entity"
  FAIL_REGULAR_EXPRESSION "cuprobe::documented_on_purpose|detail_on_purpose")
