# hopper_async area: ptx/mbarrier.cuh, ptx/bulk.cuh, ptx/cluster.cuh, ptx/elect.cuh,
# ptx/setmaxnreg.cuh, the proxy fences of ptx/fence.cuh, hopper/cluster.cuh, hopper/smem.cuh.
# Host tests (pipeline::state, alignment, launch checks), compile-fail tests, gpu tests (on an
# sm_90a GPU; bounded waits, death tests in a child process) and sass tests (sm_90a).
cuprobe_host_test(hopper_async)
cuprobe_gpu_test(hopper_async)          # mbarrier phases, rings, bulk copies, elect, setmaxnreg
cuprobe_gpu_test(hopper_async_cluster)  # clusters of 2..16 CTAs: DSM, multicast, peer copies
cuprobe_gpu_test(hopper_async_death)    # the debug traps, each in a child process
foreach(t IN ITEMS gpu.gpu_hopper_async gpu.gpu_hopper_async_cluster gpu.gpu_hopper_async_death)
  set_tests_properties(${t} PROPERTIES TIMEOUT 600 LABELS "gpu;hopper_async")
endforeach()
set_tests_properties(host.hopper_async PROPERTIES LABELS "host;hopper_async")

# ---- What must not compile, and the sentence that says why (nvcc at test time). ----
set(_ha_fail_src "${CMAKE_CURRENT_SOURCE_DIR}/host/hopper_async_compile_fail.cu")
foreach(case IN ITEMS
    "1;80;cuprobe::ptx::bulk::load needs sm_90 or newer"
    "2;90;cuprobe::ptx::bulk::load_multicast needs sm_90a"
    "3;90;cuprobe::ptx::bulk::tensor_load_multicast needs sm_90a"
    "4;80;cuprobe::ptx::setmaxnreg_inc needs sm_90a"
    "5;90;cuprobe::ptx::setmaxnreg_dec needs sm_90a"
    "6;90a;wait_group<N>: N must be in 0..63"
    "7;90a;wait_group_read<N>: N must be in 0..63"
    "8;90a;setmaxnreg_inc<N>: N must be a multiple of 8 in 24..256"
    "9;90a;setmaxnreg_dec<N>: N must be a multiple of 8 in 24..256"
    "10;90a;setmaxnreg_inc<N>: N must be a multiple of 8 in 24..256"
    "11;80;cuprobe::ptx::elect_sync needs sm_90 or newer"
    "12;80;cuprobe::ptx::mbarrier::try_wait needs sm_90 or newer"
    "13;75;cuprobe::ptx::mbarrier::init needs sm_80 or newer"
    "14;80;cuprobe::ptx::cluster::ctarank\\(\\) needs sm_90 or newer"
    "15;90a;tensor_load: give 1 to 5 integer coordinates"
    "16;90a;Scope must be scope::cta or scope::cluster"
    "17;80;fence_proxy_async<Space>\\(\\) needs sm_90 or newer"
    "18;80;cuprobe::ptx::bulk::wait_group needs sm_90 or newer"
    "19;90a;Stages must be at least 1"
    "20;90a;align_up<Align>: Align must be a power of two"
    "21;90a;Align must be at least alignof\\(T\\)"
    "22;80;cuprobe::ptx::bulk::load_multicast needs sm_90a"
    "23;90a;\"cuprobe::ptx::mbarrier::wait\" matches the argument list.*argument types are: \\(uint64_t \\*"
    "24;90a;\"cuprobe::ptx::bulk::load\" matches the argument list.*unsigned int, cuprobe::ptx::mbarrier::object \\*\\)"
    "25;90a;fence_proxy_async<Space>: Space must be space::shared, space::cluster, space::global")
  list(GET case 0 n)
  list(GET case 1 arch)
  list(GET case 2 sentence)
  cuprobe_compile_fail_test(host.hopper_async_compile_fail_${n} "${_ha_fail_src}" ${arch} "${sentence}"
                            -DCUPROBE_CASE=${n})
  set_tests_properties(host.hopper_async_compile_fail_${n} PROPERTIES LABELS "host;hopper_async")
