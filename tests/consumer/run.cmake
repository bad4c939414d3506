# Configures and builds tests/consumer/project in one of its three modes.
file(REMOVE_RECURSE "${BINARY}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
          -DCUPROBE_CONSUME=${MODE} -DCUPROBE_SOURCE=${CUPROBE_SOURCE}
          -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}
          -DCMAKE_CUDA_ARCHITECTURES=90a
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer (${MODE}): configure failed")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer (${MODE}): build failed")
endif()
message(STATUS "consumer (${MODE}): configured and built")
