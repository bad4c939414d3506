# cuprobe test helpers, for cuprobe's own tests and for users' kernels.
#
# cuprobe_add_sass_test(<name>
#     SOURCE <file.cu>                 # compiled to a cubin at build time
#   | TARGET <target>                  # or: the object of this CUDA target (one source), as
#                                      #   the build compiles it; nothing is compiled twice.
#                                      #   With TARGET, ARCH picks the SASS section, and CONFIG
#                                      #   and OPTIONS do not apply: the target's own flags do
#     [ARCH <90a>]                     # sm_ architecture (default 90a)
#     [CONFIG <Release|Debug>]         # Release (default): -O3 -DNDEBUG, cuprobe's device checks
#                                      #   off, as in a Release build; Debug: -O3 without
#                                      #   -DNDEBUG, so CUPROBE_PTX_CHECKS is 1 (the debug variant)
#     [FUNCTION <regex>]               # only the kernels whose (mangled) name matches
#     [CHECK <check>...]               # see below
#     [SEQUENCE <regex>...]            # these instructions appear in this order
#     [BETWEEN <start> <end>]          # apply CHECKs only to the instructions strictly between
#                                      #   the first match of <start> and the next match of
#                                      #   <end> (e.g. two clock reads: what is timed)
#     [INSIDE_LOOP <regex>...]         # every instruction matching each regex lies inside the
#                                      #   function's outermost loop, and at least one matches
#     [FORBID_PTXAS_WARNING <regex>...]  # the compile's output (nvcc, ptxas: its "info" and
#                                      #   "warning" lines, kept in <cubin>.log) must have no line
#                                      #   matching any regex
#     [ALLOW_WGMMA_SERIALIZATION]      # do not fail on ptxas's "wgmma.mma_async instructions
#                                      #   are serialized" (C7509, C7511, C7512, C7515, ...) nor
#                                      #   on "warpgroup.wait/arrive is injected" (C7517,
#                                      #   C7519), which every SASS test forbids by default
#     [OPTIONS <nvcc flag>...]         # extra nvcc flags (-D..., -I..., -std=c++20)
#     [LINK <target>...]               # take include dirs and defines from these targets
#                                      #   (default: CUPROBE_SASS_DEFAULT_LINK if set, else
#                                      #   cuprobe::cuprobe)
#                                      #   (default: cuprobe::cuprobe when it exists)
#     [LABELS <label>...]              # added to the "sass" label
#     [EXPECT_FAILURE])                # the test passes only if a check fails (self-tests)
#
# A <check> is a CMake regular expression matched against each SASS instruction
# ("FFMA R1, R2, R3, R4 ;"), optionally with a count:
#     "FFMA"           at least one instruction matches
#     "FFMA >= 64"     at least 64 match    ("<= N" and "== N" too)
#     "!LDL|STL"       none matches (no local memory)
# INSIDE_LOOP shows that ptxas did not hoist a load out of a loop or sink a store after it. The
# outermost loop runs from the lowest target of a backward branch to the farthest branch back to
# it (for a loop nest, the outer loop; for loops one after the other, the first). Loops are per
# function: with several functions selected, each must have a loop and a match inside it. It
# looks at the whole function, whatever BETWEEN says. A failure names each instruction outside
# (address and text).
# The compile log is per cubin; with FUNCTION, a log line that names a function ("... in the
# function '_Z...'") counts only when that function matches FUNCTION. Tests with the same source,
# architecture, CONFIG and options share one cubin, one compile and one log.
#
# The build disassembles each cubin (or target object) once, with cuobjdump -sass, into a
# listing beside it (<cubin>.sass); every test of that cubin reads the listing. Without cuobjdump
# nothing is added and configuration says so once, loudly.
#
# cuprobe_add_gpu_test(<target> [LABELS ...] [ARGS ...])
#     Adds the doctest executable <target> as a test labelled "gpu". Without a GPU it
#     exits 77 (cuprobe/testing/doctest.cuh) and CTest reports it as Skipped, never as passed.
#     With CUPROBE_REQUIRE_GPU=ON a missing GPU fails the test instead. GPU tests run
#     serially, so that timings do not overlap.

set(_cuprobe_testing_dir "${CMAKE_CURRENT_LIST_DIR}")

