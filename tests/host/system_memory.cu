// host tier: system memory and the copy engines without a GPU. Every bad option of the
// experiments is refused with a sentence naming the field before any CUDA call; the PCIe
// nominal-rate formula (Gen5 x16: 63.0 GB/s per direction) and the link made from NVML's
// readings; pageable host buffers (no CUDA call), size overflow refused, device_data() refused
// for memory the device cannot address; the above_bus_rate flag's sentence.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe_suite/system_memory.cuh>

#include <cmath>
#include <limits>
#include <string>

#include "h200_like.cuh"

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;
using doctest::Contains;

namespace {
void nothing(const std::string&) {}
bool has(const std::string& text, const std::string& words) {
  return text.find(words) != std::string::npos;
}
}  // namespace

TEST_CASE("pcie nominal rate: GT/s x lanes x encoding / 8") {
  CHECK(cuprobe::pcie_nominal_bytes_per_s(5, 16) == doctest::Approx(32e9 * 16 * 128 / 130 / 8));
  CHECK(cuprobe::pcie_nominal_bytes_per_s(5, 16) / 1e9 == doctest::Approx(63.015).epsilon(1e-4));
  CHECK(cuprobe::pcie_nominal_bytes_per_s(4, 16) / 1e9 == doctest::Approx(31.508).epsilon(1e-4));
  CHECK(cuprobe::pcie_nominal_bytes_per_s(3, 8) / 1e9 == doctest::Approx(7.877).epsilon(1e-3));
  CHECK(cuprobe::pcie_nominal_bytes_per_s(1, 1) == doctest::Approx(2.5e9 * 0.8 / 8));
  CHECK(cuprobe::pcie_nominal_bytes_per_s(2, 4) == doctest::Approx(5e9 * 4 * 0.8 / 8));
  CHECK(cuprobe::pcie_nominal_bytes_per_s(6, 16) == doctest::Approx(64e9 * 16 / 8));
  CHECK(cuprobe::pcie_nominal_bytes_per_s(7, 16) == 0);
  CHECK(cuprobe::pcie_nominal_bytes_per_s(5, 0) == 0);
}

TEST_CASE("host_link from NVML's readings") {
  cuprobe::nvml_pcie_link p;
  p.generation = 1;  // an idle link drops its generation ...
  p.width = 16;
  p.max_generation = 5;  // ... the nominal rate uses what device and system allow
  p.max_width = 16;
  auto l = cuprobe::make_host_link(p, {});
  CHECK(l.type == cuprobe::host_link::kind::pcie);
  CHECK(l.name == "PCIe Gen5 x16");
  CHECK(*l.current_generation == 1);
  CHECK(*l.nominal_bytes_per_s == doctest::Approx(cuprobe::pcie_nominal_bytes_per_s(5, 16)));
  CHECK(*l.nominal(2) == doctest::Approx(2 * *l.nominal_bytes_per_s));
  CHECK(l.formula == "32 GT/s x 16 lanes x 128/130 / 8 bits");
  // Only the current readings: used as they are.
  cuprobe::nvml_pcie_link cur;
  cur.generation = 4;
  cur.width = 8;
  CHECK(cuprobe::make_host_link(cur, {}).name == "PCIe Gen4 x8");
  // Nothing read: unknown, with the reason; no rate.
  auto u = cuprobe::make_host_link({}, {});
  CHECK(u.type == cuprobe::host_link::kind::unknown);
  CHECK(!u.nominal_bytes_per_s);
  CHECK(!u.nominal(1));
  CHECK(has(u.why_unknown, "no PCIe generation"));
  cuprobe::nvml_pcie_link odd;
  odd.max_generation = 9;
  odd.max_width = 16;
  CHECK(has(cuprobe::make_host_link(odd, {}).why_unknown, "generation 9 x16"));
  // A chip-to-chip link with active links wins over PCIe.
  cuprobe::nvml_c2c_link c;
  c.links = 10;
  c.link_mbytes_per_s = 45000;
  auto g = cuprobe::make_host_link(p, c);
  CHECK(g.type == cuprobe::host_link::kind::c2c);
  CHECK(g.name == "NVLink-C2C (10 links)");
  CHECK(*g.nominal_bytes_per_s == doctest::Approx(450e9));
  c.links = 0;
  CHECK(cuprobe::make_host_link(p, c).type == cuprobe::host_link::kind::pcie);
  CHECK(cuprobe::to_json(l).dump().find("\"name\":\"PCIe Gen5 x16\"") != std::string::npos);
}

