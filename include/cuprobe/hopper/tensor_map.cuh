// cuprobe/hopper/tensor_map.cuh: make a CUtensorMap (TMA descriptor, tiled mode) from a checked
// tensor_map_spec, through the driver's cuTensorMapEncodeTiled, without linking libcuda.
//
//   using namespace cuprobe::hopper;   // __global__ void k(const __grid_constant__ CUtensorMap a);
//   cuprobe::device_buffer<__half> a(4096 * 1024);
//   auto spec = tensor_map_spec::matrix(a.data(), 4096, 1024, 128, 64, swizzle_mode::b128);
//   tensor_map tm = make_tensor_map(spec.with_l2_promotion(l2_promotion_mode::b256));
//   k<<<grid, block, smem>>>(tm.get());      // the 128-byte CUtensorMap, by value
//
// Choices:
// - make_tensor_map() runs tensor_map_spec::check() first: a spec outside the rules throws
//   cuprobe::error naming the rule, the value and the limit, and the driver is never called.
//   When the driver still refuses, the error (CUPROBE_CHECK's CUresult path: name and
//   description) says that cuprobe's checker missed a rule, and prints the spec.
// - cuTensorMapEncodeTiled is resolved once with cudaGetDriverEntryPointByVersion(..., 12000),
//   like cuGetErrorName in core/error.cuh, so nothing links against libcuda.
// - tensor_map holds the CUtensorMap (128 bytes, 128-byte aligned) and its spec. Kernels take it
//   as a `const __grid_constant__ CUtensorMap` parameter (parameter space, &param for the TMA
//   instructions, no copy to global memory: the programming guide's way); tm.get() passes it.
// - encode_tiled_unchecked() exposes the bare driver call for tests that compare the checker
//   with the driver; nothing else should use it.
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/hopper/tensor_map_spec.cuh"

namespace cuprobe::hopper {

static_assert(sizeof(CUtensorMap) == 128 && alignof(CUtensorMap) >= 64,
              "cuTensorMapEncodeTiled needs a 128-byte CUtensorMap aligned to 64 bytes");

namespace tmap_detail {
using encode_tiled_fn = decltype(&::cuTensorMapEncodeTiled);

struct encode_tiled_entry {
  encode_tiled_fn fn = nullptr;
  cudaError_t error = cudaSuccess;
  cudaDriverEntryPointQueryResult query = cudaDriverEntryPointSuccess;
};

inline const encode_tiled_entry& encode_tiled_lookup() {
  static const encode_tiled_entry e = [] {
    encode_tiled_entry r;
    void* fn = nullptr;
    r.error = cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &fn, 12000,
                                               cudaEnableDefault, &r.query);
    if (r.error != cudaSuccess)
      (void)cudaGetLastError();
    else if (r.query == cudaDriverEntryPointSuccess)
      r.fn = reinterpret_cast<encode_tiled_fn>(fn);
    return r;
  }();
  return e;
}

inline const char* query_name(cudaDriverEntryPointQueryResult q) {
  return q == cudaDriverEntryPointSuccess               ? "found"
         : q == cudaDriverEntryPointSymbolNotFound      ? "cudaDriverEntryPointSymbolNotFound"
         : q == cudaDriverEntryPointVersionNotSufficent ? "cudaDriverEntryPointVersionNotSufficent"
                                                        : "unknown query result";
}
}  // namespace tmap_detail

/// The driver's cuTensorMapEncodeTiled (the CUDA 12.0 ABI), resolved once. Throws
/// cuprobe::error when there is no driver or it has no such entry point.
inline tmap_detail::encode_tiled_fn encode_tiled_function() {
  const auto& e = tmap_detail::encode_tiled_lookup();
  if (e.error != cudaSuccess)
    ::cuprobe::detail::check(e.error,
                             "cudaGetDriverEntryPointByVersion(\"cuTensorMapEncodeTiled\", 12000)",
                             __FILE__, __LINE__);
  require(e.fn != nullptr,
          std::string("the CUDA driver has no cuTensorMapEncodeTiled of version 12000 (") +
              tmap_detail::query_name(e.query) +
              "); tensor maps need a driver of CUDA 12.0 or newer and a GPU of sm_90 or newer.");
  return e.fn;
}

