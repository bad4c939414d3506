# ptx/cache.cuh (ld/st with cache operators and eviction hints) and gen/stream.cuh +
# gen/stream_check.cuh (streaming access patterns): host, gpu and sass tests.
cuprobe_host_test(cache_accounting)
cuprobe_gpu_test(cache_ops)
cuprobe_gpu_test(cache_stream)

# ---- Illegal combinations do not compile, and say why (nvcc run at test time). ----
set(_cache_fail_src "${CMAKE_CURRENT_SOURCE_DIR}/host/cache_compile_fail.cu")
foreach(case IN ITEMS
    "1;90a;is not a load operator"
    "2;90a;is not a store operator"
    "3;75;needs a newer GPU than this compile target"
    "4;90a;T must be trivially copyable and 1, 2, 4, 8 or 16 bytes"
    "5;90a;stream kernels take elements of 4, 8 or 16 bytes"
    "6;90a;this load operator is not in the table's LoadOps list"
    "7;90a;a covering grid takes write, copy and mixed"
    "8;90a;ld: T's alignment is below its size"
    "9;90a;st: T's alignment is below its size")
  list(GET case 0 n)
  list(GET case 1 arch)
  list(GET case 2 sentence)
  cuprobe_compile_fail_test(host.cache_compile_fail_${n} "${_cache_fail_src}" ${arch} "${sentence}"
                            -DCUPROBE_CASE=${n})
endforeach()

# ---- SASS: the instruction each operator emits, for each width, on sm_90a. ----
# One probe kernel per operator in sass/cache_ops.cu, each with one access of each width:
# .b8, .b16, .b32, .b64 + .v2.b32 (2 x 64-bit forms), .v4.b32 + .v2.b64 (2 x 128-bit forms).
# PRE/POST: the qualifiers ptxas puts before / after the width (LDG.E.EF.128, LDG.E.128.STRONG.GPU).
set(_cache_sass "${CMAKE_CURRENT_SOURCE_DIR}/sass")
function(_cuprobe_cache_forms kernel op pre post)
  set(i "^${op}\\.E${pre}")
  string(REPLACE "probe_" "cache_" test "${kernel}")
  cuprobe_add_sass_test(${test} SOURCE ${_cache_sass}/cache_ops.cu OPTIONS -DNDEBUG
    FUNCTION "^${kernel}$"
    CHECK "${i}\\.U8${post}[ ] == 1" "${i}\\.U16${post}[ ] == 1" "${i}${post}[ ] == 1"
          "${i}\\.64${post}[ ] == 2" "${i}\\.128${post}[ ] == 2" "^${op} == 7" "!LDL|STL"
    LABELS cache)
endfunction()
foreach(form IN ITEMS
    "none;;" "ca;;\\.STRONG\\.SM" "cg;;\\.STRONG\\.GPU" "cs;\\.EF;" "lu;\\.LU;"
    "cv;;\\.STRONG\\.SYS" "evict_normal;;" "evict_unchanged;\\.EU;" "evict_first;\\.EF;"
    "evict_last;\\.EL;" "no_allocate;\\.NA;" "nc;;\\.CONSTANT" "nc_ca;;\\.CONSTANT"
    "nc_cg;;\\.CONSTANT" "nc_cs;\\.EF;\\.CONSTANT" "nc_evict_first;\\.EF;\\.CONSTANT"
    "nc_evict_last;\\.EL;\\.CONSTANT" "nc_no_allocate;\\.NA;\\.CONSTANT" "L2_64B;\\.LTC64B;"
    "L2_128B;\\.LTC128B;" "L2_256B;\\.LTC256B;" "nc_L2_256B;\\.LTC256B;\\.CONSTANT"
    "user_op;\\.EL\\.LTC128B;\\.CONSTANT")
  list(GET form 0 name)
  list(GET form 1 pre)
  list(GET form 2 post)
  _cuprobe_cache_forms(probe_ld_${name} LDG "${pre}" "${post}")
