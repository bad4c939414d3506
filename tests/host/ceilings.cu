// host tier: measure/ceilings.cuh and core/json_parse.cuh. Which ceiling a declared work is
// placed against (a mix of reads and writes: its bound), which source is used (this card's
// record, the reference set of its model, nominal figures), stale and corrupt records, the
// flags, and the JSON reader behind them.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/core/file.cuh>
#include <cuprobe/core/json_parse.cuh>
#include <cuprobe/measure/ceilings.cuh>
#include <cuprobe/measure/runner.cuh>
#include <cuprobe/report/results.cuh>
#include <cuprobe/report/summary.cuh>

#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <ctime>
#include <string>
#include <utility>

#include "h200_like.cuh"

namespace {

namespace cp = cuprobe;

/// A fresh folder under /tmp.
std::string temp_dir(const char* tag) {
  std::string t = std::string("/tmp/cuprobe-ceilings-") + tag + "-XXXXXX";
  REQUIRE(mkdtemp(t.data()) != nullptr);
  return t;
}

std::string iso_days_ago(double days) {
  const std::time_t t = std::time(nullptr) - static_cast<std::time_t>(days * 86400);
  char b[32];
  std::strftime(b, sizeof b, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&t));
  return b;
}

/// A card record for `d` with `metrics` (as JSON text), `driver` and `date`.
void write_record(const std::string& path, const cp::device_info& d, const std::string& metrics,
                  const std::string& driver = "580.159.04", const std::string& date = "") {
  cp::write_text(path, "{\"schema\": \"cuprobe.ceilings/1\", \"device\": {\"name\": \"" + d.name +
                           "\", \"uuid\": \"" + d.uuid + "\", \"driver_version\": \"" + driver +
                           "\", \"sm_clock_max_mhz\": " + std::to_string(d.sm_clock_khz / 1000) +
                           ", \"memory_clock_mhz\": " + std::to_string(d.memory_clock_khz / 1000) +
                           "}, \"date\": \"" + (date.empty() ? iso_days_ago(1) : date) +
                           "\", \"commit\": \"abc\", \"clocks\": {}, \"metrics\": " + metrics +
                           "}");
}

/// Environment pointing the ceilings at fresh folders: a card record dir and a reference dir.
struct sandbox {
  std::string cards = temp_dir("cards"), refs = temp_dir("refs");
  sandbox() {
    setenv("CUPROBE_CEILINGS_DIR", cards.c_str(), 1);
    setenv("CUPROBE_REFERENCE_DIR", refs.c_str(), 1);
  }
  ~sandbox() {
    unsetenv("CUPROBE_CEILINGS_DIR");
    unsetenv("CUPROBE_REFERENCE_DIR");
  }
  void reference(const cp::device_info& d, const std::string& metrics) {
    const std::string dir = refs + "/" + cp::gpu_model_folder(d.name);
    mkdir(dir.c_str(), 0755);
    cp::write_text(dir + "/summary.json",
                   "{\"schema\": \"cuprobe.summary/1\", \"device\": {\"name\": \"" + d.name +
                       "\", \"uuid\": \"GPU-reference\"}, \"commit\": \"0123456789abcdef\", "
                       "\"command\": \"device_report\", \"date\": \"2026-12-01T00:00:00Z\", "
                       "\"metrics\": " +
                       metrics + "}");
  }
};

cp::device_info card() { return cuprobe_test::h200_card("GPU-00000000-test"); }

/// A measurement of `read` and `written` bytes at `source` moved at `gb_per_s`.
cp::measurement moved(double read, double written, double gb_per_s,
                      cp::data_source source = cp::data_source::dram) {
  cp::measurement m;
  m.name = "moved";
  m.declared =
      cp::work::bytes_moved(read, written, "r+w").with_source(source).with_working_set(4e9);
  m.rate.bytes_per_s = gb_per_s * 1e9;
  m.rate.clock_mhz = 1980;
  return m;
}

cp::measurement dram_copy(double gb_per_s) {
  auto m = moved(1e9, 1e9, gb_per_s);
  m.name = "copy";
  return m;
}

}  // namespace

