// cuprobe/core/format.cuh: numbers as reports print them (host only).
//
//   cuprobe::fmt(4512.345, 1);          // "4512.3"
//   cuprobe::fmt(std::nullopt);         // "-": not known
//   cuprobe::fmt_bytes(1.5 * 1048576);  // "1.5 MiB"
//   cuprobe::fmt_time(1.2345e-3);       // "1.234 ms"
#pragma once
#include "cuprobe/core/linkage.cuh"

#include <cstdio>
#include <optional>
#include <string>

namespace cuprobe {

/// `v` with `precision` digits after the point ("nan" for NaN, which cuprobe never uses for
/// "not known": that is an empty std::optional, printed "-").
CUPROBE_DECL std::string fmt(double v, int precision = 2);
/// An optional value: "-" when not known.
inline std::string fmt(const std::optional<double>& v, int precision = 2) {
  return v ? fmt(*v, precision) : "-";
}

/// A time in seconds with a unit that keeps 4 significant digits: "1.234 ms", "12.35 us".
CUPROBE_DECL std::string fmt_time(double s);

/// Bytes with a binary unit: "4 KiB", "1.5 MiB", "4 GiB".
CUPROBE_DECL std::string fmt_bytes(double bytes);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/format.cuh"
#endif
