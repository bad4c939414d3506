// cuprobe/hopper/tile_scheduler.cuh: which output tiles a persistent CTA computes, and in
// which order (host and device, constexpr).
//
//   namespace h = cuprobe::hopper;
//   constexpr h::tile_scheduler s{/*tiles_m=*/64, /*tiles_n=*/32, h::raster::grouped_m, 8, 2};
//   // in the kernel (grid = a multiple of cluster_m CTAs, a few per SM at most):
//   for (int u = s.first_unit(blockIdx.x); u < s.units(); u += s.unit_stride(gridDim.x)) {
//     const h::tile t = s.tile_of(u, cluster_rank);        // t.m, t.n: tile coordinates
//     ...
//   }
//
// Choices:
// - Work is handed out in units of one cluster: cluster_m CTAs of a cluster compute the
//   cluster_m tiles (m0 + rank, n) that share the B tile (multicast along M). A persistent
//   grid of G CTAs has G / cluster_m clusters; cluster c takes units c, c + G / cluster_m, ...
//   (a static round-robin: no atomics, the same schedule on every run).
// - The order of units (the rasterisation) decides which tiles run at the same time, and so
//   how much of A and B the L2 holds for them:
//     along_m:   unit u = (m, n) with m fastest (consecutive units share B);
//     along_n:   n fastest (consecutive units share A);
//     grouped_m: bands of `group` unit rows along M, m fastest inside a band, bands one after
//                the other (the "grouped" or "swizzled" order of Triton and CUTLASS): the tiles
//                in flight form a group x (in flight / group) block, so both operands are
//                re-read from the L2 instead of DRAM. The last band may be narrower.
// - tiles_m must be a multiple of cluster_m; check() says why a scheduler is unusable.
#pragma once

namespace cuprobe::hopper {

/// The order in which tiles are handed out.
enum class raster { along_m, along_n, grouped_m };

__host__ __device__ constexpr const char* raster_name(raster r) {
  return r == raster::along_m ? "along_m" : r == raster::along_n ? "along_n" : "grouped_m";
}

/// Output tile coordinates (in tiles, not elements).
struct tile {
  int m = 0;
  int n = 0;
};

struct tile_scheduler {
  int tiles_m = 1;  ///< output tiles along M
  int tiles_n = 1;  ///< output tiles along N
  raster order = raster::grouped_m;
  int group = 8;      ///< unit rows per band (grouped_m only)
  int cluster_m = 1;  ///< CTAs per cluster, along M, sharing the B tile

  /// Why the scheduler cannot be used, or nullptr.
  __host__ __device__ constexpr const char* problem() const {
    if (tiles_m < 1 || tiles_n < 1) return "tile_scheduler: there must be at least one tile";
    if (cluster_m < 1) return "tile_scheduler: cluster_m must be at least 1";
    if (tiles_m % cluster_m != 0)
      return "tile_scheduler: tiles_m must be a multiple of cluster_m (each cluster computes "
             "cluster_m tiles along M)";
    if (order == raster::grouped_m && group < 1)
      return "tile_scheduler: group must be at least 1 for raster::grouped_m";
    return nullptr;
  }

  __host__ __device__ constexpr int units_m() const { return tiles_m / cluster_m; }
  /// Work units (one per cluster).
  __host__ __device__ constexpr int units() const { return units_m() * tiles_n; }
  __host__ __device__ constexpr int tiles() const { return tiles_m * tiles_n; }
  /// The first unit of the CTA with linear block index `block`.
  __host__ __device__ constexpr int first_unit(int block) const { return block / cluster_m; }
  /// The distance between two units of the same CTA, for a grid of `grid` CTAs.
  __host__ __device__ constexpr int unit_stride(int grid) const { return grid / cluster_m; }
  /// How many units the CTA with linear index `block` computes in a grid of `grid` CTAs.
  __host__ __device__ constexpr int units_of(int block, int grid) const {
    const int first = first_unit(block), stride = unit_stride(grid);
    return first >= units() ? 0 : (units() - 1 - first) / stride + 1;
  }

  /// The tile of unit u for the CTA of rank `rank` (0 .. cluster_m - 1) in its cluster.
  __host__ __device__ constexpr tile tile_of(int u, int rank = 0) const {
    const int um = units_m();
    int m = 0, n = 0;
    if (order == raster::along_m) {
      m = u % um;
      n = u / um;
    } else if (order == raster::along_n) {
      m = u / tiles_n;
      n = u % tiles_n;
    } else {
      const int per_band = group * tiles_n, band = u / per_band, first = band * group;
      const int rows = um - first < group ? um - first : group, in = u - band * per_band;
      m = first + in % rows;
      n = in / rows;
    }
    return tile{m * cluster_m + rank, n};
  }
};

}  // namespace cuprobe::hopper
