// cuprobe/core/host_time.cuh: the host's monotonic clock, a sleep, and the date, without <chrono>
// and <thread> (POSIX clock_gettime and nanosleep; the two headers cost every including unit).
//   const double t0 = cuprobe::monotonic_s(); cuprobe::sleep_s(0.010); /* t1 - t0 >= 10 ms */
#pragma once

#include <time.h>

#include <cerrno>
#include <string>

namespace cuprobe {

/// Seconds on CLOCK_MONOTONIC (steady: never set back; its origin is unspecified).
inline double monotonic_s() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

/// Sleeps at least `seconds` (nothing when <= 0), resuming after a signal interrupts it.
inline void sleep_s(double seconds) {
  if (!(seconds > 0)) return;
  timespec left{static_cast<time_t>(seconds),
                static_cast<long>((seconds - double(time_t(seconds))) * 1e9)};
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {
  }
}

/// The time now in UTC, ISO 8601: "2026-11-29T12:34:56Z".
inline std::string utc_now_iso8601() {
  const time_t t = time(nullptr);
  tm u{};
  gmtime_r(&t, &u);
  char b[32];
  strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &u);
  return b;
}

}  // namespace cuprobe