function(_cuprobe_find_cuobjdump out)
  if(NOT DEFINED CACHE{CUPROBE_CUOBJDUMP})
    set(_hints)
    if(CUDAToolkit_BIN_DIR)
      list(APPEND _hints "${CUDAToolkit_BIN_DIR}")
    endif()
    # Where scripts/setup-tests.sh puts NVIDIA's PyPI wheels when the toolkit has no cuobjdump.
    if(DEFINED ENV{XDG_CACHE_HOME})
      list(APPEND _hints "$ENV{XDG_CACHE_HOME}/cuprobe-ci/wheels/nvidia/cu13/bin")
    endif()
    list(APPEND _hints "$ENV{HOME}/.cache/cuprobe-ci/wheels/nvidia/cu13/bin")
    find_program(CUPROBE_CUOBJDUMP cuobjdump HINTS ${_hints}
                 DOC "cuobjdump, for cuprobe's SASS tests")
  endif()
  # cuobjdump -sass runs nvdisasm: look for it beside cuobjdump, in the toolkit, on PATH.
  if(CUPROBE_CUOBJDUMP AND NOT DEFINED CACHE{CUPROBE_NVDISASM})
    get_filename_component(_dir "${CUPROBE_CUOBJDUMP}" DIRECTORY)
    find_program(CUPROBE_NVDISASM nvdisasm HINTS "${_dir}" ${_hints}
                 DOC "nvdisasm, which cuobjdump -sass runs")
  endif()
  if(NOT CUPROBE_CUOBJDUMP OR NOT CUPROBE_NVDISASM)
    get_property(_warned GLOBAL PROPERTY _cuprobe_cuobjdump_warned)
    if(NOT _warned)
      message(WARNING
        "cuprobe: cuobjdump or nvdisasm (which cuobjdump -sass runs) was found neither in the "
        "CUDA toolkit nor on PATH, so the SASS test tier is NOT BUILT and no sass test will run. "
        "Install them (pip install nvidia-cuda-cuobjdump nvidia-cuda-nvdisasm, then put their "
        "nvidia/cu13/bin on PATH) or pass -DCUPROBE_CUOBJDUMP=... -DCUPROBE_NVDISASM=...")
      set_property(GLOBAL PROPERTY _cuprobe_cuobjdump_warned TRUE)
    endif()
    set(${out} "" PARENT_SCOPE)
  else()
    set(${out} "${CUPROBE_CUOBJDUMP}" PARENT_SCOPE)
  endif()
endfunction()

# The listing of a cubin compiled from <src>: one compile (through the compile mode, which keeps
# the log) and one disassembly per (source, architecture, configuration, options, link).
function(_cuprobe_sass_cubin_listing src arch config options link cuobjdump out_listing out_log)
  if(config STREQUAL "Release")
    set(config_flags -O3 -DNDEBUG)
  else()
    set(config_flags -O3)
  endif()
  get_filename_component(src "${src}" ABSOLUTE)
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/sass")
  string(MD5 key "${src}|${arch}|${config}|${options}|${link}")
  string(SUBSTRING "${key}" 0 12 key)
  get_filename_component(stem "${src}" NAME_WE)
  set(cubin "${dir}/${stem}.${key}.sm_${arch}.cubin")
  set(cubin_target cuprobe_cubin_${stem}_${key})
  set(incs)
  set(defs)
  foreach(t IN LISTS link)
    list(APPEND incs "$<TARGET_PROPERTY:${t},INTERFACE_INCLUDE_DIRECTORIES>")
    list(APPEND defs "$<TARGET_PROPERTY:${t},INTERFACE_COMPILE_DEFINITIONS>")
  endforeach()
  set(inc_flags "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>")
  set(def_flags "$<$<BOOL:${defs}>:-D$<JOIN:${defs},;-D>>")
  # The compile runs through cuprobe_sass_check.cmake in its compile mode, which keeps what nvcc
  # and ptxas print (ptxas's wgmma notes are "info" lines, not warnings) in <cubin>.log, then
  # disassembles the cubin once into <cubin>.sass.
  # The cubin compiles join the project's Ninja pool for compiles when it has one.
  set(_cuprobe_job_pool)
  get_property(pools GLOBAL PROPERTY JOB_POOLS)
  if(CMAKE_GENERATOR MATCHES "Ninja" AND pools MATCHES "(^|;)cuprobe_compile=")
    set(_cuprobe_job_pool JOB_POOL cuprobe_compile)
  endif()
  if(NOT TARGET ${cubin_target})
    add_custom_command(
      OUTPUT "${cubin}" "${cubin}.sass"
      BYPRODUCTS "${cubin}.log"
      COMMAND "${CMAKE_COMMAND}" -E make_directory "${dir}"
      COMMAND "${CMAKE_COMMAND}" "-DCUPROBE_SASS_COMPILE_LOG=${cubin}.log"
              "-DLISTING=${cubin}.sass" "-DCUOBJDUMP=${cuobjdump}" "-DNVDISASM=${CUPROBE_NVDISASM}"
              -P "${_cuprobe_testing_dir}/cuprobe_sass_check.cmake" --
              "${CMAKE_CUDA_COMPILER}" -cubin "-gencode=arch=compute_${arch},code=sm_${arch}"
              -std=c++17 --extended-lambda ${config_flags} "${inc_flags}" "${def_flags}" ${options}
              -MD -MF "${cubin}.d" -o "${cubin}" "${src}"
      DEPENDS "${src}" "${_cuprobe_testing_dir}/cuprobe_sass_check.cmake"
      DEPFILE "${cubin}.d"
      COMMENT "cuprobe SASS tests: compiling ${src} for sm_${arch} (${config})"
      ${_cuprobe_job_pool}
      COMMAND_EXPAND_LISTS VERBATIM)
    add_custom_target(${cubin_target} ALL DEPENDS "${cubin}.sass")
  endif()
  set(${out_listing} "${cubin}.sass" PARENT_SCOPE)
  set(${out_log} "${cubin}.log" PARENT_SCOPE)
