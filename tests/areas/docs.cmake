# docs: the code blocks of README.md and docs/*.md marked "```cpp compile" compile
# (tests/docs/check_snippets.cmake). Host tier: no GPU.
add_test(NAME host.docs_snippets
  COMMAND "${CMAKE_COMMAND}" -DROOT=${PROJECT_SOURCE_DIR} -DNVCC=${CMAKE_CUDA_COMPILER}
          -DOUT=${CMAKE_CURRENT_BINARY_DIR}/docs_snippets -P "${CMAKE_CURRENT_SOURCE_DIR}/docs/check_snippets.cmake")
set_tests_properties(host.docs_snippets PROPERTIES LABELS host FAIL_REGULAR_EXPRESSION "cuprobe-docs: FAILED")
