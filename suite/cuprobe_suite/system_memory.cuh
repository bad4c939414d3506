// cuprobe_suite/system_memory.cuh: GPU threads on system (host) memory: zero-copy
// bandwidth against working set, access width and cache operator; repeated reads and pointer
// chases with ld.global.cg against ld.global.cv on mapped host memory and on device memory;
// and the visibility test (does a re-read see what the host changed?). The copy engines are
// cuprobe_suite/copy_engine.cuh, included here. examples/system_memory calls all of them.
//
//   namespace ex = cuprobe::suite;
//   const auto dev = cuprobe::device_info::query();
//   const auto bus = cuprobe::query_host_link(dev);
//   auto vis = ex::visibility_test({});                        // .cv must see the host's write
//   auto zc = ex::zero_copy_bandwidth(dev, bus, {}, [](const std::string&) {});
//   std::printf("cv sees the host: %d; zero-copy read %.1f GB/s\n", ex::cv_visible(vis) ? 1 : 0,
//               zc.best_read_gbps().value_or(0));
//
// Zero-copy: the stream kernels (gen/stream.cuh, persistent grid, one pass per launch) read or
// write an array of mapped host memory (host_buffer, host_memory::mapped) through its device
// pointer: the read pattern with each load operator, the write pattern with each operator's
// paired store (none: st, ca: st.wb, cg: st.cg, cs: st.cs, cv: st.wt). Validated as the DRAM
// experiments are: the read sinks' sum against the formula's, every written word on the device.
// Repeated reads: the read pattern, `passes` passes in one launch over `bytes` (default L2 / 8)
// of mapped host memory and of device memory. Chases: gen::chase_ring in mapped host memory
// (chase_placement::host_mapped) and in device memory, at L2 / 16 (warmed: what a cache keeps)
// and 4 x L2 (cold, L2 flushed before each sample). Sizes derive from the device's L2.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/host_buffer.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/gen/stream.cuh"
#include "cuprobe/measure/bus.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe_suite/copy_engine.cuh"
#include "cuprobe_suite/kernels/host_memory.cuh"
#include "cuprobe_suite/latency.cuh"

