// cuprobe: header-only building blocks for GPU micro-benchmarks. The umbrella header.
// (cuprobe/testing/ is not included here: it needs doctest. Include it in your tests.)
#pragma once

#include "cuprobe/core/arch.cuh"
#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/core/version.cuh"
