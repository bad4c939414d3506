// cuprobe/implementation.cuh: the definitions of cuprobe's larger host functions, for exactly one
// translation unit of a program built with CUPROBE_SEPARATE_COMPILATION (core/linkage.cuh says
// how the two modes work).
//
//   // cuprobe_implementation.cu, compiled with -DCUPROBE_SEPARATE_COMPILATION like the rest:
//   #include <cuprobe/implementation.cuh>
#pragma once

#ifndef CUPROBE_SEPARATE_COMPILATION
#error \
    "cuprobe/implementation.cuh is for programs built with CUPROBE_SEPARATE_COMPILATION: \
without it every header defines its host functions itself (core/linkage.cuh)"
#endif

#include "cuprobe/cuprobe.cuh"

#include "cuprobe/calibrate/impl/ceilings.cuh"
#include "cuprobe/core/impl/arch.cuh"
#include "cuprobe/core/impl/device_buffer.cuh"
#include "cuprobe/core/impl/device_info.cuh"
#include "cuprobe/core/impl/error.cuh"
#include "cuprobe/core/impl/file.cuh"
#include "cuprobe/core/impl/format.cuh"
#include "cuprobe/core/impl/host_buffer.cuh"
#include "cuprobe/core/impl/host_time.cuh"
#include "cuprobe/core/impl/json.cuh"
#include "cuprobe/core/impl/json_parse.cuh"
#include "cuprobe/core/impl/launch.cuh"
#include "cuprobe/core/impl/stats.cuh"
#include "cuprobe/core/impl/version.cuh"
#include "cuprobe/core/impl/watchdog.cuh"
#include "cuprobe/measure/impl/bus.cuh"
#include "cuprobe/measure/impl/ceilings.cuh"
#include "cuprobe/measure/impl/counter_checks.cuh"
#include "cuprobe/measure/impl/counter_pass.cuh"
#include "cuprobe/measure/impl/counter_sets.cuh"
#include "cuprobe/measure/impl/cupti.cuh"
#include "cuprobe/measure/impl/environment.cuh"
#include "cuprobe/measure/impl/event_timer.cuh"
#include "cuprobe/measure/impl/flags.cuh"
#include "cuprobe/measure/impl/interleave.cuh"
#include "cuprobe/measure/impl/l2_flush.cuh"
#include "cuprobe/measure/impl/launch_overhead.cuh"
#include "cuprobe/measure/impl/measurement.cuh"
#include "cuprobe/measure/impl/nvlink.cuh"
#include "cuprobe/measure/impl/nvml.cuh"
#include "cuprobe/measure/impl/nvtx.cuh"
#include "cuprobe/measure/impl/plan.cuh"
#include "cuprobe/measure/impl/region_timer.cuh"
#include "cuprobe/measure/impl/runner.cuh"
#include "cuprobe/measure/impl/stopping_rule.cuh"
#include "cuprobe/measure/impl/sweep.cuh"
#include "cuprobe/measure/impl/timer_calibration.cuh"
#include "cuprobe/model/impl/access.cuh"
#include "cuprobe/model/impl/littles_law.cuh"
#include "cuprobe/model/impl/memory.cuh"
#include "cuprobe/model/impl/peak.cuh"
#include "cuprobe/multi/impl/peer.cuh"
#include "cuprobe/multi/impl/peer_transfer.cuh"
#include "cuprobe/report/impl/cli.cuh"
#include "cuprobe/report/impl/csv.cuh"
#include "cuprobe/report/impl/meta.cuh"
#include "cuprobe/report/impl/node.cuh"
#include "cuprobe/report/impl/results.cuh"
#include "cuprobe/report/impl/summary.cuh"
#include "cuprobe/report/impl/table.cuh"
#include "cuprobe/testing/impl/child.cuh"
