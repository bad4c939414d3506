// host tier: hopper/tensor_map_spec.cuh + tensor_map_rules.cuh (every rule of
// cuTensorMapEncodeTiled, checked without a GPU), the builders, the printer, and
// make_tensor_map's order (checker before driver).
//
// With -DCUPROBE_TENSOR_MAP_COMPILE_FAIL=1 this file is a compile-fail case instead (CTest runs
// nvcc on it and expects the sentence of element_type_of's static_assert).
#if defined(CUPROBE_TENSOR_MAP_COMPILE_FAIL)
#include <cuprobe/hopper/tensor_map_spec.cuh>
int main() {
  static bool b[64];
  auto s = cuprobe::hopper::tensor_map_spec::matrix(b, 8, 8, 8, 8);  // bool: no TMA type
  return static_cast<int>(s.rank);
}
#else
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuda_fp16.h>
#include <cuprobe/core/device_info.cuh>
#include <cuprobe/hopper/tensor_map.cuh>

#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace cuprobe::hopper;
using rule = tensor_map_rule;

namespace {

// Fake but well-aligned global addresses: the checker never dereferences them.
const void* at(std::uintptr_t a) { return reinterpret_cast<const void*>(a); }
const void* const base = at(0x7f0000000000);
template <class T>
const T* base_of() {
  return static_cast<const T*>(base);
}

// Limits fixed for the tests (not the machine's): sm_90's shared memory.
const check_limits limits{};

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::string rules_of(const std::vector<rule_violation>& v) {
  std::string s;
  for (const auto& x : v) s += to_string(x.rule) + ": " + x.message + "\n";
  return s;
}

// A legal 2-D f32 spec: 256 x 128 floats, box 32 x 16, every rule satisfied.
tensor_map_spec good() { return tensor_map_spec::matrix(base_of<float>(), 256, 128, 16, 32); }

struct breach {
  const char* what;
  tensor_map_spec spec;
  rule broken;
  std::vector<std::string> words;  // the value and the limit, as the message must say them
};

tensor_map_spec changed(tensor_map_spec s, void (*f)(tensor_map_spec&)) {
  f(s);
  return s;
}

// One spec per rule (some rules twice, for their 32-byte forms), each breaking exactly that rule.
std::vector<breach> breaches() {
  const auto u6 =
      tensor_map_spec::make(element_type::u6x16_align16, base, {256, 4}, {192}, {128, 4});
  const auto u4 =
      tensor_map_spec::make(element_type::u4x16_align16, base, {256, 4}, {128}, {128, 4})
          .with_direction(copy_direction::load);
  const auto il32 =
      tensor_map_spec::make(element_type::f16, base, {16, 16, 16}, {32, 512}, {16, 8, 8})
          .with_interleave(interleave_mode::b32)
          .with_swizzle(swizzle_mode::b32);
  return {
      {"element type out of range",
       changed(good(), [](auto& s) { s.type = element_type(16); }),
       rule::enum_value,
       {"element type 16", "0..15"}},
      {"swizzle out of range",
       changed(good(), [](auto& s) { s.swizzle = swizzle_mode(7); }),
       rule::enum_value,
       {"swizzle 7", "0..6"}},
      {"rank 0",
       changed(good(), [](auto& s) { s.rank = 0; }),
       rule::rank_range,
       {"rank = 0", "1..5"}},
      {"rank 6",
       tensor_map_spec::make(element_type::f32, base, {4, 4, 4, 4, 4, 4}, {16, 64, 256, 1024, 4096},
                             {4, 4, 4, 4, 4, 4}),
       rule::rank_range,
       {"rank = 6", "1..5"}},
      {"interleave with rank 2",
       tensor_map_spec::make(element_type::f16, base, {8, 16}, {16}, {8, 16})
           .with_interleave(interleave_mode::b16),
       rule::rank_interleave,
       {"rank = 2", "rank >= 3"}},
      {"null address", good().with_address(nullptr), rule::address_nonnull, {"null"}},
      {"address 8 B off",
       good().with_address(at(0x7f0000000008)),
       rule::address_align,
       {"0x7f0000000008", "16-byte"}},
      {"address 16 B off with interleave 32B",
       il32.with_address(at(0x7f0000000010)),
       rule::address_align,
       {"0x7f0000000010", "32-byte", "interleave 32B"}},
      {"address 16 B off with u6x16_align16",
       u6.with_address(at(0x7f0000000010)),
       rule::address_align,
       {"0x7f0000000010", "32-byte", "u6x16_align16"}},
      {"dims[1] = 0",
       changed(good(), [](auto& s) { s.dims[1] = 0; }),
       rule::global_dim_range,
       {"dims[1] = 0", "1..2^32"}},
      {"dims[1] = 2^32 + 1",
       changed(good(), [](auto& s) { s.dims[1] = (std::uint64_t{1} << 32) + 1; }),
       rule::global_dim_range,
       {"dims[1] = 4294967297", "2^32"}},
      {"u6x16_align16 dims[0] = 200",
       tensor_map_spec::make(element_type::u6x16_align16, base, {200, 4}, {192}, {128, 4}),
       rule::global_dim_packed,
       {"dims[0] = 200", "128"}},
      {"u4x16_align8 dims[0] = 129",
       tensor_map_spec::make(element_type::u4x16_align8, base, {129, 4}, {80}, {32, 4}),
       rule::global_dim_packed,
       {"dims[0] = 129", "multiple of 2"}},
      {"stride 1032 B",
       changed(good(), [](auto& s) { s.strides[0] = 1032; }),
       rule::stride_multiple,
       {"strides[0] = 1032", "16 B"}},
      {"stride 48 B with interleave 32B",
       changed(il32,
               [](auto& s) {
                 s.strides[0] = 48;
                 s.strides[1] = 768;
               }),
       rule::stride_multiple,
       {"strides[0] = 48", "32 B"}},
      {"stride 2^40",
       tensor_map_spec::make(element_type::f32, base, {64, 2}, {std::uint64_t{1} << 40}, {32, 2}),
       rule::stride_max,
       {"strides[0] = 1099511627776", "2^40"}},
      {"rows overlap",
       changed(good(), [](auto& s) { s.strides[0] = 256; }),
       rule::stride_overlap,
       {"strides[0] = 256", "128 x 4 B = 512 B"}},
      {"planes overlap",
       tensor_map_spec::make(element_type::f32, base, {64, 8, 4}, {256, 1024}, {32, 8, 4}),
       rule::stride_overlap,
       {"strides[1] = 1024", "256 B x 8 = 2048 B"}},
      {"box[1] = 257",
       changed(good(), [](auto& s) { s.box[1] = 257; }),
       rule::box_dim_range,
       {"box[1] = 257", "1..256"}},
      {"box[0] = 0",
       tensor_map_spec::make(element_type::f16, base, {64, 8}, {128}, {0, 8}),
       rule::box_dim_range,
       {"box[0] = 0", "1..256"}},
      {"inner box 12 B",
       changed(good(), [](auto& s) { s.box[0] = 3; }),
       rule::box_inner_multiple_16,
       {"3 x 4 B = 12 B", "16 B"}},
      {"u6x16_align16 box[0] = 64",
       changed(u6, [](auto& s) { s.box[0] = 64; }),
       rule::box_inner_packed,
       {"box[0] = 64", "128"}},
      {"inner box 256 B with swizzle 128B",
       tensor_map_spec::matrix(base_of<__half>(), 64, 256, 8, 128, swizzle_mode::b128),
       rule::box_swizzle_span,
       {"128 x 2 B = 256 B", "128 B span", "at most 64"}},
      {"inner box 128 B with swizzle 32B",
       good().with_swizzle(swizzle_mode::b32).with_address(base),
       rule::box_swizzle_span,
       {"32 x 4 B = 128 B", "32 B span"}},
      {"element stride 9",
       good().with_element_strides({1, 9}),
       rule::element_stride_range,
       {"element_strides[1] = 9", "1..8"}},
      {"element stride 0",
       good().with_element_strides({1, 0}),
       rule::element_stride_range,
       {"element_strides[1] = 0", "1..8"}},
      {"element stride 2 in dimension 0",
       good().with_element_strides({2, 1}),
       rule::element_stride_inner,
       {"element_strides[0] = 2", "must be 1"}},
      {"interleave 32B with swizzle 64B",
       il32.with_swizzle(swizzle_mode::b64),
       rule::interleave_swizzle,
       {"swizzle 64B", "swizzle 32B"}},
      {"u6x16_align16 with interleave 16B",
       tensor_map_spec::make(element_type::u6x16_align16, base, {256, 4, 2}, {192, 768},
                             {128, 4, 2})
           .with_interleave(interleave_mode::b16),
       rule::packed_interleave,
       {"interleave 16B", "interleave none"}},
      {"u6x16_align16 with swizzle 128B_atom32_flip8",
       u6.with_swizzle(swizzle_mode::b128_atom32_flip8).with_direction(copy_direction::load),
       rule::packed_swizzle,
       {"swizzle 128B_atom32_flip8", "none, 128B, 128B_atom32 or 128B_atom64"}},
      {"u4x16_align16 with swizzle 128B_atom64",
       u4.with_swizzle(swizzle_mode::b128_atom64),
       rule::packed_swizzle,
       {"swizzle 128B_atom64", "none, 128B, or 128B_atom32"}},
      {"u4x16_align16 for load and store",
       u4.with_direction(copy_direction::load_and_store),
       rule::direction,
       {"u4x16_align16 is load only", "set direction to load"}},
      {"u6x16_align16 with 128B_atom64 for loads",
       u6.with_swizzle(swizzle_mode::b128_atom64).with_direction(copy_direction::load),
       rule::direction,
       {"is store only", "set direction to store"}},
      {"flip8 swizzle for stores",
       tensor_map_spec::matrix(base_of<__half>(), 64, 64, 8, 64, swizzle_mode::b128_atom32_flip8)
           .with_direction(copy_direction::store),
       rule::direction,
       {"128B_atom32_flip8 is load only", "spec says store only"}},
      {"NaN fill with s32",
       tensor_map_spec::matrix(base_of<std::int32_t>(), 64, 64, 8, 32)
           .with_oob_fill(oob_fill_mode::nan_request_zero_fma),
       rule::oob_fill_float,
       {"s32", "not floating point"}},
      {"NaN fill with u4x16_align8",
       tensor_map_spec::make(element_type::u4x16_align8, base, {128, 4}, {64}, {32, 4})
           .with_oob_fill(oob_fill_mode::nan_request_zero_fma),
       rule::oob_fill_float,
       {"u4x16_align8"}},
      {"box of 256 KiB",
       tensor_map_spec::dense(base_of<float>(), {64, 256, 8}, {64, 256, 4}),
       rule::box_smem,
       {"one box is 262144 B", "232448 B"}},
  };
}

}  // namespace

