// gpu tier: hardware counters inside measurements (measure/cupti.cuh through the runner). Counted
// DRAM bytes against the declared ones, a kernel that declares half its bytes, a "DRAM" run the
// L2 served, the sector model of misaligned loads, the limiting unit, and the timed medians with
// counters on and off. Where the driver refuses profiling, or under compute-sanitizer (which owns
// the profiler), each case checks the sentence that says so and skips the rest, visibly.
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/core/device_buffer.cuh>
#include <cuprobe/measure/cupti.cuh>
#include <cuprobe/measure/runner.cuh>
#include <cuprobe/model/access.cuh>

#include <algorithm>
#include <cmath>
#include <string>

namespace {

namespace cp = cuprobe;

__global__ void copy4(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}

/// Every thread reads in[i + offset] (4-byte loads, a warp's 128 bytes shifted by `offset`
/// elements) and keeps the sum.
__global__ void read_shifted(const float* __restrict__ in, float* out, std::size_t n, int offset) {
  float s = 0;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    s += in[i + offset];
  if (s == 1234.5f) out[0] = s;  // never: keeps the loads
}

/// True when counters can be collected here; otherwise says why (and checks the sentence).
bool counters_here(const cp::measurement& m) {
  if (m.counters.missing.empty()) return true;
  if (cp::testing::under_sanitizer())
    CHECK(m.counters.missing.find("owns the profiler") != std::string::npos);
  MESSAGE("SKIPPED (counters not collected): " << m.counters.missing);
  return false;
}

cp::run_options opts(const char* counters, std::size_t samples = 10) {
  auto o = cp::run_options::fixed(2, cp::testing::under_sanitizer() ? 2 : samples);
  o.counters = counters;
  return o;
}

struct copy_case {
  std::size_t n;  // float4 elements per array
  cp::device_buffer<float4> a, b;
  explicit copy_case(std::size_t elems) : n(elems), a(elems), b(elems) {
    a.fill(float4{1, 2, 3, 4});
    b.fill(float4{0, 0, 0, 0});
  }
  void launch(cudaStream_t s) {
    copy4<<<cp::current_device().sm_count * 8, 256, 0, s>>>(a.data(), b.data(), n);
  }
  cp::work declared(double share = 1.0) const {
    const double bytes = 16.0 * double(n);
    return cp::work::bytes_moved(share * bytes, share * bytes, "copy: N read + N written")
        .with_source(cp::data_source::dram)
        .with_working_set(2 * bytes);
  }
};

std::size_t dram_elems() {  // 8 x the L2 per array, at least 256 MiB
  const double l2 = double(cp::current_device().l2_bytes);
  const std::size_t bytes = std::max<std::size_t>(std::size_t(8 * l2), std::size_t(256) << 20);
  return (cp::testing::under_sanitizer() ? (std::size_t(16) << 20) : bytes) / 16;
}

}  // namespace

CUPROBE_GPU_TEST_CASE("a DRAM copy: counted bytes equal the declared ones, the limiting unit") {
  copy_case c(dram_elems());
  const auto m = cp::measure(
      "copy", [&](cudaStream_t s) { c.launch(s); }, c.declared(), opts("dram,sol"));
  if (!counters_here(m)) return;
  const double read = *m.counters.get("dram__bytes_read.sum");
  const double written = *m.counters.get("dram__bytes_write.sum");
  MESSAGE("counted " << read << " B read, " << written << " B written per iteration, declared "
                     << m.declared.bytes_read << " each; " << m.counters.passes << " passes");
  CHECK_FALSE(cp::has_flag(m.flags, cp::flag_code::declared_work_mismatch));
  CHECK_FALSE(cp::has_flag(m.flags, cp::flag_code::cache_resident));
  // reads: the whole array from DRAM but what the L2 kept from the sample before
  const double l2 = double(cp::current_device().l2_bytes);
  CHECK(read >= m.declared.bytes_read - l2);
  CHECK(read <= 1.01 * m.declared.bytes_read);
  // writes: all but what the L2 still holds when the range ends
  CHECK(written >= m.declared.bytes_written - l2);
  CHECK(written <= 1.01 * m.declared.bytes_written);
  const auto u = cp::counters::limiting_unit(m.counters);
  REQUIRE(u);
  MESSAGE("what stops it: " << u->unit << " " << u->percent << " %");
  CHECK(u->unit == "DRAM");
  CHECK(m.counters.passes >= 1);
  CHECK(m.counters.get("gpu__time_duration.sum").value_or(0) > 0);
}

