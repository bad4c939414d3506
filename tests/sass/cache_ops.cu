// SASS tier probes for ptx/cache.cuh: one kernel per cache operator, each with one access of
// every width (1, 2, 4, 8 bytes; .v2.b32, .v4.b32, .v2.b64), so that a FUNCTION filter per
// operator checks the seven instructions it emits. tests/areas/cache.cmake holds the checks;
// docs/memory-ptx.md the table they prove.
#include <cuprobe/ptx/cache.cuh>

#include <cstdint>

namespace cache = cuprobe::ptx::cache;
using cuprobe::ptx::ld;
using cuprobe::ptx::st;

// An operator defined outside the library, to prove that the extension macro works.
struct probe_nc_evict_last_L2_128B {
  static constexpr const char* name = "nc.L1::evict_last.L2::128B";
  static constexpr int min_sm = 750;
};
CUPROBE_PTX_DEFINE_LOAD(probe_nc_evict_last_L2_128B, "ld.global.nc.L1::evict_last.L2::128B")

// The seven widths, 64 bytes apart so that each access is one instruction of its own.
struct widths {
  std::uint8_t b8;
  alignas(64) std::int16_t b16;
  alignas(64) float b32;
  alignas(64) double b64;
  alignas(64) int2 v2_b32;
  alignas(64) float4 v4_b32;
  alignas(64) double2 v2_b64;
};

template <class Op>
__device__ __forceinline__ void load_all(const widths* in, widths* out) {
  out->b8 = ld<Op>(&in->b8);
  out->b16 = ld<Op>(&in->b16);
  out->b32 = ld<Op>(&in->b32);
  out->b64 = ld<Op>(&in->b64);
  out->v2_b32 = ld<Op>(&in->v2_b32);
  out->v4_b32 = ld<Op>(&in->v4_b32);
  out->v2_b64 = ld<Op>(&in->v2_b64);
}

template <class Op>
__device__ __forceinline__ void store_all(const widths* in, widths* out) {
  st<Op>(&out->b8, in->b8);
  st<Op>(&out->b16, in->b16);
  st<Op>(&out->b32, in->b32);
  st<Op>(&out->b64, in->b64);
  st<Op>(&out->v2_b32, in->v2_b32);
  st<Op>(&out->v4_b32, in->v4_b32);
  st<Op>(&out->v2_b64, in->v2_b64);
}

#define PROBE_LD(OP)                                                        \
  extern "C" __global__ void probe_ld_##OP(const widths* in, widths* out) { \
    load_all<cache::OP>(in, out);                                           \
  }
#define PROBE_ST(OP)                                                        \
  extern "C" __global__ void probe_st_##OP(const widths* in, widths* out) { \
    store_all<cache::OP>(in, out);                                          \
  }

// clang-format off
PROBE_LD(none) PROBE_LD(ca) PROBE_LD(cg) PROBE_LD(cs) PROBE_LD(lu) PROBE_LD(cv)
PROBE_LD(evict_normal) PROBE_LD(evict_unchanged) PROBE_LD(evict_first) PROBE_LD(evict_last)
PROBE_LD(no_allocate) PROBE_LD(nc) PROBE_LD(nc_ca) PROBE_LD(nc_cg) PROBE_LD(nc_cs)
PROBE_LD(nc_evict_first) PROBE_LD(nc_evict_last) PROBE_LD(nc_no_allocate)
PROBE_LD(L2_64B) PROBE_LD(L2_128B) PROBE_LD(L2_256B) PROBE_LD(nc_L2_256B)

PROBE_ST(none) PROBE_ST(wb) PROBE_ST(cg) PROBE_ST(cs) PROBE_ST(wt) PROBE_ST(evict_normal)
PROBE_ST(evict_unchanged) PROBE_ST(evict_first) PROBE_ST(evict_last) PROBE_ST(no_allocate)
static_assert(true, "the end of the probe list");  // a statement, so that formatting resumes
// clang-format on

extern "C" __global__ void probe_ld_user_op(const widths* in, widths* out) {
  load_all<probe_nc_evict_last_L2_128B>(in, out);
}
