// cuprobe/hopper/detail/tensor_map_spec_types.cuh: the types of cuprobe/hopper/tensor_map_spec.cuh
// (include that one: the members violations() and check() are defined in tensor_map_rules.cuh,
// which includes this header; neither includes the other back).
//
// tensor_map_spec: a tiled TMA tensor map as a value type, with every rule of
// cuTensorMapEncodeTiled checked on the host before the driver sees it, and a printer.
//
//   using namespace cuprobe::hopper;
//   auto spec = tensor_map_spec::matrix(a, 4096, 1024, 128, 64, swizzle_mode::b128);  // __half* a
//   for (const auto& v : spec.violations()) std::puts(v.message.c_str());   // nothing: it is legal
//   spec.check();                           // throws cuprobe::error naming the rule, value, limit
//   std::cout << spec;                      // dims, strides, box, swizzle, ..., bytes per box
//
// cuprobe/hopper/tensor_map.cuh turns a spec into a CUtensorMap (make_tensor_map); this header
// needs no driver and no GPU, so every rule is testable on the host.
//
// Choices:
// - Dimensions are listed innermost first, as the driver takes them (dims[0] is contiguous);
//   strides are in bytes and there are rank - 1 of them (dimension 0 has none).
// - The enums have the driver's values (static_asserts below), so encoding is a cast.
// - The rules are those of the CUDA 13.0 driver API documentation of cuTensorMapEncodeTiled
//   (the comment above it in cuda.h 13.0), plus a few cuprobe adds, marked "cuprobe" in
//   rule_table, where the driver would accept a spec that cannot mean what its author wrote;
//   docs/hopper-tensor-maps.md lists them all with their sources.
// - Sizes of the packed types: the PTX ISA (5.5.1.1) says they are packed in global memory and
//   expanded in shared memory, so a 16U4_ALIGN16B element is 4 bits in global memory and 8 bits
//   (with the padding) in shared memory. Rules on global memory (strides, overlap) use the global
//   size, rules on the box (inner extent, swizzle span, bytes per box) the shared-memory size.
//   The two agree for every legal packed box (boxDim[0] = 128).
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/hopper/smem.cuh"

// The 16- and 8-bit float types, declared only (the element-type trait below compares them; a
// program that has such data includes cuda_fp16.h, cuda_bf16.h or cuda_fp8.h itself).
struct __half;
struct __nv_bfloat16;
struct __nv_fp8_e4m3;
struct __nv_fp8_e5m2;

