// cuprobe/model/peak.cuh: published per-SM throughput of the operation kinds (model/op_kind.cuh),
// and the peak of a whole GPU at the clock a run measured.
//
//   auto e = cuprobe::model::ops_per_clock_per_sm(90, cuprobe::model::op_kind::fp32_fma);
//   // e.instructions_per_clock = 128 FFMA/clk/SM, e.ops_per_instruction = 2: 256 FLOP/clk/SM
//   double peak = cuprobe::model::peak_per_s(dev.sm_count, e.ops_per_clock(), measured_hz);
//   std::printf("%s\n%.1f TFLOP/s at the measured clock\n", describe(e).c_str(), peak / 1e12);
//   auto t = cuprobe::model::tensor_peak<cuprobe::ptx::wgmma::bf16>(dev.sm());  // typed
//   double tensor = t.flop_per_s(dev.sm_count, in_kernel_clock_hz);  // clock: see flop_per_s
//
// Accounting: instructions_per_clock counts thread-level instructions per clock per SM (what
// gen/chain.cuh counts), results_per_instruction the lanes (2 for FP16x2 / BF16x2: NVIDIA's table
// lists results), ops_per_instruction FLOP or ops as gen::ops::*::ops (model/op_kind.cuh). FP32
// FMA on sm_90: 128 instructions = 256 FLOP per clock per SM; 132 SMs at 1.98 GHz: 66.9 TFLOP/s.
//
// Architectures are given as sm numbers: 75, 80, 86, 89, 90 (90a too: the same SM), 100, 120.
// An operation without a published figure for an architecture is absent: find_peak returns
// std::nullopt and ops_per_clock_per_sm throws cuprobe::error with a sentence. Every entry
// names its source (document, table or section, and column); docs/compute.md lists them.
#pragma once

#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/model/op_kind.cuh"

namespace cuprobe::model {

/// The row of NVIDIA's "Throughput of Native Arithmetic Instructions" table a kind falls in.
CUPROBE_DECL const char* guide_row(op_kind k);

/// One published figure: an operation kind on one architecture.
struct peak_entry {
  int sm = 0;                         ///< 90 for sm_90
  op_kind kind = op_kind::other;      ///< the operation
  double instructions_per_clock = 0;  ///< thread-level instructions per clock per SM
  const char* source = "";            ///< document, table or section, column; how derived

