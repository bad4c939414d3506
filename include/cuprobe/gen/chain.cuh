// cuprobe/gen/chain.cuh: accumulator chains, the kernel behind latency and throughput numbers.
//
//   using op = cuprobe::gen::ops::fma_f32;
//   auto in = cuprobe::gen::make_chain_inputs<op>(threads, /*chains=*/8, /*seed=*/1);
//   // upload in.init, poison out, then: Chains = 1 measures latency, Chains = 8 throughput
//   cuprobe::gen::launch_chain<op, 8>(grid, block, {init.data(), out.data(), in.b, in.c, iters});
//   auto check = cuprobe::gen::validate_chains<op>(in, out.to_host(), chain_steps(iters));
//
// Each thread runs `Chains` independent dependency chains, acc[k] <- Op::apply(acc[k], b, c),
// for iterations x Unroll steps each. With Chains = 1 every instruction waits for the one
// before it (latency); with Chains = N the scheduler has N independent instructions to issue
// back to back (throughput, once N covers latency x issue rate: docs/compute.md).
//
// init and out: element k * threads + t is chain k of global thread t (coalesced; 1-D grids).
// The chains stay in registers (no local memory), b and c come from the arguments (nothing
// folds), every result is written back, and with `cycles` thread 0 of each block records the
// %clock64 delta around the loop, ptx::opaque pinning the chains between the two reads
// (tests/sass/compute_ops.cu checks the order).
#pragma once

#include <cuda_runtime_api.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/gen/ops.cuh"
#include "cuprobe/ptx/opaque.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::gen {

/// The unroll factor of chain_kernel unless told otherwise: steps per loop iteration per chain.
inline constexpr int default_unroll = 16;

/// The arguments of chain_kernel (one struct: a kernel parameter, read from constant memory).
template <class T>
struct chain_args {
  const T* init = nullptr;               ///< chains x threads initial values, [chain][thread]
  T* out = nullptr;                      ///< chains x threads results, same layout
  T b{};                                 ///< operand b of every step
  T c{};                                 ///< operand c of every step
  int iterations = 1;                    ///< loop iterations; each does Unroll steps of every chain
  unsigned long long* cycles = nullptr;  ///< gridDim.x entries, or null: no timing
};

namespace detail {

template <int First, int...>
inline constexpr int first_of = First;

}  // namespace detail

/// Chains independent chains per thread, iterations x Unroll steps each; see the file comment.
template <class Op, int Chains, int Unroll = default_unroll>
__global__ void chain_kernel(chain_args<typename Op::value_type> a) {
  static_assert(Chains >= 1 && Unroll >= 1, "cuprobe::gen::chain_kernel: Chains and Unroll >= 1");
  using T = typename Op::value_type;
  const std::size_t threads = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t t = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const T b = a.b, c = a.c;
  T acc[Chains];
#pragma unroll
  for (int k = 0; k < Chains; ++k) acc[k] = a.init[k * threads + t];

  const std::uint64_t t0 = ptx::clock64();
#pragma unroll
  for (int k = 0; k < Chains; ++k) ptx::opaque(acc[k]);  // no step moves above t0
#pragma unroll 1
  for (int i = 0; i < a.iterations; ++i) {
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
#pragma unroll
      for (int k = 0; k < Chains; ++k) acc[k] = Op::apply(acc[k], b, c);
    }
  }
#pragma unroll
  for (int k = 0; k < Chains; ++k) ptx::opaque(acc[k]);  // no step moves below t1
  const std::uint64_t t1 = ptx::clock64();

  if (a.cycles != nullptr && threadIdx.x == 0) a.cycles[blockIdx.x] = t1 - t0;
#pragma unroll
  for (int k = 0; k < Chains; ++k) a.out[k * threads + t] = acc[k];
}

/// Launches chain_kernel<Op, Chains, Unroll> on a 1-D grid, after checking the arguments.
template <class Op, int Chains, int Unroll = default_unroll>
void launch_chain(unsigned grid, unsigned block, const chain_args<typename Op::value_type>& a,
                  cudaStream_t stream = nullptr) {
  require(grid >= 1 && block >= 1, "launch_chain: grid and block must be at least 1");
  require(a.init != nullptr && a.out != nullptr,
          "launch_chain: init and out must be device pointers");
  require(a.iterations >= 1,
          "launch_chain: iterations must be at least 1, got " + std::to_string(a.iterations));
  if constexpr (Op::warp_collective)
    require(block % 32 == 0, std::string("launch_chain: ") + Op::name +
                                 " exchanges values across the warp, so the block size must be "
                                 "a multiple of 32, got " +
                                 std::to_string(block));
  chain_kernel<Op, Chains, Unroll><<<grid, block, 0, stream>>>(a);
  CUPROBE_CHECK_LAUNCH("cuprobe::gen::chain_kernel");
}

