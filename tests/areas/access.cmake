# access area: model/access.cuh, the sector model of a warp's global access, and gen/access.cuh,
# the kernels that issue it (issue "Access patterns explained by sectors"). Host tests on
# hand-worked cases, SASS tests of the kernels; their GPU test, the experiment and the ncu
# comparison are not written yet.
cuprobe_host_test(access_model)
set_tests_properties(host.access_model PROPERTIES LABELS "host;access")

# SASS (release): gen/access.cuh's kernels issue U = 4 loads of the element's width per
# iteration (predicated on the region count), the copies as many stores, no local memory.
set(_access_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/access.cu")
foreach(c IN ITEMS "u8;IhLb0E;LDG\\.E\\.U8 == 4" "u16;ItLb0E;LDG\\.E\\.U16 == 4"
                   "u32;IjLb0E;LDG\\.E R[0-9]+, == 4" "u64;ImLb0E;LDG\\.E\\.64 == 4"
                   "u128;I5uint4Lb0E;LDG\\.E\\.128 == 4")
  list(GET c 0 name)
  list(GET c 1 mangled)
  list(GET c 2 check)
  cuprobe_add_sass_test(access_read_${name} SOURCE ${_access_probe} OPTIONS -DNDEBUG
    FUNCTION "access_kernel${mangled}" CHECK "${check}" "!LDL|STL" INSIDE_LOOP "LDG"
    LABELS access)
endforeach()
cuprobe_add_sass_test(access_copy_u32 SOURCE ${_access_probe} OPTIONS -DNDEBUG
  FUNCTION "access_kernelIjLb1E" CHECK "LDG\\.E R[0-9]+, == 4" "STG\\.E\\.STRONG\\.SM == 4"
  "!LDL|STL" LABELS access)
cuprobe_add_sass_test(access_copy_u128 SOURCE ${_access_probe} OPTIONS -DNDEBUG
  FUNCTION "access_kernelI5uint4Lb1E" CHECK "LDG\\.E\\.128 == 4" "STG\\.E\\.128 == 4"
  "!LDL|STL" LABELS access)
