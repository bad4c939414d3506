// cuprobe/measure/impl/interleave.cuh: the definitions of cuprobe/measure/interleave.cuh's larger
// host functions. Not a header of its own: interleave.cuh includes it at its end in the header-only
// mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL contestant::contestant(std::string n, callback<void(cudaStream_t)> f, work w,
                                    callback<void(const launch_context&)> then)
    : name(std::move(n)), declared(std::move(w)), after(std::move(then)) {
  if (f) launch = [g = std::move(f)](const launch_context& c) { g(c.stream); };
}

CUPROBE_DECL std::vector<measurement> measure_interleaved(const std::string& name,
                                                          std::vector<contestant> cs,
                                                          run_options opt) {
  const std::string who = "measure_interleaved(\"" + name + "\")";
  validate_options(opt, who);
  require(!cs.empty(), who + ": no contestant to measure");
  require(!opt.graph, who + ": graph = true is not offered; every contestant is launched as is");
  for (const auto& c : cs) require(bool(c.launch), who + ": contestant '" + c.name + "' is empty");
  const detail::run_setup setup(opt);
  auto& rd = setup.rd;
  counters::profiler* prof = setup.prof;
  const cudaStream_t s = setup.stream();
  const std::size_t n = cs.size(), batch = opt.profile ? 1 : opt.batch;
  const bool flush = opt.flush_l2;  // profile mode too: its one round is a sample
  if (flush && !rd.flush) rd.flush.emplace(rd.info.l2_bytes);
  std::vector<measurement> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    out[i].name = cs[i].name;
    out[i].declared = cs[i].declared;
    out[i].unit = sample_unit::seconds;
    out[i].options = opt;
    out[i].options.stream = nullptr;
  }
  event_timer timer(s);
  auto warm = [&](double limit_s) {
    for (std::size_t w = 0; w < opt.warmup; ++w)
      for (std::size_t j = 0; j < n; ++j) {
        const std::size_t c = (w + j) % n;
        detail::in_phase(cs[c].name, "warm-up", limit_s, [&] {
          cs[c].launch(launch_context{s, 0, w % opt.rotations, true});
          CUPROBE_CHECK_LAUNCH("the measured callable (warm-up)");
        });
      }
  };
  // One round: each contestant's sample, recorded in its own measurement; the round's total
  // (per launch) is what the protocol's stopping rule sees.
  auto take = [&](std::size_t k, double& accumulated, double limit_s) {
    double round = 0;
    for (std::size_t j = 0; j < n; ++j) {
      const std::size_t c = (k + j) % n;
      detail::in_phase(cs[c].name, "sample " + std::to_string(k), limit_s, [&] {
        detail::rest_before_sample(s, opt.rest_ms, limit_s);
        if (flush) (*rd.flush)(s);
        const launch_context ctx{s, k, (k * batch) % opt.rotations, false};
        nvtx_range own(cs[c].name, opt.nvtx);  // ncu names its kernels by the contestant
        timer.start();
        for (std::size_t b = 0; b < batch; ++b)
          cs[c].launch(launch_context{s, k, (k * batch + b) % opt.rotations, false});
        timer.stop();
        CUPROBE_CHECK_LAUNCH("the measured callable");
        timer.wait("", limit_s);  // the launches are done
        const double t = timer.seconds();
        accumulated += t;
        round += t;
        out[c].samples.push_back(t / double(batch) / double(opt.iterations));
        if (cs[c].after) cs[c].after(ctx);
      });
      if (opt.sample_clocks && rd.probe.available()) {
        if (auto mhz = rd.probe.sm_clock_mhz()) out[c].env.sm_clock_mhz.push_back(*mhz);
        out[c].env.throttle_reasons_seen |= rd.probe.throttle_bits();
      }
    }
    return round / double(batch * n);
  };
  run_options round_opt = opt;
  round_opt.flush_l2 = false;       // flushed per contestant above
  round_opt.sample_clocks = false;  // read per contestant above
  round_opt.rest_ms = 0;            // rested per contestant above
  const measurement rounds = detail::run_protocol(rd, name, sample_unit::seconds, {}, round_opt, s,
                                                  warm, take, nullptr, opt.rest_ms * double(n));
  // Each contestant's counters, in a pass of their own after the rounds (its batch of launches).
  for (std::size_t c = 0; c < n; ++c)
    detail::counter_pass(
        out[c], prof, s, double(batch * opt.iterations), detail::wait_limit{opt.watchdog_s}.now,
        [&] {
          for (std::size_t b = 0; b < batch; ++b)
            cs[c].launch(launch_context{s, 0, b % opt.rotations, false});
          CUPROBE_CHECK_LAUNCH("the measured callable (counters)");
        },
        [&] {
          if (flush) (*rd.flush)(s);
        });
  for (auto& m : out) {
    m.env.before = rounds.env.before;
    m.env.after = rounds.env.after;
    m.wall_s = rounds.wall_s;
    m.stop_verdict = rounds.stop_verdict;
    if (!opt.profile) m.launch_floor_s = rd.overheads().floor_s(batch, launch_path::stream);
    finish_measurement(m, rd.info, &rd.ceilings_of());
    m.with_param("interleaved", int(n)).with_param("interleave_group", name);
  }
  return out;
}

CUPROBE_DECL std::optional<double> paired_ratio(const measurement& mine, const measurement& peer,
                                                const std::vector<std::size_t>* rounds) {
  const work &a = mine.declared, &b = peer.declared;
  const double scale = a.bytes() > 0 && b.bytes() > 0 ? a.bytes() / b.bytes()
                       : a.flops > 0 && b.flops > 0   ? a.flops / b.flops
                       : a.ops > 0 && b.ops > 0       ? a.ops / b.ops
                                                      : 1.0;
  std::vector<double> x;
  const std::size_t n = std::min(mine.samples.size(), peer.samples.size());
  for (std::size_t k = 0; k < n; ++k)
    if (mine.samples[k] > 0 &&
        (!rounds || std::find(rounds->begin(), rounds->end(), k) != rounds->end()))
      x.push_back(scale * peer.samples[k] / mine.samples[k]);
  if (x.empty()) return std::nullopt;
  return median(x);
}

}  // namespace cuprobe
