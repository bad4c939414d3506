// cuprobe/measure/impl/counter_pass.cuh: the definitions of cuprobe/measure/counter_pass.cuh's
// larger host functions. Not a header of its own: counter_pass.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe::detail {

CUPROBE_DECL std::string counter_spec(const run_options& o) {
  if (o.counters == "none") return "";
  if (!o.counters.empty()) return o.counters;
  const char* e = std::getenv("CUPROBE_COUNTERS");
  return e && std::string(e) != "none" ? e : "";
}

CUPROBE_DECL bool first_kernel_range_failure() {
  static bool said = false;
  const bool first = !said;
  said = true;
  return first;
}

}  // namespace cuprobe::detail
