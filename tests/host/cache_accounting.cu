// host tier: ptx/cache.cuh tags and host checks, gen/stream.cuh byte accounting, expected
// values, host validation, kernel table and argument checks (nothing here needs a GPU).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/gen/stream.cuh>
#include <cuprobe/gen/stream_check.cuh>
#include <cuprobe/ptx/cache.cuh>

#include <cstdint>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace gen = cuprobe::gen;
namespace cache = cuprobe::ptx::cache;
namespace ptx = cuprobe::ptx;
using gen::stream_pattern;

TEST_CASE("cache tags carry their PTX spelling, and ld/st accept exactly the legal ones") {
  CHECK(std::string(cache::cs::name) == "cs");
  CHECK(std::string(cache::none::name) == "none");
  CHECK(std::string(cache::evict_last::name) == "L1::evict_last");
  CHECK(std::string(cache::nc_cs::name) == "cs.nc");
  CHECK(std::string(ptx::load_instruction<cache::none>) == "ld.global");
  CHECK(std::string(ptx::load_instruction<cache::nc_cs>) == "ld.global.cs.nc");
  CHECK(std::string(ptx::load_instruction<cache::nc_evict_first>) ==
        "ld.global.nc.L1::evict_first");
  CHECK(std::string(ptx::load_instruction<cache::L2_256B>) == "ld.global.L2::256B");
  CHECK(std::string(ptx::store_instruction<cache::wt>) == "st.global.wt");
  CHECK(std::string(ptx::store_instruction<cache::no_allocate>) == "st.global.L1::no_allocate");
  static_assert(ptx::is_load_operator<cache::lu> && !ptx::is_store_operator<cache::lu>);
  static_assert(ptx::is_store_operator<cache::wt> && !ptx::is_load_operator<cache::wt>);
  static_assert(ptx::is_store_operator<cache::wb> && !ptx::is_load_operator<cache::wb>);
  static_assert(ptx::is_load_operator<cache::cs> && ptx::is_store_operator<cache::cs>);
  static_assert(!ptx::is_store_operator<cache::nc> && !ptx::is_store_operator<cache::L2_256B>);
  static_assert(!ptx::is_load_operator<int>);
  CHECK(cache::L2_256B::min_sm == 800);
  CHECK(cache::evict_first::min_sm == 700);
  CHECK(cache::cg::min_sm == 0);
}

TEST_CASE("each load operator has a paired store operator") {
  static_assert(std::is_same_v<gen::paired_store_t<cache::cg>, cache::cg>);
  static_assert(std::is_same_v<gen::paired_store_t<cache::cs>, cache::cs>);
  static_assert(std::is_same_v<gen::paired_store_t<cache::cv>, cache::wt>);
  static_assert(std::is_same_v<gen::paired_store_t<cache::ca>, cache::wb>);
  static_assert(std::is_same_v<gen::paired_store_t<cache::lu>, cache::cs>);
  static_assert(std::is_same_v<gen::paired_store_t<cache::none>, cache::none>);
  static_assert(std::is_same_v<gen::paired_store_t<cache::nc>, cache::none>);
  static_assert(std::is_same_v<gen::paired_store_t<cache::nc_evict_last>, cache::evict_last>);
  static_assert(std::is_same_v<gen::paired_store_t<cache::L2_256B>, cache::none>);
  CHECK(ptx::is_store_operator<gen::paired_store_t<cache::nc_no_allocate>>);
}

TEST_CASE("require_aligned checks the access width on the host") {
  const void* p16 = reinterpret_cast<const void*>(std::uintptr_t{0x1000});
  const void* p4 = reinterpret_cast<const void*>(std::uintptr_t{0x1004});
  CHECK_NOTHROW(ptx::require_aligned<float4>(p16, "in"));
  CHECK_NOTHROW(ptx::require_aligned<float>(p4, "in"));
  CHECK_NOTHROW(ptx::require_aligned<std::uint8_t>(reinterpret_cast<const char*>(p4) + 1, "in"));
  CHECK_THROWS_WITH_AS(ptx::require_aligned<float4>(p4, "my input"),
                       doctest::Contains("my input: pointer"), cuprobe::error);
  CHECK_THROWS_WITH_AS(ptx::require_aligned<double>(p4, "x"),
                       doctest::Contains("not aligned to 8 bytes"), cuprobe::error);
}

