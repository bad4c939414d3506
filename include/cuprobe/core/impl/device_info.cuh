// cuprobe/core/impl/device_info.cuh: the definitions of cuprobe/core/device_info.cuh's larger host
// functions. Not a header of its own: device_info.cuh includes it at its end in the header-only
// mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL int device_count() noexcept {
  int n = 0;
  if (cudaGetDeviceCount(&n) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  return n;
}

CUPROBE_DECL void require_gpu() {
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess || n == 0) {
    (void)cudaGetLastError();
    const cudaError_t why = e == cudaSuccess ? cudaErrorNoDevice : e;
    throw error(detail::no_gpu_sentence(why), static_cast<int>(why));
  }
}

CUPROBE_DECL std::string device_info::compute_capability() const {
  return std::to_string(cc_major) + "." + std::to_string(cc_minor);
}

CUPROBE_DECL double device_info::nominal_dram_bytes_per_s() const {
  return 2.0 * memory_clock_khz * 1e3 * (memory_bus_width_bits / 8.0);
}

CUPROBE_DECL std::string device_info::version_text(int v) {
  return std::to_string(v / 1000) + "." + std::to_string((v % 1000) / 10);
}

CUPROBE_DECL device_info device_info::query(int ordinal) {
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

CUPROBE_DECL std::optional<std::size_t> device_info::query_allocation_granularity(int ordinal) {
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

CUPROBE_DECL std::string device_info::format_uuid(const cudaUUID_t& u) {
  const auto* b = reinterpret_cast<const unsigned char*>(u.bytes);
  char s[64];
  std::snprintf(s, sizeof s,
                "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0],
                b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13],
                b[14], b[15]);
  return s;
}

}  // namespace cuprobe
