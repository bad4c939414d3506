// cuprobe/measure/impl/runner.cuh: the definitions of cuprobe/measure/runner.cuh's larger host
// functions. Not a header of its own: runner.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL bool profile_mode_from_env() {
  const char* e = std::getenv("CUPROBE_PROFILE");
  return (e && *e && std::string(e) != "0") || plan_mode_from_env();
}

CUPROBE_DECL void validate_options(const run_options& o, const std::string& who) {
  const std::string w = who + ": run_options.";
  const auto count = [&](const char* field, std::size_t v, std::size_t lo, std::size_t hi) {
    require(v >= lo && v <= hi, w + field + " is " + std::to_string(v) + "; it must be " +
                                    std::to_string(lo) + " .. " + std::to_string(hi) +
                                    (v > hi ? " (a negative number converted to size_t?)" : ""));
  };
  count("warmup", o.warmup, 0, run_options::max_warmup);
  count("iterations", o.iterations, 1, run_options::max_iterations);
  count("batch", o.batch, 1, run_options::max_batch);
  count("rotations", o.rotations, 1, run_options::max_rotations);
  require(o.mode == loop_mode::in_kernel || o.iterations == 1,
          w + "iterations is " + std::to_string(o.iterations) +
              " with loop_mode::launches (one pass per launch); set mode = in_kernel when the "
              "kernel makes several passes");
  require(std::isfinite(o.noise_threshold) && o.noise_threshold >= 0 && o.noise_threshold <= 10,
          w + "noise_threshold is " + std::to_string(o.noise_threshold) +
              "; it must be a finite relative standard deviation in 0 .. 10");
  require(!o.clock_mhz || (std::isfinite(*o.clock_mhz) && *o.clock_mhz > 0 && *o.clock_mhz < 1e5),
          w + "clock_mhz is " + (o.clock_mhz ? std::to_string(*o.clock_mhz) : std::string()) +
              "; it must be a positive SM clock in MHz (or unset: NVML's median)");
  require(std::isfinite(o.watchdog_s) && o.watchdog_s >= 0 && o.watchdog_s <= 86400,
          w + "watchdog_s is " + std::to_string(o.watchdog_s) +
              "; it must be 0 (the default limit) .. 86400 seconds");
  require(std::isfinite(o.rest_ms) && o.rest_ms >= 0 && o.rest_ms <= run_options::max_rest_ms,
          w + "rest_ms is " + std::to_string(o.rest_ms) + "; it must be 0 .. " +
              std::to_string(int(run_options::max_rest_ms)) + " ms of idle before each sample");
  o.stop.validate(who);
}

}  // namespace cuprobe