endforeach()
# A target built for the toolkit's default architecture is told where to set it.
cuprobe_compile_fail_test(host.arch_guard_names_cuda_architectures "${_ha_fail_src}" 75
  "mbarrier::init needs sm_80 or newer; .*CMake's CUDA_ARCHITECTURES 90a" -DCUPROBE_CASE=13)
cuprobe_compile_fail_test(host.arch_guard_sm90a_names_cuda_architectures "${_ha_fail_src}" 90
  "setmaxnreg_dec needs sm_90a.*CMake's CUDA_ARCHITECTURES 90a" -DCUPROBE_CASE=5)
# The probe file itself compiles when no case is selected, for every target: the wrappers only
# fail when instantiated (merely including the headers is fine).
foreach(arch IN ITEMS 75 80 90 90a)
  cuprobe_compile_ok_test(host.hopper_async_compile_ok_sm${arch} "${_ha_fail_src}" ${arch} 17
                          -DCUPROBE_CASE=0)
  set_tests_properties(host.hopper_async_compile_ok_sm${arch} PROPERTIES LABELS "host;hopper_async")
endforeach()

# ---- SASS (sm_90a): the instruction each wrapper becomes. ----
# Release probes are compiled with -DNDEBUG (no device checks); the debug ones with
# -DCUPROBE_DEBUG (checks on). Each probe_<name> kernel holds one wrapper.
set(_ha_sass "${CMAKE_CURRENT_SOURCE_DIR}/sass")
set(_ha_mbar "${_ha_sass}/hopper_async_mbarrier.cu")
set(_ha_bulk "${_ha_sass}/hopper_async_bulk.cu")
set(_ha_misc "${_ha_sass}/hopper_async_misc.cu")
# _ha_probe(<source> <probe> <CHECK...>): release build, kernel probe_<probe>, no local memory.
function(_ha_probe src probe)
  cuprobe_add_sass_test(hopper_async_${probe} SOURCE ${src} OPTIONS -DNDEBUG
    FUNCTION "^probe_${probe}$" CHECK ${ARGN} "!LDL|STL" LABELS hopper_async)
endfunction()

# mbarrier (what ptxas makes of each form on sm_90a):
#   init -> SYNCS.EXCH.64 (a plain exchange of the initial word); inval -> SYNCS.CCTL.IV
#   arrive -> SYNCS.ARRIVE.TRANS64.A1T0 (1 arrival, 0 tx); with a count -> .ART0 (count from a
#   register); arrive.expect_tx -> SYNCS.ARRIVE.TRANS64 with the tx register; expect_tx alone ->
#   .RED.A0TR (0 arrivals); release.cluster adds MEMBAR.ALL.GPU (+ ERRBAR, CGAERRBAR) before it;
#   the remote arrive is .RED.A1T0 on a mapped address; fence.mbarrier_init -> a NOP on sm_90a.
#   try_wait -> SYNCS.PHASECHK.TRANS64.TRYWAIT (acquire.cluster adds CCTL.IVALL); the hint ->
#   NANOSLEEP.SYNCS; test_wait -> SYNCS.PHASECHK.TRANS64 without .TRYWAIT.
_ha_probe(${_ha_mbar} mbar_init "^SYNCS\\.EXCH\\.64 == 1")
_ha_probe(${_ha_mbar} mbar_inval "^SYNCS\\.CCTL\\.IV == 1")
_ha_probe(${_ha_mbar} mbar_arrive_cta "^SYNCS\\.ARRIVE\\.TRANS64\\.A1T0 RZ == 1" "!MEMBAR")
_ha_probe(${_ha_mbar} mbar_arrive_token "^SYNCS\\.ARRIVE\\.TRANS64\\.A1T0 R[0-9]+, == 1")
_ha_probe(${_ha_mbar} mbar_arrive_cluster "^SYNCS\\.ARRIVE\\.TRANS64\\.A1T0 == 1"
          "^MEMBAR\\.ALL\\.GPU == 1")
