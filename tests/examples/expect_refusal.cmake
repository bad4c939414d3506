# Runs one example with bad input and checks that it is refused the way a user should see it:
# exit code 1 (guarded_main), one sentence matching EXPECT on stderr, and no sign that the
# program got as far as the GPU (the refusal must come before the first CUDA call, so it is
# the same with and without a GPU).
#   cmake -DEXE=... -DARGS="--bogus;1" -DEXPECT="unknown option" -P expect_refusal.cmake
execute_process(COMMAND "${EXE}" ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err TIMEOUT 60)
get_filename_component(name "${EXE}" NAME)
string(REPLACE ";" " " shown "${ARGS}")
if(NOT rc EQUAL 1)
  message(FATAL_ERROR "${name} ${shown}: exit code ${rc}, expected 1\nstdout: ${out}\nstderr: ${err}")
endif()
if(NOT err MATCHES "${EXPECT}")
  message(FATAL_ERROR "${name} ${shown}: stderr does not match '${EXPECT}':\n${err}")
endif()
if(err MATCHES "no CUDA-capable|no GPU|cudaError|CUDA error")
  message(FATAL_ERROR "${name} ${shown}: reached the GPU before refusing the input:\n${err}")
endif()
if(out MATCHES "[0-9]+ (GB/s|TB/s|cycles)")
  message(FATAL_ERROR "${name} ${shown}: printed results before refusing the input:\n${out}")
endif()
message(STATUS "${name} ${shown}: refused: ${err}")
