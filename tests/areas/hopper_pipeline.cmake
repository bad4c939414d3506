# hopper_pipeline area: pipeline/ring.cuh, pipeline/roles.cuh,
# hopper/tile_scheduler.cuh, hopper/epilogue.cuh, ptx/barrier.cuh, ptx/matrix.cuh, the relaxed
# remote arrive of ptx/mbarrier.cuh, and
# examples/gemm (the GEMM built from them). Host tests (scheduler, stmatrix address map), sass
# tests (each wrapper's instruction; the GEMM kernel's HGMMA, TMA and STSM, no spills), gpu
# tests (epilogue placement, a multi-stage ring with and without multicast, gemm --small).
cuprobe_host_test(hopper_pipeline)
set_tests_properties(host.hopper_pipeline PROPERTIES LABELS "host;hopper_pipeline")
# cuprobe_suite/gemm_report.cuh's row description (it includes cuprobe_suite/gemm.cuh: cuBLASLt)
cuprobe_host_test(gemm_report LINK CUDA::cublasLt)
set_tests_properties(host.gemm_report PROPERTIES LABELS "host;hopper_pipeline")
cuprobe_gpu_test(hopper_pipeline)
set_tests_properties(gpu.gpu_hopper_pipeline PROPERTIES TIMEOUT 300 LABELS "gpu;hopper_pipeline")

set(_hp_src "${CMAKE_CURRENT_SOURCE_DIR}/sass/hopper_pipeline.cu")
function(_hp_probe probe)
  cuprobe_add_sass_test(hopper_pipeline_${probe} SOURCE ${_hp_src} OPTIONS -DNDEBUG
    FUNCTION "^probe_${probe}$" CHECK ${ARGN} "!LDL|STL" LABELS hopper_pipeline)
endfunction()
# named barriers: BAR.SYNC.DEFER_BLOCKING / BAR.ARV with the id and count in registers (an
# immediate count when it is a constant).
_hp_probe(named_barrier_sync "^BAR\\.SYNC\\.DEFER_BLOCKING R[0-9]+, R[0-9]+ == 1")
_hp_probe(named_barrier_arrive "^BAR\\.ARV R[0-9]+, 0x100 == 1")
# stmatrix / ldmatrix: STSM.16.M88.<n> (.MT88 transposed), LDSM likewise.
_hp_probe(stmatrix_x1 "^STSM\\.16\\.M88 .R == 1")
_hp_probe(stmatrix_x2 "^STSM\\.16\\.M88\\.2 == 1")
_hp_probe(stmatrix_x4 "^STSM\\.16\\.M88\\.4 == 1")
_hp_probe(stmatrix_x4_trans "^STSM\\.16\\.MT88\\.4 == 1")
_hp_probe(ldmatrix_x4 "^LDSM\\.16\\.M88\\.4 == 1")
_hp_probe(ldmatrix_x2_trans "^LDSM\\.16\\.MT88\\.2 == 1")
# The relaxed remote arrive: one SYNCS.ARRIVE on a mapped address and no MEMBAR (the release
# form has MEMBAR.ALL.GPU, tests/areas/hopper_async.cmake).
_hp_probe(arrive_remote_relaxed "^SYNCS\\.ARRIVE\\.TRANS64\\.RED\\.A1T0 == 1" "!MEMBAR")
# The pipeline's release for clusters of 2: two relaxed remote arrivals, no fence.
_hp_probe(pipeline_release_cluster "^SYNCS\\.ARRIVE\\.TRANS64\\.RED\\.A1T0 == 2" "!MEMBAR")
# The epilogue of a 64 x 256 accumulator: 16 STSM.x4, 4 tensor stores, 8 named barriers.
_hp_probe(epilogue_256 "^STSM\\.16\\.M88\\.4 == 16" "^UTMASTG\\.2D == 4" "^BAR\\.SYNC == 8")
# N = 200: 12 STSM.x4 for the three full sub-tiles, one STSM.x2 for the last 8 columns, whose
# store joins the last sub-tile's (4 tensor stores, still 6 named barriers).
_hp_probe(epilogue_200 "^STSM\\.16\\.M88\\.4 == 12" "^STSM\\.16\\.M88\\.2 == 1" "^UTMASTG\\.2D == 4"
  "^BAR\\.SYNC == 6")
# The direct store of a 64 x 200 accumulator: 12 STG.E.128 (2 row halves x 6 quads of blocks, each
# after 4 SHFL.BFLY) and 2 four-byte STG.E for the last block, twice (the path of a tile inside
# the matrix and the one over its edge); no shared memory, no barrier.
_hp_probe(direct_store_200 "STG\\.E\\.128 == 24" "STG\\.E[ ] == 4" "^SHFL\\.BFLY == 96" "!STS|STSM"
  "!BAR")

