// dram_bandwidth: DRAM read, write, copy and mixed 5R1W bandwidth, scalar and float4, with
// .cg, .cs and .cv loads (stores paired: .cg, .cs, .wt), one pass per launch or many passes in
// one launch, on persistent grids swept over blocks per SM and threads per block and on
// covering grids (one element per thread) swept over threads per block; cudaMemcpy and
// cudaMemset beside them; Little's law for the numbers measured.
//
//   build/h200/examples/dram_bandwidth --json dram.json     (--quick: fewer configurations)
//   options: --patterns read,write,copy,mixed  --ops cg,cs,cv  --widths 4,16
//            --modes launches,in_kernel  --grids persistent,covering  --configs 4x256,8x128
//            --cover-threads 256,1024  --passes 4  --array-mib 4096  --l2-factor 8
//
// Each array is the larger of 8 x the L2 (--l2-factor) and 4 GiB (--array-mib sets it), capped
// by free memory: no pass finds its data in a cache, and each launch's ramp and tail are small
// next to its run (suite::dram_array_bytes). The flag "above_dram_peak" marks any result above
// the nominal peak (bus width x memory clock x 2).
// Bytes: read N, write N, copy N read + N written, mixed 5N read + N written, per pass.
#include <cuprobe/cuprobe.cuh>
#include <cuprobe/suite/memory.cuh>

#include <algorithm>
#include <cstdio>
#include <map>
#include <optional>
#include <sstream>

#include <unistd.h>

namespace gen = cuprobe::gen;
namespace cache = cuprobe::ptx::cache;

namespace {

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> v;
  std::stringstream ss(s);
  for (std::string x; std::getline(ss, x, ',');)
    if (!x.empty()) v.push_back(x);
  return v;
}

