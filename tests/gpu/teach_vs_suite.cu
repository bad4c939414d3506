// gpu tier: each teaching example beside the suite's experiment for the same figure. The teaching
// programs (examples/teach_*.cu) include installed headers only, so the comparison lives here:
// each program runs as a child process with --quick --json and writes its figure and its
// settings (array size, warm-up, samples, hops, launch length); then the suite's experiment runs
// in this process on those settings, and the test asserts 0.9 <= teaching / suite <= 1.1.
//
// Why the bound holds on any card: both figures are measured on the same card, seconds apart, by
// the same runner, on the same working set and protocol, and each pair is bound by the same
// resource (the DRAM for the two read streams, the latency of the same ring for the chase, the
// tensor cores' issue rate for wgmma), so the ratio is near 1 whatever the card's own figures.
// 10 % is twice the runner's noise threshold (run_options::noise_threshold, 5 %) and covers the
// suite's best of a few shapes against the teaching program's one shape (the streams); a ratio
// outside it means one of the two counts, times or runs something else.
//
// Skipped, with a sentence, without a GPU and where the teaching programs were not built as
// programs of their own (the cpu preset compiles this file to PTX only and builds the examples
// into unity programs; CUPROBE_TEACH_DIR names the folder of the programs); under
// compute-sanitizer each case says so and runs nothing (the sanitizer pass runs the examples).
#define DOCTEST_CONFIG_IMPLEMENT
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe_suite/suite.cuh>
#include <cuprobe_suite/wgmma.cuh>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#ifndef CUPROBE_TEACH_DIR
#define CUPROBE_TEACH_DIR ""
#endif

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;
namespace cache = cuprobe::ptx::cache;

namespace {

const char* const teaching[] = {"teach_tma_stream", "teach_cache_stream", "teach_pointer_chase",
                                "teach_wgmma_peak"};

std::string program(const std::string& name) { return std::string(CUPROBE_TEACH_DIR) + "/" + name; }

/// Runs teaching program `name` with --quick --json (at most 300 s) and returns its results.
cuprobe::json run_teaching(const std::string& name) {
  char dir[] = "/tmp/cuprobe-teach.XXXXXX";
  REQUIRE(mkdtemp(dir) != nullptr);
  const std::string json = std::string(dir) + "/" + name + ".json";
  const std::string cmd =
      "timeout -k 5 300 '" + program(name) + "' --quick --json '" + json + "' 2>&1";
  std::FILE* p = popen(cmd.c_str(), "r");
  REQUIRE(p != nullptr);
  std::string out;
  char buf[4096];
  for (std::size_t got; (got = std::fread(buf, 1, sizeof buf, p)) > 0;) out.append(buf, got);
  const int status = pclose(p);
  MESSAGE(name << " --quick:\n" << out);
  std::ifstream f(json);
  std::stringstream text;
  text << f.rdbuf();
  std::remove(json.c_str());
  rmdir(dir);
  REQUIRE_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), name << " failed");
  return cuprobe::parse_json(text.str());
}

/// The measurement `name` of a results file (a copy: GCC 13 calls a reference returned from a
/// call with a temporary string argument possibly dangling).
cuprobe::json benchmark(const cuprobe::json& results, const std::string& name) {
  for (const cuprobe::json& b : results.at("benchmarks").elements())
    if (b.at("name").as_string() == name) return b;
  throw cuprobe::error("the results hold no measurement named " + name);
}

/// The teaching measurement's warm-up and samples, for the suite's run.
cuprobe::run_options same_run(const cuprobe::json& b) {
  const cuprobe::json& o = b.at("options");
  return cuprobe::run_options::fixed(std::size_t(o.at("warmup").as_integer()),
                                     std::size_t(o.at("max_samples").as_integer()));
}

void within_bound(const std::string& what, double teach, double suite) {
  MESSAGE(what << ": teaching " << teach << ", suite " << suite << ", ratio " << teach / suite);
  CUPROBE_TIMING_CHECK(teach / suite >= 0.9);
  CUPROBE_TIMING_CHECK(teach / suite <= 1.1);
}

void nothing(const std::string&) {}

/// Under compute-sanitizer the comparison of rates says so and does not run; the sanitizer pass
/// runs the teaching examples themselves (--small).
bool sanitized() {
  if (!cuprobe::testing::under_sanitizer()) return false;
  MESSAGE("SKIPPED under compute-sanitizer (a comparison of rates)");
  return true;
}

}  // namespace

CUPROBE_GPU_TEST_CASE("teach_tma_stream: within 0.9 .. 1.1 of suite::tma_streams' best load") {
  if (sanitized()) return;
  const auto dev = cuprobe::device_info::query();
  if (dev.cc_major < 9) {
    MESSAGE("SKIPPED: TMA needs sm_90 or newer; " << dev.name << " is sm_" << dev.sm());
    return;
  }
  const cuprobe::json r = run_teaching("teach_tma_stream");
  const cuprobe::json b = benchmark(r, "teach.tma_stream");
  CHECK(b.at("params").at("valid").as_bool());
  ex::tma_stream_options so;  // bulk copies over a few sizes, stages and CTAs per SM
  so.run = same_run(b);
  so.copies = {gen::tma_copy::bulk};
  so.copy_bytes = {16384, 32768};
  so.stages = {2, 4};
  so.ctas_per_sm = {1, 2};
  so.stores = so.peers = false;
  so.array_bytes = std::uint64_t(b.at("work").at("working_set_bytes").as_number());
  const auto st = ex::tma_streams(dev, so, nothing);
  within_bound("TMA read stream, TB/s", r.at("extra").at("teach_tma_stream").at("tbps").as_number(),
               st.best_load().gb_per_s() / 1e3);
}

