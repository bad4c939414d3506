// gpu tier: gen/stream.cuh and gen/stream_check.cuh. Every kernel of the table the DRAM
// example needs (read, write, copy, mixed x float, float4 x ld.cg, ld.cs, ld.cv x launches,
// in_kernel) produces exactly the predicted output; the device checks agree with the host
// checks; a wrong or unwritten word is caught; the replicated layout reads the whole array in
// every block; arguments are checked before a launch. Covering grids (one element per thread)
// give the same outputs for any element count and block size; the driver peers of
// cuprobe_suite/memory.cuh write into a workload's own arrays.
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/gen/stream.cuh>
#include <cuprobe_suite/memory.cuh>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gen = cuprobe::gen;
namespace cache = cuprobe::ptx::cache;
using gen::loop_mode;
using gen::stream_pattern;

namespace {

using dram_table_t = gen::stream_table<gen::type_list<float, float4>,
                                       gen::type_list<cache::cg, cache::cs, cache::cv>>;
const dram_table_t& dram_table() {
  static const dram_table_t t;
  return t;
}

/// Runs k on a fresh workload (two launches in launches mode, the second with first_pass 1;
/// one launch of `passes` passes in in_kernel mode) and returns the device check.
gen::stream_check run(const gen::stream_kernel& k, std::uint64_t elements,
                      const cuprobe::launch_shape& shape, std::uint32_t passes = 3,
                      unsigned inputs = gen::default_mixed_inputs,
                      gen::stream_layout layout = gen::stream_layout::partitioned,
                      gen::stream_workload* keep = nullptr) {
  std::optional<gen::stream_workload> local;
  if (!keep) local.emplace(k.pattern, k.element_bytes, elements, inputs);
  gen::stream_workload& w = keep ? *keep : *local;
  w.fill_inputs(1234);
  w.poison_outputs();
  if (k.mode == loop_mode::launches) {
    k.launch(shape, w.args(shape, k.mode, 1, 0, layout));
    k.launch(shape, w.args(shape, k.mode, 1, 1, layout));
  } else {
    k.launch(shape, w.args(shape, k.mode, passes, 5, layout));
  }
  CUPROBE_CHECK(cudaDeviceSynchronize());
  return w.check();
}

}  // namespace

CUPROBE_GPU_TEST_CASE("every kernel of the DRAM table produces exactly the predicted output") {
  REQUIRE(dram_table().size() == 48);
  const auto shape = gen::stream_shape(2, 128);
  for (const auto& k : dram_table().kernels()) {
    CAPTURE(k.name());
    // ~30 elements per thread: the unrolled main loop and the remainder loop both run.
    const std::uint64_t elements = shape.threads() * 30 + 7;
    const auto c = run(k, elements, shape);
    CHECK_MESSAGE(c.ok, c.message);
    CHECK(c.checked > 0);
  }
}

CUPROBE_GPU_TEST_CASE("covering grids: every kernel produces exactly the predicted output") {
  const gen::stream_table<gen::type_list<float, float4>,
                          gen::type_list<cache::cg, cache::cs, cache::cv>, gen::all_patterns,
                          gen::all_modes, gen::grid_list<gen::stream_grid::covering>>
      t;
  REQUIRE(t.size() == 18);  // write, copy, mixed x 2 types x 3 operators, launches only
  for (const auto& k : t.kernels())
    for (std::uint64_t elements : {std::uint64_t(1), std::uint64_t(255), std::uint64_t(70001)})
      for (int threads : {64, 256, 1024}) {
        CAPTURE(k.name());
        CAPTURE(elements);
        CAPTURE(threads);
        // Two launches (first_pass 0, then 1): the write check sees the second pass's values.
        const auto c = run(k, elements, gen::stream_covering_shape(elements, threads));
        CHECK_MESSAGE(c.ok, c.message);
        CHECK(c.checked > 0);
      }
}