namespace cuprobe::suite {

/// The load operators of these experiments, by name: none (ld.global), ca, cg, cs, cv.
inline const std::vector<std::string>& system_memory_ops() {
  static const std::vector<std::string> v = {"none", "ca", "cg", "cs", "cv"};
  return v;
}

/// Calls f(tag) with the cache tag named `op` (system_memory_ops()); a sentence otherwise.
template <class F>
void with_load_op(const std::string& op, const std::string& who, F&& f) {
  namespace c = ptx::cache;
  if (op == "none")
    f(c::none{});
  else if (op == "ca")
    f(c::ca{});
  else if (op == "cg")
    f(c::cg{});
  else if (op == "cs")
    f(c::cs{});
  else if (op == "cv")
    f(c::cv{});
  else
    throw error("cuprobe: " + who + ": unknown load operator '" + op +
                "'; these experiments take none, ca, cg, cs and cv");
}

/// The stream kernels zero-copy uses: 4, 8, 16-byte elements x the five operators x read and
/// write x both loop modes (60 kernels, instantiated where this header is included).
inline const gen::stream_kernel_set& zero_copy_kernels() {
  namespace c = ptx::cache;
  static const gen::stream_table<
      gen::type_list<std::uint32_t, uint2, uint4>,
      gen::type_list<c::none, c::ca, c::cg, c::cs, c::cv>,
      gen::pattern_list<gen::stream_pattern::read, gen::stream_pattern::write>, gen::all_modes>
      t;
  return t;
}

namespace detail {
inline void require_listed_ops(const std::vector<std::string>& ops, const std::string& who) {
  require(!ops.empty(), who + ": ops must not be empty");
  for (const auto& op : ops) with_load_op(op, who, [](auto) {});
}

/// The stream kernel of (pattern, width, op, mode).
inline const gen::stream_kernel& zero_copy_kernel(gen::stream_pattern p, std::size_t width,
                                                  const std::string& op, loop_mode mode) {
  for (const auto& k : zero_copy_kernels().kernels())
    if (k.pattern == p && k.element_bytes == width && op == k.load_op && k.mode == mode) return k;
  throw error("cuprobe: zero-copy: no kernel for " + std::string(gen::to_string(p)) + " " +
              std::to_string(width) + " B " + op);
}

/// One validated stream measurement over `elements` elements at `in` (read) or `out` (write):
/// `passes` passes (in_kernel when > 1). Throws when the check fails.
inline measurement zero_copy_measure(const std::string& name, const gen::stream_kernel& k,
                                     const launch_shape& shape, const void* in, void* out,
                                     std::uint64_t elements, std::uint32_t passes,
                                     std::uint64_t seed, run_options o, const std::string& acc,
                                     gen::stream_check& check) {
  const std::uint64_t words = elements * (k.element_bytes / 4);
  const bool read = k.pattern == gen::stream_pattern::read;
  device_buffer<std::uint32_t> sink(read ? shape.threads() : 0);
  sink.poison();
  gen::stream_args a;
  a.in[0] = in;
  a.out = out;
  a.sink = sink.data();
  a.elements = elements;
  a.passes = passes;
  o.mode = k.mode;
  o.iterations = k.mode == loop_mode::in_kernel ? passes : 1;
  const double bytes = double(words) * 4;
  measurement m = measure(
      name, [&](cudaStream_t s) { k.launch(shape, a, s); },
      work::bytes_moved(read ? bytes : 0, read ? 0 : bytes, acc), o);
  cuprobe::synchronize_device("suite::system_memory (a zero-copy read)");
  if (read) {
    const std::uint32_t expected =
        gen::detail::device_sum(nullptr, words, seed) * static_cast<std::uint32_t>(o.iterations);
    check = gen::detail::make_sum_check(
        expected, gen::detail::device_sum(sink.data(), shape.threads(), 0), shape.threads());
  } else {
    device_buffer<unsigned long long> r(2);
    CUPROBE_CHECK(cudaMemset(r.data(), 0, 8));
    CUPROBE_CHECK(cudaMemset(r.data() + 1, 0xFF, 8));
    const gen::detail::check_spec spec{gen::stream_pattern::write, 0, 0,
                                       static_cast<std::uint32_t>(o.iterations - 1)};
    const auto* w = static_cast<const std::uint32_t*>(out);
    gen::detail::count_mismatches_kernel<>
        <<<gen::detail::check_grid(words), 256>>>(w, words, spec, r.data());
    CUPROBE_CHECK_LAUNCH("cuprobe::gen::detail::count_mismatches_kernel");
    const auto h = r.to_host();
    std::uint32_t found = 0, expected = 0;
    if (h[0]) {
      CUPROBE_CHECK(cudaMemcpy(&found, w + h[1], 4, cudaMemcpyDefault));
      expected = gen::stream_written_word(h[1], spec.pass);
    }
    check = gen::detail::make_word_check(gen::stream_pattern::write, words, h[0], h[1], expected,
                                         found);
  }
  check.require();
  m.with_launch(shape)
      .with_kernel(kernel_attributes::of(k.kernel, int(shape.block.x)))
      .with_param("pattern", gen::to_string(k.pattern))
      .with_param("element_bytes", k.element_bytes)
      .with_param("op", k.load_op)
      .with_param("instruction", read ? k.load_ptx : k.store_ptx)
      .with_param("passes_per_launch", o.iterations)
      .with_param("array_bytes", bytes)
      .with_param("check", check.message)
      .with_param("valid", check.ok);
  return m;
}
}  // namespace detail

// ------------------------------------------------------------------------------------------
// Zero-copy bandwidth.

/// What zero_copy_bandwidth measures: every pattern x width x op x working set.
struct zero_copy_options {
  std::vector<gen::stream_pattern> patterns = {gen::stream_pattern::read,
                                               gen::stream_pattern::write};
  std::vector<std::size_t> widths = {4, 8, 16};  ///< bytes per access
  std::vector<std::string> ops = system_memory_ops();
  /// Working sets (bytes of mapped host memory): 1 MiB .. 1 GiB in powers of 4.
  std::vector<std::size_t> sizes = copy_sizes(std::size_t(1) << 20, std::size_t(1) << 30);
  int blocks_per_sm = 4, threads = 256;  ///< the persistent grid
  std::uint64_t seed = 3;
  run_options run = run_options::fixed(1, 5);

