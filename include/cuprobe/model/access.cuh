// cuprobe/model/access.cuh: the sector model of one warp's global access: for a pattern of 32
// lanes, the 32-byte sectors and 128-byte lines the request touches and the fraction of the
// fetched bytes the lanes use.
//
//   cuprobe::model::access_pattern p;  p.width = 4;  p.offset = 4;     // misaligned by 4 bytes
//   const auto s = cuprobe::model::warp_sectors(p);
//   std::printf("%u sectors, %u lines, %.0f %% useful\n", s.sectors, s.lines,
//               100 * s.useful_fraction());                           // 5 sectors, 2 lines, 80 %
//
// The shapes (the first seed's three ways a warp's request goes wrong, and their control):
//   strided   lane l at offset + l x stride x width: stride 1 is coalesced, offset != 0
//             misaligned, stride > 1 non-contiguous (only part of each sector is used);
//   permuted  the 32 elements of the coalesced pattern, lanes shuffled by a fixed permutation
//             (lane x 13 + seed mod 32: 13 is odd, so it is one): the same sectors as stride 1,
//             which is the point (order within a warp does not matter);
//   gather    the lanes spread over `lines` distinct 128-byte lines 4 KiB apart (lane l in line
//             l mod lines, at slot l / lines of it): uncoalesced.
// A sector or line counts once however many lanes touch it (the coalescer merges them); a lane
// touches [a, a + width); offsets are from a 128-byte aligned base. One request per warp
// instruction, as ncu's l1tex__t_sectors_pipe_lsu_mem_global_op_ld counts them. Host and device
// (lane_offset is what a generator's kernel computes). The DRAM bytes of a request that shares
// no line and hits no cache: docs/access-patterns.md ("What the counters say ...").
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe::model {

inline constexpr unsigned warp_lanes = 32;  ///< Lanes of a warp.
/// Bytes of a sector (the unit of L1 and L2 transfers).
inline constexpr unsigned sector_bytes = 32;
inline constexpr unsigned line_bytes = 128;      ///< Bytes of a cache line.
inline constexpr unsigned dram_pair_bytes = 64;  ///< Bytes DRAM reads for a sector: its pair.
/// Distance between the lines of a gather (one small page: no two share a line or a sector).
inline constexpr std::uint64_t gather_line_distance = 4096;

/// How a warp's lanes spread their addresses: strided, a permutation, or a gather over lines.
enum class access_shape { strided, permuted, gather };
CUPROBE_DECL const char* to_string(access_shape s);  ///< "strided", "permuted" or "gather".

/// The addresses of one warp request: each lane's width, and how lanes spread over lines.
struct access_pattern {
  unsigned width = 4;        ///< bytes per lane: 1, 2, 4, 8 or 16
  std::uint64_t offset = 0;  ///< bytes from a 128-byte aligned base, a multiple of width
  unsigned stride = 1;       ///< strided: elements between consecutive lanes, 1 .. 32
  access_shape shape = access_shape::strided;  ///< how lanes spread their addresses
  unsigned lines = 1;  ///< gather: distinct lines, 1 .. 32, with ceil(32 / lines) x width <= 128
  unsigned seed = 0;   ///< permuted: which permutation (lane x 13 + seed mod 32)

  /// Byte offset of lane `lane` (0 .. 31).
  __host__ __device__ constexpr std::uint64_t lane_offset(unsigned lane) const {
    switch (shape) {
      case access_shape::permuted:
        return offset + std::uint64_t((lane * 13u + seed) % warp_lanes) * width;
      case access_shape::gather:
        return offset + std::uint64_t(lane % lines) * gather_line_distance +
               std::uint64_t(lane / lines) * width;
      default:
        return offset + std::uint64_t(lane) * stride * width;
    }
  }

  /// Throws cuprobe::error naming the field that is out of range.
  CUPROBE_DECL void validate() const;
};

/// A short name: "w16 o4 s1" (strided: width, offset, stride), "w4 o0 perm1" (permuted, seed),
/// "w4 o0 gather8" (gather over 8 lines).
CUPROBE_DECL std::string label(const access_pattern& p);

/// What one warp request of a pattern touches.
struct sector_count {
  unsigned sectors = 0;          ///< distinct 32-byte sectors
  unsigned lines = 0;            ///< distinct 128-byte lines
  unsigned useful_bytes = 0;     ///< 32 x width: what the lanes asked for
  unsigned pairs = 0;            ///< distinct 64-byte sector pairs
  unsigned partial_sectors = 0;  ///< sectors the lanes touch only in part
  /// useful_bytes / the bytes of the sectors fetched.
  double useful_fraction() const { return double(useful_bytes) / (double(sectors) * sector_bytes); }
  double sectors_per_request() const { return sectors; }  ///< Sectors one warp request fetches.
  /// The model's bandwidth prediction where fetched sectors are the limit: the useful rate as a
  /// fraction of the aligned unit-stride rate of the same width (whose useful fraction is 1).
  double predicted_fraction() const { return useful_fraction(); }
  /// DRAM bytes of one request: a load reads every pair; a store fills its partial sectors
  /// and writes every sector.
  ///@{
  double dram_load_bytes() const { return double(pairs) * dram_pair_bytes; }
  double dram_store_read_bytes() const { return double(partial_sectors) * sector_bytes; }
  double dram_store_write_bytes() const { return double(sectors) * sector_bytes; }
  ///@}
};

/// The sectors and lines of one warp request of `p` (validated first).
CUPROBE_DECL sector_count warp_sectors(const access_pattern& p);

}  // namespace cuprobe::model

#if CUPROBE_HEADER_BODIES
#include "cuprobe/model/impl/access.cuh"
#endif
