// device_report: cuprobe's main job, a one-page report of the GPU it runs on (over 600 lines:
// one short section per part of the card, each through the suite, and the --ceilings 1 path).
//
//   build/hopper/examples/device_report --summary docs/results/h200/summary.json
//
// Sections: the device (device_info), its environment now (NVML), the timers (overheads,
// resolution, effective SM clock), the GPUs of this node (when more than one is visible),
// compute (FP32 FMA peak and latencies; the tensor cores: one short bf16 wgmma throughput,
// examples/wgmma has the rest) and memory (DRAM bandwidth, the
// latency ladder, L2 bandwidth) and Hopper (TMA latency and streams, distributed shared memory).
// The headline numbers go to --summary (schema cuprobe.summary/1), written by this program only;
// --json keeps every measurement behind them. The sections are short versions of examples/timers,
// fma_throughput, instruction_table, dram_bandwidth, latency_ladder and cache_bandwidth, through
// the same cuprobe_suite/ functions.
// --quick: fewer repeats and configurations; --small: small arrays (for compute-sanitizer;
// the DRAM figures are then flagged cache_resident and are not DRAM figures). --ceilings 1: the
// library's block (cuprobe::measure_ceilings, calibrate/ceilings.cuh: DRAM and L2 read, write and
// copy, FP32 FMA, the SM clock), then the record's other keys (tensor, L1, shared memory, PCIe).
// With --counters sol (docs/counters.md), a last section names what stops each headline, and
// --summary records it ("limits").
#include <cuprobe/calibrate/ceilings.cuh>
#include <cuprobe_suite/copy_engine.cuh>
#include <cuprobe_suite/peer.cuh>
#include <cuprobe_suite/suite.cuh>
#include <cuprobe_suite/wgmma.cuh>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <type_traits>