TEST_CASE("parse_json reads every JSON form and names the byte of the first problem") {
  const auto j = cp::parse_json(
      R"( {"a": [1, -2.5e3, true, false, null], "s": "x\"\\\/\n\u00e9\ud83d\ude00", "o": {}} )");
  CHECK(j.at("a").elements().size() == 5);
  CHECK(j.at("a").elements()[0].as_integer() == 1);
  CHECK(j.at("a").elements()[1].as_number() == -2500.0);
  CHECK(j.at("a").elements()[2].as_bool());
  CHECK(j.at("a").elements()[4].is_null());
  CHECK(j.at("s").as_string() == "x\"\\/\n\xc3\xa9\xf0\x9f\x98\x80");
  CHECK(j.at("o").is_object());
  CHECK(cp::parse_json("1e400").as_number() > 1e300);                // inf is the double's answer
  CHECK(cp::parse_json("12345678901234567890").as_number() > 1e19);  // beyond long long
  for (const char* bad : {"", "{", "{\"a\" 1}", "[1,]", "\"open", "[1] 2", "tru", "01x", "\"\\q\"",
                          "{\"a\":}", "-", "1.", "1e"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(cp::parse_json(bad), doctest::Contains("json: at byte"), cp::error);
  }
  CHECK_THROWS_WITH_AS(cp::parse_json(std::string(300, '[')),
                       doctest::Contains("nested deeper than 256 levels"), cp::error);
}

TEST_CASE("ceiling_key_of: which ceiling a declared work is placed against") {
  const double l2 = 60e6;
  using cp::data_source;
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 0, "r").with_source(data_source::dram), l2) ==
        "dram.read.tbps");
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(0, 1, "w").with_source(data_source::dram), l2) ==
        "dram.write.tbps");
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 1, "c").with_source(data_source::dram), l2) ==
        "dram.copy.tbps");
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 0, "r").with_source(data_source::l2), l2) ==
        "l2.read.tbps");
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 0, "r").with_source(data_source::l1), l2) ==
        "l1.read.bytes_per_clk_sm");
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(0, 1, "w").with_source(data_source::shared), l2) ==
        "smem.write.bytes_per_clk_sm");
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 1, "c").with_source(data_source::l1), l2)
            .empty());
  // No level declared: a working set of 4 x the L2 or more is DRAM work; one within it, or
  // between the L2 and 4 x (partly served by the L2), has no ceiling.
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 1, "c").with_working_set(1e9), l2) ==
        "dram.copy.tbps");
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 1, "c").with_working_set(4 * l2), l2) ==
        "dram.copy.tbps");
  CHECK(
      cp::ceiling_key_of(cp::work::bytes_moved(1, 0, "r").with_working_set(1.5 * l2), l2).empty());
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 1, "c").with_working_set(1e6), l2).empty());
  CHECK(cp::ceiling_key_of(cp::work::bytes_moved(1, 1, "c"), l2).empty());
  CHECK(cp::ceiling_key_of(
            cp::work::flop_count(2, 1, "fma").with_op_kind(cp::model::op_kind::fp32_fma), l2) ==
        "fma.f32.fraction_of_peak");
  using tt = cp::model::tensor_type;  // every wgmma input type, spelled as its ceiling's key
  for (const auto& [t, key] : {std::pair{tt::bf16, "tensor.bf16.fraction_of_peak"},
                               std::pair{tt::f16, "tensor.f16.fraction_of_peak"},
                               std::pair{tt::tf32, "tensor.tf32.fraction_of_peak"},
                               std::pair{tt::e4m3, "tensor.e4m3.fraction_of_peak"},
                               std::pair{tt::e5m2, "tensor.e5m2.fraction_of_peak"}})
    CHECK(cp::ceiling_key_of(cp::work::flop_count(2, 1, "mma").with_tensor(t), l2) == key);
  CHECK(cp::ceiling_key_of(cp::work::op_count(1, "hops"), l2).empty());
}

