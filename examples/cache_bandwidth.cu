// cache_bandwidth: read bandwidth against working set, from L1 through L2 to DRAM; the L1 and
// L2 capacities and bytes per clock per SM derived from the curve.
//
//   build/h200/examples/cache_bandwidth --json cache.json      (--quick: fewer sizes)
//
// float4 reads, many passes in one launch (in_kernel), so each launch reads >= 512 MiB:
//  - L1 curve: layout "replicated", default loads (ld.global, cached in L1): every block (one
//    per SM, 1024 threads) reads the whole array, so the array size is each SM's footprint.
//  - L2/DRAM curve: layout "partitioned" (grid-stride, 4 blocks of 256 per SM), ld.global.cg
//    (L2 only): the array size is the GPU's footprint.
// Derived: the level of each cache (L1: the replicated curve's peak up to 256 KiB; L2: median
// over 2..16 MiB; DRAM: median over 1..4 GiB), bytes per clock per SM at the measured SM clock,
// and each capacity as the largest size past the peak whose bandwidth is still above the
// geometric mean of that level and the next one.
#include <cuprobe/cuprobe.cuh>
#include <cuprobe/suite/memory.cuh>

#include <cmath>
#include <cstdio>

namespace gen = cuprobe::gen;
namespace cache = cuprobe::ptx::cache;

