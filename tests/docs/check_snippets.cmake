# The code blocks of README.md and docs/*.md that say they compile are compiled for sm_90a as
# C++17, warnings as errors:
#   ```cpp compile   a whole translation unit
#   ```cpp body      statements: compiled as the body of a host function, after BODY_PRELUDE
#                    (default: #include <cuprobe_suite/suite.cuh>, the blocks and the suite,
#                    <cstdio> and <string>), with `dev` (the device_info of an H200-like device)
#                    in scope
#   cmake -DROOT=<source dir> -DNVCC=<nvcc> -DOUT=<dir> [-DDOCS=<file;...>] -P check_snippets.cmake
#
# The blocks are compiled together, in one translation unit: each block in a namespace of its
# own, after the #include lines of every block, with #line directives that point nvcc's
# messages at the block's lines in its page. A block that #defines something before its
# includes (it configures a header), or specializes a template at file scope, is compiled alone. When a group fails, each of its blocks
# is compiled alone too, so that the report names exactly the blocks that do not compile.
# Each block is reported by its page and first line ("cuprobe-docs: <page>:<line>: compiles");
# a failure ends with "cuprobe-docs: FAILED" (tests/docs/fixture proves the grouping hides none).
cmake_minimum_required(VERSION 3.25)
if(NOT DEFINED DOCS)
  file(GLOB DOCS "${ROOT}/docs/*.md")
  list(PREPEND DOCS "${ROOT}/README.md")
endif()
if(NOT DEFINED BODY_PRELUDE)
  set(BODY_PRELUDE "#include <cuprobe_suite/suite.cuh>\n#include <cstdio>\n#include <string>\n")
endif()
file(MAKE_DIRECTORY "${OUT}")

set(flags -c -std=c++17 "-gencode=arch=compute_90a,code=sm_90a" --extended-lambda -O3 -DNDEBUG
          "-I${ROOT}/include" "-I${ROOT}/suite" -Werror=all-warnings "-Xcompiler=-Wall,-Wextra,-Werror")

# Blocks, as parallel lists: where each comes from, and its whole translation unit (alone).
set(block_where)
set(block_ids)
set(count 0)
foreach(doc IN LISTS DOCS)
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
      set(raw "")
      set(includes "")
      set(alone 0)
      set(seen_code 0)
      math(EXPR start "${lineno} + 1")
      set(body 0)
      if(line MATCHES "^```cpp body")
        set(body 1)
      endif()
    elseif(in AND line MATCHES "^```")
      set(in 0)
      math(EXPR n "${n} + 1")
      math(EXPR count "${count} + 1")
      string(MAKE_C_IDENTIFIER "${stem}_${n}" id)
      math(EXPR first "${start} - 1")
      # The block alone, as the reader sees it.
      if(body)
        set(whole "${BODY_PRELUDE}[[maybe_unused]] static void cuprobe_doc_snippet(const cuprobe::device_info& dev) {\n(void)dev;\n#line ${start} \"${doc}\"\n${raw}}\n")
        set(grouped "namespace cuprobe_doc_${id} {\n[[maybe_unused]] static void cuprobe_doc_snippet(const cuprobe::device_info& dev) {\n(void)dev;\n#line ${start} \"${doc}\"\n${code}}\n}\n")
        set(includes "${BODY_PRELUDE}")
      else()
        set(whole "#line ${start} \"${doc}\"\n${raw}")
        # main() is main only at file scope (where it may end without a return): inside the
        # block's namespace it becomes a function of deduced type.
        string(REPLACE "int main(" "auto cuprobe_doc_main(" named "${code}")
        set(grouped "namespace cuprobe_doc_${id} {\n#line ${start} \"${doc}\"\n${named}}\n")
      endif()
      file(WRITE "${OUT}/${id}.cu" "${whole}")
      list(APPEND block_ids "${id}")
      list(APPEND block_where "${doc}:${first}")
      set(block_alone_${id} ${alone})
      set(block_includes_${id} "${includes}")
      set(block_grouped_${id} "${grouped}")
    elseif(in)
      string(REPLACE "@cuprobe_lb@" "[" line "${line}")
      string(REPLACE "@cuprobe_rb@" "]" line "${line}")
      string(REPLACE "@cuprobe_sc@" ";" line "${line}")
      string(REPLACE "@cuprobe_bs@" "\\" line "${line}")
      string(APPEND raw "${line}\n")
      if(line MATCHES "^[ \t]*#[ \t]*include")
        # Included at file scope in the group; a blank line keeps the block's line numbers.
        string(APPEND includes "${line}\n")
        string(APPEND code "\n")
      else()
        if(line MATCHES "^[ \t]*#[ \t]*define" AND NOT seen_code)
          set(alone 1)
        endif()
        # An explicit specialization of a cuprobe template (written out, or by a
        # CUPROBE_PTX_DEFINE_* macro) must stay at file scope.
        if(line MATCHES "^[ \t]*(template <>|CUPROBE_PTX_DEFINE_)")
          set(alone 1)
        endif()
        if(NOT line MATCHES "^[ \t]*$" AND NOT line MATCHES "^[ \t]*//")
          set(seen_code 1)
        endif()
        string(APPEND code "${line}\n")
      endif()
    endif()
  endforeach()