/// Calls f(std::integral_constant<int, C>{}) for the C in Cs... equal to n, so that a runtime
/// chain count picks a compiled kernel: dispatch_chains<1, 2, 4, 8, 16>(n, [&](auto c) {
/// launch_chain<op, decltype(c)::value>(...); }). Returns what f returns; throws
/// cuprobe::error naming the compiled counts when n is not among them.
template <int... Cs, class F>
decltype(auto) dispatch_chains(int n, F&& f) {
  static_assert(sizeof...(Cs) > 0, "cuprobe::gen::dispatch_chains needs at least one count");
  std::string list;
  ((list += (list.empty() ? "" : ", ") + std::to_string(Cs)), ...);
  const bool known = ((n == Cs) || ...);
  require(known,
          "dispatch_chains: " + std::to_string(n) + " chains was not compiled in (" + list + ")");
  using R = decltype(f(std::integral_constant<int, detail::first_of<Cs...>>{}));
  if constexpr (std::is_void_v<R>) {
    (void)((n == Cs ? (f(std::integral_constant<int, Cs>{}), true) : false) || ...);
  } else {
    R r{};
    (void)((n == Cs ? (r = f(std::integral_constant<int, Cs>{}), true) : false) || ...);
    return r;
  }
}

// ---- host-side accounting ------------------------------------------------------------------

/// Dependent steps each chain does in a launch: iterations x unroll.
constexpr unsigned long long chain_steps(int iterations, int unroll = default_unroll) {
  return static_cast<unsigned long long>(iterations) * static_cast<unsigned long long>(unroll);
}

/// Thread-level instructions a launch executes: threads x chains x iterations x unroll (one
/// warp instruction counts 32).
constexpr unsigned long long chain_instructions(unsigned long long threads, int chains,
                                                int iterations, int unroll = default_unroll) {
  return threads * static_cast<unsigned long long>(chains) * chain_steps(iterations, unroll);
}

/// Operations (FLOP for floating point) a launch executes: instructions x Op::ops.
template <class Op>
constexpr double chain_operations(unsigned long long threads, int chains, int iterations,
                                  int unroll = default_unroll) {
  return static_cast<double>(chain_instructions(threads, chains, iterations, unroll)) * Op::ops;
}

/// Cycles per dependent step from a block's recorded cycles: with one chain per thread this is
/// the latency of the instruction (plus the loop's share, which 16-step unrolling keeps small,
/// and the fixed costs of one launch: see cycles_per_step_difference).
inline double cycles_per_step(unsigned long long cycles, int iterations,
                              int unroll = default_unroll) {
  return static_cast<double>(cycles) / static_cast<double>(chain_steps(iterations, unroll));
}

/// Cycles per dependent step from two launches that differ only in `iterations`: what every
/// launch pays once (the wait for the first loads of init, which are issued before the first
/// clock read; the loop's entry) cancels in the difference.
inline double cycles_per_step_difference(unsigned long long cycles_short, int iterations_short,
                                         unsigned long long cycles_long, int iterations_long,
                                         int unroll = default_unroll) {
  require(iterations_long > iterations_short,
          "cycles_per_step_difference: the second launch must run more iterations");
  const double extra = static_cast<double>(chain_steps(iterations_long - iterations_short, unroll));
  return (static_cast<double>(cycles_long) - static_cast<double>(cycles_short)) / extra;
}

// ---- inputs, reference and validation --------------------------------------------------------

/// The inputs of one launch, drawn on the host with Op::sample.
template <class T>
struct chain_inputs {
  std::vector<T> init;             ///< chains x threads, [chain][thread]
  T b{};                           ///< the operand b of every step
  T c{};                           ///< the operand c of every step
  int chains = 0;                  ///< chains per thread
  unsigned long long threads = 0;  ///< threads of the launch
};

/// Inputs for `threads` threads of `chains` chains each, drawn from `seed` with Op::sample.
template <class Op>
chain_inputs<typename Op::value_type> make_chain_inputs(unsigned long long threads, int chains,
                                                        std::uint64_t seed) {
  require(threads >= 1 && chains >= 1, "make_chain_inputs: threads and chains must be at least 1");
  chain_inputs<typename Op::value_type> in;
  in.chains = chains;
  in.threads = threads;
  in.init.resize(threads * static_cast<unsigned long long>(chains));
  for (std::size_t i = 0; i < in.init.size(); ++i) in.init[i] = Op::sample(seed, i, operand::init);
  in.b = Op::sample(seed, 0, operand::b);
  in.c = Op::sample(seed, 0, operand::c);
  return in;
}