namespace cuprobe::hopper {

/// CUtensorMapDataType of CUDA 13.0, same values. The last three are packed sub-byte types.
// clang-format off
enum class element_type : std::uint8_t {
  u8, u16, u32, s32, u64, s64, f16, f32, f64, bf16, f32_ftz, tf32, tf32_ftz,
  u4x16_align8,   ///< 16U4_ALIGN8B: 16 x 4 bit packed in 8 B, no gaps (PTX .b4x16)
  u4x16_align16,  ///< 16U4_ALIGN16B: 16 x 4 bit in 8 B + 8 B gap in smem (PTX .b4x16_p64)
  u6x16_align16,  ///< 16U6_ALIGN16B: 16 x 6 bit in 12 B + 4 B gap in smem (PTX .b6x16_p32)
};
/// CUtensorMapInterleave: none, NC/8HWC8 (16 B slices), NC/16HWC16 (32 B slices).
enum class interleave_mode : std::uint8_t { none, b16, b32 };
/// CUtensorMapSwizzle: the shared-memory layout of the box (docs/hopper-tensor-maps.md).
enum class swizzle_mode : std::uint8_t {
  none, b32, b64, b128, b128_atom32, b128_atom32_flip8, b128_atom64,
};
/// CUtensorMapL2promotion: the L2 fill granularity of the box's requests.
enum class l2_promotion_mode : std::uint8_t { none, b64, b128, b256 };
/// CUtensorMapFloatOOBfill: out-of-bounds elements read as zero (none) or as a NaN that asks
/// the FMA units for zero (floating-point types only).
enum class oob_fill_mode : std::uint8_t { none, nan_request_zero_fma };
/// What the map is used for. Most forms do both; a few are legal for loads or stores only
/// (PTX ISA 5.5.7, cuTensorMapEncodeTiled docs), and cuprobe wants those said.
enum class copy_direction : std::uint8_t { load_and_store, load, store };

static_assert(int(element_type::u8) == CU_TENSOR_MAP_DATA_TYPE_UINT8 &&
              int(element_type::s32) == CU_TENSOR_MAP_DATA_TYPE_INT32 &&
              int(element_type::f16) == CU_TENSOR_MAP_DATA_TYPE_FLOAT16 &&
              int(element_type::bf16) == CU_TENSOR_MAP_DATA_TYPE_BFLOAT16 &&
              int(element_type::tf32_ftz) == CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ &&
              int(element_type::u4x16_align8) == CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B &&
              int(element_type::u6x16_align16) == CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B,
              "element_type must have the values of CUtensorMapDataType");
static_assert(int(interleave_mode::b32) == CU_TENSOR_MAP_INTERLEAVE_32B &&
              int(swizzle_mode::b128) == CU_TENSOR_MAP_SWIZZLE_128B &&
              int(swizzle_mode::b128_atom32_flip8) == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_32B_FLIP_8B &&
              int(swizzle_mode::b128_atom64) == CU_TENSOR_MAP_SWIZZLE_128B_ATOM_64B &&
              int(l2_promotion_mode::b256) == CU_TENSOR_MAP_L2_PROMOTION_L2_256B &&
              int(oob_fill_mode::nan_request_zero_fma) ==
                  CU_TENSOR_MAP_FLOAT_OOB_FILL_NAN_REQUEST_ZERO_FMA,
              "the mode enums must have the values of the CUtensorMap* enums");

/// Facts about one element type.
struct element_info {
  const char* name;     ///< cuprobe's name ("f16")
  const char* cu_name;  ///< the driver's ("CU_TENSOR_MAP_DATA_TYPE_FLOAT16")
  unsigned global_bits; ///< bits per element in global memory
  unsigned smem_bits;   ///< bits per element in shared memory (packed types gain padding)
  bool is_float;        ///< floating point (may use the NaN out-of-bounds fill)
  bool is_packed;       ///< one of the three packed sub-byte types
};

/// The facts of every element type, in element_type order.
inline constexpr std::array<element_info, 16> element_table{{
  {"u8", "CU_TENSOR_MAP_DATA_TYPE_UINT8", 8, 8, false, false},
  {"u16", "CU_TENSOR_MAP_DATA_TYPE_UINT16", 16, 16, false, false},
  {"u32", "CU_TENSOR_MAP_DATA_TYPE_UINT32", 32, 32, false, false},
  {"s32", "CU_TENSOR_MAP_DATA_TYPE_INT32", 32, 32, false, false},
  {"u64", "CU_TENSOR_MAP_DATA_TYPE_UINT64", 64, 64, false, false},
  {"s64", "CU_TENSOR_MAP_DATA_TYPE_INT64", 64, 64, false, false},
  {"f16", "CU_TENSOR_MAP_DATA_TYPE_FLOAT16", 16, 16, true, false},
  {"f32", "CU_TENSOR_MAP_DATA_TYPE_FLOAT32", 32, 32, true, false},
  {"f64", "CU_TENSOR_MAP_DATA_TYPE_FLOAT64", 64, 64, true, false},
  {"bf16", "CU_TENSOR_MAP_DATA_TYPE_BFLOAT16", 16, 16, true, false},
  {"f32_ftz", "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ", 32, 32, true, false},
  {"tf32", "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32", 32, 32, true, false},
  {"tf32_ftz", "CU_TENSOR_MAP_DATA_TYPE_TFLOAT32_FTZ", 32, 32, true, false},
  {"u4x16_align8", "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN8B", 4, 4, false, true},
  {"u4x16_align16", "CU_TENSOR_MAP_DATA_TYPE_16U4_ALIGN16B", 4, 8, false, true},
  {"u6x16_align16", "CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B", 6, 8, false, true},
}};
// clang-format on

/// Whether the value is one the enum defines (an integer cast to the enum may be none).
///@{
inline constexpr bool is_valid(element_type t) { return unsigned(t) < element_table.size(); }
inline constexpr bool is_valid(interleave_mode m) { return unsigned(m) <= 2; }
inline constexpr bool is_valid(swizzle_mode m) { return unsigned(m) <= 6; }
inline constexpr bool is_valid(l2_promotion_mode m) { return unsigned(m) <= 3; }
inline constexpr bool is_valid(oob_fill_mode m) { return unsigned(m) <= 1; }
inline constexpr bool is_valid(copy_direction d) { return unsigned(d) <= 2; }
///@}

/// The facts of `t`; `t` must be valid.
inline constexpr const element_info& element_info_of(element_type t) {
  return element_table[unsigned(t)];
}

/// Bytes of one row a swizzle permutes within (0 for none): 32, 64 or 128.
inline constexpr unsigned swizzle_span_bytes(swizzle_mode s) {
  return s == swizzle_mode::none  ? 0
         : s == swizzle_mode::b32 ? 32
         : s == swizzle_mode::b64 ? 64
                                  : 128;
}
/// Bytes kept together while swizzling (the atom): 16, or 32/64 for the 128B atom variants.
inline constexpr unsigned swizzle_atom_bytes(swizzle_mode s) {
  return s == swizzle_mode::none                                                  ? 0
         : s == swizzle_mode::b128_atom32 || s == swizzle_mode::b128_atom32_flip8 ? 32
         : s == swizzle_mode::b128_atom64                                         ? 64
                                                                                  : 16;
}
/// Shared-memory alignment of a box so that the swizzle pattern starts at its base (PTX ISA
/// 5.5.7: 256 B for 32B, 512 B for 64B, 1024 B for 128B); 128 B, TMA's minimum, without swizzle.
/// The constants are hopper/smem.cuh's.
inline constexpr unsigned smem_alignment(swizzle_mode s) {
  const unsigned span = swizzle_span_bytes(s);
  return unsigned(span == 0    ? tma_alignment
                  : span == 32 ? swizzle_32b_alignment
                  : span == 64 ? swizzle_64b_alignment
                               : swizzle_128b_alignment);
}

/// The element_type of a C++ type: integers by size and signedness (no 8- or 16-bit signed TMA
/// type exists; the copy is bitwise, so int8/int16 map to u8/u16), float, double, __half,
/// __nv_bfloat16, and the fp8 types as u8.
template <class T>
constexpr element_type element_type_of() {
  using U = std::remove_cv_t<T>;
  if constexpr (std::is_same_v<U, float>)
    return element_type::f32;
  else if constexpr (std::is_same_v<U, double>)
    return element_type::f64;
  else if constexpr (std::is_same_v<U, __half>)
    return element_type::f16;
  else if constexpr (std::is_same_v<U, __nv_bfloat16>)
    return element_type::bf16;
  else if constexpr (std::is_same_v<U, __nv_fp8_e4m3> || std::is_same_v<U, __nv_fp8_e5m2>)
    return element_type::u8;
  else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool> && sizeof(U) <= 2)
    return sizeof(U) == 1 ? element_type::u8 : element_type::u16;
  else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool> && sizeof(U) == 4)
    return std::is_signed_v<U> ? element_type::s32 : element_type::u32;
  else if constexpr (std::is_integral_v<U> && !std::is_same_v<U, bool> && sizeof(U) == 8)
    return std::is_signed_v<U> ? element_type::s64 : element_type::u64;
  else {
    static_assert(sizeof(U) == 0,
                  "cuprobe::hopper: this C++ type has no TMA element type; TMA copies integers "
                  "of 1, 2, 4 or 8 bytes, float, double, __half, __nv_bfloat16 and fp8 (as u8); "
                  "name the element_type yourself with tensor_map_spec::make()");
    return element_type::u8;
  }
}

