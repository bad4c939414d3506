// cache_bandwidth: the caches' bandwidth. Read bandwidth against working set from L1 through L2
// to DRAM, with the L1 and L2 levels and capacities read off the curves; the L2's read, write
// and copy bandwidth; shared-memory bandwidth (4, 8 and 16 bytes per lane, the bank-conflict
// curve over strides 1..32, the broadcast). Every figure in bytes per clock per SM at the SM
// clock measured here, and in TB/s, beside the limit it is compared with.
//
//   build/hopper/examples/cache_bandwidth --json cache.json      (--quick: fewer sizes)
//   --partitions 0: leave out the two L2 partitions (cuprobe_suite/l2_partitions.cuh).
//   --l2-write-scaling 0: leave out the L2 write against SMs writing and by home
//   (cuprobe_suite/l2_home_write.cuh: one SM's store port, the L2's write intake).
//   --l2-write-path st_global|tma_bulk|home: the L2 write figure's kernel (st.global.cg, bulk
//   stores from shared memory, or each SM its own partition's lines); all: only every write
//   variant, validated, beside the read.
//   --explore 1: also sweep the kernels' shape (blocks per SM x threads x accesses in flight) for
//   the L2 and L1 reads, with the stream kernel of dram_bandwidth beside them (how the defaults
//   were chosen: docs/memory-ptx.md).
//
// The experiments are cuprobe_suite/cache.cuh (cache_curves, cache_levels_of, l2_bandwidth) and
// cuprobe_suite/shared_memory.cuh; this program turns the command line into their options.
#include <cuprobe_suite/suite.cuh>

#include <cmath>
#include <cstdio>
#include <optional>

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;
namespace cache = cuprobe::ptx::cache;