namespace {

void section(const char* title) { std::printf("\n== %s ==\n", title); }

void print_device(const cuprobe::device_info& d) {
  section("device");
  std::printf("GPU                 %s (%s)\n", d.name.c_str(), d.uuid.c_str());
  std::printf("PCI bus             %s\n", d.pci_bus_id.c_str());
  std::printf("compute capability  %s\n", d.compute_capability().c_str());
  std::printf("SMs                 %d\n", d.sm_count);
  std::printf("SM clock (max)      %.0f MHz\n", d.sm_clock_khz / 1e3);
  std::printf("L2                  %.1f MiB\n", d.l2_bytes / 1048576.0);
  std::printf("shared memory       %zu KiB/SM, %zu KiB/block opt-in\n", d.smem_per_sm / 1024,
              d.smem_per_block_optin / 1024);
  std::printf("memory              %.1f GiB, %d-bit bus, %.0f MHz, nominal %.2f TB/s\n",
              d.global_mem_bytes / 1073741824.0, d.memory_bus_width_bits, d.memory_clock_khz / 1e3,
              d.nominal_dram_bytes_per_s() / 1e12);
  std::printf("ECC                 %s\n", d.ecc_enabled ? "on" : "off");
  std::printf("driver / runtime    %s / %s (CUDA API level)\n",
              cuprobe::device_info::version_text(d.driver_version).c_str(),
              cuprobe::device_info::version_text(d.runtime_version).c_str());
}

void print_environment(const cuprobe::device_info& d) {
  section("environment (NVML, now)");
  auto& n = cuprobe::nvml::instance();
  if (!n.available()) {
    std::printf("NVML unavailable: %s\n", n.why_unavailable().c_str());
    return;
  }
  const auto s = cuprobe::environment_probe(d.uuid).sample();
  auto val = [](auto v, const char* unit, int prec = 0) {
    return v ? cuprobe::fmt(double(*v), prec) + " " + unit : std::string("unavailable");
  };
  std::printf("driver              %s\n", n.driver_version().c_str());
  std::printf("SM clock            %s (max %s)\n", val(s.sm_clock_mhz, "MHz").c_str(),
              val(s.max_sm_clock_mhz, "MHz").c_str());
  std::printf("memory clock        %s (max %s)\n", val(s.mem_clock_mhz, "MHz").c_str(),
              val(s.max_mem_clock_mhz, "MHz").c_str());
  std::printf("power               %s of %s limit\n", val(s.power_w, "W", 1).c_str(),
              val(s.power_limit_w, "W").c_str());
  std::printf("temperature         %s\n", val(s.temperature_c, "C").c_str());
  std::string reasons;
  for (const auto& r : cuprobe::clock_event_reason_names(s.clock_event_reasons))
    reasons += (reasons.empty() ? "" : ", ") + r;
  std::printf("clock event reasons %s\n", reasons.empty() ? "none" : reasons.c_str());
  const auto on_off = [](std::optional<bool> b) { return !b ? "unavailable" : *b ? "on" : "off"; };
  std::printf("ECC / persistence   %s / %s\n", on_off(s.ecc_on), on_off(s.persistence_mode));
}

/// "GPUs of this node", only when more than one GPU is visible (examples/peer_memory measures
/// them against each other).
void report_node(cuprobe::summary_file& sum, cuprobe::results& res) {
  if (cuprobe::device_count() < 2) return;
  section("GPUs of this node");
  const auto node = cuprobe::suite::query_peer_node();
  cuprobe::suite::node_table(node).print();
  res.extra("node") = cuprobe::node_json(node.gpus);
  sum.set("node.gpus", node.count());
}

double report_timers(cuprobe::summary_file& sum, unsigned repeats) {
  section("timers");
  namespace ex = cuprobe::suite;
  using tc = cuprobe::timer_characterisation;
  ex::timer_repeat_options o;
  o.repeats = repeats;
  const auto t = ex::timer_repeats(o);
  const double mhz = t.median(&tc::effective_sm_clock_mhz);
  const auto nvml = t.nvml_sm_clock_mhz();
  std::printf("%%clock read        %.0f cycles\n", t.median(&tc::clock32_overhead_cycles));
  std::printf("%%clock64 read      %.0f cycles\n", t.median(&tc::clock64_overhead_cycles));
  std::printf("%%globaltimer tick  %.0f ns\n", t.median(&tc::globaltimer_tick_ns));
  std::printf("event resolution   %.3f us\n", t.median(&tc::event_resolution_us));
  std::printf("effective SM clock %.0f MHz (NVML: %s)\n", mhz,
              nvml ? cuprobe::fmt(*nvml, 0).c_str() : "unavailable");
  std::printf("(median of %u repeats; examples/timers gives the full table)\n", o.repeats);
  sum.set("timer.clock.overhead_cycles", t.median(&tc::clock32_overhead_cycles));
  sum.set("timer.clock64.overhead_cycles", t.median(&tc::clock64_overhead_cycles));
  sum.set("timer.globaltimer.tick_ns", t.median(&tc::globaltimer_tick_ns));
  sum.set("timer.event.resolution_us", t.median(&tc::event_resolution_us));
  sum.set("clock.sm.effective_mhz", mhz);
  if (nvml) sum.set("clock.sm.nvml_mhz", *nvml);
  return mhz;
}

/// --ceilings 1: the SM clock that measure_ceilings measured (one window; no reader overheads).
double report_block_clock(cuprobe::summary_file& sum, const cuprobe::measured_ceilings& b) {
  section("timers");
  const double mhz = b.metrics.at("clock.sm.effective_mhz").as_number();
  const cuprobe::json* nvml = b.clocks.find("clock.sm.nvml_mhz");
  std::printf("effective SM clock %.0f MHz (NVML: %s)\n", mhz,
              nvml ? cuprobe::fmt(nvml->as_number(), 0).c_str() : "unavailable");
  sum.set("clock.sm.effective_mhz", mhz);
  if (nvml) sum.set("clock.sm.nvml_mhz", nvml->as_number());
  return mhz;
}

/// The tensor-core line (sm_90): bf16 m64n256k16 SS wgmma, zero operands, ~7 ms launches after
/// 100 ms of idle GPU each, the better of 1 and 2 warpgroups per SM, at the clock measured in the
/// kernel (examples/wgmma has the sweeps, the sustained run and the other types).
void report_tensor(const cuprobe::device_info& d, const cuprobe::cli& cli,
                   cuprobe::summary_file& sum, cuprobe::results& res) {
  namespace ex = cuprobe::suite;
  if (d.sm() != 90) {
    std::printf("WGMMA bf16          not measured: wgmma exists on sm_90 only (this is sm_%d)\n",
                d.sm());
    return;
  }
  using C = cuprobe::suite::kernels::wgmma_bench<cuprobe::ptx::wgmma::bf16, 256>;
  std::optional<ex::wgmma_throughput_result> best;
  for (unsigned w : {1u, 2u}) {
    ex::wgmma_throughput_options o;
    o.warpgroups = w;
    o.target_ms = cli.small ? 0.2 : 7;
    o.run = cli.run_options();
    o.run.warmup = 1;
    o.run.stop = cuprobe::stopping_rule::fixed(cli.samples(5, 3));
    o.run.rest_ms = cli.small ? 0 : ex::wgmma_rest_ms;  // rested samples, as examples/wgmma's
    auto r = ex::wgmma_throughput<C>(d, o);
    cuprobe::require(r.check.ok, "wgmma validation failed: " + r.check.message);
    res.add(r.m);
    if (!best || r.tflops > best->tflops) best = std::move(r);
  }
  std::printf(
      "WGMMA bf16          %.1f TFLOP/s = %.1f %% of peak at the in-kernel clock %.0f MHz "
      "(m64n256k16 SS, zero operands, %u warpgroup(s)/SM, %.1f ms launches, each after %.0f ms "
      "idle)\n",
      best->tflops, 100 * best->fraction_of_peak.value_or(0), best->clock.median_mhz,
      best->warpgroups, best->run_ms, best->m.options.rest_ms);
  sum.set("tensor.bf16.tflops", best->tflops);
  sum.set_limit("tensor.bf16.tflops", best->m.counters);
  if (best->fraction_of_peak) sum.set("tensor.bf16.fraction_of_peak", *best->fraction_of_peak);
  sum.set("tensor.bf16.clock_mhz", best->clock.median_mhz);
}

/// One tensor-core ceiling of input type T: m64n256k16 SS, 2 warpgroups/SM, zero operands,
/// rested launches, at the clock measured in the kernel (the card's record keeps each type's
/// fraction of the peak model; examples/wgmma has every configuration).
template <class T>
void report_tensor_type(const cuprobe::device_info& d, const cuprobe::cli& cli,
                        cuprobe::summary_file& sum, cuprobe::results& res) {
  namespace ex = cuprobe::suite;
  ex::wgmma_throughput_options o;
  o.warpgroups = 2;
  o.target_ms = cli.small ? 0.2 : 7;
  o.run = cli.run_options();
  o.run.warmup = 1;
  o.run.stop = cuprobe::stopping_rule::fixed(cli.samples(3, 3));
  o.run.rest_ms = cli.small ? 0 : ex::wgmma_rest_ms;
  auto r = ex::wgmma_throughput<cuprobe::suite::kernels::wgmma_bench<T, 256>>(d, o);
  cuprobe::require(r.check.ok,
                   std::string("wgmma ") + T::name + " validation failed: " + r.check.message);
  std::printf("WGMMA %-5s         %.1f TFLOP/s = %.1f %% of peak at the in-kernel clock %.0f MHz\n",
              T::name, r.tflops, 100 * r.fraction_of_peak.value_or(0), r.clock.median_mhz);
  const std::string k = std::string("tensor.") + T::name;
  sum.set(k + ".tflops", r.tflops);
  if (r.fraction_of_peak) sum.set(k + ".fraction_of_peak", *r.fraction_of_peak);
  sum.set(k + ".clock_mhz", r.clock.median_mhz);
  res.add(std::move(r.m));
}

/// The host link's copy engines: pinned 256 MiB copies each way (examples/system_memory has the
/// sizes, pageable memory and both directions at once).
void report_pcie(const cuprobe::device_info& d, const cuprobe::cli& cli, cuprobe::summary_file& sum,
                 cuprobe::results& res) {
  namespace ex = cuprobe::suite;
  ex::copy_options o;
  o.sizes = {cli.small ? std::size_t(16) << 20 : std::size_t(256) << 20};
  o.directions = {ex::copy_direction::h2d, ex::copy_direction::d2h};
  o.host_kinds = {cuprobe::host_memory::pinned};
  o.peers = false;
  o.run = cli.run_options();
  o.run.warmup = 1;
  o.run.stop = cuprobe::stopping_rule::fixed(cli.samples(5, 3));
  const cuprobe::host_link bus = cuprobe::query_host_link(d);
  auto r = ex::copy_bandwidth(d, bus, o, [](const std::string&) {});
  for (auto dir : o.directions) {
    const auto* p = r.find(dir, cuprobe::host_memory::pinned, o.sizes[0]);
    if (!p) continue;
    const bool h2d = dir == ex::copy_direction::h2d;
    std::printf("PCIe %s            %.1f GB/s (pinned, %s per copy; %s)\n", h2d ? "H2D" : "D2H",
                p->m.gb_per_s(), cuprobe::fmt_bytes(double(o.sizes[0])).c_str(), bus.name.c_str());
    sum.set(h2d ? "pcie.h2d.gbps" : "pcie.d2h.gbps", p->m.gb_per_s());
  }
  for (auto& p : r.points) res.add(std::move(p.m));
}

/// The FP32 FMA line of measure_ceilings (one configuration: 10 chains x 1024 threads).
void report_block_fma(cuprobe::summary_file& sum, cuprobe::results& res,
                      const cuprobe::measured_ceilings& b) {
  const auto& m = b.best_of("fma.f32.tflops");
  const double f = b.metrics.at("fma.f32.fraction_of_peak").as_number();
  std::printf(
      "FP32 FMA            %.2f TFLOP/s = %.1f %% of %.2f TFLOP/s peak at %.0f MHz "
      "(measure_ceilings: %d chains, %u threads, 128 steps per loop)\n",
      m.tflop_per_s(), 100 * f, m.tflop_per_s() / f, m.rate.clock_mhz.value_or(0),
      int(m.params.at("chains").as_number()), m.launch->block.x);
  sum.set("fma.f32.tflops", m.tflop_per_s());
  sum.set_limit("fma.f32.tflops", m.counters);
  sum.set("fma.f32.fraction_of_peak", f);
  res.add(m);
}

/// The FP32 FMA sweep and the FMA latencies (the full report).
void report_fma_sweep(const cuprobe::device_info& d, const cuprobe::cli& cli,
                      cuprobe::summary_file& sum, cuprobe::results& res) {
  namespace ex = cuprobe::suite;
  namespace ops = cuprobe::gen::ops;
  using op = ops::fma_f32;
  // The best of 8, 10 and 12 independent chains x 512 and 1024 threads per block (the plateau
  // of examples/fma_throughput; single configurations vary by about half a percent), 128 steps
  // per chain per loop iteration (the loop counter's three instructions then take 0.3 % of the
  // issue slots, 1.2 % at the suite's default of 32) and 10 ms launches (the launch's ramp and
  // tail: 0.4 % of 2 ms).
  ex::throughput_options to;
  to.run = cli.run_options();
  to.run.warmup = 2;
  to.run.stop = cuprobe::stopping_rule::fixed(cli.samples(15, 15));
  to.target_ms = cli.small ? 2.0 : 10.0;
  const auto sweep = ex::chain_sweep_unrolled<op, 128, 8, 10, 12>(
      d, cli.small ? std::vector<int>{8} : std::vector<int>{8, 10, 12},
      cli.small ? std::vector<unsigned>{1024u} : std::vector<unsigned>{512u, 1024u}, to,
      [](int, unsigned) {});
  for (const auto& p : sweep.points) res.add(p.r.m);
  const auto& best = sweep.points[sweep.best];
  std::printf(
      "FP32 FMA            %.2f TFLOP/s = %.1f %% of %.2f TFLOP/s peak at %.0f MHz "
      "(best of 8, 10, 12 chains x 512, 1024 threads, 128 steps per loop: %d chains, %u "
      "threads)\n",
      best.r.m.tflop_per_s(), 100 * best.r.fraction_of_peak.value_or(0),
      best.r.peak_ops_per_s.value_or(0) / 1e12, best.r.m.rate.clock_mhz.value_or(0), best.chains,
      best.block);
  sum.set("fma.f32.tflops", best.r.m.tflop_per_s());
  sum.set_limit("fma.f32.tflops", best.r.m.counters);
  if (best.r.fraction_of_peak) sum.set("fma.f32.fraction_of_peak", *best.r.fraction_of_peak);
  ex::latency_options lo;
  lo.run = cli.run_options();
  lo.run.warmup = 0;
  lo.run.stop = cuprobe::stopping_rule::fixed(5);
  auto lat = [&](const char* name, auto l) {
    cuprobe::require(l.check.ok, std::string("latency validation failed: ") + l.check.message);
    std::printf("%-19s %.2f cycles (dependent)\n", name, l.m.cycles_per_op());
    const double c = l.m.cycles_per_op();
    res.add(std::move(l.m));
    return c;
  };
  sum.set("fma.f32.latency_cycles", lat("FFMA latency", ex::chain_latency<op>(lo)));
  lat("DFMA latency", ex::chain_latency<ops::fma_f64>(lo));
  lat("HFMA2 latency", ex::chain_latency<ops::hfma2_f16>(lo));
}

void report_compute(const cuprobe::device_info& d, const cuprobe::cli& cli,
                    cuprobe::summary_file& sum, cuprobe::results& res,
                    const cuprobe::measured_ceilings* block) {
  section("compute");
  if (block)
    report_block_fma(sum, res, *block);
  else
    report_fma_sweep(d, cli, sum, res);
  report_tensor(d, cli, sum, res);
  if (d.sm() == 90) {
    namespace wg = cuprobe::ptx::wgmma;
    report_tensor_type<wg::f16>(d, cli, sum, res);
    report_tensor_type<wg::tf32>(d, cli, sum, res);
    report_tensor_type<wg::e4m3>(d, cli, sum, res);
    report_tensor_type<wg::e5m2>(d, cli, sum, res);
  }
}

/// The limits of the L2 headlines (medians over working sets): each from the L2 point of its
/// pattern (the suite's "pattern" parameter, or the calibrate block's "cache.<pattern>") whose
/// rate is nearest the headline.
void limit_of_median(cuprobe::summary_file& sum, const std::vector<cuprobe::measurement>& points) {
  for (const char* p : {"read", "write", "copy"}) {
    const std::string key = std::string("l2.") + p + ".tbps";
    const auto v = sum.metric(key);
    const cuprobe::measurement* near = nullptr;
    const auto of = [&](const cuprobe::measurement& m) {
      const cuprobe::json* q = m.params.find("pattern");
      return m.name == std::string("cache.") + p || (q && q->is_string() && q->as_string() == p);
    };
    for (const auto& m : points)
      if (v && of(m) && m.rate.bytes_per_s &&
          (!near || std::fabs(*m.rate.bytes_per_s / 1e12 - *v) <
                        std::fabs(*near->rate.bytes_per_s / 1e12 - *v)))
        near = &m;
    if (near) sum.set_limit(key, near->counters);
  }
}

/// The DRAM stream sweep with cudaMemcpy and cudaMemset beside it, and the L2 bandwidth (the full
/// report).
void report_dram_l2(const cuprobe::device_info& d, const cuprobe::cli& cli,
                    cuprobe::summary_file& sum, cuprobe::results& res,
                    const cuprobe::run_options& run) {
  namespace gen = cuprobe::gen;
  namespace ex = cuprobe::suite;
  namespace cache = cuprobe::ptx::cache;
  const bool quick = cli.quick || cli.small;
  ex::dram_sweep_options o;
  o.patterns = {gen::stream_pattern::read, gen::stream_pattern::write, gen::stream_pattern::copy};
  o.widths = {16};
  o.persistent = quick ? std::vector<std::pair<int, int>>{{2, 512}, {4, 256}, {4, 512}}
                       : std::vector<std::pair<int, int>>{{1, 256}, {1, 512},  {1, 1024}, {2, 512},
                                                          {4, 256}, {2, 1024}, {4, 512},  {8, 256}};
  o.covering = quick ? std::vector<int>{256} : std::vector<int>{128, 256, 512, 1024};
  o.run = run;
  o.head_to_head = cli.small ? 3 : quick ? 10 : 20;  // the best copy vs cudaMemcpy, alternating
  // --small: one persistent shape and 16 MiB arrays (3 shapes and 64 MiB before): 3 patterns x
  // 2 operators x 2 modes x 2 grids = 24 points x 3 launches = 72 instead of 144 launches, on
  // a quarter of the bytes each.
  if (cli.small) {
    o.persistent = {{4, 256}};
    o.array_bytes = std::uint64_t(16) << 20;
  }
  const gen::stream_table<gen::type_list<float4>, gen::type_list<cache::cg, cache::cs>,
                          gen::pattern_list<gen::stream_pattern::read, gen::stream_pattern::write,
                                            gen::stream_pattern::copy>,
                          gen::all_modes, gen::all_grids>
      kernels;
  auto r = ex::dram_sweep(d, kernels, o, [](const std::string&) {});
  const char* keys[3] = {"dram.read.tbps", "dram.write.tbps", "dram.copy.tbps"};
  for (int i = 0; i < 3; ++i) {
    const auto& m = r.best(o.patterns[i]);
    std::printf("DRAM %-6s         %.2f TB/s (%s, %s, %s)%s\n", gen::to_string(o.patterns[i]),
                m.gb_per_s() / 1e3, m.params.at("case").as_string().c_str(),
                m.params.at("config").as_string().c_str(), m.declared.accounting.c_str(),
                m.flags.size() > 1 || (m.flags.size() == 1 &&
                                       m.flags[0].code != cuprobe::flag_code::clock_unknown)
                    ? "  FLAGGED (see JSON)"
                    : "");
    sum.set(keys[i], m.gb_per_s() / 1e3);
    sum.set_limit(keys[i], m.counters);
  }
  const double copy = r.best(gen::stream_pattern::copy).gb_per_s();
  const double write = r.best(gen::stream_pattern::write).gb_per_s();
  // The headline ratio: the best copy point and cudaMemcpy in alternating rounds (the sweep's
  // ratio sets the largest of many medians against one memcpy figure taken at another time).
  const double paired = r.copy_vs_memcpy.value_or(copy / r.memcpy->gb_per_s());
  std::printf(
      "cudaMemcpy D2D      %.2f TB/s (read + written); copy kernel / memcpy = %.3f "
      "(%zu alternating rounds; the sweep's best / memcpy: %.3f)\n",
      r.memcpy->gb_per_s() / 1e3, paired, o.head_to_head, copy / r.memcpy->gb_per_s());
  sum.set("dram.copy_vs_memcpy", paired);
  sum.set("dram.copy_vs_memcpy_sweep", copy / r.memcpy->gb_per_s());
  if (r.copy_vs_memcpy)
    sum.set_path("dram.copy_vs_memcpy",
                 "the sweep's best copy point against cudaMemcpy on the same arrays, " +
                     std::to_string(o.head_to_head) +
                     " alternating rounds, median of the paired ratios");
  sum.set("dram.memcpy.tbps", r.memcpy->gb_per_s() / 1e3);
  std::printf("cudaMemset          %.2f TB/s (written); write kernel / memset = %.3f\n",
              r.memset->gb_per_s() / 1e3, write / r.memset->gb_per_s());
  sum.set("dram.memset.tbps", r.memset->gb_per_s() / 1e3);
  for (auto& m : r.all) res.add(std::move(m));
  res.add(std::move(*r.memcpy));
  res.add(std::move(*r.memset));
  for (auto& m : r.head_to_head) res.add(std::move(m));

  ex::cache_bw_options co;
  co.run = run;
  if (cli.small) co.bytes_per_launch = 4.0 * (1 << 20);  // --small: a quarter of 16 MiB
  const auto l2 = ex::l2_bandwidth(d, co);
  for (const auto& m : l2.points) res.add(m);
  std::printf(
      "L2 read (.cg)       %.2f TB/s; write %.2f TB/s (%.2f x read); copy %.2f TB/s "
      "(median over working sets of L2/16, L2/12, L2/8)\n",
      l2.read_bytes_per_s / 1e12, l2.write_bytes_per_s / 1e12,
      l2.write_bytes_per_s / l2.read_bytes_per_s, l2.copy_bytes_per_s / 1e12);
  sum.set("l2.read.tbps", l2.read_bytes_per_s / 1e12);
  sum.set("l2.write.tbps", l2.write_bytes_per_s / 1e12);
  sum.set("l2.copy.tbps", l2.copy_bytes_per_s / 1e12);
  limit_of_median(sum, l2.points);
}

/// The DRAM and L2 lines of measure_ceilings (--ceilings 1).
void report_block_memory(cuprobe::summary_file& sum, cuprobe::results& res,
                         const cuprobe::measured_ceilings& b) {
  for (const char* what : {"read", "write", "copy"}) {
    const std::string key = std::string("dram.") + what + ".tbps";
    const auto& m = b.best_of(key);
    std::printf("DRAM %-6s         %.2f TB/s (%s, %s, %s)%s\n", what, m.gb_per_s() / 1e3,
                m.params.at("case").as_string().c_str(), m.params.at("config").as_string().c_str(),
                m.declared.accounting.c_str(),
                m.flags.size() > 1 || (m.flags.size() == 1 &&
                                       m.flags[0].code != cuprobe::flag_code::clock_unknown)
                    ? "  FLAGGED (see JSON)"
                    : "");
    sum.set(key, m.gb_per_s() / 1e3);
    sum.set_limit(key, m.counters);
  }
  for (const auto& m : b.points)
    if (m.name.compare(0, 6, "chain.") != 0) res.add(m);  // the FMA's is report_block_fma's
  const auto tbps = [&](const char* k) { return b.metrics.at(k).as_number(); };
  std::printf(
      "L2 read (.cg)       %.2f TB/s; write %.2f TB/s (%.2f x read); copy %.2f TB/s "
      "(median over working sets of L2/16, L2/12, L2/8)\n",
      tbps("l2.read.tbps"), tbps("l2.write.tbps"), tbps("l2.write.tbps") / tbps("l2.read.tbps"),
      tbps("l2.copy.tbps"));
  for (const char* k : {"l2.read.tbps", "l2.write.tbps", "l2.copy.tbps"}) sum.set(k, tbps(k));
  limit_of_median(sum, b.points);
}

void report_memory(const cuprobe::device_info& d, const cuprobe::cli& cli,
                   cuprobe::summary_file& sum, cuprobe::results& res, double clock_mhz,
                   const cuprobe::measured_ceilings* block) {
  section("memory");
  namespace ex = cuprobe::suite;
  auto run = cli.run_options();
  run.warmup = cli.small ? 1 : 2;
  run.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 10));
  if (block)
    report_block_memory(sum, res, *block);
  else
    report_dram_l2(d, cli, sum, res, run);

  ex::cache_curve_options l1o;  // its L1 options: two blocks of 512 threads per SM
  l1o.l1.run = run;
  if (cli.small) l1o.l1.bytes_per_launch = 4.0 * (1 << 20);  // --small: a quarter of 16 MiB
  const auto l1 = ex::l1_bandwidth(d, l1o.l1);
  for (const auto& m : l1.points) res.add(m);
  const double l1_clk =
      cuprobe::model::per_clock_per_sm(l1.read_bytes_per_s, d.sm_count, clock_mhz * 1e6);
  std::printf(
      "L1 read             %.1f B/clk/SM = %.2f TB/s (limit %.0f B/clk/SM; peak over "
      "%s .. %s per SM)\n",
      l1_clk, l1.read_bytes_per_s / 1e12, cuprobe::model::l1_bandwidth(d.sm()).bytes_per_clock,
      cuprobe::fmt_bytes(l1.working_sets.front()).c_str(),
      cuprobe::fmt_bytes(l1.working_sets.back()).c_str());
  sum.set("l1.read.bytes_per_clk_sm", l1_clk);

  ex::smem_bw_options so;
  so.run = run;
  so.run.warmup = 1;
  so.run.stop = cuprobe::stopping_rule::fixed(3);
  so.conflict_strides = {2};
  if (cli.small) so.rounds = 4;  // racecheck tracks every shared access
  const auto sm = ex::shared_memory_bandwidth(d, so, [](const std::string&) {});
  for (const auto* p : {&sm.read.back(), &sm.write.back(), &sm.conflicts.front()}) res.add(p->m);
  std::printf(
      "shared memory       ld.shared.v4 %.1f, st.shared.v4 %.1f B/clk/SM (limit %.0f); "
      "2-way conflict %.2f x conflict-free\n",
      sm.read.back().bytes_per_clock_per_sm, sm.write.back().bytes_per_clock_per_sm,
      sm.limit.bytes_per_clock,
      sm.conflicts.front().bytes_per_clock_per_sm / sm.read.front().bytes_per_clock_per_sm);
  sum.set("smem.read.bytes_per_clk_sm", sm.read.back().bytes_per_clock_per_sm);
  sum.set("smem.write.bytes_per_clk_sm", sm.write.back().bytes_per_clock_per_sm);

  if (block) return;
  ex::latency_ladder_options lo;
  lo.max_bytes = cli.small ? 4 * d.l2_bytes : 32 * d.l2_bytes;
  lo.points_per_octave = 1;
  lo.repeats = cli.quick || cli.small ? 1 : 3;
  lo.cg_max_bytes = 0;
  lo.max_steps = 1u << 16;
  lo.run = cli.run_options();
  lo.run.warmup = 0;
  lo.run.clock_mhz = clock_mhz;
  const auto lad = ex::latency_ladder(d, lo, [](const std::string&) {});
  for (const auto& m : lad.points) res.add(m);
  auto show = [&](const char* name, const char* key, std::optional<double> c) {
    std::printf(
        "%-19s %s cycles = %s ns\n", name, cuprobe::fmt(c, 1).c_str(),
        cuprobe::fmt(c ? std::optional<double>(*c / clock_mhz * 1e3) : std::nullopt, 1).c_str());
    if (c) sum.set(key, *c);
  };
  show("latency L1", "latency.l1.cycles", lad.l1);
  show("latency L2", "latency.l2.cycles", lad.l2);
  show("latency DRAM", "latency.dram.cycles", lad.dram);
  show("latency shared", "latency.smem.cycles", lad.smem);
}