/// Every rule the checker enforces; rule_table says where each comes from.
// clang-format off
enum class tensor_map_rule : std::uint8_t {
  enum_value, rank_range, rank_interleave, address_nonnull, address_align, global_dim_range,
  global_dim_packed, stride_multiple, stride_max, stride_overlap, box_dim_range,
  box_inner_multiple_16, box_inner_packed, box_swizzle_span, element_stride_range,
  element_stride_inner, interleave_swizzle, packed_interleave, packed_swizzle, direction,
  oob_fill_float, box_smem,
};
// clang-format on

/// One row of rule_table: a rule, its name, its limit in words and where it is written.
struct rule_description {
  tensor_map_rule rule;  ///< the rule
  const char* name;      ///< "box_dim_range"
  const char* limit;     ///< the rule in a few words
  const char* source;    ///< where it is written
};

// clang-format off
/// The source of the rules the driver documents.
inline constexpr const char* driver_doc = "cuTensorMapEncodeTiled docs, CUDA 13.0 driver API and cuda.h";
/// Every rule with its name, limit and source, in tensor_map_rule order.
inline constexpr std::array<rule_description, 22> rule_table{{
  {tensor_map_rule::enum_value, "enum_value", "every enum holds a value CUDA 13.0 defines", driver_doc},
  {tensor_map_rule::rank_range, "rank_range", "1 <= rank <= 5", driver_doc},
  {tensor_map_rule::rank_interleave, "rank_interleave", "rank >= 3 with interleave", driver_doc},
  {tensor_map_rule::address_nonnull, "address_nonnull", "global address not null", "cuprobe"},
  {tensor_map_rule::address_align, "address_align", "address 16 B aligned; 32 B with interleave 32B or a 16U*_ALIGN16B type", driver_doc},
  {tensor_map_rule::global_dim_range, "global_dim_range", "1 <= dims[i] <= 2^32", driver_doc},
  {tensor_map_rule::global_dim_packed, "global_dim_packed", "dims[0] % 128 == 0 for 16U*_ALIGN16B, % 2 == 0 for 16U4_ALIGN8B", driver_doc},
  {tensor_map_rule::stride_multiple, "stride_multiple", "strides % 16 == 0; % 32 with interleave 32B or a 16U*_ALIGN16B type", driver_doc},
  {tensor_map_rule::stride_max, "stride_max", "strides < 2^40", driver_doc},
  {tensor_map_rule::stride_overlap, "stride_overlap", "strides[0] >= dims[0] x element size, strides[i] >= strides[i-1] x dims[i]", "cuprobe, after the stride pseudo-code of the driver docs (check_limits::allow_overlapping_strides lifts it)"},
  {tensor_map_rule::box_dim_range, "box_dim_range", "1 <= box[i] <= 256", driver_doc},
  {tensor_map_rule::box_inner_multiple_16, "box_inner_multiple_16", "box[0] x element size % 16 B == 0 (without interleave)", driver_doc},
  {tensor_map_rule::box_inner_packed, "box_inner_packed", "box[0] == 128 for 16U*_ALIGN16B", driver_doc},
  {tensor_map_rule::box_swizzle_span, "box_swizzle_span", "box[0] x element size <= swizzle span, 32/64/128 B (without interleave)", driver_doc},
  {tensor_map_rule::element_stride_range, "element_stride_range", "1 <= element_strides[i] <= 8", driver_doc},
  {tensor_map_rule::element_stride_inner, "element_stride_inner", "element_strides[0] == 1 without interleave (the driver ignores it)", "cuprobe, after PTX ISA 5.5.3.2 (traversal stride)"},
  {tensor_map_rule::interleave_swizzle, "interleave_swizzle", "interleave 32B needs swizzle 32B", driver_doc},
  {tensor_map_rule::packed_interleave, "packed_interleave", "16U6_ALIGN16B needs interleave none", driver_doc},
  {tensor_map_rule::packed_swizzle, "packed_swizzle", "16U6_ALIGN16B: swizzle none/128B/128B_ATOM_32B/128B_ATOM_64B; 16U4_ALIGN16B: none/128B/128B_ATOM_32B", driver_doc},
  {tensor_map_rule::direction, "direction", "load-only or store-only forms say so: 16U4_ALIGN16B and 128B_ATOM_32B_FLIP_8B load, 16U6_ALIGN16B with 128B_ATOM_64B store", "cuprobe, after the driver docs and PTX ISA 5.5.7"},
  {tensor_map_rule::oob_fill_float, "oob_fill_float", "NaN fill only for floating-point, non-packed types", driver_doc},
  {tensor_map_rule::box_smem, "box_smem", "bytes per box <= shared memory a block can allocate", "cuprobe (a box must land in one block's shared memory)"},
}};
// clang-format on

