// SASS probes for ptx/bulk.cuh (sm_90a): one wrapper (and one tensor rank) per extern "C"
// kernel; tests/areas/hopper_async.cmake pins the instruction of each (UBLKCP, UTMALDG, UTMASTG,
// UTMAPF, UBLKPF, UTMACCTL, DEPBAR) and that release builds carry no checks.
#include <cuprobe/ptx/bulk.cuh>

#include <cuda.h>

#include <cstdint>

namespace bulk = cuprobe::ptx::bulk;

#define PROBE(NAME)                                                                   \
  extern "C" __global__ void NAME(const int4* __restrict__ in, int4* out, unsigned n, \
                                  const __grid_constant__ CUtensorMap map)

PROBE(probe_bulk_load) {
  __shared__ alignas(128) int4 buf[256];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  bulk::load(buf, in, &bar, n);
  out[0] = buf[threadIdx.x];
}
PROBE(probe_bulk_load_multicast) {
  __shared__ alignas(128) int4 buf[256];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  bulk::load_multicast(buf, in, &bar, static_cast<std::uint16_t>(n >> 16), n);
  out[0] = buf[threadIdx.x];
}
PROBE(probe_bulk_store) {
  __shared__ alignas(128) int4 buf[256];
  buf[threadIdx.x] = in[threadIdx.x];
  bulk::store(out, buf, n);
}
PROBE(probe_bulk_copy_to_cluster) {
  __shared__ alignas(128) int4 buf[256];
  __shared__ alignas(128) int4 dst[256];
  __shared__ cuprobe::ptx::mbarrier::object bar;
  bulk::copy_to_cluster(cuprobe::ptx::cluster::map(dst, n & 7), buf,
                        cuprobe::ptx::cluster::map(&bar, n & 7), n & ~15u);
  out[0] = in[0];
}
PROBE(probe_bulk_commit_group) {
  out[0] = in[0];
  bulk::commit_group();
  out[1] = in[1];
}
PROBE(probe_bulk_wait_group_0) {
  out[0] = in[0];
  bulk::wait_group<0>();
  out[1] = in[1];
}
PROBE(probe_bulk_wait_group_5) {
  out[0] = in[0];
  bulk::wait_group<5>();
  out[1] = in[1];
}
PROBE(probe_bulk_wait_group_63) {
  out[0] = in[0];
  bulk::wait_group<63>();
  out[1] = in[1];
}
PROBE(probe_bulk_wait_group_read_3) {
  out[0] = in[0];
  bulk::wait_group_read<3>();
  out[1] = in[1];
}
PROBE(probe_bulk_prefetch_l2) { bulk::prefetch_l2(in, n); }

#define TENSOR_PROBES(D, ...)                                                         \
  PROBE(probe_tensor_load_##D##d) {                                                   \
    __shared__ alignas(128) int4 buf[256];                                            \
    __shared__ cuprobe::ptx::mbarrier::object bar;                                    \
    bulk::tensor_load(buf, &map, &bar, __VA_ARGS__);                                  \
    out[0] = buf[threadIdx.x];                                                        \
  }                                                                                   \
  PROBE(probe_tensor_load_multicast_##D##d) {                                         \
    __shared__ alignas(128) int4 buf[256];                                            \
    __shared__ cuprobe::ptx::mbarrier::object bar;                                    \
    bulk::tensor_load_multicast(buf, &map, &bar, static_cast<std::uint16_t>(n >> 16), \
                                __VA_ARGS__);                                         \
    out[0] = buf[threadIdx.x];                                                        \
  }                                                                                   \
  PROBE(probe_tensor_store_##D##d) {                                                  \
    __shared__ alignas(128) int4 buf[256];                                            \
    buf[threadIdx.x] = in[threadIdx.x];                                               \
    bulk::tensor_store(&map, buf, __VA_ARGS__);                                       \
  }                                                                                   \
  PROBE(probe_tensor_prefetch_l2_##D##d) { bulk::tensor_prefetch_l2(&map, __VA_ARGS__); }

TENSOR_PROBES(1, int(n))
TENSOR_PROBES(2, int(n), 2)
TENSOR_PROBES(3, int(n), 2, 3)
TENSOR_PROBES(4, int(n), 2, 3, 4)
TENSOR_PROBES(5, int(n), 2, 3, 4, 5)

PROBE(probe_prefetch_tensormap) { bulk::prefetch_tensormap(&map); }
