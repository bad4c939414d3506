// cuprobe/report/impl/table.cuh: the definitions of cuprobe/report/table.cuh's larger host
// functions. Not a header of its own: table.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL table& table::add_row(std::vector<std::string> row) {
  row.resize(header_.size());
  rows_.push_back(std::move(row));
  return *this;
}

CUPROBE_DECL std::string table::str() const {
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

CUPROBE_DECL std::string table::markdown() const {
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

CUPROBE_DECL bool table::is_number(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end && *end == '\0';
}

}  // namespace cuprobe
