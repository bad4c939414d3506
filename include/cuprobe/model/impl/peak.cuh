// cuprobe/model/impl/peak.cuh: the definitions of cuprobe/model/peak.cuh's larger host functions.
// Not a header of its own: peak.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::model {

CUPROBE_DECL const char* guide_row(op_kind k) {
  switch (k) {
    case op_kind::fp32_fma:
    case op_kind::fp32_add:
    case op_kind::fp32_mul:
      return "32-bit floating-point add, multiply, multiply-add";
    case op_kind::fp16x2_fma:
    case op_kind::bf16x2_fma:
      return "16-bit floating-point add, multiply, multiply-add";
    case op_kind::fp64_fma:
      return "64-bit floating-point add, multiply, multiply-add";
    case op_kind::int32_add:
      return "32-bit integer add, extended-precision add, subtract";
    case op_kind::int32_mad:
      return "32-bit integer multiply, multiply-add, extended-precision multiply-add";
    case op_kind::special_function:
      return "32-bit floating-point reciprocal, reciprocal square root, base-2 logarithm, base-2 "
             "exponential, sine, cosine";
    case op_kind::logic:
      return "32-bit bitwise AND, OR, XOR";
    case op_kind::shuffle:
      return "warp shuffle";
    case op_kind::other:
      break;
  }
  return "(none)";
}

CUPROBE_DECL std::optional<peak_entry> find_peak(int sm, op_kind kind) {
  for (const peak_entry& e : peak_table)
    if (e.sm == sm && e.kind == kind) return e;
  return std::nullopt;
}

CUPROBE_DECL std::vector<int> known_architectures() {
  std::vector<int> out;
  for (const peak_entry& e : peak_table)
    if (out.empty() || out.back() != e.sm) out.push_back(e.sm);
  return out;
}

CUPROBE_DECL peak_entry ops_per_clock_per_sm(int sm, op_kind kind) {
  if (auto e = find_peak(sm, kind)) return *e;
  std::string known;
  for (int a : known_architectures())
    if (find_peak(a, kind)) known += (known.empty() ? "sm_" : ", sm_") + std::to_string(a);
  throw error("cuprobe: the peak model has no published throughput for " +
              std::string(to_string(kind)) + " on sm_" + std::to_string(sm) +
              (known.empty() ? std::string(" (nor on any architecture)")
                             : " (it has one for " + known + ")") +
              "; pass the figure yourself to peak_per_s()");
}

CUPROBE_DECL double peak_per_s(int sm_count, double ops_per_clock_per_sm, double clock_hz) {
  require(sm_count > 0, "peak_per_s: sm_count must be positive, got " + std::to_string(sm_count));
  require(ops_per_clock_per_sm > 0, "peak_per_s: ops_per_clock_per_sm must be positive");
  require(clock_hz > 0, "peak_per_s: clock_hz must be positive (Hz, e.g. 1.98e9)");
  return static_cast<double>(sm_count) * ops_per_clock_per_sm * clock_hz;
}

CUPROBE_DECL double tensor_peak_entry::flop_per_clock(sparsity s) const {
  return s == sparsity::two_four ? 2 * dense_flop_per_clock : dense_flop_per_clock;
}

CUPROBE_DECL double tensor_peak_entry::flop_per_s(int sm_count, double clock_hz, sparsity s) const {
  require(sm_count > 0 && clock_hz > 0,
          "tensor_peak_entry::flop_per_s: sm_count and clock_hz must be positive");
  return flop_per_clock(s) * sm_count * clock_hz;
}

CUPROBE_DECL std::optional<tensor_peak_entry> find_tensor_peak(int sm, const std::string& type) {
  for (const tensor_peak_entry& e : tensor_peak_table)
    if (e.sm == sm && type == e.type) return e;
  return std::nullopt;
}

CUPROBE_DECL std::string describe(const tensor_peak_entry& e, sparsity sp) {
  char s[128];
  std::snprintf(s, sizeof s, "sm_%d %s tensor (wgmma, %s): %g FLOP/clk/SM", e.sm, e.type,
                sp == sparsity::two_four ? "2:4 sparse, twice the dense figure" : "dense",
                e.flop_per_clock(sp));
  return std::string(s) + " [" + e.source + "]";
}

CUPROBE_DECL std::string describe(const peak_entry& e) {
  char s[160];
  std::snprintf(s, sizeof s, "sm_%d %s: %g instructions/clk/SM x %g = %g ops/clk/SM (%g results)",
                e.sm, to_string(e.kind), e.instructions_per_clock, e.ops_per_instruction(),
                e.ops_per_clock(), e.results_per_clock());
  return std::string(s) + " [" + e.source + "; row: " + guide_row(e.kind) + "]";
}

}  // namespace cuprobe::model
