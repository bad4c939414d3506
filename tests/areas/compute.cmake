# compute area: operations (gen/ops.cuh), accumulator chains (gen/chain.cuh), peak model
# (model/peak.cuh). Host, gpu and sass tests.
cuprobe_host_test(compute_ops)
cuprobe_host_test(compute_peak)
cuprobe_gpu_test(compute_chain)

# SASS: one probe (tests/sass/compute_ops.cu, one cubin) holds chain_kernel<Op, 1, 8> (latency)
# and chain_kernel<Op, 8, 8> (throughput) of every operation. For each operation:
#   exactly Chains x Unroll chain instructions (64 and 8: nothing folded, strength-reduced or
#   split), all of them between the two %clock64 reads (CS2R ... SR_CLOCKLO), no local memory.
# The patterns are Op::sass from gen/ops.cuh; they skip look-alikes that are not chain steps
# (HFMA2.MMA R, -RZ, RZ, 0, 0 is a move; IMAD.WIDE and IADD3 with a carry predicate are
# address arithmetic).
set(_compute_probe "${CMAKE_CURRENT_SOURCE_DIR}/sass/compute_ops.cu")
set(_compute_ops
  "ops7fma_f32E"     "FFMA"
  "ops7add_f32E"     "FADD"
  "ops7mul_f32E"     "FMUL"
  "ops9hfma2_f16E"   "HFMA2(\\.MMA)? R[0-9]+, R"
  "ops10hfma2_bf16E" "HFMA2(\\.MMA)?\\.BF16_V2 R"
  "ops7fma_f64E"     "DFMA"
  "ops8imad_u32E"    "IMAD R[0-9]+, U?R[0-9]+"
  "ops9iadd3_u32E"   "IADD3 R[0-9]+, U?R[0-9]+"
  "ops8lop3_b32E"    "LOP3\\.LUT"
  "ops9rsqrt_f32E"   "MUFU\\.RSQ"
  "ops8shfl_idxE"    "SHFL\\.IDX"
  "8dp4a_s32"       "IDP\\.4A\\.S8\\.S8")
list(LENGTH _compute_ops _n)
math(EXPR _last "${_n} - 1")
foreach(_i RANGE 0 ${_last} 2)
  math(EXPR _j "${_i} + 1")
  list(GET _compute_ops ${_i} _mangled)
  list(GET _compute_ops ${_j} _sass)
  string(REGEX REPLACE "^(ops)?[0-9]+([a-z0-9_]+)E?$" "\\2" _op "${_mangled}")
  foreach(_chains 1 8)
    math(EXPR _steps "${_chains} * 8")
    # Clock read, then every chain instruction, then a clock read: all of them are timed.
    set(_seq "CS2R.*SR_CLOCKLO")
    foreach(_k RANGE 1 ${_steps})
      list(APPEND _seq "${_sass}")
    endforeach()
    list(APPEND _seq "CS2R.*SR_CLOCKLO")
    if(_chains EQUAL 1)
      set(_what latency)
    else()
      set(_what throughput)
    endif()
    cuprobe_add_sass_test(compute_${_op}_${_what} SOURCE ${_compute_probe}
      FUNCTION "${_mangled}Li${_chains}ELi8E" CHECK "${_sass} == ${_steps}" "!LDL|STL"
      SEQUENCE ${_seq})
  endforeach()
endforeach()
