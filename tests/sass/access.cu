// SASS probes for cuprobe_suite/kernels/access.cuh (tests/areas/access.cmake): one load of the
// element's width per region (and one store for the copies), inside the region loop, no local
// memory; the default operators and the .cg ones cuprobe_suite/access.cuh runs.
#include <cuprobe_suite/kernels/access.cuh>

#include <cstdint>

namespace kernels = cuprobe::suite::kernels;
namespace c = cuprobe::ptx::cache;
template __global__ void kernels::access_kernel<std::uint8_t, false>(kernels::access_args);
template __global__ void kernels::access_kernel<std::uint16_t, false>(kernels::access_args);
template __global__ void kernels::access_kernel<std::uint32_t, false>(kernels::access_args);
template __global__ void kernels::access_kernel<std::uint64_t, false>(kernels::access_args);
template __global__ void kernels::access_kernel<uint4, false>(kernels::access_args);
template __global__ void kernels::access_kernel<std::uint32_t, true>(kernels::access_args);
template __global__ void kernels::access_kernel<uint4, true>(kernels::access_args);
template __global__ void kernels::access_kernel<std::uint8_t, false, 4, c::cg, c::cg>(
    kernels::access_args);
template __global__ void kernels::access_kernel<uint4, false, 4, c::cg, c::cg>(
    kernels::access_args);
template __global__ void kernels::access_kernel<std::uint32_t, true, 4, c::cg, c::cg>(
    kernels::access_args);
template __global__ void kernels::access_kernel<uint4, true, 4, c::cg, c::cg>(kernels::access_args);
