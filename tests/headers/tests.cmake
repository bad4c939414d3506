# Header self-containment: every public header compiles alone (sm_90a, C++17), and the umbrella
# header compiles for sm_75, sm_80 and sm_90a as C++17 and C++20, warnings as errors. The list
# of headers is globbed: a new header joins without anyone editing this file.
file(GLOB_RECURSE _cuprobe_headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/include"
     "${PROJECT_SOURCE_DIR}/include/cuprobe/*.cuh")
set(_alone_sources)
foreach(h IN LISTS _cuprobe_headers)
  string(MAKE_C_IDENTIFIER "${h}" id)
  set(src "${CMAKE_CURRENT_BINARY_DIR}/headers/${id}.cu")
  # Included twice: the second inclusion checks the include guard.
  file(CONFIGURE OUTPUT "${src}" CONTENT "#include <${h}>\n#include <${h}>\n")
  list(APPEND _alone_sources "${src}")
endforeach()

add_library(cuprobe_headers_alone OBJECT EXCLUDE_FROM_ALL ${_alone_sources})
target_link_libraries(cuprobe_headers_alone PRIVATE cuprobe::cuprobe doctest::doctest)
target_compile_options(cuprobe_headers_alone PRIVATE ${CUPROBE_TEST_WARNINGS})
set_target_properties(cuprobe_headers_alone PROPERTIES CUDA_ARCHITECTURES 90a CUDA_STANDARD 17)

set(_umbrella "${CMAKE_CURRENT_BINARY_DIR}/headers/umbrella.cu")
file(CONFIGURE OUTPUT "${_umbrella}" CONTENT "#include <cuprobe/cuprobe.cuh>\nint main() { return 0; }\n")
# CMake 3.25 knows no C++20 dialect flag for nvcc, so these compiles call nvcc directly.
set(_incs "$<TARGET_PROPERTY:cuprobe::cuprobe,INTERFACE_INCLUDE_DIRECTORIES>")
set(_header_outputs)
foreach(arch 75 80 90a)
  foreach(std 17 20)
    set(obj "${CMAKE_CURRENT_BINARY_DIR}/headers/umbrella.sm${arch}.cxx${std}.o")
    add_custom_command(OUTPUT "${obj}"
      COMMAND "${CMAKE_CUDA_COMPILER}" -c "-gencode=arch=compute_${arch},code=sm_${arch}"
              -std=c++${std} --extended-lambda -Werror=all-warnings
              -Xcompiler=-Wall,-Wextra,-Werror "-I$<JOIN:${_incs},;-I>"
              -MD -MF "${obj}.d" -o "${obj}" "${_umbrella}"
      DEPENDS "${_umbrella}" DEPFILE "${obj}.d"
      COMMENT "cuprobe umbrella header: sm_${arch}, C++${std}"
      COMMAND_EXPAND_LISTS VERBATIM)
    list(APPEND _header_outputs "${obj}")
  endforeach()
endforeach()
add_custom_target(cuprobe_umbrella_check DEPENDS ${_header_outputs})
set(_header_targets cuprobe_headers_alone cuprobe_umbrella_check)
add_custom_target(cuprobe_header_check DEPENDS ${_header_targets})

list(LENGTH _cuprobe_headers _n)
add_test(NAME host.header_selfcontainment
         COMMAND "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" --target cuprobe_header_check)
set_tests_properties(host.header_selfcontainment PROPERTIES LABELS host)
message(STATUS "cuprobe: header self-containment test covers ${_n} public headers")