TEST_CASE("above_bus_rate: fires above the nominal rate, names both figures") {
  CHECK(!cuprobe::bus_rate_flag(50e9, 63e9, "PCIe Gen5 x16"));
  CHECK(!cuprobe::bus_rate_flag(std::nullopt, 63e9, "PCIe Gen5 x16"));
  CHECK(!cuprobe::bus_rate_flag(90e9, std::nullopt, "PCIe Gen5 x16"));
  const auto f = cuprobe::bus_rate_flag(94.5e9, 63e9, "PCIe Gen5 x16");
  REQUIRE(f);
  CHECK(f->code == cuprobe::flag_code::above_bus_rate);
  CHECK(has(f->message, "94.5 GB/s is 150.0 % of the nominal 63 GB/s of PCIe Gen5 x16"));
  CHECK(has(f->message, "a GPU cache served part of it"));
  cuprobe::flag_inputs in;
  in.bytes_per_s = 70e9;
  in.bus_bytes_per_s = 63e9;
  in.bus_name = "PCIe Gen5 x16";
  in.samples = 5;
  CHECK(cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::above_bus_rate));
  in.bus_bytes_per_s.reset();
  CHECK(!cuprobe::has_flag(cuprobe::evaluate_flags(in), cuprobe::flag_code::above_bus_rate));
}

TEST_CASE("host_buffer: pageable memory without a GPU, refusals with a sentence") {
  cuprobe::host_buffer<std::uint32_t> h(1000, cuprobe::host_memory::pageable);
  CHECK(h.size() == 1000);
  CHECK(h.bytes() == 4000);
  CHECK(h.kind() == cuprobe::host_memory::pageable);
  CHECK(reinterpret_cast<std::uintptr_t>(h.data()) % cuprobe::host_page_bytes() == 0);
  h.poison();
  CHECK(cuprobe::host_buffer<std::uint32_t>::is_poison(h[999]));
  h[3] = 7;
  CHECK_THROWS_WITH_AS(h.device_data(), Contains("pageable host memory is not mapped"),
                       cuprobe::error);
  cuprobe::host_buffer<std::uint32_t> moved(std::move(h));
  CHECK(moved[3] == 7);
  CHECK(h.empty());
  CHECK(h.data() == nullptr);
  cuprobe::host_buffer<std::uint32_t> none(0, cuprobe::host_memory::mapped);
  CHECK(none.empty());
  CHECK(none.device_data() == nullptr);
  const std::size_t huge = std::numeric_limits<std::size_t>::max() / 2;
  for (auto k : {cuprobe::host_memory::pageable, cuprobe::host_memory::pinned,
                 cuprobe::host_memory::mapped, cuprobe::host_memory::registered})
    CHECK_THROWS_WITH_AS(cuprobe::host_buffer<std::uint64_t>(huge, k),
                         Contains("overflow the size of an allocation"), cuprobe::error);
  CHECK(std::string(cuprobe::to_string(cuprobe::host_memory::registered)) == "registered");
  CHECK(cuprobe::device_accessible(cuprobe::host_memory::mapped));
  CHECK(!cuprobe::device_accessible(cuprobe::host_memory::pinned));
}

TEST_CASE("copy sizes: powers of 4 from 4 KiB to 1 GiB") {
  const auto s = ex::copy_sizes();
  REQUIRE(s.size() == 10);
  CHECK(s.front() == 4096);
  CHECK(s[5] == std::size_t(4) << 20);
  CHECK(s[8] == std::size_t(256) << 20);
  CHECK(s.back() == std::size_t(1) << 30);
  CHECK(ex::copy_sizes(4096, 4096).size() == 1);
  CHECK_THROWS_WITH_AS(ex::copy_sizes(0, 10), Contains("copy_sizes: need 4 <= min_bytes"),
                       cuprobe::error);
}