  void validate() const {
    const std::string w = "zero_copy_bandwidth";
    require(!patterns.empty(), w + ": patterns must not be empty");
    for (auto p : patterns)
      require(p == gen::stream_pattern::read || p == gen::stream_pattern::write,
              w + ": patterns take read and write, got " + gen::to_string(p));
    require(!widths.empty(), w + ": widths must not be empty");
    for (std::size_t x : widths)
      require(x == 4 || x == 8 || x == 16,
              w + ": widths are 4, 8 or 16 bytes, got " + std::to_string(x));
    detail::require_listed_ops(ops, w);
    require(!sizes.empty(), w + ": sizes must not be empty");
    for (std::size_t s : sizes)
      require(s >= 4096 && s % 16 == 0 && s <= (std::size_t(1) << 36),
              w + ": a working set of " + std::to_string(s) +
                  " bytes is not a multiple of 16 in 4 KiB .. 64 GiB");
    require(blocks_per_sm >= 1 && blocks_per_sm <= 32 && threads >= 32 && threads <= 1024,
            w + ": the grid of " + std::to_string(blocks_per_sm) + " x " + std::to_string(threads) +
                " is outside 1..32 blocks per SM x 32..1024 threads");
    require(run.mode == loop_mode::launches, w + ": run.mode must be launches (one pass a launch)");
    validate_options(run, w);
  }
};

struct zero_copy_point {
  gen::stream_pattern pattern = gen::stream_pattern::read;
  std::size_t width = 0, bytes = 0;
  std::string op;
  measurement m;
  std::optional<double> fraction_of_bus;
};

struct zero_copy_result {
  std::vector<zero_copy_point> points;
  std::size_t largest = 0;  ///< the largest working set measured
  /// The best rate of `pattern` at the largest working set (where no cache holds the array).
  std::optional<double> best_gbps(gen::stream_pattern pattern) const {
    std::optional<double> best;
    for (const auto& p : points)
      if (p.pattern == pattern && p.bytes == largest)
        best = std::max(best.value_or(0), p.m.gb_per_s());
    return best;
  }
  std::optional<double> best_read_gbps() const { return best_gbps(gen::stream_pattern::read); }
};

template <class Progress>
zero_copy_result zero_copy_bandwidth(const device_info& dev, const host_link& bus,
                                     const zero_copy_options& o, Progress&& progress) {
  o.validate();
  zero_copy_result res;
  res.largest = *std::max_element(o.sizes.begin(), o.sizes.end());
  const bool reads = std::count(o.patterns.begin(), o.patterns.end(), gen::stream_pattern::read);
  const bool writes = std::count(o.patterns.begin(), o.patterns.end(), gen::stream_pattern::write);
  host_buffer<std::uint32_t> in(reads ? res.largest / 4 : 0, host_memory::mapped);
  host_buffer<std::uint32_t> out(writes ? res.largest / 4 : 0, host_memory::mapped);
  if (reads) detail::fill_device_words(in.device_data(), res.largest / 4, o.seed);
  const launch_shape shape = gen::stream_shape(o.blocks_per_sm, o.threads, dev.sm_count);
  for (auto pattern : o.patterns)
    for (std::size_t width : o.widths)
      for (const auto& op : o.ops)
        for (std::size_t bytes : o.sizes) {
          const auto& k = detail::zero_copy_kernel(pattern, width, op, loop_mode::launches);
          const bool read = pattern == gen::stream_pattern::read;
          progress(std::string("zero-copy ") + k.name() + " " + fmt_bytes(double(bytes)));
          if (!read) std::memset(out.data(), poison_byte, bytes);  // what this point writes
          zero_copy_point p;
          p.pattern = pattern;
          p.width = width;
          p.bytes = bytes;
          p.op = op;
          gen::stream_check c;
          p.m = detail::zero_copy_measure(
              std::string("zerocopy.") + gen::to_string(pattern), k, shape,
              read ? in.device_data() : nullptr, read ? nullptr : out.device_data(), bytes / width,
              1, o.seed, o.run,
              std::string("zero-copy ") +
                  (read ? "read: N bytes of mapped host memory loaded"
                        : "write: N bytes of mapped host memory stored") +
                  " by GPU threads, crossing the bus once",
              c);
          p.fraction_of_bus = flag_bus_rate(p.m, bus, 1);
          p.m.with_param("memory", "host_mapped").with_param("working_set_bytes", double(bytes));
          res.points.push_back(std::move(p));
        }
  return res;
}

// ------------------------------------------------------------------------------------------
// Repeated reads and chases: .cg against .cv, host against device memory.

/// A measurement on one placement (mapped host memory or device memory) with one operator.
struct placed_point {
  gen::chase_placement placement = gen::chase_placement::host_mapped;
  std::string op;
  std::size_t bytes = 0;
  measurement m;
  std::optional<double> fraction_of_bus;  ///< host memory only
};

inline const placed_point* find_point(const std::vector<placed_point>& v, gen::chase_placement pl,
                                      const std::string& op, std::size_t bytes = 0) {
  for (const auto& p : v)
    if (p.placement == pl && p.op == op && (bytes == 0 || p.bytes == bytes)) return &p;
  return nullptr;
}

namespace detail {
inline void require_placements(const std::vector<gen::chase_placement>& v, const std::string& w) {
  require(!v.empty(), w + ": placements must not be empty");
}
}  // namespace detail

/// What repeated_reads measures: `passes` passes of 16-byte loads over `bytes` in one launch,
/// with each operator, on each placement.
struct repeated_read_options {
  std::optional<std::size_t> bytes;  ///< default L2 / 8: a set the L2 could keep
  std::uint32_t passes = 8;
  std::vector<std::string> ops = {"cg", "cv"};
  std::vector<gen::chase_placement> placements = {gen::chase_placement::host_mapped,
                                                  gen::chase_placement::device};
  int blocks_per_sm = 4, threads = 256;
  std::uint64_t seed = 5;
  run_options run = run_options::fixed(1, 5);

