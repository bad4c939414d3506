// gpu tier: measure/ (event timer, in-kernel clocks, region timer, NVML, the runner)
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/measure/event_timer.cuh>
#include <cuprobe/measure/interleave.cuh>
#include <cuprobe/measure/nvml.cuh>
#include <cuprobe/measure/region_timer.cuh>
#include <cuprobe/measure/runner.cuh>
#include <cuprobe/measure/timer_calibration.cuh>
#include <cuprobe_suite/timers.cuh>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

__global__ void sleep_for(std::uint64_t ns, std::uint64_t* elapsed_ns) {
  const std::uint64_t g0 = cuprobe::ptx::globaltimer();
  std::uint64_t g = g0;
  while (g - g0 < ns) {
    __nanosleep(1000);
    g = cuprobe::ptx::globaltimer();
  }
  *elapsed_ns = g - g0;
}

template <int N>
__global__ void chain(cuprobe::region_timer_view t, float* out, float a, float b) {
  float x = out[threadIdx.x];
  const auto r = t.start();
#pragma unroll
  for (int i = 0; i < N; ++i) x = fmaf(x, a, b);
  cuprobe::ptx::keep(x);
  t.stop(r);
  out[threadIdx.x] = x;
}

template <int N>
double chain_cycles() {
  cuprobe::region_timer t(cuprobe::region_scope::thread, 1);
  cuprobe::device_buffer<float> out(1);
  out.fill(1.0f);
  for (int rep = 0; rep < 3; ++rep) {  // the first launches warm the instruction cache
    chain<N><<<1, 1>>>(t.view(), out.data(), 0.999f, 0.001f);
    CUPROBE_CHECK_LAUNCH("chain");
    CUPROBE_CHECK(cudaDeviceSynchronize());
  }
  return t.analyse().cycles.median;
}

/// Launch i writes its start time (%globaltimer, ns) at stamps[i].
__global__ void stamp(std::uint64_t* stamps, unsigned* count) {
  stamps[atomicAdd(count, 1u)] = cuprobe::ptx::globaltimer();
}

__global__ void count_calls(unsigned* counter, unsigned rotation, unsigned* seen) {
  if (counter) atomicAdd(counter, 1u);
  if (seen) atomicOr(seen, 1u << rotation);
}

}  // namespace

CUPROBE_GPU_TEST_CASE("event timer and globaltimer agree within 2 % on a 20 ms sleep") {
  cuprobe::device_buffer<std::uint64_t> g(1);
  cuprobe::cuda_stream s;
  cuprobe::event_timer t(s);
  sleep_for<<<1, 1, 0, s>>>(1000000, g.data());  // warm-up: module load, clocks up
  for (int i = 0; i < 3; ++i) {
    t.start();
    sleep_for<<<1, 1, 0, s>>>(20000000, g.data());
    t.stop();
    CUPROBE_CHECK_LAUNCH("sleep_for");
    const double event_ns = t.seconds() * 1e9;
    const double global_ns = static_cast<double>(g.to_host()[0]);
    CHECK(global_ns >= 20e6);
    CUPROBE_TIMING_CHECK(std::abs(event_ns - global_ns) / global_ns < 0.02);
  }
}

CUPROBE_GPU_TEST_CASE("region timer counts a dependent chain of known length") {
  const double c64 = chain_cycles<64>();
  const double c512 = chain_cycles<512>();
  const double c1024 = chain_cycles<1024>();
  // Cycles grow linearly with the chain: the step from 512 to 1024 FMAs is 512 FMA latencies,
  // and so is (almost) the step from 64 to 512 scaled by 512/448.
  const double per_fma = (c1024 - c512) / 512.0;
  MESSAGE("dependent FFMA latency: " << per_fma << " cycles (64: " << c64 << ", 512: " << c512
                                     << ", 1024: " << c1024 << ")");
  // About 4 cycles for most arithmetic instructions from compute capability 7.x (CUDA C++
  // Programming Guide, "Multiprocessor Level"): the same SM on every Hopper card, in its cycles.
  CUPROBE_TIMING_CHECK(per_fma >= 2.0);
  CUPROBE_TIMING_CHECK(per_fma <= 8.0);
  CUPROBE_TIMING_CHECK((c512 - c64) / 448.0 == doctest::Approx(per_fma).epsilon(0.05));
}

