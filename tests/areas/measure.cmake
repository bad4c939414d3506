# measure/ and report/: host, gpu and sass tests.
cuprobe_host_test(measure)
cuprobe_host_test(ceilings)  # measure/ceilings.cuh, core/json_parse.cuh
cuprobe_host_test(calibrate)  # calibrate/ceilings.cuh (the plan, the keys, when to measure)
cuprobe_host_test(counters)  # measure/counter_sets, counter_checks, cupti (host profiler on GH100)
cuprobe_gpu_test(measure)
cuprobe_gpu_test(measure_fault)  # a kernel fault inside measure(), in a child process
cuprobe_gpu_test(calibrate)  # ensure_ceilings and measure_ceilings on this card
cuprobe_gpu_test(counters)  # counters through CUPTI in measurements: bytes, flags, sectors, timing
# DRAM counters are the whole device's: another test's traffic would count as this one's
set_tests_properties(gpu.gpu_counters PROPERTIES RUN_SERIAL TRUE)
cuprobe_add_sass_test(timer_region_keeps_clock_reads_around_work
  SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/sass/measure_timer.cu FUNCTION "timed_chain"
  BETWEEN "SR_CLOCKLO" "SR_CLOCKLO" CHECK "FFMA == 64" "!LDG|STG")
cuprobe_add_sass_test(timer_region_all_work_is_timed
  SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/sass/measure_timer.cu FUNCTION "timed_chain"
  CHECK "FFMA == 64" "SR_CLOCKLO >= 2" "SR_GLOBALTIMER"
  SEQUENCE "LDG" "SR_CLOCKLO" "FFMA" "SR_CLOCKLO" "STG")
cuprobe_add_sass_test(timer_readers
  SOURCE ${CMAKE_CURRENT_SOURCE_DIR}/sass/measure_timer.cu FUNCTION "readers"
  CHECK "SR_CLOCKLO" "SR_GLOBALTIMER" "SR_VIRTID|SR_SMID" "SR_LANEID")
# This card's ceilings end to end (device_report --ceilings, then a user's copy placed against
# the record): skipped, with a sentence, where the example programs or a GPU are missing.
add_test(NAME gpu.ceilings_e2e
  COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/gpu/ceilings_e2e.sh" "${PROJECT_BINARY_DIR}"
          "${PROJECT_SOURCE_DIR}")
set_tests_properties(gpu.ceilings_e2e PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77 TIMEOUT 700
                     RUN_SERIAL TRUE)
# The headers without CUPTI (CUPROBE_WITHOUT_CUPTI, as CUPROBE_WITH_CUPTI=OFF sets it): a program
# of its own, since the define must precede every include.
add_executable(host_without_cupti ${CMAKE_CURRENT_SOURCE_DIR}/host/without_cupti.cu)
target_link_libraries(host_without_cupti PRIVATE cuprobe::cuprobe doctest::doctest)
target_compile_definitions(host_without_cupti PRIVATE CUPROBE_WITHOUT_CUPTI)
target_compile_options(host_without_cupti PRIVATE ${CUPROBE_TEST_WARNINGS})
add_test(NAME host.without_cupti COMMAND host_without_cupti)
set_tests_properties(host.without_cupti PROPERTIES LABELS host
                     FAIL_REGULAR_EXPRESSION "test cases: +0 +[|]")
# Every example's defaults within a minute (device_report 30 s), from each program's own plan
# (CUPROBE_PLAN=1): skipped, with a sentence, where the example programs or a GPU are missing.
add_test(NAME gpu.plan_runtime
  COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/gpu/plan_runtime.sh" "${PROJECT_BINARY_DIR}")
set_tests_properties(gpu.plan_runtime PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77 TIMEOUT 1500
                     RUN_SERIAL TRUE)
# Its parser reads the line plan_line() writes (host.measure pins the same text).
add_test(NAME host.plan_runtime_parse
  COMMAND bash "${CMAKE_CURRENT_SOURCE_DIR}/gpu/plan_runtime.sh" --parse
          "cuprobe plan: measurements=3 calls=40 sampling_s=1.25 other_s=0.50 expected_s=1.75")
set_tests_properties(host.plan_runtime_parse PROPERTIES LABELS host
                     PASS_REGULAR_EXPRESSION "^3 40 1.25 0.50 1.75\n?$")
