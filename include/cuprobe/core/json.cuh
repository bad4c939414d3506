// cuprobe/core/json.cuh: a small JSON value (null, bool, integer, number, string, array,
// object with keys kept in insertion order) and its writer. Used for benchmark parameters and
// by report/ for the results and summary files.
//
//   cuprobe::json j = cuprobe::json::object();
//   j["name"] = "dram.read";
//   j["bytes"] = 1 << 30;
//   j["samples"] = cuprobe::json::array({1.5e-3, 1.6e-3});
//   std::string text = j.dump(2);
//
// Non-finite numbers (NaN, inf) and empty std::optional values are written as null.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuprobe/core/box.cuh"
#include "cuprobe/core/error.cuh"

namespace cuprobe {

/// A JSON value: null, bool, integer, number, string, array or object (keys in insertion order).
class json {
 public:
  /// What a value holds.
  enum class kind { null, boolean, integer, number, string, array, object };
  using array_t = std::vector<json>;  ///< The elements of an array.
  /// The members of an object, in insertion order.
  using object_t = std::vector<std::pair<std::string, json>>;

  json() = default;
  json(std::nullptr_t) {}                        ///< A null value.
  json(bool b) : kind_(kind::boolean), b_(b) {}  ///< A bool.
  /// An integer (any integral type but bool).
  template <class T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  json(T v) : kind_(kind::integer), i_(static_cast<long long>(v)) {}
  /// A number (any floating-point type).
  template <class T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  json(T v) : kind_(kind::number), d_(static_cast<double>(v)) {}
  json(const char* s) : kind_(kind::string), s_(s) {}  ///< A string.
  /// An optional value: null when empty (cuprobe's "not known").
  template <class T>
  json(const std::optional<T>& v) : json(v ? json(*v) : json()) {}
  json(std::string s) : kind_(kind::string), s_(std::move(s)) {}  ///< A string.

  /// An array of the given values.
  static json array(std::initializer_list<json> items = {}) {
    json j;
    j.kind_ = kind::array;
    j.a_.emplace(items);
    return j;
  }
  /// An array of the values of a vector.
  template <class T>
  static json array_of(const std::vector<T>& items) {
    json j = array();
    for (const auto& v : items) j.push_back(json(v));
    return j;
  }
  /// An empty object.
  static json object() {
    json j;
    j.kind_ = kind::object;
    j.o_.emplace();
    return j;
  }

  kind type() const noexcept { return kind_; }                       ///< What the value holds.
  bool is_null() const noexcept { return kind_ == kind::null; }      ///< True for null.
  bool is_object() const noexcept { return kind_ == kind::object; }  ///< True for an object.
  bool is_array() const noexcept { return kind_ == kind::array; }    ///< True for an array.
  /// True for a number, integral or not.
  bool is_number() const noexcept { return kind_ == kind::number || kind_ == kind::integer; }
  bool is_string() const noexcept { return kind_ == kind::string; }  ///< True for a string.

  /// The number (an integer as a double); throws cuprobe::error for any other kind.
  double as_number() const {
    require(is_number(), "json: not a number");
    return kind_ == kind::integer ? static_cast<double>(i_) : d_;
  }
  /// The integer; throws cuprobe::error for any other kind.
  long long as_integer() const {
    require(kind_ == kind::integer, "json: not an integer");
    return i_;
  }
  /// The string; throws cuprobe::error for any other kind.
  const std::string& as_string() const {
    require(is_string(), "json: not a string");
    return s_;
  }
  bool as_bool() const {  ///< The bool; throws cuprobe::error for any other kind.
    require(kind_ == kind::boolean, "json: not a boolean");
    return b_;
  }

  /// Object member, created (null) when missing. A null value becomes an object first.
  json& operator[](const std::string& key) {
    if (kind_ == kind::null) *this = object();
    require(is_object(), "json: operator[] with a key on a non-object");
    for (auto& kv : *o_)
      if (kv.first == key) return kv.second;
    o_->emplace_back(key, json());
    return o_->back().second;
  }
  /// Object member or nullptr.
  const json* find(const std::string& key) const {
    if (!is_object()) return nullptr;
    for (const auto& kv : *o_)
      if (kv.first == key) return &kv.second;
    return nullptr;
  }
  /// Object member; throws cuprobe::error when missing.
  const json& at(const std::string& key) const {
    const json* j = find(key);
    require(j != nullptr, "json: no member '" + key + "'");
    return *j;
  }
  /// The members of an object, in insertion order.
  const object_t& items() const {
    require(is_object(), "json: items() of a non-object");
    return *o_;
  }
  void push_back(json v) {  ///< Appends to an array (a null value becomes an array first).
    if (kind_ == kind::null) *this = array();
    require(is_array(), "json: push_back on a non-array");
    a_->push_back(std::move(v));
  }
  /// The elements of an array.
  const array_t& elements() const {
    require(is_array(), "json: elements() of a non-array");
    return *a_;
  }
  /// The number of elements or members (0 for any other kind).
  std::size_t size() const noexcept {
    return is_array() ? a_->size() : is_object() ? o_->size() : 0;
  }

  /// The JSON text. indent < 0: one line; otherwise pretty-printed with that many spaces.
  std::string dump(int indent = -1) const {
    std::string out;
    write(out, indent, 0);
    return out;
  }

  /// `s` as a JSON string literal, quoted and escaped.
  static std::string quote(const std::string& s) {
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

  /// `d` as JSON text: the shortest form that reads back the same; null when not finite.
  static std::string number_text(double d) {
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

 private:
  static void newline(std::string& out, int indent, int depth) {
    if (indent < 0) return;
    out += '\n';
    out.append(static_cast<std::size_t>(indent * depth), ' ');
  }
  void write(std::string& out, int indent, int depth) const {
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

  kind kind_ = kind::null;
  bool b_ = false;
  long long i_ = 0;
  double d_ = 0;
  std::string s_;
  box<array_t> a_;  // a copy of a value copies its elements
  box<object_t> o_;
};

}  // namespace cuprobe