endforeach()
foreach(form IN ITEMS
    "none;;" "wb;;\\.STRONG\\.SM" "cg;;\\.STRONG\\.GPU" "cs;\\.EF;" "wt;;\\.STRONG\\.SYS"
    "evict_normal;;" "evict_unchanged;\\.EU;" "evict_first;\\.EF;" "evict_last;\\.EL;"
    "no_allocate;\\.NA;")
  list(GET form 0 name)
  list(GET form 1 pre)
  list(GET form 2 post)
  _cuprobe_cache_forms(probe_st_${name} STG "${pre}" "${post}")
endforeach()
# Release builds carry no device checks; CUPROBE_DEBUG turns them on even with NDEBUG.
cuprobe_add_sass_test(cache_release_has_no_checks SOURCE ${_cache_sass}/cache_ops.cu
  OPTIONS -DNDEBUG FUNCTION "^probe_" CHECK "!BPT|CALL" LABELS cache)
cuprobe_add_sass_test(cache_debug_checks_trap SOURCE ${_cache_sass}/cache_ops.cu
  OPTIONS -DNDEBUG -DCUPROBE_DEBUG FUNCTION "^probe_ld_none$"
  CHECK "BPT\\.TRAP >= 6" "CALL\\.ABS\\.NOINC >= 6" "^LDG\\.E\\.128[ ] == 2" LABELS cache)

# ---- SASS: the stream kernels. ----
# Forms and counts: the operator reaches every access; 4 (16-byte) or 8 (4-byte) loads per trip
# of the unrolled loop plus 1 in the remainder loop; no local memory; write reads nothing.
set(_cache_stream "${_cache_sass}/cache_stream.cu")
cuprobe_add_sass_test(cache_stream_read_f4_cg SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^stream_read_f4_cg_in_kernel$"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.GPU[ ] == 5" "^LDG == 5" "^STG\\.E[ ] == 1" "!LDL|STL"
  LABELS cache)
cuprobe_add_sass_test(cache_stream_read_f_cs SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^stream_read_f_cs_launches$"
  CHECK "^LDG\\.E\\.EF[ ] == 9" "^LDG == 9" "^STG\\.E[ ] == 1" "!LDL|STL" LABELS cache)
cuprobe_add_sass_test(cache_stream_write_f4_wt SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^stream_write_f4_cv_in_kernel$"
  CHECK "^STG\\.E\\.128\\.STRONG\\.SYS[ ] == 5" "^STG == 5" "!LDG" "!LDL|STL" LABELS cache)
cuprobe_add_sass_test(cache_stream_copy_f4_cs SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^stream_copy_f4_cs_in_kernel$"
  CHECK "^LDG\\.E\\.EF\\.128[ ] == 5" "^STG\\.E\\.EF\\.128[ ] == 5" "^LDG == 5" "^STG == 5"
        "!LDL|STL" LABELS cache)
cuprobe_add_sass_test(cache_stream_copy_f_cg SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^stream_copy_f_cg_launches$"
  CHECK "^LDG\\.E\\.STRONG\\.GPU[ ] == 9" "^STG\\.E\\.STRONG\\.GPU[ ] == 9" "!LDL|STL"
  LABELS cache)
# mixed: 8 predicated input loads (inputs is a run-time 1..8) per element, 2 + 1 elements.
cuprobe_add_sass_test(cache_stream_mixed_f4_cv SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^stream_mixed_f4_cv_in_kernel$"
  CHECK "LDG\\.E\\.128\\.STRONG\\.SYS[ ] == 24" "^STG\\.E\\.128\\.STRONG\\.SYS[ ] == 3" "!LDL|STL"
  LABELS cache)
# Covering grids: one element per thread, so exactly one access per array and no loop: the only
# BRA is the branch-to-self that ptxas puts after every kernel's last EXIT.
cuprobe_add_sass_test(cache_covering_write_f4_cg SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^covering_write_f4_cg$"
  CHECK "^STG\\.E\\.128\\.STRONG\\.GPU[ ] == 1" "^STG == 1" "!LDG" "^BRA == 1" "!LDL|STL" LABELS cache)
