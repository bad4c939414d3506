// cuprobe/report/table.cuh: an aligned console table and its Markdown form (numbers: fmt,
// fmt_bytes, fmt_time in core/format.cuh).
//
//   cuprobe::table t({"case", "GB/s", "flags"});
//   t.add_row({"read float4 .cg", cuprobe::fmt(4512.3, 1), ""});
//   t.print();   // columns padded; numbers right-aligned
#pragma once

#include <algorithm>

#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// A console table: a header and rows of text cells, printed with padded columns.
class table {
 public:
  /// A table with these column headings.
  explicit table(std::vector<std::string> header) : header_(std::move(header)) {}
  /// Appends a row, cut or padded with empty cells to the number of columns.
  CUPROBE_DECL table& add_row(std::vector<std::string> row);
  std::size_t rows() const noexcept { return rows_.size(); }  ///< the number of rows

  /// The table as text: padded columns, a rule under the header, numbers right-aligned.
  CUPROBE_DECL std::string str() const;
  /// Writes str() to `f`.
  void print(std::FILE* f = stdout) const { std::fputs(str().c_str(), f); }

  /// The same table as GitHub-flavoured Markdown (numbers right-aligned).
  CUPROBE_DECL std::string markdown() const;

 private:
  CUPROBE_DECL static bool is_number(const std::string& s);
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/report/impl/table.cuh"
#endif