/// The row of rule_table that describes `r`.
inline constexpr const rule_description& rule_info(tensor_map_rule r) {
  return rule_table[unsigned(r)];
}
/// The rule's name ("box_dim_range").
inline std::string to_string(tensor_map_rule r) { return rule_info(r).name; }

/// One broken rule: which, and a sentence with the value and the limit.
struct rule_violation {
  tensor_map_rule rule;  ///< the broken rule
  std::string message;   ///< what is wrong, with the value and the limit
};

/// Limits that depend on the device or on the user's intent.
struct check_limits {
  /// sharedMemPerBlockOptin of sm_90 (H100, H200): 227 KiB.
  static constexpr std::size_t sm90_smem_per_block_optin = 232448;
  /// Shared memory one block can allocate (after opt-in); one box must fit in it.
  std::size_t smem_per_block = sm90_smem_per_block_optin;
  /// Accept dimensions that overlap in memory (the driver does; a broadcast view, for example).
  bool allow_overlapping_strides = false;

  /// The limits of device `ordinal` (its opt-in shared memory per block).
  static check_limits for_device(int ordinal) {
    int v = 0;
    CUPROBE_CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlockOptin, ordinal));
    check_limits l;
    l.smem_per_block = static_cast<std::size_t>(v);
    return l;
  }
  /// The current device's limits when a GPU is visible; otherwise sm_90's (no GPU to ask).
  static check_limits current() {
    if (device_count() == 0) return check_limits{};
    int dev = 0;
    CUPROBE_CHECK(cudaGetDevice(&dev));
    return for_device(dev);
  }
};

