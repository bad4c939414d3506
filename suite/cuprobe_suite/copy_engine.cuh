// cuprobe_suite/copy_engine.cuh: the copy engines between host and device memory:
// cudaMemcpyAsync host->device, device->host and both at once (two streams), from pinned and
// pageable host memory, over a range of sizes, and synchronous cudaMemcpy on the same buffers
// as the peer; each against the host link's nominal rate (measure/bus.cuh). Included by
// cuprobe_suite/system_memory.cuh.
//
//   namespace ex = cuprobe::suite;
//   const auto bus = cuprobe::query_host_link(dev);
//   ex::copy_options o;  o.sizes = {256u << 20};
//   auto r = ex::copy_bandwidth(dev, bus, o, [](const std::string&) {});
//   const auto* p = r.find(ex::copy_direction::h2d, cuprobe::host_memory::pinned, 256u << 20);
//   std::printf("H2D %.1f GB/s, %.0f %% of %s\n", p->m.gb_per_s(), 100 * *p->fraction_of_bus,
//               bus.name.c_str());
//
// Each point: the destination poisoned (0xA5), the copy measured by the runner (event-timed;
// one copy per launch; bidirectional: the H2D copy on the runner's stream and the D2H copy on a
// second stream forked from it and joined back, so the events bracket both), then the
// destination validated against the formula its source was filled from
// (gen::stream_input_word): a device destination word by word on the device, a host
// destination word by word on the host up to full_check_bytes and, above, every 61st word and
// the last (a prime stride, so that every offset within a page is sampled). A mismatch throws.
// Bytes: the bytes that crossed the bus, once (bidirectional: N each way, 2N). The peers run
// cudaMemcpy on the legacy default stream (run_options::stream = cudaStreamLegacy), where the
// events order with it. The above_bus_rate flag compares with the nominal rate of the
// directions used.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/host_buffer.cuh"
#include "cuprobe/gen/stream.cuh"
#include "cuprobe/measure/bus.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/measure/runner.cuh"

namespace cuprobe::suite {

enum class copy_direction { h2d, d2h, bidir };

inline const char* to_string(copy_direction d) {
  return d == copy_direction::h2d ? "h2d" : d == copy_direction::d2h ? "d2h" : "bidir";
}
inline unsigned directions_of(copy_direction d) { return d == copy_direction::bidir ? 2u : 1u; }

/// Sizes from min_bytes to max_bytes, each `factor` times the one before (4 KiB .. 1 GiB in
/// powers of 4 by default).
inline std::vector<std::size_t> copy_sizes(std::size_t min_bytes = std::size_t(4) << 10,
                                           std::size_t max_bytes = std::size_t(1) << 30,
                                           std::size_t factor = 4) {
  require(min_bytes >= 4 && min_bytes <= max_bytes && factor >= 2,
          "copy_sizes: need 4 <= min_bytes <= max_bytes and factor >= 2");
  std::vector<std::size_t> v;
  for (std::size_t b = min_bytes; b <= max_bytes; b *= factor) {
    v.push_back(b);
    if (b > max_bytes / factor) break;
  }
  return v;
}

/// Appends above_bus_rate when the measured rate is above the nominal rate of `directions`
/// directions of `bus`, and records the bus and the fraction in the params; returns the
/// fraction (empty when the rate or the bus is unknown).
inline std::optional<double> flag_bus_rate(measurement& m, const host_link& bus,
                                           unsigned directions) {
  const std::optional<double> nominal = bus.nominal(directions);
  if (auto f = bus_rate_flag(m.rate.bytes_per_s, nominal, bus.name)) m.flags.push_back(*f);
  std::optional<double> fraction;
  if (nominal && m.rate.bytes_per_s) fraction = *m.rate.bytes_per_s / *nominal;
  m.with_param("bus", bus.name)
      .with_param("bus_directions", directions)
      .with_param("bus_nominal_bytes_per_s", nominal)
      .with_param("fraction_of_bus", fraction);
  return fraction;
}

/// What copy_bandwidth measures.
struct copy_options {
  std::vector<std::size_t> sizes = copy_sizes();
  std::vector<copy_direction> directions = {copy_direction::h2d, copy_direction::d2h,
                                            copy_direction::bidir};
  std::vector<host_memory> host_kinds = {host_memory::pinned, host_memory::pageable};
  bool peers = true;  ///< synchronous cudaMemcpy, H2D and D2H, on the pinned buffers
  std::size_t full_check_bytes = std::size_t(64) << 20;  ///< host checks: every word up to this
  std::uint64_t seed = 1;
  run_options run = run_options::fixed(2, 10);

