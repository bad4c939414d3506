// cuprobe/core/impl/arch.cuh: the definitions of cuprobe/core/arch.cuh's larger host functions. Not
// a header of its own: arch.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::arch {

CUPROBE_DECL int check_kernel_image() {
  cudaFuncAttributes attr{};
  cudaError_t e = cudaFuncGetAttributes(&attr, detail::image_probe_kernel<0>);
  if (e == cudaErrorNoKernelImageForDevice || e == cudaErrorInvalidDeviceFunction ||
      e == cudaErrorUnsupportedPtxVersion) {
    (void)cudaGetLastError();
    int dev = 0, major = 0, minor = 0;
    cudaGetDevice(&dev);
    cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, dev);
    cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, dev);
    throw error("cuprobe: this program holds no code for the GPU present (compute capability " +
                    std::to_string(major) + "." + std::to_string(minor) +
                    "); rebuild it for that GPU, e.g. -DCMAKE_CUDA_ARCHITECTURES=" +
                    std::to_string(major * 10 + minor) + " (" + cudaGetErrorName(e) + ")",
                static_cast<int>(e));
  }
  CUPROBE_CHECK(e);
  return attr.binaryVersion;
}

}  // namespace cuprobe::arch