CUPROBE_GPU_TEST_CASE("region timer scopes, records and empty-region overhead") {
  cuprobe::region_timer warp_t(cuprobe::region_scope::warp, 8 * 4);
  cuprobe::device_buffer<float> out(128);
  out.fill(1.0f);
  chain<16><<<8, 128>>>(warp_t.view(), out.data(), 1.f, 0.f);
  CUPROBE_CHECK_LAUNCH("chain");
  CUPROBE_CHECK(cudaDeviceSynchronize());
  const auto st = warp_t.analyse();
  CHECK(st.records == 32);  // 8 blocks x 4 warps
  CHECK(st.sms >= 1);
  CHECK(st.cycles.min > 0);
  CHECK(st.ns.median >= 0);
  const double oh = warp_t.calibrate_overhead();
  CHECK(oh > 0);
  CUPROBE_TIMING_CHECK(oh < 1000);
  const auto sub = warp_t.analyse(cuprobe::region_overhead::subtract);
  CHECK(sub.overhead_subtracted);
  CHECK(sub.cycles.median == doctest::Approx(st.cycles.median - oh));
}

CUPROBE_GPU_TEST_CASE("NVML is found and reads the clocks") {
  auto& n = cuprobe::nvml::instance();
  INFO(n.why_unavailable());
  REQUIRE(n.available());
  const auto dev = cuprobe::device_info::query();
  auto h = n.device_by_uuid(dev.uuid);
  REQUIRE(h != nullptr);
  const auto s = n.sample(h);
  CHECK(s.available);
  REQUIRE(s.sm_clock_mhz);
  CHECK(*s.sm_clock_mhz > 0);
  CHECK(s.max_sm_clock_mhz.value_or(0) >= *s.sm_clock_mhz);
  CHECK(s.mem_clock_mhz.value_or(0) > 0);
  CHECK(s.power_w.value_or(0) > 0);
  CHECK(s.temperature_c.value_or(0) > 0);
  CHECK(s.ecc_on == dev.ecc_enabled);
  CHECK(!n.driver_version().empty());
}

CUPROBE_GPU_TEST_CASE("measure(): the per-sample hook sees each timed sample's finished work") {
  cuprobe::device_buffer<unsigned> counter(1), seen(1);
  counter.zero();
  seen.zero();
  cuprobe::region_timer timer(cuprobe::region_scope::block, 1);
  cuprobe::device_buffer<float> out(32);
  out.zero();
  cuprobe::run_options o;
  o.warmup = 2;
  o.batch = 3;
  o.stop = cuprobe::stopping_rule::fixed(4);
  std::vector<std::size_t> index;
  std::vector<unsigned> done;
  std::vector<double> mhz;
  o.after_sample = [&](const cuprobe::launch_context& c) {
    CHECK_FALSE(c.warmup);
    index.push_back(c.sample);
    done.push_back(counter.to_host()[0]);  // the stream is idle: every launch has finished
    mhz.push_back(cuprobe::clock_mhz_of(timer.read()).value_or(0));
  };
  const auto launch = [&](const cuprobe::launch_context& c) {
    count_calls<<<1, 1, 0, c.stream>>>(counter.data(), 0, seen.data());
    chain<256><<<1, 32, 0, c.stream>>>(timer.view(), out.data(), 1.0001f, 0.5f);
  };
  auto m = cuprobe::measure("hook", launch, cuprobe::work::op_count(1, "one call"), o);
  REQUIRE(m.samples.size() == 4);
  CHECK(index == std::vector<std::size_t>{0, 1, 2, 3});
  CHECK(done == std::vector<unsigned>{2 + 3, 2 + 6, 2 + 9, 2 + 12});  // warm-up + k x batch
  for (double f : mhz) CHECK(f > 100);  // the in-kernel clock of the sample, read per sample
}

