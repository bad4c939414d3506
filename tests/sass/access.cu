// SASS probes for experiments/kernels/access.cuh (tests/areas/access.cmake): one load of the
// element's width per region (and one store for the copies), inside the region loop, no local
// memory; the default operators and the .cg ones experiments/access.cuh runs.
#include <cuprobe/experiments/kernels/access.cuh>

#include <cstdint>

namespace g = cuprobe::gen;
namespace c = cuprobe::ptx::cache;
template __global__ void g::access_kernel<std::uint8_t, false>(g::access_args);
template __global__ void g::access_kernel<std::uint16_t, false>(g::access_args);
template __global__ void g::access_kernel<std::uint32_t, false>(g::access_args);
template __global__ void g::access_kernel<std::uint64_t, false>(g::access_args);
template __global__ void g::access_kernel<uint4, false>(g::access_args);
template __global__ void g::access_kernel<std::uint32_t, true>(g::access_args);
template __global__ void g::access_kernel<uint4, true>(g::access_args);
template __global__ void g::access_kernel<std::uint8_t, false, 4, c::cg, c::cg>(g::access_args);
template __global__ void g::access_kernel<uint4, false, 4, c::cg, c::cg>(g::access_args);
template __global__ void g::access_kernel<std::uint32_t, true, 4, c::cg, c::cg>(g::access_args);
template __global__ void g::access_kernel<uint4, true, 4, c::cg, c::cg>(g::access_args);
