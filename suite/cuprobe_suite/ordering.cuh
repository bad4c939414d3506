// cuprobe_suite/ordering.cuh: the memory-ordering experiments (examples/memory_ordering):
// publish/consume patterns checked exact over many launches, and the cost of a fence by
// semantics and scope, both on the measurement protocol.
//
//   namespace ex = cuprobe::suite;
//   auto p = ex::publish_consume(cuprobe::gen::publish_pattern::acq_rel_atomic, {});
//   std::printf("%u of %u launches exact\n", p.exact, p.launches);
//   auto c = ex::fence_cost<cuprobe::ptx::sem::sc, cuprobe::ptx::scope::gpu>(32, {});
//   if (c.supported) std::printf("%.1f cycles per fence\n", *c.cycles_per_fence);
//
// Fence cost: one block of `threads` loops `iterations` times over (store; fence) between two
// %clock64 reads (kernels::fence_cost_kernel), and again without the fence; each is a measurement
// whose sample is the mean over warps of one launch's cycles, per iteration (unit cycles,
// iterations = the loop count). cycles_per_fence = median with - median without. A fence the
// compiled code lacks (cluster scope before sm_90) is reported unsupported, not measured.
//
// Where the stored rows lie (options.home): unplaced, one allocation per measurement wherever
// it lands; or near / far, on 128-byte lines that the L2 homes in the partition near to / far
// from SM options.sm (fence_cost_lines: an atomic chase over 8192 lines from that SM, sorted in
// two clusters by l2_classify_lines), with the block pinned to that SM. A gpu-scope fence after
// a store waits for the store's acknowledgement from the line's home, so the unplaced figure
// depends on how many of the 8 rows the allocation put far (docs/memory-latency.md).
// fence_cost_by_home(dev, options) measures fence.sc at every scope on near and far lines.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/gen/ordering.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe_suite/kernels/fence_cost.cuh"
#include "cuprobe_suite/l2_partitions.cuh"

namespace cuprobe::suite {

/// How publish_consume runs.
struct publish_consume_options {
  unsigned launches = 300;  ///< launches, each on fresh random inputs and its own grid size
  std::size_t elements = std::size_t(1) << 20;
  unsigned max_blocks = 4096;  ///< grids of 1 .. max_blocks blocks

  void validate() const {
    require(
        launches >= 1 && launches <= 100000,
        "publish_consume: launches is " + std::to_string(launches) + "; it must be 1 .. 100000");
    require(elements >= 1 && elements <= (std::size_t(1) << 30),
            "publish_consume: elements must be 1 .. 2^30");
    require(max_blocks >= 1 && max_blocks <= 65535,
            "publish_consume: max_blocks must be 1 .. 65535");
  }
};

struct publish_consume_result {
  gen::publish_pattern pattern{};
  unsigned launches = 0;
  unsigned exact = 0;  ///< launches whose sum equalled the host's
};

/// `launches` reductions with pattern `p` (gen::last_block_sum), launch i on inputs drawn with
/// seed 1000 + i over a grid of 1 + (37 i mod max_blocks) blocks, each compared with the host.
inline publish_consume_result publish_consume(gen::publish_pattern p,
                                              const publish_consume_options& o) {
  o.validate();
  publish_consume_result r;
  r.pattern = p;
  r.launches = o.launches;
  gen::last_block_sum sum(o.max_blocks);
  device_buffer<unsigned> in(o.elements);
  for (unsigned i = 0; i < o.launches; ++i) {
    in.fill_random(1000 + i, 0u, 1000u);
    const unsigned blocks = 1u + unsigned((std::uint64_t(i) * 37) % o.max_blocks);
    unsigned long long want = 0;
    for (std::size_t j = 0; j < o.elements; ++j)
      want += host_random<unsigned>(1000 + i, j, 0u, 1000u);
    r.exact += sum(in.data(), o.elements, blocks, p) == want;
  }
  return r;
}

/// How fence_cost measures.
struct fence_cost_options {
  unsigned iterations = 1024;  ///< (store; fence) per thread per launch, a multiple of 8
  run_options run = run_options::fixed(1, 5);
  /// Where the 8 rows the threads store to lie: unplaced (one allocation per measurement,
  /// wherever it lands), or on lines the L2 homes near to or far from SM `sm`, where the block
  /// then runs (fence_cost_lines).
  l2_home home = l2_home::unplaced;
  std::uint32_t sm = 0;  ///< the SM of a placed run (home near or far)

