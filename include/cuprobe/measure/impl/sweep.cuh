// cuprobe/measure/impl/sweep.cuh: the definitions of cuprobe/measure/sweep.cuh's larger host
// functions. Not a header of its own: sweep.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::sweep {

CUPROBE_DECL std::string point::label() const {
  std::string s;
  for (const auto& kv : values.items()) {
    if (!s.empty()) s += ' ';
    s += kv.first + "=" + (kv.second.is_string() ? kv.second.as_string() : kv.second.dump());
  }
  return s;
}

CUPROBE_DECL std::vector<point> cartesian(const std::vector<axis>& axes) {
  std::vector<point> out(1);
  for (const auto& a : axes) {
    require(!a.values.empty(), "sweep::cartesian: axis '" + a.name + "' has no values");
    std::vector<point> next;
    for (const auto& p : out)
      for (const auto& v : a.values) {
        point q = p;
        q.values[a.name] = v;
        next.push_back(std::move(q));
      }
    out = std::move(next);
  }
  return out;
}

CUPROBE_DECL std::vector<point> zipped(const std::vector<axis>& axes) {
  require(!axes.empty(), "sweep::zipped: no axes");
  const std::size_t n = axes.front().values.size();
  for (const auto& a : axes)
    require(a.values.size() == n, "sweep::zipped: axis '" + a.name + "' has " +
                                      std::to_string(a.values.size()) + " values, expected " +
                                      std::to_string(n));
  std::vector<point> out(n);
  for (std::size_t i = 0; i < n; ++i)
    for (const auto& a : axes) out[i].values[a.name] = a.values[i];
  return out;
}

}  // namespace cuprobe::sweep