TEST_CASE("ceiling_key_of: reads and writes mixed, by their ratio (reads to writes, 3 digits)") {
  const double l2 = 60e6;
  using cp::data_source;
  const auto key = [&](double r, double w, data_source s = data_source::dram) {
    return cp::ceiling_key_of(cp::work::bytes_moved(r, w, "mix").with_source(s), l2);
  };
  CHECK(key(6, 0) == "dram.read.tbps");    // f = 1
  CHECK(key(5, 1) == "dram.mix.5:1");      // f = 5/6
  CHECK(key(3, 3) == "dram.copy.tbps");    // f = 1/2
  CHECK(key(1, 5) == "dram.mix.1:5");      // f = 1/6
  CHECK(key(0, 6) == "dram.write.tbps");   // f = 0
  CHECK(key(2e9, 1e9) == "dram.mix.2:1");  // a triad
  CHECK(key(1, 2.5) == "dram.mix.1:2.5");
  CHECK(key(20, 16) == "dram.mix.1.25:1");    // a copy with a 4-byte index per element
  CHECK(key(1.0004, 1) == "dram.copy.tbps");  // 1:1 to three digits is a copy
  CHECK(key(5, 1, data_source::l2) == "l2.mix.5:1");
  CHECK(key(5, 1, data_source::any).empty());  // no level: no ceiling, as for a copy
  CHECK(key(5, 1, data_source::l1).empty());   // L1 and shared memory: no mixed ceiling
  CHECK(key(5, 1, data_source::shared).empty());
  CHECK(key(0, 1, data_source::shared) == "smem.write.bytes_per_clk_sm");
}

TEST_CASE("ceilings: this card's record first, then the model's reference set, then nominal") {
  sandbox box;
  const auto d = card();
  CHECK(cp::gpu_model_folder("NVIDIA H200") == "h200");
  CHECK(cp::gpu_model_folder("NVIDIA GeForce RTX 4090") == "geforce-rtx-4090");
  CHECK(cp::ceilings_path(d.uuid) == box.cards + "/" + d.uuid + ".json");
  write_record(cp::ceilings_path(d.uuid), d, R"({"dram.copy.tbps": 4.3, "l2.read.tbps": 11.2})");
  box.reference(d, R"({"dram.copy.tbps": 4.2, "dram.read.tbps": 4.6,
                       "fma.f32.fraction_of_peak": 0.98})");
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  CHECK(c.notes().empty());
  REQUIRE(c.card().has_value());
  REQUIRE(c.reference().has_value());
  CHECK(c.card_stale().empty());

  const auto copy = c.ceiling_of("dram.copy.tbps", 1980);
  REQUIRE(copy);
  CHECK(copy->source == cp::ceiling_source::card);
  CHECK(copy->ceiling_per_s == doctest::Approx(4.3e12));
  CHECK(copy->what == "DRAM copy");
  CHECK(copy->source_text.find("this card's record") != std::string::npos);

  const auto read = c.ceiling_of("dram.read.tbps", 1980);
  REQUIRE(read);
  CHECK(read->source == cp::ceiling_source::reference);
  CHECK(read->ceiling_per_s == doctest::Approx(4.6e12));
  CHECK(read->source_text.find("the reference set for NVIDIA H200") != std::string::npos);

  const auto write = c.ceiling_of("dram.write.tbps", 1980);  // in neither: nominal
  REQUIRE(write);
  CHECK(write->source == cp::ceiling_source::nominal);
  CHECK(write->ceiling_per_s == doctest::Approx(d.nominal_dram_bytes_per_s()));

  // fma: the reference's fraction times the peak model at the measurement's clock.
  const auto fma = c.ceiling_of("fma.f32.fraction_of_peak", 1800);
  REQUIRE(fma);
  CHECK(fma->source == cp::ceiling_source::reference);
  CHECK(fma->ceiling_per_s == doctest::Approx(0.98 * 256.0 * d.sm_count * 1.8e9));
  // L1 per clock: nominal 128 B/clk/SM x SMs x the clock.
  const auto l1 = c.ceiling_of("l1.read.bytes_per_clk_sm", 1000);
  REQUIRE(l1);
  CHECK(l1->ceiling_per_s == doctest::Approx(128.0 * d.sm_count * 1e9));
  // The L2 has no nominal figure: without a record or reference there is no ceiling.
  CHECK_FALSE(c.ceiling_of("l2.write.tbps", 1980).has_value());
  CHECK(c.sources_line().find("this card's record") != std::string::npos);
}