_ha_probe(${_ha_mbar} mbar_arrive_count "^SYNCS\\.ARRIVE\\.TRANS64\\.ART0 == 1")
_ha_probe(${_ha_mbar} mbar_arrive_expect_tx "^SYNCS\\.ARRIVE\\.TRANS64 RZ, .*, R[0-9]+$ == 1")
_ha_probe(${_ha_mbar} mbar_expect_tx "^SYNCS\\.ARRIVE\\.TRANS64\\.RED\\.A0TR == 1")
_ha_probe(${_ha_mbar} mbar_arrive_remote "^SYNCS\\.ARRIVE\\.TRANS64\\.RED\\.A1T0 == 1"
          "^MEMBAR\\.ALL\\.GPU == 1" "^PRMT")
_ha_probe(${_ha_mbar} mbar_try_wait "^SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT == 1" "!CCTL")
_ha_probe(${_ha_mbar} mbar_try_wait_cluster "^SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT == 1"
          "CCTL\\.IVALL == 1")
_ha_probe(${_ha_mbar} mbar_try_wait_hint "^SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT == 1"
          "NANOSLEEP\\.SYNCS == 1")
_ha_probe(${_ha_mbar} mbar_test_wait "^SYNCS\\.PHASECHK\\.TRANS64 P" "!TRYWAIT")
cuprobe_add_sass_test(hopper_async_mbar_fence_init SOURCE ${_ha_mbar} OPTIONS -DNDEBUG
  FUNCTION "^probe_mbar_fence_init$" CHECK "STG == 2" "!MEMBAR|FENCE|CCTL" SEQUENCE "^NOP$" "^EXIT$"
  LABELS hopper_async)
# The release wait is a bare try_wait loop (ptxas peels the first try: 2 TRYWAITs): no timer,
# no printf, no trap.
cuprobe_add_sass_test(hopper_async_mbar_wait_release SOURCE ${_ha_mbar} OPTIONS -DNDEBUG
  FUNCTION "^probe_mbar_wait$" CHECK "^SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT == 2" "^@!P[0-9] BRA"
  "!GLOBALTIMER|BPT|CALL" "!LDL|STL" LABELS hopper_async)
# The debug wait is bounded by %globaltimer (0x77359401: more than 2e9 ns waited, the default
# CUPROBE_MBARRIER_TIMEOUT_NS) and traps after printing.
cuprobe_add_sass_test(hopper_async_mbar_wait_debug SOURCE ${_ha_mbar} OPTIONS -DNDEBUG -DCUPROBE_DEBUG
  FUNCTION "^probe_mbar_wait$" CHECK "SR_GLOBALTIMER >= 2" "ISETP.*0x77359401" "BPT\\.TRAP >= 1"
  "CALL" "SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT >= 2" LABELS hopper_async)
# Release builds of every mbarrier probe carry no checks at all.
cuprobe_add_sass_test(hopper_async_mbar_release_has_no_checks SOURCE ${_ha_mbar} OPTIONS -DNDEBUG
  FUNCTION "^probe_mbar_" CHECK "!BPT|CALL|GLOBALTIMER|ATOMS" LABELS hopper_async)
cuprobe_add_sass_test(hopper_async_mbar_debug_shadow SOURCE ${_ha_mbar} OPTIONS -DNDEBUG -DCUPROBE_DEBUG
  FUNCTION "^probe_mbar_arrive_expect_tx$" CHECK "ATOMS" "^SYNCS\\.ARRIVE\\.TRANS64 " LABELS hopper_async)

