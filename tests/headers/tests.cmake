# Header self-containment, one CTest test per check:
#   host.header_alone.<path>   every public header compiles alone, included twice (the second
#                              inclusion checks the include guard): nvcc's front end, device
#                              side, to PTX only (-fdevice-syntax-only; it parses the host code
#                              as well), sm_90a, C++17, warnings as errors
#   host.header_umbrella.sm<arch>.cxx<std>   the umbrella header compiles fully (host compiler,
#                              ptxas) for sm_90a as C++17 and C++20, to a cubin (cicc, ptxas)
#                              for sm_75 and sm_80 as C++17, and through the front end for
#                              sm_75 and sm_80 as C++20
# The list of headers is globbed: a new header joins without anyone editing this file.
# tests/headers/fixture/broken.cuh (not a public header) proves that a header that is not
# self-contained fails its test.
file(GLOB_RECURSE _cuprobe_headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/include"
     "${PROJECT_SOURCE_DIR}/include/cuprobe/*.cuh")
# The suite's headers (suite/cuprobe_suite/) are held to the same rule.
file(GLOB_RECURSE _cuprobe_suite_headers CONFIGURE_DEPENDS RELATIVE "${PROJECT_SOURCE_DIR}/suite"
     "${PROJECT_SOURCE_DIR}/suite/cuprobe_suite/*.cuh")
set(_hdir "${CMAKE_CURRENT_BINARY_DIR}/headers")
get_target_property(_doctest_incs doctest::doctest INTERFACE_INCLUDE_DIRECTORIES)
set(_hincs "-I${PROJECT_SOURCE_DIR}/include")
foreach(d IN LISTS _doctest_incs)
  # A system directory stays out: -I/usr/include reorders the standard library's own includes.
  if(NOT d MATCHES "^/usr(/local)?/include/?$")
    list(APPEND _hincs "-I${d}")
  endif()
endforeach()
# No --extended-lambda here: with it, nvcc's front end lets a host function that names an
# undeclared entity pass (host.header_alone_catches_missing_include fails with it). The headers
# need it only where a template is instantiated with a device lambda, which no header alone does.
set(_alone_flags -std=c++17 "-gencode=arch=compute_90a,code=compute_90a" -fdevice-syntax-only
    -ptx -Werror=all-warnings ${_hincs})

function(_cuprobe_header_alone_test name header)
  string(MAKE_C_IDENTIFIER "${header}" id)
  set(src "${_hdir}/${id}.cu")
  file(CONFIGURE OUTPUT "${src}" CONTENT "#include <${header}>\n#include <${header}>\n")
  add_test(NAME ${name} COMMAND "${CMAKE_CUDA_COMPILER}" ${_alone_flags} ${ARGN}
           -o "${_hdir}/${id}.ptx" "${src}")
  set_tests_properties(${name} PROPERTIES LABELS "host;headers" TIMEOUT 120)
endfunction()

# A public header sees include/ only; a suite header sees suite/ as well. A library header's test
# is named by its path below cuprobe/, a suite header's by its whole include path
# (cuprobe_suite/access.cuh).
# impl/ files are parts of their header (core/linkage.cuh), not headers of their own; the
# implementation header is for a program built with CUPROBE_SEPARATE_COMPILATION.
list(FILTER _cuprobe_headers EXCLUDE REGEX "/impl/")
foreach(h IN LISTS _cuprobe_headers)
  string(REGEX REPLACE "^cuprobe/" "" short "${h}")
  if(h STREQUAL "cuprobe/implementation.cuh")
    _cuprobe_header_alone_test(host.header_alone.${short} "${h}" -DCUPROBE_SEPARATE_COMPILATION)
  else()
    _cuprobe_header_alone_test(host.header_alone.${short} "${h}")
  endif()
endforeach()
foreach(h IN LISTS _cuprobe_suite_headers)
  _cuprobe_header_alone_test(host.header_alone.${h} "${h}" "-I${PROJECT_SOURCE_DIR}/suite")
endforeach()
_cuprobe_header_alone_test(host.header_alone_catches_missing_include "broken.cuh"
  "-I${CMAKE_CURRENT_SOURCE_DIR}/headers/fixture")
set_tests_properties(host.header_alone_catches_missing_include PROPERTIES
  PASS_REGULAR_EXPRESSION "broken.cuh.*namespace \"std\" has no member \"vector\"")

set(_umbrella "${_hdir}/umbrella.cu")
file(CONFIGURE OUTPUT "${_umbrella}" CONTENT "#include <cuprobe/cuprobe.cuh>\nint main() { return 0; }\n")
# The umbrella for sm_75, sm_80 and sm_90a, C++17 and C++20 (each compiled the way
# cuprobe_compile_ok_test, tests/CMakeLists.txt, says: fully at sm_90a, a cubin at the others as
# C++17, the front end at the others as C++20).
foreach(arch 75 80 90a)
  foreach(std 17 20)
    cuprobe_compile_ok_test(host.header_umbrella.sm${arch}.cxx${std} "${_umbrella}" ${arch} ${std}
                            --extended-lambda ${_hincs})
    set_tests_properties(host.header_umbrella.sm${arch}.cxx${std} PROPERTIES
                         LABELS "host;headers" TIMEOUT 300)
  endforeach()
endforeach()

list(LENGTH _cuprobe_headers _n)
message(STATUS "cuprobe: header self-containment tests cover ${_n} public headers")

add_test(NAME host.umbrella_includes_every_header
         COMMAND "${CMAKE_COMMAND}" "-DINCLUDE=${PROJECT_SOURCE_DIR}/include"
                 -P "${CMAKE_CURRENT_SOURCE_DIR}/headers/umbrella_complete.cmake")
set_tests_properties(host.umbrella_includes_every_header PROPERTIES LABELS "host;headers")
