# wgmma area: ptx/wgmma.cuh (warpgroup MMA, sm_90a) and its parts in ptx/detail/wgmma_*.cuh;
# the benchmark (cuprobe_suite/kernels/wgmma*.cuh, cuprobe_suite/wgmma*.cuh, examples/wgmma) at the
# end of the file.
# Host (descriptor, layouts, maps, sparse helper; illegal combinations), sass and gpu tests.
cuprobe_host_test(wgmma)
cuprobe_gpu_test(wgmma)
cuprobe_gpu_test(wgmma_sparse)

# The generated header is what tools/gen_wgmma.py writes.
if(Python3_EXECUTABLE)
  add_test(NAME host.wgmma_generated_header_current
           COMMAND "${Python3_EXECUTABLE}" "${PROJECT_SOURCE_DIR}/tools/gen_wgmma.py" --check)
  set_tests_properties(host.wgmma_generated_header_current PROPERTIES LABELS host)
endif()

# ---- Merely including the header compiles for every target, C++17 and C++20, warning-free. ----
set(_wgmma_fail_src "${CMAKE_CURRENT_SOURCE_DIR}/host/wgmma_compile_fail.cu")
foreach(arch 75 80 90a)
  foreach(std 17 20)
    cuprobe_compile_ok_test(host.wgmma_header_compiles_sm${arch}_cxx${std} "${_wgmma_fail_src}"
                            ${arch} ${std} -DCUPROBE_CASE=0)
  endforeach()
endforeach()

# ---- Illegal combinations do not compile, and say why (nvcc run at test time). ----
foreach(case IN ITEMS
    "1;90a;A in registers \\(RS\\) is always K-major"
    "2;90a;major::mn \\(imm-trans\\) exists only for 16-bit inputs"
    "3;90a;major::mn \\(imm-trans\\) exists only for 16-bit inputs"
    "4;90a;N must be 8 \\.\\. 256 in steps of 8"
    "5;90a;N must be 8 \\.\\. 256 in steps of 8"
    "6;90a;this accumulator type is not legal for these inputs"
    "7;90a;this accumulator type is not legal for these inputs"
    "8;90;wgmma needs sm_90a"
    "9;80;wgmma needs sm_90a"
    "10;90a;wait_group<N>: N must be 0\\.\\.7"
    "11;90a;the sparsity selector must be 0 or 1 for f16, bf16 and tf32"
    "12;90a;A and B must be f16 x f16, bf16 x bf16, tf32 x tf32, or two fp8 types"
    "13;90a;ScaleA and ScaleB \\(imm-scale-a/b\\) must be 1 or -1"
    "14;90a;D must be wgmma::f32 or wgmma::f16"
    "15;90a;the sparsity selector must be 0 or 1")
  list(GET case 0 n)
  list(GET case 1 arch)
  list(GET case 2 sentence)
  cuprobe_compile_fail_test(host.wgmma_compile_fail_${n} "${_wgmma_fail_src}" ${arch} "${sentence}"
                            -DCUPROBE_CASE=${n})
endforeach()

# ---- SASS: representative forms (tests/sass/wgmma_ops.cu). ----
# Every wgmma test also forbids ptxas's C7517/C7519 notes and serialisation (the defaults).
set(_wgmma_ops "${CMAKE_CURRENT_SOURCE_DIR}/sass/wgmma_ops.cu")
# _wgmma_probe(<probe> <instruction regex>): four K steps of exactly that instruction, in one
# group between one WARPGROUP.ARRIVE and one wait, the last one closing the group (gsb0), the
# first taking the run-time scale-d predicate, and no local memory.
function(_wgmma_probe probe inst)
  cuprobe_add_sass_test(wgmma_${probe} SOURCE ${_wgmma_ops} FUNCTION "^${probe}$"
    CHECK "${inst} == 4" "GMMA == 4" "^WARPGROUP\\.ARRIVE == 1"
          "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x0 == 1" "GMMA.*, gsb0 == 1" "${inst}.*UP0" "!LDL|STL"
          ${ARGN}
    SEQUENCE "^WARPGROUP\\.ARRIVE" "${inst}.*UP0" "${inst}" "${inst}" "${inst}.*gsb0"
             "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x0"
    LABELS wgmma)