# bulk: UBLKCP.<dst>.<src> (S: shared, G: global), the load forms inside ptxas's ELECT loop,
# UBLKPF for the L2 prefetch, UTMACMDFLUSH for commit_group, DEPBAR.LE SB0, N for wait_group
# (followed by CCTL.IVALL unless .read), UTMALDG / UTMASTG / UTMAPF.L2 .<N>D for tensor copies,
# UTMACCTL.PF for prefetch.tensormap.
_ha_probe(${_ha_bulk} bulk_load "^UBLKCP\\.S\\.G[ ] == 1" "ELECT")
_ha_probe(${_ha_bulk} bulk_load_multicast "^UBLKCP\\.S\\.G\\.MULTICAST == 1")
_ha_probe(${_ha_bulk} bulk_store "^UBLKCP\\.G\\.S == 1")
_ha_probe(${_ha_bulk} bulk_copy_to_cluster "^UBLKCP\\.S\\.S == 1")
_ha_probe(${_ha_bulk} bulk_commit_group "^UTMACMDFLUSH == 1")
_ha_probe(${_ha_bulk} bulk_wait_group_0 "^DEPBAR\\.LE SB0, 0x0 == 1" "CCTL\\.IVALL == 1")
_ha_probe(${_ha_bulk} bulk_wait_group_5 "^DEPBAR\\.LE SB0, 0x5 == 1" "CCTL\\.IVALL == 1")
_ha_probe(${_ha_bulk} bulk_wait_group_63 "^DEPBAR\\.LE SB0, 0x3f == 1" "CCTL\\.IVALL == 1")
_ha_probe(${_ha_bulk} bulk_wait_group_read_3 "^DEPBAR\\.LE SB0, 0x3 == 1" "!CCTL")
_ha_probe(${_ha_bulk} bulk_prefetch_l2 "^UBLKPF\\.L2 == 1")
_ha_probe(${_ha_bulk} prefetch_tensormap "^UTMACCTL\\.PF == 1")
foreach(d 1 2 3 4 5)
  _ha_probe(${_ha_bulk} tensor_load_${d}d "^UTMALDG\\.${d}D[ ] == 1")
  _ha_probe(${_ha_bulk} tensor_load_multicast_${d}d "^UTMALDG\\.${d}D\\.MULTICAST == 1")
  _ha_probe(${_ha_bulk} tensor_store_${d}d "^UTMASTG\\.${d}D == 1")
  _ha_probe(${_ha_bulk} tensor_prefetch_l2_${d}d "^UTMAPF\\.L2\\.${d}D == 1")
endforeach()
cuprobe_add_sass_test(hopper_async_bulk_release_has_no_checks SOURCE ${_ha_bulk} OPTIONS -DNDEBUG
  FUNCTION "^probe_" CHECK "!BPT|CALL|ATOMS" LABELS hopper_async)
cuprobe_add_sass_test(hopper_async_bulk_debug_checks_trap SOURCE ${_ha_bulk}
  OPTIONS -DNDEBUG -DCUPROBE_DEBUG FUNCTION "^probe_bulk_load$"
  CHECK "BPT\\.TRAP >= 2" "CALL\\.ABS\\.NOINC >= 2" "^UBLKCP\\.S\\.G[ ] == 1" LABELS hopper_async)

# elect, setmaxnreg, clusters, proxy fences.
_ha_probe(${_ha_misc} elect_sync "^ELECT P[0-9], UR[0-9]+, PT == 1")
_ha_probe(${_ha_misc} elect_one_sync "^ELECT P[0-9], URZ, PT == 1")
# setmaxnreg: DEALLOC for .dec, a TRY_ALLOC retry loop for .inc, each after a WARPSYNC; and ptxas
# did not drop them ("'setmaxnreg' ignored; unable to determine register count at entry").
cuprobe_add_sass_test(hopper_async_setmaxnreg SOURCE ${_ha_misc} OPTIONS -DNDEBUG
  FUNCTION "^probe_setmaxnreg$"
  CHECK "^USETMAXREG\\.DEALLOC\\.CTAPOOL 0x28 == 1" "^USETMAXREG\\.TRY_ALLOC\\.CTAPOOL UP0, 0xe8 == 1"
        "WARPSYNC\\.ALL == 2" "!LDL|STL"
  INSIDE_LOOP "USETMAXREG\\.TRY_ALLOC"
  FORBID_PTXAS_WARNING "setmaxnreg.*ignored" LABELS hopper_async)
