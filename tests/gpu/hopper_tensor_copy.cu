// gpu tier: TMA tensor copies through tensor maps (ptx/bulk.cuh tensor_load, tensor_load_multicast,
// tensor_store, commit_group, wait_group; hopper/tensor_map.cuh) on an sm_90a GPU (over 600
// lines: four test cases share one layout model, one host reference and one kernel):
// - round trips global -> shared -> global for ranks 1..5 x swizzle none/32B/64B/128B x 8 element
//   types, each box at a non-zero coordinate (in dimension 0, 48 bytes in) of a tensor with
//   padded rows, stored into a poisoned output through a second map: inside the box the input,
//   everywhere else (padding, the guards around the tensor) still the poison;
// - the shared-memory layout itself, read with plain loads, against the host model below;
// - boxes that run past the tensor's end or start at negative coordinates: the elements outside
//   read as zero (default fill) or NaN (nan_request_zero_fma); boxes past the end are stored back
//   (as loaded, and rewritten by generic stores) and write only inside the tensor, in 16-byte
//   units in dimension 0 (below);
// - tensor_load_multicast into every CTA of 2- and 4-CTA clusters.
//
// The swizzle model (host_smem_pos): byte o of the box, dense with dimension 0 fastest, lands at
// shared address a ^ (((a >> 7) & m) << 4), a = the box's address + o, m = 1 / 3 / 7 for
// 32B / 64B / 128B: the 16-byte chunk index within each 128-byte line of shared memory is XORed
// with the line index mod 2 / 4 / 8 (the 128-byte line of shared memory, not the box's row).
// Sources: PTX ISA 9.0, 5.5.7 "Swizzling Modes" (and its "base offset" (dstMem / 128) % 2 / 4 / 8
// when dstMem is not 256 / 512 / 1024-byte aligned: the layout test places boxes 128 and 384 bytes
// past a 1024-byte boundary); the CUDA C++ Programming Guide, "TMA Swizzle"; CuTe's
// Swizzle<1..3,4,3>. Swizzled boxes here are always one span wide (box[0] x size = span).
//
// What the H200 does that no documentation states (driver 580, CUDA 13.0), seen in this test:
// - tile mode needs the dimension-0 start coordinate x the element size to be a multiple of 16
//   bytes (u8 at c0 = 5, f32 at c0 = 1: cudaErrorIllegalInstruction at UTMALDG; 0, +-16 bytes
//   work; the other dimensions are free): every start here is such a multiple, and
//   hopper_tensor_copy_fault.cu pins the rule;
// - a tensor store writes dimension 0 in 16-byte units: the bytes of a row's last, partial
//   chunk past dims[0] (the row's padding: strides are multiples of 16) get the box's values;
// - a tensor store of a box at negative coordinates ((-16 B, -2)) stops the kernel
//   (cudaErrorIllegalInstruction at UTMASTG) where the load works: such boxes are only loaded.
//
// Debug checks are forced on (CUPROBE_PTX_CHECKS 1): every mbarrier wait is bounded (a wrong
// tx-count traps with a sentence instead of hanging), every copy's addresses are checked.
#define CUPROBE_PTX_CHECKS 1
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/hopper/tensor_map.cuh>
#include <cuprobe/ptx/bulk.cuh>
#include <cuprobe/ptx/cluster.cuh>
#include <cuprobe/ptx/fence.cuh>
#include <cuprobe/ptx/mbarrier.cuh>

#include <array>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

namespace mb = cuprobe::ptx::mbarrier;
namespace bulk = cuprobe::ptx::bulk;
namespace cl = cuprobe::ptx::cluster;
namespace h = cuprobe::hopper;
using h::element_type;
using h::oob_fill_mode;
using h::swizzle_mode;

