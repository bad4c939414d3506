// cuprobe/core/launch.cuh: launch shapes, kernel attributes and occupancy.
//
//   auto a = cuprobe::kernel_attributes::of(my_kernel<float>, /*block=*/256);
//   std::printf("%d regs, %d blocks/SM, occupancy %.0f %%\n", a.registers,
//               a.max_active_blocks_per_sm, 100 * a.occupancy);
#pragma once

#include <cuda_runtime_api.h>

#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// How a benchmark repeats its work: `launches` (one pass over the data per launch; each
/// sample pays the launch once per pass) or `in_kernel` (the kernel makes several passes in one
/// launch). The runner divides samples accordingly; gen/ kernels pick their loop from it.
enum class loop_mode { launches, in_kernel };
CUPROBE_DECL const char* to_string(loop_mode m);  ///< "launches" or "in_kernel".

/// Grid, block and dynamic shared memory of one launch.
struct launch_shape {
  dim3 grid{1, 1, 1};            ///< blocks per grid
  dim3 block{1, 1, 1};           ///< threads per block
  std::size_t dynamic_smem = 0;  ///< dynamic shared memory per block, bytes

  CUPROBE_DECL unsigned long long threads() const;  ///< Threads in the whole launch.
  unsigned block_threads() const { return block.x * block.y * block.z; }  ///< Threads per block.
  /// Blocks in the grid.
  unsigned long long blocks() const { return 1ull * grid.x * grid.y * grid.z; }
};

/// What the compiler and the occupancy calculator say of a kernel at a block size.
struct kernel_attributes {
  int registers = 0;                 ///< per thread
  std::size_t static_smem = 0;       ///< bytes per block
  std::size_t dynamic_smem = 0;      ///< bytes per block, as launched
  std::size_t local_bytes = 0;       ///< per thread (spills, local arrays)
  std::size_t const_bytes = 0;       ///< constant memory, bytes
  int max_threads_per_block = 0;     ///< largest block the kernel can launch with
  int binary_version = 0;            ///< e.g. 90: the SASS the runtime picked
  int ptx_version = 0;               ///< e.g. 90: the PTX the SASS was compiled from
  int block_threads = 0;             ///< the block size these figures are for
  int max_active_blocks_per_sm = 0;  ///< resident blocks per SM at this block size
  double occupancy = 0;              ///< active warps / max warps per SM, 0..1

  /// The attributes of `kernel` at `block_threads` threads and `dynamic_smem` bytes per block.
  template <class Kernel>
  static kernel_attributes of(Kernel* kernel, int block_threads, std::size_t dynamic_smem = 0) {
    cudaFuncAttributes f{};
    CUPROBE_CHECK(cudaFuncGetAttributes(&f, reinterpret_cast<const void*>(kernel)));
    kernel_attributes a;
    a.registers = f.numRegs;
    a.static_smem = f.sharedSizeBytes;
    a.dynamic_smem = dynamic_smem;
    a.local_bytes = f.localSizeBytes;
    a.const_bytes = f.constSizeBytes;
    a.max_threads_per_block = f.maxThreadsPerBlock;
    a.binary_version = f.binaryVersion;
    a.ptx_version = f.ptxVersion;
    a.block_threads = block_threads;
    CUPROBE_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &a.max_active_blocks_per_sm, reinterpret_cast<const void*>(kernel), block_threads,
        dynamic_smem));
    int dev = 0, max_threads = 0;
    CUPROBE_CHECK(cudaGetDevice(&dev));
    CUPROBE_CHECK(
        cudaDeviceGetAttribute(&max_threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    const int warps = (block_threads + 31) / 32;
    a.occupancy = max_threads ? double(a.max_active_blocks_per_sm * warps * 32) / max_threads : 0;
    return a;
  }
};

/// Blocks per SM x SMs: a grid that fills the device once at `blocks_per_sm`.
inline unsigned grid_for(int sm_count, int blocks_per_sm) {
  return static_cast<unsigned>(sm_count * blocks_per_sm);
}

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/launch.cuh"
#endif
