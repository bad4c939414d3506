// dram_bandwidth: DRAM read, write, copy and mixed 5R1W bandwidth, scalar and float4, with
// .cg, .cs and .cv loads (stores paired: .cg, .cs, .wt), one pass per launch or many passes in
// one launch, on persistent grids swept over blocks per SM and threads per block and on
// covering grids (one element per thread) swept over threads per block; cudaMemcpy and
// cudaMemset beside them; Little's law for the numbers measured.
//
//   build/hopper/examples/dram_bandwidth --json dram.json
//   defaults: persistent grids 2x512, 4x256, 4x512, 8x256 and covering grids of 256 and 1024
//   threads (within a minute on an H100); --full: every persistent shape the SM holds (1..32
//   blocks x 64..1024 threads) and covering grids of 128..1024 threads; --quick: 5 samples
//   options: --patterns read,write,copy,mixed  --ops cg,cs,cv  --widths 4,16
//            (--ops also takes nc.L2::256B and L2::256B: float4 reads that ask the L2 to fetch
//            256 bytes per miss, read pattern only)
//            --modes launches,in_kernel  --grids persistent,covering  --configs 4x256,8x128
//            --cover-threads 256,1024  --passes 4  --array-mib 4096  --l2-factor 8
//
// The sweep is suite::dram_sweep (cuprobe_suite/memory.cuh); this program turns the
// command line into its options and prints the table. Each array is 64 x the L2 (3.75 GiB on
// the H200), at least --l2-factor x the L2, capped by free memory (suite::dram_array_bytes).
// Bytes: read N, write N, copy N read + N written, mixed 5N read + N written, per pass.
#include <cuprobe_suite/suite.cuh>

#include <algorithm>
#include <cstdio>
#include <sstream>

#include <unistd.h>

namespace gen = cuprobe::gen;
namespace ex = cuprobe::suite;
namespace cache = cuprobe::ptx::cache;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');)
    if (!x.empty()) v.push_back(x);
  return v;
}