namespace {

constexpr unsigned threads = 128;

// Byte k of a box that box_kernel rewrites with generic stores: below 0x40, so every element it
// forms is a finite float of any width (the top exponent bit is clear) and never the poison.
__host__ __device__ inline unsigned char refill_byte(unsigned k) {
  unsigned x = (k + 1u) * 0x9E3779B1u;
  x ^= x >> 15;
  x *= 0x85EBCA77u;
  x ^= x >> 13;
  return static_cast<unsigned char>(x & 0x3Fu);
}

struct box_args {
  int at[5];           // box coordinates, elements, innermost first
  unsigned bytes;      // bytes per box: what the load announces
  unsigned shift;      // the box's offset past a 1024-byte boundary (a multiple of 128)
  unsigned char* raw;  // receives the shared box as plain loads read it (bytes)
  unsigned refill;     // 1: then rewrite the box with refill_byte() and store it through out2
  unsigned store;      // 0: no stores (a box at negative coordinates: see the OOB test)
};

template <int... I>
__device__ __forceinline__ void load_box(void* dst, const CUtensorMap* map,
                                         cuprobe::ptx::mbarrier::object* bar, const int* at,
                                         std::integer_sequence<int, I...>) {
  bulk::tensor_load(dst, map, bar, at[I]...);
}
template <int... I>
__device__ __forceinline__ void store_box(const CUtensorMap* map, const void* src, const int* at,
                                          std::integer_sequence<int, I...>) {
  bulk::tensor_store(map, src, at[I]...);
}

// One CTA: loads the box of `in` at a.at, copies the shared bytes out with plain loads, stores
// the box through `out` at the same coordinates; with a.refill, rewrites the box with generic
// stores (then the proxy fence: the store reads it through the async proxy) and stores it
// through `out2`.
template <int Rank>
__global__ void __launch_bounds__(threads)
    box_kernel(const __grid_constant__ CUtensorMap in, const __grid_constant__ CUtensorMap out,
               const __grid_constant__ CUtensorMap out2, const box_args a) {
  constexpr auto dims = std::make_integer_sequence<int, Rank>{};
  unsigned char* box = h::aligned_dynamic_smem<h::swizzle_128b_alignment>() + a.shift;
  __shared__ cuprobe::ptx::mbarrier::object bar;
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, a.bytes);  // the whole box, out-of-bounds fill included
    load_box(box, &in, &bar, a.at, dims);
  }
  mb::wait(&bar, 0);
  for (unsigned i = threadIdx.x; i < a.bytes / 16; i += blockDim.x)
    reinterpret_cast<uint4*>(a.raw)[i] = reinterpret_cast<const uint4*>(box)[i];
  if (threadIdx.x == 0 && a.store) {
    store_box(&out, box, a.at, dims);
    bulk::commit_group();
    bulk::wait_group_read<0>();  // the box was read: it may be rewritten
  }
  if (a.refill && a.store) {
    __syncthreads();
    for (unsigned i = threadIdx.x; i < a.bytes; i += blockDim.x) box[i] = refill_byte(i);
    cuprobe::ptx::fence_proxy_async<cuprobe::ptx::space::shared>();  // generic writes -> the
                                                                     // tensor_store's reads
    __syncthreads();
    if (threadIdx.x == 0) {
      store_box(&out2, box, a.at, dims);
      bulk::commit_group();
    }
  }
  if (threadIdx.x == 0) bulk::wait_group<0>();  // every store complete before the CTA exits
}