namespace {

/// The --explore sweep: one read point per (U, shape), at one working set.
template <int U, class Op, gen::stream_pattern P = gen::stream_pattern::read>
void explore_point(const cuprobe::device_info& dev, cuprobe::results& res, cuprobe::table& t,
                   std::size_t bytes, bool replicated, int bps, int threads,
                   const cuprobe::run_options& run, double clock_mhz) {
  ex::cache_bw_options o;
  o.blocks_per_sm = bps;
  o.threads = threads;
  o.run = run;
  if (bps * threads > dev.max_threads_per_sm) return;
  auto r = ex::cache_bw_measure<P, Op, U>(dev, bytes, replicated, o);
  r.check.require();
  const double bpc =
      cuprobe::model::per_clock_per_sm(r.m.gb_per_s() * 1e9, dev.sm_count, clock_mhz * 1e6);
  t.add_row({std::string(replicated ? "L1 (replicated) " : "L2 (partitioned) ") + gen::to_string(P),
             cuprobe::fmt_bytes(double(bytes)),
             P == gen::stream_pattern::write
                 ? cuprobe::ptx::store_instruction<gen::paired_store_t<Op>>
                 : cuprobe::ptx::load_instruction<Op>,
             std::to_string(U), std::to_string(bps) + "x" + std::to_string(threads),
             cuprobe::fmt(r.m.gb_per_s(), 0), cuprobe::fmt(bpc, 1)});
  r.m.name = "explore." + r.m.name;  // kept apart from the curves (plots select by name)
  res.add(std::move(r.m));
}

/// --explore 2: only the L2 write (every store operator, several shapes) and repeated reads at
/// the headline working sets (what decides the defaults of the write path and the spread).
void explore_writes(const cuprobe::device_info& dev, cuprobe::results& res,
                    const cuprobe::run_options& run, double mhz) {
  cuprobe::table e({"level", "working set", "instruction", "U", "BxT", "GB/s", "B/clk/SM"});
  constexpr auto W = gen::stream_pattern::write;
  for (std::size_t bytes : {dev.l2_bytes / 16, dev.l2_bytes / 8})
    for (auto [bps, th] :
         {std::pair{1, 1024}, std::pair{4, 256}, std::pair{1, 256}, std::pair{2, 512}}) {
      explore_point<4, cache::cg, W>(dev, res, e, bytes, false, bps, th, run, mhz);
      explore_point<4, cache::none, W>(dev, res, e, bytes, false, bps, th, run, mhz);
      explore_point<4, cache::cs, W>(dev, res, e, bytes, false, bps, th, run, mhz);
      explore_point<4, cache::cv, W>(dev, res, e, bytes, false, bps, th, run, mhz);
      explore_point<8, cache::cg, W>(dev, res, e, bytes, false, bps, th, run, mhz);
    }
  for (int rep = 0; rep < 3; ++rep)
    for (std::size_t div : {16, 12, 8}) {
      explore_point<4, cache::cg>(dev, res, e, dev.l2_bytes / div, false, 1, 1024, run, mhz);
      explore_point<16, cache::cg>(dev, res, e, dev.l2_bytes / div, false, 2, 256, run, mhz);
      explore_point<4, cache::cg, gen::stream_pattern::copy>(dev, res, e, dev.l2_bytes / div, false,
                                                             1, 1024, run, mhz);
    }
  std::printf("\nexplore 2 (L2 write paths; reads and copies repeated 3 x):\n");
  e.print();
}

/// --l2-write-path all: every L2 write variant at L2/16 and L2/8 (st.global.cg shapes, chunks no
/// two CTAs share, bulk stores from shared memory), each validated, beside the read of the same
/// working set: which write path is fastest.
void explore_write_paths(const cuprobe::device_info& dev, cuprobe::results& res,
                         const cuprobe::run_options& run, double mhz) {
  cuprobe::table e({"path", "working set", "config", "GB/s", "B/clk/SM", "x read", "valid"});
  constexpr auto W = gen::stream_pattern::write;
  for (std::size_t div : {16, 8}) {
    const std::size_t bytes = dev.l2_bytes / div;
    ex::cache_bw_options o;
    o.run = run;
    double read = 0;
    const auto add = [&](const char* path, const std::string& config, ex::stream_result r) {
      r.check.require();
      const double gbps = r.m.gb_per_s();
      if (read == 0) read = gbps;
      e.add_row(
          {path, cuprobe::fmt_bytes(r.m.params.at("array_bytes").as_number()), config,
           cuprobe::fmt(gbps, 0),
           cuprobe::fmt(cuprobe::model::per_clock_per_sm(gbps * 1e9, dev.sm_count, mhz * 1e6), 1),
           cuprobe::fmt(gbps / read, 2), r.check.ok ? "yes" : "NO"});
      r.m.name = "explore." + r.m.name;  // kept apart from the headline points
      res.add(std::move(r.m)).with_param("config", config);
    };
    add("read (.cg)", "U4 1x1024",
        ex::cache_bw_measure<gen::stream_pattern::read, cache::cg>(dev, bytes, false, o));
    const auto st = [&](auto u, int bps, int threads, std::size_t b, const char* note) {
      constexpr int U = decltype(u)::value;
      if (bps * threads > dev.max_threads_per_sm) return;
      ex::cache_bw_options so = o;
      so.blocks_per_sm = bps;
      so.threads = threads;
      add("st_global",
          "U" + std::to_string(U) + " " + std::to_string(bps) + "x" + std::to_string(threads) +
              note,
          ex::cache_bw_measure<W, cache::cg, U>(dev, b, false, so));
    };
    using u4 = std::integral_constant<int, 4>;
    for (auto [bps, th] : {std::pair{1, 1024}, std::pair{2, 1024}, std::pair{2, 512}})
      st(u4{}, bps, th, bytes, "");
    st(std::integral_constant<int, 8>{}, 1, 1024, bytes, "");
    st(std::integral_constant<int, 16>{}, 1, 512, bytes, "");
    // Own chunks: the array a whole number of grid x chunk, so no two CTAs write one chunk in
    // the same round (the partitioned layout shares chunks when there are fewer than CTAs).
    for (auto [bps, th] : {std::pair{1, 256}, std::pair{2, 256}, std::pair{1, 512}}) {
      const std::size_t round = std::size_t(bps) * dev.sm_count * th * 4 * 16;
      if (bytes >= round) st(u4{}, bps, th, bytes / round * round, ", own chunks");
    }
    for (std::uint32_t kib : {4, 8, 16})
      for (unsigned stages : {2, 4, 8})
        for (unsigned ctas : {1, 2, 4})
          for (unsigned issuers : {1, 2})
            for (auto order : {gen::tma_order::contiguous, gen::tma_order::interleaved}) {
              if (order == gen::tma_order::interleaved && (issuers != 1 || stages != 4)) continue;
              ex::cache_bw_options to = o;
              to.write_path = ex::l2_write_path::tma_bulk;
              to.tma = {kib * 1024, stages, ctas, issuers, order};
              if (!ex::l2_tma_write_fits(dev, to)) continue;
              if (bytes < std::size_t(ctas) * dev.sm_count * kib * 1024) continue;  // < 1 round
              add("tma_bulk", to.tma.describe(), ex::l2_write_measure(dev, bytes, to));
            }
    // Every SM writing lines homed in its own partition, in the other one, or anywhere: one map
    // of one array, the same kernel for all three (cuprobe_suite/l2_home_write.cuh).
    ex::l2_homes homes = ex::l2_map_homes(dev, bytes);
    for (auto mode : {ex::l2_write_home::near, ex::l2_write_home::far, ex::l2_write_home::any})
      if (homes.separated || mode == ex::l2_write_home::any)
        add("home", std::string(ex::to_string(mode)) + " lines, 2x1024",
            ex::l2_write_home_measure(dev, homes, mode, o.bytes_per_launch, o.run));
    if (!homes.separated)
      std::printf("L2/%zu: near and far not measured: %s\n", div, homes.why.c_str());
    std::printf(
        "L2/%zu: %llu lines homed beside SM %u (%.0f cycles per atomic), %llu in the other "
        "partition (%.0f), %llu unsorted; %u + %u SMs\n",
        div, (unsigned long long)homes.lines_in[0], homes.probe_sm, homes.near_cycles,
        (unsigned long long)homes.lines_in[1], homes.far_cycles,
        (unsigned long long)homes.lines_in[2], homes.sms_in[0], homes.sms_in[1]);
  }
  std::printf("\nL2 write paths (x read: against the .cg read of the same working set):\n");
  e.print();
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "cache_bandwidth: L1, L2 and shared-memory bandwidth",
        {cuprobe::cli_option::integer(
             "--explore", "1: also sweep the kernels' shapes; 2: only the L2 write paths", 0, 2, 0),
         cuprobe::cli_option::integer("--partitions", "1: the two L2 partitions, per SM", 0, 1, 1),
         cuprobe::cli_option::integer(
             "--l2-write-scaling",
             "1: the L2 write against SMs writing, and by the partition homing the lines", 0, 1, 1),
         cuprobe::cli_option::text(
             "--l2-write-path",
             "st_global, tma_bulk or home: the L2 write figure's kernel; all: "
             "only every write variant, validated, beside the read",
             ""),
         cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here")});
    const std::string write_path = cli.get("--l2-write-path");
    if (!write_path.empty() && write_path != "all")
      (void)ex::l2_write_path_of(write_path, "--l2-write-path");  // refused before any CUDA call
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const bool short_run = cli.quick || cli.small;
    cuprobe::run_options run = cli.run_options();
    run.warmup = cli.small ? 1 : 2;
    run.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));

