# tma area: gen/tma.cuh (TMA stream kernels, chase functors),
# cuprobe_suite/kernels/tma_multicast.cuh (the cluster multicast stream), cuprobe_suite/tma.cuh and
# cuprobe_suite/tma_multicast.cuh (latency, stream bandwidth beside ld/st, multicast). Host tests (options, kernel choice, checksum, sizes),
# gpu tests (small runs on an sm_90 GPU, every output validated; the multicast kernel's debug trap
# in a child process) and sass tests (sm_90a).
cuprobe_host_test(tma)
cuprobe_gpu_test(tma)
set_tests_properties(host.tma PROPERTIES LABELS "host;tma")
set_tests_properties(gpu.gpu_tma PROPERTIES TIMEOUT 600 LABELS "gpu;tma")
cuprobe_gpu_test(tma_death)
set_tests_properties(gpu.gpu_tma_death PROPERTIES TIMEOUT 300 LABELS "gpu;tma")

# SASS (release): the load streams issue one copy of their kind (UBLKCP.S.G for cp.async.bulk,
# UTMALDG.2D for the tensor copy) and the consumers read with LDS.128 inside their loop; two
# kinds of waits (producer on "empty", consumers on "full"). The store streams issue one store
# (UBLKCP.G.S, UTMASTG.2D), commit it (UTMACMDFLUSH), bound the groups in flight at Stages - 1
# (DEPBAR.LE SB0, Stages - 1) and drain them at the end (SB0, 0x0), after the proxy fence that
# hands the generic writes of the buffers to the async proxy. No local memory anywhere. (The
# copies sit in the chunk loop, but ptxas lays that loop out around ptxas's own ELECT loop so
# that the checker's loop detection sees only the consumers' and the fill loop: counts of 1
# are the check that no copy was duplicated or hoisted.)
set(_tma_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/tma.cu")
set(_tma_load "tma_load_stream_kernelILNS0_8tma_copyE")
set(_tma_store "tma_store_stream_kernelILNS0_8tma_copyE")
cuprobe_add_sass_test(tma_load_bulk SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "${_tma_load}0ELi4EE"
  CHECK "^UBLKCP\\.S\\.G == 1" "!UTMALDG" "LDS\\.128 == 1" "SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT >= 2"
        "!LDL|STL"
  INSIDE_LOOP "LDS\\.128" LABELS tma)
cuprobe_add_sass_test(tma_load_tensor SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "${_tma_load}1ELi4EE"
  CHECK "^UTMALDG\\.2D == 1" "!UBLKCP" "LDS\\.128 == 1" "!LDL|STL" LABELS tma)
# The two bounds of the store variants: wait_group.read is DEPBAR.LE SB0, Stages - 1 alone;
# wait_group (writes complete and visible to the issuer) adds CCTL.IVALL, as the final drain does.
cuprobe_add_sass_test(tma_store_bulk SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "${_tma_store}0ELi4EE"
  CHECK "^UBLKCP\\.G\\.S == 2" "^UBLKCP\\.G\\.S .*desc\\[UR[0-9]+\\] == 1" "UTMACMDFLUSH == 1" "DEPBAR\\.LE SB0, 0x3 == 2"
        "CCTL\\.IVALL == 2" "DEPBAR\\.LE SB0, 0x0 == 1" "FENCE\\.VIEW\\.ASYNC\\.S == 1" "!LDL|STL"
  SEQUENCE "FENCE\\.VIEW\\.ASYNC\\.S" "UBLKCP\\.G\\.S" "DEPBAR\\.LE SB0, 0x3" "DEPBAR\\.LE SB0, 0x3" "CCTL\\.IVALL"
           "DEPBAR\\.LE SB0, 0x0" "CCTL\\.IVALL"
  LABELS tma)
# The copy stream: loads before the loop and in it (UBLKCP.S.G x2), one store (UBLKCP.G.S) after
# the wait on the stage and the proxy fence, its commit, the bound that frees the previous
# stage (DEPBAR.LE SB0, 0x1) before the next load, and the drain at the end.
cuprobe_add_sass_test(tma_copy_stream SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "tma_copy_stream_kernelILi4EE"
  CHECK "^UBLKCP\\.S\\.G == 2" "^UBLKCP\\.G\\.S == 1" "UTMACMDFLUSH == 1" "DEPBAR\\.LE SB0, 0x1 == 1"
        "DEPBAR\\.LE SB0, 0x0 == 1" "!LDL|STL"
  SEQUENCE "SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT" "FENCE\\.VIEW\\.ASYNC\\.S" "UBLKCP\\.G\\.S" "UTMACMDFLUSH"
           "DEPBAR\\.LE SB0, 0x1" "SYNCS\\.ARRIVE\\.TRANS64" "UBLKCP\\.S\\.G" "DEPBAR\\.LE SB0, 0x0"
  LABELS tma)
cuprobe_add_sass_test(tma_store_tensor SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "${_tma_store}1ELi8EE"
  CHECK "^UTMASTG\\.2D == 1" "DEPBAR\\.LE SB0, 0x7 == 2" "!LDL|STL" LABELS tma)
# The chase functors: between the two clock reads, one copy per hop (the loop unrolled 4 x)
# and its wait, and no global load of any kind.
set(_tma_clock "CS2R.*SR_CLOCKLO")
cuprobe_add_sass_test(tma_chase_bulk SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "chase_kernelINS0_15chase_bulk_loadILj16EEEE"
  BETWEEN "${_tma_clock}" "${_tma_clock}"
  CHECK "^UBLKCP\\.S\\.G >= 4" "SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT >= 4" "!^LDG|^STG|UTMALDG"
  LABELS tma)
cuprobe_add_sass_test(tma_chase_tensor SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "chase_kernelINS0_17chase_tensor_loadILj16EEEE"
  BETWEEN "${_tma_clock}" "${_tma_clock}"
  CHECK "^UTMALDG\\.2D >= 4" "SYNCS\\.PHASECHK\\.TRANS64\\.TRYWAIT >= 4" "!^LDG|^STG|UBLKCP"
  LABELS tma)

# The multicast stream (cuprobe_suite/kernels/tma_multicast.cuh), clusters of 4, 4 stages: one
# multicast copy (UBLKCP.S.G.MULTICAST) and no unicast one, the consumers' LDS.128, the relay warp's
# remote arrive in its two forms (mapa + arrive.release.cluster or .relaxed.cluster, chosen at run
# time: SYNCS.ARRIVE.TRANS64.RED twice) inside the first loop (per chunk, not hoisted), and exactly
# two MEMBAR.ALL.GPU: the relay's cluster-scope release (the relaxed form has none) and the
# final cluster barrier's (none per consumer thread: their arrivals are release.cta). Two cluster
# barriers: after the barrier inits (before any peer is touched) and at the end (teardown).
set(_tma_mcast "tma_multicast_stream_kernelILi")
cuprobe_add_sass_test(tma_multicast SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "${_tma_mcast}4ELi4ELb1EE"
  CHECK "^UBLKCP\\.S\\.G\\.MULTICAST == 1" "!^UBLKCP\\.S\\.G[ ]" "!UTMALDG" "LDS\\.128 == 1"
        "SYNCS\\.ARRIVE\\.TRANS64\\.RED == 2" "MEMBAR\\.ALL\\.GPU == 2" "UCGABAR_ARV == 2"
        "UCGABAR_WAIT == 2" "!LDL|STL"
  SEQUENCE "SYNCS\\.EXCH\\.64" "UCGABAR_ARV" "UCGABAR_WAIT" "SYNCS\\.ARRIVE\\.TRANS64\\.RED"
           "UBLKCP\\.S\\.G\\.MULTICAST" "LDS\\.128" "UCGABAR_ARV" "UCGABAR_WAIT"
  INSIDE_LOOP "SYNCS\\.ARRIVE\\.TRANS64\\.RED" LABELS tma)
# Its non-multicast twin: a unicast copy of the whole chunk, no remote arrive.
cuprobe_add_sass_test(tma_multicast_per_cta SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "${_tma_mcast}4ELi4ELb0EE"
  CHECK "^UBLKCP\\.S\\.G[ ] == 1" "!MULTICAST" "!SYNCS\\.ARRIVE\\.TRANS64\\.RED" "LDS\\.128 == 1"
        "UCGABAR_ARV == 2" "!LDL|STL" LABELS tma)
# Clusters of 1: the multicast instruction with a one-CTA mask, and no cluster machinery at all.
cuprobe_add_sass_test(tma_multicast_cluster1 SOURCE ${_tma_probe} OPTIONS -DNDEBUG
  FUNCTION "${_tma_mcast}2ELi1ELb1EE"
  CHECK "^UBLKCP\\.S\\.G\\.MULTICAST == 1" "!UCGABAR" "!SYNCS\\.ARRIVE\\.TRANS64\\.RED"
        "!MEMBAR\\.ALL\\.GPU" "!LDL|STL" LABELS tma)
# Debug build: the same copy, the kernel's own checks and the bounded waits (%globaltimer) trap.
cuprobe_add_sass_test(tma_multicast_debug SOURCE ${_tma_probe} CONFIG Debug
  FUNCTION "${_tma_mcast}4ELi4ELb1EE"
  CHECK "^UBLKCP\\.S\\.G\\.MULTICAST == 1" "BPT\\.TRAP >= 4" "SR_GLOBALTIMERLO >= 2" LABELS tma)
