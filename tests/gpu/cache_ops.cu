// gpu tier: ptx/cache.cuh. Every load operator and every store operator moves every width
// (1-, 2-, 4-, 8-byte scalars, 2- and 4-wide vectors up to 16 bytes) bit-exactly: random input
// bytes go through ld<Op> (or st<Op>) into a poisoned output, which must then equal the input
// where it was written and still hold the poison everywhere else.
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/ptx/cache.cuh>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace cache = cuprobe::ptx::cache;

// An operator defined outside the library (the extension macro), tested like the others.
struct user_nc_evict_last_L2_128B {
  static constexpr const char* name = "nc.L1::evict_last.L2::128B";
  static constexpr int min_sm = 750;
};
CUPROBE_PTX_DEFINE_LOAD(user_nc_evict_last_L2_128B, "ld.global.nc.L1::evict_last.L2::128B")

namespace {

template <class... Ts>
struct types {};
using all_types = types<std::int8_t, std::uint8_t, std::int16_t, std::uint16_t, std::int32_t,
                        std::uint32_t, std::int64_t, std::uint64_t, float, double, char4, short4,
                        int2, uint2, float2, int4, uint4, float4, double2, longlong2, ulonglong2>;
constexpr std::size_t type_count = 21;
constexpr std::size_t n = 1000;  // elements of each type; not a multiple of the block

/// One arena of bytes holding n elements of each type, each array 16-byte aligned.
struct arena {
  const unsigned char* in;
  unsigned char* out;
  std::size_t offset[type_count];
  std::size_t bytes;
};

template <class... Ts>
constexpr std::array<std::size_t, sizeof...(Ts)> sizes_of(types<Ts...>) {
  return {sizeof(Ts)...};
}
constexpr auto sizes = sizes_of(all_types{});
static_assert(sizes.size() == type_count);

arena layout() {
  arena a{};
  std::size_t at = 0;
  for (std::size_t k = 0; k < type_count; ++k) {
    a.offset[k] = at;
    at += (n * sizes[k] + 16 + 15) / 16 * 16;  // at least 16 bytes of untouched gap
  }
  a.bytes = at;
  return a;
}

template <class Op, bool Store, class T>
__device__ void move_one(const arena& a, std::size_t k) {
  const T* in = reinterpret_cast<const T*>(a.in + a.offset[k]);
  T* out = reinterpret_cast<T*>(a.out + a.offset[k]);
  const std::size_t i = blockIdx.x * blockDim.x + threadIdx.x;  // one element per thread
  if (i >= n) return;
  if constexpr (Store)
    cuprobe::ptx::st<Op>(out + i, in[i]);
  else
    out[i] = cuprobe::ptx::ld<Op>(in + i);
}

template <class Op, bool Store, class... Ts, std::size_t... K>
__device__ void move_all(const arena& a, types<Ts...>, std::index_sequence<K...>) {
  (move_one<Op, Store, Ts>(a, K), ...);
}

template <class Op, bool Store>
__global__ void move_kernel(arena a) {
  move_all<Op, Store>(a, all_types{}, std::make_index_sequence<type_count>{});
}

using move_fn = void (*)(arena);

/// Runs one move kernel over every type; returns "" or what went wrong.
std::string round_trip(move_fn kernel, const std::string& what, std::uint64_t seed) {
  arena a = layout();
  std::vector<unsigned char> in(a.bytes);
  for (std::size_t w = 0; w < a.bytes / 4; ++w) {
    const auto v = cuprobe::host_random<std::uint32_t>(seed, w, 0u, 0xFFFFFFFFu);
    std::memcpy(&in[4 * w], &v, 4);
  }
  cuprobe::device_buffer<unsigned char> din(a.bytes), dout(a.bytes);
  din.upload(in);
  dout.poison();
  a.in = din.data();
  a.out = dout.data();
  kernel<<<(n + 127) / 128, 128>>>(a);
  CUPROBE_CHECK_LAUNCH("move_kernel");
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto out = dout.to_host();
  for (std::size_t k = 0; k < type_count; ++k) {
    const std::size_t begin = a.offset[k], end = begin + n * sizes[k];
    const std::size_t next = k + 1 < type_count ? a.offset[k + 1] : a.bytes;
    for (std::size_t b = begin; b < next; ++b) {
      const unsigned char want = b < end ? in[b] : cuprobe::poison_byte;
      if (out[b] != want)
        return what + ": type #" + std::to_string(k) + " (" + std::to_string(sizes[k]) +
               " bytes), byte " + std::to_string(b - begin) +
               (b < end ? " differs" : " past the end was written");
    }
  }
  return "";
}

struct op_case {
  std::string what;      // "ld<cache::cs>"
  std::string mnemonic;  // "ld.global.cs"
  move_fn kernel;
};

template <class... Ops>
std::vector<op_case> loads() {
  return {op_case{std::string("ld<cache::") + Ops::name + ">", cuprobe::ptx::load_instruction<Ops>,
                  &move_kernel<Ops, false>}...};
}
template <class... Ops>
std::vector<op_case> stores() {
  return {op_case{std::string("st<cache::") + Ops::name + ">", cuprobe::ptx::store_instruction<Ops>,
                  &move_kernel<Ops, true>}...};
}

void check_all(const std::vector<op_case>& cases, const char* prefix, std::uint64_t seed) {
  for (const auto& c : cases) {
    CAPTURE(c.what);
    const std::string failure = round_trip(c.kernel, c.what, seed++);
    CHECK_MESSAGE(failure.empty(), failure);
    CHECK(c.mnemonic.rfind(prefix, 0) == 0);
  }
}

}  // namespace

CUPROBE_GPU_TEST_CASE("ld<Op> returns the exact bits of every width, for every load operator") {
  const auto cases =
      loads<cache::none, cache::ca, cache::cg, cache::cs, cache::lu, cache::cv, cache::evict_normal,
            cache::evict_unchanged, cache::evict_first, cache::evict_last, cache::no_allocate,
            cache::nc, cache::nc_ca, cache::nc_cg, cache::nc_cs, cache::nc_evict_first,
            cache::nc_evict_last, cache::nc_no_allocate, cache::L2_64B, cache::L2_128B,
            cache::L2_256B, cache::nc_L2_256B, user_nc_evict_last_L2_128B>();
  CHECK(cases.size() == 23);
  check_all(cases, "ld.global", 100);
}

CUPROBE_GPU_TEST_CASE("st<Op> stores the exact bits of every width, for every store operator") {
  const auto cases =
      stores<cache::none, cache::wb, cache::cg, cache::cs, cache::wt, cache::evict_normal,
             cache::evict_unchanged, cache::evict_first, cache::evict_last, cache::no_allocate>();
  CHECK(cases.size() == 10);
  check_all(cases, "st.global", 200);
}

CUPROBE_GPU_TEST_CASE("require_aligned rejects a misaligned device pointer before a launch") {
  cuprobe::device_buffer<float4> b(4);
  const char* base = reinterpret_cast<const char*>(b.data());
  CHECK_NOTHROW(cuprobe::ptx::require_aligned<float4>(base, "input"));
  CHECK_NOTHROW(cuprobe::ptx::require_aligned<float>(base + 4, "input"));
  CHECK_THROWS_WITH_AS(cuprobe::ptx::require_aligned<float4>(base + 4, "input"),
                       doctest::Contains("input: pointer"), cuprobe::error);
  CHECK_THROWS_WITH_AS(cuprobe::ptx::require_aligned<double2>(base + 8, "x"),
                       doctest::Contains("not aligned to 16 bytes"), cuprobe::error);
}
