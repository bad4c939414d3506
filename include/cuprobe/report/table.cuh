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

namespace cuprobe {

/// A console table: a header and rows of text cells, printed with padded columns.
class table {
 public:
  /// A table with these column headings.
  explicit table(std::vector<std::string> header) : header_(std::move(header)) {}
  /// Appends a row, cut or padded with empty cells to the number of columns.
  table& add_row(std::vector<std::string> row) {
    row.resize(header_.size());
    rows_.push_back(std::move(row));
    return *this;
  }
  std::size_t rows() const noexcept { return rows_.size(); }  ///< the number of rows

  /// The table as text: padded columns, a rule under the header, numbers right-aligned.
  std::string str() const {
    std::vector<std::size_t> w(header_.size());
    for (std::size_t c = 0; c < header_.size(); ++c) w[c] = header_[c].size();
    for (const auto& r : rows_)
      for (std::size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], r[c].size());
    std::string out;
    auto line = [&](const std::vector<std::string>& r, bool head) {
      for (std::size_t c = 0; c < r.size(); ++c) {
        const bool right = !head && is_number(r[c]);
        const std::string pad(w[c] - r[c].size(), ' ');
        out += right ? pad + r[c] : r[c] + pad;
        if (c + 1 < r.size()) out += "  ";
      }
      while (!out.empty() && out.back() == ' ') out.pop_back();
      out += '\n';
    };
    line(header_, true);
    std::vector<std::string> rule;
    for (auto n : w) rule.emplace_back(n, '-');
    line(rule, true);
    for (const auto& r : rows_) line(r, false);
    return out;
  }
  /// Writes str() to `f`.
  void print(std::FILE* f = stdout) const { std::fputs(str().c_str(), f); }

  /// The same table as GitHub-flavoured Markdown (numbers right-aligned).
  std::string markdown() const {
    auto row = [](const std::vector<std::string>& r) {
      std::string out = "|";
      for (const auto& c : r) out += " " + c + " |";
      return out + "\n";
    };
    std::string out = row(header_);
    std::string rule = "|";
    for (std::size_t c = 0; c < header_.size(); ++c) {
      bool numeric = !rows_.empty();
      for (const auto& r : rows_) numeric = numeric && (r[c].empty() || is_number(r[c]));
      rule += numeric ? " ---: |" : " --- |";
    }
    out += rule + "\n";
    for (const auto& r : rows_) out += row(r);
    return out;
  }

 private:
  static bool is_number(const std::string& s) {
    if (s.empty()) return false;
    char* end = nullptr;
    std::strtod(s.c_str(), &end);
    return end && *end == '\0';
  }
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace cuprobe