TEST_CASE("the usage examples of the headers compile and are legal") {
  const __half* a = base_of<__half>();
  auto spec = tensor_map_spec::matrix(a, 4096, 1024, 128, 64, swizzle_mode::b128);
  CHECK(spec.violations(limits).empty());
  CHECK_NOTHROW(spec.check(limits));
  std::ostringstream os;
  os << spec;
  CHECK(contains(os.str(), "bytes per box     16384"));

  const float* p = base_of<float>();
  auto bad = tensor_map_spec::matrix(p, 1024, 1024, 64, 300);
  const auto v = bad.violations(limits);
  REQUIRE(v.size() == 1);
  CHECK(v[0].rule == rule::box_dim_range);
  CHECK(contains(v[0].message, "box[0] = 300"));
  CHECK_THROWS_AS(bad.check(limits), cuprobe::error);
}

TEST_CASE("each rule: a spec breaking exactly it is refused, naming the rule, value and limit") {
  std::set<rule> covered;
  for (const auto& b : breaches()) {
    INFO(b.what);
    const auto v = b.spec.violations(limits);
    INFO(rules_of(v));
    REQUIRE(v.size() == 1);
    CHECK(v[0].rule == b.broken);
    for (const auto& w : b.words) {
      INFO(w);
      CHECK(contains(v[0].message, w));
    }
    covered.insert(v[0].rule);
    try {
      b.spec.check(limits);
      FAIL("check() accepted a spec that breaks ", to_string(b.broken));
    } catch (const cuprobe::error& e) {
      const std::string m = e.what();
      CHECK(contains(m, "cuprobe: tensor map refused before cuTensorMapEncodeTiled: 1 rule"));
      CHECK(contains(m, "[" + to_string(b.broken) + "]"));
      CHECK(contains(m, v[0].message));
      CHECK(contains(m, rule_info(b.broken).limit));   // the limit, in the rule's words
      CHECK(contains(m, rule_info(b.broken).source));  // and where it is written
      CHECK(contains(m, "tensor map (tiled)\n"));      // the spec, printed
      CHECK(e.code() == 0);
    }
  }
  // Every rule of the table has its breaking spec above.
  for (const auto& d : rule_table) {
    INFO(d.name);
    CHECK(covered.count(d.rule) == 1);
  }
}

