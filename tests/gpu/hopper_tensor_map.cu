// gpu tier: hopper/tensor_map.cuh. The driver's cuTensorMapEncodeTiled encodes what cuprobe's
// checker accepts (ranks 1..5, every Hopper swizzle, several element types, interleave) and
// refuses specs that break the driver's documented rules when the checker is bypassed, so the
// checker and the driver agree. Where cuprobe is stricter than the driver, or the form is newer
// than Hopper, the driver's answer is reported (MESSAGE), not asserted. No kernel is launched.
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuda_fp16.h>
#include <cuprobe/hopper/tensor_map.cuh>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

using namespace cuprobe::hopper;
using rule = tensor_map_rule;

// How a kernel takes a map: by value, in parameter space. Compiled, never launched here.
__global__ void hopper_tensor_map_takes_map(const __grid_constant__ CUtensorMap map,
                                            unsigned long long* out) {
  if (threadIdx.x == 0) *out = reinterpret_cast<unsigned long long>(&map);
}

// The usage example of tensor_map.cuh, as written there (compiled; never called).
void hopper_tensor_map_usage_example(dim3 grid, dim3 block, std::size_t smem) {
  using namespace cuprobe::hopper;
  cuprobe::device_buffer<__half> a(4096 * 1024);
  auto spec = tensor_map_spec::matrix(a.data(), 4096, 1024, 128, 64, swizzle_mode::b128);
  tensor_map tm = make_tensor_map(spec.with_l2_promotion(l2_promotion_mode::b256));
  unsigned long long* out = nullptr;
  hopper_tensor_map_takes_map<<<grid, block, smem>>>(tm.get(), out);
}

namespace {

std::string name_of(CUresult r) { return cuprobe::detail::describe(r); }

bool all_zero(const CUtensorMap& m) {
  for (auto q : m.opaque)
    if (q != 0) return false;
  return true;
}

std::string rules_of(const std::vector<rule_violation>& v) {
  std::string s;
  for (const auto& x : v) s += to_string(x.rule) + ": " + x.message + "\n";
  return s;
}

// 64 MiB of device memory: every spec below points into it.
const std::uint8_t* memory() {
  static cuprobe::device_buffer<std::uint8_t> m(64u << 20);
  return m.data();
}

// A legal spec of `type`, `rank` and `swz`: inner box = the swizzle span (16 B without), the
// tensor twice the box in dimension 0 and larger than the box elsewhere, dense strides.
tensor_map_spec legal(element_type type, unsigned rank, swizzle_mode swz) {
  const auto& e = element_info_of(type);
  const unsigned inner = swz == swizzle_mode::none ? 16 : swizzle_span_bytes(swz);
  tensor_map_spec s;
  s.type = type;
  s.address = memory();
  s.rank = rank;
  s.swizzle = swz;
  s.box = {inner * 8 / e.smem_bits, 2, 3, 4, 5};
  s.dims = {2ull * s.box[0], 3, 4, 5, 6};
  std::uint64_t stride = s.dims[0] * e.global_bits / 8;
  for (unsigned i = 0; i + 1 < rank; ++i) {
    s.strides[i] = stride;
    stride *= s.dims[i + 1];
  }
  return s;
}

}  // namespace

CUPROBE_GPU_TEST_CASE("the driver encodes legal specs: ranks 1..5, each swizzle, several types") {
  const element_type types[] = {element_type::u8,  element_type::u16,  element_type::s32,
                                element_type::u64, element_type::f16,  element_type::bf16,
                                element_type::f32, element_type::tf32, element_type::f64};
  const swizzle_mode swizzles[] = {swizzle_mode::none, swizzle_mode::b32, swizzle_mode::b64,
                                   swizzle_mode::b128};
  int encoded = 0;
  for (auto type : types)
    for (auto swz : swizzles)
      for (unsigned rank = 1; rank <= 5; ++rank) {
        auto s = legal(type, rank, swz).with_l2_promotion(l2_promotion_mode(rank % 4));
        if (element_info_of(type).is_float)
          s = s.with_oob_fill(oob_fill_mode::nan_request_zero_fma);
        INFO(describe(s));
        REQUIRE(s.violations().empty());
        try {
          const tensor_map t = make_tensor_map(s);
          CHECK(!all_zero(t.get()));
          CHECK(reinterpret_cast<std::uintptr_t>(&t.get()) % 64 == 0);
          ++encoded;
        } catch (const cuprobe::error& err) {
          FAIL_CHECK("the driver refused a spec cuprobe accepts: ", err.what());
        }
      }
  CHECK(encoded == 9 * 4 * 5);
}

