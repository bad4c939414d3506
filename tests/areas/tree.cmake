# The tree's own rules (tests/tree/check_tree.cmake): every asm in ptx/, no file over 600 lines
# without a reason, each header includes only what docs/layers.txt lets its layer include (the
# suite: public headers only, its names in cuprobe::suite and no library namespace) and
# docs/guide.md's layer table is the one generated from it, every
# path a comment or a doc names exists, no include cycle, the line budget, and clang-format clean.
# Host tier: no GPU, no build.
foreach(check IN ITEMS asm length layers layers_doc paths cycles budget)
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
# ... and the layer check too, by the real statement (docs/layers.txt): a library header opening
# the suite's namespace, model/ including gen/, a folder in no layer, a suite header opening
# cuprobe::gen, and the suite including a library detail/ header are caught.
add_test(NAME host.tree_layers_catches
  COMMAND "${CMAKE_COMMAND}" -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/tree/fixture -DCHECK=layers
          -DLAYERS=${PROJECT_SOURCE_DIR}/docs/layers.txt -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
set_tests_properties(host.tree_layers_catches PROPERTIES LABELS host PASS_REGULAR_EXPRESSION
  "gen/suite_names.cuh \\(layer gen\\) opens the suite's namespace cuprobe::suite.*model/upward.cuh \\(layer model\\) includes the gen layer.*stray/orphan.cuh: its folder is in no layer.*cuprobe_suite/kernels/libspace.cuh \\(the suite\\) opens the library's namespace cuprobe::gen.*cuprobe_suite/peek.cuh includes a detail/ header of include/cuprobe/ptx/")
# ... and the table check: the fixture's docs/guide.md has a table the statement does not give.
add_test(NAME host.tree_layers_doc_catches
  COMMAND "${CMAKE_COMMAND}" -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/tree/fixture -DCHECK=layers_doc
          -DLAYERS=${PROJECT_SOURCE_DIR}/docs/layers.txt -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
set_tests_properties(host.tree_layers_doc_catches PROPERTIES LABELS host
  PASS_REGULAR_EXPRESSION "docs/guide.md's layer table differs from")
# ... and the path check: a header's comment and a page name files that do not exist (the
# string in the header's code is not read).
add_test(NAME host.tree_paths_catches
  COMMAND "${CMAKE_COMMAND}" -DROOT=${CMAKE_CURRENT_SOURCE_DIR}/tree/fixture -DCHECK=paths
          -P "${CMAKE_CURRENT_SOURCE_DIR}/tree/check_tree.cmake")
set_tests_properties(host.tree_paths_catches PROPERTIES LABELS host
  PASS_REGULAR_EXPRESSION "docs/stale.md:3: names cuprobe/gen/moved_away.cuh, which is not in the tree.*core/rot.cuh:1: names tests/sass/gone.cu"
  FAIL_REGULAR_EXPRESSION "not_checked|names guide.md")
# ... and the cycle check: tests/tree/fixture/include/cuprobe/gen/cycle_a.cuh and cycle_b.cuh
# include each other.
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