TEST_CASE("stream_accounting: which bytes count for each pattern") {
  const std::uint64_t n = 1000;
  auto r = gen::stream_accounting(stream_pattern::read, n, 16, 3);
  CHECK(r.bytes_read == 3 * n * 16);
  CHECK(r.bytes_written == 0);
  CHECK(r.rule == "read: N read per pass");
  auto w = gen::stream_accounting(stream_pattern::write, n, 4, 2);
  CHECK(w.bytes_read == 0);
  CHECK(w.bytes_written == 2 * n * 4);
  CHECK(w.rule == "write: N written per pass");
  auto c = gen::stream_accounting(stream_pattern::copy, n, 16, 1);
  CHECK(c.bytes_read == n * 16);
  CHECK(c.bytes_written == n * 16);
  CHECK(c.total() == 2 * n * 16);
  CHECK(c.rule == "copy: N read + N written per pass");
  auto m = gen::stream_accounting(stream_pattern::mixed, n, 16, 1);  // default 5R1W
  CHECK(m.reads_per_pass == 5 * n);
  CHECK(m.writes_per_pass == n);
  CHECK(m.total() == 6 * n * 16);  // a 5R1W pass moves 6N elements
  CHECK(m.rule == "mixed 5R1W: 5N read + N written per pass");
  auto m2 = gen::stream_accounting(stream_pattern::mixed, n, 4, 10, 2);
  CHECK(m2.total() == 10 * 3 * n * 4);
  auto rep = gen::stream_accounting(stream_pattern::read, n, 16, 7, 5, 264);
  CHECK(rep.bytes_read == 7 * 264 * n * 16);
  CHECK(rep.rule.find("264 blocks") != std::string::npos);
  CHECK(gen::stream_bytes_per_sm(132 << 20, gen::stream_layout::partitioned, 132) == (1 << 20));
  CHECK(gen::stream_bytes_per_sm(64 << 10, gen::stream_layout::replicated, 132) == (64 << 10));
  CHECK_THROWS_AS(gen::stream_bytes_per_sm(1, gen::stream_layout::replicated, 0), cuprobe::error);
  CHECK_THROWS_AS(gen::stream_accounting(stream_pattern::mixed, n, 4, 1, 9), cuprobe::error);
  CHECK_THROWS_AS(gen::stream_accounting(stream_pattern::copy, n, 4, 1, 5, 2), cuprobe::error);
}

TEST_CASE("expected values: inputs, written words and the read total") {
  for (std::uint64_t w : {0ull, 1ull, 12345ull, (1ull << 33) + 5}) {
    CHECK(gen::stream_input_word(9, 0, w) ==
          cuprobe::host_random<std::uint32_t>(9, w, 0u, 0xFFFFFFFFu));
    CHECK(gen::stream_input_word(9, 3, w) ==
          cuprobe::host_random<std::uint32_t>(12, w, 0u, 0xFFFFFFFFu));
    CHECK(gen::stream_written_word(w, 4) == (static_cast<std::uint32_t>(w) ^ (5u * 0x9E3779B9u)));
  }
  CHECK(gen::stream_written_word(7, 0) != gen::stream_written_word(7, 1));
  std::uint32_t sum = 0;
  for (std::uint64_t w = 0; w < 1000; ++w)
    sum += cuprobe::host_random<std::uint32_t>(5, w, 0u, ~0u);
  CHECK(gen::expected_read_sum(5, 1000) == sum);
  CHECK(gen::expected_read_sum(5, 1000, 3) == static_cast<std::uint32_t>(3u * sum));
  std::uint32_t m = 0;
  for (unsigned k = 0; k < 5; ++k) m += gen::stream_input_word(5, k, 42);
  CHECK(gen::stream_expected_word(stream_pattern::mixed, 5, 5, 42, 0) == m);
  CHECK(gen::stream_expected_word(stream_pattern::copy, 5, 5, 42, 0) ==
        gen::stream_input_word(5, 0, 42));
  CHECK(gen::stream_expected_word(stream_pattern::write, 5, 5, 42, 3) ==
        gen::stream_written_word(42, 3));
}

TEST_CASE("host validation finds the first wrong word and unwritten words") {
  std::vector<std::uint32_t> out(100);
  for (std::uint64_t w = 0; w < out.size(); ++w) out[w] = gen::stream_written_word(w, 2);
  CHECK(gen::check_output(stream_pattern::write, out, 0, 5, 2).ok);
  CHECK_FALSE(gen::check_output(stream_pattern::write, out, 0, 5, 3).ok);
  out[40] ^= 1;
  out[70] = 0xA5A5A5A5u;
  const auto c = gen::check_output(stream_pattern::write, out, 0, 5, 2);
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 2);
  CHECK(c.first_bad == 40);
  CHECK(c.found == (gen::stream_written_word(40, 2) ^ 1));
  CHECK(c.message.find("2 of 100") != std::string::npos);
  CHECK_THROWS_WITH_AS(c.require(), doctest::Contains("first at word 40"), cuprobe::error);
  std::vector<std::uint32_t> poisoned(10, 0xA5A5A5A5u);
  CHECK(gen::check_output(stream_pattern::copy, poisoned, 1).message.find("never written") !=
        std::string::npos);
  CHECK_THROWS_AS(gen::check_output(stream_pattern::read, out, 0), cuprobe::error);

  const std::vector<std::uint32_t> sinks{0xFFFFFFFFu, 2u, 5u};  // wraps: 6
  CHECK(gen::check_read_sinks(sinks, 6).ok);
  const auto bad = gen::check_read_sinks(sinks, 7);
  CHECK_FALSE(bad.ok);
  CHECK(bad.found == 6);
}

