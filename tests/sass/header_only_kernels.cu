// sass.header_only_keeps_kernels: the umbrella in a header-only translation unit. Its device
// pass reads no impl/ body (core/linkage.cuh), yet it must compile every kernel that the
// definitions' translation unit (implementation_kernels.cu) compiles.
#include <cuprobe/cuprobe.cuh>