namespace {

struct curve_point {
  double bytes, gbps;
};

double window(const std::vector<curve_point>& c, double lo, double hi) {
  std::vector<double> v;
  for (const auto& p : c)
    if (p.bytes >= lo && p.bytes <= hi) v.push_back(p.gbps);
  return v.empty() ? -1 : cuprobe::summarize(v).median;
}

// The largest size past the curve's peak whose bandwidth stays above sqrt(upper x lower),
// interpolated in log-log space; -1 when the curve never falls below that threshold.
double capacity(const std::vector<curve_point>& c, double upper, double lower) {
  if (upper <= 0 || lower <= 0 || c.empty()) return -1;
  const double th = std::sqrt(upper * lower);
  std::size_t peak = 0;
  for (std::size_t i = 1; i < c.size(); ++i)
    if (c[i].gbps > c[peak].gbps) peak = i;
  for (std::size_t i = peak + 1; i < c.size(); ++i)
    if (c[i - 1].gbps >= th && c[i].gbps < th) {
      const double f = (std::log(c[i - 1].gbps) - std::log(th)) /
                       (std::log(c[i - 1].gbps) - std::log(c[i].gbps));
      return std::exp(std::log(c[i - 1].bytes) +
                      f * (std::log(c[i].bytes) - std::log(c[i - 1].bytes)));
    }
  return -1;
}

double peak_of(const std::vector<curve_point>& c, double hi) {
  double m = -1;
  for (const auto& p : c)
    if (p.bytes <= hi) m = std::max(m, p.gbps);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli =
        cuprobe::cli::parse(argc, argv, "cache_bandwidth: read bandwidth vs working set");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const auto kernels =
        gen::stream_kernels<gen::type_list<float4>, gen::type_list<cache::none, cache::cg>,
                            gen::pattern_list<gen::stream_pattern::read>,
                            gen::mode_list<cuprobe::loop_mode::in_kernel>>();
    const auto& k_l1 = gen::find_stream_kernel(kernels, gen::stream_pattern::read, 16, "none",
                                               cuprobe::loop_mode::in_kernel);
    const auto& k_l2 = gen::find_stream_kernel(kernels, gen::stream_pattern::read, 16, "cg",
                                               cuprobe::loop_mode::in_kernel);
    cuprobe::run_options o;
    o.warmup = 2;
    o.stop = cuprobe::stopping_rule::fixed(cli.quick ? 5 : 10);
    const double per_launch = cli.quick ? 256.0 * (1 << 20) : 512.0 * (1 << 20);
    const int ppo = cli.quick ? 1 : 2;  // points per octave

    cuprobe::results res(argc, argv);
    auto run_curve = [&](const gen::stream_kernel& k, gen::stream_layout layout, double lo,
                         double hi, const cuprobe::launch_shape& shape) {
      std::vector<curve_point> c;
      const double replicas =
          layout == gen::stream_layout::replicated ? double(shape.blocks()) : 1.0;
      for (int i = 0;; ++i) {
        const double bytes = std::round(lo * std::exp2(double(i) / ppo) / 4096) * 4096;
        if (bytes > hi) break;
        const auto passes =
            std::uint32_t(std::clamp(per_launch / (bytes * replicas), 1.0, 100000.0));
        gen::stream_workload w(gen::stream_pattern::read, 16, std::uint64_t(bytes / 16));
        w.fill_inputs(3);
        std::fprintf(stderr, "\r\033[Kcache_bandwidth %s %s", k.load_ptx,
                     cuprobe::fmt_bytes(bytes).c_str());
        auto r =
            cuprobe::suite::stream_bandwidth(k, w, shape, cuprobe::loop_mode::in_kernel, passes, o,
                                             /*dram=*/false, layout);
        r.check.require();
        c.push_back({bytes, r.m.gb_per_s()});
        res.add(std::move(r.m))
            .with_param("curve", layout == gen::stream_layout::replicated
                                     ? "L1 (replicated, ld.global)"
                                     : "L2/DRAM (partitioned, ld.global.cg)");
      }
      return c;
    };
    const auto l1 =
        run_curve(k_l1, gen::stream_layout::replicated, 4096, cli.quick ? 1 << 20 : 4 << 20,
                  gen::stream_shape(1, 1024, dev.sm_count));
    const auto l2 = run_curve(k_l2, gen::stream_layout::partitioned, 1 << 20,
                              cli.quick ? double(1ull << 30) : double(4ull << 30),
                              gen::stream_shape(4, 256, dev.sm_count));
    std::fprintf(stderr, "\n");

    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    const double hz = clk.effective_sm_clock_mhz * 1e6;
    // L1: the peak of the replicated curve up to 256 KiB (small arrays leave threads idle and
    // pay the pass loop per element, so the curve rises before it plateaus); past L1 the
    // replicated reads are served by the L2: the curve's tail.
    const double l1_bw = peak_of(l1, 256 << 10);
    const double l1_next = l1.empty() ? -1 : l1.back().gbps;
    const double l2_bw = window(l2, 2 << 20, 16 << 20);
    const double dram_bw = window(l2, 1.0 * (1 << 30), 4.0 * (1ull << 30));
    const double l1_cap = capacity(l1, l1_bw, l1_next > 0 ? l1_next : l2_bw);
    const double l2_cap = capacity(l2, l2_bw, dram_bw);
    auto per_clk = [&](double gbps) { return gbps < 0 ? -1 : gbps * 1e9 / (hz * dev.sm_count); };

    cuprobe::table t({"level", "GB/s", "bytes/clk/SM", "capacity (derived)", "device reports"});
    t.add_row({"L1 (replicated, peak <= 256 KiB)", cuprobe::fmt(l1_bw, 0, true),
               cuprobe::fmt(per_clk(l1_bw), 1, true), l1_cap < 0 ? "-" : cuprobe::fmt_bytes(l1_cap),
               "256 KiB L1+smem per SM (datasheet)"});
    t.add_row({"L2 (.cg, 2..16 MiB)", cuprobe::fmt(l2_bw, 0, true),
               cuprobe::fmt(per_clk(l2_bw), 1, true), l2_cap < 0 ? "-" : cuprobe::fmt_bytes(l2_cap),
               cuprobe::fmt_bytes(double(dev.l2_bytes))});
    t.add_row({"DRAM (.cg, 1..4 GiB)", cuprobe::fmt(dram_bw, 0, true),
               cuprobe::fmt(per_clk(dram_bw), 1, true), "", ""});
    std::printf("Read bandwidth vs working set on %s, float4, SM clock %.0f MHz (measured)\n\n",
                dev.name.c_str(), clk.effective_sm_clock_mhz);
    cuprobe::table pts({"curve", "working set", "GB/s"});
    for (const auto& p : l1)
      pts.add_row({"L1 (replicated)", cuprobe::fmt_bytes(p.bytes), cuprobe::fmt(p.gbps, 0)});
    for (const auto& p : l2)
      pts.add_row({"L2/DRAM (.cg)", cuprobe::fmt_bytes(p.bytes), cuprobe::fmt(p.gbps, 0)});
    pts.print();
    std::printf("\n");
    t.print();
    cuprobe::json& ex = res.extra("cache_bandwidth");
    auto put = [&](const char* k, double v) { ex[k] = v < 0 ? cuprobe::json() : cuprobe::json(v); };
    put("l1_gb_per_s", l1_bw);
    put("l2_gb_per_s", l2_bw);
    put("dram_gb_per_s", dram_bw);
    put("l1_bytes_per_clock_per_sm", per_clk(l1_bw));
    put("l2_bytes_per_clock_per_sm", per_clk(l2_bw));
    put("l1_capacity_bytes", l1_cap);
    put("l2_capacity_bytes", l2_cap);
    put("sm_clock_mhz", clk.effective_sm_clock_mhz);
    res.write(cli);
    return 0;
  });
}