CUPROBE_GPU_TEST_CASE("measure(): warm-up, samples, rotation, batches and graphs") {
  cuprobe::device_buffer<unsigned> counter(1), seen(1);
  counter.zero();
  seen.zero();
  cuprobe::run_options o;
  o.warmup = 2;
  o.stop = cuprobe::stopping_rule::fixed(5);
  o.rotations = 3;
  o.batch = 2;
  const auto count = [&](const cuprobe::launch_context& c) {
    count_calls<<<1, 1, 0, c.stream>>>(counter.data(), unsigned(c.rotation), seen.data());
  };
  auto m = cuprobe::measure("count", count, cuprobe::work::op_count(1, "one call"), o);
  CHECK(m.unit == cuprobe::sample_unit::seconds);
  CHECK(m.samples.size() == 5);
  CHECK(m.stats.count == 5);
  CHECK(counter.to_host()[0] == 2 + 5 * 2);  // warm-up + samples x batch
  CHECK(seen.to_host()[0] == 7u);            // rotations 0, 1, 2 all used
  CHECK(m.stop_verdict == "converged");
  CHECK(m.rate.ops_per_s.value_or(0) > 0);
  REQUIRE(m.launch_floor_s);
  CHECK(*m.launch_floor_s > 0);

  // Graphs: warm-up counts launches (2 launches = one graph of batch 2), and the samples
  // replay graphs whose rotations continue from sample to sample.
  counter.zero();
  o.graph = true;
  o.flush_l2 = true;
  auto g = cuprobe::measure("count.graph", count, {}, o);
  CHECK(counter.to_host()[0] == 2 + 5 * 2);
  CHECK(g.samples.size() == 5);
  // batch 1 with 3 rotations: every sample once read rotation 0 (the bug); now 0, 1, 2.
  counter.zero();
  seen.zero();
  o.batch = 1;
  o.warmup = 0;
  auto g1 = cuprobe::measure("count.graph.batch1", count, {}, o);
  CHECK(counter.to_host()[0] == 5);
  CHECK(seen.to_host()[0] == 7u);

  counter.zero();
  o = cuprobe::run_options{};
  o.profile = true;
  auto p = cuprobe::measure(
      "count.profile",
      [&](cudaStream_t s) { count_calls<<<1, 1, 0, s>>>(counter.data(), 0, seen.data()); }, {}, o);
  CHECK(counter.to_host()[0] == 1);  // exactly once
  CHECK(p.stop_verdict == "profile");
}

namespace {
__global__ void log_call(unsigned* log, unsigned* count, unsigned id, std::uint64_t ns) {
  log[atomicAdd(count, 1u)] = id;
  const std::uint64_t g0 = cuprobe::ptx::globaltimer();
  while (cuprobe::ptx::globaltimer() - g0 < ns) __nanosleep(1000);
}
}  // namespace

