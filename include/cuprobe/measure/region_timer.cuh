// cuprobe/measure/region_timer.cuh: time regions inside a kernel, per thread, warp or block.
//
//   cuprobe::region_timer t(cuprobe::region_scope::warp, grid * block / 32);  // host
//   my_kernel<<<grid, block>>>(t.view(), ...);
//   //   in the kernel:  auto r = timer.start();  ...work...  timer.stop(r);
//   auto s = t.analyse();   // cycles and ns per record, spread across SMs
//
// Each record holds clock64 and %globaltimer at start and stop, and the SM id; block scope
// synchronises the block around both and thread 0 records, warp scope __syncwarp and lane 0,
// thread scope every thread. The empty region's overhead (calibrate_overhead()) is reported, and
// subtracted only when asked (analyse(region_overhead::subtract)).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/stats.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe {

/// Who records a region: every thread, lane 0 of each warp, or thread 0 of each block.
enum class region_scope : int { thread = 0, warp = 1, block = 2 };
/// Whether analyse() subtracts the calibrated cost of an empty region from each record.
enum class region_overhead { keep, subtract };

/// One timed region: both clocks at start and stop, and where it ran.
struct region_record {
  /// %clock64 at start and at stop.
  ///@{
  std::uint64_t start_cycles, stop_cycles;
  ///@}
  /// %globaltimer (ns) at start and at stop.
  ///@{
  std::uint64_t start_ns, stop_ns;
  ///@}
  /// The SM that recorded it, and 1 when the slot holds a record (0: never written).
  ///@{
  std::uint32_t smid, valid;
  ///@}
};

/// The start readings of one region (kept in registers between start() and stop()).
struct region_token {
  /// %clock64 and %globaltimer at start().
  ///@{
  std::uint64_t cycles, ns;
  ///@}
};

/// What a kernel receives (by value): where to write, and the scope.
struct region_timer_view {
  region_record* records = nullptr;           ///< the device array of records
  std::uint32_t capacity = 0;                 ///< records the array holds
  region_scope scope = region_scope::thread;  ///< who records

  /// Record slot of the calling thread, or -1 when it does not record.
  __device__ long long slot() const {
    const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    const unsigned long long block =
        blockIdx.x + 1ull * gridDim.x * (blockIdx.y + 1ull * gridDim.y * blockIdx.z);
    const unsigned threads = blockDim.x * blockDim.y * blockDim.z;
    unsigned long long s;
    switch (scope) {
      case region_scope::thread:
        s = block * threads + tid;
        break;
      case region_scope::warp:
        if (tid % 32) return -1;
        s = block * ((threads + 31) / 32) + tid / 32;
        break;
      default:
        if (tid) return -1;
        s = block;
    }
    return s < capacity ? static_cast<long long>(s) : -1;
  }
  /// Synchronises the block (scope block) or the warp (scope warp); nothing for scope thread.
  __device__ void sync() const {
    if (scope == region_scope::block)
      __syncthreads();
    else if (scope == region_scope::warp)
      __syncwarp();
  }
  /// Begins a region: syncs, then reads both clocks.
  __device__ region_token start() const {
    sync();
    region_token t;
    t.ns = ptx::globaltimer();
    t.cycles = ptx::clock64();
    return t;
  }
  /// Ends the region begun by start(): syncs, reads both clocks, and the recording thread writes
  /// the record into its slot.
  __device__ void stop(const region_token& t) const {
    sync();
    const std::uint64_t c = ptx::clock64();
    const std::uint64_t ns = ptx::globaltimer();
    const long long s = slot();
    if (s >= 0) records[s] = region_record{t.cycles, c, t.ns, ns, ptx::smid(), 1u};
  }
};

namespace detail {
template <int = 0>
__global__ void empty_region_kernel(region_timer_view v, int repeats) {
  for (int i = 0; i < repeats; ++i) {
    const auto t = v.start();
    v.stop(t);
  }
}
CUPROBE_KEEP_KERNEL(empty_region_kernel, empty_region_kernel<0>)  // impl/ launches it
}  // namespace detail

/// Statistics of a set of region records.
struct region_stats {
  std::size_t records = 0;           ///< the records analysed
  summary cycles;                    ///< per record (stop - start), overhead subtracted if asked
  summary ns;                        ///< per record, from %globaltimer
  double overhead_cycles = 0;        ///< the empty-region cost that was (or would be) subtracted
  bool overhead_subtracted = false;  ///< analyse() subtracted it from `cycles`
  int sms = 0;                       ///< distinct SMs that recorded
  /// Spread of per-SM median cycles: the lowest and the highest.
  ///@{
  double sm_median_min = 0, sm_median_max = 0;
  ///@}
  double span_ns = 0;  ///< last stop - first start (globaltimer, all records)
};

/// The SM clock the records saw, in MHz: the median over the records of %clock64 cycles per
/// %globaltimer nanosecond (x 1e3); nothing when no record spans both clocks.
CUPROBE_DECL std::optional<double> clock_mhz_of(const std::vector<region_record>& records);

/// Host side: owns the records, hands out views, reads and analyses them.
class region_timer {
 public:
  /// Allocates `capacity` zeroed records (1 .. 2^32 - 1) for regions of this scope.
  CUPROBE_DECL region_timer(region_scope scope, std::size_t capacity);
  /// What the kernel receives (by value).
  CUPROBE_DECL region_timer_view view();
  void reset(cudaStream_t s = nullptr) { buf_.zero(s); }  ///< clears every record (on `s`)
  /// The records written so far, copied to the host, in slot order.
  CUPROBE_DECL std::vector<region_record> read() const;

  /// Median cycles of an empty region with this scope (block of `block_threads`, one block per
  /// SM-sized grid of `blocks`). Kept and reported by analyse().
  CUPROBE_DECL double calibrate_overhead(unsigned blocks = 1, unsigned block_threads = 32);
  /// The calibrated empty-region cost in cycles (0 before calibrate_overhead()).
  double overhead_cycles() const { return overhead_; }

  /// Statistics of the records written so far; cuprobe::error when there are none.
  CUPROBE_DECL region_stats analyse(region_overhead overhead = region_overhead::keep) const;

 private:
  region_scope scope_;
  device_buffer<region_record> buf_;
  double overhead_ = 0;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/region_timer.cuh"
#endif
