// SASS tier probes for gen/stream.cuh: the stream kernels under names the checks can select.
// tests/areas/cache.cmake checks the instruction forms and counts (the cache operator reaches
// every access, several loads are in flight per thread, no local memory) and, with
// INSIDE_LOOP, that every access of an in_kernel kernel lies inside its pass loop. The covering
// probes are straight-line: one access per array, no loop.
#include <cuprobe/gen/stream.cuh>

#include <cstdint>

namespace gen = cuprobe::gen;
namespace cache = cuprobe::ptx::cache;
using cuprobe::loop_mode;
using gen::stream_pattern;

#define PROBE_STREAM(NAME, P, T, LD, MODE)                                            \
  extern "C" __global__ void NAME(gen::stream_args a) {                               \
    gen::stream_body<stream_pattern::P, T, cache::LD, gen::paired_store_t<cache::LD>, \
                     loop_mode::MODE>(a);                                             \
  }

PROBE_STREAM(stream_read_f4_cg_in_kernel, read, float4, cg, in_kernel)
PROBE_STREAM(stream_read_f_cs_launches, read, float, cs, launches)
PROBE_STREAM(stream_write_f4_cv_in_kernel, write, float4, cv, in_kernel)
PROBE_STREAM(stream_copy_f4_cs_in_kernel, copy, float4, cs, in_kernel)
PROBE_STREAM(stream_copy_f_cg_launches, copy, float, cg, launches)
PROBE_STREAM(stream_mixed_f4_cv_in_kernel, mixed, float4, cv, in_kernel)

#define PROBE_COVERING(NAME, P, T, LD)                                                             \
  extern "C" __global__ void NAME(gen::stream_args a) {                                            \
    gen::stream_covering_body<stream_pattern::P, T, cache::LD, gen::paired_store_t<cache::LD>>(a); \
  }

PROBE_COVERING(covering_write_f4_cg, write, float4, cg)
PROBE_COVERING(covering_copy_f4_cs, copy, float4, cs)
PROBE_COVERING(covering_mixed_f_cv, mixed, float, cv)

// The hazard the pass offset defeats: a load whose address does not change between passes.
// Same loop, with and without the opaque zero offset. ptxas hoists the first one's load out of
// the pass loop although it is asm volatile (the EXPECT_FAILURE test shows it).
extern "C" __global__ void pass_loop_plain(const std::uint32_t* in, std::uint32_t* out,
                                           int passes) {
  std::uint32_t acc = 0;
#pragma unroll 1
  for (int p = 0; p < passes; ++p) acc += cuprobe::ptx::ld<cache::cg>(in + threadIdx.x);
  out[threadIdx.x] = acc;
}
extern "C" __global__ void pass_loop_opaque(const std::uint32_t* in, std::uint32_t* out, int passes,
                                            std::uint64_t zero) {
  std::uint32_t acc = 0;
#pragma unroll 1
  for (int p = 0; p < passes; ++p) acc += cuprobe::ptx::ld<cache::cg>(in + threadIdx.x + p * zero);
  out[threadIdx.x] = acc;
}
