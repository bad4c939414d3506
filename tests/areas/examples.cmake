# examples/: every program refuses bad input with exit code 1 and one sentence, before any CUDA
# call (tests/examples/expect_refusal.cmake), and prints its usage on --help. Host tier: the
# refusals are the same with or without a GPU. GPU tier: each teaching program's figure against
# the suite's experiment for it (tests/gpu/teach_vs_suite.cu). The teaching examples on the
# installed package alone: host.consume_teaching (tests/consumer/tests.cmake).
if(NOT CUPROBE_BUILD_EXAMPLES)
  return()
endif()
cuprobe_gpu_test(teach_vs_suite)
if(TARGET gpu_teach_vs_suite AND TARGET teach_tma_stream)  # the programs of their own
  add_dependencies(gpu_teach_vs_suite teach_tma_stream teach_cache_stream teach_pointer_chase
                   teach_wgmma_peak)
  target_compile_definitions(gpu_teach_vs_suite PRIVATE
                             CUPROBE_TEACH_DIR="$<TARGET_FILE_DIR:teach_tma_stream>")
  set_tests_properties(gpu.gpu_teach_vs_suite PROPERTIES TIMEOUT 900)
endif()
set(_cuprobe_examples device_report timers fma_throughput instruction_table latency_ladder
    dram_bandwidth cache_bandwidth memory_ordering tma dsm gemm system_memory
    access_patterns)

# cuprobe_example_refusal(<example> <test suffix> <expected stderr regex> <args>...)
# (cuprobe_example_command: the example's own program, or a unity program and its name.)
function(cuprobe_example_refusal example suffix expect)
  cuprobe_example_command(${example} cmd)
  list(POP_FRONT cmd exe)
  list(APPEND cmd ${ARGN})
  add_test(NAME host.example_${example}_${suffix}
    COMMAND "${CMAKE_COMMAND}" "-DEXE=${exe}" "-DARGS=${cmd}"
            "-DEXPECT=${expect}" -P "${CMAKE_CURRENT_SOURCE_DIR}/examples/expect_refusal.cmake")
  set_tests_properties(host.example_${example}_${suffix} PROPERTIES LABELS host TIMEOUT 120)
endfunction()

foreach(e IN LISTS _cuprobe_examples)
  cuprobe_example_refusal(${e} unknown_option "unknown option '--bogus'" --bogus)
  cuprobe_example_refusal(${e} missing_value "option --json needs a value" --json)
  cuprobe_example_refusal(${e} unwritable_json "--json.*/no/such/dir/r.json"
                          --json /no/such/dir/r.json)
  cuprobe_example_refusal(${e} unwritable_csv "--csv.*/no/such/dir/r.csv" --csv /no/such/dir/r.csv)
  cuprobe_example_command(${e} cmd)
  add_test(NAME host.example_${e}_help COMMAND ${cmd} --help)
  set_tests_properties(host.example_${e}_help PROPERTIES LABELS host TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "--json")
endforeach()

cuprobe_example_refusal(cache_bandwidth explore_range "--explore is 3, outside its range"
                        --explore 3)
cuprobe_example_refusal(cache_bandwidth explore_not_integer "--explore expects" --explore 1.5)
cuprobe_example_refusal(cache_bandwidth l2_write_path_unknown
                        "--l2-write-path must be st_global, tma_bulk or home, got 'st.global'"
                        --l2-write-path st.global)
cuprobe_example_refusal(tma explore_range "--explore is 3, outside its range" --explore 3)
cuprobe_example_refusal(tma only_unknown "--only takes latency, streams, multicast or all, got 'bogus'"
                        --only bogus)
cuprobe_example_refusal(tma summary_unwritable "--summary.*/no/such/dir/s.json"
                        --summary /no/such/dir/s.json)
cuprobe_example_refusal(device_report summary_unwritable "--summary.*/no/such/dir/s.json"
                        --summary /no/such/dir/s.json)
cuprobe_example_refusal(timers markdown_unwritable "--markdown.*/no/such/dir/t.md"
                        --markdown /no/such/dir/t.md)
cuprobe_example_refusal(dram_bandwidth pattern_unknown "--patterns.*'sideways'"
                        --patterns read,sideways)
cuprobe_example_refusal(dram_bandwidth op_unknown "--ops: unknown load operator 'ca'" --ops cg,ca)
cuprobe_example_refusal(dram_bandwidth width_range "--widths is 32, outside its range" --widths 32)
cuprobe_example_refusal(dram_bandwidth passes_zero "--passes is 0, outside its range" --passes 0)
cuprobe_example_refusal(dram_bandwidth passes_text "--passes expects" --passes many)
cuprobe_example_refusal(dram_bandwidth configs_malformed "--configs" --configs 4by256)
cuprobe_example_refusal(dram_bandwidth l2_factor_nan "--l2-factor expects" --l2-factor nan)
cuprobe_example_refusal(gemm shapes_malformed "--shapes '8192x8192': '8192x8192' is not MxNxK"
                        --shapes 8192x8192)
cuprobe_example_refusal(gemm shapes_with_small "--shapes and --small exclude each other"
                        --small --shapes 8192x8192x2048)
cuprobe_example_refusal(system_memory only_unknown
                        "--only takes visibility, latency, zerocopy, copy or all, got 'bogus'"
                        --only bogus)
cuprobe_example_refusal(system_memory summary_unwritable "--summary.*/no/such/dir/s.json"
                        --summary /no/such/dir/s.json)
cuprobe_example_refusal(access_patterns widths_bad "--widths takes 1, 2, 4, 8 or 16 bytes, got 3"
                        --widths 4,3)
cuprobe_example_refusal(access_patterns widths_text "--widths expects" --widths four)
cuprobe_example_refusal(access_patterns count_at_bad
                        "--count-at takes dram, l2 or sweep \\(comma-separated\\), got \"l3\""
                        --count-at dram,l3)
cuprobe_example_refusal(access_patterns ncu_set_unwritable "--ncu-set.*/no/such/dir/e.csv"
                        --ncu-set /no/such/dir/e.csv)
cuprobe_example_refusal(access_patterns summary_unwritable "--summary.*/no/such/dir/s.json"
                        --summary /no/such/dir/s.json)