TEST_CASE("place_measurement: the fraction, and the flags above 1.02 x the card's own ceiling") {
  sandbox box;
  const auto d = card();
  write_record(cp::ceilings_path(d.uuid), d, R"({"dram.copy.tbps": 4.0})");
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  auto m = dram_copy(3800);
  cp::place_measurement(m, d, c);
  REQUIRE(m.ceiling);
  CHECK(m.ceiling->fraction == doctest::Approx(0.95));
  CHECK(m.ceiling->key == "dram.copy.tbps");
  CHECK(m.flags.empty());
  auto over = dram_copy(4200);  // 1.05 x
  cp::place_measurement(over, d, c);
  REQUIRE(over.flags.size() == 1);
  CHECK(over.flags[0].code == cuprobe::flag_code::above_measured_ceiling);
  CHECK(over.flags[0].message.find("1.050 x this card's own measured DRAM copy ceiling") !=
        std::string::npos);
  CHECK(over.flags[0].message.find("the L2 served part") == std::string::npos);
  // No level declared, a working set of 8 x the L2: DRAM work, and the sentence names the L2.
  auto any = dram_copy(4200);
  any.declared = cp::work::bytes_moved(1e9, 1e9, "copy").with_working_set(8.0 * d.l2_bytes);
  cp::place_measurement(any, d, c);
  REQUIRE(any.flags.size() == 1);
  CHECK(any.flags[0].message.find("or the L2 served part of a working set given no level") !=
        std::string::npos);
  // Against nominal, the same rate is no flag: nominal is no measured ceiling.
  unsetenv("CUPROBE_CEILINGS_DIR");
  setenv("CUPROBE_CEILINGS_DIR", temp_dir("empty").c_str(), 1);
  const auto nominal = cp::ceilings::for_device(d, "580.159.04");
  auto n = dram_copy(4200);
  cp::place_measurement(n, d, nominal);
  REQUIRE(n.ceiling);
  CHECK(n.ceiling->source == cp::ceiling_source::nominal);
  CHECK(n.ceiling->fraction == doctest::Approx(4.2e12 / d.nominal_dram_bytes_per_s()));
  CHECK(n.flags.empty());
  // A work without a ceiling gets none.
  cp::measurement hops;
  hops.declared = cp::work::op_count(1, "hops");
  hops.rate.ops_per_s = 1e9;
  cp::place_measurement(hops, d, c);
  CHECK_FALSE(hops.ceiling.has_value());
}

TEST_CASE("mixes: DRAM's bound adds the reads' and the writes' times, each at its own ceiling") {
  sandbox box;
  const auto d = card();
  // f = read / all bytes; the bound: 1/C = f/read + (1-f)/write; a pure kind keeps its ceiling.
  write_record(cp::ceilings_path(d.uuid), d,
               R"({"dram.read.tbps": 4.6, "dram.write.tbps": 4.4, "dram.copy.tbps": 4.0})");
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  const auto bound = [](double f) { return 1e12 / (f / 4.6 + (1 - f) / 4.4); };
  struct row {
    double read, written, ceiling;
    const char* key;
  };
  for (const row& r :
       {row{6, 0, 4.6e12, "dram.read.tbps"}, row{5, 1, bound(5.0 / 6), "dram.mix.5:1"},
        row{3, 3, 4.0e12, "dram.copy.tbps"}, row{1, 5, bound(1.0 / 6), "dram.mix.1:5"},
        row{0, 6, 4.4e12, "dram.write.tbps"}}) {
    CAPTURE(r.key);
    auto m = moved(r.read, r.written, 4000);
    cp::place_measurement(m, d, c);
    REQUIRE(m.ceiling);
    CHECK(m.ceiling->key == r.key);
    CHECK(m.ceiling->ceiling_per_s == doctest::Approx(r.ceiling));
    CHECK(m.ceiling->source == cp::ceiling_source::card);
    CHECK(m.flags.empty());
  }
  const auto mix = c.ceiling_of("dram.mix.5:1", 1980);
  REQUIRE(mix);
  CHECK(mix->what == "DRAM mix 5:1");
  CHECK(mix->source_text.rfind("this card's record (", 0) == 0);  // both ends from one record
  CHECK(mix->source_text.find("; 5:1 mix bound: reads then writes, each at its ceiling") !=
        std::string::npos);
}