/// The Hopper section (sm_90+): TMA latency and streams beside ld/st, distributed shared memory.
void report_hopper(const cuprobe::device_info& d, const cuprobe::cli& cli,
                   cuprobe::summary_file& sum, cuprobe::results& res, double clock_mhz) {
  section("hopper (TMA, distributed shared memory)");
  namespace ex = cuprobe::suite;
  if (d.cc_major < 9) {
    std::printf("not measured: sm_%d has no TMA or clusters (sm_90 or newer)\n", d.sm());
    return;
  }
  ex::tma_latency_options lo;
  lo.run = cli.run_options();
  lo.run.warmup = 0;
  lo.run.clock_mhz = clock_mhz;
  lo.max_steps = 1u << (cli.small ? 10 : 14);
  if (cli.small) {  // compute-sanitizer (examples/tma.cu says why)
    lo.l2_bytes = std::size_t(256) << 10;
    lo.dram_bytes = 2 * d.l2_bytes;
  }
  const auto lat = ex::tma_latency(d, lo);
  for (const auto* l : {&lat.l2, &lat.dram}) {
    std::printf("TMA latency %-7s  bulk %.0f, tensor %.0f cycles; ld.global.cg %.0f (%s ring)\n",
                l == &lat.l2 ? "L2" : "DRAM", l->bulk.cycles_per_op(), l->tensor.cycles_per_op(),
                l->ld.cycles_per_op(), cuprobe::fmt_bytes(double(l->bytes)).c_str());
    for (const auto* m : {&l->ld, &l->bulk, &l->tensor}) res.add(*m);
  }
  sum.set("tma.latency.l2.cycles", lat.l2.bulk.cycles_per_op());
  sum.set("tma.latency.dram.cycles", lat.dram.bulk.cycles_per_op());
  sum.set("tma.latency.l2.minus_ld_cycles",
          lat.l2.bulk.cycles_per_op() - lat.l2.ld.cycles_per_op());
  sum.set("tma.latency.dram.minus_ld_cycles",
          lat.dram.bulk.cycles_per_op() - lat.dram.ld.cycles_per_op());

  ex::tma_stream_options so;
  so.run = cli.run_options();
  so.run.warmup = cli.small ? 1 : 2;
  so.run.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));
  so.copy_bytes = {4096, 8192, 16384, 32768};
  so.stages = {2, 4, 8};
  so.ctas_per_sm = {1, 2};
  so.store_issuers = {1, 2};  // the best store point of examples/tma --explore 2 had 2 issuers
  so.copies_too = true;       // the TMA copy stream, and its best point against cudaMemcpy
  so.copy_rounds = cli.small ? 3 : cli.quick ? 10 : 20;
  if (cli.quick) so.copies = {cuprobe::gen::tma_copy::bulk};
  if (cli.small) {
    so.copy_bytes = {8192};
    so.stages = {2};
    so.ctas_per_sm = {1};
    so.store_issuers = {1};
    so.array_bytes = std::uint64_t(8) << 20;
  }
  const auto st = ex::tma_streams(d, so, [](const std::string&) {});
  const auto& bl = st.best_load();
  const auto& bs = st.best_store();
  std::printf("TMA load stream     %.2f TB/s (%s) = %.3f x ld.global (%.2f TB/s)\n",
              bl.gb_per_s() / 1e3, bl.params.at("case").as_string().c_str(),
              bl.gb_per_s() / st.read_peer->gb_per_s(), st.read_peer->gb_per_s() / 1e3);
  std::printf("TMA store stream    %.2f TB/s (%s) = %.3f x st.global (%.2f TB/s)\n",
              bs.gb_per_s() / 1e3, bs.params.at("case").as_string().c_str(),
              bs.gb_per_s() / st.write_peer->gb_per_s(), st.write_peer->gb_per_s() / 1e3);
  sum.set("tma.load.tbps", bl.gb_per_s() / 1e3);
  sum.set("tma.load.vs_ld", bl.gb_per_s() / st.read_peer->gb_per_s());
  sum.set("tma.store.tbps", bs.gb_per_s() / 1e3);
  sum.set("tma.store.vs_st", bs.gb_per_s() / st.write_peer->gb_per_s());
  if (st.copy_vs_memcpy) {
    const auto& bc = st.best_copy();
    std::printf("TMA copy stream     %.2f TB/s (%s) = %.3f x cudaMemcpy (%zu alternating rounds)\n",
                bc.gb_per_s() / 1e3, bc.params.at("case").as_string().c_str(), *st.copy_vs_memcpy,
                so.copy_rounds);
    sum.set("tma.copy.tbps", bc.gb_per_s() / 1e3);
    sum.set("tma.copy.vs_memcpy", *st.copy_vs_memcpy);
  }
  for (const auto* v : {&st.loads, &st.stores, &st.copies, &st.copy_head_to_head})
    for (const auto& m : *v) res.add(m);
  for (const auto& m : st.peer_points) res.add(m);  // every point that ran, the best among them

  ex::dsm_latency_options dl;
  dl.run = cli.run_options();
  dl.run.clock_mhz = clock_mhz;
  dl.cluster_sizes = {1, 2};
  dl.every_rank = false;
  if (cli.small) {
    dl.steps = 256;
    dl.bytes = 1024;
  }
  const auto dlat = ex::dsm_latency(d, dl);
  ex::dsm_bw_options db;
  db.run = cli.run_options();
  db.run.clock_mhz = clock_mhz;
  db.cluster_sizes = {2};
  db.widths = {16};
  if (cli.small) {
    db.rounds = 2;
    db.threads = 256;
  }
  const auto dbw = ex::dsm_bandwidth(d, db, [](const std::string&) {});
  for (const auto& p : dlat.points) res.add(p.m);
  for (const auto& p : dbw.points) res.add(p.m);
  std::printf("DSM latency         %s cycles (cluster of 2, rank 0 reading rank 1); own %s\n",
              cuprobe::fmt(dlat.latency_cycles, 1).c_str(),
              cuprobe::fmt(dlat.local_cycles, 1).c_str());
  std::printf("DSM read            %s TB/s (every SM reading its neighbour, 16 B per lane)\n",
              cuprobe::fmt(dbw.read_tbps, 2).c_str());
  if (dlat.latency_cycles) sum.set("dsm.latency.cycles", *dlat.latency_cycles);
  if (dbw.read_tbps) sum.set("dsm.read.tbps", *dbw.read_tbps);
}