endfunction()
set(_ss "R[0-9]+, gdesc\\[UR[0-9]+\\]")                 # A from shared memory: D, A-desc
set(_rs "R[0-9]+, R[0-9]+, gdesc\\[UR[0-9]+\\]")        # A in registers: D, A regs, B-desc
_wgmma_probe(probe_bf16_n256 "^HGMMA\\.64x256x16\\.F32\\.BF16 ${_ss}, R")
_wgmma_probe(probe_bf16_n8 "^HGMMA\\.64x8x16\\.F32\\.BF16 ${_ss}, R")
_wgmma_probe(probe_bf16_n256_rs "^HGMMA\\.64x256x16\\.F32\\.BF16 ${_rs}, R")
_wgmma_probe(probe_f16_f16acc_n128 "^HGMMA\\.64x128x16\\.F16 ${_ss}, R")
_wgmma_probe(probe_f16_f16acc_n256_rs "^HGMMA\\.64x256x16\\.F16 ${_rs}, R")
_wgmma_probe(probe_f16_n64_rs "^HGMMA\\.64x64x16\\.F32 ${_rs}, R")
_wgmma_probe(probe_bf16_nega_tnspab "^HGMMA\\.64x64x16\\.F32\\.BF16 ${_ss}\\.negA\\.tnspA\\.tnspB, R")
_wgmma_probe(probe_f16_negb_tnspb_rs "^HGMMA\\.64x64x16\\.F32 ${_rs}\\.negB\\.tnspB, R")
_wgmma_probe(probe_e4m3_negab "^QGMMA\\.64x64x32\\.F32\\.E4M3\\.E4M3 ${_ss}\\.negA\\.negB, R")
_wgmma_probe(probe_tf32_n256 "^HGMMA\\.64x256x8\\.F32\\.TF32 ${_ss}, R")
_wgmma_probe(probe_tf32_n32_rs "^HGMMA\\.64x32x8\\.F32\\.TF32 ${_rs}, R")
foreach(d F32 F16)
  foreach(a E4M3 E5M2)
    foreach(b E4M3 E5M2)
      string(TOLOWER "probe_${a}_${b}_${d}_n256" _p)
      _wgmma_probe(${_p} "^QGMMA\\.64x256x32\\.${d}\\.${a}\\.${b} ${_ss}, R")
    endforeach()
  endforeach()
endforeach()
_wgmma_probe(probe_e4m3_e5m2_f32_n64_rs "^QGMMA\\.64x64x32\\.F32\\.E4M3\\.E5M2 ${_rs}, R")
_wgmma_probe(probe_e5m2_e4m3_f16_n128_rs "^QGMMA\\.64x128x32\\.F16\\.E5M2\\.E4M3 ${_rs}, R")
# Sparse: .SP, K doubled, the metadata register last and (16-bit, tf32) the selector immediate.
set(_meta0 "^.GMMA\\.SP.*, R[0-9]+, 0x0(, gsb0)?$ == 4")
set(_meta1 "^.GMMA\\.SP.*, R[0-9]+, 0x1(, gsb0)?$ == 4")
set(_meta "^QGMMA\\.SP.*[0-9], R[0-9]+(, gsb0)?$ == 4")  # fp8: no selector shown
_wgmma_probe(probe_sp_bf16_n128 "^HGMMA\\.SP\\.64x128x32\\.F32\\.BF16 ${_ss}, R" "${_meta0}")
_wgmma_probe(probe_sp_bf16_n128_sel1 "^HGMMA\\.SP\\.64x128x32\\.F32\\.BF16 ${_ss}, R" "${_meta1}")
_wgmma_probe(probe_sp_f16_f16acc_n64_rs "^HGMMA\\.SP\\.64x64x32\\.F16 ${_rs}, R" "${_meta0}")
_wgmma_probe(probe_sp_f16_tnspb_n256 "^HGMMA\\.SP\\.64x256x32\\.F32 ${_ss}\\.tnspB, R" "${_meta0}")
_wgmma_probe(probe_sp_tf32_n64_sel1 "^HGMMA\\.SP\\.64x64x16\\.F32\\.TF32 ${_ss}, R" "${_meta1}")
_wgmma_probe(probe_sp_tf32_n16_rs "^HGMMA\\.SP\\.64x16x16\\.F32\\.TF32 ${_rs}, R" "${_meta0}")
_wgmma_probe(probe_sp_e4m3_e5m2_n256 "^QGMMA\\.SP\\.64x256x64\\.F32\\.E4M3\\.E5M2 ${_ss}, R" "${_meta}")
_wgmma_probe(probe_sp_e5m2_e4m3_f16_n256_rs "^QGMMA\\.SP\\.64x256x64\\.F16\\.E5M2\\.E4M3 ${_rs}, R"
             "${_meta}")
