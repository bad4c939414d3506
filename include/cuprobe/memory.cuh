// cuprobe/memory.cuh: the memory area's narrow header: buffers, cache-operator loads and stores,
// the streaming patterns and the pointer chase, timed by the event timer and the runner's
// measurement type. A kernel that streams or chases memory needs nothing else (docs/guide.md,
// "Narrow headers"; the umbrella cuprobe/cuprobe.cuh includes it and everything else).
#pragma once

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/host_buffer.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/gen/stream.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/opaque.cuh"
#include "cuprobe/ptx/shared.cuh"
#include "cuprobe/ptx/timer.cuh"