cuprobe_add_sass_test(cache_covering_copy_f4_cs SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^covering_copy_f4_cs$"
  CHECK "^LDG\\.E\\.EF\\.128[ ] == 1" "^STG\\.E\\.EF\\.128[ ] == 1" "^LDG == 1" "^STG == 1" "^BRA == 1"
        "!LDL|STL" LABELS cache)
# mixed: the 8 predicated input loads (inputs is a run-time 1..8) of the one element.
cuprobe_add_sass_test(cache_covering_mixed_f_cv SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^covering_mixed_f_cv$"
  CHECK "LDG\\.E\\.STRONG\\.SYS[ ] == 8" "^STG\\.E\\.STRONG\\.SYS[ ] == 1" "!LDL|STL" LABELS cache)

# Pass loops: every access of an in_kernel kernel lies inside the outermost loop (the loop
# over passes), i.e. ptxas did not hoist a load or sink a store out of it (INSIDE_LOOP).
# pass_loop_plain proves the check can fail: there ptxas hoists an asm volatile load.
foreach(probe IN ITEMS
    "stream_read_f4_cg_in_kernel;LDG" "stream_write_f4_cv_in_kernel;STG"
    "stream_copy_f4_cs_in_kernel;LDG|STG" "stream_mixed_f4_cv_in_kernel;LDG|STG"
    "pass_loop_opaque;LDG")
  list(GET probe 0 fn)
  list(GET probe 1 pattern)
  cuprobe_add_sass_test(cache_loop_${fn} SOURCE ${_cache_stream} OPTIONS -DNDEBUG
    FUNCTION "^${fn}$" INSIDE_LOOP "${pattern}" LABELS cache)
endforeach()
cuprobe_add_sass_test(cache_loop_pass_loop_plain SOURCE ${_cache_stream} OPTIONS -DNDEBUG
  FUNCTION "^pass_loop_plain$" INSIDE_LOOP "LDG" LABELS cache EXPECT_FAILURE)
if(TEST sass.cache_loop_pass_loop_plain)
  # It must fail for the hoisted load, not for a missing loop or kernel.
  set_tests_properties(sass.cache_loop_pass_loop_plain PROPERTIES PASS_REGULAR_EXPRESSION
    "cuprobe-sass: FAILED: 'LDG' at 0x[0-9a-f]+ lies outside the outermost loop")
endif()

# ---- SASS: the cache-bandwidth kernels (cuprobe/gen/cache_bw.cuh) and shared-memory
# kernels (kernels/smem_bw.cuh). U accesses of the intended width per round, all in the loop. ----
set(_cache_bw "${_cache_sass}/cache_bw.cu")
# U = 4 (L2) and U = 16 (L1): the defaults of cuprobe_suite/cache.cuh; U = 8 and 16 for the L2 too.
cuprobe_add_sass_test(cache_bw_l2_read SOURCE ${_cache_bw} OPTIONS -DNDEBUG FUNCTION "^l2_read_u4$"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.GPU[ ] == 4" "^LDG == 4" "^STG\\.E[ ] == 1" "!LDL|STL"
  INSIDE_LOOP "LDG" LABELS cache)
