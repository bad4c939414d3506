// cuprobe/experiments/ordering.cuh: the memory-ordering experiments (examples/memory_ordering):
// publish/consume patterns checked exact over many launches, and the cost of a fence by
// semantics and scope, both on the measurement protocol.
//
//   namespace ex = cuprobe::experiments;
//   auto p = ex::publish_consume(cuprobe::gen::publish_pattern::acq_rel_atomic, {});
//   std::printf("%u of %u launches exact\n", p.exact, p.launches);
//   auto c = ex::fence_cost<cuprobe::ptx::sem::sc, cuprobe::ptx::scope::gpu>(32, {});
//   if (c.supported) std::printf("%.1f cycles per fence\n", *c.cycles_per_fence);
//
// Fence cost: one block of `threads` loops `iterations` times over (store; fence) between two
// %clock64 reads (gen::fence_cost_kernel), and again without the fence; each is a measurement
// whose sample is the mean over warps of one launch's cycles, per iteration (unit cycles,
// iterations = the loop count). cycles_per_fence = median with - median without. A fence the
// compiled code lacks (cluster scope before sm_90) is reported unsupported, not measured.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/gen/ordering.cuh"
#include "cuprobe/measure/runner.cuh"

namespace cuprobe::experiments {

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
  unsigned iterations = 1024;  ///< (store; fence) per thread per launch
  run_options run = run_options::fixed(1, 5);

  void validate(unsigned threads) const {
    require(threads >= 1 && threads <= 1024,
            "fence_cost: threads must be 1..1024, got " + std::to_string(threads));
    require(iterations >= 1 && iterations <= (1u << 24),
            "fence_cost: iterations is " + std::to_string(iterations) + "; it must be 1 .. 2^24");
    validate_options(run, "fence_cost");
  }
};

/// Cycles of one (store; fence) iteration with and without the fence, and their difference.
struct fence_cost_result {
  const char* sem = "";                      ///< "sc", "acq_rel", "acquire", "release"
  const char* scope = "";                    ///< "cta", "cluster", "gpu", "sys"
  unsigned threads = 0;                      ///< block size (32: one warp; 1024: a full block)
  bool supported = false;                    ///< false: the code this program runs lacks the fence
  std::optional<measurement> with, without;  ///< per iteration, unit cycles
  std::optional<double> cycles_per_fence;    ///< median with - median without
};

namespace detail {
/// One measurement of fence_cost_kernel<Sem, Scope, Fence>; empty when the code lacks it.
template <class Sem, class Scope, bool Fence>
std::optional<measurement> fence_cost_measurement(unsigned threads, const fence_cost_options& o,
                                                  const std::string& name) {
  device_buffer<unsigned> scratch(std::size_t(gen::fence_cost_rows) * threads);
  device_buffer<unsigned long long> cycles((threads + 31) / 32);
  device_buffer<int> unsupported(1);
  unsupported.zero();
  scratch.zero();
  auto launch = [&](cudaStream_t s) {
    cycles.poison(poison_byte, s);
    gen::fence_cost_kernel<Sem, Scope, Fence>
        <<<1, threads, 0, s>>>(scratch.data(), cycles.data(), o.iterations, unsupported.data());
    CUPROBE_CHECK_LAUNCH("cuprobe::gen::fence_cost_kernel");
    CUPROBE_CHECK(cudaStreamSynchronize(s));
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
      .with_param("fence", Fence);
  return m;
}
}  // namespace detail

/// Cycles per fence<Sem, Scope>() for a block of `threads` (1..1024), by subtraction.
template <class Sem, class Scope>
fence_cost_result fence_cost(unsigned threads, const fence_cost_options& o) {
  o.validate(threads);
  fence_cost_result c;
  c.sem = ptx::sem_name<Sem>();
  c.scope = ptx::scope_name<Scope>();
  c.threads = threads;
  c.with = detail::fence_cost_measurement<Sem, Scope, true>(threads, o, "fence.cost");
  if (!c.with) return c;
  // The baseline loop holds no fence, so one instantiation serves every Sem and Scope.
  c.without = detail::fence_cost_measurement<ptx::sem::sc, ptx::scope::cta, false>(
      threads, o, "fence.baseline");
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

}  // namespace cuprobe::experiments
