// cuprobe/measure/sweep.cuh: parameter grids (cartesian and zipped) and a progress line.
//
//   auto pts = cuprobe::sweep::cartesian({{"blocks_per_sm", {1, 2, 4, 8}},
//                                         {"threads", {128, 256, 512, 1024}}});
//   cuprobe::sweep::run(pts, "dram.read", [&](const cuprobe::sweep::point& p) {
//     int b = p.get_int("blocks_per_sm"), t = p.get_int("threads");  ...
//   });
//
// A point is a JSON object (name -> value), so it goes straight into measurement::params.
// run() writes "[k/n] name a=1 b=2" to stderr, rewriting one line on a terminal.
#pragma once

#include <unistd.h>

#include <cstdio>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe::sweep {

/// One named axis and its values.
struct axis {
  std::string name;          ///< the axis's name: the key of its value in each point
  std::vector<json> values;  ///< the values, in sweep order
  /// An axis named `n` with the values `v`.
  ///@{
  axis(std::string n, std::initializer_list<json> v) : name(std::move(n)), values(v) {}
  axis(std::string n, std::vector<json> v) : name(std::move(n)), values(std::move(v)) {}
  ///@}
  /// An axis named `n` with the values of `v`, each converted to json.
  template <class T>
  static axis of(std::string n, const std::vector<T>& v) {
    std::vector<json> j;
    for (const auto& x : v) j.emplace_back(x);
    return axis(std::move(n), std::move(j));
  }
};

/// One point of a grid: values by axis name.
struct point {
  json values = json::object();  ///< axis name -> this point's value
  /// The value of axis `name`, as json, an integer, a number or a string.
  ///@{
  const json& operator[](const std::string& name) const { return values.at(name); }
  long long get_int(const std::string& name) const { return values.at(name).as_integer(); }
  double get_number(const std::string& name) const { return values.at(name).as_number(); }
  const std::string& get_string(const std::string& name) const {
    return values.at(name).as_string();
  }
  ///@}
  /// "name=value" for each axis, separated by spaces.
  CUPROBE_DECL std::string label() const;
};

/// Every combination of the axes' values; the last axis varies fastest.
CUPROBE_DECL std::vector<point> cartesian(const std::vector<axis>& axes);

/// The i-th values of all axes together; every axis must have the same length.
CUPROBE_DECL std::vector<point> zipped(const std::vector<axis>& axes);

/// Whether run() prints a progress line on stderr.
enum class progress { shown, hidden };

/// Calls f(point) for each point, with a progress line on stderr unless progress::hidden.
template <class F>
void run(const std::vector<point>& points, const std::string& name, F&& f,
         progress shown = progress::shown) {
  const bool tty = isatty(fileno(stderr));
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (shown == progress::shown) {
      std::fprintf(stderr, "%s[%zu/%zu] %s %s%s", tty ? "\r\033[K" : "", i + 1, points.size(),
                   name.c_str(), points[i].label().c_str(), tty ? "" : "\n");
      std::fflush(stderr);
    }
    f(points[i]);
  }
  if (shown == progress::shown && tty) std::fprintf(stderr, "\n");
}

}  // namespace cuprobe::sweep

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/sweep.cuh"
#endif