CUPROBE_GPU_TEST_CASE("measure_interleaved(): rotating rounds, per-contestant samples and rates") {
  cuprobe::device_buffer<unsigned> log(64), count(1);
  count.zero();
  log.poison();
  cuprobe::run_options o;
  o.warmup = 2;
  o.stop = cuprobe::stopping_rule::fixed(3);
  const auto sleeper = [&](unsigned id, std::uint64_t ns) {
    return
        [&, id, ns](cudaStream_t s) { log_call<<<1, 1, 0, s>>>(log.data(), count.data(), id, ns); };
  };
  // 1 ms against 2 ms: the rates keep their ratio, each from its own samples.
  std::vector<std::size_t> after;  // the samples `after` saw, for "long"
  auto ms = cuprobe::measure_interleaved(
      "h2h",
      {{"short", sleeper(0, 1000000), cuprobe::work::op_count(1, "one launch")},
       {"long", sleeper(1, 2000000), cuprobe::work::op_count(1, "one launch"),
        [&](const cuprobe::launch_context& c) {
          CHECK(cudaStreamQuery(c.stream) == cudaSuccess);  // its launch has finished
          after.push_back(c.sample);
        }}},
      o);
  CHECK(after == std::vector<std::size_t>{0, 1, 2});
  REQUIRE(ms.size() == 2);
  CHECK(ms[0].name == "short");
  CHECK(ms[1].name == "long");
  for (const auto& m : ms) {
    CHECK(m.samples.size() == 3);
    CHECK(m.stop_verdict == "converged");
    CHECK(m.params.at("interleaved").as_integer() == 2);
    REQUIRE(m.launch_floor_s);
  }
  // Timing: skipped, visibly, under compute-sanitizer (which slows the launches themselves).
  CUPROBE_TIMING_CHECK(ms[1].seconds() / ms[0].seconds() == doctest::Approx(2.0).epsilon(0.1));
  CUPROBE_TIMING_CHECK(ms[0].seconds() == doctest::Approx(1e-3).epsilon(0.1));
  // Warm-up rounds 0, 1 then sample rounds 0, 1, 2: round k starts with contestant k mod 2.
  REQUIRE(count.to_host()[0] == 10);
  const auto l = log.to_host();
  const std::vector<unsigned> want = {0, 1, 1, 0, 0, 1, 1, 0, 0, 1};
  CHECK(std::vector<unsigned>(l.begin(), l.begin() + 10) == want);
}

CUPROBE_GPU_TEST_CASE("run_options::rest_ms: the GPU idles before every sample, not the warm-up") {
  cuprobe::device_buffer<std::uint64_t> t(16);
  cuprobe::device_buffer<unsigned> count(1);
  t.zero();
  cuprobe::run_options o;
  o.warmup = 2;
  o.stop = cuprobe::stopping_rule::fixed(3);
  o.rest_ms = 30;
  const auto launch = [&](cudaStream_t s) { stamp<<<1, 1, 0, s>>>(t.data(), count.data()); };
  // The gaps between launch starts (%globaltimer): the warm-up back to back, then >= 30 ms
  // before each sample (a lower bound: sleeping longer is allowed, also under the sanitizer).
  const auto gaps_ms = [&](unsigned expected) {
    REQUIRE(count.to_host()[0] == expected);
    const auto h = t.to_host();
    std::vector<double> g;
    for (unsigned i = 1; i < expected; ++i) g.push_back((h[i] - h[i - 1]) * 1e-6);
    count.zero();
    return g;
  };
  count.zero();
  const auto m = cuprobe::measure("rested", launch, {}, o);
  CHECK(m.options.rest_ms == 30);
  CHECK(m.samples.size() == 3);
  CHECK(m.wall_s >= 0.09);
  auto g = gaps_ms(5);  // warm-up 0, 1, samples 0, 1, 2
  for (std::size_t i = 1; i < g.size(); ++i) CHECK(g[i] >= 30.0);
  CUPROBE_TIMING_CHECK(g[0] < 30.0);         // the warm-up launches do not rest
  CUPROBE_TIMING_CHECK(m.seconds() < 5e-3);  // the rest is outside the timed region

  // measure_interleaved: each contestant's sample after its own rest.
  const auto ms = cuprobe::measure_interleaved("rested.h2h", {{"a", launch}, {"b", launch}}, o);
  REQUIRE(ms.size() == 2);
  g = gaps_ms(2 * 2 + 2 * 3);
  for (std::size_t i = 3; i < g.size(); ++i) CHECK(g[i] >= 30.0);  // before launches 4 .. 9
  for (const auto& x : ms) CUPROBE_TIMING_CHECK(x.seconds() < 5e-3);

  o.rest_ms = -1;
  CHECK_THROWS_WITH_AS(cuprobe::measure("bad", launch, {}, o), doctest::Contains("rest_ms is -1"),
                       cuprobe::error);
}

