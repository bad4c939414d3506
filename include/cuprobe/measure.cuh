// cuprobe/measure.cuh: the measurement narrow header: the one runner (measure, measure_samples,
// measure_interleaved), the measurement and its flags, the timers (CUDA events, in-kernel
// regions), the L2 flush, the environment record and the results file (docs/guide.md, "Narrow
// headers").
#pragma once

#include "cuprobe/measure/environment.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/measure/flags.cuh"
#include "cuprobe/measure/l2_flush.cuh"
#include "cuprobe/measure/measurement.cuh"
#include "cuprobe/measure/region_timer.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/report/results.cuh"
