// host.separate_compilation: the one translation unit that defines the declared host functions.
#include <cuprobe/implementation.cuh>
