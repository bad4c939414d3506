// cuprobe: header-only building blocks for GPU micro-benchmarks. The umbrella header.
// (cuprobe/testing/ is not included here: it needs doctest. Include it in your tests.)
// Layers, bottom-up (docs/guide.md): core, ptx, gen, measure, model, report, suite.
#pragma once

#include "cuprobe/core/arch.cuh"
#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/core/version.cuh"

#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/timer.cuh"

#include "cuprobe/gen/chain.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/gen/ops.cuh"
#include "cuprobe/gen/ordering.cuh"
#include "cuprobe/gen/stream.cuh"
#include "cuprobe/gen/stream_check.cuh"

#include "cuprobe/measure/environment.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/measure/flags.cuh"
#include "cuprobe/measure/l2_flush.cuh"
#include "cuprobe/measure/nvml.cuh"
#include "cuprobe/measure/nvtx.cuh"
#include "cuprobe/measure/region_timer.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/measure/stats.cuh"
#include "cuprobe/measure/sweep.cuh"
#include "cuprobe/measure/timer_calibration.cuh"

#include "cuprobe/model/littles_law.cuh"
#include "cuprobe/model/peak.cuh"
#include "cuprobe/model/plateau.cuh"

#include "cuprobe/report/cli.cuh"
#include "cuprobe/report/csv.cuh"
#include "cuprobe/report/meta.cuh"
#include "cuprobe/report/results.cuh"
#include "cuprobe/report/summary.cuh"
#include "cuprobe/report/table.cuh"