endfunction()

# The listing of a CUDA target's object, as the build compiles it: the target's compile runs
# through the compile mode as its CUDA_COMPILER_LAUNCHER (which keeps its log), and one
# disassembly of its object follows the target's build.
function(_cuprobe_sass_target_listing target arch cuobjdump out_listing out_log)
  get_target_property(bindir ${target} BINARY_DIR)
  set(listing "${bindir}/sass/${target}.sm_${arch}.sass")
  set(log "${bindir}/sass/${target}.compile.log")
  if(NOT TARGET cuprobe_sass_${target})
    get_target_property(launcher ${target} CUDA_COMPILER_LAUNCHER)
    if(launcher)
      message(FATAL_ERROR "cuprobe_add_sass_test(TARGET ${target}): the target has a "
                          "CUDA_COMPILER_LAUNCHER already (${launcher})")
    endif()
    # The object must hold SASS for arch: a PTX-only target gets the real architecture too.
    get_target_property(archs ${target} CUDA_ARCHITECTURES)
    if(archs AND NOT archs MATCHES "(^|;)${arch}(-real)?(;|$)")
      list(TRANSFORM archs REPLACE "^${arch}-virtual$" "${arch}")
      if(NOT archs MATCHES "(^|;)${arch}(;|$)")
        list(APPEND archs "${arch}-real")
      endif()
      set_target_properties(${target} PROPERTIES CUDA_ARCHITECTURES "${archs}")
    endif()
    set_target_properties(${target} PROPERTIES CUDA_COMPILER_LAUNCHER
      "${CMAKE_COMMAND};-DCUPROBE_SASS_COMPILE_LOG=${log};-P;${_cuprobe_testing_dir}/cuprobe_sass_check.cmake;--")
    file(MAKE_DIRECTORY "${bindir}/sass")
    add_custom_command(
      OUTPUT "${listing}"
      COMMAND "${CMAKE_COMMAND}" "-DCUPROBE_SASS_DISASSEMBLE=$<TARGET_OBJECTS:${target}>"
              "-DLISTING=${listing}" "-DCUOBJDUMP=${cuobjdump}" "-DNVDISASM=${CUPROBE_NVDISASM}"
              "-DARCH=${arch}" -P "${_cuprobe_testing_dir}/cuprobe_sass_check.cmake"
      DEPENDS ${target} "${_cuprobe_testing_dir}/cuprobe_sass_check.cmake"
      COMMENT "cuprobe SASS tests: disassembling ${target} (sm_${arch})"
      VERBATIM)
    add_custom_target(cuprobe_sass_${target} ALL DEPENDS "${listing}")
  endif()
  set(${out_listing} "${listing}" PARENT_SCOPE)
  set(${out_log} "${log}" PARENT_SCOPE)
endfunction()

