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
#include "cuprobe/core/linkage.cuh"

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
  CUPROBE_DECL static json array(std::initializer_list<json> items = {});
  /// An array of the values of a vector.
  template <class T>
  static json array_of(const std::vector<T>& items) {
    json j = array();
    for (const auto& v : items) j.push_back(json(v));
    return j;
  }
  /// An empty object.
  CUPROBE_DECL static json object();

  kind type() const noexcept { return kind_; }                       ///< What the value holds.
  bool is_null() const noexcept { return kind_ == kind::null; }      ///< True for null.
  bool is_object() const noexcept { return kind_ == kind::object; }  ///< True for an object.
  bool is_array() const noexcept { return kind_ == kind::array; }    ///< True for an array.
  /// True for a number, integral or not.
  bool is_number() const noexcept { return kind_ == kind::number || kind_ == kind::integer; }
  bool is_string() const noexcept { return kind_ == kind::string; }  ///< True for a string.

  /// The number (an integer as a double); throws cuprobe::error for any other kind.
  CUPROBE_DECL double as_number() const;
  /// The integer; throws cuprobe::error for any other kind.
  CUPROBE_DECL long long as_integer() const;
  /// The string; throws cuprobe::error for any other kind.
  const std::string& as_string() const {
    require(is_string(), "json: not a string");
    return s_;
  }
  CUPROBE_DECL bool as_bool() const;  ///< The bool; throws cuprobe::error for any other kind.

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
  CUPROBE_DECL const json* find(const std::string& key) const;
  /// Object member; throws cuprobe::error when missing.
  CUPROBE_DECL const json& at(const std::string& key) const;
  /// The members of an object, in insertion order.
  CUPROBE_DECL const object_t& items() const;
  CUPROBE_DECL void push_back(
      json v);  ///< Appends to an array (a null value becomes an array first).
  /// The elements of an array.
  CUPROBE_DECL const array_t& elements() const;
  /// The number of elements or members (0 for any other kind).
  CUPROBE_DECL std::size_t size() const noexcept;

  /// The JSON text. indent < 0: one line; otherwise pretty-printed with that many spaces.
  std::string dump(int indent = -1) const {
    std::string out;
    write(out, indent, 0);
    return out;
  }

  /// `s` as a JSON string literal, quoted and escaped.
  CUPROBE_DECL static std::string quote(const std::string& s);

  /// `d` as JSON text: the shortest form that reads back the same; null when not finite.
  CUPROBE_DECL static std::string number_text(double d);

 private:
  CUPROBE_DECL static void newline(std::string& out, int indent, int depth);
  CUPROBE_DECL void write(std::string& out, int indent, int depth) const;

  kind kind_ = kind::null;
  bool b_ = false;
  long long i_ = 0;
  double d_ = 0;
  std::string s_;
  box<array_t> a_;  // a copy of a value copies its elements
  box<object_t> o_;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/json.cuh"
#endif