/// A tiled tensor map before encoding: what cuTensorMapEncodeTiled takes, as a value.
struct tensor_map_spec {
  element_type type = element_type::f32;   ///< the element type
  std::uint32_t rank = 0;                  ///< 1..5
  const void* address = nullptr;           ///< global address of element (0, ..., 0)
  std::array<std::uint64_t, 5> dims{};     ///< elements per dimension, innermost first
  std::array<std::uint64_t, 4> strides{};  ///< bytes; strides[i] belongs to dims[i + 1]
  std::array<std::uint32_t, 5> box{};      ///< box extent per dimension (elements)
  std::array<std::uint32_t, 5> element_strides{1, 1, 1, 1, 1};  ///< traversal step per dimension
  interleave_mode interleave = interleave_mode::none;           ///< the interleaved layout
  swizzle_mode swizzle = swizzle_mode::none;                    ///< the swizzle of the box
  l2_promotion_mode l2_promotion = l2_promotion_mode::none;     ///< the L2 fill granularity
  oob_fill_mode oob_fill = oob_fill_mode::none;                 ///< what out-of-bounds reads give
  copy_direction direction = copy_direction::load_and_store;    ///< what the map is used for

  /// Any tensor: dims innermost first, strides in bytes (rank - 1 of them), box per dimension.
  /// Throws cuprobe::error when the lists disagree in length. Ranks above 5 are kept, so that
  /// check() names them.
  static tensor_map_spec make(element_type t, const void* base,
                              std::initializer_list<std::uint64_t> dims,
                              std::initializer_list<std::uint64_t> strides_bytes,
                              std::initializer_list<std::uint32_t> box) {
    require(
        dims.size() >= 1 && strides_bytes.size() + 1 == dims.size() && box.size() == dims.size(),
        "tensor_map_spec::make takes rank dims, rank - 1 strides and rank box extents; got " +
            std::to_string(dims.size()) + " dims, " + std::to_string(strides_bytes.size()) +
            " strides and " + std::to_string(box.size()) + " box extents.");
    tensor_map_spec s;
    s.type = t;
    s.address = base;
    s.rank = static_cast<std::uint32_t>(dims.size());
    std::copy_n(dims.begin(), std::min<std::size_t>(dims.size(), 5), s.dims.begin());
    std::copy_n(strides_bytes.begin(), std::min<std::size_t>(strides_bytes.size(), 4),
                s.strides.begin());
    std::copy_n(box.begin(), std::min<std::size_t>(box.size(), 5), s.box.begin());
    return s;
  }
  /// A dense tensor of T (no padding): strides follow from the dims.
  template <class T>
  static tensor_map_spec dense(const T* base, std::initializer_list<std::uint64_t> dims,
                               std::initializer_list<std::uint32_t> box,
                               swizzle_mode s = swizzle_mode::none) {
    require(dims.size() >= 1 && box.size() == dims.size(),
            "tensor_map_spec::dense takes as many box extents as dims; got " +
                std::to_string(dims.size()) + " dims and " + std::to_string(box.size()) +
                " box extents.");
    tensor_map_spec r;
    r.type = element_type_of<T>();
    r.address = base;
    r.rank = static_cast<std::uint32_t>(dims.size());
    std::copy_n(dims.begin(), std::min<std::size_t>(dims.size(), 5), r.dims.begin());
    std::copy_n(box.begin(), std::min<std::size_t>(box.size(), 5), r.box.begin());
    std::uint64_t stride = sizeof(T);
    for (unsigned i = 0; i + 1 < r.stored_rank() && i < 4; ++i) r.strides[i] = stride *= r.dims[i];
    r.swizzle = s;
    return r;
  }
  /// A row-major rows x cols matrix of T whose rows are `row_pitch_bytes` apart, read in boxes
  /// of box_rows x box_cols.
  template <class T>
  static tensor_map_spec strided_matrix(const T* base, std::uint64_t rows, std::uint64_t cols,
                                        std::uint64_t row_pitch_bytes, std::uint32_t box_rows,
                                        std::uint32_t box_cols,
                                        swizzle_mode s = swizzle_mode::none) {
    tensor_map_spec r =
        make(element_type_of<T>(), base, {cols, rows}, {row_pitch_bytes}, {box_cols, box_rows});
    r.swizzle = s;
    return r;
  }
  /// A dense row-major rows x cols matrix of T, read in boxes of box_rows x box_cols.
  template <class T>
  static tensor_map_spec matrix(const T* base, std::uint64_t rows, std::uint64_t cols,
                                std::uint32_t box_rows, std::uint32_t box_cols,
                                swizzle_mode s = swizzle_mode::none) {
    return strided_matrix(base, rows, cols, cols * sizeof(T), box_rows, box_cols, s);
  }

