// cuprobe/core/impl/json.cuh: the definitions of cuprobe/core/json.cuh's larger host functions. Not
// a header of its own: json.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL json json::array(std::initializer_list<json> items) {
  json j;
  j.kind_ = kind::array;
  j.a_.emplace(items);
  return j;
}

CUPROBE_DECL json json::object() {
  json j;
  j.kind_ = kind::object;
  j.o_.emplace();
  return j;
}

CUPROBE_DECL double json::as_number() const {
  require(is_number(), "json: not a number");
  return kind_ == kind::integer ? static_cast<double>(i_) : d_;
}

CUPROBE_DECL long long json::as_integer() const {
  require(kind_ == kind::integer, "json: not an integer");
  return i_;
}

CUPROBE_DECL bool json::as_bool() const {
  require(kind_ == kind::boolean, "json: not a boolean");
  return b_;
}

CUPROBE_DECL const json* json::find(const std::string& key) const {
  if (!is_object()) return nullptr;
  for (const auto& kv : *o_)
    if (kv.first == key) return &kv.second;
  return nullptr;
}

CUPROBE_DECL const json& json::at(const std::string& key) const {
  const json* j = find(key);
  require(j != nullptr, "json: no member '" + key + "'");
  return *j;
}

CUPROBE_DECL auto json::items() const -> const object_t& {
  require(is_object(), "json: items() of a non-object");
  return *o_;
}

CUPROBE_DECL void json::push_back(json v) {
  if (kind_ == kind::null) *this = array();
  require(is_array(), "json: push_back on a non-array");
  a_->push_back(std::move(v));
}

CUPROBE_DECL auto json::elements() const -> const array_t& {
  require(is_array(), "json: elements() of a non-array");
  return *a_;
}

CUPROBE_DECL std::size_t json::size() const noexcept {
  return is_array() ? a_->size() : is_object() ? o_->size() : 0;
}

CUPROBE_DECL std::string json::quote(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (c < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out += static_cast<char>(c);
        }
    }
  }
  return out + "\"";
}

CUPROBE_DECL std::string json::number_text(double d) {
  if (!std::isfinite(d)) return "null";
  char buf[32];
  if (d == std::floor(d) && std::fabs(d) < 1e15) {  // integral values without an exponent
    std::snprintf(buf, sizeof buf, "%.0f", d);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", d);
  // Prefer the shortest form that reads back to the same double.
  for (int p = 6; p < 17; ++p) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", p, d);
    if (std::strtod(shorter, nullptr) == d) return shorter;
  }
  return buf;
}

CUPROBE_DECL void json::newline(std::string& out, int indent, int depth) {
  if (indent < 0) return;
  out += '\n';
  out.append(static_cast<std::size_t>(indent * depth), ' ');
}

CUPROBE_DECL void json::write(std::string& out, int indent, int depth) const {
  switch (kind_) {
    case kind::null:
      out += "null";
      break;
    case kind::boolean:
      out += b_ ? "true" : "false";
      break;
    case kind::integer:
      out += std::to_string(i_);
      break;
    case kind::number:
      out += number_text(d_);
      break;
    case kind::string:
      out += quote(s_);
      break;
    case kind::array: {
      out += '[';
      bool first = true;
      // Arrays of plain numbers stay on one line: sample lists remain readable.
      bool flat = true;
      for (const auto& v : *a_) flat = flat && !v.is_array() && !v.is_object();
      for (const auto& v : *a_) {
        if (!first) out += flat || indent < 0 ? (indent < 0 ? "," : ", ") : ",";
        if (!flat) newline(out, indent, depth + 1);
        v.write(out, indent, depth + 1);
        first = false;
      }
      if (!flat && !a_->empty()) newline(out, indent, depth);
      out += ']';
      break;
    }
    case kind::object: {
      out += '{';
      bool first = true;
      for (const auto& kv : *o_) {
        if (!first) out += ',';
        newline(out, indent, depth + 1);
        out += quote(kv.first);
        out += indent < 0 ? ":" : ": ";
        kv.second.write(out, indent, depth + 1);
        first = false;
      }
      if (!o_->empty()) newline(out, indent, depth);
      out += '}';
      break;
    }
  }
}

}  // namespace cuprobe