// Every CTA of the cluster receives the whole box of `rows` rows at (x, y + cluster * rows).
// sliced = 0: the LAST rank issues one multicast of the whole box (map `full`) to all CTAs;
// sliced = 1: rank r issues slice r (map `slice`, rows / n rows) to its offset in all CTAs.
// Either way the whole box lands in every CTA, so each announces `bytes` on its own barrier:
// the bytes that land in THIS CTA, not bytes x CTAs and not one slice.
__global__ void __launch_bounds__(threads)
    multicast_kernel(const __grid_constant__ CUtensorMap full,
                     const __grid_constant__ CUtensorMap slice, int x, int y, unsigned rows,
                     unsigned bytes, unsigned sliced, unsigned char* out) {
  unsigned char* box = h::aligned_dynamic_smem<h::swizzle_128b_alignment>();
  __shared__ cuprobe::ptx::mbarrier::object bar;
  const unsigned r = cl::ctarank(), n = cl::nctarank();
  if (threadIdx.x == 0) {
    mb::init(&bar, 1);
    mb::fence_init();
  }
  cl::arrive_relaxed();
  cl::wait();  // every CTA's barrier is initialised before a peer's copy can complete on it
  const int row = y + static_cast<int>(cl::clusterid().x * rows);
  if (threadIdx.x == 0) {
    (void)mb::arrive_expect_tx(&bar, bytes);
    const auto all = static_cast<std::uint16_t>((1u << n) - 1);
    if (sliced)
      bulk::tensor_load_multicast(box + r * (bytes / n), &slice, &bar, all, x,
                                  row + static_cast<int>(r * (rows / n)));
    else if (r == n - 1)
      bulk::tensor_load_multicast(box, &full, &bar, all, x, row);
  }
  mb::wait(&bar, 0);
  for (unsigned i = threadIdx.x; i < bytes / 16; i += blockDim.x)
    reinterpret_cast<uint4*>(out + std::size_t(blockIdx.x) * bytes)[i] =
        reinterpret_cast<const uint4*>(box)[i];
  cl::sync();  // an issuer's copies into its peers may be in flight after its own completed
}

// ---- host model ------------------------------------------------------------------------------

constexpr std::size_t guard = 1024;  // bytes of poison before and after each tensor

