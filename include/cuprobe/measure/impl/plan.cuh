// cuprobe/measure/impl/plan.cuh: the definitions of cuprobe/measure/plan.cuh's larger host
// functions. Not a header of its own: plan.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL bool plan_mode_from_env() {
  const char* e = std::getenv("CUPROBE_PLAN");
  return e && *e && std::string(e) != "0";
}

CUPROBE_DECL planned_cost plan_cost(const run_options& o, double call_s, double host_s) {
  const stopping_rule& r = o.stop;
  const double batch = double(std::max<std::size_t>(o.batch, 1)), t = std::max(call_s, 0.0);
  const double sample_s = t * batch + o.rest_ms * 1e-3 + std::max(host_s, 0.0);
  double n = double(r.min_samples);
  if (r.min_time_s > 0 && sample_s > 0) n = std::max(n, std::ceil(r.min_time_s / sample_s));
  n = std::min(n, double(r.max_samples));
  if (n * sample_s > r.timeout_s) n = std::max(1.0, std::ceil(r.timeout_s / sample_s));
  return {double(o.warmup) + n * batch, n, double(o.warmup) * t + n * sample_s};
}

CUPROBE_DECL std::string plan_line(std::size_t measurements, double calls, double sampling_s,
                                   double other_s) {
  char b[200];
  std::snprintf(b, sizeof b,
                "cuprobe plan: measurements=%zu calls=%.0f sampling_s=%.2f other_s=%.2f "
                "expected_s=%.2f",
                measurements, calls, sampling_s, other_s, sampling_s + other_s);
  return b;
}

}  // namespace cuprobe

namespace cuprobe::detail {

CUPROBE_DECL void plan_ledger::book(const run_options& o, double ran_s, double host_s) {
  const planned_cost c = plan_cost(o, ran_s, host_s);
  ++measurements_, calls_ += c.calls, planned_s_ += c.seconds, ran_s_ += ran_s;
}

CUPROBE_DECL plan_ledger::~plan_ledger() {
  if (!plan_mode_from_env()) return;
  const double other = std::max(monotonic_s() - start_s_ - ran_s_, 0.0);
  std::fprintf(stderr, "%s\n", plan_line(measurements_, calls_, planned_s_, other).c_str());
}

}  // namespace cuprobe::detail