TEST_CASE("mixes: a 5R1W kernel at the card's rate is never above 1.0 (issue: H100 showed 1.004)") {
  sandbox box;
  const auto d = card();
  // {read, copy, write} TB/s, the 5R1W's measured GB/s: the H100 (read 3.21, copy 3.04, the
  // 5R1W at 3.052: 1.004 of the copy ceiling it was placed against), and a card whose reads
  // outrun its copies by far. Writes no faster than copies is the hardest case for the bound.
  struct row {
    double read, copy, write, gbps, at_most;
  };
  for (const row& r : {row{3.21, 3.04, 3.04, 3052, 0.960}, row{3.21, 3.04, 3.21, 3052, 0.951},
                       row{4.6, 3.0, 3.0, 4200, 0.995}, row{4.6, 3.0, 4.6, 4200, 0.914}}) {
    CAPTURE(r.read);
    CAPTURE(r.write);
    write_record(cp::ceilings_path(d.uuid), d,
                 "{\"dram.read.tbps\": " + std::to_string(r.read) +
                     ", \"dram.copy.tbps\": " + std::to_string(r.copy) +
                     ", \"dram.write.tbps\": " + std::to_string(r.write) + "}");
    const auto c = cp::ceilings::for_device(d, "580.159.04");
    auto m = moved(5e9, 1e9, r.gbps);
    cp::place_measurement(m, d, c);
    REQUIRE(m.ceiling);
    CHECK(m.ceiling->key == "dram.mix.5:1");
    CHECK(m.ceiling->fraction <= 1.0);
    CHECK(m.ceiling->fraction < r.at_most);
    CHECK(m.ceiling->fraction > r.at_most - 0.01);
    CHECK(m.flags.empty());
  }
}

TEST_CASE("mixes: flagged above 1.02 x a bound of this card's own, each end from its best source") {
  sandbox box;
  const auto d = card();
  write_record(cp::ceilings_path(d.uuid), d, R"({"dram.read.tbps": 4.6, "dram.copy.tbps": 4.2})");
  box.reference(d, R"({"dram.write.tbps": 4.4, "l2.read.tbps": 11.12, "l2.copy.tbps": 8.33})");
  auto c = cp::ceilings::for_device(d, "580.159.04");
  // The card lacks the write: it comes from the reference set, which then names the placement
  // (the weaker source), and a rate above the bound is no flag: the bound is not all measured here.
  const double b = 1e12 / (5.0 / 6 / 4.6 + 1.0 / 6 / 4.4);
  auto m = moved(5e9, 1e9, 1.05 * b / 1e9);
  cp::place_measurement(m, d, c);
  REQUIRE(m.ceiling);
  CHECK(m.ceiling->ceiling_per_s == doctest::Approx(b));
  CHECK(m.ceiling->source == cp::ceiling_source::reference);
  CHECK(m.ceiling->source_text.rfind("read: this card's record", 0) == 0);
  CHECK(m.ceiling->source_text.find("; write: the reference set for NVIDIA H200") !=
        std::string::npos);
  CHECK(m.flags.empty());
  // One source only: the card has no write, so no mix from the card alone; nominal has both.
  CHECK_FALSE(c.ceiling_from("dram.mix.5:1", 1980, cp::ceiling_source::card).has_value());
  const auto nom = c.ceiling_from("dram.mix.5:1", 1980, cp::ceiling_source::nominal);
  REQUIRE(nom);
  CHECK(nom->ceiling_per_s == doctest::Approx(d.nominal_dram_bytes_per_s()));  // one number
  // The L2 has no nominal figure: without a write in the record or the reference, no ceiling.
  auto l2 = moved(5e9, 1e9, 9000, cp::data_source::l2);
  cp::place_measurement(l2, d, c);
  CHECK_FALSE(l2.ceiling.has_value());
  // With the card's own write too, the same rate is flagged, naming the mix.
  write_record(cp::ceilings_path(d.uuid), d,
               R"({"dram.read.tbps": 4.6, "dram.copy.tbps": 4.2, "dram.write.tbps": 4.4})");
  c = cp::ceilings::for_device(d, "580.159.04");
  cp::place_measurement(m, d, c);
  REQUIRE(m.ceiling);
  CHECK(m.ceiling->source == cp::ceiling_source::card);
  REQUIRE(m.flags.size() == 1);
  CHECK(m.flags[0].code == cuprobe::flag_code::above_measured_ceiling);
  CHECK(m.flags[0].message.find("1.050 x this card's own measured DRAM mix 5:1 ceiling") !=
        std::string::npos);
  auto under = moved(5e9, 1e9, 1.01 * b / 1e9);  // within the 2 %: no flag
  cp::place_measurement(under, d, c);
  CHECK(under.flags.empty());
}

