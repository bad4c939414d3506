// SASS probes for the peer transfer kernels (multi/peer_transfer.cuh): SM loads of another
// GPU's memory with .cg and .cv, stores into it with .cg and .wt, and the pull copy.
#include <cuprobe/multi/peer_transfer.cuh>

namespace c = cuprobe::ptx::cache;
namespace g = cuprobe::gen;

template __global__ void cuprobe::peer_read_kernel<c::cg>(g::stream_args);
template __global__ void cuprobe::peer_read_kernel<c::cv>(g::stream_args);
template __global__ void cuprobe::peer_write_kernel<c::cg>(g::stream_args);
template __global__ void cuprobe::peer_write_kernel<c::wt>(g::stream_args);
template __global__ void cuprobe::peer_copy_kernel<c::cg>(g::stream_args);