TEST_CASE("copy_bandwidth: bad options are refused before the GPU is touched") {
  const auto dev = cuprobe_test::h200_like();
  const auto bus = cuprobe::make_host_link({}, {});
  auto refuses = [&](const ex::copy_options& o, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(ex::copy_bandwidth(dev, bus, o, nothing), Contains(words), cuprobe::error);
  };
  ex::copy_options o;
  o.sizes = {};
  refuses(o, "copy_bandwidth: sizes must not be empty");
  o.sizes = {4098};
  refuses(o, "a size of 4098 bytes is not a multiple of 4");
  o = {};
  o.directions = {};
  refuses(o, "directions must not be empty");
  o = {};
  o.host_kinds = {cuprobe::host_memory::mapped};
  refuses(o, "host_kinds takes pinned and pageable, got mapped");
  o = {};
  o.run.graph = true;
  refuses(o, "run.graph must be false");
  o = {};
  o.run.warmup = std::size_t(-1);
  refuses(o, "copy_bandwidth: run_options.warmup");
  o = {};
  o.full_check_bytes = 0;
  refuses(o, "full_check_bytes must be at least 4");
}

TEST_CASE("zero_copy_bandwidth, repeated_reads, system_chases, visibility_test: refusals") {
  const auto dev = cuprobe_test::h200_like();
  const auto bus = cuprobe::make_host_link({}, {});
  auto zc = [&](const ex::zero_copy_options& o, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(ex::zero_copy_bandwidth(dev, bus, o, nothing), Contains(words),
                         cuprobe::error);
  };
  ex::zero_copy_options z;
  z.widths = {32};
  zc(z, "zero_copy_bandwidth: widths are 4, 8 or 16 bytes, got 32");
  z = {};
  z.ops = {"cg", "lu"};
  zc(z, "zero_copy_bandwidth: unknown load operator 'lu'");
  z = {};
  z.ops = {};
  zc(z, "zero_copy_bandwidth: ops must not be empty");
  z = {};
  z.patterns = {gen::stream_pattern::copy};
  zc(z, "patterns take read and write, got copy");
  z = {};
  z.sizes = {1000};
  zc(z, "a working set of 1000 bytes");
  z = {};
  z.blocks_per_sm = 0;
  zc(z, "the grid of 0 x 256");
  z = {};
  z.run.mode = cuprobe::loop_mode::in_kernel;
  zc(z, "run.mode must be launches");

  auto rr = [&](const ex::repeated_read_options& o, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(ex::repeated_reads(dev, bus, o, nothing), Contains(words), cuprobe::error);
  };
  ex::repeated_read_options r;
  r.passes = 1;
  rr(r, "repeated_reads: passes is 1; a repeated read needs 2 .. 4096");
  r = {};
  r.bytes = 100;
  rr(r, "repeated_reads: bytes must be a multiple of 16");
  r = {};
  r.placements = {};
  rr(r, "repeated_reads: placements must not be empty");
  r = {};
  r.ops = {"wt"};
  rr(r, "unknown load operator 'wt'");
  CHECK(ex::repeated_read_bytes(dev, {}) == dev.l2_bytes / 8);

  auto ch = [&](const ex::system_chase_options& o, const char* words) {
    CAPTURE(words);
    CHECK_THROWS_WITH_AS(ex::system_chases(dev, o, nothing), Contains(words), cuprobe::error);
  };
  ex::system_chase_options c;
  c.max_steps = 1;
  ch(c, "system_chases: max_steps is 1");
  c = {};
  c.sizes = {100};
  ch(c, "a ring of 100 bytes");
  c = {};
  c.run.batch = 2;
  ch(c, "leave run.batch = 1");
  const auto sizes = ex::system_chase_sizes(dev, {});
  REQUIRE(sizes.size() == 2);
  CHECK(sizes[0] == dev.l2_bytes / 16);
  CHECK(sizes[1] == 4 * dev.l2_bytes);

  ex::visibility_options v;
  v.ops = {"nc"};
  CHECK_THROWS_WITH_AS(ex::visibility_test(v), Contains("visibility_test: unknown load operator"),
                       cuprobe::error);
  v = {};
  v.watch.timeout_ns = 10;
  CHECK_THROWS_WITH_AS(ex::visibility_test(v), Contains("visibility_test: timeout_ns is 10"),
                       cuprobe::error);
  v = {};
  v.watch.max_polls = 0;
  CHECK_THROWS_WITH_AS(ex::visibility_test(v), Contains("max_polls is 0"), cuprobe::error);
}