TEST_CASE("mixes: the L2 serves reads beside writes, so the slower kind alone bounds a mix") {
  sandbox box;
  const auto d = card();
  // The H200's reference L2: read 11.12, write 4.66, copy 8.33 TB/s (a copy faster than one
  // shared path could give, 1 / (0.5/11.12 + 0.5/4.66) = 6.57). C = min(read/f, write/(1-f)).
  box.reference(d, R"({"l2.read.tbps": 11.12, "l2.write.tbps": 4.66, "l2.copy.tbps": 8.33})");
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  const auto write_heavy = c.ceiling_of("l2.mix.1:5", 1980);
  REQUIRE(write_heavy);
  CHECK(write_heavy->ceiling_per_s == doctest::Approx(4.66e12 * 6 / 5));  // the writes bind
  CHECK(write_heavy->source == cp::ceiling_source::reference);
  CHECK(write_heavy->what == "L2 mix 1:5");
  CHECK(write_heavy->source_text.find("1:5 mix bound: reads beside writes") != std::string::npos);
  const auto read_heavy = c.ceiling_of("l2.mix.5:1", 1980);
  REQUIRE(read_heavy);
  CHECK(read_heavy->ceiling_per_s == doctest::Approx(11.12e12 * 6 / 5));  // the reads bind
  auto copy = moved(1e9, 1e9, 8000, cp::data_source::l2);  // 1:1 keeps the copy ceiling
  cp::place_measurement(copy, d, c);
  REQUIRE(copy.ceiling);
  CHECK(copy.ceiling->key == "l2.copy.tbps");
  CHECK(copy.ceiling->ceiling_per_s == doctest::Approx(8.33e12));
}

TEST_CASE("ceilings: a record of another driver, clock or age is used but flagged stale") {
  sandbox box;
  const auto d = card();
  write_record(cp::ceilings_path(d.uuid), d, R"({"dram.copy.tbps": 4.0})", "575.00",
               iso_days_ago(cp::record_max_age_days + 5));
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  REQUIRE(c.card());
  CHECK(c.card_stale().find("recorded with driver 575.00, the card now runs 580.159.04") !=
        std::string::npos);
  CHECK(c.card_stale().find("days ago (more than 90)") != std::string::npos);
  auto m = dram_copy(3800);
  cp::place_measurement(m, d, c);
  REQUIRE(m.ceiling);
  CHECK(m.ceiling->source == cp::ceiling_source::card);  // still used
  REQUIRE(m.flags.size() == 1);
  CHECK(m.flags[0].code == cuprobe::flag_code::ceiling_stale);
  CHECK(m.flags[0].message.find("run device_report --ceilings again") != std::string::npos);
  auto clocked = d;
  clocked.sm_clock_khz = 1755000;
  CHECK(cp::record_staleness(*c.card(), clocked, "575.00", double(std::time(nullptr)))
            .find("maximum SM clock of 1980 MHz, now 1755") != std::string::npos);
}