# wait_group<1> then <0>: two groups, two waits, in that order.
cuprobe_add_sass_test(wgmma_wait_group_1 SOURCE ${_wgmma_ops} FUNCTION "^probe_wait_group_1$"
  CHECK "^HGMMA\\.64x64x16\\.F32\\.BF16 .*gsb0 == 2" "^WARPGROUP\\.ARRIVE == 1" "!LDL|STL"
  SEQUENCE "^WARPGROUP\\.ARRIVE" "^HGMMA.*gsb0" "^HGMMA.*gsb0" "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x1"
           "STG" "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x0"
  LABELS wgmma)

# ---- SASS: every N of every generated asm form (tests/sass/wgmma_all_n.cu). ----
# FUNCTION picks the 32 kernels of one (type combination, form); each N = 8..256 shows once.
set(_wgmma_all_n "${CMAKE_CURRENT_SOURCE_DIR}/sass/wgmma_all_n.cu")
function(_wgmma_all_n name mangled form op k types operand)
  set(checks)
  foreach(n RANGE 8 256 8)
    list(APPEND checks "^${op}\\.64x${n}x${k}${types} ${operand} == 1")
  endforeach()
  cuprobe_add_sass_test(wgmma_all_n_${name} SOURCE ${_wgmma_all_n}
    FUNCTION "^_Z5all_nIN7cuprobe3ptx5wgmma${mangled}Li${form}ELi[0-9]+EEvPfmmPKj$"
    CHECK ${checks} "GMMA == 32" "!LDL|STL" LABELS wgmma)
endfunction()
set(_f16 "3f16ES3_S3_")            # <f16, f16, f16>
set(_bf16 "3f32ENS2_4bf16ES4_")     # <f32, bf16, bf16>
set(_fp8 "3f16ENS2_4e4m3ENS2_4e5m2E")  # <f16, e4m3, e5m2>
set(_tf32 "3f32ENS2_4tf32ES4_")     # <f32, tf32, tf32>
_wgmma_all_n(f16_ss ${_f16} 0 HGMMA 16 "\\.F16" "${_ss}")
_wgmma_all_n(f16_rs ${_f16} 1 HGMMA 16 "\\.F16" "${_rs}")
_wgmma_all_n(f16_sp_ss ${_f16} 2 "HGMMA\\.SP" 32 "\\.F16" "${_ss}")
_wgmma_all_n(f16_sp_rs ${_f16} 3 "HGMMA\\.SP" 32 "\\.F16" "${_rs}")
_wgmma_all_n(bf16_ss ${_bf16} 0 HGMMA 16 "\\.F32\\.BF16" "${_ss}")
_wgmma_all_n(bf16_rs ${_bf16} 1 HGMMA 16 "\\.F32\\.BF16" "${_rs}")
_wgmma_all_n(bf16_sp_ss ${_bf16} 2 "HGMMA\\.SP" 32 "\\.F32\\.BF16" "${_ss}")
_wgmma_all_n(bf16_sp_rs ${_bf16} 3 "HGMMA\\.SP" 32 "\\.F32\\.BF16" "${_rs}")
_wgmma_all_n(fp8_ss ${_fp8} 0 QGMMA 32 "\\.F16\\.E4M3\\.E5M2" "${_ss}")
_wgmma_all_n(fp8_rs ${_fp8} 1 QGMMA 32 "\\.F16\\.E4M3\\.E5M2" "${_rs}")
_wgmma_all_n(fp8_sp_ss ${_fp8} 2 "QGMMA\\.SP" 64 "\\.F16\\.E4M3\\.E5M2" "${_ss}")
_wgmma_all_n(fp8_sp_rs ${_fp8} 3 "QGMMA\\.SP" 64 "\\.F16\\.E4M3\\.E5M2" "${_rs}")
_wgmma_all_n(tf32_ss ${_tf32} 0 HGMMA 8 "\\.F32\\.TF32" "${_ss}")
_wgmma_all_n(tf32_rs ${_tf32} 1 HGMMA 8 "\\.F32\\.TF32" "${_rs}")
_wgmma_all_n(tf32_sp_ss ${_tf32} 2 "HGMMA\\.SP" 16 "\\.F32\\.TF32" "${_ss}")
_wgmma_all_n(tf32_sp_rs ${_tf32} 3 "HGMMA\\.SP" 16 "\\.F32\\.TF32" "${_rs}")