endforeach()
if(count EQUAL 0)
  message("cuprobe-docs: no block says it compiles")
  message(FATAL_ERROR "cuprobe-docs: FAILED")
endif()

# Compiles one translation unit; sets <rc_var> to 0 on success and prints nvcc's message.
function(compile_tu src rc_var)
  execute_process(COMMAND "${NVCC}" ${flags} -o "${src}.o" "${src}"
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${rc_var} ${rc} PARENT_SCOPE)
  set(compile_output "${out}${err}" PARENT_SCOPE)
endfunction()

# check_alone(<block index> <why>): compile one block in a TU of its own, report it by name and
# set `bad` in the caller on failure.
function(check_alone i why)
  list(GET block_ids ${i} id)
  list(GET block_where ${i} where)
  compile_tu("${OUT}/${id}.cu" rc)
  if(rc EQUAL 0)
    message("cuprobe-docs: ${where}: compiles (alone${why})")
  else()
    message("cuprobe-docs: ${where}: does NOT compile:\n${compile_output}")
    set(bad 1 PARENT_SCOPE)
  endif()
endfunction()

set(bad 0)
set(group_ids)
set(group_includes "")
set(group_code "")
list(LENGTH block_ids nblocks)
math(EXPR last "${nblocks} - 1")
foreach(i RANGE ${last})
  list(GET block_ids ${i} id)
  list(GET block_where ${i} where)
  if(block_alone_${id})
    check_alone(${i} ": it configures a header or specializes a template")
  else()
    list(APPEND group_ids ${i})
    string(REPLACE "\n" ";" incs "${block_includes_${id}}")
    foreach(inc IN LISTS incs)
      if(NOT inc STREQUAL "")
        string(FIND "${group_includes}" "${inc}\n" at)
        if(at EQUAL -1)
          string(APPEND group_includes "${inc}\n")
        endif()
      endif()
    endforeach()
    string(APPEND group_code "${block_grouped_${id}}")
  endif()
endforeach()

if(group_ids)
  list(LENGTH group_ids ngroup)
  file(WRITE "${OUT}/all_blocks.cu" "${group_includes}${group_code}")
  compile_tu("${OUT}/all_blocks.cu" rc)
  if(rc EQUAL 0)
    foreach(i IN LISTS group_ids)
      list(GET block_where ${i} where)
      message("cuprobe-docs: ${where}: compiles (with the ${ngroup} blocks of the group)")
    endforeach()
  else()
    message("cuprobe-docs: the group of ${ngroup} blocks does not compile; compiling each alone:\n${compile_output}")
    foreach(i IN LISTS group_ids)
      check_alone(${i} "")
    endforeach()
    if(NOT bad)
      message("cuprobe-docs: every block compiles alone but not all together (a clash of names "
              "between blocks): the group must compile too")
      set(bad 1)
    endif()
  endif()
endif()

if(bad)
  message(FATAL_ERROR "cuprobe-docs: FAILED")
endif()
message("cuprobe-docs: ${count} block(s) compile")
