// cuprobe/gen/ordering.cuh: memory-ordering patterns between blocks, and a chase hop performed
// at the line's L2 home.
//
//   namespace g = cuprobe::gen;
//   g::last_block_sum sum(/*max_blocks=*/1024);
//   unsigned long long s = sum(d_in, n, /*blocks=*/264, g::publish_pattern::acq_rel_atomic);
//
// last_block_sum: every block sums its share of the input and publishes the partial sum; the
// last block to arrive (told by an atomic ticket) adds the partial sums and resets the ticket
// counter for the next launch. One launch, no second kernel, no host round trip. The three
// publish_pattern values are three correct ways to order "write my partial" before "take a
// ticket" and "see the ticket" before "read everyone's partial" (docs/memory-latency.md).
//
// The cost of a fence is the suite's (cuprobe_suite/ordering.cuh; its kernel:
// cuprobe_suite/kernels/fence_cost.cuh).
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/ptx/atomic.cuh"
#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/opaque.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::gen {

// ------------------------------------------------------------------------------------------
// Publish / consume: the last block reduces.

/// How a block publishes its partial sum and how the last block consumes them.
enum class publish_pattern {
  /// Writer: st partial; fence.sc.gpu; atomicAdd (relaxed). Last block: fence.sc.gpu after its
  /// ticket, then a barrier, then plain loads (fence-fence synchronisation; CUDA's
  /// threadFenceReduction sample does this with __threadfence()).
  fence_then_atomic,
  /// Writer and last block: fetch_add(acq_rel) at gpu scope (ptx::atomic_fetch_add): the
  /// release half publishes, the acquire half (in the last block) consumes; no separate fence.
  acq_rel_atomic,
  /// Writer: fetch_add(release). Last block: every thread does an acquire load of the counter
  /// (which reads gridDim.x) before reading the partial sums.
  release_atomic_acquire_load,
};

/// The name of a pattern, as reports print it.
inline const char* to_string(publish_pattern p) {
  return p == publish_pattern::fence_then_atomic ? "fence_then_atomic"
         : p == publish_pattern::acq_rel_atomic  ? "acq_rel_atomic"
                                                 : "release_atomic_acquire_load";
}

/// Threads per block of last_block_sum_kernel.
inline constexpr unsigned last_block_sum_threads = 256;

namespace detail {
/// Sum over the block of 256 threads; the result is valid in thread 0. Ends with a barrier, so
/// `warp_sums` may be reused right after.
__device__ __forceinline__ unsigned long long block_sum_256(unsigned long long v,
                                                            unsigned long long* warp_sums) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
  __syncthreads();
  unsigned long long s = 0;
  if (threadIdx.x == 0)
    for (unsigned w = 0; w < last_block_sum_threads / 32; ++w) s += warp_sums[w];
  __syncthreads();
  return s;
}
}  // namespace detail

/// Sums in[0..n) into *out (exact: 64-bit integer sum, modulo 2^64). T: an unsigned integer
/// type. Launch with last_block_sum_threads threads per block and as many blocks as `partials`
/// holds; *counter must be 0 before the first launch and is 0 again after each.
template <publish_pattern P, class T>
__global__ void __launch_bounds__(last_block_sum_threads)
    last_block_sum_kernel(const T* in, std::size_t n, unsigned long long* partials,
                          unsigned* counter, unsigned long long* out) {
  static_assert(
      std::is_integral_v<T> && std::is_unsigned_v<T> && sizeof(T) <= 8,
      "last_block_sum_kernel<P, T>: T must be an unsigned integer type of at most 64 bits");
  __shared__ unsigned long long warp_sums[last_block_sum_threads / 32];
  __shared__ bool is_last;
  unsigned long long v = 0;
  for (std::size_t i = blockIdx.x * std::size_t(last_block_sum_threads) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * last_block_sum_threads)
    v += in[i];
  v = detail::block_sum_256(v, warp_sums);

  if (threadIdx.x == 0) {
    partials[blockIdx.x] = v;  // a plain (weak) store: the pattern orders it
    unsigned ticket;
    if constexpr (P == publish_pattern::fence_then_atomic) {
      ptx::fence<ptx::sem::sc, ptx::scope::gpu>();  // release side
      ticket = atomicAdd(counter, 1u);              // relaxed
    } else if constexpr (P == publish_pattern::acq_rel_atomic) {
      ticket = ptx::atomic_fetch_add<ptx::sem::acq_rel, ptx::scope::gpu>(counter, 1u);
    } else {
      ticket = ptx::atomic_fetch_add<ptx::sem::release, ptx::scope::gpu>(counter, 1u);
    }
    is_last = ticket == gridDim.x - 1;
    if constexpr (P == publish_pattern::fence_then_atomic)
      if (is_last) ptx::fence<ptx::sem::sc, ptx::scope::gpu>();  // acquire side
  }
  __syncthreads();  // orders thread 0's acquire before the other threads' loads
  if (!is_last) return;
  v = 0;
  if constexpr (P == publish_pattern::release_atomic_acquire_load) {
    // Every thread acquires by reading the final ticket count, gridDim.x. The value is used
    // (it adds 0 when all is well) so that ptxas keeps the load, not only its L1 invalidation.
    v = ptx::atomic_load<ptx::sem::acquire, ptx::scope::gpu>(counter) - gridDim.x;
  }
  for (unsigned b = threadIdx.x; b < gridDim.x; b += last_block_sum_threads) v += partials[b];
  v = detail::block_sum_256(v, warp_sums);
  if (threadIdx.x == 0) {
    *out = v;
    ptx::atomic_store<ptx::sem::relaxed, ptx::scope::gpu>(counter, 0u);  // for the next launch
  }
}

