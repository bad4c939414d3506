// cuprobe/calibrate/impl/ceilings.cuh: the definitions of cuprobe/calibrate/ceilings.cuh's larger
// host functions. Not a header of its own: ceilings.cuh includes it at its end in the header-only
// mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL const std::vector<std::string>& measured_ceiling_keys() {
  static const std::vector<std::string> k = {
      "dram.read.tbps",        "dram.write.tbps", "dram.copy.tbps",           "l2.read.tbps",
      "l2.write.tbps",         "l2.copy.tbps",    "fma.f32.fraction_of_peak", "fma.f32.tflops",
      "clock.sm.effective_mhz"};
  return k;
}

CUPROBE_DECL void ceilings_options::validate() const {
  const auto in = [](double v, double lo, double hi) { return v >= lo && v <= hi; };
  require(in(dram_l2_factor, 8, 1024) && (!dram_array_bytes || *dram_array_bytes >= (1 << 20)),
          "ceilings_options: dram_l2_factor must be 8 .. 1024, dram_array_bytes >= 1 MiB");
  require(in(dram_passes, 1, 64) && in(l2_bytes_per_launch, 1 << 20, 1e13),
          "ceilings_options: dram_passes must be 1 .. 64, l2_bytes_per_launch 1 MiB .. 10 TB");
  require(in(fma_ms, 0.1, 1000) && in(clock_window_ms, 1, 1000),
          "ceilings_options: fma_ms must be 0.1 .. 1000, clock_window_ms 1 .. 1000");
  require(run.mode == loop_mode::launches && run.iterations == 1 && run.batch == 1,
          "ceilings_options: a sample is one launch; leave run.mode, iterations and batch");
  validate_options(run, "ceilings_options");
}

CUPROBE_DECL double ceilings_plan::bytes_moved() const {
  double b = 0;
  for (const auto& p : points) b += p.bytes_per_launch * double(launches_per_point);
  return b;
}

CUPROBE_DECL ceilings_plan plan_ceilings(const device_info& d, const ceilings_options& o,
                                         std::uint64_t free_bytes) {
  o.validate();
  require(d.sm_count > 0 && d.l2_bytes > 0 && d.max_threads_per_sm >= 1024,
          "plan_ceilings: the device reports no SMs, no L2 or fewer than 1024 threads per SM");
  ceilings_plan p;
  p.launches_per_point = o.run.warmup + o.run.stop.max_samples;
  const std::uint64_t l2 = d.l2_bytes, dram = o.dram_array_bytes.value_or(std::min(
                                                  o.dram_l2_factor * l2, 0.4 * free_bytes)) >>
                                              20 << 20;
  require(o.dram_array_bytes || dram >= 8 * l2,
          "plan_ceilings: " + fmt_bytes(double(free_bytes)) + " free holds no two DRAM arrays of " +
              fmt_bytes(8.0 * double(l2)) + " (8 x the L2) in 80 % of it");
  using S = gen::stream_pattern;
  for (auto pt : {S::read, S::write, S::copy}) {
    const std::string key = std::string("dram.") + gen::to_string(pt) + ".tbps";
    const double pass = double(dram) * (pt == S::copy ? 2 : 1);
    for (int b : {1, 2})
      p.points.push_back(
          {key, pt, false, false, b, 1024 / b, dram, o.dram_passes, pass * o.dram_passes});
    for (int t : {128, 256})
      if (pt != S::read) p.points.push_back({key, pt, false, true, 0, t, dram, 1, pass});
  }
  for (auto pt : {S::read, S::write, S::copy})
    for (std::uint64_t div : {16, 12, 8}) {  // block-private chunks: no line read by two SMs
      const unsigned t =
          gen::cache_bw_private_threads(l2 / div, unsigned(d.sm_count), gen::cache_bw_unroll);
      const auto s = gen::cache_bw_size_of(pt, l2 / div, unsigned(d.sm_count), t,
                                           gen::cache_bw_unroll, false, o.l2_bytes_per_launch);
      p.points.push_back({std::string("l2.") + gen::to_string(pt) + ".tbps", pt, true, false, 1,
                          int(t), s.elements * 16, s.rounds, s.bytes * (pt == S::copy ? 2 : 1)});
    }
  p.fma_grid = unsigned(d.sm_count * (d.max_threads_per_sm / 1024));
  const auto peak = model::find_peak(d.sm(), model::op_kind::fp32_fma);
  const double per_s = (peak ? peak->instructions_per_clock : 64.0) * d.sm_count *
                       (d.sm_clock_khz > 0 ? d.sm_clock_khz * 1e3 : 1.5e9);
  p.fma_iterations =
      int(std::max(1.0, std::round(per_s * o.fma_ms * 1e-3 / (p.fma_grid * 1024.0 * 10 * 128))));
  return p;
}

CUPROBE_DECL const measurement& measured_ceilings::best_of(const std::string& key) const {
  for (const auto& [k, i] : best)
    if (k == key) return points.at(i);
  throw error("measure_ceilings: no point gave " + key);
}

CUPROBE_DECL json merge_ceilings_metrics(const json& base, const json& fresh) {
  json m = base.is_object() ? base : json::object();
  for (const auto& kv : fresh.items()) m[kv.first] = kv.second;
  return m;
}

CUPROBE_DECL std::string ceilings_record_needed(const ceilings& c, const device_info& d) {
  if (!c.card()) return "no usable record of this card at " + ceilings_path(d.uuid);
  if (!c.card_stale().empty()) return "its record is stale: " + c.card_stale();
  for (const auto& k : measured_ceiling_keys())
    if (!c.card()->metric(k)) return "its record " + c.card()->path + " has no " + k;
  return "";
}

}  // namespace cuprobe