    // The write explorations: measure the clock, run one, write the results, stop.
    const auto explore_only = [&](auto&& explore) {
      cuprobe::timer_characterisation clk;
      cuprobe::measure_effective_clock(clk, 20);
      cuprobe::results res(argc, argv);
      explore(dev, res, run, clk.effective_sm_clock_mhz);
      res.print_ceilings();
      res.write(cli);
      return 0;
    };
    if (write_path == "all") return explore_only(explore_write_paths);
    if (cli.get_integer("--explore") == 2) return explore_only(explore_writes);
    ex::cache_curve_options o;
    for (auto* c : {&o.l1, &o.l2}) {
      c->run = run;
      // --quick keeps the launches' length: on the H200 a quarter of bytes_per_launch gave
      // 80 instead of 110 B/clk/SM for L1 and 9.3 instead of 11.1 TB/s for L2.
      // --small (compute-sanitizer): 4 MiB per launch, a quarter of the default 16 MiB; the
      // launches per point (1 warm-up + 2 samples) and the working sets are unchanged.
      if (cli.small) c->bytes_per_launch = 4.0 * (1 << 20);
    }
    o.points_per_octave = short_run ? 1 : 2;
    if (short_run) {
      o.l1_max_bytes = 4 * dev.smem_per_sm;
      o.l2_max_bytes = (cli.small ? 2 : 16) * dev.l2_bytes;
    }
    const auto progress = [](const std::string& what) {
      std::fprintf(stderr, "cache_bandwidth: %s\n", what.c_str());
    };
    const auto c = ex::cache_curves(dev, o, progress);
    ex::cache_bw_options bo = o.l2;
    if (!write_path.empty()) bo.write_path = ex::l2_write_path_of(write_path, "--l2-write-path");
    const auto l2 = ex::l2_bandwidth(dev, bo);
    ex::smem_bw_options so;
    so.run = run;
    so.run.warmup = 1;
    so.run.stop = cuprobe::stopping_rule::fixed(short_run ? 3 : 5);
    if (cli.small) {  // racecheck tracks every shared access
      so.rounds = 4;
      // One conflict stride instead of 32 (as device_report): the read and write points plus 1
      // conflict point, 4 launches each, instead of 32 conflict points x 4 launches.
      so.conflict_strides = {2};
    }
    const auto sm = ex::shared_memory_bandwidth(dev, so, progress);
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    const double mhz = clk.effective_sm_clock_mhz;
    const auto lv = ex::cache_levels_of(dev, c, mhz);

