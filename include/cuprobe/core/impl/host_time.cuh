// cuprobe/core/impl/host_time.cuh: the definitions of cuprobe/core/host_time.cuh's larger host
// functions. Not a header of its own: host_time.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL double monotonic_s() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

CUPROBE_DECL void sleep_s(double seconds) {
  if (!(seconds > 0)) return;
  timespec left{static_cast<time_t>(seconds),
                static_cast<long>((seconds - double(time_t(seconds))) * 1e9)};
  while (nanosleep(&left, &left) != 0 && errno == EINTR) {
  }
}

CUPROBE_DECL std::string utc_now_iso8601() {
  const time_t t = time(nullptr);
  tm u{};
  gmtime_r(&t, &u);
  char b[32];
  strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", &u);
  return b;
}

}  // namespace cuprobe