namespace cuprobe::detail {

CUPROBE_DECL runner_device& runner_device::current() {
  static std::vector<box<runner_device>> per_device;
  require_gpu();
  int dev = 0;
  CUPROBE_CHECK(cudaGetDevice(&dev));
  if (per_device.size() <= static_cast<std::size_t>(dev)) per_device.resize(dev + 1);
  if (!per_device[dev]) {
    auto info = device_info::query(dev);
    per_device[dev].emplace(runner_device{info, environment_probe(info.uuid), {}, {}, {}, {}});
  }
  return *per_device[dev];
}

CUPROBE_DECL const launch_overhead& runner_device::overheads() {
  if (!overhead) overhead = measure_launch_overhead();
  return *overhead;
}

CUPROBE_DECL counters::profiler* runner_device::profiler_for(const std::string& spec) {
  if (spec.empty()) return nullptr;
  for (auto& [s, p] : profilers)
    if (s == spec) return p.get();
  box<counters::profiler> p;
  p.emplace(counters::parse(spec));
  if (!p->ready() && !p->missing().empty())
    std::fprintf(stderr, "cuprobe: counters \"%s\" are not collected: %s\n", spec.c_str(),
                 p->missing().c_str());
  return profilers.emplace_back(spec, std::move(p)).second.get();
}

CUPROBE_DECL run_setup::run_setup(run_options& opt)
    : rd(runner_device::current()), prof(rd.profiler_for(counter_spec(opt))) {
  if (profile_mode_from_env()) opt.profile = true;
  stream_ = opt.stream ? opt.stream : own_.emplace().get();
}

CUPROBE_DECL const ceilings& runner_device::ceilings_of() {
  if (!ceil) {
    ceil = ceilings::for_device(info, nvml::instance().driver_version());
    for (const auto& n : ceil->notes()) std::fprintf(stderr, "%s\n", n.c_str());
  }
  return *ceil;
}

CUPROBE_DECL void rest_before_sample(cudaStream_t s, double ms, double limit_s) {
  if (ms <= 0) return;
  wait_for(s, "", limit_s);
  sleep_s(ms * 1e-3);
  empty_launch_kernel<<<1, 1, 0, s>>>();  // launch_overhead.cuh's
  CUPROBE_CHECK_LAUNCH("the launch that ends a rest");
}

CUPROBE_DECL void wait_limit::after_warmup(double warmup_s) {
  if (given <= 0 && 100 * warmup_s > now) now = 100 * warmup_s;
}

CUPROBE_DECL graph_set::~graph_set() {
  for (auto& g : graphs_) {
    if (g.exec) cudaGraphExecDestroy(g.exec);
    if (g.graph) cudaGraphDestroy(g.graph);
  }
}

CUPROBE_DECL void graph_set::launch(std::size_t k, cudaStream_t s) {
  CUPROBE_CHECK(cudaGraphLaunch(graphs_[k % graphs_.size()].exec, s));
}

}  // namespace cuprobe::detail