    cuprobe::results res(argc, argv);
    std::vector<double> x_partitions;  // near/far cycles and bytes/s, when measured
    for (const auto& m : c.points) res.add(m);
    for (const auto& m : l2.points) res.add(m);
    const auto per_clk = [&](double bytes_per_s) {
      return cuprobe::model::per_clock_per_sm(bytes_per_s, dev.sm_count, mhz * 1e6);
    };
    const auto tbps = [](double bytes_per_s) { return cuprobe::fmt(bytes_per_s / 1e12, 2); };
    const auto l1lim = cuprobe::model::l1_bandwidth(dev.sm());
    const auto cap = [](const std::optional<double>& b) {
      return b ? cuprobe::fmt_bytes(*b) : std::string("-");
    };
    std::printf("Cache bandwidth on %s, SM clock %.0f MHz (measured), %d SMs\n\n", dev.name.c_str(),
                mhz, dev.sm_count);
    cuprobe::table pts({"curve", "working set", "GB/s", "B/clk/SM"});
    for (const auto& p : c.l1)
      pts.add_row({"L1 (replicated)", cuprobe::fmt_bytes(p.bytes), cuprobe::fmt(p.value, 0),
                   cuprobe::fmt(per_clk(p.value * 1e9), 1)});
    for (const auto& p : c.l2)
      pts.add_row({"L2/DRAM (.cg)", cuprobe::fmt_bytes(p.bytes), cuprobe::fmt(p.value, 0),
                   cuprobe::fmt(per_clk(p.value * 1e9), 1)});
    for (const auto& p : c.l2_shared)
      pts.add_row({"L2 shared (.cg)", cuprobe::fmt_bytes(p.bytes), cuprobe::fmt(p.value, 0),
                   cuprobe::fmt(per_clk(p.value * 1e9), 1)});
    pts.print();
    cuprobe::table t(
        {"level", "TB/s", "B/clk/SM", "limit B/clk/SM", "reach (derived)", "device reports"});
    t.add_row({"L1 read (replicated, peak <= " + cuprobe::fmt_bytes(lv.l1_window_hi) + ")",
               lv.l1_gbps ? tbps(*lv.l1_gbps * 1e9) : "-",
               cuprobe::fmt(lv.l1_bytes_per_clock_per_sm, 1),
               cuprobe::fmt(l1lim.bytes_per_clock, 0), cap(lv.l1_reach_bytes),
               "L1 + shared memory per SM (datasheet: 256 KiB on sm_90)"});
    t.add_row({"L2 read (.cg, " + cuprobe::fmt_bytes(lv.l2_window_lo) + " .. " +
                   cuprobe::fmt_bytes(lv.l2_window_hi) + ")",
               lv.l2_gbps ? tbps(*lv.l2_gbps * 1e9) : "-",
               cuprobe::fmt(lv.l2_bytes_per_clock_per_sm, 1), "-", cap(lv.l2_reach_bytes),
               cuprobe::fmt_bytes(double(dev.l2_bytes))});
    t.add_row({"DRAM read (.cg, " + cuprobe::fmt_bytes(lv.dram_window_lo) + " .. " +
                   cuprobe::fmt_bytes(lv.dram_window_hi) + ")",
               lv.dram_gbps ? tbps(*lv.dram_gbps * 1e9) : "-",
               cuprobe::fmt(lv.dram_bytes_per_clock_per_sm, 1), "-", "", ""});
    const std::string sets = cuprobe::fmt_bytes(l2.working_sets.front()) + " .. " +
                             cuprobe::fmt_bytes(l2.working_sets.back());
    t.add_row({"L2 read (" + sets + ")", tbps(l2.read_bytes_per_s),
               cuprobe::fmt(per_clk(l2.read_bytes_per_s), 1), "-", "", ""});
    t.add_row({std::string("L2 write (") + ex::to_string(l2.write_path) + ", " + sets + ")",
               tbps(l2.write_bytes_per_s), cuprobe::fmt(per_clk(l2.write_bytes_per_s), 1), "-", "",
               ""});
    t.add_row({"L2 copy, read + written (" + sets + ")", tbps(l2.copy_bytes_per_s),
               cuprobe::fmt(per_clk(l2.copy_bytes_per_s), 1), "-", "", ""});
    std::printf("\n");
    t.print();
    if (!lv.l2_reach_note.empty()) std::printf("\nnote: %s\n", lv.l2_reach_note.c_str());