CUPROBE_GPU_TEST_CASE("measure(): in-kernel iterations divide the sample; adaptive rule stops") {
  cuprobe::device_buffer<std::uint64_t> g(1);
  cuprobe::run_options o;
  o.warmup = 1;
  o.mode = cuprobe::loop_mode::in_kernel;
  o.iterations = 10;  // the kernel "does 10 iterations" of 0.1 ms
  o.stop = cuprobe::stopping_rule::adaptive(0.001, 0.5, 3, 50);
  auto m = cuprobe::measure(
      "sleep", [&](cudaStream_t s) { sleep_for<<<1, 1, 0, s>>>(1000000, g.data()); }, {}, o);
  CUPROBE_TIMING_CHECK(m.stats.median == doctest::Approx(1e-4).epsilon(0.2));
  CHECK(m.samples.size() >= 3);
  CHECK(m.env.before.available == cuprobe::nvml::instance().available());
  CUPROBE_TIMING_CHECK(!cuprobe::has_flag(m.flags, cuprobe::flag_code::noisy));
  CUPROBE_TIMING_CHECK(
      !cuprobe::has_flag(m.flags, cuprobe::flag_code::launch_bound));  // 1 ms samples
}

CUPROBE_GPU_TEST_CASE(
    "measure(): an empty kernel, one launch per sample, is flagged launch_bound") {
  cuprobe::run_options o;
  o.stop = cuprobe::stopping_rule::fixed(20);
  auto m = cuprobe::measure(
      "empty", [](cudaStream_t s) { count_calls<<<1, 1, 0, s>>>(nullptr, 0, nullptr); },
      cuprobe::work::op_count(1, "one launch"), o);
  CUPROBE_TIMING_CHECK(cuprobe::has_flag(m.flags, cuprobe::flag_code::launch_bound));
}

namespace {
__global__ void spin_cycles(std::uint64_t cycles, unsigned long long* out) {
  const std::uint64_t t0 = cuprobe::ptx::clock64();
  std::uint64_t t = t0;
  while (t - t0 < cycles) t = cuprobe::ptx::clock64();
  const std::uint64_t g0 = cuprobe::ptx::globaltimer();
  std::uint64_t gl = g0;
  while (gl - g0 < 100000) gl = cuprobe::ptx::globaltimer();
  out[0] = t - t0;
  out[1] = gl - g0;
}
}  // namespace

