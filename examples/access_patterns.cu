// access_patterns: coalescing, alignment and stride explained by sectors. For 1-, 2-, 4-, 8- and
// 16-byte lanes: bandwidth against the base offset (0 .. 128 B) and against the stride (1 .. 32
// elements), a permutation within the warp and gathers over 1 .. 32 lines, read and copy, at a
// DRAM and an L2-resident working set, beside the sector model's sectors per request and its
// predicted fraction of the aligned rate; then copy bandwidth against working set (4 KiB to
// 4 x L2, then DRAM) for 4-, 8- and 16-byte lanes.
//
//   build/hopper/examples/access_patterns --json access.json --summary access_summary.json
//   build/hopper/examples/access_patterns --ncu-set expected.csv   (tools/ncu_access.sh runs it)
//
// --quick: offsets every 16 B, strides 1, 2, 4 .. 32; --small: two widths, a few patterns, small
// arrays (for compute-sanitizer; not DRAM figures). --ncu-set PATH: the ncu test set only, each
// pattern launched once (the L2 working set, one pass), in the order of PATH's rows, which hold
// the model's sectors and requests per launch. --counters access: the sectors per request the
// hardware counted at every point, beside the model's, in the same run (the work declares the
// model: a point off it is flagged sector_model_mismatch). --count-at dram: only the DRAM-level
// points take the counter pass (the reference set's --counters dram). The experiments are
// cuprobe_suite/access.cuh.
#include <cuprobe_suite/suite.cuh>

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ex = cuprobe::suite;
namespace model = cuprobe::model;

namespace {
/// The comma-separated items of `text`, each kept (an empty one too, so that it is refused).
std::vector<std::string> items(const std::string& text) {
  std::vector<std::string> v;
  for (std::size_t at = 0; at <= text.size();) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    v.push_back(text.substr(at, comma - at));
    at = comma + 1;
  }
  return v;
}

std::vector<unsigned> parse_widths(const std::string& text) {
  std::vector<unsigned> v;
  for (const auto& item : items(text)) {
    const auto w = unsigned(cuprobe::cli::parse_integer(item, "--widths", 1, 16));
    cuprobe::require(w == 1 || w == 2 || w == 4 || w == 8 || w == 16,
                     "--widths takes 1, 2, 4, 8 or 16 bytes, got " + std::to_string(w));
    v.push_back(w);
  }
  return v;
}

std::vector<ex::access_level> parse_levels(const std::string& text) {
  std::vector<ex::access_level> v;
  for (const auto& l : items(text)) {
    cuprobe::require(l == "dram" || l == "l2" || l == "sweep",
                     "--count-at takes dram, l2 or sweep (comma-separated), got \"" + l + "\"");
    v.push_back(l == "dram" ? ex::access_level::dram
                : l == "l2" ? ex::access_level::l2
                            : ex::access_level::sweep);
  }
  return v;
}