  /// Copies with one field changed, for one-line specs.
  ///@{
  tensor_map_spec with_swizzle(swizzle_mode m) const {
    auto c = *this;
    c.swizzle = m;
    return c;
  }
  tensor_map_spec with_interleave(interleave_mode m) const {
    auto c = *this;
    c.interleave = m;
    return c;
  }
  tensor_map_spec with_l2_promotion(l2_promotion_mode m) const {
    auto c = *this;
    c.l2_promotion = m;
    return c;
  }
  tensor_map_spec with_oob_fill(oob_fill_mode m) const {
    auto c = *this;
    c.oob_fill = m;
    return c;
  }
  tensor_map_spec with_direction(copy_direction d) const {
    auto c = *this;
    c.direction = d;
    return c;
  }
  tensor_map_spec with_address(const void* p) const {
    auto c = *this;
    c.address = p;
    return c;
  }
  tensor_map_spec with_element_strides(std::initializer_list<std::uint32_t> e) const {
    auto c = *this;
    std::copy_n(e.begin(), std::min<std::size_t>(e.size(), 5), c.element_strides.begin());
    return c;
  }
  ///@}

  /// Dimensions that the arrays hold (rank, at most 5).
  unsigned stored_rank() const { return std::min<std::uint32_t>(rank, 5); }
  /// Elements the box brings along dimension i: ceil(box / element stride), except dimension 0
  /// without interleave, whose element stride TMA ignores (driver docs, elementStrides).
  std::uint64_t box_elements(unsigned i) const {
    if (i == 0 && interleave == interleave_mode::none) return box[0];
    const std::uint32_t e = element_strides[i] ? element_strides[i] : 1;
    return (box[i] + e - 1) / e;
  }
  /// Shared-memory bytes one box fills; 0 when the element type is not valid.
  std::uint64_t bytes_per_box() const {
    if (!is_valid(type)) return 0;
    std::uint64_t n = 1;
    for (unsigned i = 0; i < stored_rank(); ++i) n *= box_elements(i);
    return (n * element_info_of(type).smem_bits + 7) / 8;
  }
  /// Shared-memory alignment the box needs (smem_alignment of its swizzle).
  unsigned smem_alignment() const { return hopper::smem_alignment(swizzle); }

  /// Every broken rule, in rule_table order (empty: the driver should accept the spec).
  std::vector<rule_violation> violations(
      const check_limits& limits = check_limits::current()) const;
  /// Throws cuprobe::error naming every broken rule, its value and its limit.
  void check(const check_limits& limits = check_limits::current()) const;
};