  void validate() const {
    const std::string w = "copy_bandwidth: ";
    require(!sizes.empty(), w + "sizes must not be empty");
    for (std::size_t s : sizes)
      require(
          s >= 4 && s % 4 == 0 && s <= (std::size_t(1) << 36),
          w + "a size of " + std::to_string(s) + " bytes is not a multiple of 4 in 4 B .. 64 GiB");
    require(!directions.empty(), w + "directions must not be empty");
    require(!host_kinds.empty(), w + "host_kinds must not be empty");
    for (host_memory k : host_kinds)
      require(k == host_memory::pinned || k == host_memory::pageable,
              w + "host_kinds takes pinned and pageable, got " + to_string(k));
    require(full_check_bytes >= 4, w + "full_check_bytes must be at least 4");
    require(!run.graph, w + "run.graph must be false (pageable copies cannot be captured)");
    require(run.mode == loop_mode::launches, w + "run.mode must be launches (one copy a launch)");
    validate_options(run, "copy_bandwidth");
  }
};

/// One measured copy.
struct copy_point {
  copy_direction direction = copy_direction::h2d;
  host_memory host = host_memory::pinned;
  std::size_t bytes = 0;  ///< per direction
  bool peer = false;      ///< synchronous cudaMemcpy
  measurement m;
  gen::stream_check check;  ///< of the last copy (bidirectional: the D2H half; both must pass)
  std::optional<double> fraction_of_bus;
};

struct copy_result {
  host_link bus;
  std::vector<copy_point> points;
  const copy_point* find(copy_direction d, host_memory h, std::size_t bytes,
                         bool peer = false) const {
    for (const auto& p : points)
      if (p.direction == d && p.host == h && p.bytes == bytes && p.peer == peer) return &p;
    return nullptr;
  }
};

namespace detail {

/// Host check of `words` words at `p` against stream_input_word(seed, 0, w): every word up to
/// full_words, then every 61st word and the last.
inline gen::stream_check check_host_copy(const std::uint32_t* p, std::uint64_t words,
                                         std::uint64_t seed, std::uint64_t full_words) {
  const std::uint64_t step = words <= full_words ? 1 : 61;
  std::uint64_t bad = 0, first = 0, checked = 0;
  std::uint32_t expected = 0, found = 0;
  const auto one = [&](std::uint64_t w) {
    ++checked;
    const std::uint32_t e = gen::stream_input_word(seed, 0, w);
    if (p[w] != e && bad++ == 0) first = w, expected = e, found = p[w];
  };
  for (std::uint64_t w = 0; w < words; w += step) one(w);
  if (step > 1 && (words - 1) % step != 0) one(words - 1);
  return gen::detail::make_word_check(gen::stream_pattern::copy, checked, bad, first, expected,
                                      found);
}

/// Device check of `words` words at `p` (device memory) against the copy pattern's formula.
inline gen::stream_check check_device_copy(const std::uint32_t* p, std::uint64_t words,
                                           std::uint64_t seed) {
  device_buffer<unsigned long long> r(2);
  CUPROBE_CHECK(cudaMemset(r.data(), 0, 8));
  CUPROBE_CHECK(cudaMemset(r.data() + 1, 0xFF, 8));
  const gen::detail::check_spec spec{gen::stream_pattern::copy, seed, 1, 0};
  gen::detail::count_mismatches_kernel<>
      <<<gen::detail::check_grid(words), 256>>>(p, words, spec, r.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::gen::detail::count_mismatches_kernel");
  const auto h = r.to_host();
  std::uint32_t found = 0, expected = 0;
  if (h[0]) {
    CUPROBE_CHECK(cudaMemcpy(&found, p + h[1], 4, cudaMemcpyDeviceToHost));
    expected = gen::stream_input_word(seed, 0, h[1]);
  }
  return gen::detail::make_word_check(gen::stream_pattern::copy, words, h[0], h[1], expected,
                                      found);
}

/// Fills `words` words at `p` (host) with stream_input_word(seed, 0, w).
inline void fill_host_words(std::uint32_t* p, std::uint64_t words, std::uint64_t seed) {
  for (std::uint64_t w = 0; w < words; ++w) p[w] = gen::stream_input_word(seed, 0, w);
}

/// The same on the device (`p` device memory or mapped host memory), synchronous.
inline void fill_device_words(std::uint32_t* p, std::uint64_t words, std::uint64_t seed) {
  gen::detail::fill_input_kernel<><<<gen::detail::check_grid(words), 256>>>(p, words, seed, 0);
  CUPROBE_CHECK_LAUNCH("cuprobe::gen::detail::fill_input_kernel");
  cuprobe::synchronize_device("suite::fill_device_words");
}

}  // namespace detail

/// Measures every size x direction x host kind of `o` (and the peers), validated; see the file
/// comment. `progress(label)` is called before each point.
template <class Progress>
copy_result copy_bandwidth(const device_info& dev, const host_link& bus, const copy_options& o,
                           Progress&& progress) {
  o.validate();
  copy_result res;
  res.bus = bus;
  const std::size_t max = *std::max_element(o.sizes.begin(), o.sizes.end());
  const std::uint64_t max_words = max / 4;
  std::size_t free_b = 0, total_b = 0;
  CUPROBE_CHECK(cudaMemGetInfo(&free_b, &total_b));
  require(2 * max + (std::size_t(256) << 20) <= free_b,
          "copy_bandwidth: two device buffers of " + fmt_bytes(double(max)) +
              " do not fit in the " + fmt_bytes(double(free_b)) + " free on " + dev.name +
              "; lower the largest size");
  device_buffer<std::uint32_t> d_src(max_words), d_dst(max_words);
  detail::fill_device_words(d_src.data(), max_words, o.seed);
  cuda_stream second;
  cudaEvent_t fork = nullptr, join = nullptr;
  CUPROBE_CHECK(cudaEventCreateWithFlags(&fork, cudaEventDisableTiming));
  CUPROBE_CHECK(cudaEventCreateWithFlags(&join, cudaEventDisableTiming));
  struct events {
    cudaEvent_t a, b;
    ~events() { cudaEventDestroy(a), cudaEventDestroy(b); }
  } owned{fork, join};
  const std::uint64_t full_words = o.full_check_bytes / 4;
  for (host_memory kind : o.host_kinds) {
    host_buffer<std::uint32_t> h_src(max_words, kind), h_dst(max_words, kind);
    detail::fill_host_words(h_src.data(), max_words, o.seed);
    const auto point = [&](copy_direction dir, std::size_t n, bool peer) {
      const std::uint64_t words = n / 4;
      progress(std::string(peer ? "cudaMemcpy " : "cudaMemcpyAsync ") + to_string(dir) + " " +
               to_string(kind) + " " + fmt_bytes(double(n)));
      const bool to_device = dir != copy_direction::d2h, to_host = dir != copy_direction::h2d;
      if (to_device) {  // the legacy stream: finished before the runner's stream copies
        CUPROBE_CHECK(cudaMemset(d_dst.data(), poison_byte, n));
        cuprobe::synchronize_device("suite::copy_bandwidth");
      }
      if (to_host) std::memset(h_dst.data(), poison_byte, n);
      run_options ro = o.run;
      if (peer) ro.stream = cudaStreamLegacy;
      const std::string name = std::string(peer ? "memcpy." : "copy.") + to_string(dir);
      const std::string acc =
          dir == copy_direction::bidir
              ? "2N: N bytes host->device and N device->host at once, each crossing the bus once"
              : std::string("N bytes ") +
                    (dir == copy_direction::h2d ? "host->device" : "device->host") +
                    ", crossing the bus once";
      copy_point p;
      p.direction = dir;
      p.host = kind;
      p.bytes = n;
      p.peer = peer;
      p.m = measure(
          name,
          [&](cudaStream_t s) {
            if (peer) {
              if (dir == copy_direction::h2d)
                CUPROBE_CHECK(cudaMemcpy(d_dst.data(), h_src.data(), n, cudaMemcpyHostToDevice));
              else
                CUPROBE_CHECK(cudaMemcpy(h_dst.data(), d_src.data(), n, cudaMemcpyDeviceToHost));
              return;
            }
            if (dir == copy_direction::bidir) {
              CUPROBE_CHECK(cudaEventRecord(fork, s));
              CUPROBE_CHECK(cudaStreamWaitEvent(second, fork, 0));
            }
            if (to_device)
              CUPROBE_CHECK(
                  cudaMemcpyAsync(d_dst.data(), h_src.data(), n, cudaMemcpyHostToDevice, s));
            if (to_host)
              CUPROBE_CHECK(cudaMemcpyAsync(h_dst.data(), d_src.data(), n, cudaMemcpyDeviceToHost,
                                            dir == copy_direction::bidir ? second.get() : s));
            if (dir == copy_direction::bidir) {
              CUPROBE_CHECK(cudaEventRecord(join, second));
              CUPROBE_CHECK(cudaStreamWaitEvent(s, join, 0));
            }
          },
          work::bytes_moved(double(n) * directions_of(dir), 0, acc), ro);
      cuprobe::synchronize_device("suite::copy_bandwidth");
      if (to_device) {
        p.check = detail::check_device_copy(d_dst.data(), words, o.seed);
        p.check.require();
      }
      if (to_host) {
        p.check = detail::check_host_copy(h_dst.data(), words, o.seed, full_words);
        p.check.require();
      }
      p.fraction_of_bus = flag_bus_rate(p.m, bus, directions_of(dir));
      p.m.with_param("direction", to_string(dir))
          .with_param("host_memory", to_string(kind))
          .with_param("bytes", double(n))
          .with_param("call", peer ? "cudaMemcpy" : "cudaMemcpyAsync")
          .with_param("us_per_copy", p.m.rate.seconds ? json(*p.m.rate.seconds * 1e6) : json())
          .with_param("check", p.check.message)
          .with_param("words_checked", double(p.check.checked))
          .with_param("valid", p.check.ok);
      res.points.push_back(std::move(p));
    };
    for (copy_direction dir : o.directions)
      for (std::size_t n : o.sizes) point(dir, n, false);
    if (o.peers && kind == host_memory::pinned)
      for (copy_direction dir : {copy_direction::h2d, copy_direction::d2h})
        for (std::size_t n : o.sizes) point(dir, n, true);
  }
  return res;
}

}  // namespace cuprobe::suite
