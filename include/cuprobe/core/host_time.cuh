// cuprobe/core/host_time.cuh: the host's monotonic clock, a sleep, and the date, without <chrono>
// and <thread> (POSIX clock_gettime and nanosleep; the two headers cost every including unit).
//   const double t0 = cuprobe::monotonic_s(); cuprobe::sleep_s(0.010); /* t1 - t0 >= 10 ms */
#pragma once
#include "cuprobe/core/linkage.cuh"

#include <time.h>

#include <cerrno>
#include <string>

namespace cuprobe {

/// Seconds on CLOCK_MONOTONIC (steady: never set back; its origin is unspecified).
CUPROBE_DECL double monotonic_s();

/// Sleeps at least `seconds` (nothing when <= 0), resuming after a signal interrupts it.
CUPROBE_DECL void sleep_s(double seconds);

/// The time now in UTC, ISO 8601: "2026-11-29T12:34:56Z".
CUPROBE_DECL std::string utc_now_iso8601();

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/host_time.cuh"
#endif
