// cuprobe/core/error.cuh: cuprobe::error and CUPROBE_CHECK for runtime and driver API results.
//
//   CUPROBE_CHECK(cudaMalloc(&p, bytes));   // throws cuprobe::error on failure
//   CUPROBE_CHECK(cuTensorMapEncodeTiled(...));   // driver API (CUresult) too
//
// The message names the failed call's text, file:line, the error name and its description.
// Driver error names are looked up through cudaGetDriverEntryPointByVersion, so nothing links
// against libcuda.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <stdexcept>
#include <string>
#include <type_traits>

namespace cuprobe {

namespace detail {
/// `m` with exactly one "cuprobe: " in front: a repeated prefix is dropped, and a message that
/// starts with a qualified name ("cuprobe::hopper::launch: ...") keeps the name without the
/// namespace ("cuprobe: hopper::launch: ...").
inline std::string one_prefix(std::string m) {
  static const std::string p = "cuprobe: ";
  while (m.compare(0, p.size(), p) == 0) m.erase(0, p.size());
  if (m.compare(0, 9, "cuprobe::") == 0) m.erase(0, 9);
  return p + m;
}
}  // namespace detail

/// Every failure cuprobe reports on the host is a cuprobe::error. Its message starts with one
/// "cuprobe: " however it was composed.
class error : public std::runtime_error {
 public:
  /// An error with message `what` (given one "cuprobe: " prefix) and, where given, the CUDA
  /// error code behind it.
  ///@{
  explicit error(const std::string& what) : std::runtime_error(detail::one_prefix(what)) {}
  error(const std::string& what, int code)
      : std::runtime_error(detail::one_prefix(what)), code_(code) {}
  ///@}
  /// The CUDA error code behind the failure (0 when the failure is not a CUDA error).
  int code() const noexcept { return code_; }

 private:
  int code_ = 0;
};

namespace detail {

inline std::string where(const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line);
}

inline std::string describe(cudaError_t e) {
  return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")";
}

inline std::string describe(CUresult r) {
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

/// The sentence every "no GPU" failure gives, wherever it is found (require_gpu, and any CUDA
/// call that fails with no device or no driver).
inline std::string no_gpu_sentence(cudaError_t e) {
  return std::string("cuprobe: no CUDA GPU is visible to this process (") + cudaGetErrorName(e) +
         "); run it on a machine with an NVIDIA GPU and its driver, or check "
         "CUDA_VISIBLE_DEVICES.";
}

inline bool means_no_gpu(cudaError_t e) {
  return e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver ||
         e == cudaErrorInvalidDevice || e == cudaErrorDevicesUnavailable;
}

/// True for the CUDA errors a kernel's fault leaves behind (an illegal address or instruction,
/// a trap, an assert, a misaligned or out-of-space access, a launch failure): the context is
/// lost, and every later call of the process fails with the same error.
inline bool is_device_fault(int code) {
  for (int c :
       {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorAssert,
        cudaErrorHardwareStackError, cudaErrorIllegalInstruction, cudaErrorMisalignedAddress,
        cudaErrorInvalidAddressSpace, cudaErrorInvalidPc, cudaErrorLaunchTimeout})
    if (code == c) return true;
  return false;
}

/// What to do after a device fault, as the end of a sentence.
inline const char* device_fault_advice() {
  return "the kernel faulted and the GPU context is lost; rebuild without NDEBUG (CMake's Debug) "
         "for cuprobe's device checks, which name the fault, or run the program under "
         "compute-sanitizer (memcheck) to find the access";
}

inline bool failed(cudaError_t e) { return e != cudaSuccess; }
inline bool failed(CUresult r) { return r != CUDA_SUCCESS; }

template <class Code>
void check(Code code, const char* call, const char* file, int line) {
  if (!failed(code)) return;
  if constexpr (std::is_same_v<Code, cudaError_t>) {
    (void)cudaGetLastError();  // clear sticky-free errors
    // Without a GPU (or driver) every entry point says so in the same words, not in the
    // driver's ("CUDA driver version is insufficient ..."), and names the call.
    int n = 0;
    if (means_no_gpu(code) && (cudaGetDeviceCount(&n) != cudaSuccess || n == 0)) {
      (void)cudaGetLastError();
      throw error(no_gpu_sentence(code) + " The call: " + call + ".", static_cast<int>(code));
    }
  }
  throw error(
      std::string("cuprobe: ") + call + " failed at " + where(file, line) + ": " + describe(code),
      static_cast<int>(code));
}

}  // namespace detail

/// Throws cuprobe::error with `message` when `condition` is false. For bad arguments, checked
/// before any undefined behaviour can happen.
inline void require(bool condition, const std::string& message) {
  if (!condition) throw error(message);
}

/// True once a wait on the GPU timed out in this process (core/watchdog.cuh): the kernel
/// still runs, the context cannot be used again, and cuprobe's RAII types free nothing on
/// destruction (a cudaFree would wait for the stuck kernel).
inline bool& gpu_context_lost() {
  static bool lost = false;
  return lost;
}

}  // namespace cuprobe

/// Checks a CUDA runtime (cudaError_t) or driver (CUresult) result; throws cuprobe::error.
#define CUPROBE_CHECK(call) ::cuprobe::detail::check((call), #call, __FILE__, __LINE__)

/// Checks the launch just made (cudaGetLastError) and names the kernel in the message.
#define CUPROBE_CHECK_LAUNCH(what) \
  ::cuprobe::detail::check(cudaGetLastError(), "launch of " what, __FILE__, __LINE__)
