# NCCL for the collectives (suite/cuprobe_suite/collectives_nccl.cuh, examples/collectives,
# the NCCL case of tests/gpu/multi_gpu.cu). Looked for, in order:
#   1. a system NCCL: nccl.h and libnccl under CUPROBE_NCCL_ROOT, $NCCL_ROOT, $NCCL_HOME, the
#      CUDA toolkit or the default prefixes (/usr, /usr/local: the libnccl-dev package);
#   2. the pip wheel of the Python 3 interpreter found (nvidia-nccl-cu13, or nvidia-nccl-cu12 as
#      PyTorch installs it): <site-packages>/nvidia/nccl/{include/nccl.h, lib/libnccl.so.2}.
# Found: the imported target cuprobe::nccl (headers, library, CUPROBE_HAVE_NCCL defined) and
# "cuprobe: NCCL <version> found at <dir>". Not found: "cuprobe: NCCL not found: the collectives
# are not built", and everything else builds as before. -DCUPROBE_WITH_NCCL=OFF skips the search.
option(CUPROBE_WITH_NCCL "Look for NCCL and build the collectives when it is found" ON)
set(CUPROBE_NCCL_ROOT "" CACHE PATH "Where NCCL is installed (include/nccl.h, lib/libnccl.so*)")
if(NOT CUPROBE_WITH_NCCL)
  message(STATUS "cuprobe: NCCL not looked for (CUPROBE_WITH_NCCL=OFF): the collectives are not built")
  return()
endif()

set(_nccl_hints ${CUPROBE_NCCL_ROOT} $ENV{NCCL_ROOT} $ENV{NCCL_HOME})
if(CUDAToolkit_LIBRARY_ROOT)
  list(APPEND _nccl_hints "${CUDAToolkit_LIBRARY_ROOT}")
endif()
find_path(CUPROBE_NCCL_INCLUDE_DIR nccl.h HINTS ${_nccl_hints} PATH_SUFFIXES include)
find_library(CUPROBE_NCCL_LIBRARY NAMES nccl libnccl.so.2 HINTS ${_nccl_hints}
             PATH_SUFFIXES lib lib64 lib/x86_64-linux-gnu lib/aarch64-linux-gnu)
if(NOT CUPROBE_NCCL_INCLUDE_DIR OR NOT CUPROBE_NCCL_LIBRARY)
  find_package(Python3 QUIET COMPONENTS Interpreter)
  if(Python3_EXECUTABLE)
    # nvidia.nccl is a namespace package: its __file__ is None, its __path__ names the folder.
    execute_process(
      COMMAND "${Python3_EXECUTABLE}" -c "import nvidia.nccl as m; print(list(m.__path__)[0])"
      OUTPUT_VARIABLE _nccl_wheel OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET
      RESULT_VARIABLE _nccl_rc)
    if(_nccl_rc EQUAL 0 AND EXISTS "${_nccl_wheel}/include/nccl.h")
      unset(CUPROBE_NCCL_INCLUDE_DIR CACHE)
      unset(CUPROBE_NCCL_LIBRARY CACHE)
      find_path(CUPROBE_NCCL_INCLUDE_DIR nccl.h PATHS "${_nccl_wheel}/include" NO_DEFAULT_PATH)
      find_library(CUPROBE_NCCL_LIBRARY NAMES nccl libnccl.so.2 PATHS "${_nccl_wheel}/lib"
                   NO_DEFAULT_PATH)
    endif()
  endif()
endif()

if(CUPROBE_NCCL_INCLUDE_DIR AND CUPROBE_NCCL_LIBRARY)
  file(STRINGS "${CUPROBE_NCCL_INCLUDE_DIR}/nccl.h" _nccl_v REGEX "^#define NCCL_(MAJOR|MINOR|PATCH) ")
  string(REGEX REPLACE ".*NCCL_MAJOR ([0-9]+).*NCCL_MINOR ([0-9]+).*NCCL_PATCH ([0-9]+).*"
                       "\\1.\\2.\\3" CUPROBE_NCCL_VERSION "${_nccl_v}")
  add_library(cuprobe_nccl INTERFACE)
  add_library(cuprobe::nccl ALIAS cuprobe_nccl)
  target_include_directories(cuprobe_nccl SYSTEM INTERFACE "${CUPROBE_NCCL_INCLUDE_DIR}")
  target_link_libraries(cuprobe_nccl INTERFACE "${CUPROBE_NCCL_LIBRARY}")
  target_compile_definitions(cuprobe_nccl INTERFACE CUPROBE_HAVE_NCCL)
  get_filename_component(_nccl_at "${CUPROBE_NCCL_LIBRARY}" DIRECTORY)
  message(STATUS "cuprobe: NCCL ${CUPROBE_NCCL_VERSION} found at ${_nccl_at} "
                 "(header ${CUPROBE_NCCL_INCLUDE_DIR}/nccl.h): the collectives are built")
else()
  message(STATUS "cuprobe: NCCL not found: the collectives are not built (set CUPROBE_NCCL_ROOT, "
                 "or pip install nvidia-nccl-cu13 for the Python 3 that CMake finds)")
endif()
