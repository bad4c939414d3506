// gpu tier: system memory and the copy engines. The .cv visibility test passes on mapped host
// memory (a re-read sees the host's write made while the kernel polls); on device memory .cv and
// .cg see the same thing (the copy engine's write); registered and mapped host buffers give
// the device a pointer it reads through; a host-mapped chase ends where a host walk does; copies
// H2D, D2H and both at once validate (small sizes); a zero-copy read of 16 MiB is validated and
// stays within the bus's nominal rate (when the bus is known).
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe_suite/system_memory.cuh>

#include <string>

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;

namespace {
void nothing(const std::string&) {}
const ex::visibility_point* find(const std::vector<ex::visibility_point>& v, gen::chase_placement p,
                                 const std::string& op) {
  for (const auto& x : v)
    if (x.placement == p && x.op == op) return &x;
  return nullptr;
}
}  // namespace

CUPROBE_GPU_TEST_CASE("visibility: .cv sees the host's write on mapped host memory") {
  ex::visibility_options o;
  o.watch.timeout_ns = 200'000'000;
  const auto v = ex::visibility_test(o);
  REQUIRE(v.size() == 10);
  for (const auto& p : v) {
    MESSAGE(std::string(gen::to_string(p.placement))
            << " " << p.instruction << ": saw change " << p.seen.saw_change << ", concurrent "
            << p.seen.concurrent << ", " << p.seen.polls << " polls, " << p.seen.elapsed_ns
            << " ns");
    CHECK(p.seen.first == p.before);
  }
  const auto* cv = find(v, gen::chase_placement::host_mapped, "cv");
  REQUIRE(cv);
  if (!cv->seen.concurrent && cuprobe::testing::under_sanitizer()) {
    MESSAGE("under the sanitizer the host did not see the kernel polling: not asserted");
  } else {
    CHECK(cv->seen.concurrent);
    CHECK(cv->seen.saw_change);
    CHECK(cv->seen.last == cv->after);
    CHECK(ex::cv_visible(v));
  }
  // Device memory: the L2 is the point of coherence, .cv and .cg read it alike.
  const auto* dcv = find(v, gen::chase_placement::device, "cv");
  const auto* dcg = find(v, gen::chase_placement::device, "cg");
  REQUIRE(dcv);
  REQUIRE(dcg);
  CHECK(dcv->seen.saw_change == dcg->seen.saw_change);
  if (!cuprobe::testing::under_sanitizer()) {
    CHECK(dcv->seen.saw_change);
    CHECK(dcg->seen.saw_change);
  }
}

CUPROBE_GPU_TEST_CASE("host_buffer: mapped and registered memory read by the device") {
  for (auto k : {cuprobe::host_memory::mapped, cuprobe::host_memory::registered}) {
    cuprobe::host_buffer<std::uint32_t> h(1024, k);
    ex::detail::fill_device_words(h.device_data(), 1024, 9);  // the device writes host memory
    for (std::uint64_t w = 0; w < 1024; ++w) REQUIRE(h[w] == gen::stream_input_word(9, 0, w));
    CHECK(ex::detail::check_host_copy(h.data(), 1024, 9, 1024).ok);
    h[17] ^= 1u;  // the host's change shows on the device
    const auto c = ex::detail::check_host_copy(h.data(), 1024, 9, 1024);
    CHECK(!c.ok);
    CHECK(c.first_bad == 17);
  }
  cuprobe::host_buffer<std::uint32_t> pinned(16, cuprobe::host_memory::pinned);
  CHECK_THROWS_WITH_AS(pinned.device_data(), doctest::Contains("pinned host memory is not mapped"),
                       cuprobe::error);
}

CUPROBE_GPU_TEST_CASE("chase in mapped host memory: ends where a host walk does, slower") {
  const auto dev = cuprobe::device_info::query();
  ex::system_chase_options o;
  o.sizes = {std::size_t(256) << 10};
  o.max_steps = cuprobe::testing::under_sanitizer() ? 256 : 4096;
  o.run = cuprobe::run_options::fixed(0, 2);
  const auto pts = ex::system_chases(dev, o, nothing);  // validates the end nodes itself
  REQUIRE(pts.size() == 4);
  const auto* host_cv = ex::find_point(pts, gen::chase_placement::host_mapped, "cv");
  const auto* dev_cv = ex::find_point(pts, gen::chase_placement::device, "cv");
  REQUIRE(host_cv);
  REQUIRE(dev_cv);
  MESSAGE("cv hop: host " << host_cv->m.seconds() * 1e9 << " ns, device "
                          << dev_cv->m.seconds() * 1e9 << " ns");
  CUPROBE_TIMING_CHECK(host_cv->m.seconds() > dev_cv->m.seconds());
}

CUPROBE_GPU_TEST_CASE("copies validate: H2D, D2H, both at once, pinned and pageable, cudaMemcpy") {
  const auto dev = cuprobe::device_info::query();
  const auto bus = cuprobe::query_host_link(dev);
  ex::copy_options o;
  o.sizes = {4096, std::size_t(1) << 20};
  o.full_check_bytes = 64 << 10;  // the 1 MiB copies take the sampled host check
  o.run = cuprobe::run_options::fixed(1, 3);
  const auto r = ex::copy_bandwidth(dev, bus, o, nothing);  // a failed check throws
  CHECK(r.points.size() == 2 * 3 * 2 + 2 * 2);
  for (const auto& p : r.points) {
    CAPTURE(p.m.name);
    CHECK(p.check.ok);
    CHECK(p.m.gb_per_s() > 0);
    if (p.bytes == (std::size_t(1) << 20) && p.direction != ex::copy_direction::h2d)
      CHECK(p.check.checked < (std::size_t(1) << 18));  // sampled
  }
  MESSAGE("bus: " << bus.name);
}

CUPROBE_GPU_TEST_CASE("zero-copy read: validated, within the bus's nominal rate") {
  const auto dev = cuprobe::device_info::query();
  const auto bus = cuprobe::query_host_link(dev);
  ex::zero_copy_options o;
  o.patterns = {gen::stream_pattern::read, gen::stream_pattern::write};
  o.widths = {16};
  o.ops = {"cv"};
  o.sizes = {cuprobe::testing::under_sanitizer() ? std::size_t(1) << 20 : std::size_t(64) << 20};
  o.run = cuprobe::run_options::fixed(1, 3);
  const auto r = ex::zero_copy_bandwidth(dev, bus, o, nothing);
  REQUIRE(r.points.size() == 2);
  for (const auto& p : r.points) {
    MESSAGE(p.m.name << ": " << p.m.gb_per_s() << " GB/s on " << bus.name);
    CHECK(p.m.params.at("valid").as_bool());
    if (bus.nominal_bytes_per_s) {
      CUPROBE_TIMING_CHECK(p.m.rate.bytes_per_s.value() <= 1.02 * *bus.nominal_bytes_per_s);
      CHECK(p.fraction_of_bus.has_value());
    }
  }
}
