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

namespace cuprobe {

/// Number of visible CUDA devices; 0 (not an exception) when there is no GPU or no driver.
inline int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

/// Throws cuprobe::error with one clear sentence when no CUDA GPU is visible.
inline void require_gpu() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    const cudaError_t why = e == cudaSuccess ? cudaErrorNoDevice : e;
    throw error(detail::no_gpu_sentence(why), static_cast<int>(why));
  }
}

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
  std::string compute_capability() const {
    return std::to_string(cc_major) + "." + std::to_string(cc_minor);
  }
  /// 90 for sm_90
  int sm() const { return cc_major * 10 + cc_minor; }
  /// Nominal DRAM bandwidth: bus width x memory clock x 2 (double data rate), in bytes/s.
  double nominal_dram_bytes_per_s() const {
    return 2.0 * memory_clock_khz * 1e3 * (memory_bus_width_bits / 8.0);
  }

  /// A CUDA version number as text: 13000 -> "13.0".
  static std::string version_text(int v) {
    return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
  }

  /// Reads everything above for device `ordinal` (-1: the current device).
  static device_info query(int ordinal = -1) {
    require_gpu();
    device_info d;
    if (ordinal < 0) CUPROBE_CHECK(cudaGetDevice(&ordinal));
    d.ordinal = ordinal;
    cudaDeviceProp p{};
    CUPROBE_CHECK(cudaGetDeviceProperties(&p, ordinal));
    d.name = p.name;
    d.uuid = format_uuid(p.uuid);
    char bus[32] = {};
    CUPROBE_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, ordinal));
    d.pci_bus_id = bus;
    d.cc_major = p.major;
    d.cc_minor = p.minor;
    d.sm_count = p.multiProcessorCount;
    d.max_threads_per_sm = p.maxThreadsPerMultiProcessor;
    d.max_blocks_per_sm = p.maxBlocksPerMultiProcessor;
    d.regs_per_sm = p.regsPerMultiprocessor;
    d.warp_size = p.warpSize;
    d.l2_bytes = static_cast<std::size_t>(p.l2CacheSize);
    d.persisting_l2_max_bytes = static_cast<std::size_t>(p.persistingL2CacheMaxSize);
    d.smem_per_block = p.sharedMemPerBlock;
    d.smem_per_block_optin = p.sharedMemPerBlockOptin;
    d.smem_per_sm = p.sharedMemPerMultiprocessor;
    d.global_mem_bytes = p.totalGlobalMem;
    d.memory_bus_width_bits = p.memoryBusWidth;
    CUPROBE_CHECK(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
    CUPROBE_CHECK(cudaDeviceGetAttribute(&d.sm_clock_khz, cudaDevAttrClockRate, ordinal));
    d.ecc_enabled = p.ECCEnabled != 0;
    CUPROBE_CHECK(cudaDriverGetVersion(&d.driver_version));
    CUPROBE_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
    d.allocation_granularity = query_allocation_granularity(ordinal);
    return d;
  }

  /// cuMemGetAllocationGranularity (minimum, pinned device memory) through the runtime's
  /// driver entry point (nothing links against libcuda); unset when unavailable.
  static std::optional<std::size_t> query_allocation_granularity(int ordinal) {
    using fn_t =
        CUresult (*)(std::size_t*, const CUmemAllocationProp*, CUmemAllocationGranularity_flags);
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuMemGetAllocationGranularity", &fn, 12000,
                                         cudaEnableDefault, &q) != cudaSuccess ||
        q != cudaDriverEntryPointSuccess || !fn) {
      (void)cudaGetLastError();
      return std::nullopt;
    }
    CUmemAllocationProp prop{};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = ordinal;
    std::size_t g = 0;
    if (reinterpret_cast<fn_t>(fn)(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) != CUDA_SUCCESS ||
        g == 0)
      return std::nullopt;
    return g;
  }

  /// A UUID as nvidia-smi prints it: "GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx".
  static std::string format_uuid(const cudaUUID_t& u) {
    const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
    char s[64];
    std::snprintf(s, sizeof s,
                  "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                  b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                  b[14], b[15]);
    return s;
  }
};

}  // namespace cuprobe