TEST_CASE("the kernel table: every combination once, named by its types") {
  using M = cuprobe::loop_mode;
  using table_t =
      gen::stream_table<gen::type_list<float, float4>, gen::type_list<cache::cg, cache::cv>,
                        gen::pattern_list<stream_pattern::copy, stream_pattern::read>,
                        gen::mode_list<M::in_kernel>>;
  const table_t t;
  CHECK(t.size() == 2 * 2 * 2 * 1);
  std::set<std::string> names;
  for (const auto& k : t.kernels()) {
    names.insert(k.name());
    CHECK(static_cast<bool>(k.kernel));
  }
  CHECK(names.size() == t.size());
  const auto& k = t.get<stream_pattern::copy, float4, cache::cv, M::in_kernel>();
  CHECK(k.name() == "copy float4 ld.global.cv -> st.global.wt, in_kernel");
  CHECK(std::string(k.store_op) == "wt");
  CHECK(t.get<stream_pattern::read, float, cache::cg, M::in_kernel>().name() ==
        "read float ld.global.cg, in_kernel");
  // What the table holds is known at compile time ...
  static_assert(table_t::holds<stream_pattern::read, float, cache::cg, M::in_kernel>);
  static_assert(!table_t::holds<stream_pattern::write, float, cache::cg, M::in_kernel>);
  static_assert(!table_t::holds<stream_pattern::copy, float, cache::cs, M::in_kernel>);
  static_assert(!table_t::holds<stream_pattern::copy, float, cache::cg, M::launches>);
  // ... and a key built at run time that the table lacks is refused with the list.
  CHECK_THROWS_WITH_AS(
      t.find(gen::stream_key::of<stream_pattern::write, float, cache::cg, M::in_kernel>()),
      doctest::Contains("the set holds:\n  copy float cg, in_kernel, persistent"), cuprobe::error);
  const auto one = gen::make_stream_kernel<stream_pattern::mixed, uint4, cache::cs, M::launches>();
  CHECK(one.name() == "mixed uint4 ld.global.cs -> st.global.cs, launches");
  // select(): the subset a command line asks for, by the report names.
  const auto cv =
      t.select([](const gen::stream_kernel& x) { return std::string(x.load_op) == "cv"; });
  CHECK(cv.size() == 4);
  CHECK(!cv.contains(gen::stream_key::of<stream_pattern::read, float, cache::cg, M::in_kernel>()));
}

TEST_CASE("covering grids: kernel table, names, shapes and the one-thread-per-element check") {
  using M = cuprobe::loop_mode;
  using table_t = gen::stream_table<gen::type_list<float, float4>,
                                    gen::type_list<cache::cg, cache::cs>, gen::all_patterns,
                                    gen::all_modes, gen::grid_list<gen::stream_grid::covering>>;
  const table_t t;
  CHECK(t.size() == 2 * 2 * 3);  // write, copy and mixed, launches only; no read
  for (const auto& k : t.kernels()) {
    CHECK(k.grid == gen::stream_grid::covering);
    CHECK(k.mode == M::launches);
    CHECK(k.pattern != stream_pattern::read);
  }
  const auto& k =
      t.get<stream_pattern::copy, float4, cache::cs, M::launches, gen::stream_grid::covering>();
  CHECK(k.name() == "copy float4 ld.global.cs -> st.global.cs, launches, covering");
  static_assert(!table_t::holds<stream_pattern::read, float, cache::cg, M::launches,
                                gen::stream_grid::covering>);
  static_assert(!table_t::holds<stream_pattern::copy, float, cache::cg, M::in_kernel,
                                gen::stream_grid::covering>);
  // The persistent kernel of the same key is not in this table, and the message says which grid.
  CHECK_THROWS_WITH_AS(t.find(gen::stream_key::of<stream_pattern::copy, float4, cache::cs>()),
                       doctest::Contains("copy float4 cs, launches, persistent"), cuprobe::error);
  CHECK(std::string(gen::to_string(gen::stream_grid::covering)) == "covering");

  const auto s = gen::stream_covering_shape(1000, 256);
  CHECK(s.grid.x == 4);  // ceil(1000 / 256)
  CHECK(s.block.x == 256);
  CHECK(gen::stream_covering_shape(1024, 256).grid.x == 4);
  CHECK(gen::stream_covering_shape(1, 1024).grid.x == 1);
  CHECK(gen::stream_covering_shape(std::uint64_t(4) << 30 >> 4, 256).grid.x == 1048576);
  CHECK_THROWS_AS(gen::stream_covering_shape(0, 256), cuprobe::error);
  CHECK_THROWS_AS(gen::stream_covering_shape(10, 0), cuprobe::error);
  CHECK_THROWS_WITH_AS(gen::stream_covering_shape(std::uint64_t(1) << 42, 1),
                       doctest::Contains("2^31 - 1 blocks"), cuprobe::error);

  gen::stream_args a;
  a.in[0] = reinterpret_cast<const void*>(std::uintptr_t{0x10000});
  a.out = reinterpret_cast<void*>(std::uintptr_t{0x20000});
  a.elements = 1001;  // one more than 1000 threads
  auto small = gen::stream_covering_shape(1000, 250);
  CHECK_THROWS_WITH_AS(k.launch(small, a), doctest::Contains("one thread per element"),
                       cuprobe::error);
}

