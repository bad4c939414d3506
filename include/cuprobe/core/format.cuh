// cuprobe/core/format.cuh: numbers as reports print them (host only).
//
//   cuprobe::fmt(4512.345, 1);          // "4512.3"
//   cuprobe::fmt(std::nullopt);         // "-": not known
//   cuprobe::fmt_bytes(1.5 * 1048576);  // "1.5 MiB"
//   cuprobe::fmt_time(1.2345e-3);       // "1.234 ms"
#pragma once

#include <cstdio>
#include <optional>
#include <string>

namespace cuprobe {

/// `v` with `precision` digits after the point ("nan" for NaN, which cuprobe never uses for
/// "not known": that is an empty std::optional, printed "-").
inline std::string fmt(double v, int precision = 2) {
  if (v != v) return "nan";
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", precision, v);
  return b;
}
/// An optional value: "-" when not known.
inline std::string fmt(const std::optional<double>& v, int precision = 2) {
  return v ? fmt(*v, precision) : "-";
}

/// A time in seconds with a unit that keeps 4 significant digits: "1.234 ms", "12.35 us".
inline std::string fmt_time(double s) {
  if (s >= 1) return fmt(s, 3) + " s";
  if (s >= 1e-3) return fmt(s * 1e3, 3) + " ms";
  if (s >= 1e-6) return fmt(s * 1e6, 3) + " us";
  return fmt(s * 1e9, 1) + " ns";
}

/// Bytes with a binary unit: "4 KiB", "1.5 MiB", "4 GiB".
inline std::string fmt_bytes(double bytes) {
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
