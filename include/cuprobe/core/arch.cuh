// cuprobe/core/arch.cuh: architecture guards, device side and host side.
//
// Device side: code that needs a minimum architecture (or sm_90a) states it with a static_assert
// that fires, with a sentence, only when the template is instantiated for a target without it:
//
//   template <class T> __device__ void f() {
//     CUPROBE_REQUIRE_SM(900, T, "cuprobe::fence<scope::cluster> needs sm_90 or newer");
//     ...
//   }
//
// The host pass never fires them. Host side: check_kernel_image() turns "no kernel image for this
// device" into a sentence naming the GPU's architecture and those the program was built for.
#pragma once

#include <cuda_runtime_api.h>

/// 1 when device code carries cuprobe's debug checks (address, alignment and size checks that
/// printf a sentence and __trap(), bounded mbarrier waits): NDEBUG undefined (CMake's Debug
/// and unset build types), or CUPROBE_DEBUG defined. Define it to 0 or 1 to decide yourself.
/// The runner flags every measurement of such a build (flag "debug_build").
#if !defined(CUPROBE_PTX_CHECKS)
#if !defined(NDEBUG) || defined(CUPROBE_DEBUG)
#define CUPROBE_PTX_CHECKS 1
#else
#define CUPROBE_PTX_CHECKS 0
#endif
#endif

/// 1 (the default) when Release device code keeps the checks whose failure would be a silently
/// wrong result rather than an error: wgmma::canonical_layout::descriptor_at traps on a tile off
/// 16 bytes or a swizzled base off its repeat (docs/reliability.md lists them and their cost).
/// Define it to 0 to remove them.
#if !defined(CUPROBE_WGMMA_RELEASE_CHECKS)
#define CUPROBE_WGMMA_RELEASE_CHECKS 1
#endif

#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe::arch {

/// True when this translation unit's device code carries debug code: cuprobe's device checks
/// (CUPROBE_PTX_CHECKS) or nvcc -G (__CUDACC_DEBUG__). The runner flags measurements taken
/// from such a build ("debug_build").
#if CUPROBE_PTX_CHECKS || defined(__CUDACC_DEBUG__)
inline constexpr bool debug_device_code = true;
#else
inline constexpr bool debug_device_code = false;
#endif

inline constexpr int host_pass = 1 << 30;  ///< device_arch in the host pass.
/// The architecture of the current device compilation pass (e.g. 900 for sm_90), or
/// `host_pass` in the host pass.
#if defined(__CUDA_ARCH__)
inline constexpr int device_arch = __CUDA_ARCH__;
#else
inline constexpr int device_arch = host_pass;
#endif

/// True in the sm_90a (architecture-specific feature set) pass and in the host pass.
#if defined(__CUDA_ARCH_FEAT_SM90_ALL) || !defined(__CUDA_ARCH__)
inline constexpr bool has_sm90a_features = true;
#else
inline constexpr bool has_sm90a_features = false;
#endif

namespace detail {
template <class>
inline constexpr bool always_false = false;
template <int Min, class T>
inline constexpr bool at_least = (device_arch >= Min) || always_false<T>;
template <class T>
inline constexpr bool sm90a = has_sm90a_features || always_false<T>;
}  // namespace detail

}  // namespace cuprobe::arch

/// Fails compilation of the enclosing template (dependent on T) for targets below sm_MIN/10.
/// The sentence ends with where the architecture is set: a target's CUDA_ARCHITECTURES (90a for
/// the Hopper blocks), since a target that sets none is compiled for the toolkit's default.
#define CUPROBE_REQUIRE_SM(MIN, T, MESSAGE)                                             \
  static_assert(::cuprobe::arch::detail::at_least<MIN, T>, MESSAGE                      \
                "; this code is compiled for an older GPU: set the architecture, e.g. " \
                "CMake's CUDA_ARCHITECTURES 90a for the Hopper blocks")

/// Fails compilation of the enclosing template (dependent on T) unless compiled for sm_90a.
#define CUPROBE_REQUIRE_SM90A(T, MESSAGE)                                               \
  static_assert(::cuprobe::arch::detail::sm90a<T>, MESSAGE                              \
                "; set the architecture to sm_90a exactly: CMake's CUDA_ARCHITECTURES " \
                "90a, or -gencode=arch=compute_90a,code=sm_90a")

namespace cuprobe::arch {

namespace detail {
template <int = 0>
__global__ void image_probe_kernel() {}
CUPROBE_KEEP_KERNEL(image_probe_kernel, image_probe_kernel<0>)  // impl/arch.cuh probes it
}  // namespace detail

/// The architecture (e.g. 90) of the machine code the runtime picked for this program on the
/// current device, or throws cuprobe::error with a sentence when the program holds no code the
/// device can run (built for a newer GPU than the one present).
CUPROBE_DECL int check_kernel_image();

}  // namespace cuprobe::arch

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/arch.cuh"
#endif