/// The value's name, for messages and the printer ("f16", "128B", ...; "swizzle_mode(9)" for a
/// value the enum does not define).
///@{
inline std::string to_string(element_type t) {
  return is_valid(t) ? element_info_of(t).name : "element_type(" + std::to_string(int(t)) + ")";
}
inline std::string to_string(interleave_mode m) {
  static constexpr const char* n[] = {"none", "16B", "32B"};
  return is_valid(m) ? n[int(m)] : "interleave_mode(" + std::to_string(int(m)) + ")";
}
inline std::string to_string(swizzle_mode m) {
  static constexpr const char* n[] = {
      "none", "32B", "64B", "128B", "128B_atom32", "128B_atom32_flip8", "128B_atom64"};
  return is_valid(m) ? n[int(m)] : "swizzle_mode(" + std::to_string(int(m)) + ")";
}
inline std::string to_string(l2_promotion_mode m) {
  static constexpr const char* n[] = {"none", "64B", "128B", "256B"};
  return is_valid(m) ? n[int(m)] : "l2_promotion_mode(" + std::to_string(int(m)) + ")";
}
inline std::string to_string(oob_fill_mode m) {
  static constexpr const char* n[] = {"none (zeros)", "NaN, request zero FMA"};
  return is_valid(m) ? n[int(m)] : "oob_fill_mode(" + std::to_string(int(m)) + ")";
}
inline std::string to_string(copy_direction d) {
  static constexpr const char* n[] = {"load and store", "load only", "store only"};
  return is_valid(d) ? n[int(d)] : "copy_direction(" + std::to_string(int(d)) + ")";
}
///@}

namespace tmap_detail {
inline std::string hex(const void* p) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx",
                static_cast<unsigned long long>(reinterpret_cast<std::uintptr_t>(p)));
  return b;
}
template <class A>
std::string joined(const A& a, unsigned n, const char* sep = " x ") {
  std::string s;
  for (unsigned i = 0; i < n; ++i) s += (i ? sep : "") + std::to_string(a[i]);
  return s;
}
inline std::string element_size(element_type t) {
  if (!is_valid(t)) return "unknown size";
  const auto& e = element_info_of(t);
  if (e.global_bits % 8 == 0) return std::to_string(e.global_bits / 8) + " B";
  return std::to_string(e.global_bits) + " bit in global memory, " + std::to_string(e.smem_bits) +
         " bit in shared memory";
}
inline std::string swizzle_layout(swizzle_mode s) {
  if (s == swizzle_mode::none) return "rows land as in global memory";
  if (!is_valid(s)) return "not a swizzle of CUDA 13.0";
  std::string r = std::to_string(swizzle_atom_bytes(s)) + " B atoms permuted within " +
                  std::to_string(swizzle_span_bytes(s)) + " B by the 128 B line";
  if (s == swizzle_mode::b128_atom32_flip8) r += ", 8 B halves swapped on alternate lines";
  return r;
}
}  // namespace tmap_detail

/// A readable multi-line description (ends with a newline).
inline std::string describe(const tensor_map_spec& s) {
  const unsigned n = s.stored_rank();
  std::string r = "tensor map (tiled)\n";
  auto line = [&r](const char* k, const std::string& v) {
    r += "  ";
    r += k;
    r.append(18 - std::string(k).size(), ' ');
    r += v + "\n";
  };
  line("element type", to_string(s.type) + " (" +
                           (is_valid(s.type) ? element_info_of(s.type).cu_name : "?") + ", " +
                           tmap_detail::element_size(s.type) + ")");
  line("rank", std::to_string(s.rank));
  line("global address", tmap_detail::hex(s.address));
  line("global dims", tmap_detail::joined(s.dims, n) + " elements, innermost first");
  line("global strides", n > 1 ? tmap_detail::joined(s.strides, n - 1, ", ") + " B (dims 1..)"
                               : std::string("none (rank 1)"));
  line("box dims", tmap_detail::joined(s.box, n) + " elements");
  line("element strides", tmap_detail::joined(s.element_strides, n));
  line("interleave", to_string(s.interleave));
  line("swizzle", to_string(s.swizzle) + " (" + tmap_detail::swizzle_layout(s.swizzle) + ")");
  line("L2 promotion", to_string(s.l2_promotion));
  line("OOB fill", to_string(s.oob_fill));
  line("direction", to_string(s.direction));
  std::string per_dim;
  for (unsigned i = 0; i < n; ++i) per_dim += (i ? " x " : "") + std::to_string(s.box_elements(i));
  line("bytes per box", std::to_string(s.bytes_per_box()) + " (" + per_dim +
                            " elements), smem aligned to " + std::to_string(s.smem_alignment()) +
                            " B");
  return r;
}
/// Streams describe(s) (a template on the stream, so that <ostream> is the caller's include).
template <class OStream>
OStream& operator<<(OStream& os, const tensor_map_spec& s) {
  os << describe(s);
  return os;
}

}  // namespace cuprobe::hopper