    cuprobe::table s(
        {"shared memory", "bytes/lane", "stride", "ways", "B/clk/SM", "TB/s", "limit B/clk/SM"});
    const auto srow = [&](const char* what, const ex::smem_bw_point& p) {
      s.add_row(
          {what, std::to_string(p.m.params.at("bytes_per_lane").as_integer()),
           p.stride ? std::to_string(p.stride) : "broadcast", std::to_string(p.conflict_ways),
           cuprobe::fmt(p.bytes_per_clock_per_sm, 1),
           cuprobe::fmt(
               cuprobe::model::peak_per_s(dev.sm_count, p.bytes_per_clock_per_sm, mhz * 1e6) / 1e12,
               2),
           cuprobe::fmt(sm.limit.bytes_per_clock, 0)});
      res.add(p.m).with_param("sm_clock_mhz", mhz);
    };
    for (const auto& p : sm.read) srow("ld.shared", p);
    for (const auto& p : sm.write) srow("st.shared", p);
    for (const auto& p : sm.conflicts) srow("ld.shared, conflicts", p);
    if (sm.broadcast) srow("ld.shared, broadcast", *sm.broadcast);
    std::printf("\n");
    s.print();
    std::printf("\nlimits: %s\n        %s\n", cuprobe::model::describe(l1lim).c_str(),
                cuprobe::model::describe(sm.limit).c_str());

    if (cli.get_integer("--partitions") == 1) {
      ex::l2_partition_options po;
      po.bw = o.l2;
      if (short_run) po.sms = {0, std::uint32_t(dev.sm_count / 2)};
      if (cli.small) {  // one SM, one chase per ring of 1024 hops: 2 chases instead of 12
        po.sms = {0};
        po.repeats = 1;
        po.hops = 1024;
      }
      const auto p = ex::l2_partitions(dev, po, progress);
      cuprobe::table pt({"SM", "near cycles", "far cycles", "far share", "DRAM share"});
      for (const auto& q : p.per_sm) {
        pt.add_row({std::to_string(q.sm), cuprobe::fmt(q.near.stats.median, 0),
                    cuprobe::fmt(q.far.stats.median, 0),
                    cuprobe::fmt(100 * q.far_fraction, 0) + " %",
                    cuprobe::fmt(100 * q.dram_fraction, 0) + " %"});
        res.add(q.near);
        res.add(q.far);
      }
      for (const auto& m : p.bandwidth) res.add(m);
      std::printf("\nL2 partitions (.cg chase from one SM; near ring %s, mixed ring %s):\n",
                  cuprobe::fmt_bytes(p.near_bytes).c_str(),
                  cuprobe::fmt_bytes(p.mixed_bytes).c_str());
      pt.print();
      std::printf(
          "crossing the partition: +%.0f cycles per load (median over the SMs); read "
          "bandwidth %s TB/s near, %s TB/s mixed, far %s TB/s (model, docs/memory-latency.md)\n",
          p.far_cycles - p.near_cycles, tbps(p.near_bytes_per_s).c_str(),
          tbps(p.mixed_bytes_per_s).c_str(),
          p.far_bytes_per_s ? tbps(*p.far_bytes_per_s).c_str() : "-");
      x_partitions = {p.near_cycles, p.far_cycles, p.near_bytes_per_s,
                      p.far_bytes_per_s.value_or(0)};
    }