# ---- SASS tier self-tests of the compile-log check (tests/sass/wgmma_serialized.cu). ----
# Each broken kernel must FAIL for its own ptxas message; the clean kernel in the same cubin
# passes (the FUNCTION filter keeps the others' lines out); the opt-out and FORBID work.
set(_wgmma_ser "${CMAKE_CURRENT_SOURCE_DIR}/sass/wgmma_serialized.cu")
set(_forbidden "cuprobe-sass: FAILED: the compile printed a forbidden message")
foreach(probe IN ITEMS
    "serialized_touched_accumulator;serialized'\\): .*\\(C7511\\)"
    "serialized_rolled_loop;is injected'\\): .*\\(C7519\\)"
    "serialized_dynamic_index;is injected'\\): .*\\(C7517\\)")
  list(GET probe 0 fn)
  list(GET probe 1 why)
  cuprobe_add_sass_test(wgmma_selftest_${fn}_fails SOURCE ${_wgmma_ser} FUNCTION "^${fn}$"
    CHECK "HGMMA" LABELS wgmma EXPECT_FAILURE)
  if(TEST sass.wgmma_selftest_${fn}_fails)
    set_tests_properties(sass.wgmma_selftest_${fn}_fails PROPERTIES PASS_REGULAR_EXPRESSION
      "${_forbidden} \\('[^']*${why}")
  endif()
endforeach()
cuprobe_add_sass_test(wgmma_selftest_not_serialized SOURCE ${_wgmma_ser}
  FUNCTION "^not_serialized$" CHECK "^HGMMA\\.64x64x16\\.F32\\.BF16 == 2" LABELS wgmma)
cuprobe_add_sass_test(wgmma_selftest_allow_serialization SOURCE ${_wgmma_ser}
  FUNCTION "^serialized_touched_accumulator$" ALLOW_WGMMA_SERIALIZATION CHECK "HGMMA" LABELS wgmma)
cuprobe_add_sass_test(wgmma_selftest_forbid_fails SOURCE ${_wgmma_ser}
  FUNCTION "^serialized_touched_accumulator$" ALLOW_WGMMA_SERIALIZATION
  FORBID_PTXAS_WARNING "C7511" CHECK "HGMMA" LABELS wgmma EXPECT_FAILURE)
if(TEST sass.wgmma_selftest_forbid_fails)
  set_tests_properties(sass.wgmma_selftest_forbid_fails PROPERTIES PASS_REGULAR_EXPRESSION
    "${_forbidden} \\('C7511'\\)")
