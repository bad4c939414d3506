# measure/ and report/: host, gpu and sass tests.
cuprobe_host_test(measure)
cuprobe_host_test(ceilings)  # measure/ceilings.cuh, core/json_parse.cuh
cuprobe_host_test(calibrate)  # calibrate/ceilings.cuh (the plan, the keys, when to measure)
cuprobe_gpu_test(measure)
cuprobe_gpu_test(measure_fault)  # a kernel fault inside measure(), in a child process
cuprobe_gpu_test(calibrate)  # ensure_ceilings and measure_ceilings on this card
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
