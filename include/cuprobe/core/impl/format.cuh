// cuprobe/core/impl/format.cuh: the definitions of cuprobe/core/format.cuh's larger host functions.
// Not a header of its own: format.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::string fmt(double v, int precision) {
  if (v != v) return "nan";
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", precision, v);
  return b;
}

CUPROBE_DECL std::string fmt_time(double s) {
  if (s >= 1) return fmt(s, 3) + " s";
  if (s >= 1e-3) return fmt(s * 1e3, 3) + " ms";
  if (s >= 1e-6) return fmt(s * 1e6, 3) + " us";
  return fmt(s * 1e9, 1) + " ns";
}

CUPROBE_DECL std::string fmt_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char b[64];
  std::snprintf(b, sizeof b, bytes == static_cast<long long>(bytes) ? "%.0f %s" : "%.1f %s", bytes,
                units[u]);
  return b;
}

}  // namespace cuprobe