void write_ncu_expected(const std::string& path, const ex::access_result& r) {
  std::string csv =
      "launch,pattern,op,width,offset,stride,shape,lines,seed,sectors_per_request,"
      "lines_per_request,requests\n";
  int i = 0;
  for (const auto& p : r.points) {
    const auto& a = p.pattern;
    csv += std::to_string(i++) + "," + model::label(a) + "," + ex::to_string(p.op) + "," +
           std::to_string(a.width) + "," + std::to_string(a.offset) + "," +
           std::to_string(a.stride) + "," + model::to_string(a.shape) + "," +
           std::to_string(a.lines) + "," + std::to_string(a.seed) + "," +
           std::to_string(p.model.sectors) + "," + std::to_string(p.model.lines) + "," +
           std::to_string(p.regions * p.passes) + "\n";
  }
  cuprobe::write_text(path, csv);
}
}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "access_patterns: coalescing, alignment and stride explained by sectors",
        {cuprobe::cli_option::text("--widths", "bytes per lane, comma-separated", "1,2,4,8,16"),
         cuprobe::cli_option::path("--summary", "write the headline fractions (JSON)"),
         cuprobe::cli_option::text("--count-at",
                                   "levels whose points take the counter pass: dram, l2, sweep",
                                   "dram,l2,sweep"),
         cuprobe::cli_option::path("--ncu-set",
                                   "run the ncu test set once each; write the model's counts")});
    std::vector<unsigned> widths = parse_widths(cli.get("--widths"));
    if (cli.small && !cli.has("--widths")) widths = {4, 16};
    const auto counted = parse_levels(cli.get("--count-at"));
    const bool ncu = cli.has("--ncu-set");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const bool tty = isatty(fileno(stderr));  // progress line only on a terminal
    const auto progress = [&](const std::string& what) {
      if (tty) std::fprintf(stderr, "\raccess_patterns: %-40s", what.c_str());
    };

    ex::access_options o;
    o.run.run = cli.run_options();
    o.run.run.warmup = cli.small ? 0 : 2;
    o.run.run.stop = cuprobe::stopping_rule::fixed(cli.samples(5, 3));
    o.run.counted_levels = counted;
    std::set<std::string> seen;
    const auto add = [&](const model::access_pattern& p) {
      if (seen.insert(model::label(p)).second) o.patterns.push_back(p);
    };
    if (ncu) {
      o.patterns = ex::access_test_set();
      o.levels = {ex::access_level::l2};
      o.run.bytes_per_launch = 0;  // one pass: the requests per launch are the regions
      o.run.run.profile = true;
    } else if (cli.small) {
      o.run.max_array_bytes = 1u << 20;
      o.run.bytes_per_launch = 0;
      for (unsigned w : widths) {
        add(ex::access_strided(w, 0, 2));
        add(ex::access_strided(w, w == 16 ? 16 : 4));
        add(ex::access_shape_set(w).back());  // the widest gather
      }
    } else {
      for (unsigned w : widths) {
        for (const auto& p : ex::access_offset_sweep(w, cli.quick ? 16 : 4)) add(p);
        for (const auto& p : ex::access_stride_sweep(w, cli.quick)) add(p);
        for (const auto& p : ex::access_shape_set(w)) add(p);
      }
      for (const auto& p : ex::access_test_set())
        if (std::find(widths.begin(), widths.end(), p.width) != widths.end()) add(p);
    }
    const auto r = ex::access_patterns(dev, o, progress);
    if (tty) std::fprintf(stderr, "\n");
    if (ncu) {
      write_ncu_expected(cli.get("--ncu-set"), r);
      std::printf("ncu test set: %zu launches of access_kernel, model counts in %s\n",
                  r.points.size(), cli.get("--ncu-set").c_str());
      return 0;
    }

    ex::copy_curve_options co;
    co.run = o.run;
    co.widths.clear();
    for (unsigned w : widths)
      if (w >= 4) co.widths.push_back(w);
    if (cli.quick) co.points_per_octave = 1;
    if (cli.small) {
      co.widths = {16};
      co.points_per_octave = 1;
      co.max_l2_factor = double(1u << 20) / double(dev.l2_bytes);
      co.dram_point = false;
    }
    std::vector<ex::access_point> curve;
    if (!co.widths.empty()) curve = ex::copy_curve(dev, co, progress);
    if (tty) std::fprintf(stderr, "\n");

    cuprobe::results res(argc, argv);
    std::printf(
        "Access patterns on %s (L2 %s): ld.global.cg / st.global.cg, %d x %d threads "
        "per SM; frac = useful rate / aligned unit-stride rate of the width\n\n",
        dev.name.c_str(), cuprobe::fmt_bytes(double(dev.l2_bytes)).c_str(), o.run.blocks_per_sm,
        o.run.threads);
    // --counters access (or CUPROBE_COUNTERS): the sectors per request the hardware counted,
    // beside the model's, in the same run (docs/counters.md)
    cuprobe::table t({"level", "op", "pattern", "sectors/req", "counted", "lines/req",
                      "useful GB/s", "fetched GB/s", "frac", "model"});
    std::set<std::string> test;
    for (const auto& p : ex::access_test_set()) test.insert(model::label(p));
    for (const auto& p : r.points) {
      if (cli.small || test.count(model::label(p.pattern)))
        t.add_row({ex::to_string(p.level), ex::to_string(p.op), model::label(p.pattern),
                   std::to_string(p.model.sectors),
                   cuprobe::fmt(cuprobe::counters::sectors_per_request(p.m.counters), 3),
                   std::to_string(p.model.lines), cuprobe::fmt(p.useful_bytes_per_s / 1e9, 0),
                   cuprobe::fmt(p.fetched_bytes_per_s / 1e9, 0),
                   cuprobe::fmt(p.measured_fraction, 3), cuprobe::fmt(p.predicted_fraction, 3)});
      res.add(p.m);
    }
    std::printf("the ncu test set (every point: --json):\n");
    t.print();
    cuprobe::table c({"width", "working set", "copy GB/s (read + written)", "flags"});
    for (const auto& p : curve) {
      std::string flags;
      for (const auto& f : p.m.flags)
        if (f.code != cuprobe::flag_code::clock_unknown)
          flags += std::string(flags.empty() ? "" : ",") + cuprobe::to_string(f.code);
      c.add_row({std::to_string(p.pattern.width), cuprobe::fmt_bytes(p.touched_bytes),
                 cuprobe::fmt(p.useful_bytes_per_s / 1e9, 0), flags});
      res.add(p.m);
    }
    if (!curve.empty()) {
      std::printf("\ncopy bandwidth against working set (source + destination):\n");
      c.print();
    }
    cuprobe::summary_file sum(argc, argv, dev);
    cuprobe::json& x = res.extra("access_patterns");
    std::printf("\n");
    for (const auto& [key, v] : ex::access_summary_metrics(r)) {
      std::printf("%-32s %.3f\n", key.c_str(), v);
      x[key] = v;
      sum.set(key, v);
    }
    res.print_ceilings();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    return 0;
  });
}