  void validate(unsigned threads) const {
    require(threads >= 1 && threads <= 1024,
            "fence_cost: threads must be 1..1024, got " + std::to_string(threads));
    require(iterations >= 1 && iterations <= (1u << 24),
            "fence_cost: iterations is " + std::to_string(iterations) + "; it must be 1 .. 2^24");
    require(iterations % kernels::fence_cost_rows == 0,
            "fence_cost: iterations is " + std::to_string(iterations) +
                "; it must be a multiple of 8 (one store to each of the 8 rows per round)");
    require(home == l2_home::unplaced || home == l2_home::near || home == l2_home::far,
            "fence_cost: home is not one of unplaced, near, far");
    validate_options(run, "fence_cost");
  }
};

/// Cycles of one (store; fence) iteration with and without the fence, and their difference.
struct fence_cost_result {
  const char* sem = "";                      ///< "sc", "acq_rel", "acquire", "release"
  const char* scope = "";                    ///< "cta", "cluster", "gpu", "sys"
  unsigned threads = 0;                      ///< block size (32: one warp; 1024: a full block)
  l2_home home = l2_home::unplaced;          ///< where the stored rows lay
  std::optional<std::uint32_t> sm;           ///< the SM the fenced loop ran on
  bool supported = false;                    ///< false: the code this program runs lacks the fence
  std::optional<measurement> with, without;  ///< per iteration, unit cycles
  std::optional<double> cycles_per_fence;    ///< median with - median without
};

/// Lines for placed fence costs: a ring of 8192 lines (1 MiB) sorted by the L2 partition that
/// homes them as seen from SM `sm` (l2_classify_lines with gen::chase_load_home, an atomic:
/// performed at the line's home, where a gpu-scope fence waits for an earlier store to be
/// acknowledged). The fenced loops then store over the ring's links (it is not chased again).
struct fence_cost_lines {
  gen::chase_ring ring;
  l2_line_homes homes;

  explicit fence_cost_lines(std::uint32_t sm)
      : ring(std::size_t(8192) * 128, 128, 1, 23),
        homes(l2_classify_lines(ring, sm, gen::chase_load_home{})) {}