TEST_CASE("ceilings: a corrupt or foreign record is ignored with one sentence, never a crash") {
  sandbox box;
  const auto d = card();
  box.reference(d, R"({"dram.copy.tbps": 4.2})");
  for (const char* text : {"not json {", "{\"schema\": \"cuprobe.results/2\"}",
                           "{\"schema\": \"cuprobe.ceilings/1\", \"metrics\": 3}", ""}) {
    CAPTURE(text);
    cp::write_text(cp::ceilings_path(d.uuid), text);
    const auto c = cp::ceilings::for_device(d, "580.159.04");
    CHECK_FALSE(c.card().has_value());
    REQUIRE(c.notes().size() == 1);
    CHECK(c.notes()[0].rfind("cuprobe: " + cp::ceilings_path(d.uuid), 0) == 0);
    CHECK(c.notes()[0].find("; ignored") != std::string::npos);
    const auto copy = c.ceiling_of("dram.copy.tbps", 1980);
    REQUIRE(copy);
    CHECK(copy->source == cp::ceiling_source::reference);
  }
  auto other = d;
  other.uuid = "GPU-someone-else";
  write_record(cp::ceilings_path(d.uuid), other, R"({"dram.copy.tbps": 4.0})");
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  CHECK_FALSE(c.card().has_value());
  REQUIRE(c.notes().size() == 1);
  CHECK(c.notes()[0].find("describes another card (GPU-someone-else)") != std::string::npos);
  // A reference set of another model is not used for this one.
  auto a100 = d;
  a100.name = "NVIDIA A100-SXM4-80GB";
  box.reference(a100, R"({"dram.copy.tbps": 1.9})");
  CHECK_FALSE(cp::ceilings::for_device(a100, "").card().has_value());
}

TEST_CASE("write_ceilings_record writes the record's keys only, and it reads back") {
  sandbox box;
  const auto d = card();
  cp::json metrics = cp::json::object();
  metrics["dram.read.tbps"] = 4.6;
  metrics["tensor.bf16.fraction_of_peak"] = 0.999;
  metrics["latency.l2.cycles"] = 280.0;  // not a ceiling: left out
  cp::json clocks = cp::json::object();
  clocks["clock.sm.effective_mhz"] = 1980.0;
  const std::string nested = box.cards + "/a/b";
  setenv("CUPROBE_CEILINGS_DIR", nested.c_str(), 1);  // created on write
  const std::string path =
      cp::write_ceilings_record(d, "580.159.04", metrics, clocks, "abc", iso_days_ago(0));
  CHECK(path == nested + "/" + d.uuid + ".json");
  const auto r = cp::ceilings_record::load(path);
  CHECK(r.uuid == d.uuid);
  CHECK(r.driver == "580.159.04");
  CHECK(r.metric("dram.read.tbps") == doctest::Approx(4.6));
  CHECK_FALSE(r.metric("latency.l2.cycles").has_value());
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  REQUIRE(c.card());
  CHECK(c.card_stale().empty());
}

namespace {
/// What `print(FILE*)` writes, as a string.
template <class Print>
std::string printed(Print&& print) {
  char* buf = nullptr;
  std::size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  print(f);
  std::fclose(f);
  std::string s(buf, len);
  std::free(buf);
  return s;
}
std::string ceilings_text(const cp::results& r) {
  return printed([&](std::FILE* f) { r.print_ceilings(f); });
}
}  // namespace