TEST_CASE("rule_table lists every rule once, in enum order, with a source") {
  for (unsigned i = 0; i < rule_table.size(); ++i) {
    CHECK(unsigned(rule_table[i].rule) == i);
    CHECK(std::string(rule_table[i].limit).size() > 5);
    CHECK(std::string(rule_table[i].source).size() > 5);
  }
  CHECK(to_string(rule::box_swizzle_span) == "box_swizzle_span");
}

TEST_CASE("valid specs are accepted for every element type, rank and swizzle") {
  int accepted = 0;
  for (unsigned t = 0; t < element_table.size(); ++t) {
    const auto type = element_type(t);
    const auto& e = element_info_of(type);
    const bool packed16 =
        type == element_type::u4x16_align16 || type == element_type::u6x16_align16;
    for (unsigned sw = 0; sw <= 6; ++sw) {
      const auto swz = swizzle_mode(sw);
      // Legal swizzles of the packed types (driver docs).
      if (type == element_type::u4x16_align16 &&
          !(swz == swizzle_mode::none || swz == swizzle_mode::b128 ||
            swz == swizzle_mode::b128_atom32))
        continue;
      if (type == element_type::u6x16_align16 &&
          !(swz == swizzle_mode::none || swz == swizzle_mode::b128 ||
            swz == swizzle_mode::b128_atom32 || swz == swizzle_mode::b128_atom64))
        continue;
      // Inner box: the swizzle span (16 B without swizzle); 128 elements for packed16.
      const unsigned inner_bytes = swz == swizzle_mode::none ? 16 : swizzle_span_bytes(swz);
      const std::uint32_t box0 = packed16 ? 128 : inner_bytes * 8 / e.smem_bits;
      const std::uint64_t dim0 = packed16 ? 256 : 2 * box0;
      const std::uint64_t row = dim0 * e.global_bits / 8;  // a multiple of 32 here
      for (unsigned rank = 1; rank <= 5; ++rank) {
        tensor_map_spec s;
        s.type = type;
        s.address = base;
        s.rank = rank;
        s.swizzle = swz;
        s.dims = {dim0, 3, 4, 5, 6};
        s.box = {box0, 2, 3, 4, 5};
        std::uint64_t stride = row;
        for (unsigned i = 0; i + 1 < rank; ++i) {
          s.strides[i] = stride;
          stride *= s.dims[i + 1];
        }
        if (type == element_type::u4x16_align16 || swz == swizzle_mode::b128_atom32_flip8)
          s.direction = copy_direction::load;
        if (type == element_type::u6x16_align16 && swz == swizzle_mode::b128_atom64)
          s.direction = copy_direction::store;
        if (e.is_float && !e.is_packed) s.oob_fill = oob_fill_mode::nan_request_zero_fma;
        s.l2_promotion = l2_promotion_mode(rank % 4);
        INFO(describe(s));
        const auto v = s.violations(limits);
        INFO(rules_of(v));
        CHECK(v.empty());
        ++accepted;
      }
    }
  }
  // 13 byte types x 7 swizzles + u4x16_align8 x 7 + u4x16_align16 x 3 + u6x16_align16 x 4, x 5
  // ranks
  CHECK(accepted == (14 * 7 + 3 + 4) * 5);
}