/// Encodes `spec` into `out` with the driver only, WITHOUT cuprobe's checks, and returns the
/// driver's answer. For tests that compare the checker with the driver; use make_tensor_map().
inline CUresult encode_tiled_unchecked(const tensor_map_spec& s, CUtensorMap& out) {
  const auto encode = encode_tiled_function();
  // Arrays longer than any legal rank, so that a bad rank cannot make the driver read past them.
  cuuint64_t dims[8] = {}, strides[8] = {};
  cuuint32_t box[8] = {}, estrides[8] = {};
  for (unsigned i = 0; i < 5; ++i) {
    dims[i] = s.dims[i];
    box[i] = s.box[i];
    estrides[i] = s.element_strides[i];
    if (i < 4) strides[i] = s.strides[i];
  }
  const cuuint32_t rank = std::min<std::uint32_t>(s.rank, 8);
  auto call = [&] {
    out = CUtensorMap{};
    return encode(&out, static_cast<CUtensorMapDataType>(s.type), rank,
                  const_cast<void*>(s.address), dims, strides, box, estrides,
                  static_cast<CUtensorMapInterleave>(s.interleave),
                  static_cast<CUtensorMapSwizzle>(s.swizzle),
                  static_cast<CUtensorMapL2promotion>(s.l2_promotion),
                  static_cast<CUtensorMapFloatOOBfill>(s.oob_fill));
  };
  CUresult r = call();
  if (r == CUDA_ERROR_NOT_INITIALIZED || r == CUDA_ERROR_INVALID_CONTEXT) {
    // No context yet (nothing allocated): make the runtime's primary context current, retry.
    if (cudaFree(nullptr) != cudaSuccess) (void)cudaGetLastError();
    r = call();
  }
  return r;
}

/// An encoded tiled tensor map and the spec it came from. Made by make_tensor_map().
class tensor_map {
 public:
  /// The descriptor, for a `const __grid_constant__ CUtensorMap` kernel parameter.
  const CUtensorMap& get() const noexcept { return map_; }
  operator const CUtensorMap&() const noexcept { return map_; }   ///< The descriptor (get()).
  const tensor_map_spec& spec() const noexcept { return spec_; }  ///< The spec it was encoded from.
  std::uint64_t bytes_per_box() const { return spec_.bytes_per_box(); }  ///< Bytes one box copies.
  /// The shared-memory alignment a box needs.
  unsigned smem_alignment() const { return spec_.smem_alignment(); }

 private:
  explicit tensor_map(const tensor_map_spec& s) : spec_(s) {}
  friend tensor_map make_tensor_map(const tensor_map_spec&, const check_limits&);

  CUtensorMap map_{};
  tensor_map_spec spec_;
};
static_assert(alignof(tensor_map) >= 64, "a tensor_map keeps its CUtensorMap 64-byte aligned");

/// Checks `spec` (throws cuprobe::error on a broken rule, before the driver is called), then
/// encodes it with cuTensorMapEncodeTiled (throws cuprobe::error on a driver error).
inline tensor_map make_tensor_map(const tensor_map_spec& spec,
                                  const check_limits& limits = check_limits::current()) {
  spec.check(limits);
  note_block_in_use(block_in_use::tensor_copies);  // a hang sentence then names its faults
  tensor_map t(spec);
  const CUresult r = encode_tiled_unchecked(spec, t.map_);
  if (r != CUDA_SUCCESS) {
    try {
      ::cuprobe::detail::check(r, "cuTensorMapEncodeTiled", __FILE__, __LINE__);
    } catch (const error& e) {
      throw error(std::string(e.what()) +
                      "; cuprobe's checker accepted this spec, so it misses a rule of this "
                      "driver:\n" +
                      describe(spec),
                  e.code());
    }
  }
  return t;
}

/// A readable multi-line description of an encoded map (its spec, and that it is encoded).
inline std::string describe(const tensor_map& t) {
  return "CUtensorMap, 128 B, encoded by cuTensorMapEncodeTiled from this " + describe(t.spec());
}
/// Streams describe(t) (a template on the stream: `<ostream>` is the caller's include).
template <class OStream>
OStream& operator<<(OStream& os, const tensor_map& t) {
  os << describe(t);
  return os;
}

}  // namespace cuprobe::hopper