endif()
# CONFIG: Release (the default) compiles with -DNDEBUG, Debug without it (CUPROBE_PTX_CHECKS 1).
cuprobe_add_sass_test(wgmma_config_release_default SOURCE ${_wgmma_ops} FUNCTION "^probe_config$"
  CHECK "!BPT" "STG == 1" LABELS wgmma)
cuprobe_add_sass_test(wgmma_config_debug SOURCE ${_wgmma_ops} CONFIG Debug
  FUNCTION "^probe_config$" CHECK "BPT\\.TRAP" "STG == 1" LABELS wgmma)
# descriptor_at's device check: Release traps without a call (no printf: ptxas would serialise
# the function's wgmma); in a timed loop's shape the trap lies before the loop, the MMAs in it.
cuprobe_add_sass_test(wgmma_descriptor_at_release SOURCE ${_wgmma_ops}
  FUNCTION "^probe_descriptor_at$" CHECK "BPT\\.TRAP >= 1" "!CALL" "STG\\.E\\.64 == 1"
  LABELS wgmma)
cuprobe_add_sass_test(wgmma_descriptor_check_outside_loop SOURCE ${_wgmma_ops}
  FUNCTION "^probe_descriptor_loop$" CHECK "!CALL" "^HGMMA\\.64x64x16\\.F32\\.BF16 == 4"
  INSIDE_LOOP "^HGMMA" "!BPT\\.TRAP" LABELS wgmma)
cuprobe_add_sass_test(wgmma_descriptor_check_off SOURCE ${_wgmma_ops}
  OPTIONS -DCUPROBE_WGMMA_RELEASE_CHECKS=0 FUNCTION "^probe_descriptor_at$" CHECK "!BPT|CALL"
  LABELS wgmma)
cuprobe_add_sass_test(wgmma_descriptor_at_debug SOURCE ${_wgmma_ops} CONFIG Debug
  FUNCTION "^probe_descriptor_at$" CHECK "BPT\\.TRAP >= 1" "CALL" LABELS wgmma)
# The Debug variant of a probe emits exactly the same MMAs (the wrappers have no device checks).
cuprobe_add_sass_test(wgmma_debug_config_same_mmas SOURCE ${_wgmma_ops} CONFIG Debug
  FUNCTION "^probe_bf16_n256$" CHECK "^HGMMA\\.64x256x16\\.F32\\.BF16 == 4" "!LDL|STL"
  LABELS wgmma)

# ---- The WGMMA benchmark: cuprobe_suite/kernels/wgmma*.cuh, cuprobe_suite/wgmma*.cuh. ----
# Host: peak table, traits, loop trips, sizing, records, codecs, reference, refused options.
# GPU: throughput >= 80 % of peak at the in-kernel clock (timing), random operands against the
# fp64 reference, latency (tests/gpu/wgmma_bench.cu).
cuprobe_host_test(wgmma_bench)
cuprobe_gpu_test(wgmma_bench)
set_tests_properties(host.wgmma_bench PROPERTIES LABELS "host;wgmma")
set_tests_properties(gpu.gpu_wgmma_bench PROPERTIES TIMEOUT 600 LABELS "gpu;wgmma")
set(_wgmma_bench "${CMAKE_CURRENT_SOURCE_DIR}/sass/wgmma_bench.cu")
# Including the benchmark headers compiles for every target; instantiating the kernel for one
# without sm_90a features is a compile error with ptx/wgmma.cuh's sentence.
foreach(arch 75 80)
  cuprobe_compile_ok_test(host.wgmma_bench_header_compiles_sm${arch} "${_wgmma_bench}" ${arch} 17
                          -DCUPROBE_INCLUDE_ONLY "-I${PROJECT_SOURCE_DIR}/suite")
  set_tests_properties(host.wgmma_bench_header_compiles_sm${arch} PROPERTIES LABELS "host;wgmma")
endforeach()
foreach(arch 80 90)
  cuprobe_compile_fail_test(host.wgmma_bench_needs_sm90a_sm${arch} "${_wgmma_bench}" ${arch}
                            "wgmma needs sm_90a" "-I${PROJECT_SOURCE_DIR}/suite")
  set_tests_properties(host.wgmma_bench_needs_sm90a_sm${arch} PROPERTIES LABELS "host;wgmma")