TEST_CASE("valid interleaved specs are accepted") {
  // NC/8HWC8 (16 B slices of 8 halves) and NC/16HWC16 (32 B slices, swizzle 32B), ranks 3..5.
  auto il16 =
      tensor_map_spec::make(element_type::f16, base, {8, 16, 16, 4}, {16, 256, 4096}, {8, 8, 8, 2})
          .with_interleave(interleave_mode::b16)
          .with_element_strides({2, 1, 1, 1});  // dimension 0's stride counts here
  CHECK(il16.violations(limits).empty());
  auto il32 = tensor_map_spec::make(element_type::f16, base, {16, 16, 16, 4, 2},
                                    {32, 512, 8192, 32768}, {16, 8, 8, 2, 2})
                  .with_interleave(interleave_mode::b32)
                  .with_swizzle(swizzle_mode::b32)
                  .with_address(at(0x7f0000000020));
  INFO(rules_of(il32.violations(limits)));
  CHECK(il32.violations(limits).empty());
  CHECK(il16.box_elements(0) == 4);  // with interleave, dimension 0's element stride applies
}

TEST_CASE("several broken rules are all reported, in rule order") {
  auto s = tensor_map_spec::matrix(static_cast<const float*>(at(0x7f0000000008)), 1024, 1000, 300,
                                   3, swizzle_mode::b32)
               .with_element_strides({2, 9});
  const auto v = s.violations(limits);
  REQUIRE(v.size() == 5);
  CHECK(v[0].rule == rule::address_align);
  CHECK(v[1].rule == rule::box_dim_range);
  CHECK(v[2].rule == rule::box_inner_multiple_16);
  CHECK(v[3].rule == rule::element_stride_range);
  CHECK(v[4].rule == rule::element_stride_inner);
  CHECK_THROWS_WITH_AS(s.check(limits), doctest::Contains("5 rules broken"), cuprobe::error);
}