/// The value of `word` among `names` (an enum's to_string), or an error listing them.
template <class E>
E parse_word(const std::string& word, std::initializer_list<E> values, const char* option) {
  std::string known;
  for (E v : values) {
    if (word == to_string(v)) return v;
    known += (known.empty() ? "" : ", ") + std::string(to_string(v));
  }
  throw cuprobe::error("cuprobe: " + std::string(option) + ": unknown value '" + word + "' (" +
                       known + ")");
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    using opt = cuprobe::cli_option;
    const auto cli = cuprobe::cli::parse(
        argc, argv,
        "dram_bandwidth: DRAM bandwidth by pattern, width, cache operator, loop mode\n"
        "--full adds every persistent grid shape (1..32 blocks/SM x 64..1024 threads) and\n"
        "covering grids of 128 and 512 threads",
        {opt::text("--patterns", "comma list of read, write, copy, mixed", "read,write,copy,mixed"),
         opt::text("--ops",
                   "load operators, comma list of cg, cs, cv, nc.L2::256B, L2::256B (the last "
                   "two: float4 reads only)",
                   "cg,cs,cv"),
         opt::text("--widths", "element bytes, comma list of 4, 16", "4,16"),
         opt::text("--modes", "comma list of launches, in_kernel", "launches,in_kernel"),
         opt::text("--grids", "comma list of persistent, covering", "persistent,covering"),
         opt::text("--configs",
                   "persistent grids, BxT list (blocks/SM x threads), e.g. 4x256,8x128"),
         opt::text("--cover-threads", "covering grids, threads per block, e.g. 256,1024"),
         opt::integer("--passes", "in_kernel passes per launch", 1, 4096, 4),
         opt::integer("--array-mib", "MiB per array (default: 64 x the L2, capped by memory)", 1,
                      1 << 20),
         opt::number("--l2-factor", "arrays at least this many times the L2", 1, 1024, 8)});
    // Every option is checked before the first CUDA call: a bad one is refused with or without
    // a GPU.
    ex::dram_sweep_options o;
    o.run = cli.run_options();
    o.run.warmup = cli.small ? 1 : 2;
    o.run.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));
    o.patterns.clear();
    for (const auto& w : split(cli.get("--patterns")))
      o.patterns.push_back(parse_word(w,
                                      {gen::stream_pattern::read, gen::stream_pattern::write,
                                       gen::stream_pattern::copy, gen::stream_pattern::mixed},
                                      "--patterns"));
    o.widths.clear();
    for (const auto& w : split(cli.get("--widths")))
      o.widths.push_back(std::size_t(cuprobe::cli::parse_integer(w, "--widths", 4, 16)));
    o.modes.clear();
    for (const auto& w : split(cli.get("--modes")))
      o.modes.push_back(
          parse_word(w, {cuprobe::loop_mode::launches, cuprobe::loop_mode::in_kernel}, "--modes"));
    o.grids.clear();
    for (const auto& w : split(cli.get("--grids")))
      o.grids.push_back(
          parse_word(w, {gen::stream_grid::persistent, gen::stream_grid::covering}, "--grids"));
    o.persistent.clear();
    if (cli.has("--configs")) {
      for (const auto& c : split(cli.get("--configs"))) {
        const auto x = c.find('x');
        cuprobe::require(x != std::string::npos, "--configs takes BxT items, e.g. 4x256");
        o.persistent.emplace_back(
            int(cuprobe::cli::parse_integer(c.substr(0, x), "--configs", 1, 32)),
            int(cuprobe::cli::parse_integer(c.substr(x + 1), "--configs", 32, 1024)));
      }
    } else if (cli.small) {
      o.persistent = {{4, 256}};
    } else if (!cli.full) {
      o.persistent = {{2, 512}, {4, 256}, {4, 512}, {8, 256}};
    }  // --full: every shape the device can hold, below, once it is known
    o.covering.clear();
    for (const auto& t : split(cli.get("--cover-threads", cli.small  ? "256"
                                                          : cli.full ? "128,256,512,1024"
                                                                     : "256,1024")))
      o.covering.push_back(int(cuprobe::cli::parse_integer(t, "--cover-threads", 32, 1024)));
    o.passes = std::uint32_t(cli.get_integer("--passes"));
    o.head_to_head = cli.small ? 3 : cli.quick ? 10 : 20;  // best copy vs cudaMemcpy, alternating
    o.l2_factor = cli.get_number("--l2-factor");
    if (cli.has("--array-mib")) o.array_bytes = std::uint64_t(cli.get_integer("--array-mib")) << 20;
    // --small, for the sanitizers (not a DRAM figure): 16 MiB arrays (64 without it) and 2
    // in_kernel passes (4 without it) unless --passes is given. The launches stay 96 points (4
    // patterns x 2 widths x 3 operators x 2 modes x 2 grids) x (1 warm-up + 2 samples) = 288,
    // plus the memcpy/memset peers; the bytes they touch fall from about 112 GiB (6.25 x the
    // array per launch on average) to about 17 GiB (3.75 x 16 MiB).
    if (cli.small) {
      o.array_bytes = std::uint64_t(16) << 20;
      if (!cli.has("--passes")) o.passes = 2;
    }

    // The kernels: every (width, operator, pattern, mode, grid) compiled here, then the
    // operators the command line names.
    gen::stream_table<gen::type_list<float, float4>,
                      gen::type_list<cache::cg, cache::cs, cache::cv>, gen::all_patterns,
                      gen::all_modes, gen::all_grids>
        all;
    all.add(
        gen::stream_table<gen::type_list<float4>, gen::type_list<cache::nc_L2_256B, cache::L2_256B>,
                          gen::pattern_list<gen::stream_pattern::read>, gen::all_modes>{});
    const auto ops = split(cli.get("--ops"));
    for (const auto& op : ops)
      cuprobe::require(
          std::any_of(all.kernels().begin(), all.kernels().end(),
                      [&](const gen::stream_kernel& k) { return op == k.load_op; }),
          "--ops: unknown load operator '" + op + "' (cg, cs, cv, nc.L2::256B, L2::256B)");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    if (!cli.has("--configs") && cli.full)
      for (int b : {1, 2, 4, 8, 16, 32})
        for (int t : {64, 128, 256, 512, 1024})
          if (b * t <= dev.max_threads_per_sm && b <= dev.max_blocks_per_sm && b * t >= 64)
            o.persistent.emplace_back(b, t);
    const auto kernels = all.select([&](const gen::stream_kernel& k) {
      return std::find(ops.begin(), ops.end(), k.load_op) != ops.end();
    });
    const bool tty = isatty(fileno(stderr));  // progress line only on a terminal, not in logs
    auto r = ex::dram_sweep(dev, kernels, o, [&](const std::string& what) {
      if (tty) std::fprintf(stderr, "\r\033[K%s", what.c_str());
    });
    if (tty) std::fprintf(stderr, "\n");

    // Little's law with the best read bandwidth and a DRAM latency measured here (a ring of
    // 16 x the L2), at the SM clock measured now.
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    ex::chase_latency_options co;
    co.run = cli.run_options();
    co.run.stop = cuprobe::stopping_rule::fixed(1);
    co.run.warmup = 0;
    co.run.flush_l2 = true;
    co.run.clock_mhz = clk.effective_sm_clock_mhz;
    co.chase.max_steps = 1u << 16;
    co.chase.warmup = gen::chase_warmup::none;
    const gen::chase_ring ring(cli.small ? dev.l2_bytes * 2 : 16 * dev.l2_bytes, 128, 1, 7);
    const auto lat = ex::chase_latency(ring, co);

    cuprobe::results res(argc, argv);
    const double peak = dev.nominal_dram_bytes_per_s() / 1e9;
    cuprobe::table t({"case", "best GB/s", "% of nominal", "best config", "flags"});
    for (const auto& [name, i] : r.best_by_case) {
      const auto& m = r.all[i];
      std::string flags;
      for (const auto& f : m.flags)
        if (f.code != cuprobe::flag_code::clock_unknown)
          flags += std::string(flags.empty() ? "" : ",") + cuprobe::to_string(f.code);
      t.add_row({name, cuprobe::fmt(m.gb_per_s(), 0), cuprobe::fmt(100 * m.gb_per_s() / peak, 1),
                 m.params.at("config").as_string(), flags});
    }
    std::printf(
        "DRAM bandwidth on %s: arrays of %.0f MiB (%.1f x L2), nominal peak %.0f GB/s "
        "(%d-bit x %.0f MHz x 2); in_kernel: %u passes per launch; config: BxT = blocks per SM "
        "x threads, cover xT = one element per thread\n\n",
        dev.name.c_str(), double(r.array_bytes) / 1048576, double(r.array_bytes) / dev.l2_bytes,
        peak, dev.memory_bus_width_bits, dev.memory_clock_khz / 1e3, o.passes);
    t.print();
    std::printf("\ncudaMemcpy D2D (%.0f MiB, read + written): %.0f GB/s; cudaMemset: %.0f GB/s\n",
                double(r.array_bytes) / 1048576.0, r.memcpy->gb_per_s(), r.memset->gb_per_s());
    if (r.copy_vs_memcpy)
      std::printf(
          "best copy point (%s, %s) vs cudaMemcpy in %zu alternating rounds: %.3f x "
          "(median of the paired ratios)\n",
          r.head_to_head[0].params.at("case").as_string().c_str(),
          r.head_to_head[0].params.at("config").as_string().c_str(), o.head_to_head,
          *r.copy_vs_memcpy);
    cuprobe::json& x = res.extra("dram_bandwidth");
    x["nominal_gb_per_s"] = peak;
    x["memcpy_gb_per_s"] = r.memcpy->gb_per_s();
    x["memset_gb_per_s"] = r.memset->gb_per_s();
    x["array_bytes"] = double(r.array_bytes);
    x["in_kernel_passes"] = o.passes;
    for (const auto& [p, i] : r.best_by_pattern)
      x["best_gb_per_s"][gen::to_string(p)] = r.all[i].gb_per_s();
    for (const auto& [name, i] : r.best_by_case) {
      x["best_by_case"][name]["gb_per_s"] = r.all[i].gb_per_s();
      x["best_by_case"][name]["config"] = r.all[i].params.at("config");
    }
    if (r.best_by_pattern.count(gen::stream_pattern::copy))
      x["copy_vs_memcpy_sweep"] =
          r.best(gen::stream_pattern::copy).gb_per_s() / r.memcpy->gb_per_s();
    if (r.copy_vs_memcpy) x["copy_vs_memcpy"] = *r.copy_vs_memcpy;
    if (r.best_by_pattern.count(gen::stream_pattern::read)) {
      const double read_bw = *r.best(gen::stream_pattern::read).rate.bytes_per_s;
      const auto ll = cuprobe::model::littles_law::from(
          {read_bw, lat.cycles_per_op(), clk.effective_sm_clock_mhz * 1e6, dev.sm_count, 128});
      std::printf(
          "\nLittle's law with the best read bandwidth and a %s pointer-chase latency of "
          "%.0f cycles at %.0f MHz:\n%s",
          cuprobe::fmt_bytes(double(ring.bytes())).c_str(), lat.cycles_per_op(),
          clk.effective_sm_clock_mhz, ll.describe().c_str());
      x["littles_law"]["latency_cycles"] = lat.cycles_per_op();
      x["littles_law"]["clock_mhz"] = clk.effective_sm_clock_mhz;
      x["littles_law"]["bytes_per_clock"] = ll.bytes_per_clock;
      x["littles_law"]["bytes_in_flight"] = ll.bytes_in_flight;
      x["littles_law"]["bytes_in_flight_per_sm"] = ll.bytes_in_flight_per_sm;
      x["littles_law"]["warp_loads_in_flight_per_sm"] = ll.warp_loads_in_flight_per_sm;
    }
    for (auto& m : r.all) res.add(std::move(m));
    res.add(std::move(*r.memcpy));
    res.add(std::move(*r.memset));
    for (auto& m : r.head_to_head) res.add(std::move(m));
    res.add(lat);
    res.print_ceilings();
    res.write(cli);
    return 0;
  });
}
