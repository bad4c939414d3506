# The code blocks of README.md and docs/*.md that say they compile are compiled for sm_90a as
# C++17, warnings as errors:
#   ```cpp compile   a whole translation unit
#   ```cpp body      statements: compiled as the body of a host function, after
#                    #include <cuprobe/cuprobe.cuh>, <cstdio> and <string>, with `dev` (the
#                    device_info of an H200-like device) in scope
#   cmake -DROOT=<source dir> -DNVCC=<nvcc> -DOUT=<dir> -P check_snippets.cmake
# A failure names the file, the block's first line and nvcc's message, and ends with
# "cuprobe-docs: FAILED".
cmake_minimum_required(VERSION 3.25)
file(GLOB docs "${ROOT}/docs/*.md")
list(PREPEND docs "${ROOT}/README.md")
file(MAKE_DIRECTORY "${OUT}")
set(bad 0)
set(count 0)
foreach(doc IN LISTS docs)
  # Read whole and split at newlines ourselves: file(STRINGS) gives a CMake list, which does not
  # split at ";" inside unbalanced brackets and breaks lines at some non-ASCII characters. The
  # characters lists care about are encoded first and restored in the code.
  file(READ "${doc}" text)
  string(REPLACE "[" "@cuprobe_lb@" text "${text}")
  string(REPLACE "]" "@cuprobe_rb@" text "${text}")
  string(REPLACE ";" "@cuprobe_sc@" text "${text}")
  string(REPLACE "\\" "@cuprobe_bs@" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  get_filename_component(stem "${doc}" NAME_WE)
  set(in 0)
  set(n 0)
  set(lineno 0)
  foreach(line IN LISTS lines)
    math(EXPR lineno "${lineno} + 1")
    if(NOT in AND line MATCHES "^```cpp (compile|body)")
      set(in 1)
      set(code "")
      set(start ${lineno})
      set(body 0)
      if(line MATCHES "^```cpp body")
        set(body 1)
        string(CONCAT code "#include <cuprobe/cuprobe.cuh>\n#include <cstdio>\n#include <string>\n"
               "[[maybe_unused]] static void cuprobe_doc_snippet(const cuprobe::device_info& dev) {\n"
               "(void)dev;\n")
      endif()
    elseif(in AND line MATCHES "^```")
      set(in 0)
      if(body)
        string(APPEND code "}\n")
      endif()
      math(EXPR n "${n} + 1")
      math(EXPR count "${count} + 1")
      set(src "${OUT}/${stem}_${n}.cu")
      file(WRITE "${src}" "${code}")
      execute_process(
        COMMAND "${NVCC}" -c -std=c++17 "-gencode=arch=compute_90a,code=sm_90a" --extended-lambda
                -O3 -DNDEBUG "-I${ROOT}/include" -Werror=all-warnings "-Xcompiler=-Wall,-Wextra,-Werror"
                -o "${OUT}/${stem}_${n}.o" "${src}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
      if(rc EQUAL 0)
        message("cuprobe-docs: ${doc}:${start}: compiles")
      else()
        message("cuprobe-docs: ${doc}:${start}: does NOT compile:\n${out}${err}")
        set(bad 1)
      endif()
    elseif(in)
      string(REPLACE "@cuprobe_lb@" "[" line "${line}")
      string(REPLACE "@cuprobe_rb@" "]" line "${line}")
      string(REPLACE "@cuprobe_sc@" ";" line "${line}")
      string(REPLACE "@cuprobe_bs@" "\\" line "${line}")
      string(APPEND code "${line}\n")
    endif()
  endforeach()
endforeach()
if(count EQUAL 0)
  message("cuprobe-docs: no block says it compiles")
  set(bad 1)
endif()
if(bad)
  message(FATAL_ERROR "cuprobe-docs: FAILED")
endif()
message("cuprobe-docs: ${count} block(s) compile")