CUPROBE_GPU_TEST_CASE("teach_cache_stream: within 0.9 .. 1.1 of suite::dram_sweep's best read") {
  if (sanitized()) return;
  const auto dev = cuprobe::device_info::query();
  const cuprobe::json r = run_teaching("teach_cache_stream");
  const cuprobe::json b = benchmark(r, "teach.cache_stream");
  CHECK(b.at("params").at("valid").as_bool());
  const gen::stream_table<gen::type_list<float4>, gen::type_list<cache::cs>,
                          gen::pattern_list<gen::stream_pattern::read>, gen::all_modes,
                          gen::persistent_grids>
      kernels;  // the read stream of float4 ld.global.cs, one pass per launch and several
  ex::dram_sweep_options so;
  so.patterns = {gen::stream_pattern::read};
  so.grids = {gen::stream_grid::persistent};
  so.persistent = {{2, 1024}, {4, 512}};
  so.passes = std::uint32_t(b.at("params").at("passes_per_launch").as_integer());
  so.array_bytes = std::uint64_t(b.at("work").at("working_set_bytes").as_number());
  so.peers = false;
  so.run = same_run(b);
  const auto s = ex::dram_sweep(dev, kernels, so, nothing);
  within_bound("DRAM read stream, GB/s",
               r.at("extra").at("teach_cache_stream").at("gb_per_s").as_number(),
               s.best(gen::stream_pattern::read).gb_per_s());
}

CUPROBE_GPU_TEST_CASE("teach_pointer_chase: within 0.9 .. 1.1 of suite::chase_latency") {
  if (sanitized()) return;
  const cuprobe::json r = run_teaching("teach_pointer_chase");
  for (const std::string level : {"l2", "dram"}) {
    const cuprobe::json b = benchmark(r, "teach.chase." + level);
    const cuprobe::json& p = b.at("params");
    CHECK(r.at("extra").at("teach_pointer_chase").at(level).at("valid").as_bool());
    const gen::chase_ring ring(std::size_t(p.at("bytes").as_number()));  // the same ring: seed 1
    ex::chase_latency_options co;
    co.chase.warmup =
        p.at("warm_hops").as_number() > 0 ? gen::chase_warmup::full_pass : gen::chase_warmup::none;
    co.chase.min_steps = co.chase.max_steps = std::uint64_t(p.at("steps").as_number());
    co.run = same_run(b);
    co.run.flush_l2 = b.at("options").at("flush_l2").as_bool();
    co.run.clock_mhz = b.at("options").at("clock_mhz").as_number();
    co.name = "latency.chase." + level;
    co.load = "ld.global.cg";
    const auto m = ex::chase_latency(ring, co, gen::chase_load_global_cg{});
    within_bound(level + " chase, cycles per hop",
                 r.at("extra").at("teach_pointer_chase").at(level).at("cycles_per_hop").as_number(),
                 m.cycles_per_op());
  }
}

CUPROBE_GPU_TEST_CASE("teach_wgmma_peak: within 0.9 .. 1.1 of suite::wgmma_throughput") {
  if (sanitized()) return;
  const auto dev = cuprobe::device_info::query();
  if (dev.sm() != 90) {
    MESSAGE("SKIPPED: wgmma exists on sm_90 only; " << dev.name << " is sm_" << dev.sm());
    return;
  }
  const cuprobe::json r = run_teaching("teach_wgmma_peak");
  const cuprobe::json b = benchmark(r, "teach.wgmma_peak");
  CHECK(b.at("params").at("valid").as_bool());
  ex::wgmma_throughput_options so;  // the same configuration: 4 MMAs per group, wait_group<1>
  so.warpgroups = 2;
  so.target_ms = b.at("params").at("target_ms").as_number();
  so.run = same_run(b);
  so.run.rest_ms = b.at("options").at("rest_ms").as_number();
  namespace wg = cuprobe::ptx::wgmma;
  const auto s = ex::wgmma_throughput<ex::kernels::wgmma_bench<wg::bf16, 256>>(dev, so);
  CHECK_MESSAGE(s.check.ok, s.check.message);
  within_bound("bf16 m64n256k16, TFLOP/s",
               r.at("extra").at("teach_wgmma_peak").at("tflop_per_s").as_number(), s.tflops);
}

int main(int argc, char** argv) {
  if (std::string(CUPROBE_TEACH_DIR).empty()) {
    std::fprintf(stderr,
                 "cuprobe: SKIPPING the teaching examples' comparison, not passing it: "
                 "the teaching programs were not built as programs of their own\n");
    return cuprobe::testing::skip_exit_code;
  }
  for (const char* name : teaching) {
    if (access(program(name).c_str(), X_OK) != 0) {
      std::fprintf(stderr,
                   "cuprobe: SKIPPING the teaching examples' comparison, not passing it: "
                   "%s was not built\n",
                   program(name).c_str());
      return cuprobe::testing::skip_exit_code;
    }
  }
  return cuprobe::testing::run_tests(argc, argv);
}
