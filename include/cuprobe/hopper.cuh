// cuprobe/hopper.cuh: the Hopper data-movement narrow header: mbarriers and their rings, bulk and
// tensor copies (TMA), clusters and distributed shared memory, tensor maps with their rule
// checks, and the shared-memory layout helpers (docs/guide.md, "Narrow headers").
#pragma once

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/hopper/cluster.cuh"
#include "cuprobe/hopper/smem.cuh"
#include "cuprobe/hopper/tensor_map.cuh"
#include "cuprobe/pipeline/ring.cuh"
#include "cuprobe/pipeline/roles.cuh"
#include "cuprobe/ptx/bulk.cuh"
#include "cuprobe/ptx/cluster.cuh"
#include "cuprobe/ptx/elect.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/mbarrier.cuh"