std::uint64_t mix(std::uint64_t x) {  // splitmix64
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

unsigned size_of(element_type t) { return h::element_info_of(t).global_bits / 8; }
bool is_float(element_type t) { return h::element_info_of(t).is_float; }

// The bits of input element `index` (its dense index in the tensor): a hash of the index; finite
// for float types (top exponent bit cleared) and never all poison bytes.
void element_bits(element_type t, std::uint64_t index, unsigned char* p) {
  const unsigned es = size_of(t);
  std::uint64_t v = mix(index);
  if (is_float(t)) v &= ~(1ull << (8 * es - 2));
  std::memcpy(p, &v, es);  // the low bytes: x86 and the GPU are little-endian
  bool poison = true;
  for (unsigned k = 0; k < es; ++k) poison = poison && p[k] == cuprobe::poison_byte;
  if (poison) p[0] ^= 1u;
}

bool is_nan_bits(element_type t, const unsigned char* p) {
  std::uint64_t v = 0;
  std::memcpy(&v, p, size_of(t));
  switch (t) {
    case element_type::f16:
      return (v & 0x7C00u) == 0x7C00u && (v & 0x3FFu) != 0;
    case element_type::bf16:
      return (v & 0x7F80u) == 0x7F80u && (v & 0x7Fu) != 0;
    case element_type::f32:
      return (v & 0x7F800000u) == 0x7F800000u && (v & 0x7FFFFFu) != 0;
    case element_type::f64:
      return (v & 0x7FF0000000000000ull) == 0x7FF0000000000000ull && (v & 0xFFFFFFFFFFFFFull) != 0;
    default:
      return false;
  }
}

// Where byte o of the dense box lands in shared memory, relative to the box's start, when the box
// starts `shift` bytes past a 1024-byte boundary (the rule and its sources: the file's header).
std::uint64_t host_smem_pos(std::uint64_t o, swizzle_mode s, unsigned shift) {
  const std::uint64_t m = s == swizzle_mode::none ? 0 : h::swizzle_span_bytes(s) / 16 - 1;
  const std::uint64_t a = o + shift;
  return (a ^ (((a >> 7) & m) << 4)) - shift;
}

using index5 = std::array<std::int64_t, 5>;

// Calls f(j, i) for every index i < ext (rank dimensions), dimension 0 fastest; j counts.
template <class F>
void for_each_index(unsigned rank, const std::array<std::uint64_t, 5>& ext, F&& f) {
  std::uint64_t n = 1;
  for (unsigned k = 0; k < rank; ++k) n *= ext[k];
  index5 i{};
  for (std::uint64_t j = 0; j < n; ++j) {
    f(j, i);
    for (unsigned k = 0; k < rank && ++i[k] == static_cast<std::int64_t>(ext[k]); ++k) i[k] = 0;
  }
}

// A tensor with padded rows, the guards around it and one box of it.
struct layout {
  element_type type = element_type::u8;
  unsigned rank = 2;
  std::array<std::uint64_t, 5> dims{1, 1, 1, 1, 1};
  std::array<std::uint64_t, 4> strides{};  // bytes, dimensions 1..
  std::array<std::uint64_t, 5> box{1, 1, 1, 1, 1};
  index5 at{};
  swizzle_mode swz = swizzle_mode::none;
  oob_fill_mode fill = oob_fill_mode::none;

  layout(element_type t, unsigned r, swizzle_mode s, oob_fill_mode f = oob_fill_mode::none)
      : type(t), rank(r), swz(s), fill(f) {}
  unsigned es() const { return size_of(type); }
  // Strides: each row (plane, ...) padded by `pad` bytes after rounding up to 16.
  void pad_strides(std::uint64_t pad) {
    std::uint64_t s = (dims[0] * es() + 15) / 16 * 16;
    for (unsigned k = 0; k + 1 < rank; ++k) {
      strides[k] = s + pad;
      s = strides[k] * dims[k + 1];
    }
  }
  std::uint64_t extent() const {
    return rank == 1 ? dims[0] * es() : strides[rank - 2] * dims[rank - 1];
  }
  std::size_t alloc_bytes() const { return 2 * guard + (extent() + 15) / 16 * 16; }
  std::uint64_t box_bytes() const {
    std::uint64_t n = es();
    for (unsigned k = 0; k < rank; ++k) n *= box[k];
    return n;
  }
  bool inside(const index5& c) const {
    for (unsigned k = 0; k < rank; ++k)
      if (c[k] < 0 || c[k] >= static_cast<std::int64_t>(dims[k])) return false;
    return true;
  }
  std::uint64_t offset(const index5& c) const {  // of an element inside the tensor
    std::uint64_t o = std::uint64_t(c[0]) * es();
    for (unsigned k = 1; k < rank; ++k) o += std::uint64_t(c[k]) * strides[k - 1];
    return o;
  }
  // f(j, inside, offset in the tensor) for box element j (dimension 0 fastest).
  template <class F>
  void for_each_box_element(F&& f) const {
    for_each_index(rank, box, [&](std::uint64_t j, const index5& b) {
      index5 c{};
      for (unsigned k = 0; k < rank; ++k) c[k] = at[k] + b[k];
      const bool in = inside(c);
      f(j, in, in ? offset(c) : 0);
    });
  }
  h::tensor_map_spec spec(const unsigned char* base) const {
    h::tensor_map_spec s;
    s.type = type;
    s.rank = rank;
    s.address = base + guard;
    s.dims = dims;
    s.strides = strides;
    for (unsigned k = 0; k < 5; ++k) s.box[k] = static_cast<std::uint32_t>(box[k]);
    s.swizzle = swz;
    s.oob_fill = fill;
    return s;
  }
  std::string name() const {
    auto list = [this](const auto& a) {
      std::string s;
      for (unsigned k = 0; k < rank; ++k) s += (k ? "," : "") + std::to_string(a[k]);
      return "(" + s + ")";
    };
    return h::to_string(type) + " rank " + std::to_string(rank) + " swizzle " + h::to_string(swz) +
           " fill " + h::to_string(fill) + " dims " + list(dims) + " box " + list(box) + " at " +
           list(at);
  }
  // What byte `pos` of the allocation is, for a mismatch report.
  std::string where(std::size_t pos) const {
    if (pos < guard) return "guard before the tensor, byte " + std::to_string(pos);
    std::uint64_t o = pos - guard;
    if (o >= extent()) return "guard after the tensor, byte " + std::to_string(o - extent());
    std::array<std::uint64_t, 5> i{};
    for (unsigned k = rank - 1; k >= 1; --k) {
      i[k] = o / strides[k - 1];
      o %= strides[k - 1];
    }
    i[0] = o / es();
    bool pad = false;
    std::string s;
    for (unsigned k = 0; k < rank; ++k) {
      pad = pad || i[k] >= dims[k];
      s += (k ? "," : "") + std::to_string(i[k]);
    }
    return (pad ? "padding at (" : "element (") + s + "), byte " + std::to_string(o % es());
  }
};

struct mismatches {
  std::size_t count = 0;
  std::string text;  // the first few
  void add(const std::string& what) {
    if (count++ < 8) text += what + "\n";
  }
};

// Passes when nothing mismatched; otherwise fails with the first mismatches.
void check_none(const mismatches& m, const std::string& what) {
  INFO(what, ": ", m.count, " mismatches\n", m.text);
  CHECK(m.count == 0);
}

std::string hex(const unsigned char* p, unsigned n) {  // little-endian bytes, as one number
  std::string s = "0x";
  for (unsigned k = n; k-- > 0;)
    s += "0123456789abcdef"[p[k] >> 4], s += "0123456789abcdef"[p[k] & 15];
  return s;
}

std::vector<unsigned char> make_input(const layout& L) {
  std::vector<unsigned char> v(L.alloc_bytes(), 0x5C);  // guards and padding: not an element
  for_each_index(L.rank, L.dims, [&](std::uint64_t j, const index5& i) {
    element_bits(L.type, j, &v[guard + L.offset(i)]);
  });
  return v;
}

// The allocation after a store of the box: poison except the box's elements inside the tensor,
// which get elem(j, offset, destination); dimension 0 is written in 16-byte units (see the top).
template <class F>
std::vector<unsigned char> expected_output(const layout& L, F&& elem) {
  std::vector<unsigned char> e(L.alloc_bytes(), cuprobe::poison_byte);
  const std::int64_t d0 = static_cast<std::int64_t>(L.dims[0]), q = 16 / L.es();
  const std::int64_t written0 = (d0 + q - 1) / q * q;  // dims[0] rounded up to 16 bytes
  for_each_index(L.rank, L.box, [&](std::uint64_t j, const index5& b) {
    index5 c{};
    for (unsigned k = 0; k < L.rank; ++k) c[k] = L.at[k] + b[k];
    bool in = c[0] >= 0 && c[0] < written0;
    for (unsigned k = 1; k < L.rank; ++k)
      in = in && c[k] >= 0 && c[k] < static_cast<std::int64_t>(L.dims[k]);
    if (in) elem(j, L.offset(c), &e[guard + L.offset(c)]);
  });
  return e;
}

mismatches compare(const layout& L, const std::vector<unsigned char>& got,
                   const std::vector<unsigned char>& want) {
  mismatches m;
  for (std::size_t i = 0; i < want.size(); ++i)
    if (got[i] != want[i])
      m.add(L.where(i) + ": expected " + hex(&want[i], 1) + ", got " + hex(&got[i], 1));
  return m;
}

// The shared box as read back, against the model: elements inside the tensor are the input,
// those outside zero (default fill) or a NaN (nan_request_zero_fma); `nan_seen` gets the last
// NaN read.
mismatches check_box(const layout& L, unsigned shift, const std::vector<unsigned char>& raw,
                     const std::vector<unsigned char>& in, std::string* nan_seen = nullptr) {
  mismatches m;
  const unsigned es = L.es();
  static const unsigned char zero[8] = {};
  L.for_each_box_element([&](std::uint64_t j, bool inside, std::uint64_t off) {
    const std::uint64_t p = host_smem_pos(j * es, L.swz, shift);
    const unsigned char* g = &raw[p];
    const std::string at = "box element " + std::to_string(j) + " (shared byte " +
                           std::to_string(p) + "): got " + hex(g, es);
    if (inside) {
      if (std::memcmp(g, &in[guard + off], es) != 0)
        m.add(at + ", expected the input " + hex(&in[guard + off], es));
    } else if (L.fill == oob_fill_mode::nan_request_zero_fma) {
      if (!is_nan_bits(L.type, g)) m.add(at + ", expected a NaN (outside the tensor)");
      if (nan_seen) *nan_seen = hex(g, es);
    } else if (std::memcmp(g, zero, es) != 0) {
      m.add(at + ", expected zero (outside the tensor)");
    }
  });
  return m;
}

struct box_result {
  std::vector<unsigned char> in, raw, out, out2;
};

box_result run_box(const layout& L, unsigned shift, bool refill) {
  box_result r;
  r.in = make_input(L);
  const std::size_t n = L.alloc_bytes();
  const auto bytes = static_cast<unsigned>(L.box_bytes());
  cuprobe::device_buffer<unsigned char> in(n), out(n), out2(n), raw(bytes);
  in.upload(r.in);
  out.poison();
  out2.poison();
  raw.poison();
  const h::tensor_map mi = h::make_tensor_map(L.spec(in.data()));
  const h::tensor_map mo = h::make_tensor_map(L.spec(out.data()));
  const h::tensor_map mo2 = h::make_tensor_map(L.spec(out2.data()));
  box_args a{};
  for (unsigned k = 0; k < 5; ++k) a.at[k] = static_cast<int>(L.at[k]);
  a.bytes = bytes;
  a.shift = shift;
  a.raw = raw.data();
  a.refill = refill ? 1u : 0u;
  a.store = 1u;
  for (unsigned k = 0; k < L.rank; ++k)
    if (L.at[k] < 0) a.store = 0u;
  const std::size_t smem = h::dynamic_smem_bytes<h::swizzle_128b_alignment>(shift + bytes);
  using kernel = void (*)(CUtensorMap, CUtensorMap, CUtensorMap, box_args);
  const kernel k[] = {box_kernel<1>, box_kernel<2>, box_kernel<3>, box_kernel<4>, box_kernel<5>};
  k[L.rank - 1]<<<1, threads, smem>>>(mi.get(), mo.get(), mo2.get(), a);
  CUPROBE_CHECK(cudaGetLastError());
  CUPROBE_CHECK(cudaDeviceSynchronize());
  r.raw = raw.to_host();
  r.out = out.to_host();
  r.out2 = out2.to_host();
  return r;
}

// The expected output of the store of the loaded box: the input, inside the box and the tensor.
std::vector<unsigned char> stored_input(const layout& L, const std::vector<unsigned char>& in) {
  return expected_output(L, [&](std::uint64_t, std::uint64_t off, unsigned char* d) {
    std::memcpy(d, &in[guard + off], L.es());
  });
}

constexpr element_type all_types[] = {element_type::u8,   element_type::u16, element_type::f16,
                                      element_type::bf16, element_type::u32, element_type::f32,
                                      element_type::u64,  element_type::f64};
constexpr swizzle_mode all_swizzles[] = {swizzle_mode::none, swizzle_mode::b32, swizzle_mode::b64,
                                         swizzle_mode::b128};

// Inner box extent in elements: one swizzle span, or 48 bytes without swizzle.
std::uint64_t inner_elements(element_type t, swizzle_mode s) {
  return (s == swizzle_mode::none ? 48 : h::swizzle_span_bytes(s)) / size_of(t);
}

}  // namespace

