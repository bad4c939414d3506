// cuprobe_suite/kernels/access.cuh: access-pattern kernels: every warp issues the warp
// request of a model::access_pattern, region after region of an array, as a read (values summed
// into a sink) or a copy (to the same offsets of a second array), so that the bytes fetched per
// useful byte are the model's (model/access.cuh) and ncu's sectors per request can be compared with
// it.
//
//   namespace kernels = cuprobe::suite::kernels;
//   cuprobe::model::access_pattern p;  p.width = 4;  p.stride = 2;
//   kernels::access_args a;  a.src = in;  a.sink = sink;  a.pattern = p;
//   a.layout = kernels::access_layout_of(p);  a.regions = a.layout.regions_in(bytes);
//   kernels::access_kernel<std::uint32_t, false><<<sms * 8, 256>>>(a);
//
// Lane l of the warp handling region r reads (and copies) the element at
// layout.region_start(r) + pattern.lane_offset(l); warp w of the grid takes regions w,
// w + warps, ..., `passes` times over. No two regions share a 32-byte sector, so every request
// fetches the model's sectors at every level (L1, L2, DRAM) and nothing another request fetched:
//   strided, permuted  region r starts at r x region_bytes, the pattern's last byte rounded up to
//                      128 (access_region_bytes): a misaligned pattern's last line is its own;
//   gather             the pattern spans `lines` pages of 4 KiB; 32 regions share them, region
//                      r taking the 128-byte slot r mod 32 of every page of group r / 32
//                      (group_bytes = lines x 4 KiB), so the array is tiled densely.
// One instruction per lane per region, U regions in flight per warp: ptx::ld / ptx::st with the
// given cache operators (tests/sass/access.cu pins the width and the count). The array is
// filled by device_buffer<std::uint32_t>::fill_random; access_element_fold is the host twin of
// what a lane adds to its sink, access_copy_check_kernel compares a copy with its source.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/model/access.cuh"
#include "cuprobe/ptx/cache.cuh"

namespace cuprobe::suite::kernels {

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

/// Where region r starts: groups of 2^group_shift regions, slot_bytes apart inside a group.
struct access_layout {
  std::uint64_t group_bytes = 0;  ///< bytes of one group (the array is whole groups)
  unsigned group_shift = 0;       ///< log2 of the regions per group
  std::uint64_t slot_bytes = 0;   ///< bytes between the regions of a group

  __host__ __device__ constexpr std::uint64_t region_start(std::uint64_t r) const {
    return (r >> group_shift) * group_bytes +
           (r & ((std::uint64_t(1) << group_shift) - 1)) * slot_bytes;
  }
  constexpr std::uint64_t regions_per_group() const { return std::uint64_t(1) << group_shift; }
  /// Regions of the whole groups that fit in `bytes`.
  constexpr std::uint64_t regions_in(std::uint64_t bytes) const {
    return group_bytes == 0 ? 0 : bytes / group_bytes * regions_per_group();
  }
  /// Bytes of the whole groups that `regions` regions take.
  constexpr std::uint64_t bytes_of(std::uint64_t regions) const {
    return (regions + regions_per_group() - 1) / regions_per_group() * group_bytes;
  }
};

/// The layout of `p` (see the file comment); a gather whose lanes and offset overrun their
/// 128-byte slot is refused.
inline access_layout access_layout_of(const model::access_pattern& p) {
  p.validate();
  access_layout l;
  if (p.shape != model::access_shape::gather) {
    l.group_bytes = access_region_bytes(p);
    return l;
  }
  const unsigned per_line = (model::warp_lanes + p.lines - 1) / p.lines;
  require(p.offset + std::uint64_t(per_line) * p.width <= model::line_bytes,
          "access_layout: a gather with offset " + std::to_string(p.offset) + " puts its " +
              std::to_string(per_line) + " lanes of " + std::to_string(p.width) +
              " bytes past the 128-byte slot of its line");
  l.group_bytes = std::uint64_t(p.lines) * model::gather_line_distance;
  l.group_shift = 5;  // 4096 / 128 = 32 slots per page
  l.slot_bytes = model::line_bytes;
  return l;
}

/// Distinct 32-byte sectors one group's requests touch (regions never share one).
inline std::uint64_t access_sectors_per_group(const model::access_pattern& p) {
  return model::warp_sectors(p).sectors * access_layout_of(p).regions_per_group();
}

struct access_args {
  const unsigned char* src = nullptr;
  unsigned char* dst = nullptr;  ///< copy: the destination array (same offsets)
  std::uint64_t regions = 0;
  access_layout layout;
  std::uint32_t passes = 1;  ///< times each warp walks its regions
  model::access_pattern pattern;
  std::uint32_t* sink = nullptr;  ///< read: each thread's sum of what it read (one per thread)
};

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
/// sizeof(T) == pattern.width bytes; Copy: read and store (else read and add into the sink);
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
  for (std::uint32_t pass = 0; pass < a.passes; ++pass) {
    for (std::uint64_t r = warp; r < a.regions; r += U * warps) {
      T v[U];
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (r + u * warps < a.regions)
          v[u] = ptx::ld<Load>(
              reinterpret_cast<const T*>(a.src + a.layout.region_start(r + u * warps) + lane_off));
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (r + u * warps < a.regions) {
          if constexpr (Copy)
            ptx::st<Store>(
                reinterpret_cast<T*>(a.dst + a.layout.region_start(r + u * warps) + lane_off),
                v[u]);
          else
            acc += detail::access_fold(v[u]);
        }
    }
  }
  if constexpr (!Copy) a.sink[blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x] = acc;
}