  /// Lanes per instruction of the kind (model::results_per_instruction).
  double results_per_instruction() const { return model::results_per_instruction(kind); }
  /// Operations per instruction of the kind, FLOP for floating point (model::ops_per_instruction).
  double ops_per_instruction() const { return model::ops_per_instruction(kind); }
  /// What NVIDIA's table lists: results (lanes) per clock per SM.
  double results_per_clock() const { return instructions_per_clock * results_per_instruction(); }
  /// FLOP (or integer operations) per clock per SM.
  double ops_per_clock() const { return instructions_per_clock * ops_per_instruction(); }
};

namespace detail {

// The table "Throughput of Native Arithmetic Instructions (Number of Results per Clock Cycle
// per Multiprocessor)": section "Arithmetic Instructions" of the CUDA C++ Programming Guide up
// to CUDA 12.x; section "Throughput of Native Arithmetic Instructions" of the CUDA C++ Best
// Practices Guide from CUDA 13.0.
#define CUPROBE_DETAIL_GUIDE_TABLE                                                                \
  "CUDA C++ Programming Guide (12.x), 'Arithmetic Instructions', table 'Throughput of Native "    \
  "Arithmetic Instructions' (CUDA C++ Best Practices Guide from 13.0), the operation's row (see " \
  "\"row\"), "
inline constexpr const char* guide_75 = CUPROBE_DETAIL_GUIDE_TABLE "column 7.x (7.5)";
inline constexpr const char* guide_75_fp64 =
    CUPROBE_DETAIL_GUIDE_TABLE "column 7.x, footnote: 2 for compute capability 7.5";
inline constexpr const char* guide_80 = CUPROBE_DETAIL_GUIDE_TABLE "column 8.0";
inline constexpr const char* guide_80_bf16 =
    CUPROBE_DETAIL_GUIDE_TABLE "column 8.0, footnote: 128 results for __nv_bfloat16";
inline constexpr const char* guide_86 = CUPROBE_DETAIL_GUIDE_TABLE "column 8.6";
inline constexpr const char* guide_89 = CUPROBE_DETAIL_GUIDE_TABLE "column 8.9";
inline constexpr const char* guide_90 = CUPROBE_DETAIL_GUIDE_TABLE "column 9.0";
#undef CUPROBE_DETAIL_GUIDE_TABLE

inline constexpr const char* turing_fp16 =
    "CUDA C++ Programming Guide, table 'Throughput of Native Arithmetic Instructions', row "
    "'16-bit floating-point add, multiply, multiply-add', column 7.x: 128 results = 64 HFMA2";
inline constexpr const char* ga102_fp16 =
    "NVIDIA Ampere GA102 GPU Architecture whitepaper, GeForce RTX 3090 specifications: peak FP16 "
    "(non-Tensor) TFLOPS equal to peak FP32 TFLOPS, i.e. 128 results = 64 HFMA2 per clock per SM";
inline constexpr const char* ada_fp16 =
    "NVIDIA Ada GPU Architecture whitepaper, GeForce RTX 4090 specifications: peak FP16 "
    "(non-Tensor) TFLOPS equal to peak FP32 TFLOPS, i.e. 128 results = 64 HFMA2 per clock per SM";
inline constexpr const char* h100_16bit =
    "CUDA C++ Programming Guide table, column 9.0: 256 results = 128 HFMA2; agrees with the NVIDIA "
    "H100 Tensor Core GPU Architecture whitepaper, Table 3 (H100 SXM5): peak FP16 and BF16 "
    "(non-Tensor) 133.8 TFLOPS = 132 SMs x 1.98 GHz x 512 FLOP/clk/SM";
inline constexpr const char* a100_16bit =
    "CUDA C++ Programming Guide table, column 8.0: 256 results = 128 HFMA2; agrees with the NVIDIA "
    "A100 Tensor Core GPU Architecture whitepaper: peak FP16 (non-Tensor) 78 TFLOPS = 108 SMs x "
    "1.41 GHz x 512 FLOP/clk/SM";
inline constexpr const char* a100_bf16 =
    "CUDA C++ Programming Guide table, column 8.0, footnote: 128 results (64 BF16x2 "
    "instructions) for __nv_bfloat16; A100 whitepaper: peak BF16 (non-Tensor) 39 TFLOPS";
inline constexpr const char* blackwell_100 =
    "CUDA C++ Best Practices Guide 13.0, table 'Throughput of Native Arithmetic Instructions', "
    "column 10.0, as transcribed in OpenXLA's stream_executor/cuda/cuda_core_info_table.cc (128 "
    "FP32 and 64 FP64 lanes per SM); not yet checked against the guide itself";
inline constexpr const char* blackwell_120 =
    "NVIDIA RTX Blackwell GPU Architecture whitepaper: 128 FP32 CUDA cores per SM";

}  // namespace detail

/// Every published figure cuprobe knows, one per (architecture, kind).
inline constexpr std::array peak_table = {
    // sm_75 (Turing)
    peak_entry{75, op_kind::fp32_fma, 64, detail::guide_75},
    peak_entry{75, op_kind::fp32_add, 64, detail::guide_75},
    peak_entry{75, op_kind::fp32_mul, 64, detail::guide_75},
    peak_entry{75, op_kind::fp16x2_fma, 64, detail::turing_fp16},
    peak_entry{75, op_kind::fp64_fma, 2, detail::guide_75_fp64},
    peak_entry{75, op_kind::special_function, 16, detail::guide_75},
    peak_entry{75, op_kind::int32_add, 64, detail::guide_75},
    peak_entry{75, op_kind::int32_mad, 64, detail::guide_75},
    peak_entry{75, op_kind::logic, 64, detail::guide_75},
    peak_entry{75, op_kind::shuffle, 32, detail::guide_75},
    // sm_80 (A100)
    peak_entry{80, op_kind::fp32_fma, 64, detail::guide_80},
    peak_entry{80, op_kind::fp32_add, 64, detail::guide_80},
    peak_entry{80, op_kind::fp32_mul, 64, detail::guide_80},
    peak_entry{80, op_kind::fp16x2_fma, 128, detail::a100_16bit},
    peak_entry{80, op_kind::bf16x2_fma, 64, detail::a100_bf16},
    peak_entry{80, op_kind::fp64_fma, 32, detail::guide_80},
    peak_entry{80, op_kind::special_function, 16, detail::guide_80},
    peak_entry{80, op_kind::int32_add, 64, detail::guide_80},
    peak_entry{80, op_kind::int32_mad, 64, detail::guide_80},
    peak_entry{80, op_kind::logic, 64, detail::guide_80},
    peak_entry{80, op_kind::shuffle, 32, detail::guide_80},
    // sm_86 (GA10x)
    peak_entry{86, op_kind::fp32_fma, 128, detail::guide_86},
    peak_entry{86, op_kind::fp32_add, 128, detail::guide_86},
    peak_entry{86, op_kind::fp32_mul, 128, detail::guide_86},
    peak_entry{86, op_kind::fp16x2_fma, 64, detail::ga102_fp16},
    peak_entry{86, op_kind::fp64_fma, 2, detail::guide_86},
    peak_entry{86, op_kind::special_function, 16, detail::guide_86},
    peak_entry{86, op_kind::int32_add, 64, detail::guide_86},
    peak_entry{86, op_kind::int32_mad, 64, detail::guide_86},
    peak_entry{86, op_kind::logic, 64, detail::guide_86},
    peak_entry{86, op_kind::shuffle, 32, detail::guide_86},
    // sm_89 (Ada)
    peak_entry{89, op_kind::fp32_fma, 128, detail::guide_89},
    peak_entry{89, op_kind::fp32_add, 128, detail::guide_89},
    peak_entry{89, op_kind::fp32_mul, 128, detail::guide_89},
    peak_entry{89, op_kind::fp16x2_fma, 64, detail::ada_fp16},
    peak_entry{89, op_kind::fp64_fma, 2, detail::guide_89},
    peak_entry{89, op_kind::special_function, 16, detail::guide_89},
    peak_entry{89, op_kind::int32_add, 64, detail::guide_89},
    peak_entry{89, op_kind::int32_mad, 64, detail::guide_89},
    peak_entry{89, op_kind::logic, 64, detail::guide_89},
    peak_entry{89, op_kind::shuffle, 32, detail::guide_89},
    // sm_90 (H100, H200)
    peak_entry{90, op_kind::fp32_fma, 128, detail::guide_90},
    peak_entry{90, op_kind::fp32_add, 128, detail::guide_90},
    peak_entry{90, op_kind::fp32_mul, 128, detail::guide_90},
    peak_entry{90, op_kind::fp16x2_fma, 128, detail::h100_16bit},
    peak_entry{90, op_kind::bf16x2_fma, 128, detail::h100_16bit},
    peak_entry{90, op_kind::fp64_fma, 64, detail::guide_90},
    peak_entry{90, op_kind::special_function, 16, detail::guide_90},
    peak_entry{90, op_kind::int32_add, 64, detail::guide_90},
    peak_entry{90, op_kind::int32_mad, 64, detail::guide_90},
    peak_entry{90, op_kind::logic, 64, detail::guide_90},
    peak_entry{90, op_kind::shuffle, 32, detail::guide_90},
    // sm_100 (B200) and sm_120 (RTX Blackwell): only the figures cross-checked so far
    peak_entry{100, op_kind::fp32_fma, 128, detail::blackwell_100},
    peak_entry{100, op_kind::fp64_fma, 64, detail::blackwell_100},
    peak_entry{120, op_kind::fp32_fma, 128, detail::blackwell_120},
};

/// The published figure for `kind` on sm_`sm`, or std::nullopt when cuprobe has none.
CUPROBE_DECL std::optional<peak_entry> find_peak(int sm, op_kind kind);

/// The architectures with at least one figure, ascending.
CUPROBE_DECL std::vector<int> known_architectures();

/// The published figure for `kind` on sm_`sm`; throws cuprobe::error with a sentence naming
/// what is known when there is none.
CUPROBE_DECL peak_entry ops_per_clock_per_sm(int sm, op_kind kind);

/// The same for an operation of gen/ops.cuh (Op::kind).
template <class Op>
peak_entry ops_per_clock_per_sm(int sm) {
  return ops_per_clock_per_sm(sm, Op::kind);
}

/// Peak rate of a whole GPU: SMs x operations per clock per SM x clock (Hz). Pass the SM clock
/// measured during the run, not the boost clock of the datasheet.
CUPROBE_DECL double peak_per_s(int sm_count, double ops_per_clock_per_sm, double clock_hz);

/// The inverse of peak_per_s: a whole-GPU rate (per second) as a rate per clock per SM.
inline double per_clock_per_sm(double rate_per_s, int sm_count, double clock_hz) {
  return rate_per_s / peak_per_s(sm_count, 1.0, clock_hz);
}

/// Dense operands, or A with 2:4 structured sparsity (wgmma.mma_async.sp), which NVIDIA counts
/// at twice the dense FLOP.
enum class sparsity { dense, two_four };

/// One published tensor-core figure: the dense FLOP per clock per SM of one input type of the
/// warpgroup MMA (wgmma) on one architecture; 2:4 structured sparsity doubles it (NVIDIA counts
/// sparse FLOP as the dense product's). `type` is the PTX name of the input: "bf16", "f16",
/// "tf32", "e4m3", "e5m2" (the accumulator is f32; f16 accumulation has the same rate).
struct tensor_peak_entry {
  int sm = 0;                       ///< 90 for sm_90
  const char* type = "";            ///< the input type's PTX name
  double dense_flop_per_clock = 0;  ///< FLOP (2 per multiply-add) per clock per SM
  const char* source = "";          ///< document, table or section; how derived

