// cuprobe/model/impl/plateau.cuh: the definitions of cuprobe/model/plateau.cuh's larger host
// functions. Not a header of its own: plateau.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::model {

CUPROBE_DECL std::vector<plateau> find_plateaus(const std::vector<latency_point>& curve,
                                                const plateau_options& o) {
  require(o.relative >= 0 && o.absolute >= 0 && o.min_points >= 1,
          "find_plateaus: tolerances must be >= 0 and min_points >= 1");
  for (std::size_t i = 0; i < curve.size(); ++i) {
    require(std::isfinite(curve[i].value) && curve[i].value >= 0,
            "find_plateaus: values (cycles) must be finite and non-negative");
    require(i == 0 || curve[i].bytes > curve[i - 1].bytes,
            "find_plateaus: the curve must be sorted by strictly increasing bytes");
  }
  auto near = [&](double v, double level) {
    return std::fabs(v - level) <= std::max(o.relative * level, o.absolute);
  };
  struct region {
    std::size_t first, last, outliers;
    std::vector<double> v;
  };
  std::vector<region> regions;
  for (std::size_t i = 0; i < curve.size(); ++i) {
    const double v = curve[i].value;
    if (!regions.empty() && regions.back().last + 1 == i) {
      region& r = regions.back();
      const double level = median(r.v);
      if (near(v, level)) {
        r.v.push_back(v);
        r.last = i;
        continue;
      }
      if (r.v.size() >= 2 && i + 1 < curve.size() && near(curve[i + 1].value, level)) {
        ++r.outliers;
        r.last = i;
        continue;  // lone outlier: the region goes on
      }
    }
    regions.push_back({i, i, 0, {v}});
  }
  std::vector<region> kept;
  for (auto& r : regions) {
    if (r.v.size() < o.min_points) continue;
    if (!kept.empty() && kept.back().last + 2 >= r.first &&
        near(median(r.v), median(kept.back().v))) {
      region& k = kept.back();  // same level, at most one point apart: one plateau
      k.outliers += r.outliers + (r.first - k.last - 1);
      k.last = r.last;
      k.v.insert(k.v.end(), r.v.begin(), r.v.end());
      continue;
    }
    kept.push_back(std::move(r));
  }
  std::vector<plateau> out;
  for (const auto& r : kept) {
    plateau p;
    p.first = r.first;
    p.last = r.last;
    p.first_bytes = curve[r.first].bytes;
    p.last_bytes = curve[r.last].bytes;
    p.level = median(r.v);
    p.min_cycles = *std::min_element(r.v.begin(), r.v.end());
    p.max_cycles = *std::max_element(r.v.begin(), r.v.end());
    p.points = r.v.size();
    p.outliers = r.outliers;
    out.push_back(p);
  }
  return out;
}

CUPROBE_DECL std::string describe(const std::vector<plateau>& ps, double sm_clock_mhz) {
  std::string s;
  for (std::size_t i = 0; i < ps.size(); ++i) {
    const plateau& p = ps[i];
    char line[192];
    std::snprintf(line, sizeof line, "plateau %zu: %s .. %s  %.1f cycles", i + 1,
                  fmt_bytes(p.first_bytes).c_str(), fmt_bytes(p.last_bytes).c_str(), p.level);
    s += line;
    if (sm_clock_mhz > 0) {
      std::snprintf(line, sizeof line, " = %.1f ns", p.level / sm_clock_mhz * 1e3);
      s += line;
    }
    std::snprintf(line, sizeof line, " (%zu points%s)\n", p.points,
                  p.outliers ? ", outliers left out" : "");
    s += line;
  }
  return s;
}

}  // namespace cuprobe::model
