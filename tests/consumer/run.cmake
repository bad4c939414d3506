# Configures and builds tests/consumer/project in one of its three modes. ARCH (default 90a): the
# consumer's CMAKE_CUDA_ARCHITECTURES. NOTICE: a regular expression the configure output must
# match (the architecture notice of cmake/cuprobeArchCheck.cmake); without it, the output must not
# contain that notice. CONFIGURE_ONLY: stop after configuring.
if(NOT DEFINED ARCH)
  set(ARCH 90a)
endif()
file(REMOVE_RECURSE "${BINARY}")
execute_process(
  COMMAND "${CMAKE_COMMAND}" -S "${SOURCE}" -B "${BINARY}" -G "${GENERATOR}"
          -DCUPROBE_CONSUME=${MODE} -DCUPROBE_SOURCE=${CUPROBE_SOURCE}
          -DCMAKE_PREFIX_PATH=${PREFIX} -DCMAKE_CUDA_COMPILER=${CUDA_COMPILER}
          -DCMAKE_CUDA_ARCHITECTURES=${ARCH}
  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer (${MODE}): configure failed")
endif()
string(REGEX REPLACE "[ \n]+" " " flat "${out}${err}")
if(DEFINED NOTICE)
  if(NOT flat MATCHES "${NOTICE}")
    message(FATAL_ERROR "consumer (${MODE}, ${ARCH}): the configure output lacks the notice '${NOTICE}'")
  endif()
elseif(flat MATCHES "cuprobe: target '.*' is built for CUDA architectures")
  message(FATAL_ERROR "consumer (${MODE}, ${ARCH}): an architecture notice although 90a is set")
endif()
if(CONFIGURE_ONLY)
  message(STATUS "consumer (${MODE}, ${ARCH}): configured")
  return()
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --build "${BINARY}" RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "consumer (${MODE}): build failed")
endif()
message(STATUS "consumer (${MODE}): configured and built")
