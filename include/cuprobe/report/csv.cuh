// cuprobe/report/csv.cuh: CSV text (RFC 4180 quoting) and one row per measurement.
//
//   cuprobe::write_text(path, cuprobe::measurements_csv(results));   // core/file.cuh
//
// Columns: name, every parameter key seen (in first-seen order), then the sample unit, the
// summary in that unit, the rates, the clock, the flags, the limiting unit and its share, and one
// column per counted metric seen ("counter:<metric> [<unit>]", first-seen order; per iteration
// for counts). Unknown values are empty cells.
#pragma once

#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/measurement.cuh"

namespace cuprobe {

/// `s` as one CSV cell: quoted, with its quotes doubled, when it holds a comma, quote or newline.
CUPROBE_DECL std::string csv_cell(const std::string& s);

/// The cells as one CSV line, ending in a newline.
CUPROBE_DECL std::string csv_line(const std::vector<std::string>& cells);

/// A number as a CSV cell; an empty cell for NaN or an unknown value.
///@{
inline std::string csv_number(double v) { return v != v ? "" : json::number_text(v); }
inline std::string csv_number(const std::optional<double>& v) { return v ? csv_number(*v) : ""; }
///@}

/// The CSV text of the measurements: a header line and one line per measurement.
CUPROBE_DECL std::string measurements_csv(const std::vector<measurement>& ms);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/report/impl/csv.cuh"
#endif
