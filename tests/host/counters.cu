// host tier: measure/counter_sets.cuh, measure/counter_checks.cuh and the host half of
// measure/cupti.cuh. Requests and their sets, the checks against the declared work (DRAM bytes,
// cache residency, the sector model), the limiting unit, the results' JSON, table and CSV, and
// CUPTI's host profiler on a named chip (GH100: no GPU needed; skipped, visibly, where libcupti
// cannot be opened).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/measure/counter_checks.cuh>
#include <cuprobe/measure/counter_pass.cuh>
#include <cuprobe/measure/counter_sets.cuh>
#include <cuprobe/measure/cupti.cuh>
#include <cuprobe/report/csv.cuh>
#include <cuprobe/report/results.cuh>
#include <cuprobe/report/summary.cuh>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace cp = cuprobe;
namespace ct = cuprobe::counters;

constexpr double l2 = 50.0 * 1024 * 1024;  // an L2 of 50 MiB

/// A result that counted `values` (metric, value), per_range launches per sample.
ct::result counted(std::vector<std::pair<std::string, double>> values, double per_range = 1) {
  ct::result r;
  r.spec = "test";
  r.per_range = per_range;
  for (auto& [m, v] : values) r.values.push_back({m, ct::label_of(m), v, ""});
  return r;
}

