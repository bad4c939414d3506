// cuprobe/model/op_kind.cuh: the vocabulary of the peak model: which row of NVIDIA's throughput
// table an operation belongs to, how its operations are counted, the tensor-core input types.
// Pure constexpr, no kernels: gen/ops.cuh tags each operation with a kind, model/peak.cuh looks
// the kind up.
//
//   using cuprobe::model::op_kind;
//   static_assert(cuprobe::model::ops_per_instruction(op_kind::fp32_fma) == 2);   // FMA = 2 FLOP
//   static_assert(cuprobe::model::counts_flops(op_kind::fp16x2_fma));
//   std::printf("%s\n", cuprobe::model::to_string(op_kind::shuffle));               // "shuffle"
#pragma once

namespace cuprobe::model {

/// The peak-model row an operation belongs to.
enum class op_kind {
  fp32_fma,
  fp32_add,
  fp32_mul,
  fp16x2_fma,
  bf16x2_fma,
  fp64_fma,
  int32_add,
  int32_mad,
  special_function,  ///< MUFU: rcp, rsqrt, ex2, lg2, sin, cos
  logic,             ///< LOP3 and the 32-bit AND/OR/XOR row
  shuffle,
  other,  ///< not in the peak model (user operations, by default)
};

inline constexpr const char* to_string(op_kind k) {  ///< The name of a kind, e.g. "fp32_fma".
  return k == op_kind::fp32_fma           ? "fp32_fma"
         : k == op_kind::fp32_add         ? "fp32_add"
         : k == op_kind::fp32_mul         ? "fp32_mul"
         : k == op_kind::fp16x2_fma       ? "fp16x2_fma"
         : k == op_kind::bf16x2_fma       ? "bf16x2_fma"
         : k == op_kind::fp64_fma         ? "fp64_fma"
         : k == op_kind::int32_add        ? "int32_add"
         : k == op_kind::int32_mad        ? "int32_mad"
         : k == op_kind::special_function ? "special_function"
         : k == op_kind::logic            ? "logic"
         : k == op_kind::shuffle          ? "shuffle"
         : k == op_kind::other            ? "other"
                                          : "?";
}

/// The input type of a tensor-core (wgmma) FLOP: its tensor ceiling ("tensor.bf16....").
enum class tensor_type { f16, bf16, tf32, e4m3, e5m2 };

/// The PTX spelling of a tensor input type, e.g. "bf16".
inline constexpr const char* to_string(tensor_type t) {
  constexpr const char* names[] = {"f16", "bf16", "tf32", "e4m3", "e5m2"};
  return names[static_cast<int>(t)];
}

/// True for the floating-point kinds, whose operations are counted in FLOP.
inline constexpr bool counts_flops(op_kind k) {
  return k == op_kind::fp32_fma || k == op_kind::fp32_add || k == op_kind::fp32_mul ||
         k == op_kind::fp64_fma || k == op_kind::fp16x2_fma || k == op_kind::bf16x2_fma;
}

/// Operations per thread-level instruction in cuprobe's convention: FLOP for floating point
/// (FMA 2, HFMA2 = 2 lanes x 2 = 4, add or multiply 1); 1 for integer, logic, MUFU, shuffle.
inline constexpr double ops_per_instruction(op_kind k) {
  return k == op_kind::fp32_fma || k == op_kind::fp64_fma       ? 2
         : k == op_kind::fp16x2_fma || k == op_kind::bf16x2_fma ? 4
                                                                : 1;
}

/// Lanes (results) per thread-level instruction: 2 for the packed 16-bit types.
inline constexpr double results_per_instruction(op_kind k) {
  return (k == op_kind::fp16x2_fma || k == op_kind::bf16x2_fma) ? 2 : 1;
}

}  // namespace cuprobe::model
