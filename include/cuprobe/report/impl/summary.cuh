// cuprobe/report/impl/summary.cuh: the definitions of cuprobe/report/summary.cuh's larger host
// functions. Not a header of its own: summary.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL void summary_file::set(const std::string& key, double value) {
  require(std::isfinite(value), "summary metric '" + key + "' is not a finite number");
  metrics_[key] = value;
}

CUPROBE_DECL std::optional<double> summary_file::metric(const std::string& key) const {
  const json* v = metrics_.find(key);
  return v ? std::optional<double>(v->as_number()) : std::nullopt;
}

CUPROBE_DECL void summary_file::set_limit(const std::string& key, const counters::result& r) {
  const auto u = counters::limiting_unit(r);
  if (!u) return;
  limits_[key]["unit"] = u->unit;  // a null member becomes an object
  limits_[key]["percent"] = u->percent;
}

CUPROBE_DECL json summary_file::to_json() const {
  json j = json::object();
  j["schema"] = summary_schema;
  j["device"] = device_;
  j["commit"] = git_commit();
  j["command"] = command_;
  j["date"] = utc_now_iso8601();
  j["metrics"] = metrics_;
  if (!paths_.items().empty()) j["paths"] = paths_;
  if (!limits_.items().empty()) j["limits"] = limits_;
  return j;
}

}  // namespace cuprobe
