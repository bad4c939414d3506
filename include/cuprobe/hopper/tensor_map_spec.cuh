// cuprobe/hopper/tensor_map_spec.cuh: a tiled TMA tensor map as a value type, with every rule of
// cuTensorMapEncodeTiled checked on the host before the driver sees it, and a printer. The
// types are in detail/tensor_map_spec_types.cuh, the checker in tensor_map_rules.cuh; this
// header gives both (no include cycle: rules includes the types, this header includes both).
//
//   using namespace cuprobe::hopper;
//   auto spec = tensor_map_spec::matrix(a, 4096, 1024, 128, 64, swizzle_mode::b128);  // __half* a
//   spec.check();                                      // throws cuprobe::error with the sentence
#pragma once

#include "cuprobe/hopper/detail/tensor_map_spec_types.cuh"
#include "cuprobe/hopper/tensor_map_rules.cuh"
