// Negative control for the setmaxnreg SASS test: without __launch_bounds__(threads, 1) (or
// -maxrregcount) ptxas cannot tell the register count at entry and drops setmaxnreg with only an
// info line (C7508). sass.hopper_async_setmaxnreg_ignored must FAIL on that line and on the
// missing USETMAXREG: it proves the FORBID_PTXAS_WARNING check of sass.hopper_async_setmaxnreg.
#include <cuprobe/ptx/setmaxnreg.cuh>

extern "C" __global__ void probe_setmaxnreg_no_bounds(unsigned* out, unsigned n) {
  if (threadIdx.x / 128 == 0) {
    cuprobe::ptx::setmaxnreg_dec<40>();
    out[threadIdx.x] = n;
  } else {
    cuprobe::ptx::setmaxnreg_inc<232>();
    out[threadIdx.x] = n + 1;
  }
}
