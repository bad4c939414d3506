# core/ and testing/: host, gpu and sass tests.
cuprobe_host_test(core)
cuprobe_gpu_test(core)
set(_sass "${CMAKE_CURRENT_SOURCE_DIR}/sass")
# The SASS tier's self-tests prove that the checker fails: a missing pattern, a count that is
# not reached, a forbidden instruction that is present, a wrong order, a kernel filter that
# matches nothing, a region that does not exist, an instruction outside the loop and a loop
# pattern that matches nothing must each FAIL (EXPECT_FAILURE passes only on the checker's own
# message).
cuprobe_add_sass_test(selftest_present SOURCE ${_sass}/selftest.cu
  CHECK "FFMA >= 8" "!LDL|STL" SEQUENCE "LDG" "FFMA" "STG")
cuprobe_add_sass_test(selftest_missing_pattern_fails SOURCE ${_sass}/selftest.cu
  CHECK "DFMA" EXPECT_FAILURE)
cuprobe_add_sass_test(selftest_count_fails SOURCE ${_sass}/selftest.cu
  CHECK "FFMA >= 100000" EXPECT_FAILURE)
cuprobe_add_sass_test(selftest_forbidden_fails SOURCE ${_sass}/selftest.cu
  CHECK "!FFMA" EXPECT_FAILURE)
cuprobe_add_sass_test(selftest_order_fails SOURCE ${_sass}/selftest.cu
  SEQUENCE "STG" "LDG" EXPECT_FAILURE)
cuprobe_add_sass_test(selftest_function_filter_fails SOURCE ${_sass}/selftest.cu
  FUNCTION "no_such_kernel" CHECK "FFMA" EXPECT_FAILURE)
cuprobe_add_sass_test(selftest_between SOURCE ${_sass}/selftest.cu
  BETWEEN "LDG" "STG" CHECK "FFMA >= 8" "!LDG|STG")
cuprobe_add_sass_test(selftest_between_missing_fails SOURCE ${_sass}/selftest.cu
  BETWEEN "STG" "LDG" CHECK "FFMA" EXPECT_FAILURE)
# INSIDE_LOOP: the eight FMAs lie inside the loop; the store after it does not, and the failure
# names it (address and text); a pattern that matches nothing fails too.
cuprobe_add_sass_test(selftest_inside_loop SOURCE ${_sass}/selftest.cu INSIDE_LOOP "FFMA")
cuprobe_add_sass_test(selftest_inside_loop_outside_fails SOURCE ${_sass}/selftest.cu
  INSIDE_LOOP "STG" EXPECT_FAILURE)
if(TEST sass.selftest_inside_loop_outside_fails)
  set_tests_properties(sass.selftest_inside_loop_outside_fails PROPERTIES PASS_REGULAR_EXPRESSION
    "cuprobe-sass: FAILED: 'STG' at 0x[0-9a-f]+ lies outside the outermost loop .*: STG\\.E ")
endif()
cuprobe_add_sass_test(selftest_inside_loop_missing_fails SOURCE ${_sass}/selftest.cu
  INSIDE_LOOP "DFMA" EXPECT_FAILURE)

# A header-only program's device pass reads no impl/ body (core/linkage.cuh): every kernel the
# definitions' translation unit compiles (its device pass reads them all) must be compiled by a
# header-only one too, named in its header (CUPROBE_KEEP_KERNEL). The self-test: a file without
# cuprobe's kernels must fail the same comparison.
_cuprobe_find_cuobjdump(_cuobjdump)
if(_cuobjdump)
  _cuprobe_sass_cubin_listing(${_sass}/header_only_kernels.cu 90a Release "" cuprobe::cuprobe
                              "${_cuobjdump}" _header_only _log)
  _cuprobe_sass_cubin_listing(${_sass}/implementation_kernels.cu 90a Release
                              "-DCUPROBE_SEPARATE_COMPILATION" cuprobe::cuprobe "${_cuobjdump}"
                              _implementation _log)
  set(_link cuprobe::cuprobe)  # as cuprobe_add_sass_test links: the selftests' listing, reused
  if(DEFINED CUPROBE_SASS_DEFAULT_LINK)
    set(_link ${CUPROBE_SASS_DEFAULT_LINK})
  endif()
  _cuprobe_sass_cubin_listing(${_sass}/selftest.cu 90a Release "" "${_link}" "${_cuobjdump}"
                              _selftest _log)
  set(_subset "${CMAKE_CURRENT_SOURCE_DIR}/sass/kernels_subset.cmake")
  add_test(NAME sass.header_only_keeps_kernels COMMAND "${CMAKE_COMMAND}"
           "-DWANT=${_implementation}" "-DHAVE=${_header_only}" -P "${_subset}")
  add_test(NAME sass.header_only_keeps_kernels_selftest_fails COMMAND "${CMAKE_COMMAND}"
           "-DWANT=${_implementation}" "-DHAVE=${_selftest}" -P "${_subset}")
  set_tests_properties(sass.header_only_keeps_kernels PROPERTIES LABELS sass
                       PASS_REGULAR_EXPRESSION "cuprobe-sass: all [0-9]+ kernels")
  set_tests_properties(sass.header_only_keeps_kernels_selftest_fails PROPERTIES LABELS sass
                       PASS_REGULAR_EXPRESSION "cuprobe-sass: kernel missing: [^\n]*image_probe_kernel")
endif()

# The host programs group many test files (tests/CMakeLists.txt): a failing case stays visible
# under its own file's test, with its name, and a filter that selects nothing fails.
cuprobe_host_test(grouping_selftest)
set_tests_properties(host.grouping_selftest PROPERTIES FAIL_REGULAR_EXPRESSION ""
  PASS_REGULAR_EXPRESSION
  "TEST CASE: +grouping self-test: this case fails on purpose.*test cases: +2 [|] +1 passed [|] +1 failed")
add_test(NAME host.grouping_empty_filter_fails COMMAND host_tests_0 "--source-file=*/no/such/file.cu")
set_tests_properties(host.grouping_empty_filter_fails PROPERTIES LABELS host
  FAIL_REGULAR_EXPRESSION "test cases: +0 +[|]" WILL_FAIL TRUE)

# core/linkage.cuh's separate compilation, set up as a user would (cmake/cuprobeSeparate.cmake):
# two translation units include the umbrella for its declarations (CUPROBE_SEPARATE_COMPILATION)
# and the library cuprobe_separate_compilation() adds defines them (implementation.cuh). The link
# proves that no header still defines such a function itself (it would be defined twice) and that
# those the program calls are defined; the run checks a few of them.
add_executable(host_separate_compilation host/separate/a.cu host/separate/b.cu)
target_link_libraries(host_separate_compilation PRIVATE cuprobe::cuprobe)
cuprobe_separate_compilation(host_separate_compilation)  # cmake/cuprobeSeparate.cmake
target_compile_options(host_separate_compilation PRIVATE ${CUPROBE_TEST_WARNINGS})
target_compile_options(host_separate_compilation_cuprobe_implementation PRIVATE
                       ${CUPROBE_TEST_WARNINGS})
add_test(NAME host.separate_compilation COMMAND host_separate_compilation)
set_tests_properties(host.separate_compilation PROPERTIES LABELS host
                     PASS_REGULAR_EXPRESSION "separate compilation: ok")
