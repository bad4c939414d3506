// cuprobe/measure/impl/region_timer.cuh: the definitions of cuprobe/measure/region_timer.cuh's
// larger host functions. Not a header of its own: region_timer.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::optional<double> clock_mhz_of(const std::vector<region_record>& records) {
  std::vector<double> mhz;
  for (const auto& r : records)
    if (r.stop_ns > r.start_ns && r.stop_cycles > r.start_cycles)
      mhz.push_back(double(r.stop_cycles - r.start_cycles) / double(r.stop_ns - r.start_ns) * 1e3);
  if (mhz.empty()) return std::nullopt;
  return summarize(mhz).median;
}

CUPROBE_DECL region_timer::region_timer(region_scope scope, std::size_t capacity)
    : scope_(scope), buf_(capacity) {
  require(capacity > 0 && capacity < (1ull << 32), "region_timer: capacity out of range");
  buf_.zero();
}

CUPROBE_DECL region_timer_view region_timer::view() {
  return region_timer_view{buf_.data(), static_cast<std::uint32_t>(buf_.size()), scope_};
}

CUPROBE_DECL std::vector<region_record> region_timer::read() const {
  std::vector<region_record> out;
  for (const auto& r : buf_.to_host())
    if (r.valid) out.push_back(r);
  return out;
}

CUPROBE_DECL double region_timer::calibrate_overhead(unsigned blocks, unsigned block_threads) {
  region_timer probe(scope_, std::size_t(blocks) * block_threads);
  detail::empty_region_kernel<<<blocks, block_threads>>>(probe.view(), 8);
  CUPROBE_CHECK_LAUNCH("cuprobe::region_timer empty region");
  synchronize_device("region_timer::calibrate_overhead");
  const auto st = probe.analyse(region_overhead::keep);
  overhead_ = st.cycles.median;
  return overhead_;
}

CUPROBE_DECL region_stats region_timer::analyse(region_overhead overhead) const {
  const auto recs = read();
  require(!recs.empty(), "region_timer::analyse: no region was recorded");
  region_stats st;
  st.records = recs.size();
  st.overhead_cycles = overhead_;
  st.overhead_subtracted = overhead == region_overhead::subtract;
  std::vector<double> cyc, ns;
  std::vector<std::vector<double>> per_sm;  // by %smid
  std::uint64_t first = ~0ull, last = 0;
  for (const auto& r : recs) {
    double c = static_cast<double>(r.stop_cycles - r.start_cycles);
    if (st.overhead_subtracted) c -= overhead_;
    cyc.push_back(c);
    ns.push_back(static_cast<double>(r.stop_ns - r.start_ns));
    if (per_sm.size() <= r.smid) per_sm.resize(std::size_t(r.smid) + 1);
    per_sm[r.smid].push_back(c);
    first = std::min(first, r.start_ns);
    last = std::max(last, r.stop_ns);
  }
  st.cycles = summarize(cyc);
  st.ns = summarize(ns);
  bool init = false;
  for (const auto& sm : per_sm) {
    if (sm.empty()) continue;
    ++st.sms;
    const double med = summarize(sm).median;
    st.sm_median_min = init ? std::min(st.sm_median_min, med) : med;
    st.sm_median_max = init ? std::max(st.sm_median_max, med) : med;
    init = true;
  }
  st.span_ns = static_cast<double>(last - first);
  return st;
}

}  // namespace cuprobe