endforeach()

# SASS (tests/sass/wgmma_bench.cu). _wgmma_bench(<probe> <function regex> <instruction> ...):
#   _loop: between the first wgmma.fence (WARPGROUP.ARRIVE) and the barrier after the last wait,
#          only the MMA loop: at least 4 of the instruction, no other MMA shape, no memory
#          access, a loop branch, and the wait depth / group checks the caller adds (ARGN);
#   _frame: the clocks around it (%clock64 and %globaltimer at entry, %clock64 after the operand
#          fill and its barrier, both after the last wait and a barrier, then the stores), and
#          no local memory in the whole kernel.
# Both fail on ptxas's serialisation messages (C7509 .. C7519), as every SASS test does.
function(_wgmma_bench probe fn inst)
  cuprobe_add_sass_test(wgmma_bench_${probe}_loop SOURCE ${_wgmma_bench} FUNCTION "${fn}"
    BETWEEN "^WARPGROUP\\.ARRIVE" "^BAR\\.SYNC"
    CHECK "^${inst}(, gsb0)?$ >= 4" "BRA >= 1" "!LDG|STG|LDS|STS|LDL|STL|ATOM|RED\\.|^BAR|MEMBAR" ${ARGN}
    LABELS wgmma)
  set(clk "CS2R.*SR_CLOCKLO")
  set(ns "CS2R.*SR_GLOBALTIMERLO")
  cuprobe_add_sass_test(wgmma_bench_${probe}_frame SOURCE ${_wgmma_bench} FUNCTION "${fn}"
    CHECK "!LDL|STL" "${clk} == 3" "${ns} == 2" "GMMA >= 4"
    SEQUENCE "${clk}" "${ns}" "FENCE\\.VIEW\\.ASYNC\\.S" "^BAR\\.SYNC" "${clk}"
             "^WARPGROUP\\.ARRIVE" "GMMA" "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x0" "^BAR\\.SYNC"
             "${clk}" "${ns}" "STG"
    LABELS wgmma)
endfunction()
set(_d "R[0-9]+")                       # the accumulator (D = C) register
set(_open "^[HQ]GMMA\\..*R[0-9]+$ >= 3")  # MMAs that do not close their group (no gsb0)
set(_wait1 "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x1 >= 1")
set(_no_deeper "!^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x[2-7]")
_wgmma_bench(bf16_n256 "^bench_bf16_n256$" "HGMMA\\.64x256x16\\.F32\\.BF16 ${_ss}, ${_d}"
             "${_open}" "${_wait1}" "${_no_deeper}" "!QGMMA|GMMA\\.SP|HGMMA\\.64x[0-9]+x[0-9]+\\.F32 ")
_wgmma_bench(bf16_n256_nowait "^bench_bf16_n256_nowait$"
             "HGMMA\\.64x256x16\\.F32\\.BF16 ${_ss}, ${_d}" "${_open}"
             "!^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x[1-7]" "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x0 == 1")
_wgmma_bench(bf16_n256_depth3 "^bench_bf16_n256_depth3$"
             "HGMMA\\.64x256x16\\.F32\\.BF16 ${_ss}, ${_d}" "${_open}"
             "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x3 >= 1" "!^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x[12]")
# The latency chain: every MMA closes its group and is waited for before the next.
_wgmma_bench(bf16_n256_latency "^bench_bf16_n256_latency$"
             "HGMMA\\.64x256x16\\.F32\\.BF16 ${_ss}, ${_d}, gsb0" "!^[HQ]GMMA\\..*R[0-9]+$"
             "!^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x[1-7]" "^WARPGROUP\\.DEPBAR\\.LE gsb0, 0x0 >= 4")
_wgmma_bench(f16_n256 "^bench_f16_n256$" "HGMMA\\.64x256x16\\.F32 ${_ss}, ${_d}" "${_open}"
             "${_wait1}" "!BF16")