CUPROBE_GPU_TEST_CASE("the driver encodes legal interleaved specs") {
  const auto* p = memory();
  auto il16 =
      tensor_map_spec::make(element_type::f16, p, {8, 16, 16, 4}, {16, 256, 4096}, {8, 8, 8, 2})
          .with_interleave(interleave_mode::b16);
  auto il32 = tensor_map_spec::make(element_type::f16, p, {16, 16, 16}, {32, 512}, {16, 8, 8})
                  .with_interleave(interleave_mode::b32)
                  .with_swizzle(swizzle_mode::b32);
  for (const auto& s : {il16, il32}) {
    INFO(describe(s));
    REQUIRE(s.violations().empty());
    CUtensorMap m{};
    const CUresult r = encode_tiled_unchecked(s, m);
    INFO("driver: ", name_of(r),
         " (if it refuses, the driver has an interleave rule its documentation does not state "
         "and cuprobe's checker does not know)");
    CHECK(r == CUDA_SUCCESS);
  }
}

CUPROBE_GPU_TEST_CASE("encoding is deterministic and depends on the spec") {
  const auto s = tensor_map_spec::matrix(reinterpret_cast<const float*>(memory()), 512, 256, 64, 32,
                                         swizzle_mode::b128);
  const tensor_map a = make_tensor_map(s);
  const tensor_map b = make_tensor_map(s);
  CHECK(std::memcmp(&a.get(), &b.get(), sizeof(CUtensorMap)) == 0);
  const tensor_map c = make_tensor_map(s.with_address(memory() + 4096));
  CHECK(std::memcmp(&a.get(), &c.get(), sizeof(CUtensorMap)) != 0);
  const tensor_map d = make_tensor_map(s.with_l2_promotion(l2_promotion_mode::b256));
  CHECK(std::memcmp(&a.get(), &d.get(), sizeof(CUtensorMap)) != 0);
  const CUtensorMap& by_conversion = a;  // what a kernel launch copies
  CHECK(&by_conversion == &a.get());
  MESSAGE(describe(a));
  // The kernel that takes a map by value exists in this program for this GPU (not launched).
  cudaFuncAttributes attr{};
  CHECK(cudaFuncGetAttributes(&attr, hopper_tensor_map_takes_map) == cudaSuccess);
}

CUPROBE_GPU_TEST_CASE("the driver refuses what the checker refuses (checker bypassed)") {
  const auto* p = memory();
  const auto good = tensor_map_spec::matrix(reinterpret_cast<const float*>(p), 256, 128, 16, 32);
  auto changed = [&good](auto f) {
    auto s = good;
    f(s);
    return s;
  };
  struct breach {
    const char* what;
    tensor_map_spec spec;
    rule broken;
  };
  const breach cases[] = {
      {"box[1] = 512", changed([](auto& s) { s.box[1] = 512; }), rule::box_dim_range},
      {"box[0] = 0", changed([](auto& s) { s.box[0] = 0; }), rule::box_dim_range},
      {"element stride 9", good.with_element_strides({1, 9}), rule::element_stride_range},
      {"stride 520 B (not a multiple of 16)", changed([](auto& s) { s.strides[0] = 520; }),
       rule::stride_multiple},
      {"address 8 B off", good.with_address(p + 8), rule::address_align},
      {"rank 0", changed([](auto& s) { s.rank = 0; }), rule::rank_range},
      {"rank 6", changed([](auto& s) { s.rank = 6; }), rule::rank_range},
      {"dims[1] = 0", changed([](auto& s) { s.dims[1] = 0; }), rule::global_dim_range},
      {"dims[0] = 2^32 + 1", changed([](auto& s) { s.dims[0] = (1ull << 32) + 1; }),
       rule::global_dim_range},
      {"stride 2^40", changed([](auto& s) { s.strides[0] = 1ull << 40; }), rule::stride_max},
      {"inner box 12 B", changed([](auto& s) { s.box[0] = 3; }), rule::box_inner_multiple_16},
      {"inner box 128 B with swizzle 64B", good.with_swizzle(swizzle_mode::b64),
       rule::box_swizzle_span},
      {"interleave with rank 2",
       tensor_map_spec::make(element_type::f16, p, {8, 16}, {16}, {8, 16})
           .with_interleave(interleave_mode::b16),
       rule::rank_interleave},
      {"NaN fill with u32",
       tensor_map_spec::matrix(reinterpret_cast<const std::uint32_t*>(p), 64, 64, 8, 32)
           .with_oob_fill(oob_fill_mode::nan_request_zero_fma),
       rule::oob_fill_float},
      {"swizzle value 7", good.with_swizzle(swizzle_mode(7)), rule::enum_value},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const auto v = c.spec.violations();
    INFO(rules_of(v));
    REQUIRE(!v.empty());
    CHECK(v[0].rule == c.broken);
    CHECK_THROWS_AS(make_tensor_map(c.spec), cuprobe::error);
    CUtensorMap m{};
    const CUresult r = encode_tiled_unchecked(c.spec, m);
    INFO("driver: ", name_of(r));
    CHECK(r != CUDA_SUCCESS);
  }
}