CUPROBE_GPU_TEST_CASE("tensor copies round-trip a box for every rank, swizzle and element type") {
  int cases = 0;
  for (auto t : all_types)
    for (auto s : all_swizzles)
      for (unsigned rank = 1; rank <= 5; ++rank) {
        layout L(t, rank, s);
        const std::uint64_t inner = inner_elements(t, s);
        const std::uint64_t box[5] = {inner, 5, 3, 2, 2};
        const std::int64_t at[5] = {48 / L.es(), 1, 2, 1, 1};  // 48 bytes: 16-aligned
        for (unsigned k = 0; k < rank; ++k) {
          L.box[k] = box[k];
          L.at[k] = at[k];
          L.dims[k] = k == 0 ? 2 * inner + 32 / L.es() : box[k] + at[k] + 2;
        }
        L.pad_strides(16);
        INFO(L.name());
        const box_result r = run_box(L, 0, false);
        check_none(compare(L, r.out, stored_input(L, r.in)), "output");
        ++cases;
      }
  CHECK(cases == 8 * 4 * 5);
  MESSAGE("round trips: " << cases << " (8 element types x 4 swizzles x ranks 1..5)");
}

CUPROBE_GPU_TEST_CASE("the shared-memory layout of 2-D and 3-D boxes is the swizzle model's") {
  int cases = 0;
  const element_type types[] = {element_type::u8, element_type::u16, element_type::u32,
                                element_type::u64};
  for (auto t : types)
    for (auto s : all_swizzles)
      for (unsigned rank : {2u, 3u})
        for (unsigned shift : {0u, 128u, 384u}) {  // base offsets 0, 1 and 3 (none for 32B: 1)
          layout L(t, rank, s);
          L.box = {s == swizzle_mode::none ? 64 / L.es() : inner_elements(t, s), 16, 3, 1, 1};
          L.at = {16 / L.es(), 2, 1, 0, 0};  // 16 bytes in: an aligned start
          L.dims = {L.box[0] + 48 / L.es(), 20, 5, 1, 1};
          L.pad_strides(128);
          INFO(L.name(), " shift ", shift);
          const box_result r = run_box(L, shift, false);
          check_none(check_box(L, shift, r.raw, r.in), "shared box");
          check_none(compare(L, r.out, stored_input(L, r.in)), "output");
          ++cases;
        }
  CHECK(cases == 4 * 4 * 2 * 3);
  MESSAGE("shared layouts: " << cases << " (4 types x 4 swizzles x rank 2, 3 x 3 shifts)");
}

