// sass.header_only_keeps_kernels: the definitions' translation unit of a program built with
// CUPROBE_SEPARATE_COMPILATION, whose device pass reads every impl/ body and so compiles every
// kernel they launch.
#include <cuprobe/implementation.cuh>
