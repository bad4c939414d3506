# The tree's own rules (tests/tree/check_tree.cmake): every asm in ptx/, no file over 600 lines
# without a reason, each layer includes only the layers below it, and clang-format clean. Host
# tier: no GPU, no build.
foreach(check IN ITEMS asm length layers cycles budget)
  add_test(NAME host.tree_${check}
    COMMAND "${CMAKE_COMMAND}" -DROOT=${PROJECT_SOURCE_DIR} -DCHECK=${check}
            -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
  set_tests_properties(host.tree_${check} PROPERTIES LABELS host
                       FAIL_REGULAR_EXPRESSION "cuprobe-tree: FAILED")
endforeach()
find_program(CUPROBE_CLANG_FORMAT NAMES clang-format clang-format-14 DOC "clang-format, for host.tree_format")
if(CUPROBE_CLANG_FORMAT)
  add_test(NAME host.tree_format
    COMMAND "${CMAKE_COMMAND}" -DROOT=${PROJECT_SOURCE_DIR} -DCHECK=format
            -DCLANG_FORMAT=${CUPROBE_CLANG_FORMAT} -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
  # ... which must be able to fail: the fixture's unformatted header is named.
  add_test(NAME host.tree_format_catches
    COMMAND "${CMAKE_COMMAND}" -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/tree/fixture -DCHECK=format
            "-DCLANG_FORMAT=${CUPROBE_CLANG_FORMAT}" -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
  set_tests_properties(host.tree_format_catches PROPERTIES LABELS host PASS_REGULAR_EXPRESSION
    "include/cuprobe/gen/unformatted.cuh is not formatted")
  set_tests_properties(host.tree_format PROPERTIES LABELS host
                       FAIL_REGULAR_EXPRESSION "cuprobe-tree: FAILED")
else()
  message(WARNING "cuprobe: clang-format was not found, so host.tree_format is NOT registered and "
                  "the formatting is not checked (apt-get install clang-format)")
endif()
# The asm check must be able to fail: a header with asm outside ptx/ is caught.
add_test(NAME host.tree_asm_catches
  COMMAND "${CMAKE_COMMAND}" -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/tree/fixture -DCHECK=asm
          -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
set_tests_properties(host.tree_asm_catches PROPERTIES LABELS host
  PASS_REGULAR_EXPRESSION "gen/bad.cuh:3: inline asm outside include/cuprobe/ptx/")
# ... and the layer check too: model/ including gen/ is caught.
add_test(NAME host.tree_layers_catches
  COMMAND "${CMAKE_COMMAND}" -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/tree/fixture -DCHECK=layers
          -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
set_tests_properties(host.tree_layers_catches PROPERTIES LABELS host
  PASS_REGULAR_EXPRESSION "model/upward.cuh \\(layer model\\) includes the gen layer")
# ... and the cycle check: gen/cycle_a.cuh and gen/cycle_b.cuh include each other.
add_test(NAME host.tree_cycles_catches
  COMMAND "${CMAKE_COMMAND}" -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/tree/fixture -DCHECK=cycles
          -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
set_tests_properties(host.tree_cycles_catches PROPERTIES LABELS host
  PASS_REGULAR_EXPRESSION "cuprobe/gen/cycle_a.cuh includes itself")
# ... and the budget check: the fixture's teaching example is too long and has no kernel.
add_test(NAME host.tree_budget_catches
  COMMAND "${CMAKE_COMMAND}" -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/tree/fixture -DCHECK=budget
          -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
set_tests_properties(host.tree_budget_catches PROPERTIES LABELS host PASS_REGULAR_EXPRESSION
  "examples/teach_too_long.cu has 151 lines.*examples/teach_too_long.cu defines no kernel")