/// One DRAM headline's two paths: the ld/st stream sweep's key and the TMA stream's, each named;
/// with a ratio to the driver's kernel (copy), the ratio key and the TMA stream's own.
struct dram_paths {
  const char *what, *key, *tma_key, *ld_name, *tma_name, *ratio_key = nullptr,
                                                         *tma_ratio_key = nullptr;
};

/// A DRAM headline is the best path measured for it (the ld/st stream sweep or the TMA stream),
/// named in the summary's "paths"; a copy's ratio to cudaMemcpy is the chosen path's own.
void pick_path(cuprobe::summary_file& sum, const dram_paths& p) {
  const auto ld = sum.metric(p.key), tma = sum.metric(p.tma_key);
  const auto tma_ratio = p.tma_ratio_key ? sum.metric(p.tma_ratio_key) : std::nullopt;
  if (!ld || !tma || (p.tma_ratio_key && !tma_ratio)) return;
  const bool use_tma = *tma > *ld;
  if (use_tma) sum.set(p.key, *tma);
  sum.set_path(p.key, use_tma ? p.tma_name : p.ld_name);
  if (use_tma && p.ratio_key) {  // else the ratio keeps report_memory's path
    sum.set(p.ratio_key, *tma_ratio);
    sum.set_path(p.ratio_key, p.tma_name);
  }
  std::printf("DRAM %-5s headline %.2f TB/s: %s (ld/st %.2f, TMA %.2f)\n", p.what,
              std::max(*ld, *tma), use_tma ? p.tma_name : p.ld_name, *ld, *tma);
}