CUPROBE_GPU_TEST_CASE(
    "boxes out of bounds: the fill in shared memory, stores clipped to the tensor") {
  int cases = 0;
  std::string nans;
  for (auto t : all_types)
    for (auto fill : {oob_fill_mode::none, oob_fill_mode::nan_request_zero_fma}) {
      if (fill == oob_fill_mode::nan_request_zero_fma && !is_float(t)) continue;
      std::string nan_seen;
      for (auto s : {swizzle_mode::none, swizzle_mode::b128})
        for (unsigned rank : {2u, 3u})
          for (int where = 0; where < 3; ++where) {
            layout L(t, rank, s, fill);
            const std::uint64_t inner = inner_elements(t, s);
            L.box = {inner, 6, 3, 1, 1};
            L.dims = {inner + 3, 9, 4, 1, 1};  // rows end in the middle of a 16-byte chunk
            const std::int64_t d0 = L.dims[0], n = inner, q = 16 / L.es();  // q: 16 bytes
            if (where == 0)  // past the end in every dimension
              L.at = {(d0 - n / 2 + q - 1) / q * q, 9 - 2, 4 - 1, 0, 0};
            else if (where == 1)  // before the start in every dimension
              L.at = {-q, -2, -1, 0, 0};
            else  // past the end in dim 0 (from the last chunk), before the start in dim 1
              L.at = {(d0 - 1) / q * q, -2, 1, 0, 0};
            const std::int64_t edge = where == 1 ? 0 : d0;  // n >= 2q: the box straddles it
            REQUIRE((L.at[0] < edge && L.at[0] + n > edge));
            L.pad_strides(16);
            INFO(L.name());
            const unsigned shift = 0;
            const box_result r = run_box(L, shift, true);
            check_none(check_box(L, shift, r.raw, r.in, &nan_seen), "shared box");
            ++cases;
            if (where != 0) continue;  // negative coordinates: no stores (see the top)
            // What the store writes is what the shared box held (the input inside the tensor,
            // the fill in the last chunk's tail past dims[0]).
            const auto stored =
                expected_output(L, [&](std::uint64_t j, std::uint64_t, unsigned char* d) {
                  for (unsigned k = 0; k < L.es(); ++k)
                    d[k] = r.raw[host_smem_pos(j * L.es() + k, L.swz, shift)];
                });
            check_none(compare(L, r.out, stored), "store of the loaded box");
            const auto refilled =
                expected_output(L, [&](std::uint64_t j, std::uint64_t, unsigned char* d) {
                  for (unsigned k = 0; k < L.es(); ++k)
                    d[k] = refill_byte(
                        static_cast<unsigned>(host_smem_pos(j * L.es() + k, L.swz, shift)));
                });
            check_none(compare(L, r.out2, refilled), "store of the rewritten box");
          }
      if (!nan_seen.empty()) nans += " " + h::to_string(t) + " " + nan_seen;
    }
  CHECK(cases == (8 + 4) * 2 * 2 * 3);
  MESSAGE("out-of-bounds boxes: " << cases << " (12 type/fill pairs x 2 swizzles x 2 ranks x 3)");
  MESSAGE("the NaN fill reads as:" << nans);
}