if(CUPROBE_BUILD_EXAMPLES)
  # examples/gemm, as the build compiles it (TARGET): the full kernel (cluster 2, 4 stages) multiplies with HGMMA 64x256x16 from
  # both descriptors, multicasts B, stores through STSM + UTMASTG, keeps everything in registers,
  # and ptxas does not serialise the wgmma (the SASS tier fails on warning C7515 by itself).
  # Clusters of 4: the same, with B multicast to 4 CTAs (a release to each of them).
  foreach(_c 2 4)
    set(_gemm_k "^_Z11gemm_kernelILi4ELi${_c}ELi2ELN7cuprobe5suite12gemm_variantE0E8scheduleILi256ELb0EEE")
    cuprobe_add_sass_test(gemm_kernel_cluster${_c} TARGET gemm FUNCTION "${_gemm_k}"
      CHECK "^HGMMA\\.64x256x16\\.F32\\.BF16 == 4" "^UTMALDG\\.2D\\.MULTICAST == 1"
            "^UTMALDG\\.2D[ ] == 1" "^STSM\\.16\\.M88\\.4 == 16" "^UTMASTG\\.2D == 4" "!LDL|STL"
            "^MEMBAR\\.ALL\\.GPU <= 2" "^SYNCS\\.ARRIVE\\.TRANS64\\.RED\\.A1T0 >= ${_c}"
            "^UTMACCTL\\.PF == 5"
      LABELS hopper_pipeline)
  endforeach()
  # The ping-pong schedule (128 x 192 per consumer, clusters of 2): two m64 halves per K step,
  # 8 HGMMA.64x192x16 per K block, B multicast, two 64 x 192 epilogues (24 STSM, 6 stores).
  cuprobe_add_sass_test(gemm_kernel_pingpong TARGET gemm
    FUNCTION "^_Z11gemm_kernelILi4ELi2ELi2ELN7cuprobe5suite12gemm_variantE0E8scheduleILi192ELb1EEE"
    CHECK "^HGMMA\\.64x192x16\\.F32\\.BF16 == 8" "^UTMALDG\\.2D\\.MULTICAST == 1"
          "^STSM\\.16\\.M88\\.4 == 24" "^UTMASTG\\.2D == 6" "!LDL|STL"
    LABELS hopper_pipeline)
  # 128 x 200 per consumer: 8 HGMMA.64x200x16 per K block, B multicast in two slices of 104
  # rows, and per half three full sub-tiles plus the last 8 columns (24 STSM.x4, 2 STSM.x2,
  # 8 stores); 200 accumulator registers per consumer thread and still no spill.
  cuprobe_add_sass_test(gemm_kernel_pingpong_200 TARGET gemm
    FUNCTION "^_Z11gemm_kernelILi4ELi2ELi2ELN7cuprobe5suite12gemm_variantE0E8scheduleILi200ELb1EEE"
    CHECK "^HGMMA\\.64x200x16\\.F32\\.BF16 == 8" "^UTMALDG\\.2D\\.MULTICAST == 1"
          "^STSM\\.16\\.M88\\.4 == 24" "^STSM\\.16\\.M88\\.2 == 2" "^UTMASTG\\.2D == 8" "!LDL|STL"
          "^UTMACCTL\\.PF == 5"
    LABELS hopper_pipeline)
  # The same with direct stores from registers (5 stages, no epilogue buffer): two m64 halves,
  # each through both store paths (2 x 24 STG.E.128, 2 x 4 STG.E), no STSM, no tensor store,
  # still no spill.
  cuprobe_add_sass_test(gemm_kernel_pingpong_200_direct TARGET gemm
    FUNCTION "^_Z11gemm_kernelILi5ELi2ELi0ELN7cuprobe5suite12gemm_variantE0E8scheduleILi200ELb1EEE"
    CHECK "^HGMMA\\.64x200x16\\.F32\\.BF16 == 8" "STG\\.E\\.128 == 48" "STG\\.E[ ] == 8" "!STSM|UTMASTG"
          "!LDL|STL"
    LABELS hopper_pipeline)
  # gemm --small: 512 x 512 x 1024 on the GPU, every configuration checked against cuBLASLt and
  # fp64 samples (the example exits 1 on a wrong output); skipped, visibly, without a GPU.
  add_test(NAME gpu.example_gemm_small COMMAND gemm --small)
  set_tests_properties(gpu.example_gemm_small PROPERTIES LABELS "gpu;hopper_pipeline;example"
    RUN_SERIAL TRUE TIMEOUT 300 SKIP_REGULAR_EXPRESSION "no CUDA GPU is visible")
endif()