CUPROBE_GPU_TEST_CASE("covering grid too small: refused before launch; a partial grid is caught") {
  const auto k = gen::make_stream_kernel<stream_pattern::copy, float4, cache::cg,
                                         loop_mode::launches, gen::stream_grid::covering>();
  gen::stream_workload w(stream_pattern::copy, 16, 5000);
  w.fill_inputs(3);
  w.poison_outputs();
  const auto shape = gen::stream_covering_shape(4000, 256);  // 4096 threads for 5000 elements
  CHECK_THROWS_WITH_AS(k.launch(shape, w.args(shape)), doctest::Contains("one thread per element"),
                       cuprobe::error);
  // Launched by hand with fewer elements than the workload holds, the rest stays poisoned.
  auto a = w.args(shape);
  a.elements = 4000;
  k.launch(shape, a);
  const auto c = w.check();
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 1000 * 4);  // 4 words per float4 element
}

CUPROBE_GPU_TEST_CASE(
    "the driver peers write the workload's arrays: memcpy passes the copy check") {
  cuprobe::run_options o;
  o.warmup = 1;
  o.stop = cuprobe::stopping_rule::fixed(2);
  gen::stream_workload w(stream_pattern::copy, 16, 100000);
  w.fill_inputs(9);
  w.poison_outputs();
  w.args(gen::stream_covering_shape(100000, 256));
  const auto m = cuprobe::suite::memcpy_bandwidth(w.output().data(), w.input(0).data(), 100000 * 16,
                                                  o, cuprobe::data_source::any);
  CHECK(m.samples.size() == 2);
  CHECK(m.gb_per_s() > 0);
  const auto c = w.check();
  CHECK_MESSAGE(c.ok, c.message);
}

CUPROBE_GPU_TEST_CASE("device checks agree with the host checks on downloaded data") {
  const auto shape = gen::stream_shape(1, 64);
  const std::uint64_t elements = 5003;
  for (auto p : {stream_pattern::write, stream_pattern::copy, stream_pattern::mixed}) {
    const auto& k = dram_table().find(
        p == stream_pattern::write
            ? gen::stream_key::of<stream_pattern::write, float4, cache::cs, loop_mode::in_kernel>()
        : p == stream_pattern::copy
            ? gen::stream_key::of<stream_pattern::copy, float4, cache::cs, loop_mode::in_kernel>()
            : gen::stream_key::of<stream_pattern::mixed, float4, cache::cs,
                                  loop_mode::in_kernel>());
    CAPTURE(k.name());
    gen::stream_workload w(p, 16, elements);
    REQUIRE(
        run(k, elements, shape, 4, gen::default_mixed_inputs, gen::stream_layout::partitioned, &w)
            .ok);
    // in_kernel, first_pass 5, 4 passes: the last pass is 8.
    const auto h = gen::check_output(p, w.output().to_host(), 1234, gen::default_mixed_inputs, 8);
    CHECK_MESSAGE(h.ok, h.message);
    CHECK(h.checked == elements * 4);
  }
  const auto& r = dram_table().get<stream_pattern::read, float, cache::cv, loop_mode::in_kernel>();
  gen::stream_workload w(stream_pattern::read, 4, elements);
  REQUIRE(run(r, elements, shape, 6, 1, gen::stream_layout::partitioned, &w).ok);
  auto sinks = w.sinks().to_host();
  sinks.resize(shape.threads());
  const auto h = gen::check_read_sinks(sinks, gen::expected_read_sum(1234, elements, 6));
  CHECK_MESSAGE(h.ok, h.message);
}

CUPROBE_GPU_TEST_CASE("a wrong word and an unwritten output are caught") {
  const auto shape = gen::stream_shape(1, 128);
  const auto& k = dram_table().get<stream_pattern::copy, float, cache::cg>();
  gen::stream_workload w(stream_pattern::copy, 4, 100000);
  REQUIRE(run(k, 100000, shape, 1, 1, gen::stream_layout::partitioned, &w).ok);
  const std::uint32_t bad = 0x12345678u;
  CUPROBE_CHECK(cudaMemcpy(const_cast<std::uint32_t*>(w.output().data()) + 777, &bad, 4,
                           cudaMemcpyHostToDevice));
  const auto c = w.check();
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 1);
  CHECK(c.first_bad == 777);
  CHECK(c.found == bad);
  CHECK(c.expected == gen::stream_input_word(1234, 0, 777));
  CHECK_THROWS_AS(c.require(), cuprobe::error);

  w.poison_outputs();  // as if the kernel had written nothing
  const auto u = w.check();
  CHECK_FALSE(u.ok);
  CHECK(u.mismatches == 100000);
  CHECK(u.first_bad == 0);
  CHECK(u.message.find("never written") != std::string::npos);

  gen::stream_workload r(stream_pattern::read, 16, 1000);  // read: sinks never written
  r.fill_inputs(1);
  r.poison_outputs();
  (void)r.args(shape);
  CHECK_FALSE(r.check().ok);
}

