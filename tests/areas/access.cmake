# access area: model/access.cuh, the sector model of a warp's global access,
# cuprobe_suite/kernels/access.cuh, the kernels that issue it, and cuprobe_suite/access.cuh, their
# bandwidth at DRAM and L2 working sets and the copy-vs-working-set curve (issue "Access patterns
# explained by sectors"). Host tests on hand-worked cases and of the experiment's refusals and
# sizing; SASS tests of the kernels; a GPU test of the experiment's results against the model; and
# gpu.access_ncu, the sectors per request ncu counts against the model's (tools/ncu_access.sh,
# skipped without ncu or a GPU).
cuprobe_host_test(access_model)
set_tests_properties(host.access_model PROPERTIES LABELS "host;access")
cuprobe_host_test(access_experiment)
set_tests_properties(host.access_experiment PROPERTIES LABELS "host;access")
cuprobe_gpu_test(access)
set_tests_properties(gpu.gpu_access PROPERTIES TIMEOUT 900 LABELS "gpu;access")

# ncu against the model: the example's --ncu-set mode under Nsight Compute, compared by
# tools/access_check.py. Exit 77 (Skipped) without ncu, without a GPU or without access to the
# performance counters; with CUPROBE_REQUIRE_GPU=ON a missing GPU fails instead.
if(CUPROBE_BUILD_EXAMPLES AND Python3_EXECUTABLE)
  add_test(NAME gpu.access_ncu
    COMMAND "${PROJECT_SOURCE_DIR}/tools/ncu_access.sh" "${PROJECT_BINARY_DIR}"
            "${CMAKE_CURRENT_BINARY_DIR}/access_ncu" "$<BOOL:${CUPROBE_REQUIRE_GPU}>")
  set_tests_properties(gpu.access_ncu PROPERTIES LABELS "gpu;access" SKIP_RETURN_CODE 77
                       RUN_SERIAL ON TIMEOUT 900 ENVIRONMENT "PYTHON=python3")
endif()

# SASS (release): cuprobe_suite/kernels/access.cuh's kernels issue U = 4 loads of the element's
# width per iteration (predicated on the region count), the copies as many stores, no local memory;
# the .cg kernels the experiment runs, likewise.
set(_access_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/access.cu")
set(_access_none "Li4ENS_3ptx5cache4none")
set(_access_cg "Li4ENS_3ptx5cache2cg")
foreach(c IN ITEMS "u8;IhLb0E;LDG\\.E\\.U8 == 4" "u16;ItLb0E;LDG\\.E\\.U16 == 4"
                   "u32;IjLb0E;LDG\\.E R[0-9]+, == 4" "u64;ImLb0E;LDG\\.E\\.64 == 4"
                   "u128;I5uint4Lb0E;LDG\\.E\\.128 == 4")
  list(GET c 0 name)
  list(GET c 1 mangled)
  list(GET c 2 check)
  cuprobe_add_sass_test(access_read_${name} SOURCE ${_access_probe} OPTIONS -DNDEBUG
    FUNCTION "access_kernel${mangled}${_access_none}" CHECK "${check}" "!LDL|STL"
    INSIDE_LOOP "LDG" LABELS access)
endforeach()
cuprobe_add_sass_test(access_copy_u32 SOURCE ${_access_probe} OPTIONS -DNDEBUG
  FUNCTION "access_kernelIjLb1E${_access_none}" CHECK "LDG\\.E R[0-9]+, == 4"
  "STG\\.E\\.STRONG\\.SM == 4" "!LDL|STL" LABELS access)
cuprobe_add_sass_test(access_copy_u128 SOURCE ${_access_probe} OPTIONS -DNDEBUG
  FUNCTION "access_kernelI5uint4Lb1E${_access_none}" CHECK "LDG\\.E\\.128 == 4"
  "STG\\.E\\.128 == 4" "!LDL|STL" LABELS access)
# What the experiment runs: ld.global.cg (LDG ... .STRONG.GPU) and st.global.cg, all inside the
# pass loop.
foreach(c IN ITEMS "read_u8;IhLb0E;LDG\\.E\\.U8\\.STRONG\\.GPU == 4;STG == 1"
                   "read_u128;I5uint4Lb0E;LDG\\.E\\.128\\.STRONG\\.GPU == 4;STG == 1"
                   "copy_u32;IjLb1E;LDG\\.E\\.STRONG\\.GPU == 4;STG\\.E\\.STRONG\\.GPU == 4"
                   "copy_u128;I5uint4Lb1E;LDG\\.E\\.128\\.STRONG\\.GPU == 4;STG\\.E\\.128\\.STRONG\\.GPU == 4")
  list(GET c 0 name)
  list(GET c 1 mangled)
  list(GET c 2 load)
  list(GET c 3 store)
  cuprobe_add_sass_test(access_cg_${name} SOURCE ${_access_probe} OPTIONS -DNDEBUG
    FUNCTION "access_kernel${mangled}${_access_cg}" CHECK "${load}" "${store}" "!LDL|STL"
    INSIDE_LOOP "LDG" LABELS access)
endforeach()

# tools/access_check.py on hand-made CSVs (no GPU, no ncu).
if(Python3_EXECUTABLE)
  add_test(NAME host.access_tools
    COMMAND "${Python3_EXECUTABLE}" "${CMAKE_CURRENT_SOURCE_DIR}/host/access_tools_check.py")
  set_tests_properties(host.access_tools PROPERTIES LABELS "host;access")
endif()