CUPROBE_GPU_TEST_CASE("kernel ranges add up over a batch; a graph replay is one sample range") {
  copy_case c(dram_elems());
  for (bool graph : {false, true}) {
    auto o = opts("dram,sol", 3);
    o.batch = 2;  // two launches per sample: two kernel ranges, counts per launch
    o.graph = graph;
    const auto m = cp::measure(
        "copy.batch", [&](cudaStream_t s) { c.launch(s); }, c.declared(), o);
    if (!counters_here(m)) return;
    const std::string how = graph ? "graph: " : "stream: ";
    MESSAGE(how << m.counters.ranges << " ranges ("
                << std::string(cp::counters::to_string(m.counters.range)) << ")");
    CHECK(m.counters.range ==
          (graph ? cp::counters::range_kind::sample : cp::counters::range_kind::kernel));
    CHECK(m.counters.ranges == (graph ? 1u : 2u));
    CHECK(m.counters.per_range == 2.0);
    CHECK_FALSE(cp::has_flag(m.flags, cp::flag_code::declared_work_mismatch));
    const double read = *m.counters.get("dram__bytes_read.sum");
    CHECK(read <= 1.01 * m.declared.bytes_read);
    CHECK(read >= m.declared.bytes_read - double(cp::current_device().l2_bytes));
  }
}

CUPROBE_GPU_TEST_CASE("a kernel that declares half its bytes is flagged declared_work_mismatch") {
  copy_case c(dram_elems());
  const auto m = cp::measure(
      "copy.half", [&](cudaStream_t s) { c.launch(s); }, c.declared(0.5), opts("dram", 3));
  if (!counters_here(m)) return;
  CHECK(cp::has_flag(m.flags, cp::flag_code::declared_work_mismatch));
}

CUPROBE_GPU_TEST_CASE("a 'DRAM' copy the L2 holds is cache_resident, confirmed by counts") {
  // Both arrays L2 / 16: on an H100 a copy of L2 / 4 (12.5 MiB) still read three quarters of
  // its declared bytes from DRAM in every counted launch, so it was no L2-resident case.
  copy_case c(std::size_t(cp::current_device().l2_bytes) / 16 / 32);
  const auto m = cp::measure(
      "copy.resident", [&](cudaStream_t s) { c.launch(s); }, c.declared(), opts("dram", 3));
  if (!counters_here(m)) return;
  bool counted = false;
  for (const auto& f : m.flags) {
    MESSAGE(std::string(cp::to_string(f.code)) << ": " << f.message);
    counted = counted || (f.code == cp::flag_code::cache_resident &&
                          f.message.find("the L2 served the rest") != std::string::npos);
  }
  MESSAGE("counted " << m.counters.get("dram__bytes_read.sum").value_or(-1) << " B read, "
                     << m.counters.get("dram__bytes_write.sum").value_or(-1) << " B written, "
                     << m.declared.bytes() << " declared");
  CHECK(counted);
}

CUPROBE_GPU_TEST_CASE("sectors per request: the model of aligned and misaligned loads, counted") {
  const std::size_t n = std::size_t(64) << 20;
  cp::device_buffer<float> in(n + 64), out(1);
  in.fill(0.f);
  for (int offset : {0, 1}) {
    cp::model::access_pattern p;
    p.width = 4;
    p.offset = 4u * unsigned(offset);
    const double model = double(cp::model::warp_sectors(p).sectors);
    const auto w =
        cp::work::bytes_moved(4.0 * double(n), 0, "one read per element").with_sector_model(model);
    const auto m = cp::measure(
        "read.offset" + std::to_string(offset),
        [&](cudaStream_t s) {
          read_shifted<<<cp::current_device().sm_count * 8, 256, 0, s>>>(in.data(), out.data(), n,
                                                                         offset);
        },
        w, opts("access", 3));
    if (!counters_here(m)) return;
    const auto spr = cp::counters::sectors_per_request(m.counters);
    REQUIRE(spr);
    MESSAGE("offset " << offset << ": " << *spr << " sectors per request, model " << model);
    CHECK(*spr == doctest::Approx(model).epsilon(0.001));
    CHECK_FALSE(cp::has_flag(m.flags, cp::flag_code::sector_model_mismatch));
  }
}

CUPROBE_GPU_TEST_CASE("timed medians with counters on and off differ by no more than the spread") {
  if (cp::testing::under_sanitizer()) {
    MESSAGE("SKIPPED under compute-sanitizer (timing)");
    return;
  }
  copy_case c(dram_elems());
  const auto run = [&](const char* counters) {
    return cp::measure(
        "copy", [&](cudaStream_t s) { c.launch(s); }, c.declared(), opts(counters, 15));
  };
  const auto off1 = run("none"), on = run("dram,sol"), off2 = run("none");
  if (!counters_here(on)) return;
  const double off = 0.5 * (off1.stats.median + off2.stats.median);
  // the run-to-run spread: the two runs without counters, and each run's own p10..p90
  const double spread = std::max({std::fabs(off1.stats.median - off2.stats.median) / off,
                                  (off1.stats.p90 - off1.stats.p10) / off1.stats.median,
                                  (off2.stats.p90 - off2.stats.p10) / off2.stats.median, 0.005});
  MESSAGE("off " << off1.stats.median << " / " << off2.stats.median << " s, on " << on.stats.median
                 << " s, spread " << spread);
  CHECK(std::fabs(on.stats.median - off) / off <= spread);
}