# Cluster registers: %cluster_ctarank is SR_CgaCtaId; %cluster_nctarank and %is_explicit_cluster
# come from the constant bank; the cluster barrier is UCGABAR_ARV / UCGABAR_WAIT (plus, for
# implicit 1-CTA clusters, a BAR.SYNC branch); DSM loads and stores are generic LD/ST through the
# shared window (SR_SWINHI), mapa a PRMT of the rank into the address, isspacep a QSPC.
_ha_probe(${_ha_misc} cluster_sregs "S2R R[0-9]+, SR_CgaCtaId == 1" "SR_CTAID\\.X")
_ha_probe(${_ha_misc} cluster_map "^LD\\.E " "^PRMT .*0x654 >= 2" "^QSPC" "SR_SWINHI")
_ha_probe(${_ha_misc} cluster_ld_st "^ST\\.E " "^ST\\.E\\.64 " "^ST\\.E\\.128 " "^LD\\.E R"
          "^LD\\.E\\.64 " "^LD\\.E\\.128 " "SR_SWINHI" "!LDS|STS")
_ha_probe(${_ha_misc} cluster_barrier "^UCGABAR_ARV == 2" "^UCGABAR_WAIT == 2"
          "^MEMBAR\\.ALL\\.GPU == 1" "CCTL\\.IVALL == 2")
# Proxy fences between two stores (fence.proxy.async alone: tests/areas/ordering.cmake).
foreach(f IN ITEMS "shared_cta;MEMBAR\\.ALL\\.CTA;FENCE\\.VIEW\\.ASYNC\\.S"
                   "shared_cluster;MEMBAR\\.ALL\\.GPU;FENCE\\.VIEW\\.ASYNC\\.S"
                   "global;STG;FENCE\\.VIEW\\.ASYNC\\.G")
  list(GET f 0 space)
  list(GET f 1 first)
  list(GET f 2 fence)
  cuprobe_add_sass_test(hopper_async_fence_proxy_async_${space} SOURCE ${_ha_misc} OPTIONS -DNDEBUG
    FUNCTION "^probe_fence_proxy_async_${space}$" CHECK "STG == 2" "^${fence} == 1"
    SEQUENCE "${first}" "${fence}" LABELS hopper_async)
endforeach()
cuprobe_add_sass_test(hopper_async_fence_proxy_async_global_no_membar SOURCE ${_ha_misc}
  OPTIONS -DNDEBUG FUNCTION "^probe_fence_proxy_async_global$" CHECK "!MEMBAR"
  SEQUENCE "STG" "FENCE\\.VIEW\\.ASYNC\\.G" "STG" LABELS hopper_async)
cuprobe_add_sass_test(hopper_async_misc_release_has_no_checks SOURCE ${_ha_misc} OPTIONS -DNDEBUG
  FUNCTION "^probe_" CHECK "!BPT|CALL" LABELS hopper_async)
cuprobe_add_sass_test(hopper_async_cluster_debug_checks_trap SOURCE ${_ha_misc}
  OPTIONS -DNDEBUG -DCUPROBE_DEBUG FUNCTION "^probe_cluster_ld_st$" CHECK "BPT\\.TRAP >= 1"
  LABELS hopper_async)
# The negative control: a kernel without launch bounds loses its setmaxnreg, and the test says so.
cuprobe_add_sass_test(hopper_async_setmaxnreg_ignored
  SOURCE ${_ha_sass}/hopper_async_setmaxnreg_ignored.cu OPTIONS -DNDEBUG
  FUNCTION "^probe_setmaxnreg_no_bounds$" CHECK "USETMAXREG"
  FORBID_PTXAS_WARNING "setmaxnreg.*ignored" LABELS hopper_async EXPECT_FAILURE)
if(TEST sass.hopper_async_setmaxnreg_ignored)
  set_tests_properties(sass.hopper_async_setmaxnreg_ignored PROPERTIES PASS_REGULAR_EXPRESSION
    "cuprobe-sass: FAILED: .*setmaxnreg.*ignored")
endif()