cp::work dram_copy(double bytes_each_way) {
  return cp::work::bytes_moved(bytes_each_way, bytes_each_way, "copy")
      .with_source(cp::data_source::dram)
      .with_working_set(2 * bytes_each_way);
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("a request: sets, raw names, each metric once, time and clock always, bad names") {
  const auto r = ct::parse(" dram , sol,dram,lts__t_sectors.sum,dram__bytes_read.sum");
  CHECK(r.sets == std::vector<std::string>{"dram", "sol"});
  CHECK(r.raw == std::vector<std::string>{"lts__t_sectors.sum", "dram__bytes_read.sum"});
  std::size_t reads = 0;
  for (const auto& m : r.metrics) reads += m == "dram__bytes_read.sum";
  CHECK(reads == 1);
  CHECK(r.metrics.front() == "dram__bytes_read.sum");
  CHECK(r.metrics[r.metrics.size() - 2] == "gpu__time_duration.sum");
  CHECK(r.metrics.back() == "sm__cycles_elapsed.avg.per_second");
  // every sol unit is in the request once
  for (const auto& u : ct::sol_units())
    CHECK(std::count(r.metrics.begin(), r.metrics.end(), std::string(u.name)) == 1);
  for (const char* none : {"", "0", "none"}) CHECK(ct::parse(none).empty());
  CHECK(ct::parse("none").metrics.empty());
  CHECK_THROWS_WITH_AS(ct::parse("dram,l3"),
                       doctest::Contains("\"l3\" is neither a counter set (dram, l2, l1, access, "
                                         "tensor, sol)"),
                       cp::error);
  CHECK_THROWS_WITH_AS(ct::parse("dram__bytes read"), doctest::Contains("neither a counter set"),
                       cp::error);
  CHECK(ct::is_count("dram__bytes_read.sum"));
  CHECK_FALSE(ct::is_count("dram__throughput.avg.pct_of_peak_sustained_elapsed"));
  CHECK(ct::label_of("dram__bytes_write.sum") == "DRAM bytes written");
  CHECK(ct::label_of("lts__t_sectors.sum") == "lts__t_sectors.sum");
}

TEST_CASE("kernel ranges combine: counts add up, shares and rates weigh by duration") {
  const std::vector<std::string> m = {"dram__bytes_read.sum",
                                      "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                                      "sm__cycles_elapsed.avg.per_second"};
  const std::vector<std::vector<double>> r = {{100, 90, 1.8e9}, {50, 30, 1.5e9}};
  const auto w = ct::combine_ranges(m, r, {3.0, 1.0});
  CHECK(w[0] == 150);
  CHECK(w[1] == doctest::Approx(75));  // (90 x 3 + 30 x 1) / 4
  CHECK(w[2] == doctest::Approx(1.725e9));
  const auto plain = ct::combine_ranges(m, r);  // no durations: the plain mean
  CHECK(plain[0] == 150);
  CHECK(plain[1] == doctest::Approx(60));
  CHECK(ct::combine_ranges(m, {{1, 2, 3}}, {0.0}) == std::vector<double>{1, 2, 3});
}

TEST_CASE("the limiting unit is the busiest sol unit; unit_shares sorts them") {
  auto r = counted({{"dram__throughput.avg.pct_of_peak_sustained_elapsed", 91.5},
                    {"lts__t_sectors.avg.pct_of_peak_sustained_elapsed", 40},
                    {"lts__ltcfabric2ltc_cycles_active.avg.pct_of_peak_sustained_elapsed", 95.2},
                    {"sm__inst_issued.avg.pct_of_peak_sustained_elapsed", 12}});
  const auto u = ct::limiting_unit(r);
  REQUIRE(u);
  CHECK(u->unit == "L2 fabric");
  CHECK(u->percent == 95.2);
  const auto all = ct::unit_shares(r);
  REQUIRE(all.size() == 4);
  CHECK(all[0].unit == "L2 fabric");
  CHECK(all[1].unit == "DRAM");
  CHECK(all[3].unit == "issue");
  CHECK_FALSE(ct::limiting_unit(counted({{"dram__bytes_read.sum", 1}})));
  CHECK(cp::limiting_text(r) == "L2 fabric 95 %");
}

TEST_CASE("DRAM bytes against the declared work: match, mismatch, the L2's slack, residency") {
  const double b = 1 << 30;  // 1 GiB each way
  const auto w = dram_copy(b);
  // within 2 %: nothing
  CHECK(
      cp::counter_flags(
          w, counted({{"dram__bytes_read.sum", 1.01 * b}, {"dram__bytes_write.sum", 0.99 * b}}), l2)
          .empty());
  // a kernel that declares half its bytes: the counters see twice the declared
  auto half = cp::work::bytes_moved(b / 2, b / 2, "half").with_source(cp::data_source::dram);
  const auto f = cp::counter_flags(
      half, counted({{"dram__bytes_read.sum", b}, {"dram__bytes_write.sum", b}}), l2);
  REQUIRE(f.size() == 1);
  CHECK(f[0].code == cp::flag_code::declared_work_mismatch);
  CHECK(contains(f[0].message,
                 "1 GiB read and 1 GiB written in DRAM per iteration against the "
                 "declared 512 MiB and 512 MiB"));
  // writes held back in the L2 at the range's end: up to its size per profiled sample
  CHECK(cp::counter_flags(
            w, counted({{"dram__bytes_read.sum", b}, {"dram__bytes_write.sum", b - 0.9 * l2}}), l2)
            .empty());
  // ... divided by the launches one sample covers
  CHECK(
      cp::counter_flags(
          w, counted({{"dram__bytes_read.sum", b}, {"dram__bytes_write.sum", b - 0.9 * l2}}, 8), l2)
          .size() == 1);
  // the L2 served it: counted, below half the declared bytes
  const auto small = dram_copy(8 << 20);
  const auto c = cp::counter_flags(
      small, counted({{"dram__bytes_read.sum", 1e5}, {"dram__bytes_write.sum", 2e5}}), l2);
  REQUIRE(c.size() == 1);
  CHECK(c[0].code == cp::flag_code::cache_resident);
  CHECK(contains(c[0].message, "read in DRAM per iteration"));
  CHECK(contains(c[0].message, "the L2 served the rest"));
  // reads decide: an L2-resident copy whose written lines were written back still is resident
  const auto wb = cp::counter_flags(
      small, counted({{"dram__bytes_read.sum", 1e5}, {"dram__bytes_write.sum", 8 << 20}}), l2);
  REQUIRE(wb.size() == 1);
  CHECK(wb[0].code == cp::flag_code::cache_resident);
  // write-only work: the writes decide
  const auto fill = cp::work::bytes_moved(0, 8 << 20, "fill").with_source(cp::data_source::dram);
  const auto fw = cp::counter_flags(
      fill, counted({{"dram__bytes_read.sum", 0}, {"dram__bytes_write.sum", 1e5}}), l2);
  REQUIRE(fw.size() == 1);
  CHECK(contains(fw[0].message, "written in DRAM per iteration"));
  CHECK(cp::counter_flags(
            fill, counted({{"dram__bytes_read.sum", 0}, {"dram__bytes_write.sum", 8 << 20}}), l2)
            .empty());
  // not DRAM work: no DRAM check; no DRAM counters: no check
  auto l2work = cp::work::bytes_moved(b, 0, "l2").with_source(cp::data_source::l2);
  CHECK(cp::counter_flags(l2work,
                          counted({{"dram__bytes_read.sum", 0}, {"dram__bytes_write.sum", 0}}), l2)
            .empty());
  CHECK(cp::counter_flags(half, counted({{"gpu__time_duration.sum", 1}}), l2).empty());
  // a working set of 4 x the L2 or more with no declared source counts as DRAM work
  auto any = cp::work::bytes_moved(b, 0, "read").with_working_set(b);
  CHECK(cp::declared_dram(any, l2));
  CHECK(cp::declared_dram(cp::work::bytes_moved(b, 0, "r").with_working_set(4 * l2), l2));
  // ... but one below 4 x the L2 is not: the L2 may serve part of it
  CHECK_FALSE(cp::declared_dram(cp::work::bytes_moved(b, 0, "r").with_working_set(2 * l2), l2));
  CHECK(cp::counter_flags(
            any, counted({{"dram__bytes_read.sum", 2 * b}, {"dram__bytes_write.sum", 0}}), l2)
            .size() == 1);
}

// A misaligned 4-byte read at DRAM: the lanes use 1 GiB, DRAM reads 1.5 GiB (64-byte pairs). A
// DRAM model declares it, and the counts are checked against the model, not the used bytes.
TEST_CASE("DRAM bytes against a declared DRAM model") {
  const double b = 1 << 30;
  const auto used =
      cp::work::bytes_moved(b, 0, "the lanes' bytes").with_source(cp::data_source::dram);
  const auto pairs = counted({{"dram__bytes_read.sum", 1.5 * b}, {"dram__bytes_write.sum", 0}});
  // without a model, 1.5 x the declared bytes is a mismatch ...
  REQUIRE(cp::counter_flags(used, pairs, l2).size() == 1);
  // ... with the model, the same counts match it
  auto modelled = used;
  modelled.with_dram_model(1.5 * b, 0);
  CHECK(cp::counter_flags(modelled, pairs, l2).empty());
  // counts off the model are flagged against the modelled bytes
  const auto f = cp::counter_flags(
      modelled, counted({{"dram__bytes_read.sum", 2 * b}, {"dram__bytes_write.sum", 0}}), l2);
  REQUIRE(f.size() == 1);
  CHECK(f[0].code == cp::flag_code::declared_work_mismatch);
  CHECK(contains(f[0].message, "against the modelled 1.5 GiB and 0 B"));
  CHECK(contains(f[0].message, "the declared work or its DRAM model is wrong"));
  // residency is judged against the modelled reads
  const auto r = cp::counter_flags(
      modelled, counted({{"dram__bytes_read.sum", 0.6 * b}, {"dram__bytes_write.sum", 0}}), l2);
  REQUIRE(r.size() == 1);
  CHECK(r[0].code == cp::flag_code::cache_resident);
  CHECK(contains(r[0].message, "modelled as DRAM reads"));
}

TEST_CASE("the sector model against counted sectors per request") {
  CHECK(ct::sectors_per_request(counted({{"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 4},
                                         {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 20}}),
                                false) == 5.0);
  CHECK_FALSE(ct::sectors_per_request(counted({{"dram__bytes_read.sum", 1}})));
  auto w = cp::work::bytes_moved(1e9, 0, "read").with_sector_model(5.0);
  CHECK(cp::counter_flags(w,
                          counted({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1000},
                                   {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 5000}}),
                          l2)
            .empty());
  const auto f =
      cp::counter_flags(w,
                        counted({{"l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 1000},
                                 {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 4000}}),
                        l2);
  REQUIRE(f.size() == 1);
  CHECK(f[0].code == cp::flag_code::sector_model_mismatch);
  CHECK(contains(f[0].message, "4.000 sectors per global load request against the model's 5.000"));
  auto st = cp::work::bytes_moved(0, 1e9, "write").with_sector_model({}, 4.0);
  CHECK(cp::counter_flags(st,
                          counted({{"l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 10},
                                   {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 80}}),
                          l2)
            .size() == 1);
}

// Recorded on an H100 (cache_bandwidth --counters l2,...): a partitioned .cg read of 3.125 MiB
// whose 1024-thread chunks two or three SMs shared received 1 / 0.792 of what the L2 looked up;
// block-private chunks, 1.000.
TEST_CASE("l2_coalesced: the SMs received more than the L2 looked up for their reads") {
  const auto w = cp::work::bytes_moved(8e9, 0, "read").with_working_set(3.125 * (1 << 20));
  const auto shared =
      cp::counter_flags(w,
                        counted({{"l1tex__m_xbar2l1tex_read_sectors.sum", 2.5e8},
                                 {"lts__t_sectors_srcunit_tex_op_read.sum", 0.792 * 2.5e8}}),
                        l2);
  REQUIRE(shared.size() == 1);
  CHECK(shared[0].code == cp::flag_code::l2_coalesced);
  CHECK(contains(shared[0].message,
                 "the SMs received 2.5e+08 sectors from the L2 for their "
                 "reads, 1.263 x the 1.98e+08 sectors its slices looked up"));
  // within 5 %: no flag (a far-partition line is looked up at both partitions' counters)
  CHECK(cp::counter_flags(w,
                          counted({{"l1tex__m_xbar2l1tex_read_sectors.sum", 2.5e8},
                                   {"lts__t_sectors_srcunit_tex_op_read.sum", 0.996 * 2.5e8}}),
                          l2)
            .empty());
  // a launch's own few sectors, or one of the two counts missing: no check
  CHECK(cp::counter_flags(w,
                          counted({{"l1tex__m_xbar2l1tex_read_sectors.sum", 1000},
                                   {"lts__t_sectors_srcunit_tex_op_read.sum", 10}}),
                          l2)
            .empty());
  CHECK(
      cp::counter_flags(w, counted({{"l1tex__m_xbar2l1tex_read_sectors.sum", 2.5e8}}), l2).empty());
  // work that declares no reads: no check (an H100's st.global.cg writes of l2_write_scaling
  // received 1.08 x the read sectors looked up: the stores' own responses, not reads)
  CHECK(cp::counter_flags(cp::work::bytes_moved(0, 8e9, "write"),
                          counted({{"l1tex__m_xbar2l1tex_read_sectors.sum", 1.08e6},
                                   {"lts__t_sectors_srcunit_tex_op_read.sum", 1e6}}),
                          l2)
            .empty());
}

TEST_CASE("apply_counter_flags joins a counted cache_resident to the working-set rule's flag") {
  cp::measurement m;
  m.declared = dram_copy(8 << 20);
  m.flags.push_back({cp::flag_code::cache_resident, "the working set of 16 MiB is below 4 x"});
  m.counters = counted({{"dram__bytes_read.sum", 0}, {"dram__bytes_write.sum", 0}});
  cp::apply_counter_flags(m, l2);
  REQUIRE(m.flags.size() == 1);
  CHECK(contains(m.flags[0].message, "below 4 x; the counters saw 0 B read in DRAM"));
  cp::measurement none;
  none.declared = m.declared;
  cp::apply_counter_flags(none, l2);
  CHECK(none.flags.empty());
}

TEST_CASE("results: counters in JSON, the table's 'what stops it' and the CSV's columns") {
  cp::results res(cp::json::object(), cp::json::object());
  cp::measurement a;
  a.name = "copy";
  a.counters = counted(
      {{"dram__bytes_read.sum", 100}, {"dram__throughput.avg.pct_of_peak_sustained_elapsed", 93}});
  a.counters.values[0].unit = "byte";
  cp::measurement b;
  b.name = "plain";
  cp::measurement c;
  c.name = "refused";
  c.counters.spec = "dram";
  c.counters.missing = "another tool owns the profiler";
  res.add(a);
  res.add(b);
  res.add(c);
  const cp::json j = res.to_json();
  CHECK(j.at("schema").as_string() == "cuprobe.results/3");
  const auto& bs = j.at("benchmarks").elements();
  CHECK(bs[0].at("counters").at("values").elements().size() == 2);
  CHECK(bs[0].at("counters").at("limiting_unit").at("unit").as_string() == "DRAM");
  CHECK(bs[1].at("counters").is_null());
  CHECK(bs[2].at("counters").at("missing").as_string() == "another tool owns the profiler");
  CHECK(bs[2].at("counters").at("limiting_unit").is_null());
  const std::string csv = cp::measurements_csv(res.measurements());
  CHECK(contains(csv, "limiting_unit,limiting_unit_percent,counter:dram__bytes_read.sum [byte],"));
  CHECK(contains(csv, ",DRAM,93,100,93\n"));
  std::FILE* f = std::tmpfile();
  res.print_table(f);
  std::rewind(f);
  std::string text(4096, '\0');
  text.resize(std::fread(text.data(), 1, text.size(), f));
  std::fclose(f);
  CHECK(contains(text, "what stops it"));
  CHECK(contains(text, "DRAM 93 %"));
  CHECK(contains(text, "counters: not collected: another tool owns the profiler"));
}

TEST_CASE("CUPTI's host profiler on GH100: units, passes, a name the chip lacks") {
#if !CUPROBE_CUPTI_HEADERS
  MESSAGE("SKIPPED: cuprobe was compiled without CUPTI's profiler headers");
#else
  std::unique_ptr<ct::host_config> h;
  try {
    h = std::make_unique<ct::host_config>("GH100", ct::parse("dram,sol").metrics);
  } catch (const cp::error& e) {
    if (std::string(e.what()).find("libcupti could not be opened") == std::string::npos &&
        std::string(e.what()).find("compiled without") == std::string::npos)
      throw;
    MESSAGE("SKIPPED: " << e.what());
    return;
  }
  REQUIRE(h->units().size() == h->metrics().size());
  CHECK(h->units()[0] == "byte");
  CHECK(h->passes() >= 1);
  CHECK(h->passes() <= 4);
  for (const auto& s : ct::counter_sets()) {
    ct::host_config one("GH100", ct::parse(s.name).metrics);  // every set exists on GH100
    CHECK(one.passes() >= 1);
  }
  CHECK_THROWS_WITH_AS(ct::host_config("GH100", {"dram__bytes_raed.sum"}),
                       doctest::Contains("GH100 has no metric \"dram__bytes_raed.sum\""),
                       cp::error);
#endif
}

TEST_CASE("recorded H100 images, evaluated without a GPU: bytes, sectors, the limiting unit") {
#if !CUPROBE_CUPTI_HEADERS
  MESSAGE("SKIPPED: cuprobe was compiled without CUPTI's profiler headers");
#else
  // tests/data/counters/README.md: a float4 copy of 1 GiB on an H100, one range per image.
  const auto eval = [](const char* set) {
    const auto image = ct::load_image(std::string(CUPROBE_SOURCE_DIR) +
                                      "/tests/data/counters/copy_" + set + ".counterdata");
    ct::host_config h("GH100", ct::parse(set).metrics);
    return h.to_result(set, image, 1, 1.0, ct::range_kind::sample);
  };
  ct::result dram;
  try {
    dram = eval("dram");
  } catch (const cp::error& e) {
    if (std::string(e.what()).find("libcupti could not be opened") == std::string::npos) throw;
    MESSAGE("SKIPPED: " << e.what());
    return;
  }
  const double gib = double(std::size_t(1) << 30);
  CHECK(*dram.get("dram__bytes_read.sum") == doctest::Approx(gib).epsilon(0.01));
  // the writes: all but what the L2 (50 MiB) still held when the range ended
  CHECK(*dram.get("dram__bytes_write.sum") >= gib - 50.0 * (1 << 20));
  CHECK(*dram.get("dram__bytes_write.sum") <= 1.01 * gib);
  CHECK(dram.values[0].unit == "byte");
  const cp::work w = cp::work::bytes_moved(gib, gib, "copy")
                         .with_source(cp::data_source::dram)
                         .with_working_set(2 * gib)
                         .with_sector_model(16.0, 16.0);  // 32 lanes x 16 bytes: 16 sectors
  CHECK(cp::counter_flags(w, dram, 50.0 * (1 << 20)).empty());
  const auto access = eval("access");
  const double loads = *access.get("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum");
  CHECK(loads == gib / 512);  // one request per warp of 32 x 16 bytes
  CHECK(*access.get("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") == 16 * loads);
  CHECK(cp::counter_flags(w, access, 50.0 * (1 << 20)).empty());
  const auto sol = eval("sol");
  const auto u = ct::limiting_unit(sol);
  REQUIRE(u);
  CHECK(u->unit == "DRAM");
  CHECK(u->percent > 50);
#endif
}

TEST_CASE("docs/counters.md names every set and every metric the sets count") {
  std::ifstream f(std::string(CUPROBE_SOURCE_DIR) + "/docs/counters.md");
  REQUIRE(f);
  const std::string doc{std::istreambuf_iterator<char>(f), {}};
  for (const auto& s : ct::counter_sets()) {
    CHECK_MESSAGE(contains(doc, "| `" + std::string(s.name) + "` |"), s.name);
    for (const auto& m : s.metrics)
      CHECK_MESSAGE(contains(doc, "`" + std::string(m.name) + "`"), m.name);
  }
  for (const auto& m : ct::always_counted()) CHECK(contains(doc, m.name));
}

namespace {
/// A profiler for the pass alone: fails the range kinds it is told to, records what it was asked.
struct scripted_profiler {
  ct::request r = ct::parse("dram");
  bool is_ready = true;
  std::string why_not;
  bool fail_kernel = false, fail_sample = false, no_kernel = false;
  int device_fault = 0;  // a CUDA error code to throw as a device fault (0: none)
  std::vector<ct::range_kind> asked;
  const ct::request& req() const { return r; }
  bool ready() const { return is_ready; }
  const std::string& missing() const { return why_not; }
  template <class Once, class Before>
  ct::result collect(Once&&, cudaStream_t, double per_range, Before&&, double, ct::range_kind k) {
    asked.push_back(k);
    if (device_fault) throw cp::error("an illegal address", device_fault);
    if (k == ct::range_kind::kernel && no_kernel)
      throw cp::error("cuprobe: counters: no kernel in the sample (a copy or a memset)");
    if ((k == ct::range_kind::kernel && fail_kernel) ||
        (k == ct::range_kind::sample && fail_sample))
      throw cp::error(std::string("cuprobe: counters: ") + ct::to_string(k) + " ranges refused");
    ct::result res = counted({{"dram__bytes_read.sum", 64}}, per_range);
    res.range = k;
    return res;
  }
};
void pass(cp::measurement& m, scripted_profiler* p) {
  cp::detail::counter_pass(
      m, p, nullptr, 4.0, 10.0, [] {}, [] {});
}
}  // namespace

TEST_CASE("the counter pass: kernel ranges, the fallback to a sample range, failures kept") {
  cp::measurement m;
  m.name = "copy";
  scripted_profiler ok;
  pass(m, &ok);
  CHECK(ok.asked == std::vector<ct::range_kind>{ct::range_kind::kernel});
  CHECK(m.counters.range == ct::range_kind::kernel);
  CHECK(m.counters.per_range == 4.0);
  CHECK(m.counters.missing.empty());
  m.options.graph = true;  // graph replays: one range around the sample
  scripted_profiler graph;
  pass(m, &graph);
  CHECK(graph.asked == std::vector<ct::range_kind>{ct::range_kind::sample});
  m.options.graph = false;
  // a sample without a kernel (cudaMemcpy) is counted in a sample range, and nothing is said
  scripted_profiler memcpy_like;
  memcpy_like.no_kernel = true;
  pass(m, &memcpy_like);
  CHECK(memcpy_like.asked ==
        std::vector<ct::range_kind>{ct::range_kind::kernel, ct::range_kind::sample});
  CHECK(m.counters.range == ct::range_kind::sample);
  CHECK(cp::detail::first_kernel_range_failure());  // not said yet; said now (the case below)
  CHECK_FALSE(cp::detail::first_kernel_range_failure());
  scripted_profiler fallback;
  fallback.fail_kernel = true;
  pass(m, &fallback);
  CHECK(fallback.asked ==
        std::vector<ct::range_kind>{ct::range_kind::kernel, ct::range_kind::sample});
  CHECK(m.counters.range == ct::range_kind::sample);
  CHECK(m.counters.get("dram__bytes_read.sum") == 64.0);
  scripted_profiler both;
  both.fail_kernel = both.fail_sample = true;
  pass(m, &both);
  CHECK(m.counters.values.empty());
  CHECK(m.counters.spec == "dram");
  CHECK(m.counters.missing == "the counter pass failed: counters: sample ranges refused");
  scripted_profiler refused;
  refused.is_ready = false;
  refused.why_not = "another tool owns the profiler (ncu or nsys)";
  pass(m, &refused);
  CHECK(refused.asked.empty());
  CHECK(m.counters.missing == "another tool owns the profiler (ncu or nsys)");
  scripted_profiler fault;
  fault.device_fault = int(cudaErrorIllegalAddress);
  CHECK_THROWS_AS(pass(m, &fault), cp::error);  // a lost context is not a missing counter
  cp::measurement untouched;
  cp::detail::counter_pass(
      untouched, static_cast<scripted_profiler*>(nullptr), nullptr, 1, 1, [] {}, [] {});
  CHECK_FALSE(untouched.counters.asked());
}

TEST_CASE("counter_spec: the options, else CUPROBE_COUNTERS; none; profile mode counts too") {
  cp::run_options o;
  unsetenv("CUPROBE_COUNTERS");
  CHECK(cp::detail::counter_spec(o).empty());
  setenv("CUPROBE_COUNTERS", "sol", 1);
  CHECK(cp::detail::counter_spec(o) == "sol");
  o.counters = "dram";
  CHECK(cp::detail::counter_spec(o) == "dram");
  o.counters = "none";
  CHECK(cp::detail::counter_spec(o).empty());
  o.counters = "dram";
  o.profile = true;  // the one call ncu profiles, counted by the library when ncu is not there
  CHECK(cp::detail::counter_spec(o) == "dram");
  unsetenv("CUPROBE_COUNTERS");
}

TEST_CASE("a summary's limits: the limiting unit of a headline's counters, none without sol") {
  char name[] = "device_report";
  char* argv[] = {name};
  cp::summary_file sum(1, argv, cp::device_info{});
  sum.set("dram.read.tbps", 3.2);
  sum.set_limit("dram.read.tbps",
                counted({{"dram__throughput.avg.pct_of_peak_sustained_elapsed", 92.5},
                         {"lts__t_sectors.avg.pct_of_peak_sustained_elapsed", 30}}));
  sum.set_limit("l2.read.tbps", counted({{"dram__bytes_read.sum", 1}}));  // no sol: nothing
  const cp::json j = sum.to_json();
  REQUIRE(j.find("limits"));
  CHECK(j.at("limits").at("dram.read.tbps").at("unit").as_string() == "DRAM");
  CHECK(j.at("limits").at("dram.read.tbps").at("percent").as_number() == 92.5);
  CHECK_FALSE(j.at("limits").find("l2.read.tbps"));
  cp::summary_file plain(1, argv, cp::device_info{});
  CHECK_FALSE(plain.to_json().find("limits"));
}