  void validate() const {
    const std::string w = "repeated_reads";
    require(!bytes || (*bytes >= 4096 && *bytes % 16 == 0 && *bytes <= (std::size_t(1) << 34)),
            w + ": bytes must be a multiple of 16 in 4 KiB .. 16 GiB");
    require(passes >= 2 && passes <= 4096,
            w + ": passes is " + std::to_string(passes) + "; a repeated read needs 2 .. 4096");
    detail::require_listed_ops(ops, w);
    detail::require_placements(placements, w);
    require(blocks_per_sm >= 1 && blocks_per_sm <= 32 && threads >= 32 && threads <= 1024,
            w + ": the grid is outside 1..32 blocks per SM x 32..1024 threads");
    validate_options(run, w);
  }
};

/// Bytes of a repeated read: the option, else L2 / 8 rounded down to 16 bytes.
inline std::size_t repeated_read_bytes(const device_info& dev, const repeated_read_options& o) {
  require(o.bytes || dev.l2_bytes > 0, "repeated_reads: the device reports no L2 size");
  return o.bytes.value_or(std::max<std::size_t>(dev.l2_bytes / 8 / 16 * 16, 4096));
}

template <class Progress>
std::vector<placed_point> repeated_reads(const device_info& dev, const host_link& bus,
                                         const repeated_read_options& o, Progress&& progress) {
  o.validate();
  const std::size_t bytes = repeated_read_bytes(dev, o);
  const launch_shape shape = gen::stream_shape(o.blocks_per_sm, o.threads, dev.sm_count);
  std::vector<placed_point> out;
  for (auto pl : o.placements) {
    const bool host = pl == gen::chase_placement::host_mapped;
    host_buffer<std::uint32_t> h(host ? bytes / 4 : 0, host_memory::mapped);
    device_buffer<std::uint32_t> d(host ? 0 : bytes / 4);
    std::uint32_t* p = host ? h.device_data() : d.data();
    detail::fill_device_words(p, bytes / 4, o.seed);
    for (const auto& op : o.ops) {
      const auto& k =
          detail::zero_copy_kernel(gen::stream_pattern::read, 16, op, loop_mode::in_kernel);
      progress("repeated read " + op + " on " + gen::to_string(pl) + " memory, " +
               fmt_bytes(double(bytes)) + " x " + std::to_string(o.passes));
      placed_point r;
      r.placement = pl;
      r.op = op;
      r.bytes = bytes;
      gen::stream_check c;
      r.m = detail::zero_copy_measure(
          "repeated_read." + op, k, shape, p, nullptr, bytes / 16, o.passes, o.seed, o.run,
          "repeated read: N bytes of " + std::string(gen::to_string(pl)) +
              " memory loaded per pass, passes in one launch",
          c);
      if (host) r.fraction_of_bus = flag_bus_rate(r.m, bus, 1);
      r.m.with_param("memory", gen::to_string(pl));
      out.push_back(std::move(r));
    }
  }
  return out;
}

/// What system_chases measures: one thread chasing a ring (128-byte stride) of each size in
/// each placement with each operator.
struct system_chase_options {
  std::vector<std::size_t> sizes;  ///< default {L2 / 16 (warmed), 4 x L2 (cold)}
  std::vector<std::string> ops = {"cg", "cv"};
  std::vector<gen::chase_placement> placements = {gen::chase_placement::host_mapped,
                                                  gen::chase_placement::device};
  std::uint64_t max_steps = 1u << 15;  ///< timed hops per chase (about 50 ms at 1.5 us a hop)
  run_options run = run_options::fixed(0, 3);

