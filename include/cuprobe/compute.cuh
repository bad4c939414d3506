// cuprobe/compute.cuh: the compute area's narrow header: accumulator chains (one dependent chain
// for latency, independent chains for throughput) over the instruction table, the arithmetic
// wrappers, the timers and the typed peak model (docs/guide.md, "Narrow headers").
#pragma once

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/gen/chain.cuh"
#include "cuprobe/gen/ops.cuh"
#include "cuprobe/model/op_kind.cuh"
#include "cuprobe/model/peak.cuh"
#include "cuprobe/ptx/arith.cuh"
#include "cuprobe/ptx/opaque.cuh"
#include "cuprobe/ptx/timer.cuh"
