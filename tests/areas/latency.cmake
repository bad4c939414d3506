# latency area: pointer chase (gen/chase.cuh), the suite's plateau detector
# (cuprobe_suite/plateau.cuh), Little's law (model/littles_law.cuh). Host, gpu and sass tests.
cuprobe_host_test(latency_model)
cuprobe_gpu_test(latency_chase)

# SASS: one probe (tests/sass/latency_chase.cu, one cubin) holds the three chase kernels. In
# each, the instructions between the two %clock64 reads (CS2R ... SR_CLOCKLO) are the timed
# chase: the intended load (unrolled, at least 4 per loop body) and nothing that touches memory
# otherwise; no local memory anywhere. That each load's address is the previous load's result
# is checked on the GPU instead (the chase must end on the node a host walk reaches).
set(_latency_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/latency_chase.cu")
set(_latency_clock "CS2R.*SR_CLOCKLO")
cuprobe_add_sass_test(latency_chase_ld_global SOURCE ${_latency_probe}
  FUNCTION "chase_kernelINS0_10chase_loadINS_3ptx5cache4noneE"
  BETWEEN "${_latency_clock}" "${_latency_clock}"
  CHECK "LDG\\.E\\.64 R[0-9]+, desc >= 4" "!LDG\\.E\\.64\\.STRONG" "!STG|STS|LDS|ATOM|RED|MEMBAR|BAR")
cuprobe_add_sass_test(latency_chase_ld_global_cg SOURCE ${_latency_probe}
  FUNCTION "chase_kernelINS0_10chase_loadINS_3ptx5cache2cgE"
  BETWEEN "${_latency_clock}" "${_latency_clock}"
  CHECK "LDG\\.E\\.64\\.STRONG\\.GPU R[0-9]+, desc >= 4" "!LDG\\.E\\.64 R" "!STG|STS|LDS|MEMBAR|BAR")
cuprobe_add_sass_test(latency_chase_ld_shared SOURCE ${_latency_probe}
  FUNCTION "shared_chase_kernel"
  BETWEEN "${_latency_clock}" "${_latency_clock}"
  CHECK "LDS R[0-9]+, \\[R[0-9]+\\] >= 4" "!LDG|STG|STS|MEMBAR|BAR")
# "chase_kernel" matches the three chase kernels (shared_chase_kernel too): two reads each.
cuprobe_add_sass_test(latency_chase_two_clock_reads SOURCE ${_latency_probe}
  FUNCTION "chase_kernel"
  CHECK "${_latency_clock} == 6" "!LDL|STL")