/// Counts (into *mismatches) the lanes whose element of `dst` differs from the same bytes of
/// `src`: every element a copy of `a` wrote is compared, byte by byte.
template <int = 0>
__global__ void access_copy_check_kernel(access_args a, unsigned long long* mismatches) {
  const std::uint64_t n = a.regions * model::warp_lanes;
  const std::uint64_t step = gridDim.x * std::uint64_t(blockDim.x);
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n; i += step) {
    const std::uint64_t at =
        a.layout.region_start(i / model::warp_lanes) + a.pattern.lane_offset(i % model::warp_lanes);
    bool same = true;
    for (unsigned b = 0; b < a.pattern.width; ++b) same = same && a.dst[at + b] == a.src[at + b];
    if (!same) atomicAdd(mismatches, 1ull);
  }
}

/// Host twin of what a lane adds to its sink for the element at byte `at` of an array filled by
/// device_buffer<std::uint32_t>::fill_random(seed, 0, 0xFFFFFFFF): the element (zero-extended),
/// or the XOR of its 32-bit words (8 and 16 bytes), little-endian.
inline std::uint32_t access_element_fold(std::uint64_t seed, std::uint64_t at, unsigned width) {
  const auto word = [&](std::uint64_t i) {
    return host_random<std::uint32_t>(seed, i, 0u, 0xFFFFFFFFu);
  };
  if (width >= 4) {
    std::uint32_t f = 0;
    for (unsigned k = 0; k < width / 4; ++k) f ^= word(at / 4 + k);
    return f;
  }
  const std::uint32_t mask = width == 1 ? 0xFFu : 0xFFFFu;
  return (word(at / 4) >> (8 * (at % 4))) & mask;
}

/// Host twin of the sink of global thread `thread` after a read launch of `a` over a grid of
/// `warps` warps (the array filled as access_element_fold assumes).
inline std::uint32_t access_expected_sink(const access_args& a, std::uint64_t warps,
                                          std::uint64_t thread, std::uint64_t seed) {
  const std::uint64_t lane_off = a.pattern.lane_offset(unsigned(thread % model::warp_lanes));
  std::uint32_t sum = 0;
  for (std::uint64_t r = thread / model::warp_lanes; r < a.regions; r += warps)
    sum += access_element_fold(seed, a.layout.region_start(r) + lane_off, a.pattern.width);
  return sum * a.passes;
}

}  // namespace cuprobe::suite::kernels