  /// The addresses of `count` lines of `home`; throws with the counts when there are fewer or
  /// the clusters are not apart.
  std::vector<std::uint64_t> take(l2_home home, std::size_t count) const {
    const auto& v = home == l2_home::near ? homes.near : homes.far;
    require(homes.separated() && v.size() >= count,
            "fence_cost: the L2 lines seen from SM " + std::to_string(homes.sm) +
                " did not split into near and far (" + std::to_string(homes.near.size()) +
                " lines at " + fmt(homes.near_cycles, 1) + " cycles, " +
                std::to_string(homes.far.size()) + " at " + fmt(homes.far_cycles, 1) + "); " +
                std::to_string(count) + " " + to_string(home) + " lines were needed");
    return {v.begin(), v.begin() + std::ptrdiff_t(count)};
  }
};

namespace detail {
/// One measurement of fence_cost_kernel<Sem, Scope, Fence>; empty when the code lacks it.
/// lines: null for unplaced rows (then one fresh allocation holds them); else rows on its lines.
template <class Sem, class Scope, bool Fence>
std::optional<measurement> fence_cost_measurement(unsigned threads, const fence_cost_options& o,
                                                  const fence_cost_lines* lines,
                                                  const std::string& name,
                                                  std::optional<std::uint32_t>& ran_on_sm) {
  const unsigned warps = (threads + 31) / 32;
  const std::size_t rows = std::size_t(kernels::fence_cost_rows) * warps;
  std::optional<device_buffer<unsigned>> scratch;
  std::vector<std::uint64_t> address;
  if (lines) {
    address = lines->take(o.home, rows);
  } else {
    scratch.emplace(std::size_t(kernels::fence_cost_rows) * threads);
    scratch->zero();
    for (unsigned r = 0; r < kernels::fence_cost_rows; ++r)
      for (unsigned w = 0; w < warps; ++w)  // row r of warp w: the words the layout gives it
        address.push_back(reinterpret_cast<std::uint64_t>(scratch->data() + r * threads + w * 32));
  }
  device_buffer<std::uint64_t> line_addresses(rows);
  line_addresses.upload(address);
  device_buffer<unsigned long long> cycles(warps);
  device_buffer<unsigned> ran_on(1);
  device_buffer<int> unsupported(1);
  unsupported.zero();
  const int target = lines ? int(lines->homes.sm) : -1;
  int sms = 1;
  if (lines) {
    int dev = 0;
    CUPROBE_CHECK(cudaGetDevice(&dev));
    CUPROBE_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
  }
  // Placed: 4 blocks per SM, so that one starts on the target SM (the others return at once).
  const unsigned grid = lines ? unsigned(4 * sms) : 1u;
  auto launch = [&](cudaStream_t s) {
    cycles.poison(poison_byte, s);
    ran_on.poison(0xff, s);  // kernels::fence_cost_unclaimed
    kernels::fence_cost_kernel<Sem, Scope, Fence>
        <<<grid, threads, 0, s>>>(line_addresses.data(), cycles.data(), o.iterations, target,
                                  ran_on.data(), unsupported.data());
    CUPROBE_CHECK_LAUNCH("cuprobe::kernels::fence_cost_kernel");
    cuprobe::wait_for(s, "suite::fence_cost_measurement");
    const unsigned sm = ran_on.to_host()[0];
    if (unsupported.to_host()[0]) return;
    require(sm != kernels::fence_cost_unclaimed && (target < 0 || sm == unsigned(target)),
            "fence cost: no block started on SM " + std::to_string(target));
    ran_on_sm = sm;
  };
  launch(nullptr);  // does the compiled code have this fence?
  if (unsupported.to_host()[0]) return std::nullopt;
  run_options ro = o.run;
  ro.mode = loop_mode::in_kernel;
  ro.iterations = o.iterations;
  auto sampler = [&](cudaStream_t s) {
    launch(s);
    double sum = 0;
    const auto h = cycles.to_host();
    for (unsigned long long c : h) {
      require(!device_buffer<unsigned long long>::is_poison(c),
              "fence cost: a warp wrote no result");
      sum += static_cast<double>(c);
    }
    return sum / static_cast<double>(h.size());
  };
  measurement m = measure_samples(
      name, sample_unit::cycles, sampler,
      work::op_count(1, Fence ? "one iteration: a store and a fence" : "one iteration: a store"),
      ro);
  m.with_param("sem", ptx::sem_name<Sem>())
      .with_param("scope", ptx::scope_name<Scope>())
      .with_param("threads", threads)
      .with_param("fence", Fence)
      .with_param("home", to_string(lines ? o.home : l2_home::unplaced))
      .with_param("sm", ran_on_sm);
  if (lines)
    m.with_param("home_near_cycles", lines->homes.near_cycles)
        .with_param("home_far_cycles", lines->homes.far_cycles);
  return m;
}
}  // namespace detail

/// Cycles per fence<Sem, Scope>() for a block of `threads` (1..1024), by subtraction. With
/// o.home near or far the rows lie on `lines` (classified from o.sm; built here when null).
template <class Sem, class Scope>
fence_cost_result fence_cost(unsigned threads, const fence_cost_options& o,
                             const fence_cost_lines* lines = nullptr) {
  o.validate(threads);
  require(!lines || lines->homes.sm == o.sm, "fence_cost: the lines were classified from SM " +
                                                 std::to_string(lines ? lines->homes.sm : 0) +
                                                 ", but sm is " + std::to_string(o.sm));
  std::optional<fence_cost_lines> own;
  if (o.home != l2_home::unplaced && !lines) lines = &own.emplace(o.sm);
  if (o.home == l2_home::unplaced) lines = nullptr;
  fence_cost_result c;
  c.sem = ptx::sem_name<Sem>();
  c.scope = ptx::scope_name<Scope>();
  c.threads = threads;
  c.home = o.home;
  c.with = detail::fence_cost_measurement<Sem, Scope, true>(threads, o, lines, "fence.cost", c.sm);
  if (!c.with) return c;
  // The baseline loop holds no fence, so one instantiation serves every Sem and Scope.
  std::optional<std::uint32_t> base_sm;
  c.without = detail::fence_cost_measurement<ptx::sem::sc, ptx::scope::cta, false>(
      threads, o, lines, "fence.baseline", base_sm);
  c.supported = c.without.has_value();
  if (c.supported) c.cycles_per_fence = c.with->stats.median - c.without->stats.median;
  c.with->with_param("cycles_per_fence", c.cycles_per_fence);
  return c;
}

/// Every semantics (sc, acq_rel, acquire, release) x scope (cta, cluster, gpu, sys), for one
/// warp (32 threads) and a full block (1024), in that order; unsupported ones have
/// supported == false. (A template only so that its kernels are compiled where it is called.)
template <int = 0>
std::vector<fence_cost_result> fence_costs(const fence_cost_options& o) {
  std::vector<fence_cost_result> out;
  auto scopes = [&](auto sem, unsigned t) {
    using S = decltype(sem);
    out.push_back(fence_cost<S, ptx::scope::cta>(t, o));
    out.push_back(fence_cost<S, ptx::scope::cluster>(t, o));
    out.push_back(fence_cost<S, ptx::scope::gpu>(t, o));
    out.push_back(fence_cost<S, ptx::scope::sys>(t, o));
  };
  for (unsigned t : {32u, 1024u}) {
    scopes(ptx::sem::sc{}, t);
    scopes(ptx::sem::acq_rel{}, t);
    scopes(ptx::sem::acquire{}, t);
    scopes(ptx::sem::release{}, t);
  }
  return out;
}

/// fence_cost_by_home's answer: the lines it classified and, per scope, the costs.
struct fence_cost_by_home_result {
  std::uint32_t sm = 0;
  std::size_t near_lines = 0, far_lines = 0;  ///< of the 8192 classified
  double near_cycles = 0, far_cycles = 0;     ///< one atomic hop to a near / far line
  /// sc fences, scope (cta, cluster, gpu, sys) x threads (32, 1024) x home (near, far), in
  /// that order; unsupported ones have supported == false. Empty when the lines did not split
  /// into two clusters (l2_line_homes::separated).
  std::vector<fence_cost_result> costs;
};

/// fence.sc at every scope with the rows on lines the L2 homes near to and far from SM o.sm
/// (o.home is ignored: both are measured), for one warp and a block of 1024 threads: does a
/// fence after a store wait for the line's home partition? (A template only so that its
/// kernels are compiled where it is called.)
template <int = 0>
fence_cost_by_home_result fence_cost_by_home(const device_info& dev, const fence_cost_options& o) {
  o.validate(1024);
  require(o.sm < std::uint32_t(dev.sm_count), "fence_cost_by_home: sm is " + std::to_string(o.sm) +
                                                  "; the device has SMs 0 .. " +
                                                  std::to_string(dev.sm_count - 1));
  const fence_cost_lines lines(o.sm);
  fence_cost_by_home_result r;
  r.sm = o.sm;
  r.near_lines = lines.homes.near.size();
  r.far_lines = lines.homes.far.size();
  r.near_cycles = lines.homes.near_cycles;
  r.far_cycles = lines.homes.far_cycles;
  if (!lines.homes.separated()) return r;  // one home per SM on this GPU: nothing to place
  // A block of 1024 threads stores to fence_cost_rows lines per warp: too few lines of a home
  // (hop times blurred, as under compute-sanitizer) is "not measured" too, not an error.
  const std::size_t need = std::size_t(kernels::fence_cost_rows) * (1024 / 32);
  if (r.near_lines < need || r.far_lines < need) return r;
  auto both = [&](auto scope, unsigned t) {
    using S = decltype(scope);
    for (l2_home h : {l2_home::near, l2_home::far}) {
      fence_cost_options oh = o;
      oh.home = h;
      r.costs.push_back(fence_cost<ptx::sem::sc, S>(t, oh, &lines));
    }
  };
  for (unsigned t : {32u, 1024u}) {
    both(ptx::scope::cta{}, t);
    both(ptx::scope::cluster{}, t);
    both(ptx::scope::gpu{}, t);
    both(ptx::scope::sys{}, t);
  }
  return r;
}

}  // namespace cuprobe::suite