/// One chain recomputed on the host, in the device's order: `steps` applications of
/// Op::host_apply. For per-thread operations only (a shuffle needs the whole warp).
template <class Op>
typename Op::value_type chain_reference(typename Op::value_type init, typename Op::value_type b,
                                        typename Op::value_type c, unsigned long long steps) {
  static_assert(!Op::warp_collective,
                "chain_reference computes one lane; use warp_chain_reference for warp operations");
  for (unsigned long long s = 0; s < steps; ++s) init = Op::host_apply(init, b, c);
  return init;
}

/// The 32 lanes of one warp's chain after `steps` applications of Op::host_apply_warp.
template <class Op>
std::array<typename Op::value_type, 32> warp_chain_reference(
    std::array<typename Op::value_type, 32> lanes, typename Op::value_type b,
    typename Op::value_type c, unsigned long long steps) {
  for (unsigned long long s = 0; s < steps; ++s) Op::host_apply_warp(lanes, b, c);
  return lanes;
}

/// What validate_chains found.
struct chain_check {
  bool ok = true;              ///< true when every value matched
  std::size_t checked = 0;     ///< values compared
  std::size_t mismatches = 0;  ///< values that differ (beyond Op::tolerance)
  std::string message;         ///< the first mismatch, in a sentence; empty when ok
  explicit operator bool() const { return ok; }  ///< ok
};

namespace detail {

template <class Op, class T>
bool chain_value_matches(const T& got, const T& want) {
  if constexpr (Op::tolerance == 0) {
    return bits_of(got) == bits_of(want);
  } else {
    static_assert(std::is_floating_point_v<T>, "a tolerance needs a floating-point value_type");
    const double g = static_cast<double>(got), w = static_cast<double>(want);
    return std::fabs(g - w) <= Op::tolerance * std::fabs(w);
  }
}

}  // namespace detail

/// Compares every result of a launch (out, [chain][thread]) with the host reference after
/// `steps` steps (chain_steps(iterations, unroll)). Exact comparison unless Op::tolerance > 0.
/// The message names the first mismatch: chain, thread, block, expected and found values, and
/// whether the value was never written (still poisoned).
///
/// `sample_every` > 1 recomputes only every n-th thread (every n-th warp for warp operations),
/// for launches too large to recompute whole on the host; every other result is still checked
/// for having been written (not poisoned).
template <class Op>
chain_check validate_chains(const chain_inputs<typename Op::value_type>& in,
                            const std::vector<typename Op::value_type>& out,
                            unsigned long long steps, unsigned block_threads = 0,
                            unsigned long long sample_every = 1) {
  using T = typename Op::value_type;
  require(out.size() == in.init.size(), "validate_chains: " + std::to_string(out.size()) +
                                            " results for " + std::to_string(in.init.size()) +
                                            " inputs");
  chain_check r;
  auto record = [&](int k, unsigned long long t, const T& want) {
    const T& got = out[k * in.threads + t];
    ++r.checked;
    if (detail::chain_value_matches<Op>(got, want)) return;
    if (r.mismatches++ == 0) {
      r.ok = false;
      r.message = std::string(Op::name) + ": chain " + std::to_string(k) + " of thread " +
                  std::to_string(t);
      if (block_threads)
        r.message += " (block " + std::to_string(t / block_threads) + ", thread " +
                     std::to_string(t % block_threads) + ")";
      r.message += " after " + std::to_string(steps) + " steps: expected " +
                   detail::format_value(want) + ", found " + detail::format_value(got);
      if (device_buffer<T>::is_poison(got)) r.message += " (still poisoned: never written)";
    }
  };
  require(sample_every >= 1, "validate_chains: sample_every must be at least 1");
  if (sample_every > 1)
    for (std::size_t i = 0; i < out.size(); ++i)
      if (device_buffer<T>::is_poison(out[i])) {
        r.ok = false;
        ++r.mismatches;
        r.message = std::string(Op::name) + ": result " + std::to_string(i) +
                    " was never written (still poisoned)";
        return r;
      }
  for (int k = 0; k < in.chains; ++k) {
    if constexpr (Op::warp_collective) {
      require(in.threads % 32 == 0, "validate_chains: a warp operation needs whole warps");
      for (unsigned long long w = 0; w < in.threads; w += 32 * sample_every) {
        std::array<T, 32> lanes;
        for (unsigned l = 0; l < 32; ++l) lanes[l] = in.init[k * in.threads + w + l];
        lanes = warp_chain_reference<Op>(lanes, in.b, in.c, steps);
        for (unsigned l = 0; l < 32; ++l) record(k, w + l, lanes[l]);
      }
    } else {
      for (unsigned long long t = 0; t < in.threads; t += sample_every)
        record(k, t, chain_reference<Op>(in.init[k * in.threads + t], in.b, in.c, steps));
    }
  }
  if (!r.ok)
    r.message +=
        "; " + std::to_string(r.mismatches) + " of " + std::to_string(r.checked) + " values differ";
  return r;
}

}  // namespace cuprobe::gen