TEST_CASE("check_limits: overlap can be allowed and the shared-memory limit is a parameter") {
  auto overlapping = changed(good(), [](auto& s) { s.strides[0] = 16; });  // a broadcast-like view
  CHECK(overlapping.violations(limits).size() == 1);
  check_limits lenient;
  lenient.allow_overlapping_strides = true;
  CHECK(overlapping.violations(lenient).empty());

  auto big = tensor_map_spec::matrix(base_of<float>(), 1024, 1024, 256, 64);  // 64 KiB box
  CHECK(big.bytes_per_box() == 65536);
  check_limits small;
  small.smem_per_block = 48 * 1024;
  REQUIRE(big.violations(small).size() == 1);
  CHECK(contains(big.violations(small)[0].message, "above the 49152 B"));
  CHECK(big.violations(limits).empty());
  CHECK(check_limits::sm90_smem_per_block_optin == 232448);
  if (cuprobe::device_count() == 0)
    CHECK(check_limits::current().smem_per_block == check_limits::sm90_smem_per_block_optin);
  else
    CHECK(check_limits::current().smem_per_block > 0);
}

TEST_CASE("builders: matrix, dense and make give the driver's layout") {
  auto m = tensor_map_spec::matrix(base_of<__nv_bfloat16>(), 300, 1000, 64, 32, swizzle_mode::b64);
  CHECK(m.type == element_type::bf16);
  CHECK(m.rank == 2);
  CHECK(m.dims[0] == 1000);  // columns are contiguous: dimension 0
  CHECK(m.dims[1] == 300);
  CHECK(m.strides[0] == 2000);
  CHECK(m.box[0] == 32);
  CHECK(m.box[1] == 64);
  CHECK(m.swizzle == swizzle_mode::b64);
  CHECK(m.violations(limits).empty());

  auto pitched = tensor_map_spec::strided_matrix(base_of<double>(), 10, 10, 128, 8, 8);
  CHECK(pitched.strides[0] == 128);
  CHECK(pitched.violations(limits).empty());

  auto d = tensor_map_spec::dense(base_of<std::uint16_t>(), {64, 3, 5, 7}, {64, 1, 2, 7});
  CHECK(d.type == element_type::u16);
  CHECK(d.rank == 4);
  CHECK(d.strides[0] == 128);
  CHECK(d.strides[1] == 384);
  CHECK(d.strides[2] == 1920);
  CHECK(d.violations(limits).empty());

  CHECK_THROWS_WITH_AS(tensor_map_spec::make(element_type::u8, base, {64, 2}, {}, {16, 2}),
                       doctest::Contains("rank - 1 strides"), cuprobe::error);
  CHECK_THROWS_AS(tensor_map_spec::dense(base_of<float>(), {64, 2}, {16}), cuprobe::error);

  CHECK(element_type_of<std::int8_t>() == element_type::u8);
  CHECK(element_type_of<std::int16_t>() == element_type::u16);
  CHECK(element_type_of<std::int32_t>() == element_type::s32);
  CHECK(element_type_of<unsigned>() == element_type::u32);
  CHECK(element_type_of<long long>() == element_type::s64);
  CHECK(element_type_of<unsigned long>() == element_type::u64);
  CHECK(element_type_of<const float>() == element_type::f32);
  CHECK(element_type_of<double>() == element_type::f64);
  CHECK(element_type_of<__half>() == element_type::f16);
  CHECK(element_type_of<__nv_fp8_e4m3>() == element_type::u8);

  auto w = good()
               .with_l2_promotion(l2_promotion_mode::b256)
               .with_oob_fill(oob_fill_mode::nan_request_zero_fma)
               .with_swizzle(swizzle_mode::b128)
               .with_direction(copy_direction::load);
  CHECK(w.l2_promotion == l2_promotion_mode::b256);
  CHECK(w.oob_fill == oob_fill_mode::nan_request_zero_fma);
  CHECK(w.direction == copy_direction::load);
  CHECK(w.violations(limits).empty());
}

