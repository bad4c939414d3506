// cuprobe/core/impl/error.cuh: the definitions of cuprobe/core/error.cuh's larger host functions.
// Not a header of its own: error.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::detail {

CUPROBE_DECL std::string one_prefix(std::string m) {
  static const std::string p = "cuprobe: ";
  while (m.compare(0, p.size(), p) == 0) m.erase(0, p.size());
  if (m.compare(0, 9, "cuprobe::") == 0) m.erase(0, 9);
  return p + m;
}

CUPROBE_DECL std::string describe(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

CUPROBE_DECL std::string describe(CUresult r) {
  using name_fn = CUresult (*)(CUresult, const char**);
  static name_fn get_name = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuGetErrorName", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      fn = nullptr;
    return reinterpret_cast<name_fn>(fn);
  }();
  static name_fn get_string = [] {
    void* fn = nullptr;
    cudaDriverEntryPointQueryResult q{};
    if (cudaGetDriverEntryPointByVersion("cuGetErrorString", &fn, 12000, cudaEnableDefault, &q) !=
            cudaSuccess ||
        q != cudaDriverEntryPointSuccess)
      fn = nullptr;
    return reinterpret_cast<name_fn>(fn);
  }();
  const char* name = nullptr;
  const char* text = nullptr;
  if (get_name) get_name(r, &name);
  if (get_string) get_string(r, &text);
  std::string out = name ? name : ("CUresult " + std::to_string(static_cast<int>(r)));
  if (text) out += std::string(" (") + text + ")";
  return out;
}

CUPROBE_DECL std::string no_gpu_sentence(cudaError_t e) {
  return std::string("cuprobe: no CUDA GPU is visible to this process (") + cudaGetErrorName(e) +
         "); run it on a machine with an NVIDIA GPU and its driver, or check "
         "CUDA_VISIBLE_DEVICES.";
}

CUPROBE_DECL bool means_no_gpu(cudaError_t e) {
  return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
         e == cudaErrorInvalidDevice || e == cudaErrorDevicesUnavailable;
}

CUPROBE_DECL bool is_device_fault(int code) {
  for (int c :
       {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorAssert,
        cudaErrorHardwareStackError, cudaErrorIllegalInstruction, cudaErrorMisalignedAddress,
        cudaErrorInvalidAddressSpace, cudaErrorInvalidPc, cudaErrorLaunchTimeout})
    if (code == c) return true;
  return false;
}

CUPROBE_DECL const char* device_fault_advice() {
  return "the kernel faulted and the GPU context is lost; rebuild without NDEBUG (CMake's Debug) "
         "for cuprobe's device checks, which name the fault, or run the program under "
         "compute-sanitizer (memcheck) to find the access";
}

}  // namespace cuprobe::detail