  /// FLOP per clock per SM, dense or with 2:4 sparsity (twice the dense figure).
  CUPROBE_DECL double flop_per_clock(sparsity s = sparsity::dense) const;
  /// FLOP per second of `sm_count` SMs at `clock_hz`. For a tensor-bound kernel pass the SM
  /// clock measured in the kernel (region_timer's clock_mhz_of), not NVML's: it runs lower.
  CUPROBE_DECL double flop_per_s(int sm_count, double clock_hz, sparsity s = sparsity::dense) const;
};

namespace detail {
// The H100 SXM5 figures: 989.4 dense FP16/BF16, 494.7 TF32, 1978.9 FP8 Tensor TFLOPS (twice that
// with sparsity) for 132 SMs at the 1830 MHz the tensor figures assume, i.e. 4096, 2048 and
// 8192 FLOP per clock per SM (the whitepaper's per-SM table: 2048 dense FP16/BF16, 1024 TF32
// and 4096 FP8 multiply-adds per clock per SM, twice A100's 16-bit and TF32 rate). The H200 has
// the same SM.
#define CUPROBE_DETAIL_H100_TENSOR                                                             \
  "NVIDIA H100 Tensor Core GPU Architecture whitepaper and H100 SXM5 datasheet: dense Tensor " \
  "Core TFLOPS / (132 SMs x 1.83 GHz); per SM: "
inline constexpr const char* h100_tensor_16bit =
    CUPROBE_DETAIL_H100_TENSOR "989.4 TFLOPS FP16/BF16 = 2048 multiply-adds = 4096 FLOP per clock";
inline constexpr const char* h100_tensor_tf32 =
    CUPROBE_DETAIL_H100_TENSOR "494.7 TFLOPS TF32 = 1024 multiply-adds = 2048 FLOP per clock";
inline constexpr const char* h100_tensor_fp8 =
    CUPROBE_DETAIL_H100_TENSOR "1978.9 TFLOPS FP8 = 4096 multiply-adds = 8192 FLOP per clock";
#undef CUPROBE_DETAIL_H100_TENSOR
}  // namespace detail

/// Every tensor-core figure cuprobe knows, one per (architecture, input type).
inline constexpr std::array tensor_peak_table = {
    tensor_peak_entry{90, "bf16", 4096, detail::h100_tensor_16bit},
    tensor_peak_entry{90, "f16", 4096, detail::h100_tensor_16bit},
    tensor_peak_entry{90, "tf32", 2048, detail::h100_tensor_tf32},
    tensor_peak_entry{90, "e4m3", 8192, detail::h100_tensor_fp8},
    tensor_peak_entry{90, "e5m2", 8192, detail::h100_tensor_fp8},
};

/// The tensor-core figure of input type `type` on sm_`sm`, or std::nullopt when cuprobe has none.
CUPROBE_DECL std::optional<tensor_peak_entry> find_tensor_peak(int sm, const std::string& type);

/// The tensor-core figure of the wgmma input type T (cuprobe::ptx::wgmma::bf16, f16, tf32,
/// e4m3, e5m2: any type with a static `name`, its PTX spelling) on sm_`sm`; refuses with a
/// sentence when cuprobe has no figure for it.
///   const auto peak = cuprobe::model::tensor_peak<cuprobe::ptx::wgmma::bf16>(dev.sm());
///   double ceiling = peak.flop_per_s(dev.sm_count, measured_clock_hz);
template <class T>
tensor_peak_entry tensor_peak(int sm) {
  const auto e = find_tensor_peak(sm, T::name);
  require(e.has_value(), std::string("cuprobe::model::tensor_peak<") + T::name +
                             ">: no published tensor-core figure for sm_" + std::to_string(sm) +
                             " (model/peak.cuh's tensor_peak_table has sm_90 bf16, f16, tf32, "
                             "e4m3 and e5m2)");
  return *e;
}

/// "sm_90 bf16 tensor (wgmma, dense): 4096 FLOP/clk/SM [source]".
CUPROBE_DECL std::string describe(const tensor_peak_entry& e, sparsity sp = sparsity::dense);

/// "sm_90 fp32_fma: 128 instructions/clk/SM x 2 = 256 ops/clk/SM (128 results) [source]".
CUPROBE_DECL std::string describe(const peak_entry& e);

}  // namespace cuprobe::model

#if CUPROBE_HEADER_BODIES
#include "cuprobe/model/impl/peak.cuh"
#endif
