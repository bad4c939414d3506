// cuprobe/wgmma.cuh: the WGMMA narrow header: descriptors, fragments and accumulators,
// fence/commit/wait and mma_async (dense and sparse), with the shared-memory layout helpers and
// the proxy fences a wgmma kernel needs (docs/guide.md, "Narrow headers").
#pragma once

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/hopper/smem.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/timer.cuh"
#include "cuprobe/ptx/wgmma.cuh"