TEST_CASE("results JSON, CSV and table carry the fraction and its source") {
  sandbox box;
  const auto d = card();
  write_record(cp::ceilings_path(d.uuid), d, R"({"dram.copy.tbps": 4.0})");
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  auto m = dram_copy(3800);
  m.samples = {1.0};
  m.stats = cp::summarize(m.samples);
  cp::place_measurement(m, d, c);
  const cp::json j = cp::to_json(m);
  REQUIRE(j.at("ceiling").is_object());
  CHECK(j.at("ceiling").at("fraction").as_number() == doctest::Approx(0.95));
  CHECK(j.at("ceiling").at("source").as_string() == "card");
  const std::string csv = cp::measurements_csv({m});
  CHECK(csv.find("ceiling_fraction") != std::string::npos);
  CHECK(csv.find(",dram.copy.tbps,0.95,card,") != std::string::npos);
  cp::results r(cp::json::object(), cp::json::object());
  r.add(m);
  const std::string table = printed([&](std::FILE* f) { r.print_table(f); });
  CHECK(table.find("of ceiling") != std::string::npos);
  CHECK(table.find("0.950 card") != std::string::npos);
  CHECK(table.find("of ceiling: this card's record") != std::string::npos);
  // A mix names itself in the JSON (key, what) and under the table (its source and rule).
  write_record(cp::ceilings_path(d.uuid), d, R"({"dram.read.tbps": 4.6, "dram.write.tbps": 4.6})");
  auto mix = moved(5e9, 1e9, 4140);
  mix.samples = {1.0};
  mix.stats = cp::summarize(mix.samples);
  cp::place_measurement(mix, d, cp::ceilings::for_device(d, "580.159.04"));
  const cp::json jm = cp::to_json(mix);
  CHECK(jm.at("ceiling").at("key").as_string() == "dram.mix.5:1");
  CHECK(jm.at("ceiling").at("what").as_string() == "DRAM mix 5:1");
  CHECK(cp::measurements_csv({mix}).find(",dram.mix.5:1,0.9,card,") != std::string::npos);
  r.add(mix);
  const std::string with_mix = printed([&](std::FILE* f) { r.print_table(f); });
  CHECK(with_mix.find("0.900 card") != std::string::npos);
  CHECK(with_mix.find("; 5:1 mix bound: reads then writes, each at its ceiling\n") !=
        std::string::npos);
}

TEST_CASE("results::print_ceilings: the best fraction per ceiling, or one line for none") {
  sandbox box;
  const auto d = card();
  write_record(cp::ceilings_path(d.uuid), d, R"({"dram.copy.tbps": 4.0})");
  const auto c = cp::ceilings::for_device(d, "580.159.04");
  cp::results r(cp::json::object(), cp::json::object());
  CHECK(ceilings_text(r) == "of ceiling: none of these 0 measurements matches a ceiling\n");
  for (double gbps : {3000.0, 3900.0, 3600.0}) {
    auto m = dram_copy(gbps);
    m.name = "copy." + std::to_string(int(gbps));
    m.samples = {1.0};
    m.stats = cp::summarize(m.samples);
    cp::place_measurement(m, d, c);
    r.add(m);
  }
  cp::measurement latency;  // no rate: not placed
  latency.name = "chase";
  r.add(latency);
  const std::string t = ceilings_text(r);
  INFO(t);
  CHECK(t.find("of ceiling (the best measurement per ceiling):\n") == 0);
  CHECK(t.find("dram.copy.tbps") != std::string::npos);
  CHECK(t.find("0.975  copy.3900  (this card's record") != std::string::npos);  // 3.9 / 4.0
  CHECK(t.find("copy.3000") == std::string::npos);
  CHECK(t.find("chase") == std::string::npos);
  CHECK(std::count(t.begin(), t.end(), '\n') == 2);  // the heading and one ceiling
}

TEST_CASE("summary_file::write(cli) writes where --summary says, and nothing without it") {
  struct fake_cli {  // what write(cli) uses of report/cli.cuh's cli
    std::string path;
    bool has(const std::string& o) const { return o == "--summary" && !path.empty(); }
    std::string get(const std::string&) const { return path; }
  };
  char arg0[] = "test";
  char* argv[] = {arg0};
  cp::summary_file s(1, argv, cuprobe_test::h200_like());
  s.set("dram.copy.tbps", 4.25);
  const std::string dir = temp_dir("summary"), path = dir + "/s.json";
  s.write(fake_cli{});  // no --summary: no file
  struct stat st;
  CHECK(stat(path.c_str(), &st) != 0);
  s.write(fake_cli{path});
  const auto text = cp::detail::read_file(path);
  REQUIRE(text);
  CHECK(cp::parse_json(*text).at("metrics").at("dram.copy.tbps").as_number() == 4.25);
}