TEST_CASE("element sizes, swizzle geometry and bytes per box") {
  CHECK(element_info_of(element_type::f64).global_bits == 64);
  CHECK(element_info_of(element_type::tf32).global_bits == 32);
  CHECK(element_info_of(element_type::u4x16_align8).global_bits == 4);
  CHECK(element_info_of(element_type::u4x16_align8).smem_bits == 4);
  CHECK(element_info_of(element_type::u4x16_align16).smem_bits == 8);
  CHECK(element_info_of(element_type::u6x16_align16).global_bits == 6);
  CHECK(std::string(element_info_of(element_type::f32_ftz).cu_name) ==
        "CU_TENSOR_MAP_DATA_TYPE_FLOAT32_FTZ");
  CHECK(swizzle_span_bytes(swizzle_mode::b32) == 32);
  CHECK(swizzle_span_bytes(swizzle_mode::b128_atom64) == 128);
  CHECK(swizzle_atom_bytes(swizzle_mode::b64) == 16);
  CHECK(swizzle_atom_bytes(swizzle_mode::b128_atom32_flip8) == 32);
  CHECK(smem_alignment(swizzle_mode::none) == 128);
  CHECK(smem_alignment(swizzle_mode::b32) == 256);
  CHECK(smem_alignment(swizzle_mode::b64) == 512);
  CHECK(smem_alignment(swizzle_mode::b128) == 1024);
  CHECK(smem_alignment(swizzle_mode::b128_atom32) == 1024);

  // Element strides: ceil(box / stride) elements per dimension; dimension 0's is ignored.
  auto s = tensor_map_spec::dense(base_of<float>(), {64, 64, 64}, {32, 7, 8})
               .with_element_strides({1, 2, 3});
  CHECK(s.box_elements(0) == 32);
  CHECK(s.box_elements(1) == 4);
  CHECK(s.box_elements(2) == 3);
  CHECK(s.bytes_per_box() == 32 * 4 * 3 * 4);
  // Packed: 128 u4 in shared memory with padding = 128 B per row.
  auto p = tensor_map_spec::make(element_type::u4x16_align16, base, {256, 4}, {128}, {128, 4});
  CHECK(p.bytes_per_box() == 512);
  auto q = tensor_map_spec::make(element_type::u4x16_align8, base, {256, 4}, {128}, {64, 4});
  CHECK(q.bytes_per_box() == 128);
}

