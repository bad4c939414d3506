# ordering area: fences (ptx/fence.cuh), publish/consume patterns and fence cost
# (gen/ordering.cuh). Host, gpu and sass tests.
cuprobe_host_test(ordering_names)
cuprobe_gpu_test(ordering)

# SASS (sm_90a, one cubin from tests/sass/ordering_fence.cu). Each probe_<name> kernel is
# "store; fence; store": the fence must become exactly the listed instruction, between the two
# stores. What each fence becomes (docs/memory-latency.md has the table):
#   sc      -> MEMBAR.SC.<CTA|GPU|SYS>   (+ ERRBAR; CGAERRBAR; CCTL.IVALL beyond the CTA)
#   acq_rel -> MEMBAR.ALL.<CTA|GPU|SYS>  (+ the same)
#   release -> MEMBAR.ALL.<...> (+ ERRBAR; CGAERRBAR), no L1 invalidation
#   acquire -> CCTL.IVALL only (L1 invalidation), nothing at CTA scope
#   cluster scope -> the GPU-scope instructions; membar.{cta,gl,sys} -> fence.sc.{cta,gpu,sys}
set(_ordering_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/ordering_fence.cu")
# _ordering_fence(<probe> <the fence instruction> [extra CHECKs...])
function(_ordering_fence probe fence)
  cuprobe_add_sass_test(ordering_${probe} SOURCE ${_ordering_probe}
    FUNCTION "^probe_${probe}$"
    CHECK "STG == 2" "${fence} == 1" ${ARGN}
    SEQUENCE "STG" "${fence}" "STG")
endfunction()
_ordering_fence(fence_sc_cta          "MEMBAR\\.SC\\.CTA"  "!CCTL|MEMBAR\\..*\\.(GPU|SYS)")
_ordering_fence(fence_sc_cluster      "MEMBAR\\.SC\\.GPU"  "CCTL\\.IVALL == 1")
_ordering_fence(fence_sc_gpu          "MEMBAR\\.SC\\.GPU"  "CCTL\\.IVALL == 1" "ERRBAR")
_ordering_fence(fence_sc_sys          "MEMBAR\\.SC\\.SYS"  "CCTL\\.IVALL == 1")
_ordering_fence(fence_acq_rel_cta     "MEMBAR\\.ALL\\.CTA" "!CCTL|MEMBAR\\..*\\.(GPU|SYS)")
_ordering_fence(fence_acq_rel_cluster "MEMBAR\\.ALL\\.GPU" "CCTL\\.IVALL == 1")
_ordering_fence(fence_acq_rel_gpu     "MEMBAR\\.ALL\\.GPU" "CCTL\\.IVALL == 1" "!MEMBAR\\.SC")
_ordering_fence(fence_acq_rel_sys     "MEMBAR\\.ALL\\.SYS" "CCTL\\.IVALL == 1")
_ordering_fence(fence_release_cta     "MEMBAR\\.ALL\\.CTA" "!CCTL")
_ordering_fence(fence_release_cluster "MEMBAR\\.ALL\\.GPU" "!CCTL")
_ordering_fence(fence_release_gpu     "MEMBAR\\.ALL\\.GPU" "!CCTL")
_ordering_fence(fence_release_sys     "MEMBAR\\.ALL\\.SYS" "!CCTL")
_ordering_fence(fence_acquire_cluster "CCTL\\.IVALL" "!MEMBAR")
_ordering_fence(fence_acquire_gpu     "CCTL\\.IVALL" "!MEMBAR")
_ordering_fence(fence_acquire_sys     "CCTL\\.IVALL" "!MEMBAR")
_ordering_fence(membar_cta            "MEMBAR\\.SC\\.CTA"  "!CCTL")
_ordering_fence(membar_gl             "MEMBAR\\.SC\\.GPU"  "CCTL\\.IVALL == 1")
_ordering_fence(membar_sys            "MEMBAR\\.SC\\.SYS"  "CCTL\\.IVALL == 1")
_ordering_fence(fence_proxy_async     "FENCE\\.VIEW\\.ASYNC\\.S" "MEMBAR\\.ALL\\.GPU")
# fence.acquire.cta leaves nothing in the SASS (a CTA's threads share the L1): only the stores.
cuprobe_add_sass_test(ordering_fence_acquire_cta SOURCE ${_ordering_probe}
  FUNCTION "^probe_fence_acquire_cta$" CHECK "STG == 2" "!MEMBAR|CCTL|FENCE")
cuprobe_add_sass_test(ordering_no_fence SOURCE ${_ordering_probe}
  FUNCTION "^probe_no_fence$" CHECK "STG == 2" "!MEMBAR|CCTL|FENCE|ERRBAR")

# The publish/consume patterns (publish_pattern 0, 1, 2): the partial sum's store, then the
# release half, then the ticket's atomic, then (last block) the acquire half, a barrier, the loads.
set(_lbs "last_block_sum_kernelILNS0_15publish_patternE")
cuprobe_add_sass_test(ordering_publish_fence_then_atomic SOURCE ${_ordering_probe}
  FUNCTION "${_lbs}0E" CHECK "MEMBAR\\.SC\\.GPU == 2" "ATOMG?\\.E\\.ADD\\.STRONG\\.GPU == 1" "!LDL|STL"
  SEQUENCE "STG\\.E\\.64" "MEMBAR\\.SC\\.GPU" "ATOMG?\\.E\\.ADD" "MEMBAR\\.SC\\.GPU" "CCTL\\.IVALL"
           "BAR\\.SYNC" "LDG\\.E\\.64")
cuprobe_add_sass_test(ordering_publish_acq_rel_atomic SOURCE ${_ordering_probe}
  FUNCTION "${_lbs}1E" CHECK "MEMBAR\\.ALL\\.GPU == 1" "!MEMBAR\\.SC" "ATOM\\.E\\.ADD\\.STRONG\\.GPU == 1"
  SEQUENCE "STG\\.E\\.64" "MEMBAR\\.ALL\\.GPU" "ATOM\\.E\\.ADD" "CCTL\\.IVALL" "BAR\\.SYNC" "LDG\\.E\\.64")
cuprobe_add_sass_test(ordering_publish_release_acquire_load SOURCE ${_ordering_probe}
  FUNCTION "${_lbs}2E" CHECK "MEMBAR\\.ALL\\.GPU == 1" "!MEMBAR\\.SC" "LDG?\\.E\\.STRONG\\.GPU == 1"
  SEQUENCE "STG\\.E\\.64" "MEMBAR\\.ALL\\.GPU" "ATOM\\.E\\.ADD" "BAR\\.SYNC" "LDG?\\.E\\.STRONG\\.GPU"
           "CCTL\\.IVALL" "LDG\\.E\\.64")

# The fence-cost loop: the timed region holds the stores and, with the fence, one fence per
# store (one round stores each of the 8 rows once: 8 of each, rows' addresses in registers, no
# local memory); the baseline has no fence.
# (The probe instantiates fence_cost_kernel<sc, gpu, true> and <sc, cta, false> only.)
cuprobe_add_sass_test(ordering_fence_cost_loop SOURCE ${_ordering_probe}
  FUNCTION "fence_cost_kernel.*Lb1E" BETWEEN "CS2R.*SR_CLOCKLO" "CS2R.*SR_CLOCKLO"
  CHECK "STG\\.E == 8" "MEMBAR\\.SC\\.GPU == 8" "!LDL|STL")
cuprobe_add_sass_test(ordering_fence_cost_baseline SOURCE ${_ordering_probe}
  FUNCTION "fence_cost_kernel.*Lb0E" BETWEEN "CS2R.*SR_CLOCKLO" "CS2R.*SR_CLOCKLO"
  CHECK "STG\\.E == 8" "!MEMBAR|CCTL|ERRBAR|LDL|STL")

# The L2 home probe (gen::chase_load_home in gen::chase_hops_kernel): each timed hop is one
# 64-bit atomic add (generic ATOM, whose shared/local fallbacks a global address branches over),
# no global load (a load could be served by the near partition's copy of a far line).
cuprobe_add_sass_test(ordering_home_probe SOURCE ${_ordering_probe}
  FUNCTION "chase_hops_kernel.*chase_load_home" BETWEEN "SR_CLOCKLO" "SR_CLOCKLO"
  CHECK "ATOMG?\\.E\\.ADD\\.64\\.STRONG\\.GPU == 1" "!LDG")

# ptx/atomic.cuh (probe_atomic_<op>_<sem>_<scope>: "store; atomic; store"): the scope becomes the
# instruction's .STRONG.<SM|GPU|SYS> (cluster: GPU), a release half MEMBAR.ALL.<scope> before it,
# an acquire half CCTL.IVALL after it (not at CTA scope). The fetch-add of one address by a warp is
# aggregated by ptxas into one predicated ATOM.
function(_ordering_atomic probe)
  cuprobe_add_sass_test(ordering_atomic_${probe} SOURCE ${_ordering_probe}
    FUNCTION "^probe_atomic_${probe}$" ${ARGN})
endfunction()
_ordering_atomic(load_relaxed_gpu CHECK "LDG?\\.E\\.STRONG\\.GPU == 1" "!MEMBAR|CCTL")
_ordering_atomic(load_acquire_gpu CHECK "LDG?\\.E\\.STRONG\\.GPU == 1" "!MEMBAR"
  SEQUENCE "STG" "LDG?\\.E\\.STRONG\\.GPU" "CCTL\\.IVALL" "STG")
_ordering_atomic(load_acquire_sys CHECK "LDG?\\.E\\.STRONG\\.SYS == 1"
  SEQUENCE "LDG?\\.E\\.STRONG\\.SYS" "CCTL\\.IVALL")
_ordering_atomic(store_relaxed_gpu CHECK "STG?\\.E\\.STRONG\\.GPU == 1" "!MEMBAR|CCTL")
_ordering_atomic(store_release_gpu CHECK "STG?\\.E\\.STRONG\\.GPU == 1" "!CCTL"
  SEQUENCE "STG\\.E " "MEMBAR\\.ALL\\.GPU" "STG?\\.E\\.STRONG\\.GPU" "STG\\.E ")
_ordering_atomic(store_release_cta CHECK "STG?\\.E\\.STRONG\\.SM == 1" "!CCTL|MEMBAR\\..*\\.GPU"
  SEQUENCE "MEMBAR\\.ALL\\.CTA" "STG?\\.E\\.STRONG\\.SM")
_ordering_atomic(add_relaxed_gpu CHECK "ATOMG?\\.E\\.ADD\\.STRONG\\.GPU == 1" "!MEMBAR|CCTL")
_ordering_atomic(add_acq_rel_gpu CHECK "ATOMG?\\.E\\.ADD\\.STRONG\\.GPU == 1"
  SEQUENCE "MEMBAR\\.ALL\\.GPU" "ATOMG?\\.E\\.ADD\\.STRONG\\.GPU" "CCTL\\.IVALL")
_ordering_atomic(add_release_cluster CHECK "ATOMG?\\.E\\.ADD\\.STRONG\\.GPU == 1" "!CCTL"
  SEQUENCE "MEMBAR\\.ALL\\.GPU" "ATOMG?\\.E\\.ADD\\.STRONG\\.GPU")
_ordering_atomic(add_acquire_sys CHECK "ATOMG?\\.E\\.ADD\\.STRONG\\.SYS == 1" "!MEMBAR"
  SEQUENCE "ATOMG?\\.E\\.ADD\\.STRONG\\.SYS" "CCTL\\.IVALL")