    std::optional<ex::l2_write_scaling_result> ws;
    if (cli.get_integer("--l2-write-scaling") == 1) {
      progress("L2 write against writing SMs, by home");
      ex::l2_write_scaling_options wo;
      wo.run = run;
      if (cli.small) {  // compute-sanitizer: 3 counts, 4 MiB per launch, 256 hops per SM
        wo.active = {1, 2, std::uint32_t(dev.sm_count)};
        wo.bytes_per_launch = 4.0 * (1 << 20);
        wo.sample_hops = 256;
      }
      ws = ex::l2_write_scaling(dev, wo);
      cuprobe::table wt({"SMs writing", "lines homed", "GB/s", "B/clk per writing SM"});
      const std::size_t n = ws->active.size();
      for (std::size_t i = 0; i < ws->points.size(); ++i) {
        const auto& m = ws->points[i];
        const double k = m.params.at("active_sms").as_number(), gbps = m.gb_per_s();
        wt.add_row(
            {cuprobe::fmt(k, 0), m.params.at("home").as_string(), cuprobe::fmt(gbps, 0),
             cuprobe::fmt(cuprobe::model::per_clock_per_sm(gbps * 1e9, int(k), mhz * 1e6), 1)});
        res.add(m).with_param("sm_clock_mhz", mhz);
      }
      std::printf(
          "\nL2 write against SMs writing (st.global.cg.v4, %s, one map: %llu lines homed beside "
          "SM "
          "0 at %.0f cycles per atomic, %llu in the other partition at %.0f, %llu unsorted; "
          "%u + %u SMs; any = every line, near = each SM its partition's lines, far = the "
          "other's; %zu counts):\n",
          cuprobe::fmt_bytes(ws->points.front().params.at("array_bytes").as_number()).c_str(),
          (unsigned long long)ws->lines_in[0], ws->near_cycles, (unsigned long long)ws->lines_in[1],
          ws->far_cycles, (unsigned long long)ws->lines_in[2], ws->sms_in[0], ws->sms_in[1], n);
      wt.print();
      if (!ws->separated) std::printf("near and far not measured: %s\n", ws->why.c_str());
    }

    if (cli.get_integer("--explore") == 1) {
      cuprobe::table e({"level", "working set", "load", "U", "BxT", "GB/s", "B/clk/SM"});
      for (std::size_t bytes : {std::size_t(4) << 20, std::size_t(8) << 20})
        for (int bps : {1, 2, 4, 8})
          for (int th : {256, 512, 1024}) {
            explore_point<4, cache::cg>(dev, res, e, bytes, false, bps, th, run, mhz);
            explore_point<8, cache::cg>(dev, res, e, bytes, false, bps, th, run, mhz);
            explore_point<16, cache::cg>(dev, res, e, bytes, false, bps, th, run, mhz);
            explore_point<8, cache::none>(dev, res, e, bytes, false, bps, th, run, mhz);
          }
      for (std::size_t bytes :
           {std::size_t(16) << 10, std::size_t(64) << 10, std::size_t(128) << 10})
        for (int bps : {1, 2, 4})
          for (int th : {256, 512, 1024}) {
            explore_point<4, cache::none>(dev, res, e, bytes, true, bps, th, run, mhz);
            explore_point<8, cache::none>(dev, res, e, bytes, true, bps, th, run, mhz);
            explore_point<16, cache::none>(dev, res, e, bytes, true, bps, th, run, mhz);
          }
      // The stream kernel of dram_bandwidth (grid-stride passes) at the same L2 working sets.
      const gen::stream_table<gen::type_list<float4>, gen::type_list<cache::cg>,
                              gen::pattern_list<gen::stream_pattern::read>,
                              gen::mode_list<cuprobe::loop_mode::in_kernel>>
          st;
      for (std::size_t bytes : {std::size_t(4) << 20, std::size_t(8) << 20}) {
        gen::stream_workload w(gen::stream_pattern::read, 16, bytes / 16);
        w.fill_inputs(5);
        auto r = ex::stream_bandwidth(
            st.get<gen::stream_pattern::read, float4, cache::cg, cuprobe::loop_mode::in_kernel>(),
            w, gen::stream_shape(4, 256, dev.sm_count), cuprobe::loop_mode::in_kernel,
            std::uint32_t((512u << 20) / bytes), run, cuprobe::data_source::any);
        r.check.require();
        e.add_row({"L2, stream kernel", cuprobe::fmt_bytes(double(bytes)), "ld.global.cg",
                   "4 (grid-stride)", "4x256", cuprobe::fmt(r.m.gb_per_s(), 0),
                   cuprobe::fmt(per_clk(r.m.gb_per_s() * 1e9), 1)});
        r.m.name = "explore." + r.m.name;
        res.add(std::move(r.m));
      }
      std::printf("\nexplore (read, float4):\n");
      e.print();
    }