function(cuprobe_add_sass_test name)
  cmake_parse_arguments(PARSE_ARGV 1 S "EXPECT_FAILURE;ALLOW_WGMMA_SERIALIZATION"
                        "SOURCE;TARGET;ARCH;FUNCTION;CONFIG"
                        "CHECK;SEQUENCE;OPTIONS;LINK;LABELS;BETWEEN;INSIDE_LOOP;FORBID_PTXAS_WARNING")
  if(NOT S_SOURCE AND NOT S_TARGET)
    message(FATAL_ERROR "cuprobe_add_sass_test(${name}): SOURCE or TARGET is required")
  endif()
  if(NOT S_CHECK AND NOT S_SEQUENCE AND NOT S_INSIDE_LOOP AND NOT S_FORBID_PTXAS_WARNING)
    message(FATAL_ERROR "cuprobe_add_sass_test(${name}): give at least one CHECK, SEQUENCE, "
                        "INSIDE_LOOP or FORBID_PTXAS_WARNING")
  endif()
  _cuprobe_find_cuobjdump(cuobjdump)
  if(NOT cuobjdump)
    return()
  endif()
  if(NOT CMAKE_CUDA_COMPILER)
    message(FATAL_ERROR "cuprobe_add_sass_test(${name}): enable the CUDA language first")
  endif()
  if(NOT S_ARCH)
    set(S_ARCH 90a)
  endif()
  if(NOT S_CONFIG)
    set(S_CONFIG Release)
  endif()
  if(NOT S_CONFIG MATCHES "^(Release|Debug)$")
    message(FATAL_ERROR
      "cuprobe_add_sass_test(${name}): CONFIG must be Release or Debug, not '${S_CONFIG}'")
  endif()
  if(NOT DEFINED S_LINK AND DEFINED CUPROBE_SASS_DEFAULT_LINK)
    set(S_LINK ${CUPROBE_SASS_DEFAULT_LINK})
  elseif(NOT DEFINED S_LINK AND TARGET cuprobe::cuprobe)
    set(S_LINK cuprobe::cuprobe)
  endif()
  set(dir "${CMAKE_CURRENT_BINARY_DIR}/sass")
  if(S_TARGET)
    _cuprobe_sass_target_listing(${S_TARGET} ${S_ARCH} "${cuobjdump}" listing log)
  else()
    _cuprobe_sass_cubin_listing("${S_SOURCE}" ${S_ARCH} ${S_CONFIG} "${S_OPTIONS}" "${S_LINK}"
                                "${cuobjdump}" listing log)
  endif()

  # The checks travel in a small file: CMake lists and regexes do not survive a command line.
  set(cfg "${dir}/${name}.check.cmake")
  set(body "set(LISTING [==[${listing}]==])\nset(LOG [==[${log}]==])\n")
  string(APPEND body "set(FUNCTION [==[${S_FUNCTION}]==])\nset(CHECKS)\nset(SEQUENCE)\nset(INSIDE_LOOP)\n")
  if(S_BETWEEN)
    list(LENGTH S_BETWEEN nb)
    if(NOT nb EQUAL 2)
      message(FATAL_ERROR "cuprobe_add_sass_test(${name}): BETWEEN takes two regexes")
    endif()
    list(GET S_BETWEEN 0 b0)
    list(GET S_BETWEEN 1 b1)
    string(APPEND body "set(BETWEEN_START [==[${b0}]==])\nset(BETWEEN_END [==[${b1}]==])\n")
  endif()
  foreach(c IN LISTS S_CHECK)
    string(APPEND body "list(APPEND CHECKS [==[${c}]==])\n")
  endforeach()
  foreach(c IN LISTS S_SEQUENCE)
    string(APPEND body "list(APPEND SEQUENCE [==[${c}]==])\n")
  endforeach()
  foreach(c IN LISTS S_INSIDE_LOOP)
    string(APPEND body "list(APPEND INSIDE_LOOP [==[${c}]==])\n")
  endforeach()
  string(APPEND body "set(FORBID)\n")
  if(NOT S_ALLOW_WGMMA_SERIALIZATION)
    # ptxas broke the wgmma pipeline: serialised the MMAs, or had to add a wait or an arrive.
    string(APPEND body "list(APPEND FORBID [==[wgmma\\.mma_async instructions are serialized]==])\n")
    string(APPEND body "list(APPEND FORBID [==[warpgroup\\.(wait|arrive) is injected]==])\n")
  endif()
  foreach(c IN LISTS S_FORBID_PTXAS_WARNING)
    string(APPEND body "list(APPEND FORBID [==[${c}]==])\n")
  endforeach()
  file(WRITE "${cfg}" "${body}")

  add_test(NAME sass.${name}
           COMMAND "${CMAKE_COMMAND}" "-DCONFIG=${cfg}" -P "${_cuprobe_testing_dir}/cuprobe_sass_check.cmake")
  set_tests_properties(sass.${name} PROPERTIES LABELS "sass;${S_LABELS}")
  if(S_EXPECT_FAILURE)
    # Passes only on the checker's own failure message, not on any crash or missing tool.
    set_tests_properties(sass.${name} PROPERTIES PASS_REGULAR_EXPRESSION "cuprobe-sass: FAILED")
  else()
    set_tests_properties(sass.${name} PROPERTIES FAIL_REGULAR_EXPRESSION "cuprobe-sass: FAILED")
  endif()
endfunction()

function(cuprobe_add_gpu_test target)
  cmake_parse_arguments(PARSE_ARGV 1 G "" "" "LABELS;ARGS")
  add_test(NAME gpu.${target} COMMAND $<TARGET_FILE:${target}> ${G_ARGS})
  set_tests_properties(gpu.${target} PROPERTIES LABELS "gpu;${G_LABELS}" RUN_SERIAL TRUE)
  if(NOT CUPROBE_REQUIRE_GPU)
    set_tests_properties(gpu.${target} PROPERTIES SKIP_RETURN_CODE 77)
  endif()
endfunction()