namespace cuprobe {

CUPROBE_DECL std::string ceiling_key_of(const work& w, double l2_bytes) {
  if (w.flops > 0 && w.tensor_type)
    return std::string("tensor.") + model::to_string(*w.tensor_type) + ".fraction_of_peak";
  if (w.flops > 0 && w.op_kind == model::op_kind::fp32_fma) return "fma.f32.fraction_of_peak";
  if (!(w.bytes() > 0)) return "";
  const data_source s = declared_dram(w, l2_bytes) ? data_source::dram : w.source;
  const double r = w.bytes_read, wr = w.bytes_written;
  char m[40];  // reads to writes, 3 digits: "5:1", "1:2.5"; "1:1" is a copy
  std::snprintf(m, sizeof m, r >= wr ? "%.3g:1" : "1:%.3g", r >= wr ? r / wr : wr / r);
  const std::string mix = m, kind = !wr ? "read" : !r ? "write" : mix == "1:1" ? "copy" : "";
  const std::string tbps = kind.empty() ? "mix." + mix : kind + ".tbps";
  switch (s) {
    case data_source::dram:
    case data_source::l2:
      return (s == data_source::dram ? "dram." : "l2.") + tbps;
    case data_source::l1:
      return kind == "read" ? "l1.read.bytes_per_clk_sm" : "";
    case data_source::shared:
      return kind == "read" || kind == "write" ? "smem." + kind + ".bytes_per_clk_sm" : "";
    default:
      return "";
  }
}

CUPROBE_DECL void place_measurement(measurement& m, const device_info& dev, const ceilings& c) {
  m.ceiling.reset();
  const std::string key = ceiling_key_of(m.declared, double(dev.l2_bytes));
  if (key.empty()) return;
  const bool flop = key.compare(0, 4, "fma.") == 0 || key.compare(0, 7, "tensor.") == 0;
  const std::optional<double> rate = flop ? m.rate.flop_per_s : m.rate.bytes_per_s;
  auto p = rate ? c.ceiling_of(key, m.rate.clock_mhz.value_or(0)) : std::nullopt;
  if (!p) return;
  p->rate_per_s = *rate;
  p->fraction = *rate / p->ceiling_per_s;
  if (p->source == ceiling_source::card && p->fraction > 1.02)
    m.flags.push_back({flag_code::above_measured_ceiling,
                       "the rate is " + fmt(p->fraction, 3) + " x this card's own measured " +
                           p->what + " ceiling (" + p->source_text +
                           "): the declared work is probably wrong" +
                           (m.declared.source == data_source::any
                                ? ", or the L2 served part of a working set given no level"
                                : "")});
  if (p->source == ceiling_source::card && !p->stale.empty())
    m.flags.push_back({flag_code::ceiling_stale, "this card's ceilings record is stale (" +
                                                     p->stale +
                                                     "): run device_report --ceilings again"});
  m.ceiling = std::move(p);
}

CUPROBE_DECL void finish_measurement(measurement& m, const device_info& dev, const ceilings* c) {
  m.stats = summarize(m.samples);
  rates& r = m.rate;
  r = rates{};
  if (m.options.clock_mhz) {
    r.clock_mhz = *m.options.clock_mhz;
    r.clock_source = "given";
  } else if (auto c = m.env.median_sm_clock_mhz()) {
    r.clock_mhz = *c;
    r.clock_source = "nvml (median during samples)";
  } else if (dev.sm_clock_khz > 0) {
    r.clock_mhz = dev.sm_clock_khz / 1e3;
    r.clock_source = "device maximum";
  }
  const double med = m.stats.median;
  if (m.unit == sample_unit::seconds || m.unit == sample_unit::nanoseconds)
    r.seconds = m.unit == sample_unit::seconds ? med : med * 1e-9;
  else if (m.unit == sample_unit::cycles && r.clock_mhz)
    r.seconds = med / (*r.clock_mhz * 1e6);
  const work& w = m.declared;
  if (r.seconds && *r.seconds > 0) {
    if (w.bytes() > 0) r.bytes_per_s = w.bytes() / *r.seconds;
    if (w.flops > 0) r.flop_per_s = w.flops / *r.seconds;
    if (w.ops > 0) r.ops_per_s = w.ops / *r.seconds;
  }
  if (w.ops > 0) {
    if (m.unit == sample_unit::cycles)
      r.cycles_per_op = med / w.ops;
    else if (r.seconds && r.clock_mhz)
      r.cycles_per_op = *r.seconds * *r.clock_mhz * 1e6 / w.ops;
  }

  flag_inputs in;
  in.bytes_per_s = r.bytes_per_s;
  in.ops_per_s = r.ops_per_s;
  in.dram_working_set = w.source == data_source::dram;
  in.working_set_bytes = w.working_set_bytes;
  if (dev.l2_bytes) in.l2_bytes = double(dev.l2_bytes);
  in.in_kernel = m.options.mode == loop_mode::in_kernel;
  in.iterations = m.options.iterations;
  if (dev.nominal_dram_bytes_per_s() > 0)
    in.nominal_dram_bytes_per_s = dev.nominal_dram_bytes_per_s();
  const double max_clock_hz = dev.sm_clock_khz * 1e3;
  if (dev.sm_count > 0 && max_clock_hz > 0 && dev.sm() >= 70) {
    in.memory_peak_bytes_per_s = model::peak_per_s(
        dev.sm_count, model::l1_bandwidth(dev.sm()).bytes_per_clock, max_clock_hz);
    if (w.op_kind)
      if (auto p = model::find_peak(dev.sm(), *w.op_kind))
        in.compute_peak_ops_per_s =
            model::peak_per_s(dev.sm_count, p->instructions_per_clock, max_clock_hz);
  }
  in.min_sm_clock_mhz = m.env.min_sm_clock_mhz();
  in.max_sm_clock_mhz = m.env.max_sm_clock_mhz();
  in.throttle_reasons = m.env.throttle_reasons_seen;
  if (m.unit == sample_unit::seconds && m.launch_floor_s) {
    in.launch_floor_s = m.launch_floor_s;
    in.sample_s = med * double(m.options.iterations) * double(m.options.batch);
  }
  in.debug_build = arch::debug_device_code;
  in.rel_stdev = m.stats.rel_stdev;
  in.noise_threshold = m.options.noise_threshold;
  in.samples = m.stats.count;
  m.flags = evaluate_flags(in);
  apply_counter_flags(m, double(dev.l2_bytes));
  if (c) place_measurement(m, dev, *c);
}

}  // namespace cuprobe
