// cuprobe/gen/access.cuh: access-pattern kernels (issue "Access patterns explained by
// sectors"): every warp issues the warp request of a model::access_pattern, region after
// region of an array, as a read (values folded into a sink) or a copy (to the same offsets of a
// second array), so that the bytes fetched per useful byte are the model's
// (model/access.cuh) and ncu's sectors per request can be compared with it.
//
//   namespace gen = cuprobe::gen;
//   cuprobe::model::access_pattern p;  p.width = 4;  p.stride = 2;
//   gen::access_args a;  a.src = in;  a.sink = sink;  a.pattern = p;
//   a.region_bytes = gen::access_region_bytes(p);  a.regions = bytes / a.region_bytes;
//   gen::access_kernel<std::uint32_t, false><<<sms * 8, 256>>>(a);
//
// Region r of the array starts at r x region_bytes; lane l of the warp handling region r reads
// (and copies) the element at region start + pattern.lane_offset(l); warp w of the grid takes
// regions w, w + warps, ... The region is the pattern's span rounded up to 128 bytes, so two
// regions share no line unless the pattern's own offset makes them (the misaligned case: its
// first and last lines are shared with the neighbours, as in a misaligned copy of a large
// array). One instruction per lane per region, U regions in flight per warp: ptx::ld / ptx::st
// with the given cache operators (tests/sass/access.cu pins the width and the count). Not measured
// on a GPU yet: the experiment, its GPU test and the ncu comparison are still to be written.
#pragma once

#include <cstdint>
#include <type_traits>

#include "cuprobe/model/access.cuh"
#include "cuprobe/ptx/cache.cuh"

namespace cuprobe::gen {

struct access_args {
  const unsigned char* src = nullptr;
  unsigned char* dst = nullptr;  ///< copy: the destination array (same offsets)
  std::uint64_t regions = 0;
  std::uint64_t region_bytes = 0;
  model::access_pattern pattern;
  std::uint32_t* sink = nullptr;  ///< read: each thread's fold of what it read (one per thread)
};

/// Bytes from one region's start to the next: the pattern's last byte, rounded up to 128.
inline std::uint64_t access_region_bytes(const model::access_pattern& p) {
  p.validate();
  std::uint64_t end = 0;
  for (unsigned l = 0; l < model::warp_lanes; ++l) {
    const std::uint64_t e = p.lane_offset(l) + p.width;
    end = e > end ? e : end;
  }
  return (end + model::line_bytes - 1) / model::line_bytes * model::line_bytes;
}

namespace detail {
template <class T>
__device__ __forceinline__ std::uint32_t access_fold(const T& v) {
  if constexpr (sizeof(T) <= 4) {
    return static_cast<std::uint32_t>(v);
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    return static_cast<std::uint32_t>(v) ^ static_cast<std::uint32_t>(v >> 32);
  } else {
    return v.x ^ v.y ^ v.z ^ v.w;
  }
}
}  // namespace detail

/// T: the lane's element (std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, uint4), of
/// sizeof(T) == pattern.width bytes; Copy: read and store (else read and fold into the sink);
/// U: regions per warp in flight (U loads issued before their values are used).
template <class T, bool Copy, int U = 4, class Load = ptx::cache::none,
          class Store = ptx::cache::wb>
__global__ void access_kernel(access_args a) {
  static_assert(
      sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16,
      "access_kernel: the element is 1, 2, 4, 8 or 16 bytes");
  static_assert(U >= 1 && U <= 16, "access_kernel: U is 1 .. 16");
  const unsigned lane = threadIdx.x % model::warp_lanes;
  const std::uint64_t warp = (blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x) / 32;
  const std::uint64_t warps = gridDim.x * std::uint64_t(blockDim.x) / 32;
  const std::uint64_t lane_off = a.pattern.lane_offset(lane);
  std::uint32_t acc = 0;
  for (std::uint64_t r = warp; r < a.regions; r += U * warps) {
    T v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (r + u * warps < a.regions)
        v[u] = ptx::ld<Load>(
            reinterpret_cast<const T*>(a.src + (r + u * warps) * a.region_bytes + lane_off));
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (r + u * warps < a.regions) {
        if constexpr (Copy)
          ptx::st<Store>(reinterpret_cast<T*>(a.dst + (r + u * warps) * a.region_bytes + lane_off),
                         v[u]);
        else
          acc ^= detail::access_fold(v[u]);
      }
  }
  if constexpr (!Copy) a.sink[blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x] = acc;
}

}  // namespace cuprobe::gen