CUPROBE_GPU_TEST_CASE(
    "measure_samples(): cycles, nanoseconds and values through the same protocol") {
  cuprobe::device_buffer<unsigned long long> out(2);
  int calls = 0, warm = 0;
  const auto one = [&](const cuprobe::launch_context& c) {
    ++calls;
    warm += c.warmup;
    out.poison();
    spin_cycles<<<1, 1, 0, c.stream>>>(1 << 20, out.data());
    CUPROBE_CHECK_LAUNCH("spin_cycles");
    CUPROBE_CHECK(cudaStreamSynchronize(c.stream));
    return out.to_host();
  };
  cuprobe::run_options o;
  o.warmup = 2;
  o.stop = cuprobe::stopping_rule::fixed(4);
  o.mode = cuprobe::loop_mode::in_kernel;
  o.iterations = 1 << 10;  // "1024 iterations" per sample: the sample is divided by them
  auto cyc = cuprobe::measure_samples(
      "spin.cycles", cuprobe::sample_unit::cycles,
      [&](const cuprobe::launch_context& c) { return double(one(c)[0]); },
      cuprobe::work::op_count(1, "one iteration"), o);
  CHECK(calls == 6);
  CHECK(warm == 2);
  CHECK(cyc.unit == cuprobe::sample_unit::cycles);
  CHECK(cyc.samples.size() == 4);
  CHECK(cyc.stats.median >= 1024);  // >= 2^20 cycles / 2^10
  CUPROBE_TIMING_CHECK(cyc.stats.median < 1100);
  CHECK(cyc.cycles_per_op() == doctest::Approx(cyc.stats.median));
  REQUIRE(cyc.rate.clock_mhz);
  CHECK(cyc.seconds() == doctest::Approx(cyc.stats.median / (*cyc.rate.clock_mhz * 1e6)));
  CHECK(cyc.env.before.available == cuprobe::nvml::instance().available());
  if (cuprobe::nvml::instance().available()) {
    CHECK(cyc.rate.clock_source == "nvml (median during samples)");
    CHECK(!cuprobe::has_flag(cyc.flags, cuprobe::flag_code::clock_unknown));
    CHECK(cyc.env.sm_clock_mhz.size() == 4);
  }
  CHECK(!cyc.launch_floor_s);  // in-kernel cycles exclude the launch

  o.iterations = 1;
  o.mode = cuprobe::loop_mode::launches;
  auto ns = cuprobe::measure_samples(
      "spin.ns", cuprobe::sample_unit::nanoseconds,
      [&](cudaStream_t s) {
        return double(one(cuprobe::launch_context{s, 0, 0, false})[1]);
      },
      {}, o);
  CHECK(ns.stats.median >= 100000);
  CHECK(ns.seconds() == doctest::Approx(ns.stats.median * 1e-9));

  int k = 0;
  auto val = cuprobe::measure_samples(
      "a value", cuprobe::sample_unit::value, [&] { return double(++k); }, {}, o);
  CHECK(val.samples == std::vector<double>{3, 4, 5, 6});  // after 2 warm-up calls
  CHECK(!val.rate.seconds);
  CHECK_THROWS_WITH_AS(cuprobe::measure_samples(
                           "nan", cuprobe::sample_unit::value, [] { return std::nan(""); }, {}, o),
                       doctest::Contains("measure(\"nan\"), sample 0"), cuprobe::error);
  o.batch = 4;
  CHECK_THROWS_WITH_AS(cuprobe::measure_samples(
                           "b", cuprobe::sample_unit::value, [] { return 1.0; }, {}, o),
                       doctest::Contains("batch and graph apply to event-timed samples"),
                       cuprobe::error);
}

CUPROBE_GPU_TEST_CASE("timer characterisation returns sane values") {
  const auto c = cuprobe::suite::characterise_timers(10);
  MESSAGE("clock32 " << c.clock32_overhead_cycles << " cyc, clock64 " << c.clock64_overhead_cycles
                     << " cyc, globaltimer " << c.globaltimer_overhead_cycles << " cyc, tick "
                     << c.globaltimer_tick_ns << " ns, event " << c.event_resolution_us
                     << " us, SM " << c.effective_sm_clock_mhz << " MHz (NVML "
                     << c.nvml_sm_clock_mhz.value_or(-1) << ")");
  CHECK(c.clock32_overhead_cycles > 0);
  CUPROBE_TIMING_CHECK(c.clock32_overhead_cycles < 200);
  CHECK(c.clock64_overhead_cycles > 0);
  CUPROBE_TIMING_CHECK(c.clock64_overhead_cycles < 200);
  CHECK(c.globaltimer_tick_ns > 0);
  CUPROBE_TIMING_CHECK(c.globaltimer_tick_ns < 2000);
  CHECK(c.event_resolution_us > 0);
  CUPROBE_TIMING_CHECK(c.event_resolution_us < 5);
  CUPROBE_TIMING_CHECK(c.effective_sm_clock_mhz > 300);
  CUPROBE_TIMING_CHECK(c.effective_sm_clock_mhz < 3500);
  CHECK(c.clock_window_sms >= 1);
  if (c.nvml_sm_clock_mhz)
    CUPROBE_TIMING_CHECK(c.effective_sm_clock_mhz ==
                         doctest::Approx(*c.nvml_sm_clock_mhz).epsilon(0.05));
}
