// SASS probes for gen/tma.cuh (tests/areas/tma.cmake): the copy each stream kernel issues, the
// consumers' 16-byte shared loads inside their loop, the store stream's bounded bulk groups and
// its proxy fence, the copy stream's load-then-store, and one copy per hop in the chase functors.
// Explicit instantiations; the checks select them by mangled name.
#include <cuprobe/gen/chase.cuh>
#include <cuprobe/gen/tma.cuh>
#include <cuprobe_suite/kernels/tma_multicast.cuh>

namespace g = cuprobe::gen;
namespace kernels = cuprobe::suite::kernels;
using g::tma_copy;
template __global__ void g::tma_load_stream_kernel<tma_copy::bulk, 4>(g::tma_stream_args);
template __global__ void g::tma_load_stream_kernel<tma_copy::tensor, 4>(g::tma_stream_args);
template __global__ void g::tma_store_stream_kernel<tma_copy::bulk, 4>(g::tma_stream_args);
template __global__ void g::tma_store_stream_kernel<tma_copy::tensor, 8>(g::tma_stream_args);
template __global__ void g::tma_copy_stream_kernel<4>(g::tma_stream_args);
template __global__ void g::chase_kernel<g::chase_bulk_load<16>>(g::chase_kernel_args,
                                                                 g::chase_bulk_load<16>,
                                                                 g::chase_lane_out*);
template __global__ void g::chase_kernel<g::chase_tensor_load<16>>(g::chase_kernel_args,
                                                                   g::chase_tensor_load<16>,
                                                                   g::chase_lane_out*);
template __global__ void kernels::tma_multicast_stream_kernel<4, 4, true>(
    kernels::tma_multicast_args);
template __global__ void kernels::tma_multicast_stream_kernel<4, 4, false>(
    kernels::tma_multicast_args);
template __global__ void kernels::tma_multicast_stream_kernel<2, 1, true>(
    kernels::tma_multicast_args);
