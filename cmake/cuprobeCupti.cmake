# CUPTI, for the hardware counters (measure/cupti.cuh opens libcupti with dlopen at run time:
# nothing links against it). cuprobe_use_cupti(<target> <scope> [BUILD_ONLY]):
# - CUPROBE_WITH_CUPTI=OFF: the target builds as without CUPTI (CUPROBE_WITHOUT_CUPTI), and every
#   measurement's counters say so;
# - else, where CMake finds the toolkit's libcupti (CUDA::cupti), its path is named to the headers
#   (CUPROBE_CUPTI_LIBRARY_HINT), so that programs find it outside the loader's search path;
# - else the headers look for libcupti on the loader's path and the toolkit's usual places.
# The source tree calls it for the build tree only (BUILD_ONLY: the definitions stay out of the
# exported targets); the installed package (cuprobeConfig.cmake) calls it on the consumer's
# machine.
option(CUPROBE_WITH_CUPTI "Collect hardware counters through CUPTI where it is found" ON)
function(cuprobe_use_cupti target scope)
  set(_open "")
  set(_close "")
  if(ARGV2 STREQUAL "BUILD_ONLY")
    set(_open "$<BUILD_INTERFACE:")
    set(_close ">")
  endif()
  if(NOT CUPROBE_WITH_CUPTI)
    target_compile_definitions(${target} ${scope} ${_open}CUPROBE_WITHOUT_CUPTI${_close})
    message(STATUS "cuprobe: CUPTI not used (CUPROBE_WITH_CUPTI=OFF): measurements carry no counters")
    return()
  endif()
  set(_lib "")
  if(TARGET CUDA::cupti)
    get_target_property(_lib CUDA::cupti IMPORTED_LOCATION)
  endif()
  if(_lib)
    target_compile_definitions(${target} ${scope}
                               ${_open}CUPROBE_CUPTI_LIBRARY_HINT="${_lib}"${_close})
    message(STATUS "cuprobe: CUPTI found at ${_lib}: measurements can carry hardware counters")
  else()
    message(STATUS "cuprobe: CUPTI not found with the toolkit: counters where libcupti is on the "
                   "loader's path (CUPROBE_CUPTI_LIBRARY names it)")
  endif()
endfunction()