TEST_CASE("the printer describes every field") {
  auto s = tensor_map_spec::matrix(base_of<__half>(), 4096, 1024, 128, 64, swizzle_mode::b128)
               .with_l2_promotion(l2_promotion_mode::b256);
  const std::string expected =
      "tensor map (tiled)\n"
      "  element type      f16 (CU_TENSOR_MAP_DATA_TYPE_FLOAT16, 2 B)\n"
      "  rank              2\n"
      "  global address    0x7f0000000000\n"
      "  global dims       1024 x 4096 elements, innermost first\n"
      "  global strides    2048 B (dims 1..)\n"
      "  box dims          64 x 128 elements\n"
      "  element strides   1 x 1\n"
      "  interleave        none\n"
      "  swizzle           128B (16 B atoms permuted within 128 B by the 128 B line)\n"
      "  L2 promotion      256B\n"
      "  OOB fill          none (zeros)\n"
      "  direction         load and store\n"
      "  bytes per box     16384 (64 x 128 elements), smem aligned to 1024 B\n";
  CHECK(describe(s) == expected);
  std::ostringstream os;
  os << s;
  CHECK(os.str() == expected);

  auto v = tensor_map_spec::make(element_type::u6x16_align16, base, {256}, {}, {128})
               .with_swizzle(swizzle_mode::b128_atom32_flip8)
               .with_oob_fill(oob_fill_mode::nan_request_zero_fma)
               .with_direction(copy_direction::load);
  const std::string d = describe(v);
  CHECK(contains(d,
                 "u6x16_align16 (CU_TENSOR_MAP_DATA_TYPE_16U6_ALIGN16B, 6 bit in global memory, "
                 "8 bit in shared memory)"));
  CHECK(contains(d, "global strides    none (rank 1)"));
  CHECK(contains(d,
                 "128B_atom32_flip8 (32 B atoms permuted within 128 B by the 128 B line, 8 B "
                 "halves swapped on alternate lines)"));
  CHECK(contains(d, "OOB fill          NaN, request zero FMA"));
  CHECK(contains(d, "direction         load only"));
  CHECK(contains(d, "bytes per box     128 (128 elements)"));

  CHECK(to_string(swizzle_mode(9)) == "swizzle_mode(9)");
  CHECK(to_string(element_type::tf32_ftz) == "tf32_ftz");
  CHECK(to_string(interleave_mode::b32) == "32B");
  CHECK(to_string(l2_promotion_mode::b64) == "64B");
}

TEST_CASE("make_tensor_map runs the checker before the driver") {
  // A broken spec is refused by the checker even where there is no driver at all.
  auto bad = changed(good(), [](auto& s) { s.box[1] = 1000; });
  CHECK_THROWS_WITH_AS(make_tensor_map(bad, limits),
                       doctest::Contains("refused before cuTensorMapEncodeTiled"), cuprobe::error);
  // A legal one reaches the driver: without one, the error says which call failed.
  if (cuprobe::device_count() == 0) {
    CHECK_THROWS_WITH_AS(make_tensor_map(good(), limits),
                         doctest::Contains("cuTensorMapEncodeTiled"), cuprobe::error);
  } else {
    const tensor_map t = make_tensor_map(good(), limits);  // encoding reads no memory
    CHECK(reinterpret_cast<std::uintptr_t>(&t.get()) % 64 == 0);
    CHECK(t.spec().box[0] == 32);
    CHECK(contains(describe(t), "CUtensorMap, 128 B, encoded by cuTensorMapEncodeTiled"));
  }
}
#endif
