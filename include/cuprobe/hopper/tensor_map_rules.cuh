// cuprobe/hopper/tensor_map_rules.cuh: the checker behind tensor_map_spec::violations() and
// tensor_map_spec::check(), on the types of detail/tensor_map_spec_types.cuh; included by
// cuprobe/hopper/tensor_map_spec.cuh (either header alone gives both).
//
//   using namespace cuprobe::hopper;
//   auto spec = tensor_map_spec::matrix(p, 1024, 1024, 64, 300);   // float* p; box[0] > 256
//   check_limits lim;                                  // sm_90's shared memory, no GPU needed
//   auto v = spec.violations(lim);                     // {box_dim_range, "box[0] = 300 ..."}
//   spec.check(lim);                                   // throws cuprobe::error with the sentence
//
// Every rule of cuTensorMapEncodeTiled in the CUDA 13.0 driver API documentation is checked, in
// the docs' order, each citing its paragraph; rule_table names each rule's source (those marked
// "cuprobe" are stricter than the driver on purpose).
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "cuprobe/hopper/detail/tensor_map_spec_types.cuh"

namespace cuprobe::hopper {

namespace tmap_detail {
inline bool is_align16_packed(element_type t) {
  return t == element_type::u4x16_align16 || t == element_type::u6x16_align16;
}
inline std::string dim(const char* a, unsigned i) {
  return std::string(a) + "[" + std::to_string(i) + "]";
}
// "x B" or "x bits" for a size in bits.
inline std::string bits_as_bytes(std::uint64_t bits) {
  return bits % 8 == 0 ? std::to_string(bits / 8) + " B" : std::to_string(bits) + " bits";
}
}  // namespace tmap_detail

inline std::vector<rule_violation> tensor_map_spec::violations(const check_limits& limits) const {
  std::vector<rule_violation> out;
  auto add = [&out](tensor_map_rule r, std::string m) { out.push_back({r, std::move(m)}); };
  using tmap_detail::dim;

  // Enum values: "tensorDataType has to be an enum from CUtensorMapDataType", and likewise for
  // interleave, swizzle, l2Promotion and oobFill. A value out of range leaves the size unknown,
  // so the size-dependent rules below are skipped for it.
  const bool type_ok = is_valid(type);
  if (!type_ok)
    add(tensor_map_rule::enum_value, "element type " + std::to_string(int(type)) +
                                         " is not a CUtensorMapDataType of CUDA 13.0 (0..15).");
  if (!is_valid(interleave))
    add(tensor_map_rule::enum_value, "interleave " + std::to_string(int(interleave)) +
                                         " is not a CUtensorMapInterleave (0..2).");
  if (!is_valid(swizzle))
    add(tensor_map_rule::enum_value,
        "swizzle " + std::to_string(int(swizzle)) + " is not a CUtensorMapSwizzle (0..6).");
  if (!is_valid(l2_promotion))
    add(tensor_map_rule::enum_value, "L2 promotion " + std::to_string(int(l2_promotion)) +
                                         " is not a CUtensorMapL2promotion (0..3).");
  if (!is_valid(oob_fill))
    add(tensor_map_rule::enum_value,
        "OOB fill " + std::to_string(int(oob_fill)) + " is not a CUtensorMapFloatOOBfill (0..1).");
  if (!is_valid(direction))
    add(tensor_map_rule::enum_value,
        "direction " + std::to_string(int(direction)) + " is not a copy_direction (0..2).");
  const unsigned gbits = type_ok ? element_info_of(type).global_bits : 0;
  const unsigned sbits = type_ok ? element_info_of(type).smem_bits : 0;
  const bool packed16 = tmap_detail::is_align16_packed(type);
  const bool no_interleave = interleave == interleave_mode::none;

  // tensorRank: "must be non-zero and less than or equal to the maximum supported
  // dimensionality of 5. If interleave is not CU_TENSOR_MAP_INTERLEAVE_NONE, then tensorRank
  // must additionally be greater than or equal to 3."
  if (rank < 1 || rank > 5)
    add(tensor_map_rule::rank_range, "rank = " + std::to_string(rank) + " is outside 1..5.");
  if (!no_interleave && rank < 3)
    add(tensor_map_rule::rank_interleave, "rank = " + std::to_string(rank) + " with interleave " +
                                              to_string(interleave) +
                                              "; interleaved layouts need rank >= 3.");
  const unsigned n = stored_rank();

  // globalAddress: "must be 16 byte aligned"; 32 with CU_TENSOR_MAP_INTERLEAVE_32B, and with
  // 16U6_ALIGN16B or 16U4_ALIGN16B. (A null address is cuprobe's rule: it is never meant.)
  if (address == nullptr) add(tensor_map_rule::address_nonnull, "the global address is null.");
  const std::uintptr_t a = reinterpret_cast<std::uintptr_t>(address);
  const unsigned align = (interleave == interleave_mode::b32 || packed16) ? 32 : 16;
  if (a % align != 0)
    add(tensor_map_rule::address_align,
        "global address " + tmap_detail::hex(address) + " is not " + std::to_string(align) +
            "-byte aligned" +
            (align == 32 ? (packed16 ? " (" + to_string(type) + " needs 32 B)"
                                     : std::string(" (interleave 32B needs 32 B)"))
                         : std::string()) +
            ".");

  // globalDim: "must be non-zero and less than or equal to 2^32"; for 16U6_ALIGN16B and
  // 16U4_ALIGN16B globalDim[0] a multiple of 128, for 16U4_ALIGN8B a multiple of 2.
  for (unsigned i = 0; i < n; ++i)
    if (dims[i] == 0 || dims[i] > (std::uint64_t{1} << 32))
      add(tensor_map_rule::global_dim_range,
          dim("dims", i) + " = " + std::to_string(dims[i]) + " is outside 1..2^32 (4294967296).");
  if (n >= 1 && packed16 && dims[0] % 128 != 0)
    add(tensor_map_rule::global_dim_packed, "dims[0] = " + std::to_string(dims[0]) +
                                                " is not a multiple of 128, which " +
                                                to_string(type) + " needs.");
  if (n >= 1 && type == element_type::u4x16_align8 && dims[0] % 2 != 0)
    add(tensor_map_rule::global_dim_packed,
        "dims[0] = " + std::to_string(dims[0]) + " is odd; u4x16_align8 needs a multiple of 2.");

  // globalStrides: "must be a multiple of 16 and less than 2^40"; a multiple of 32 with
  // CU_TENSOR_MAP_INTERLEAVE_32B and with the 16U*_ALIGN16B types. "Each following dimension
  // specified includes previous dimension stride" (globalStrides[0] = globalDim[0] x element
  // size + padding[0], globalStrides[i] = globalStrides[i - 1] x (globalDim[i] + padding[i])):
  // cuprobe refuses strides smaller than that (dimensions that overlap), unless allowed.
  const unsigned smult = (interleave == interleave_mode::b32 || packed16) ? 32 : 16;
  for (unsigned i = 0; i + 1 < n; ++i) {
    if (strides[i] % smult != 0)
      add(tensor_map_rule::stride_multiple, dim("strides", i) + " = " + std::to_string(strides[i]) +
                                                " B is not a multiple of " + std::to_string(smult) +
                                                " B.");
    if (strides[i] >= (std::uint64_t{1} << 40))
      add(tensor_map_rule::stride_max, dim("strides", i) + " = " + std::to_string(strides[i]) +
                                           " B is not below 2^40 (1099511627776) B.");
  }
  if (!limits.allow_overlapping_strides && type_ok && n >= 2) {
    const std::uint64_t row_bits = dims[0] * gbits;  // dims[0] <= 2^32 or already refused
    if (dims[0] <= (std::uint64_t{1} << 32) && strides[0] < (row_bits + 7) / 8)
      add(tensor_map_rule::stride_overlap,
          "strides[0] = " + std::to_string(strides[0]) + " B is below dims[0] x element size = " +
              std::to_string(dims[0]) + " x " + tmap_detail::bits_as_bytes(gbits) + " = " +
              tmap_detail::bits_as_bytes(row_bits) + ": rows of dimension 1 would overlap.");
    for (unsigned i = 1; i + 1 < n; ++i) {
      // strides[i] < strides[i-1] * dims[i]  <=>  strides[i] / dims[i] < strides[i-1]
      if (dims[i] == 0 || strides[i] / dims[i] >= strides[i - 1]) continue;
      const bool fits = strides[i - 1] <= std::numeric_limits<std::uint64_t>::max() / dims[i];
      add(tensor_map_rule::stride_overlap,
          dim("strides", i) + " = " + std::to_string(strides[i]) + " B is below " +
              dim("strides", i - 1) + " x " + dim("dims", i) + " = " +
              std::to_string(strides[i - 1]) + " B x " + std::to_string(dims[i]) + " = " +
              (fits ? std::to_string(strides[i - 1] * dims[i]) : std::string("more than 2^64")) +
              " B: dimension " + std::to_string(i + 1) + " would overlap dimension " +
              std::to_string(i) + ".");
    }
  }

  // boxDim: "must be non-zero and less than or equal to 256"; without interleave boxDim[0] x
  // elementSizeInBytes a multiple of 16 bytes; for the 16U*_ALIGN16B types boxDim[0] = 128.
  for (unsigned i = 0; i < n; ++i)
    if (box[i] == 0 || box[i] > 256)
      add(tensor_map_rule::box_dim_range,
          dim("box", i) + " = " + std::to_string(box[i]) + " is outside 1..256.");
  const std::uint64_t inner_bits = n >= 1 ? std::uint64_t{box[0]} * sbits : 0;
  if (type_ok && n >= 1 && no_interleave && inner_bits % 128 != 0)
    add(tensor_map_rule::box_inner_multiple_16,
        "box[0] x element size = " + std::to_string(box[0]) + " x " +
            tmap_detail::bits_as_bytes(sbits) + " = " + tmap_detail::bits_as_bytes(inner_bits) +
            " is not a multiple of 16 B.");
  if (n >= 1 && packed16 && box[0] != 128)
    add(tensor_map_rule::box_inner_packed,
        "box[0] = " + std::to_string(box[0]) + ", but " + to_string(type) + " needs 128.");

  // Swizzle (interleave paragraph): "When interleave is CU_TENSOR_MAP_INTERLEAVE_NONE and
  // swizzle is not CU_TENSOR_MAP_SWIZZLE_NONE, the bounding box inner dimension (boxDim[0] x
  // element size) must be less than or equal to the swizzle size" (32, 64, 128 for 128B*).
  const unsigned span = is_valid(swizzle) ? swizzle_span_bytes(swizzle) : 0;
  if (type_ok && n >= 1 && no_interleave && span != 0 && inner_bits > 8ull * span)
    add(tensor_map_rule::box_swizzle_span,
        "box[0] x element size = " + std::to_string(box[0]) + " x " +
            tmap_detail::bits_as_bytes(sbits) + " = " + tmap_detail::bits_as_bytes(inner_bits) +
            " exceeds the " + std::to_string(span) + " B span of swizzle " + to_string(swizzle) +
            " (use at most " + std::to_string(8ull * span / sbits) + " elements).");

  // elementStrides: "must be non-zero and less than or equal to 8". Without interleave "the
  // first element of this array is ignored" and the PTX ISA (5.5.3.2) says it must be 1:
  // cuprobe refuses another value rather than silently loading every element.
  for (unsigned i = 0; i < n; ++i)
    if (element_strides[i] == 0 || element_strides[i] > 8)
      add(tensor_map_rule::element_stride_range, dim("element_strides", i) + " = " +
                                                     std::to_string(element_strides[i]) +
                                                     " is outside 1..8.");
  if (n >= 1 && no_interleave && element_strides[0] != 1 && element_strides[0] <= 8)
    add(tensor_map_rule::element_stride_inner,
        "element_strides[0] = " + std::to_string(element_strides[0]) +
            ", but without interleave TMA ignores the stride of dimension 0 (it must be 1).");

  // "When interleave is CU_TENSOR_MAP_INTERLEAVE_32B, swizzle must be CU_TENSOR_MAP_SWIZZLE_32B."
  if (interleave == interleave_mode::b32 && swizzle != swizzle_mode::b32)
    add(tensor_map_rule::interleave_swizzle,
        "interleave 32B with swizzle " + to_string(swizzle) + "; it needs swizzle 32B.");
  // "tensorDataType of CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B requires interleave to be
  // CU_TENSOR_MAP_INTERLEAVE_NONE."
  if (type == element_type::u6x16_align16 && !no_interleave)
    add(tensor_map_rule::packed_interleave,
        "u6x16_align16 with interleave " + to_string(interleave) + "; it needs interleave none.");
  // Swizzles of the packed types: 16U6_ALIGN16B none/128B/128B_ATOM_32B (load and store),
  // 128B_ATOM_64B (store only); 16U4_ALIGN16B none/128B/128B_ATOM_32B (load only).
  const bool base_ok = swizzle == swizzle_mode::none || swizzle == swizzle_mode::b128 ||
                       swizzle == swizzle_mode::b128_atom32;
  if ((type == element_type::u6x16_align16 && !base_ok && swizzle != swizzle_mode::b128_atom64) ||
      (type == element_type::u4x16_align16 && !base_ok))
    add(tensor_map_rule::packed_swizzle,
        to_string(type) + " with swizzle " + to_string(swizzle) + "; it takes none, 128B, " +
            (type == element_type::u6x16_align16 ? "128B_atom32 or 128B_atom64 (stores)."
                                                 : "or 128B_atom32."));
  // Direction: 16U4_ALIGN16B is load-only (driver docs), 16U6_ALIGN16B with 128B_ATOM_64B is
  // store-only (driver docs), 128B_ATOM_32B_FLIP_8B is legal for loads only (PTX ISA 5.5.7).
  auto needs = [&](copy_direction d, const std::string& what) {
    if (direction != d)
      add(tensor_map_rule::direction, what + " is " + to_string(d) + ", but the spec says " +
                                          to_string(direction) + "; set direction to " +
                                          (d == copy_direction::load ? "load." : "store."));
  };
  if (type == element_type::u4x16_align16) needs(copy_direction::load, "u4x16_align16");
  if (type == element_type::u6x16_align16 && swizzle == swizzle_mode::b128_atom64)
    needs(copy_direction::store, "u6x16_align16 with swizzle 128B_atom64");
  if (swizzle == swizzle_mode::b128_atom32_flip8)
    needs(copy_direction::load, "swizzle 128B_atom32_flip8");

  // oobFill: "CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA can only be used when
  // tensorDataType represents a floating-point data type", and not with the packed types.
  if (oob_fill == oob_fill_mode::nan_request_zero_fma && type_ok &&
      !(element_info_of(type).is_float && !element_info_of(type).is_packed))
    add(tensor_map_rule::oob_fill_float,
        "OOB fill NaN with element type " + to_string(type) + ", which is not floating point.");

  // cuprobe: a box must land in the shared memory of one block.
  const std::uint64_t bytes = bytes_per_box();
  if (bytes > limits.smem_per_block)
    add(tensor_map_rule::box_smem,
        "one box is " + std::to_string(bytes) + " B of shared memory, above the " +
            std::to_string(limits.smem_per_block) + " B one block can allocate.");

  std::stable_sort(out.begin(), out.end(), [](const rule_violation& x, const rule_violation& y) {
    return unsigned(x.rule) < unsigned(y.rule);
  });
  return out;
}

inline void tensor_map_spec::check(const check_limits& limits) const {
  const auto v = violations(limits);
  if (v.empty()) return;
  std::string m = "tensor map refused before cuTensorMapEncodeTiled: " + std::to_string(v.size()) +
                  (v.size() == 1 ? " rule" : " rules") + " broken\n";
  for (const auto& x : v) {
    const auto& d = rule_info(x.rule);
    m += "  [" + std::string(d.name) + "] " + x.message + " Rule: " + d.limit + " (" + d.source +
         ").\n";
  }
  m += describe(*this);
  throw error("cuprobe: " + m);
}

}  // namespace cuprobe::hopper