cuprobe_add_sass_test(cache_bw_l2_read_u8 SOURCE ${_cache_bw} OPTIONS -DNDEBUG FUNCTION "^l2_read_u8$"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.GPU[ ] == 8" "^LDG == 8" "!LDL|STL" INSIDE_LOOP "LDG" LABELS cache)
cuprobe_add_sass_test(cache_bw_l2_read_u16 SOURCE ${_cache_bw} OPTIONS -DNDEBUG FUNCTION "^l2_read_u16$"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.GPU[ ] == 16" "!LDL|STL" INSIDE_LOOP "LDG" LABELS cache)
cuprobe_add_sass_test(cache_bw_l2_write SOURCE ${_cache_bw} OPTIONS -DNDEBUG FUNCTION "^l2_write_u4$"
  CHECK "^STG\\.E\\.128\\.STRONG\\.GPU[ ] == 4" "!LDG" "!LDL|STL" INSIDE_LOOP "STG" LABELS cache)
cuprobe_add_sass_test(cache_bw_l2_copy SOURCE ${_cache_bw} OPTIONS -DNDEBUG FUNCTION "^l2_copy_u4$"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.GPU[ ] == 4" "^STG\\.E\\.128\\.STRONG\\.GPU[ ] == 4" "!LDL|STL"
  INSIDE_LOOP "LDG|STG" LABELS cache)
cuprobe_add_sass_test(cache_bw_l1_read SOURCE ${_cache_bw} OPTIONS -DNDEBUG FUNCTION "^l1_read_u16$"
  CHECK "^LDG\\.E\\.128[ ] == 16" "!LDG\\.E\\.128\\.STRONG" "!LDL|STL" INSIDE_LOOP "LDG" LABELS cache)
# The tma_bulk write path (cuprobe_suite/kernels/cache_bw_tma.cuh): one bulk store (UBLKCP.G.S) per
# chunk, inside the pass loop (the buffers' fill sits inside it too, on the fill pass), committed
# (UTMACMDFLUSH), bounded at Stages - 1 = 3 groups in flight (DEPBAR.LE SB0, 0x3), drained at
# the end (SB0, 0x0); the proxy fence before the first store; no st.global, no local memory.
cuprobe_add_sass_test(cache_bw_l2_bulk_write SOURCE ${_cache_bw} OPTIONS -DNDEBUG
  FUNCTION "l2_bulk_write_kernelILi4EE"
  CHECK "^UBLKCP\\.G\\.S == 1" "UTMACMDFLUSH == 1" "DEPBAR\\.LE SB0, 0x3 == 1"
        "DEPBAR\\.LE SB0, 0x0 == 1" "FENCE\\.VIEW\\.ASYNC\\.S == 1" "!STG" "!LDL|STL"
  SEQUENCE "FENCE\\.VIEW\\.ASYNC\\.S" "UBLKCP\\.G\\.S" "DEPBAR\\.LE SB0, 0x3" "DEPBAR\\.LE SB0, 0x0"
  INSIDE_LOOP "UBLKCP\\.G\\.S" "DEPBAR\\.LE SB0, 0x3" LABELS cache)
# The home write path (cuprobe_suite/kernels/l2_home_write.cuh): 16-byte .cg stores
# (STG.E.128.STRONG.GPU), 4 per iteration of the unrolled line loop, each after the LDS of its line
# index, inside the pass loop; the plan is read with plain loads (LDG.E), the ticket taken with one
# atomic; no local memory.
cuprobe_add_sass_test(cache_bw_l2_home_write SOURCE ${_cache_bw} OPTIONS -DNDEBUG
  FUNCTION "l2_home_write_kernelINS_3ptx5cache2cgEEEv"
  CHECK "^STG\\.E\\.128\\.STRONG\\.GPU[ ] == 4" "^STG == 4" "^LDS R[0-9]+, == 4"
        "ATOMG\\.E\\.ADD == 1" "!LDL|STL"
  INSIDE_LOOP "STG\\.E\\.128" LABELS cache)
# Shared memory: between the two clock reads, the round loop holds the 8 accesses.
set(_clock "CS2R.*SR_CLOCKLO")
foreach(probe IN ITEMS "smem_ld4;LDS R[0-9]+, \\[R[0-9]+\\]" "smem_ld8;LDS\\.64 " "smem_ld16;LDS\\.128 "
                       "smem_st4;STS \\[R[0-9]+\\]" "smem_st16;STS\\.128 ")
  list(GET probe 0 fn)
  list(GET probe 1 inst)
  cuprobe_add_sass_test(cache_${fn} SOURCE ${_cache_bw} OPTIONS -DNDEBUG FUNCTION "^${fn}$"
    BETWEEN "${_clock}" "${_clock}" CHECK "${inst} == 8" "!LDG|STG|LDL|STL" LABELS cache)
  cuprobe_add_sass_test(cache_${fn}_loop SOURCE ${_cache_bw} OPTIONS -DNDEBUG FUNCTION "^${fn}$"
    INSIDE_LOOP "${inst}" LABELS cache)
endforeach()
