// timers: what cuprobe's clocks cost and resolve on this GPU, and the SM clock actually seen.
//
//   build/hopper/examples/timers --json docs/results/h200/timers.json --markdown
//   docs/results/h200/timers.md
//
// Repeats the whole characterisation (suite::timer_repeats over suite::characterise_timers,
// cuprobe_suite/timers.cuh) and reports the median and range across repeats; measures the
// empty region of the in-kernel region timer per scope; times an empty kernel launch with the
// runner (per launch, and per launch in a graph); and prints the launch-overhead floor the
// runner's "launch_bound" flag uses (measure/launch_overhead.cuh).
#include <cuprobe_suite/suite.cuh>

#include <cstdio>
#include <optional>
#include <vector>

namespace {

__global__ void empty_kernel() {}

using field_ptr = double cuprobe::timer_characterisation::*;
struct quantity {
  const char* name;
  const char* unit;
  field_ptr field;
};

const quantity quantities[] = {
    {"%clock read overhead", "cycles", &cuprobe::timer_characterisation::clock32_overhead_cycles},
    {"%clock64 read overhead", "cycles", &cuprobe::timer_characterisation::clock64_overhead_cycles},
    {"%globaltimer read overhead", "cycles",
     &cuprobe::timer_characterisation::globaltimer_overhead_cycles},
    {"%globaltimer update interval (median)", "ns",
     &cuprobe::timer_characterisation::globaltimer_tick_ns},
    {"%globaltimer smallest step", "ns", &cuprobe::timer_characterisation::globaltimer_min_step_ns},
    {"event timer resolution", "us", &cuprobe::timer_characterisation::event_resolution_us},
    {"effective SM clock (median over SMs)", "MHz",
     &cuprobe::timer_characterisation::effective_sm_clock_mhz},
    {"effective SM clock, slowest SM", "MHz",
     &cuprobe::timer_characterisation::effective_sm_clock_min_mhz},
    {"effective SM clock, fastest SM", "MHz",
     &cuprobe::timer_characterisation::effective_sm_clock_max_mhz},
};

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "timers: timer overheads, resolution, SM clock",
        {cuprobe::cli_option::path("--markdown", "write a Markdown report to this path")});
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::suite::timer_repeat_options to;
    to.repeats = unsigned(cli.samples(11, 3));
    // --small (compute-sanitizer): one repeat of a 5 ms clock window. A repeat launches 4
    // probe kernels, 400 sleep kernels (the event resolution) and the clock window: 405
    // launches in all.
    if (cli.small) {
      to.repeats = 1;
      to.clock_window_ms = 5;
    }
    const unsigned repeats = to.repeats;
    const auto tr = cuprobe::suite::timer_repeats(to);
    const auto& runs = tr.runs;

    cuprobe::results res(argc, argv);
    cuprobe::table t({"quantity", "median", "min", "max", "unit"});
    cuprobe::json& tj = res.extra("timers");
    tj["repeats"] = repeats;
    for (const auto& q : quantities) {
      const auto v = tr.values(q.field);
      const auto s = tr.of(q.field);
      t.add_row({q.name, cuprobe::fmt(s.median, 3), cuprobe::fmt(s.min, 3), cuprobe::fmt(s.max, 3),
                 q.unit});
      cuprobe::json e = cuprobe::json::object();
      e["unit"] = q.unit;
      e["median"] = s.median;
      e["min"] = s.min;
      e["max"] = s.max;
      e["values"] = cuprobe::json::array_of(v);
      tj[q.name] = e;
    }
    const auto nvml_mhz = tr.nvml_sm_clock_mhz();
    const auto nvml_max = runs.back().nvml_max_sm_clock_mhz;
    t.add_row(
        {"NVML SM clock while the clock kernel ran", cuprobe::fmt(nvml_mhz, 0), "", "", "MHz"});
    t.add_row({"NVML maximum SM clock",
               cuprobe::fmt(nvml_max ? std::optional<double>(*nvml_max) : std::nullopt, 0), "", "",
               "MHz"});
    tj["nvml_sm_clock_mhz"] = nvml_mhz;
    tj["nvml_max_sm_clock_mhz"] = nvml_max;
    tj["clock_window_ms"] = runs.back().clock_window_ms;
    tj["clock_window_sms"] = runs.back().clock_window_sms;

    // The in-kernel region timer's own cost, per scope (one block of 256 threads per SM).
    cuprobe::table rt({"region scope", "empty region (median cycles)"});
    for (auto [scope, name] : {std::pair{cuprobe::region_scope::thread, "thread"},
                               std::pair{cuprobe::region_scope::warp, "warp"},
                               std::pair{cuprobe::region_scope::block, "block"}}) {
      cuprobe::region_timer r(scope, 1);
      const double oh = r.calibrate_overhead(dev.sm_count, 256);
      rt.add_row({name, cuprobe::fmt(oh, 1)});
      tj["region_overhead_cycles"][name] = oh;
    }

    // The launch-overhead floor the runner compares event-timed samples with. It launches
    // 1 + 64 + 8 x 128 + 9 graph replays of 128 = 2241 empty kernels; the runner measures it
    // once more for its own launch_bound flag (the measure() calls below), so --small leaves
    // this copy out (the same function still runs once) and reports it as not measured.
    std::optional<cuprobe::launch_overhead> lo;
    if (!cli.small) lo = cuprobe::measure_launch_overhead();
    auto us = [&](double cuprobe::launch_overhead::*f) {
      return lo ? std::optional<double>((*lo).*f * 1e6) : std::nullopt;
    };
    tj["launch_overhead_us"]["single"] = us(&cuprobe::launch_overhead::single_s);
    tj["launch_overhead_us"]["stream_per_launch"] = us(&cuprobe::launch_overhead::stream_s);
    tj["launch_overhead_us"]["graph_per_launch"] = us(&cuprobe::launch_overhead::graph_s);

    // Launch cost of an empty kernel, per launch and per launch inside a graph of 100.
    cuprobe::run_options o = cli.run_options();
    o.warmup = cli.small ? 1 : 10;
    o.stop = cuprobe::stopping_rule::fixed(cli.samples(200, 20));
    o.batch = cli.small ? 10 : 100;
    const auto launch = [](cudaStream_t s) { empty_kernel<<<1, 32, 0, s>>>(); };
    res.add(cuprobe::measure("launch.empty_kernel", launch,
                             cuprobe::work::op_count(1, "one launch"), o))
        .with_param("batch", o.batch)
        .with_param("graph", false);
    o.graph = true;
    res.add(cuprobe::measure("launch.empty_kernel", launch,
                             cuprobe::work::op_count(1, "one launch"), o))
        .with_param("batch", o.batch)
        .with_param("graph", true);

    std::printf("cuprobe timers on %s (%u repeats)\n\n", dev.name.c_str(), repeats);
    t.print();
    std::printf("\n");
    rt.print();
    std::printf(
        "\nlaunch overhead (measure/launch_overhead.cuh): one launch between events %s us; "
        "back to back %s us each; in a graph %s us each%s\n\n",
        cuprobe::fmt(us(&cuprobe::launch_overhead::single_s)).c_str(),
        cuprobe::fmt(us(&cuprobe::launch_overhead::stream_s)).c_str(),
        cuprobe::fmt(us(&cuprobe::launch_overhead::graph_s)).c_str(),
        lo ? "" : " (not measured with --small)");
    res.print_table();

    res.print_ceilings();

    res.write(cli);
    if (cli.has("--markdown")) {
      std::string md = "# Timers on " + dev.name + "\n\n";
      md += "Made by `" + cuprobe::command_line(argc, argv) + "` at commit `" +
            cuprobe::git_commit() + "` on " + cuprobe::utc_now_iso8601() + " (" +
            std::to_string(repeats) + " repeats of the whole characterisation; median, min, max " +
            "across repeats). JSON beside this file.\n\n";
      md += t.markdown() +
            "\nIn-kernel region timer, empty region, one block of 256 threads per SM:\n\n";
      md += rt.markdown() + "\nAn empty kernel launch, timed by the runner (events around 100 " +
            "launches, per launch; the second row replays them as one CUDA graph):\n\n";
      cuprobe::table lt({"mode", "median per launch (us)", "min (us)", "max (us)"});
      for (const auto& m : res.measurements())
        lt.add_row({m.params.at("graph").as_bool() ? "graph of 100" : "stream, 100 launches",
                    cuprobe::fmt(m.stats.median * 1e6, 3), cuprobe::fmt(m.stats.min * 1e6, 3),
                    cuprobe::fmt(m.stats.max * 1e6, 3)});
      md += lt.markdown();
      cuprobe::write_text(cli.get("--markdown"), md);
    }
    return 0;
  });
}
