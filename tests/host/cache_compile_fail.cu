// Compile-fail probes for ptx/cache.cuh and gen/stream.cuh: each CUPROBE_CASE must NOT compile,
// and the error must be the library's sentence (tests/areas/cache.cmake runs nvcc on each case
// and matches the sentence). Not a test executable.
#include <cuprobe/gen/stream.cuh>
#include <cuprobe/ptx/cache.cuh>

namespace cache = cuprobe::ptx::cache;

struct twelve_bytes {
  float x, y, z;
};
struct two_floats {  // 8 bytes, aligned to 4: one .b64 access would fault on valid addresses
  float x, y;
};
struct four_floats {  // 16 bytes, aligned to 4
  float x, y, z, w;
};

__global__ void probe(const float* in, float* out, const twelve_bytes* t, twelve_bytes* u) {
#if CUPROBE_CASE == 1  // a store-only operator on a load
  out[0] = cuprobe::ptx::ld<cache::wt>(in);
#elif CUPROBE_CASE == 2  // a load-only operator on a store
  cuprobe::ptx::st<cache::lu>(out, 1.0f);
#elif CUPROBE_CASE == 3  // .L2::256B needs sm_80 (compiled for sm_75)
  out[0] = cuprobe::ptx::ld<cache::L2_256B>(in);
#elif CUPROBE_CASE == 4  // no single instruction moves 12 bytes
  u[0] = cuprobe::ptx::ld(t);
#elif CUPROBE_CASE == 8  // 8 bytes aligned to 4
  reinterpret_cast<two_floats*>(out)[0] = cuprobe::ptx::ld(reinterpret_cast<const two_floats*>(in));
#elif CUPROBE_CASE == 9  // 16 bytes aligned to 4, stored
  cuprobe::ptx::st(reinterpret_cast<four_floats*>(out), four_floats{1, 2, 3, 4});
#elif CUPROBE_CASE == 5  // stream kernels take 4-, 8- or 16-byte elements
  cuprobe::gen::stream_body<cuprobe::gen::stream_pattern::copy, twelve_bytes, cache::cg, cache::cg,
                            cuprobe::loop_mode::launches>(cuprobe::gen::stream_args{});
#endif
  (void)in, (void)out, (void)t, (void)u;
}

#if CUPROBE_CASE == 6  // a kernel the table was not built with: a compile error, not a run-time one
void host_probe() {
  namespace gen = cuprobe::gen;
  const gen::stream_table<gen::type_list<float4>, gen::type_list<cache::cg>> t;
  (void)t.get<gen::stream_pattern::copy, float4, cache::cs>();
}
#elif CUPROBE_CASE == 7  // read has no covering kernel
void host_probe() {
  (void)cuprobe::gen::make_stream_kernel<cuprobe::gen::stream_pattern::read, float4, cache::cg,
                                         cuprobe::loop_mode::launches,
                                         cuprobe::gen::stream_grid::covering>();
}
#endif