_wgmma_bench(tf32_n256 "^bench_tf32_n256$" "HGMMA\\.64x256x8\\.F32\\.TF32 ${_ss}, ${_d}" "${_open}"
             "${_wait1}")
_wgmma_bench(e4m3_n256 "^bench_e4m3_n256$" "QGMMA\\.64x256x32\\.F32\\.E4M3\\.E4M3 ${_ss}, ${_d}"
             "${_open}" "${_wait1}")
_wgmma_bench(e5m2_n256 "^bench_e5m2_n256$" "QGMMA\\.64x256x32\\.F32\\.E5M2\\.E5M2 ${_ss}, ${_d}"
             "${_open}" "${_wait1}")
_wgmma_bench(bf16_n64 "^bench_bf16_n64$" "HGMMA\\.64x64x16\\.F32\\.BF16 ${_ss}, ${_d}" "${_open}"
             "${_wait1}")
# Sparse: the metadata register last (and the selector, 0, for 16-bit types).
_wgmma_bench(bf16_n256_sparse "^bench_bf16_n256_sparse$"
             "HGMMA\\.SP\\.64x256x32\\.F32\\.BF16 ${_ss}, ${_d}, R[0-9]+, 0x0"
             "^HGMMA\\.SP.*0x0$ >= 3" "${_wait1}")
_wgmma_bench(e4m3_n256_sparse "^bench_e4m3_n256_sparse$"
             "QGMMA\\.SP\\.64x256x64\\.F32\\.E4M3\\.E4M3 ${_ss}, ${_d}, R[0-9]+" "${_open}" "${_wait1}")
# RS, N = 256: the suite's kernel template with its launch bound of two warpgroups.
set(_rs_kernel "_ZN7cuprobe5suite7kernels18wgmma_bench_kernelINS1_11wgmma_benchINS_3ptx5wgmma4bf16ELi256ELb1E")
_wgmma_bench(bf16_n256_rs "^${_rs_kernel}Lb0E" "HGMMA\\.64x256x16\\.F32\\.BF16 ${_rs}, ${_d}"
             "${_open}" "${_wait1}")
_wgmma_bench(bf16_n256_rs_sparse "^${_rs_kernel}Lb1E"
             "HGMMA\\.SP\\.64x256x32\\.F32\\.BF16 ${_rs}, ${_d}, R[0-9]+, 0x0" "${_wait1}")
# Every kernel examples/wgmma instantiates (each N of --every-n, RS, sparse, every in-flight
# configuration) compiles without local memory and unserialised (the compile-log check).
if(TARGET wgmma)
  cuprobe_add_sass_test(wgmma_example_kernels TARGET wgmma
    FUNCTION "wgmma_bench_kernel" CHECK "GMMA >= 100" "!LDL|STL" LABELS wgmma)
endif()
# examples/wgmma refuses bad options like every example (tests/areas/examples.cmake's helper;
# the examples area sorts before this one).
if(COMMAND cuprobe_example_refusal AND CUPROBE_BUILD_EXAMPLES)
  foreach(case IN ITEMS "unknown_option;unknown option '--bogus';--bogus"
                        "missing_value;option --json needs a value;--json"
                        "every_n_range;--every-n is 2, outside its range;--every-n;2"
                        "sustained_range;--sustained-ms is -1, outside its range;--sustained-ms;-1"
                        "sustained_short;sustained_ms must be 0 \\(none\\) or 500;--sustained-ms;100"
                        "rest_range;--rest-ms is -5, outside its range;--rest-ms;-5"
                        "summary_unwritable;--summary.*/no/such/dir/s.json;--summary;/no/such/dir/s.json")
    list(POP_FRONT case suffix expect)
    cuprobe_example_refusal(wgmma ${suffix} "${expect}" ${case})
  endforeach()
  add_test(NAME host.example_wgmma_help COMMAND wgmma --help)
  set_tests_properties(host.example_wgmma_help PROPERTIES LABELS host TIMEOUT 60
                       PASS_REGULAR_EXPRESSION "--sustained-ms")
endif()
