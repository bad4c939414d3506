// cuprobe_suite/suite.cuh: the benchmark suite beside the library (docs/guide.md): the library's
// umbrella and 16 of the suite's 23 experiments. The other seven are included by their callers:
// - gemm.cuh, gemm_report.cuh: they need cuBLASLt (examples/gemm);
// - wgmma.cuh, wgmma_suite.cuh: their kernel needs sm_90a (examples/wgmma, device_report);
// - collectives.cuh, collectives_nccl.cuh: NCCL's collectives across the GPUs of a node, the runs
//   only where NCCL is (examples/collectives);
// - peer.cuh: the GPUs of a node against each other (examples/peer_memory, device_report).
// The kernels of cuprobe_suite/kernels/ come with the experiments that use them: all but wgmma.cuh
// and wgmma_check.cuh, which only cuprobe_suite/wgmma.cuh brings. So do curve.cuh and plateau.cuh,
// what the cache and latency experiments read off their curves. cuprobe's examples and tests
// include this header; a user's own benchmark needs only <cuprobe/cuprobe.cuh> (the blocks).
#pragma once

#include "cuprobe/cuprobe.cuh"

#include "cuprobe_suite/access.cuh"
#include "cuprobe_suite/cache.cuh"
#include "cuprobe_suite/compute.cuh"
#include "cuprobe_suite/copy_engine.cuh"
#include "cuprobe_suite/dsm.cuh"
#include "cuprobe_suite/l2_home_write.cuh"
#include "cuprobe_suite/l2_partitions.cuh"
#include "cuprobe_suite/latency.cuh"
#include "cuprobe_suite/latency_sweeps.cuh"
#include "cuprobe_suite/memory.cuh"
#include "cuprobe_suite/ordering.cuh"
#include "cuprobe_suite/shared_memory.cuh"
#include "cuprobe_suite/system_memory.cuh"
#include "cuprobe_suite/timers.cuh"
#include "cuprobe_suite/tma.cuh"
#include "cuprobe_suite/tma_multicast.cuh"