void pick_paths(cuprobe::summary_file& sum) {
  pick_path(sum,
            {"read", "dram.read.tbps", "tma.load.tbps", "ld.global (the best of the stream sweep)",
             "the TMA load stream (cp.async.bulk into shared memory; tma.load.tbps)"});
  pick_path(sum, {"write", "dram.write.tbps", "tma.store.tbps",
                  "st.global (the best of the stream sweep)",
                  "the TMA store stream (cp.async.bulk from shared memory; tma.store.tbps)"});
  pick_path(sum, {"copy", "dram.copy.tbps", "tma.copy.tbps",
                  "ld.global / st.global (the best copy point of the stream sweep)",
                  "the TMA copy stream (cp.async.bulk in and out of shared memory; "
                  "tma.copy.tbps), against cudaMemcpy in alternating rounds (tma.copy.vs_memcpy)",
                  "dram.copy_vs_memcpy", "tma.copy.vs_memcpy"});
}

/// --ceilings 1: measure_ceilings' options (--small: small arrays and short launches).
cuprobe::ceilings_options block_options(const cuprobe::cli& cli) {
  cuprobe::ceilings_options o;
  o.run = cli.run_options();  // --profile
  o.run.warmup = 1;
  o.run.stop = cuprobe::stopping_rule::fixed(cli.samples(5, 5));
  if (cli.small) {
    o.dram_array_bytes = std::uint64_t(16) << 20;
    o.l2_bytes_per_launch = 4.0 * (1 << 20);
    o.fma_ms = 1;
  }
  return o;
}

