# The umbrella header includes every public header: cmake -DINCLUDE=<include dir> -P this file.
get_filename_component(INCLUDE "${INCLUDE}" ABSOLUTE)
# Not public: the detail/ folders (of ptx/ and hopper/) and the impl/ parts of headers
# (core/linkage.cuh). Left out on purpose: testing/doctest.cuh (it needs doctest; tests include it
# themselves) and implementation.cuh (it defines what the umbrella declares, in one translation
# unit of a program built with CUPROBE_SEPARATE_COMPILATION).
file(GLOB_RECURSE headers RELATIVE "${INCLUDE}" "${INCLUDE}/cuprobe/*.cuh")
file(READ "${INCLUDE}/cuprobe/cuprobe.cuh" umbrella)
set(missing)
foreach(h IN LISTS headers)
  if(h MATCHES "/(detail|impl)/" OR h STREQUAL "cuprobe/cuprobe.cuh" OR
     h STREQUAL "cuprobe/testing/doctest.cuh" OR h STREQUAL "cuprobe/implementation.cuh")
    continue()
  endif()
  string(FIND "${umbrella}" "#include \"${h}\"" at)
  if(at EQUAL -1)
    list(APPEND missing "${h}")
  endif()
endforeach()
list(LENGTH headers n)
if(missing)
  string(REPLACE ";" ", " missing "${missing}")
  message(FATAL_ERROR "cuprobe/cuprobe.cuh does not include: ${missing}")
endif()
message(STATUS "cuprobe/cuprobe.cuh includes every public header (${n} files under cuprobe/)")
