// cuprobe/core/error.cuh: cuprobe::error and CUPROBE_CHECK for runtime and driver API results.
//
//   CUPROBE_CHECK(cudaMalloc(&p, bytes));   // throws cuprobe::error on failure
//   CUPROBE_CHECK(cuTensorMapEncodeTiled(...));   // driver API (CUresult) too
//
// The message names the failed call's text, file:line, the error name and its description.
// Driver error names are looked up through cudaGetDriverEntryPointByVersion, so nothing links
// against libcuda.
#pragma once
#include "cuprobe/core/linkage.cuh"

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
CUPROBE_DECL std::string one_prefix(std::string m);
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

CUPROBE_DECL std::string describe(cudaError_t e);

CUPROBE_DECL std::string describe(CUresult r);

/// The sentence every "no GPU" failure gives, wherever it is found (require_gpu, and any CUDA
/// call that fails with no device or no driver).
CUPROBE_DECL std::string no_gpu_sentence(cudaError_t e);

CUPROBE_DECL bool means_no_gpu(cudaError_t e);

/// True for the CUDA errors a kernel's fault leaves behind (an illegal address or instruction,
/// a trap, an assert, a misaligned or out-of-space access, a launch failure): the context is
/// lost, and every later call of the process fails with the same error.
CUPROBE_DECL bool is_device_fault(int code);

/// What to do after a device fault, as the end of a sentence.
CUPROBE_DECL const char* device_fault_advice();

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

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/error.cuh"
#endif
