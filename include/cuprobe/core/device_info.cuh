// cuprobe/core/device_info.cuh: what the GPU is, read from the runtime.
//
//   auto dev = cuprobe::device_info::query();      // current device; throws without a GPU
//   std::printf("%s, %d SMs, %.1f MB L2\n", dev.name.c_str(), dev.sm_count, dev.l2_bytes / 1e6);
//
// Without a GPU, query() throws cuprobe::error with one sentence that says so (and what to do).
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <cstdio>
#include <optional>
#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// Number of visible CUDA devices; 0 (not an exception) when there is no GPU or no driver.
CUPROBE_DECL int device_count() noexcept;

/// Throws cuprobe::error with one clear sentence when no CUDA GPU is visible.
CUPROBE_DECL void require_gpu();

/// Static facts about one device (what does not change while a program runs).
struct device_info {
  int ordinal = 0;         ///< the device number (CUDA's ordinal)
  std::string name;        ///< the product name, e.g. "NVIDIA H200"
  std::string uuid;        ///< "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx", as nvidia-smi prints it
  std::string pci_bus_id;  ///< domain:bus:device.function
  /// The compute capability, major and minor (9 and 0 for sm_90).
  ///@{
  int cc_major = 0, cc_minor = 0;
  ///@}
  int sm_count = 0;                         ///< streaming multiprocessors
  int max_threads_per_sm = 0;               ///< most resident threads per SM
  int max_blocks_per_sm = 0;                ///< most resident blocks per SM
  int regs_per_sm = 0;                      ///< 32-bit registers per SM
  int warp_size = 0;                        ///< threads per warp
  std::size_t l2_bytes = 0;                 ///< L2 cache size
  std::size_t persisting_l2_max_bytes = 0;  ///< largest L2 set-aside for persisting accesses
  std::size_t smem_per_block = 0;           ///< default limit per block (48 KB)
  std::size_t smem_per_block_optin = 0;     ///< limit after cudaFuncSetAttribute opt-in
  std::size_t smem_per_sm = 0;              ///< shared memory per SM
  std::size_t global_mem_bytes = 0;         ///< device memory size
  int memory_bus_width_bits = 0;            ///< width of the memory bus
  int memory_clock_khz = 0;                 ///< peak memory clock the driver reports
  int sm_clock_khz = 0;                     ///< peak SM clock the driver reports
  bool ecc_enabled = false;                 ///< ECC is on for device memory
  int driver_version = 0;                   ///< e.g. 13000 for CUDA 13.0 driver API level
  int runtime_version = 0;                  ///< e.g. 13000
  /// The driver's minimum granularity of a device allocation (cuMemGetAllocationGranularity):
  /// the large page size, 2 MiB on sm_70..sm_90; unset when the driver does not say.
  std::optional<std::size_t> allocation_granularity;

  /// "9.0"
  CUPROBE_DECL std::string compute_capability() const;
  /// 90 for sm_90
  int sm() const { return cc_major * 10 + cc_minor; }
  /// Nominal DRAM bandwidth: bus width x memory clock x 2 (double data rate), in bytes/s.
  CUPROBE_DECL double nominal_dram_bytes_per_s() const;

  /// A CUDA version number as text: 13000 -> "13.0".
  CUPROBE_DECL static std::string version_text(int v);

  /// Reads everything above for device `ordinal` (-1: the current device).
  CUPROBE_DECL static device_info query(int ordinal = -1);

  /// cuMemGetAllocationGranularity (minimum, pinned device memory) through the runtime's
  /// driver entry point (nothing links against libcuda); unset when unavailable.
  CUPROBE_DECL static std::optional<std::size_t> query_allocation_granularity(int ordinal);

  /// A UUID as nvidia-smi prints it: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
  CUPROBE_DECL static std::string format_uuid(const cudaUUID_t& u);
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/device_info.cuh"
#endif
