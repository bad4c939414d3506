// SASS probes for the system-memory kernels: the visibility kernel with each operator
// (cuprobe_suite/kernels/host_memory.cuh), the chase with ld.global.cv (gen/chase.cuh) and the
// zero-copy stream kernels with .cv loads and .wt stores (gen/stream_kernels.cuh, as
// cuprobe_suite/system_memory.cuh instantiates them).
#include <cuprobe/gen/chase.cuh>
#include <cuprobe/gen/stream_kernels.cuh>
#include <cuprobe_suite/kernels/host_memory.cuh>

namespace g = cuprobe::gen;
namespace kernels = cuprobe::suite::kernels;
namespace c = cuprobe::ptx::cache;

template __global__ void kernels::visibility_kernel<c::cv>(kernels::visibility_args,
                                                           kernels::visibility_out*);
template __global__ void kernels::visibility_kernel<c::cg>(kernels::visibility_args,
                                                           kernels::visibility_out*);
template __global__ void kernels::visibility_kernel<c::none>(kernels::visibility_args,
                                                             kernels::visibility_out*);
template __global__ void g::chase_kernel<g::chase_load<c::cv>>(g::chase_kernel_args,
                                                               g::chase_load<c::cv>,
                                                               g::chase_lane_out*);

__global__ void zero_copy_read_cv(g::stream_args a) {
  g::stream_body<g::stream_pattern::read, uint4, c::cv, c::wt, cuprobe::loop_mode::launches>(a);
}
__global__ void zero_copy_write_wt(g::stream_args a) {
  g::stream_body<g::stream_pattern::write, uint4, c::cv, c::wt, cuprobe::loop_mode::launches>(a);
}
__global__ void zero_copy_write_wb(g::stream_args a) {
  g::stream_body<g::stream_pattern::write, uint4, c::ca, c::wb, cuprobe::loop_mode::launches>(a);
}