/// What stops each headline (the limiting unit of its measurement's counters), or why none.
void print_limits(const cuprobe::summary_file& sum) {
  section("what stops each headline (hardware counters, docs/counters.md)");
  if (sum.limits().items().empty()) {
    std::printf("no counters were collected (see the sentence under the results table)\n");
    return;
  }
  for (const auto& [key, l] : sum.limits().items())
    std::printf("%-28s %s %.0f %%\n", key.c_str(), l.at("unit").as_string().c_str(),
                l.at("percent").as_number());
}

/// Writes this card's ceilings record (measure/ceilings.cuh) from the summary's metrics.
void write_record(const cuprobe::device_info& d, const cuprobe::summary_file& sum,
                  const std::string& path) {
  cuprobe::json clocks = cuprobe::json::object();
  for (const auto& kv : sum.metrics().items())
    if (kv.first.find("clock") != std::string::npos) clocks[kv.first] = kv.second;
  const std::string where = cuprobe::write_ceilings_record(
      d, cuprobe::nvml::instance().driver_version(), sum.metrics(), clocks, cuprobe::git_commit(),
      cuprobe::utc_now_iso8601(), path);
  std::printf(
      "\nceilings record written to %s (every later measure() of this card is placed "
      "against it)\n",
      where.c_str());
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "device_report: a one-page report of this GPU",
        {cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here"),
         cuprobe::cli_option::integer("--ceilings",
                                      "1: only what this card's ceilings record needs "
                                      "(cuprobe::measure_ceilings, then tensor, L1, shared "
                                      "memory and PCIe), then write the record",
                                      0, 1, 0),
         cuprobe::cli_option::path("--record",
                                   "write the ceilings record here instead of the "
                                   "per-user cache (cuprobe::ceilings_path)"),
         cuprobe::cli_option::integer("--no-record", "1: do not write the ceilings record", 0, 1,
                                      0)});
    const bool ceilings_only = cli.get_integer("--ceilings") == 1;
    const auto d = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    std::printf("cuprobe %s device report%s\n", cuprobe::version_string,
                ceilings_only ? " (ceilings only)" : "");
    cuprobe::summary_file sum(argc, argv, d);
    print_device(d);
    print_environment(d);
    std::optional<cuprobe::measured_ceilings> block;  // --ceilings 1: the library's block
    if (ceilings_only) {
      block = cuprobe::measure_ceilings(d, block_options(cli));
      std::printf("\nmeasure_ceilings: %zu measurements, %zu launches, %s moved, in %.1f s\n",
                  block->points.size(), block->plan.launches(),
                  cuprobe::fmt_bytes(block->plan.bytes_moved()).c_str(), block->wall_s);
    }
    // --small: one repeat (405 launches: 400 of them the event-resolution sleeps) instead of 3.
    const unsigned repeats = cli.small ? 1 : cli.quick ? 3 : 7;
    const double mhz = block ? report_block_clock(sum, *block) : report_timers(sum, repeats);
    cuprobe::results res(argc, argv);
    report_node(sum, res);
    report_compute(d, cli, sum, res, block ? &*block : nullptr);
    report_memory(d, cli, sum, res, mhz, block ? &*block : nullptr);
    report_pcie(d, cli, sum, res);
    if (!ceilings_only) report_hopper(d, cli, sum, res, mhz);
    pick_paths(sum);
    if (!cli.counters.empty() || std::getenv("CUPROBE_COUNTERS")) print_limits(sum);
    if (cli.get_integer("--no-record") != 1 && !cli.small)
      write_record(d, sum, cli.has("--record") ? cli.get("--record") : "");
    res.print_ceilings();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    return 0;
  });
}