  void validate() const {
    const std::string w = "system_chases";
    for (std::size_t s : sizes)
      require(s >= 4096 && s <= (std::size_t(1) << 34),
              w + ": a ring of " + std::to_string(s) + " bytes is outside 4 KiB .. 16 GiB");
    detail::require_listed_ops(ops, w);
    detail::require_placements(placements, w);
    require(max_steps >= 16 && max_steps <= (1ull << 24),
            w + ": max_steps is " + std::to_string(max_steps) + "; it must be 16 .. 2^24");
    require(run.batch == 1 && !run.graph, w + ": leave run.batch = 1 and run.graph = false");
    validate_options(run, w);
  }
};

inline std::vector<std::size_t> system_chase_sizes(const device_info& dev,
                                                   const system_chase_options& o) {
  if (!o.sizes.empty()) return o.sizes;
  require(dev.l2_bytes > 0, "system_chases: the device reports no L2 size");
  return {std::max<std::size_t>(dev.l2_bytes / 16, 4096), 4 * dev.l2_bytes};
}

template <class Progress>
std::vector<placed_point> system_chases(const device_info& dev, const system_chase_options& o,
                                        Progress&& progress) {
  o.validate();
  std::vector<placed_point> out;
  for (std::size_t bytes : system_chase_sizes(dev, o))
    for (auto pl : o.placements) {
      gen::chase_ring ring(bytes, 128, 1, 1, gen::chase_fill::links_only, pl);
      const std::vector<std::uint32_t> next = gen::chase_successors(ring.nodes(), 1, 1);
      for (const auto& op : o.ops) {
        progress("chase " + op + " in " + gen::to_string(pl) + " memory, " +
                 fmt_bytes(double(ring.bytes())));
        chase_latency_options co;
        co.chase.max_steps = o.max_steps;
        co.chase.min_steps = std::min<std::uint64_t>(co.chase.min_steps, o.max_steps);
        co.run = o.run;
        co.run.flush_l2 = ring.bytes() > dev.l2_bytes;  // cold rings: nothing left from before
        co.name = "chase." + op;
        co.load = std::string("ld.global") + (op == "none" ? "" : "." + op);
        placed_point r;
        r.placement = pl;
        r.op = op;
        r.bytes = ring.bytes();
        gen::chase_result last;
        with_load_op(op, "system_chases", [&](auto tag) {
          r.m = chase_latency(ring, co, gen::chase_load<decltype(tag)>{}, &last);
        });
        std::uint64_t node = 0;  // the host walk: where warm-up + timed hops must end
        for (std::uint64_t i = 0; i < last.warmup_steps + last.steps; ++i) node = next[node];
        require(last.last_nodes.size() == 1 && last.last_nodes[0] == node,
                "system_chases: the chase in " + std::string(gen::to_string(pl)) +
                    " memory ended on node " +
                    std::to_string(last.last_nodes.empty() ? 0 : last.last_nodes[0]) +
                    "; a host walk of the ring reaches node " + std::to_string(node));
        r.m.with_param("memory", gen::to_string(pl)).with_param("end_node_valid", true);
        out.push_back(std::move(r));
      }
    }
  return out;
}

// ------------------------------------------------------------------------------------------
// Visibility.

/// What visibility_test runs: kernels::watch_word with each operator, on each placement.
struct visibility_options {
  std::vector<std::string> ops = system_memory_ops();
  std::vector<gen::chase_placement> placements = {gen::chase_placement::host_mapped,
                                                  gen::chase_placement::device};
  kernels::watch_options watch;

