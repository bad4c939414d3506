# system_memory area: host memory and the copy engines (core/host_buffer.cuh, measure/bus.cuh,
# cuprobe_suite/kernels/host_memory.cuh, the host-mapped placement of gen/chase.cuh,
# cuprobe_suite/system_memory.cuh, cuprobe_suite/copy_engine.cuh, the above_bus_rate flag). Host
# tests (options refused with a sentence, the nominal-rate formula, the link from NVML readings, pageable
# buffers and size refusals without a GPU, the flag), a gpu test (the .cv visibility test passes on
# mapped host memory; .cv and .cg agree on device memory; copies validate; zero-copy reads stay
# within the bus; a host-mapped chase ends where a host walk does) and sass tests (sm_90a).
cuprobe_host_test(system_memory)
cuprobe_gpu_test(system_memory)
set_tests_properties(host.system_memory PROPERTIES LABELS "host;system_memory")
set_tests_properties(gpu.gpu_system_memory PROPERTIES TIMEOUT 600 LABELS "gpu;system_memory")

set(_sys_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/system_memory.cu")
# ld.global.cv is LDG.E.STRONG.SYS on sm_90a (a system-scope load: the L2 cannot answer it from a
# line it holds for host memory); .cg is LDG.E.STRONG.GPU, a plain load LDG.E. The visibility
# kernel: exactly two loads (the first read, then the re-read), the ready signal between them
# (STG.E.STRONG.SYS, st.global.wt, then MEMBAR.SC.SYS: fence.sc.sys), a branch after the
# re-read, the done signal last. That the re-read repeats every poll (ptxas did not hoist it) is
# what the GPU test shows: .cv sees a change made after the first read.
foreach(probe IN ITEMS "cv;2cv;LDG\\.E\\.STRONG\\.SYS" "cg;2cg;LDG\\.E\\.STRONG\\.GPU"
                       "plain;4none;LDG\\.E ")
  list(GET probe 0 name)
  list(GET probe 1 tag)
  list(GET probe 2 load)
  cuprobe_add_sass_test(system_memory_visibility_${name} SOURCE ${_sys_probe}
    FUNCTION "visibility_kernelINS_3ptx5cache${tag}E"
    CHECK "^${load} == 2" "^LDG == 2" "^STG\\.E\\.STRONG\\.SYS == 2" "^MEMBAR\\.SC\\.SYS == 2"
          "!LDL|STL"
    SEQUENCE "^${load}" "^STG\\.E\\.STRONG\\.SYS" "^MEMBAR\\.SC\\.SYS" "^${load}" "BRA"
             "^MEMBAR\\.SC\\.SYS" "^STG\\.E\\.STRONG\\.SYS"
    LABELS system_memory)
endforeach()
# The host-memory chase with .cv: a chain of LDG.E.64.STRONG.SYS between the clock reads.
cuprobe_add_sass_test(system_memory_chase_cv SOURCE ${_sys_probe}
  FUNCTION "chase_kernelINS0_10chase_loadINS_3ptx5cache2cvE"
  BETWEEN "CS2R.*SR_CLOCKLO" "CS2R.*SR_CLOCKLO"
  CHECK "LDG\\.E\\.64\\.STRONG\\.SYS R[0-9]+, desc >= 4" "!LDG\\.E\\.64 R" "!STG|STS|LDS|MEMBAR|BAR"
  LABELS system_memory)
# Zero-copy: 4 x 16 B .cv loads in flight in the loop (and the remainder's), .wt and .wb stores.
cuprobe_add_sass_test(system_memory_zero_copy_read_cv SOURCE ${_sys_probe}
  FUNCTION "zero_copy_read_cv"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.SYS[ ] == 5" "^LDG == 5" "^STG\\.E[ ] == 1" "!LDL|STL"
  LABELS system_memory)
cuprobe_add_sass_test(system_memory_zero_copy_write_wt SOURCE ${_sys_probe}
  FUNCTION "zero_copy_write_wt"
  CHECK "^STG\\.E\\.128\\.STRONG\\.SYS[ ] == 5" "!LDG" "!LDL|STL" LABELS system_memory)
cuprobe_add_sass_test(system_memory_zero_copy_write_wb SOURCE ${_sys_probe}
  FUNCTION "zero_copy_write_wb"
  CHECK "^STG\\.E\\.128\\.STRONG\\.SM[ ] == 5" "!LDG" "!LDL|STL" LABELS system_memory)