CUPROBE_GPU_TEST_CASE(
    "where cuprobe is stricter than the driver, the driver's answer is on record") {
  const auto* p = memory();
  const auto good = tensor_map_spec::matrix(reinterpret_cast<const float*>(p), 256, 128, 16, 32);
  auto overlap = good;
  overlap.strides[0] = 16;
  const struct {
    const char* what;
    tensor_map_spec spec;
    rule broken;
  } cases[] = {
      {"overlapping rows", overlap, rule::stride_overlap},
      {"element stride 2 in dimension 0", good.with_element_strides({2, 1}),
       rule::element_stride_inner},
      {"null address", good.with_address(nullptr), rule::address_nonnull},
      {"256 KiB box",
       tensor_map_spec::dense(reinterpret_cast<const float*>(p), {64, 256, 8}, {64, 256, 4}),
       rule::box_smem},
      // The driver docs ask for swizzle 32B with interleave 32B; driver 580.159 on the H200
      // encodes swizzle none anyway (seen in the first run of this test).
      {"interleave 32B with swizzle none",
       tensor_map_spec::make(element_type::f16, p, {16, 16, 16}, {32, 512}, {16, 8, 8})
           .with_interleave(interleave_mode::b32),
       rule::interleave_swizzle},
      {"flip8 swizzle without direction",
       tensor_map_spec::matrix(reinterpret_cast<const __half*>(p), 64, 64, 8, 64,
                               swizzle_mode::b128_atom32_flip8),
       rule::direction},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    const auto v = c.spec.violations();
    REQUIRE(v.size() == 1);
    CHECK(v[0].rule == c.broken);
    CUtensorMap m{};
    const CUresult r = encode_tiled_unchecked(c.spec, m);
    MESSAGE("cuprobe refuses '", c.what, "' (", to_string(c.broken), "); the driver answers ",
            name_of(r));
  }
}

CUPROBE_GPU_TEST_CASE("forms newer than Hopper: the driver's answer on this GPU is on record") {
  // Legal by the CUDA 13.0 docs; the PTX ISA introduces them for sm_100. Reported, not asserted.
  const auto* p = memory();
  const struct {
    const char* what;
    tensor_map_spec spec;
  } cases[] = {
      {"swizzle 128B_atom32", legal(element_type::f16, 2, swizzle_mode::b128_atom32)},
      {"swizzle 128B_atom32_flip8 (load)",
       legal(element_type::f16, 2, swizzle_mode::b128_atom32_flip8)
           .with_direction(copy_direction::load)},
      {"swizzle 128B_atom64", legal(element_type::f16, 2, swizzle_mode::b128_atom64)},
      {"u4x16_align8", legal(element_type::u4x16_align8, 2, swizzle_mode::none)},
      {"u4x16_align16 (load)",
       tensor_map_spec::make(element_type::u4x16_align16, p, {256, 4}, {128}, {128, 4})
           .with_direction(copy_direction::load)},
      {"u6x16_align16",
       tensor_map_spec::make(element_type::u6x16_align16, p, {256, 4}, {192}, {128, 4})},
  };
  for (const auto& c : cases) {
    INFO(c.what);
    INFO(rules_of(c.spec.violations()));
    CHECK(c.spec.violations().empty());
    CUtensorMap m{};
    const CUresult r = encode_tiled_unchecked(c.spec, m);
    MESSAGE("'", c.what, "': the driver answers ", name_of(r));
  }
}