TEST_CASE("launch shapes and argument checks, before any CUDA call") {
  const auto s = gen::stream_shape(4, 256, 132);
  CHECK(s.grid.x == 528);
  CHECK(s.block.x == 256);
  CHECK_THROWS_AS(gen::stream_shape(0, 256, 132), cuprobe::error);
  CHECK_THROWS_AS(gen::stream_shape(1, 1025, 132), cuprobe::error);

  const auto k = gen::make_stream_kernel<stream_pattern::mixed, float4, cache::cg,
                                         cuprobe::loop_mode::in_kernel>();
  gen::stream_args a;
  for (auto& p : a.in) p = reinterpret_cast<const void*>(std::uintptr_t{0x10000});
  a.out = reinterpret_cast<void*>(std::uintptr_t{0x20000});
  a.elements = 100;
  a.inputs = 5;
  auto with = [&](auto change) {
    auto b = a;
    change(b);
    return b;
  };
  CHECK_THROWS_WITH_AS(k.launch(s, with([](auto& b) { b.inputs = 0; })),
                       doctest::Contains("inputs must be 1..8"), cuprobe::error);
  CHECK_THROWS_WITH_AS(k.launch(s, with([](auto& b) { b.inputs = 9; })),
                       doctest::Contains("inputs must be 1..8"), cuprobe::error);
  CHECK_THROWS_WITH_AS(k.launch(s, with([](auto& b) { b.in[4] = nullptr; })),
                       doctest::Contains("input 4 is null"), cuprobe::error);
  CHECK_THROWS_WITH_AS(k.launch(s, with([](auto& b) { b.out = static_cast<char*>(b.out) + 8; })),
                       doctest::Contains("output is not aligned"), cuprobe::error);
  CHECK_THROWS_WITH_AS(k.launch(s, with([](auto& b) { b.elements = 0; })),
                       doctest::Contains("elements is 0"), cuprobe::error);
  CHECK_THROWS_WITH_AS(k.launch(s, with([](auto& b) { b.passes = 0; })),
                       doctest::Contains("passes >= 1"), cuprobe::error);
  CHECK_THROWS_WITH_AS(k.launch(s, with([](auto& b) { b.replicated = 1; })),
                       doctest::Contains("replicated"), cuprobe::error);
  CHECK_THROWS_WITH_AS(k.launch(s, with([](auto& b) { b.zero = 1; })),
                       doctest::Contains("zero must be 0"), cuprobe::error);
  auto s2 = s;
  s2.block.y = 2;
  CHECK_THROWS_WITH_AS(k.launch(s2, a), doctest::Contains("1-D"), cuprobe::error);
  const auto r = gen::make_stream_kernel<stream_pattern::read, float, cache::cs,
                                         cuprobe::loop_mode::launches>();
  CHECK_THROWS_WITH_AS(r.launch(s, a), doctest::Contains("sink is null"), cuprobe::error);

  CHECK(std::string(gen::to_string(stream_pattern::mixed)) == "mixed");
  CHECK(std::string(gen::to_string(gen::stream_layout::replicated)) == "replicated");
  CHECK(std::string(cuprobe::to_string(cuprobe::loop_mode::in_kernel)) == "in_kernel");
}

TEST_CASE("stream_workload rejects bad shapes before allocating") {
  CHECK_THROWS_WITH_AS(gen::stream_workload(stream_pattern::copy, 12, 10),
                       doctest::Contains("element_bytes must be 4, 8 or 16"), cuprobe::error);
  CHECK_THROWS_AS(gen::stream_workload(stream_pattern::copy, 16, 0), cuprobe::error);
  CHECK_THROWS_AS(gen::stream_workload(stream_pattern::mixed, 16, 10, 9), cuprobe::error);
}
