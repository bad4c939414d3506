# dsm area: distributed shared memory (cuprobe_suite/kernels/dsm.cuh, cuprobe_suite/dsm.cuh): the
# chase into a peer CTA's shared memory and the neighbour-read bandwidth kernel. Host tests (options
# refused with a sentence, rings, sums, sizing), a gpu test (on an sm_90 GPU: every cluster size
# measured or reported unlaunchable) and sass tests (sm_90a).
cuprobe_host_test(dsm)
cuprobe_gpu_test(dsm)
set_tests_properties(host.dsm PROPERTIES LABELS "host;dsm")
set_tests_properties(gpu.gpu_dsm PROPERTIES TIMEOUT 600 LABELS "gpu;dsm")

set(_dsm_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/dsm.cu")

# Instantiated for sm_80 the kernels do not compile, and say why (nvcc at test time).
cuprobe_compile_fail_test(host.dsm_needs_sm90 "${_dsm_probe}" 80
  "cuprobe::ptx::cluster::ctarank\\(\\) needs sm_90 or newer" "-I${PROJECT_SOURCE_DIR}/suite")
set_tests_properties(host.dsm_needs_sm90 PROPERTIES LABELS "host;dsm")

# ---- SASS (sm_90a). ----
# ld.shared::cluster becomes a generic load through the shared window: LD.E (.64, .128) on the
# 64-bit pair {32-bit address, SR_SWINHI}; mapa is a PRMT of the rank into the address (0x654);
# barrier.cluster is UCGABAR_ARV / UCGABAR_WAIT (BAR.SYNC on the branch for a 1-CTA cluster).
set(_dsm_clock "CS2R.*SR_CLOCKLO")
# The chase: between the two clock reads only the dependent LD.E chain (unrolled: at least 4 per
# loop body, with the MOV that pairs each loaded address with SR_SWINHI), no other memory access
# and no barrier; the cluster barrier before the first read and after the second (no CTA exits
# while rank 0 reads its shared memory). That each load's address is the previous load's result
# is checked on the GPU instead (the chase must end on the node a host walk reaches).
cuprobe_add_sass_test(dsm_chase SOURCE ${_dsm_probe} FUNCTION "^dsm_chase$"
  BETWEEN "${_dsm_clock}" "${_dsm_clock}"
  CHECK "^LD\\.E R[0-9]+, \\[R[0-9]+\\] >= 4" "SR_SWINHI" "!LD\\.E\\.64|LD\\.E\\.128"
        "!LDS|STS|LDG|STG|ATOM|RED|MEMBAR|BAR|UCGABAR|LDL|STL"
  LABELS dsm)
cuprobe_add_sass_test(dsm_chase_barriers SOURCE ${_dsm_probe} FUNCTION "^dsm_chase$"
  CHECK "${_dsm_clock} == 2" "^UCGABAR_ARV == 2" "^UCGABAR_WAIT == 2" "^PRMT .*0x654 >= 2"
        "!LDL|STL"
  SEQUENCE "^STS " "^UCGABAR_WAIT" "${_dsm_clock}" "^LD\\.E R" "${_dsm_clock}" "^UCGABAR_ARV"
           "^UCGABAR_WAIT" "^EXIT"
  LABELS dsm)
# Bandwidth: between the clock reads, the round loop's 8 loads of the intended width and nothing
# else that touches memory but the block barrier; every load inside the loop (not hoisted); the
# 8 mapa of the peer addresses before it; cluster barriers around the timed region.
foreach(probe IN ITEMS "dsm_read4;LD\\.E R[0-9]+, \\[R[0-9]+\\]" "dsm_read8;LD\\.E\\.64 "
                       "dsm_read16;LD\\.E\\.128 ")
  list(GET probe 0 fn)
  list(GET probe 1 inst)
  cuprobe_add_sass_test(${fn} SOURCE ${_dsm_probe} FUNCTION "^${fn}$"
    BETWEEN "${_dsm_clock}" "${_dsm_clock}"
    CHECK "^${inst} == 8" "^LD\\.E == 8" "!LDS|STS|LDG|STG|ATOM|RED|UCGABAR|LDL|STL"
    LABELS dsm)
  cuprobe_add_sass_test(${fn}_loop SOURCE ${_dsm_probe} FUNCTION "^${fn}$"
    INSIDE_LOOP "^LD\\.E" CHECK "^LD\\.E == 8" "^PRMT .*0x654 == 8" "!LDL|STL"
    SEQUENCE "^UCGABAR_WAIT" "${_dsm_clock}" "^${inst}" "^BAR\\.SYNC" "${_dsm_clock}"
             "^UCGABAR_ARV" "^UCGABAR_WAIT" "^EXIT"
    LABELS dsm)
endforeach()
# Release builds carry no device checks; CUPROBE_DEBUG turns on the alignment trap of every load.
cuprobe_add_sass_test(dsm_release_has_no_checks SOURCE ${_dsm_probe} FUNCTION "^dsm_"
  CHECK "!BPT|CALL" LABELS dsm)
cuprobe_add_sass_test(dsm_debug_checks_trap SOURCE ${_dsm_probe} OPTIONS -DCUPROBE_DEBUG
  FUNCTION "^dsm_read16$" CHECK "BPT\\.TRAP >= 1" "^LD\\.E\\.128 == 8" LABELS dsm)