  void validate() const {
    detail::require_listed_ops(ops, "visibility_test");
    detail::require_placements(placements, "visibility_test");
    watch.validate("visibility_test");
  }
};

struct visibility_point {
  gen::chase_placement placement = gen::chase_placement::host_mapped;
  std::string op;
  std::string instruction;              ///< "ld.global.cv"
  std::uint32_t before = 0, after = 0;  ///< the word's value before and after the change
  kernels::watch_result seen;
};

/// The word starts at `before`; while the kernel polls, the host changes it to `after`: on
/// mapped host memory by a store through its host pointer, on device memory by a 4-byte
/// cudaMemcpyAsync from pinned memory on another stream (a copy engine's write, as another
/// agent's would be). Each point records what the re-reads saw.
inline std::vector<visibility_point> visibility_test(const visibility_options& o) {
  o.validate();
  std::vector<visibility_point> out;
  host_buffer<std::uint32_t> staging(1, host_memory::pinned);
  cuda_stream writer;
  std::uint32_t salt = 0;
  for (auto pl : o.placements)
    for (const auto& op : o.ops) {
      visibility_point v;
      v.placement = pl;
      v.op = op;
      v.before = 0x1000u + salt;
      v.after = 0x2000u + salt++;
      const bool host = pl == gen::chase_placement::host_mapped;
      host_buffer<std::uint32_t> h(host ? 1 : 0, host_memory::mapped);
      device_buffer<std::uint32_t> d(host ? 0 : 1);
      if (host) {
        h[0] = v.before;
      } else {
        staging[0] = v.before;
        CUPROBE_CHECK(cudaMemcpy(d.data(), staging.data(), 4, cudaMemcpyHostToDevice));
      }
      const auto change = [&] {
        if (host) {
          *static_cast<volatile std::uint32_t*>(h.data()) = v.after;
          std::atomic_thread_fence(std::memory_order_seq_cst);
        } else {
          staging[0] = v.after;
          CUPROBE_CHECK(
              cudaMemcpyAsync(d.data(), staging.data(), 4, cudaMemcpyHostToDevice, writer));
          writer.synchronize();
        }
      };
      with_load_op(op, "visibility_test", [&](auto tag) {
        using Op = decltype(tag);
        v.instruction = ptx::load_instruction<Op>;
        v.seen = kernels::watch_word<Op>(host ? h.device_data() : d.data(), change, o.watch);
      });
      require(v.seen.first == v.before, "visibility_test: the first " + v.instruction + " read " +
                                            std::to_string(v.seen.first) + ", not the initial " +
                                            std::to_string(v.before));
      require(!v.seen.saw_change || v.seen.last == v.after,
              "visibility_test: " + v.instruction + " saw " + std::to_string(v.seen.last) +
                  ", neither the old nor the new value");
      out.push_back(v);
    }
  return out;
}

/// The .cv test passed: on mapped host memory, with the change made while the kernel polled,
/// ld.global.cv saw it. False when that point was not run.
inline bool cv_visible(const std::vector<visibility_point>& v) {
  for (const auto& p : v)
    if (p.placement == gen::chase_placement::host_mapped && p.op == "cv")
      return p.seen.concurrent && p.seen.saw_change;
  return false;
}

inline json to_json(const visibility_point& p) {
  json j = json::object();
  j["memory"] = gen::to_string(p.placement);
  j["op"] = p.op;
  j["instruction"] = p.instruction;
  j["before"] = p.before;
  j["after"] = p.after;
  j["first_read"] = p.seen.first;
  j["last_read"] = p.seen.last;
  j["saw_change"] = p.seen.saw_change;
  j["concurrent"] = p.seen.concurrent;
  j["timed_out"] = p.seen.timed_out;
  j["polls"] = double(p.seen.polls);
  j["elapsed_ns"] = p.seen.elapsed_ns;
  return j;
}

}  // namespace cuprobe::suite
