// cuprobe/suite.cuh: the benchmark suite beside the library (docs/guide.md): the library's
// umbrella and every canned experiment but four, which their callers include themselves:
// experiments/gemm.cuh and gemm_report.cuh (they need cuBLASLt) and experiments/wgmma.cuh and
// wgmma_suite.cuh (their kernels need sm_90a). cuprobe's examples and tests include it; a
// user's own benchmark needs only <cuprobe/cuprobe.cuh> (the blocks).
#pragma once

#include "cuprobe/cuprobe.cuh"

#include "cuprobe/experiments/access.cuh"
#include "cuprobe/experiments/cache.cuh"
#include "cuprobe/experiments/compute.cuh"
#include "cuprobe/experiments/copy_engine.cuh"
#include "cuprobe/experiments/dsm.cuh"
#include "cuprobe/experiments/l2_home_write.cuh"
#include "cuprobe/experiments/l2_partitions.cuh"
#include "cuprobe/experiments/latency.cuh"
#include "cuprobe/experiments/latency_sweeps.cuh"
#include "cuprobe/experiments/memory.cuh"
#include "cuprobe/experiments/ordering.cuh"
#include "cuprobe/experiments/shared_memory.cuh"
#include "cuprobe/experiments/system_memory.cuh"
#include "cuprobe/experiments/timers.cuh"
#include "cuprobe/experiments/tma.cuh"
#include "cuprobe/experiments/tma_multicast.cuh"