gen::stream_pattern pattern_of(const std::string& s) {
  for (auto p : {gen::stream_pattern::read, gen::stream_pattern::write, gen::stream_pattern::copy,
                 gen::stream_pattern::mixed})
    if (s == gen::to_string(p)) return p;
  throw cuprobe::error("cuprobe: unknown pattern '" + s + "' (read, write, copy, mixed)");
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "dram_bandwidth: DRAM bandwidth by pattern, width, cache operator, loop mode",
        {{"--patterns", "read,write,copy,mixed"},
         {"--ops", "cg,cs,cv"},
         {"--widths", "4,16"},
         {"--modes", "launches,in_kernel"},
         {"--grids", "persistent,covering"},
         {"--configs", "persistent grids, BxT list, e.g. 4x256,8x128"},
         {"--cover-threads", "covering grids, threads per block, e.g. 256,1024"},
         {"--passes", "in_kernel passes per launch (default 4)"},
         {"--array-mib", "MiB per array (default: the larger of l2-factor x L2 and 4 GiB)"},
         {"--l2-factor", "arrays at least this many times the L2 (default 8)"}});
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    using elements = gen::type_list<float, float4>;
    using load_ops = gen::type_list<cache::cg, cache::cs, cache::cv>;
    auto kernels = gen::stream_kernels<elements, load_ops>();
    const auto cover = gen::stream_covering_kernels<elements, load_ops>();
    kernels.insert(kernels.end(), cover.begin(), cover.end());

    std::vector<std::pair<int, int>> configs;
    if (cli.has("--configs")) {
      for (const auto& c : split(cli.get("--configs", ""))) {
        const auto x = c.find('x');
        cuprobe::require(x != std::string::npos, "--configs takes BxT items, e.g. 4x256");
        configs.emplace_back(std::stoi(c.substr(0, x)), std::stoi(c.substr(x + 1)));
      }
    } else if (cli.quick) {
      configs = {{2, 512}, {4, 256}, {4, 512}, {8, 256}};
    } else {
      for (int b : {1, 2, 4, 8, 16, 32})
        for (int t : {64, 128, 256, 512, 1024})
          if (b * t <= dev.max_threads_per_sm && b <= dev.max_blocks_per_sm && b * t >= 64)
            configs.emplace_back(b, t);
    }
    std::vector<int> cover_threads;
    for (const auto& t : split(cli.get("--cover-threads", cli.quick ? "256,1024" : "128,256,512,1024")))
      cover_threads.push_back(std::stoi(t));
    const auto patterns = split(cli.get("--patterns", "read,write,copy,mixed"));
    const auto ops = split(cli.get("--ops", "cg,cs,cv"));
    const auto widths = split(cli.get("--widths", "4,16"));
    const auto modes = split(cli.get("--modes", "launches,in_kernel"));
    const auto grids = split(cli.get("--grids", "persistent,covering"));
    const auto wants = [](const std::vector<std::string>& v, const char* x) {
      return std::find(v.begin(), v.end(), x) != v.end();
    };
    cuprobe::suite::dram_size size;
    size.l2_factor = cli.get_number("--l2-factor", 8);
    size.arrays = 6;  // mixed 5R1W holds six arrays at once
    const std::uint64_t array_bytes =
        cli.has("--array-mib") ? std::uint64_t(cli.get_number("--array-mib", 0)) << 20
                               : cuprobe::suite::dram_array_bytes(dev, size);
    const auto passes = std::uint32_t(cli.get_number("--passes", 4));  // in_kernel, per launch

    cuprobe::run_options o;
    o.warmup = 2;
    o.stop = cuprobe::stopping_rule::fixed(cli.quick ? 5 : 10);
    cuprobe::results res(argc, argv);
    struct best_t {
      double gbps = 0;
      std::string cfg;
      bool flagged = false;
    };
    std::map<std::string, best_t> best;  // by case
    std::map<std::string, double> best_by_pattern;
    std::optional<cuprobe::measurement> memcpy_m, memset_m;
    const bool tty = isatty(fileno(stderr));  // progress line only on a terminal, not in logs
    for (const auto& pname : patterns) {
      const auto pattern = pattern_of(pname);
      for (const auto& wname : widths) {
        const std::size_t width = std::stoul(wname);
        gen::stream_workload w(pattern, width, array_bytes / width);
        w.fill_inputs(1);
        const auto point = [&](const gen::stream_kernel& k, const cuprobe::launch_shape& shape,
                               cuprobe::loop_mode mode) {
          const std::string cfg = cuprobe::suite::stream_config(k.grid, shape);
          if (tty) std::fprintf(stderr, "\r\033[K%s %s", k.name().c_str(), cfg.c_str());
          auto r = cuprobe::suite::stream_bandwidth(k, w, shape, mode, passes, o, /*dram=*/true);
          r.check.require();
          const std::string key = k.name();
          r.m.with_param("case", key);
          auto& bb = best[key];
          if (r.m.gb_per_s() > bb.gbps)
            bb = {r.m.gb_per_s(), cfg, cuprobe::has_flag(r.m.flags, "above_dram_peak")};
          best_by_pattern[pname] = std::max(best_by_pattern[pname], r.m.gb_per_s());
          res.add(std::move(r.m));
        };
        for (const auto& op : ops) {
          for (const auto& mname : modes) {
            const auto mode =
                mname == "in_kernel" ? cuprobe::loop_mode::in_kernel : cuprobe::loop_mode::launches;
            if (wants(grids, "persistent"))
              for (auto [b, t] : configs)
                point(gen::find_stream_kernel(kernels, pattern, width, op, mode),
                      gen::stream_shape(b, t, dev.sm_count), mode);
          }
          // Covering grids: launches only, and not for read (no sink per element).
          if (wants(grids, "covering") && wants(modes, "launches") &&
              pattern != gen::stream_pattern::read)
            for (int t : cover_threads)
              point(gen::find_stream_kernel(kernels, pattern, width, op, cuprobe::loop_mode::launches,
                                            gen::stream_grid::covering),
                    gen::stream_covering_shape(w.elements(), t), cuprobe::loop_mode::launches);
        }
        // The driver's kernels as peers, on the very same arrays (once per pattern).
        if (pattern == gen::stream_pattern::copy && !memcpy_m)
          memcpy_m = cuprobe::suite::memcpy_bandwidth(w.output().data(), w.input(0).data(),
                                                      array_bytes, o);
        if (pattern == gen::stream_pattern::write && !memset_m)
          memset_m = cuprobe::suite::memset_bandwidth(w.output().data(), array_bytes, o);
      }
    }
    if (tty) std::fprintf(stderr, "\n");

    // The peers in the same program: cudaMemcpy D2D and cudaMemset, on the copy and write
    // arrays when those patterns ran, else on fresh arrays of the same size.
    if (!memcpy_m) memcpy_m = cuprobe::suite::memcpy_bandwidth(array_bytes, o);
    if (!memset_m) memset_m = cuprobe::suite::memset_bandwidth(array_bytes, o);
    const std::size_t copy_bytes = array_bytes;
    const double memcpy_gbps = memcpy_m->gb_per_s();
    const double memset_gbps = memset_m->gb_per_s();
    res.add(std::move(*memcpy_m));
    res.add(std::move(*memset_m));

    // Little's law with the measured read bandwidth and a DRAM latency measured here (1 GiB ring).
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    gen::chase_ring ring(std::size_t(1) << 30, 128, 1, 7);
    gen::chase_options co;
    co.max_steps = 1u << 16;
    const double dram_cycles = gen::run_chase(ring, co).cycles_per_hop;
    const double read_bw = best_by_pattern.count("read") ? best_by_pattern["read"] * 1e9 : -1;

    const double peak = dev.nominal_dram_bytes_per_s() / 1e9;
    cuprobe::table t({"case", "best GB/s", "% of nominal", "best config", "flag"});
    for (const auto& [key, b] : best)
      t.add_row({key, cuprobe::fmt(b.gbps, 0), cuprobe::fmt(100 * b.gbps / peak, 1), b.cfg,
                 b.flagged ? "above_dram_peak" : ""});
    std::printf(
        "DRAM bandwidth on %s: arrays of %.0f MiB (%.1f x L2), nominal peak %.0f GB/s "
        "(%d-bit x %.0f MHz x 2); in_kernel: %u passes per launch; config: BxT = blocks per SM "
        "x threads, cover xT = one element per thread\n\n",
        dev.name.c_str(), double(array_bytes) / 1048576, double(array_bytes) / dev.l2_bytes, peak,
        dev.memory_bus_width_bits, dev.memory_clock_khz / 1e3, passes);
    t.print();
    std::printf("\ncudaMemcpy D2D (%.0f MiB, read + written): %.0f GB/s; cudaMemset: %.0f GB/s\n",
                copy_bytes / 1048576.0, memcpy_gbps, memset_gbps);
    cuprobe::json& ex = res.extra("dram_bandwidth");
    ex["nominal_gb_per_s"] = peak;
    ex["memcpy_gb_per_s"] = memcpy_gbps;
    ex["memset_gb_per_s"] = memset_gbps;
    ex["array_bytes"] = double(array_bytes);
    ex["in_kernel_passes"] = passes;
    for (const auto& [p, v] : best_by_pattern) ex["best_gb_per_s"][p] = v;
    for (const auto& [key, b] : best) {
      ex["best_by_case"][key]["gb_per_s"] = b.gbps;
      ex["best_by_case"][key]["config"] = b.cfg;
    }
    if (best_by_pattern.count("copy") && memcpy_gbps > 0)
      ex["copy_vs_memcpy"] = best_by_pattern["copy"] / memcpy_gbps;
    if (read_bw > 0) {
      const auto ll = cuprobe::model::littles_law::from(
          {read_bw, dram_cycles, clk.effective_sm_clock_mhz * 1e6, dev.sm_count, 128});
      std::printf(
          "\nLittle's law with the best read bandwidth and a 1 GiB pointer-chase latency of "
          "%.0f cycles at %.0f MHz:\n%s",
          dram_cycles, clk.effective_sm_clock_mhz, ll.describe().c_str());
      ex["littles_law"]["latency_cycles"] = dram_cycles;
      ex["littles_law"]["clock_mhz"] = clk.effective_sm_clock_mhz;
      ex["littles_law"]["bytes_per_clock"] = ll.bytes_per_clock;
      ex["littles_law"]["bytes_in_flight"] = ll.bytes_in_flight;
      ex["littles_law"]["bytes_in_flight_per_sm"] = ll.bytes_in_flight_per_sm;
      ex["littles_law"]["warp_loads_in_flight_per_sm"] = ll.warp_loads_in_flight_per_sm;
    }
    res.write(cli);
    return 0;
  });
}