CUPROBE_GPU_TEST_CASE("tensor_load_multicast fills every CTA of 2- and 4-CTA clusters") {
  int cases = 0;
  const unsigned clusters = 3, rows = 32;
  for (auto s : {swizzle_mode::none, swizzle_mode::b128})
    for (unsigned n : {2u, 4u})
      for (unsigned sliced : {0u, 1u}) {
        // The box cluster 0 loads; cluster k's is `rows` rows further.
        layout L(s == swizzle_mode::none ? element_type::f32 : element_type::f16, 2, s);
        const std::uint64_t inner = 128 / L.es();  // 128-byte rows: 1024-byte slices for n = 4
        L.box = {inner, rows, 1, 1, 1};
        L.at = {16 / L.es(), 3, 0, 0, 0};  // dimension 0: 16 bytes in (the header's rule)
        L.dims = {2 * inner + 5, 3 + clusters * rows + 1, 1, 1, 1};
        L.pad_strides(16);
        INFO(n, "-CTA clusters, ", std::string(sliced ? "sliced, " : "one issuer, "), L.name());
        const auto input = make_input(L);
        cuprobe::device_buffer<unsigned char> in(L.alloc_bytes());
        in.upload(input);
        layout S = L;
        S.box[1] = rows / n;
        const h::tensor_map full = h::make_tensor_map(L.spec(in.data()));
        const h::tensor_map slice = h::make_tensor_map(S.spec(in.data()));
        const auto bytes = static_cast<unsigned>(L.box_bytes());
        h::cluster_launch c;
        c.shape = {dim3(n * clusters), dim3(threads),
                   h::dynamic_smem_bytes<h::swizzle_128b_alignment>(bytes)};
        c.cluster = dim3(n);
        REQUIRE(h::max_active_clusters(multicast_kernel, c) > 0);
        cuprobe::device_buffer<unsigned char> out(std::size_t(bytes) * n * clusters);
        out.poison();
        h::launch(multicast_kernel, c, full.get(), slice.get(), static_cast<int>(L.at[0]),
                  static_cast<int>(L.at[1]), rows, bytes, sliced, out.data());
        CUPROBE_CHECK(cudaDeviceSynchronize());
        const auto o = out.to_host();
        for (unsigned b = 0; b < n * clusters; ++b) {
          CAPTURE(b);
          layout K = L;
          K.at[1] += static_cast<std::int64_t>(b / n * rows);
          const std::vector<unsigned char> raw(o.begin() + std::size_t(b) * bytes,
                                               o.begin() + std::size_t(b + 1) * bytes);
          check_none(check_box(K, 0, raw, input), "shared box");
        }
        ++cases;
      }
  CHECK(cases == 2 * 2 * 2);
  MESSAGE("multicast launches: " << cases << " (2 swizzles x 2 cluster sizes x 2 issue patterns)");
}
