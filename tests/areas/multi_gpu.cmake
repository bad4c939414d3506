# multi_gpu area: several GPUs of one node (core/device_buffer.cuh's on_device and
# scoped_device, multi/peer.cuh, multi/peer_transfer.cuh, measure/nvlink.cuh, the NVLink readings
# of measure/nvml.cuh, query_node() of measure/nvlink.cuh, report/node.cuh,
# cuprobe_suite/peer.cuh, cuprobe_suite/collectives.cuh, collectives_nccl.cuh and rank_threads.cuh). Host tests (the
# refusal sentences, the NVLink state from NVML's readings, nccl-tests' bus factors, shapes and
# sizes, every option refused with a sentence), a gpu test of what one GPU shows (buffers on
# device 0, peer access refused for the same device, every transfer within device 0 checked,
# the diagonal of the experiments, NCCL with one rank where CMake found NCCL), a gpu test that
# needs two GPUs (skipped, exit code 77, with fewer) and sass tests (sm_90a) of the peer kernels.
cuprobe_host_test(multi_gpu)
set_tests_properties(host.multi_gpu PROPERTIES LABELS "host;multi_gpu")
cuprobe_gpu_test(multi_gpu)
cuprobe_gpu_test(multi_gpu_pairs)
set_tests_properties(gpu.gpu_multi_gpu PROPERTIES TIMEOUT 600 LABELS "gpu;multi_gpu")
set_tests_properties(gpu.gpu_multi_gpu_pairs PROPERTIES TIMEOUT 900 LABELS "gpu;multi_gpu")
if(NOT CUPROBE_PTX_ONLY)
  # Fewer than two GPUs is a skip even where a missing GPU fails (CUPROBE_REQUIRE_GPU): the
  # one-GPU test above fails when there is no GPU at all.
  set_tests_properties(gpu.gpu_multi_gpu_pairs PROPERTIES SKIP_RETURN_CODE 77)
  if(TARGET cuprobe::nccl)
    target_link_libraries(gpu_multi_gpu PRIVATE cuprobe::nccl)
    target_link_libraries(gpu_multi_gpu_pairs PRIVATE cuprobe::nccl)
  endif()
endif()

# SASS: 16-byte loads of the other GPU's memory with the intended operator (.cg: LDG.E.128.
# STRONG.GPU, .cv: LDG.E.128.STRONG.SYS), four in flight in the loop and one in the remainder,
# and the one sink store; stores .cg (STG.E.128.STRONG.GPU) and .wt (STG.E.128.STRONG.SYS); the
# pull copy loads .cg and stores .cg; no local memory anywhere.
set(_multi_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/multi_gpu.cu")
cuprobe_add_sass_test(multi_gpu_peer_read_cg SOURCE ${_multi_probe}
  FUNCTION "peer_read_kernelINS_3ptx5cache2cgE"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.GPU[ ] == 5" "^LDG == 5" "^STG\\.E[ ] == 1" "!LDL|STL"
  LABELS multi_gpu)
cuprobe_add_sass_test(multi_gpu_peer_read_cv SOURCE ${_multi_probe}
  FUNCTION "peer_read_kernelINS_3ptx5cache2cvE"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.SYS[ ] == 5" "^LDG == 5" "^STG\\.E[ ] == 1" "!LDL|STL"
  LABELS multi_gpu)
cuprobe_add_sass_test(multi_gpu_peer_write_cg SOURCE ${_multi_probe}
  FUNCTION "peer_write_kernelINS_3ptx5cache2cgE"
  CHECK "^STG\\.E\\.128\\.STRONG\\.GPU[ ] == 5" "^STG == 5" "!LDG" "!LDL|STL" LABELS multi_gpu)
cuprobe_add_sass_test(multi_gpu_peer_write_wt SOURCE ${_multi_probe}
  FUNCTION "peer_write_kernelINS_3ptx5cache2wtE"
  CHECK "^STG\\.E\\.128\\.STRONG\\.SYS[ ] == 5" "^STG == 5" "!LDG" "!LDL|STL" LABELS multi_gpu)
cuprobe_add_sass_test(multi_gpu_peer_copy_cg SOURCE ${_multi_probe}
  FUNCTION "peer_copy_kernelINS_3ptx5cache2cgE"
  CHECK "^LDG\\.E\\.128\\.STRONG\\.GPU[ ] == 5" "^STG\\.E\\.128\\.STRONG\\.GPU[ ] == 5"
        "^LDG == 5" "^STG == 5" "!LDL|STL" LABELS multi_gpu)

# The examples refuse bad input with one sentence before any CUDA call (tests/areas/examples.cmake
# has the common refusals; these are peer_memory's and collectives' own).
if(COMMAND cuprobe_example_refusal)
  foreach(e IN ITEMS peer_memory collectives)
    cuprobe_example_command(${e} _cmd)
    if(NOT _cmd)
      continue()  # collectives: built only with NCCL
    endif()
    cuprobe_example_refusal(${e} unknown_option "unknown option '--bogus'" --bogus)
    cuprobe_example_refusal(${e} unwritable_json "--json.*/no/such/dir/r.json"
                            --json /no/such/dir/r.json)
    cuprobe_example_refusal(${e} summary_unwritable "--summary.*/no/such/dir/s.json"
                            --summary /no/such/dir/s.json)
    add_test(NAME host.example_${e}_help COMMAND ${_cmd} --help)
    set_tests_properties(host.example_${e}_help PROPERTIES LABELS "host;multi_gpu" TIMEOUT 60
                         PASS_REGULAR_EXPRESSION "--json")
  endforeach()
  cuprobe_example_refusal(peer_memory only_unknown
                          "--only takes matrix, latency, sweep or all, got 'bogus'" --only bogus)
  cuprobe_example_refusal(peer_memory mib_range "--mib is 0, outside its range" --mib 0)
  if(TARGET cuprobe::nccl)
    cuprobe_example_refusal(collectives ops_unknown
                            "collectives: --ops: unknown collective 'allreduce'" --ops allreduce)
  endif()
endif()