CUPROBE_GPU_TEST_CASE("replicated read: every block reads the whole array, every pass") {
  const auto shape = gen::stream_shape(2, 64);
  const std::uint64_t elements = 1000;  // 16 KB of float4: the L1-sized case
  const auto& k = dram_table().get<stream_pattern::read, float4, cache::cg, loop_mode::in_kernel>();
  gen::stream_workload w(stream_pattern::read, 16, elements);
  const auto c = run(k, elements, shape, 7, 1, gen::stream_layout::replicated, &w);
  CHECK_MESSAGE(c.ok, c.message);
  auto sinks = w.sinks().to_host();
  sinks.resize(shape.threads());
  const auto h =
      gen::check_read_sinks(sinks, gen::expected_read_sum(1234, elements * 4, 7 * shape.blocks()));
  CHECK_MESSAGE(h.ok, h.message);
  const auto b = w.bytes();
  CHECK(b.bytes_read == elements * 16 * 7 * shape.blocks());
  CHECK(b.bytes_written == 0);
}

CUPROBE_GPU_TEST_CASE("small working sets, other widths and other input counts") {
  const auto shape = gen::stream_shape(4, 256);
  for (const auto& k : dram_table().kernels()) {
    CAPTURE(k.name());
    const auto c = run(k, 5, shape);  // far fewer elements than threads
    CHECK_MESSAGE(c.ok, c.message);
  }
  const gen::stream_table<gen::type_list<float2, uint4>,
                          gen::type_list<cache::none, cache::nc_evict_last>>
      t;
  for (const auto& k : t.kernels()) {
    CAPTURE(k.name());
    for (unsigned inputs : {1u, 2u, 8u}) {
      if (inputs != 1 && k.pattern != stream_pattern::mixed) continue;
      const auto c = run(k, 77777, gen::stream_shape(1, 96), 2, inputs);
      CHECK_MESSAGE(c.ok, c.message);
    }
  }
}

CUPROBE_GPU_TEST_CASE("stream kernels report their attributes and reject bad arguments") {
  const auto& k =
      dram_table().get<stream_pattern::mixed, float4, cache::cv, loop_mode::in_kernel>();
  CHECK(k.store_op == std::string("wt"));
  const auto a = cuprobe::kernel_attributes::of(k.kernel, 256);
  CHECK(a.registers > 0);
  if (!CUPROBE_PTX_CHECKS) CHECK(a.local_bytes == 0);  // debug builds printf from the checks
  CHECK(a.max_active_blocks_per_sm >= 1);

  const auto shape = gen::stream_shape(1, 32);
  gen::stream_workload w(stream_pattern::mixed, 16, 1000);
  w.fill_inputs(3);
  auto args = w.args(shape, loop_mode::in_kernel, 2);
  auto misaligned = args;
  misaligned.in[2] = static_cast<const char*>(args.in[2]) + 4;
  CHECK_THROWS_WITH_AS(k.launch(shape, misaligned), doctest::Contains("input 2 is not aligned"),
                       cuprobe::error);
  auto nonzero = args;
  nonzero.zero = 1;
  CHECK_THROWS_WITH_AS(k.launch(shape, nonzero), doctest::Contains("zero must be 0"),
                       cuprobe::error);
  CHECK_THROWS_AS(w.args(shape, loop_mode::in_kernel, 2, 0, gen::stream_layout::replicated),
                  cuprobe::error);
  CHECK_NOTHROW(k.launch(shape, args));
  CUPROBE_CHECK(cudaDeviceSynchronize());
  CHECK(w.check().ok);
}