    cuprobe::json& x = res.extra("cache_bandwidth");
    if (!x_partitions.empty()) {
      x["l2_near_cycles"] = x_partitions[0];
      x["l2_far_cycles"] = x_partitions[1];
      x["l2_near_gb_per_s"] = x_partitions[2] / 1e9;
      if (x_partitions[3] > 0) x["l2_far_gb_per_s"] = x_partitions[3] / 1e9;
    }
    if (ws) {
      const auto port = [&](double bytes_per_s) {
        return cuprobe::model::per_clock_per_sm(bytes_per_s, 1, mhz * 1e6);
      };
      x["l2_write_one_sm_bytes_per_clock"] = port(ws->per_sm_bytes_per_s.front());
      x["l2_write_all_sms_gb_per_s"] = ws->any_bytes_per_s / 1e9;
      if (ws->separated) {
        x["l2_write_near_home_gb_per_s"] = ws->near_bytes_per_s / 1e9;
        x["l2_write_far_home_gb_per_s"] = ws->far_bytes_per_s / 1e9;
      }
    }
    x["sm_clock_mhz"] = mhz;
    x["l1_gb_per_s"] = lv.l1_gbps;
    x["l2_gb_per_s"] = lv.l2_gbps;
    x["dram_gb_per_s"] = lv.dram_gbps;
    x["l1_bytes_per_clock_per_sm"] = lv.l1_bytes_per_clock_per_sm;
    x["l2_bytes_per_clock_per_sm"] = lv.l2_bytes_per_clock_per_sm;
    x["l1_reach_bytes"] = lv.l1_reach_bytes;
    x["l2_reach_bytes"] = lv.l2_reach_bytes;
    x["l2_reach_note"] = lv.l2_reach_note;
    x["l2_read_gb_per_s"] = l2.read_bytes_per_s / 1e9;
    x["l2_write_gb_per_s"] = l2.write_bytes_per_s / 1e9;
    x["l2_write_path"] = ex::to_string(l2.write_path);
    x["l2_copy_gb_per_s"] = l2.copy_bytes_per_s / 1e9;
    x["smem_read_bytes_per_clock_per_sm"] = sm.read.back().bytes_per_clock_per_sm;
    x["smem_limit_bytes_per_clock_per_sm"] = sm.limit.bytes_per_clock;
    x["l1_limit_bytes_per_clock_per_sm"] = l1lim.bytes_per_clock;
    res.print_ceilings();
    res.write(cli);
    if (cli.has("--summary")) {  // "cache." keys: apart from device_report's l1./l2./smem.
      cuprobe::summary_file sum(argc, argv, dev);
      const auto set = [&](const std::string& k, const std::optional<double>& v) {
        if (v && std::isfinite(*v)) sum.set(k, *v);
      };
      set("cache.clock_mhz", mhz);
      set("cache.l1.read.bytes_per_clk_sm", lv.l1_bytes_per_clock_per_sm);
      set("cache.l1.reach_bytes", lv.l1_reach_bytes);
      set("cache.l2.reach_bytes", lv.l2_reach_bytes);
      set("cache.l2.read.tbps", l2.read_bytes_per_s / 1e12);
      set("cache.l2.write.tbps", l2.write_bytes_per_s / 1e12);
      set("cache.l2.copy.tbps", l2.copy_bytes_per_s / 1e12);
      set("cache.smem.read.bytes_per_clk_sm", sm.read.back().bytes_per_clock_per_sm);
      if (!x_partitions.empty()) {
        set("cache.l2.partition.near.cycles", x_partitions[0]);
        set("cache.l2.partition.far.cycles", x_partitions[1]);
      }
      if (ws) {
        set("cache.l2.write.one_sm.bytes_per_clk",
            cuprobe::model::per_clock_per_sm(ws->per_sm_bytes_per_s.front(), 1, mhz * 1e6));
        set("cache.l2.write.all_sms.tbps", ws->any_bytes_per_s / 1e12);
        if (ws->separated) {
          set("cache.l2.write.near_home.tbps", ws->near_bytes_per_s / 1e12);
          set("cache.l2.write.far_home.tbps", ws->far_bytes_per_s / 1e12);
        }
      }
      sum.write(cli);
    }
    return 0;
  });
}