/// Owns the partial sums and the ticket counter of last_block_sum_kernel, for inputs of type T
/// (a class template so that its kernels are compiled only where it is used).
template <class T>
class basic_last_block_sum {
 public:
  /// Allocates partial sums for up to `max_blocks` blocks.
  explicit basic_last_block_sum(unsigned max_blocks)
      : partials_(checked(max_blocks)), counter_(1), out_(1) {
    counter_.zero();
  }

  /// Enqueues one reduction of in[0..n) into *d_out (device memory) with `blocks` blocks.
  void launch(const T* in, std::size_t n, unsigned blocks, publish_pattern p,
              unsigned long long* d_out, cudaStream_t s = nullptr) {
    require(blocks >= 1 && blocks <= partials_.size(), "last_block_sum: blocks must be 1.." +
                                                           std::to_string(partials_.size()) +
                                                           " (the max_blocks it was built with)");
    require(d_out != nullptr && (in != nullptr || n == 0), "last_block_sum: null pointer");
    switch (p) {
      case publish_pattern::fence_then_atomic:
        start<publish_pattern::fence_then_atomic>(in, n, blocks, d_out, s);
        break;
      case publish_pattern::acq_rel_atomic:
        start<publish_pattern::acq_rel_atomic>(in, n, blocks, d_out, s);
        break;
      default:
        start<publish_pattern::release_atomic_acquire_load>(in, n, blocks, d_out, s);
    }
  }

  /// Reduces in[0..n) and returns the sum (synchronous).
  unsigned long long operator()(const T* in, std::size_t n, unsigned blocks, publish_pattern p) {
    out_.poison();
    launch(in, n, blocks, p, out_.data());
    synchronize_device("gen::ordering (a publish/consume launch)");
    return out_.to_host()[0];
  }

  /// The ticket counter as the device holds it (0 between launches).
  unsigned counter_value() const { return counter_.to_host()[0]; }
  /// The most blocks a reduction may use.
  unsigned max_blocks() const { return static_cast<unsigned>(partials_.size()); }

 private:
  static unsigned checked(unsigned max_blocks) {
    require(max_blocks >= 1, "last_block_sum: max_blocks must be at least 1");
    return max_blocks;
  }
  template <publish_pattern P>
  void start(const T* in, std::size_t n, unsigned blocks, unsigned long long* d_out,
             cudaStream_t s) {
    last_block_sum_kernel<P, T>
        <<<blocks, last_block_sum_threads, 0, s>>>(in, n, partials_.data(), counter_.data(), d_out);
    CUPROBE_CHECK_LAUNCH("cuprobe::gen::last_block_sum_kernel");
  }

  device_buffer<unsigned long long> partials_;
  device_buffer<unsigned> counter_;
  device_buffer<unsigned long long> out_;
};

/// The reduction of 32-bit unsigned inputs.
using last_block_sum = basic_last_block_sum<std::uint32_t>;

/// A load for gen::chase_hops that is performed where the L2 homes the line: an atomic add of
/// an opaque zero (the value is unchanged; the compiler cannot turn it into a load, which a
/// partition's copy of a far line could serve). suite::l2_classify_lines uses it. On
/// sm_90a it is the generic ATOM.E.ADD.64 (its shared and local fallbacks are branched over
/// for a global address: the same few instructions on every hop).
struct chase_load_home {
  /// The word at `p`, read by an atomic add of zero where the L2 homes it.
  __device__ __forceinline__ std::uint64_t operator()(const std::uint64_t* p) const {
    unsigned long long zero = 0;
    ptx::opaque(zero);
    return atomicAdd(reinterpret_cast<unsigned long long*>(const_cast<std::uint64_t*>(p)), zero);
  }
};

}  // namespace cuprobe::gen
