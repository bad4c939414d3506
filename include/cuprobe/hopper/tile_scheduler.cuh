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
// Choices (docs/hopper-gemm.md, "The tile order"):
// - Work is handed out in units of one cluster: cluster_m CTAs of a cluster compute the
//   cluster_m tiles (m0 + rank, n) that share the B tile (multicast along M). Cluster c of a
//   persistent grid of G CTAs takes units c, c + G / cluster_m, ... (static round-robin: no
//   atomics, the same schedule on every run).
// - The order of units decides which tiles run at the same time, and so how much of A and B the
//   L2 holds for them: along_m (m fastest: consecutive units share B), along_n (n fastest: they
//   share A), grouped_m (bands of `group` unit rows, m fastest inside a band: Triton's and
//   CUTLASS's "grouped" order; the last band may be narrower), hilbert (a generalised Hilbert
//   curve over the units_m x tiles_n grid: the units in flight form a compact patch, with no
//   band edge to cross).
// - The Hilbert curve is the "generalised Hilbert" (gilbert) construction for any w x h
//   rectangle, computed point by point: unit u is found by descending the recursion with a loop
//   (no recursion, table or heap), one rectangle per trip, so tile_of stays a function of u. Each
//   trip splits the rectangle (major side a, minor b): when long (2 a > 3 b) into two halves
//   along a, the first of even length; else into three: up the first b2 rows (b / 2, made even)
//   over the first half of a, along all of a over the other b - b2 rows, back down the b2 rows
//   over the second half. About log2(a) + log2(b) trips (at most 9 up to 32 x 32, 11 up to
//   64 x 64). Chosen over power-of-two Hilbert squares in a serpentine: no seam, any rectangle.
//   Guarantee (tests/host/hopper_pipeline.cu, every grid up to 40 x 40): every point once, from
//   (0, 0); consecutive points are edge neighbours, except that when the longer side is odd and
//   the shorter even at most one step is diagonal (the construction cannot avoid it there).
// - tiles_m must be a multiple of cluster_m; check() says why a scheduler is unusable.
#pragma once

namespace cuprobe::hopper {

/// The order in which tiles are handed out.
enum class raster { along_m, along_n, grouped_m, hilbert };

/// The name of a raster order, as reports print it.
__host__ __device__ constexpr const char* raster_name(raster r) {
  return r == raster::along_m     ? "along_m"
         : r == raster::along_n   ? "along_n"
         : r == raster::grouped_m ? "grouped_m"
                                  : "hilbert";
}

/// Output tile coordinates (in tiles, not elements).
struct tile {
  int m = 0;  ///< the tile row (along M)
  int n = 0;  ///< the tile column (along N)
};

/// Point d (0 .. w h - 1) of the generalised Hilbert curve over a w x h grid: m in 0 .. w - 1,
/// n in 0 .. h - 1. The current rectangle is kept as its first point (m, n), its major axis
/// (unit step am, an; length a) and its minor axis (bm, bn; length b); each trip replaces it
/// by the sub-rectangle that holds point d, with d counted from that sub-rectangle's start.
__host__ __device__ constexpr tile hilbert_point(int w, int h, int d) {
  const bool wide = w >= h;  // the major axis is the longer side
  int m = 0, n = 0, am = wide ? 1 : 0, an = wide ? 0 : 1, a = wide ? w : h;
  int bm = wide ? 0 : 1, bn = wide ? 1 : 0, b = wide ? h : w;
  while (a > 1 && b > 1) {
    int a2 = a / 2, b2 = b / 2;
    if (2 * a > 3 * b) {  // long: two halves along the major axis, the first of even length
      if (a2 % 2 != 0 && a > 2) ++a2;
      if (d < a2 * b) {
        a = a2;
      } else {
        d -= a2 * b;
        m += a2 * am;
        n += a2 * an;
        a -= a2;
      }
      continue;
    }
    if (b2 % 2 != 0 && b > 2) ++b2;  // three parts, the first and last of even length
    const int first = b2 * a2, second = a * (b - b2);
    const int om = am, on = an;
    if (d < first) {  // up the minor axis over the first a2 columns: the axes swap
      am = bm;
      an = bn;
      bm = om;
      bn = on;
      a = b2;
      b = a2;
    } else if (d < first + second) {  // along the major axis over the rest of the minor one
      d -= first;
      m += b2 * bm;
      n += b2 * bn;
      b -= b2;
    } else {  // back down the minor axis over the last a - a2 columns, walked backwards
      d -= first + second;
      m += (a - 1) * am + (b2 - 1) * bm;
      n += (a - 1) * an + (b2 - 1) * bn;
      am = -bm;
      an = -bn;
      bm = -om;
      bn = -on;
      b = a - a2;
      a = b2;
    }
  }
  return b == 1 ? tile{m + d * am, n + d * an} : tile{m + d * bm, n + d * bn};
}

/// Which output tiles a persistent CTA computes, in units of one cluster, and in which order.
struct tile_scheduler {
  int tiles_m = 1;                   ///< output tiles along M
  int tiles_n = 1;                   ///< output tiles along N
  raster order = raster::grouped_m;  ///< the order units are handed out in
  int group = 8;                     ///< unit rows per band (grouped_m only)
  int cluster_m = 1;                 ///< CTAs per cluster, along M, sharing the B tile

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

  /// Unit rows: tiles_m / cluster_m.
  __host__ __device__ constexpr int units_m() const { return tiles_m / cluster_m; }
  /// Work units (one per cluster).
  __host__ __device__ constexpr int units() const { return units_m() * tiles_n; }
  /// Output tiles in all.
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
    } else if (order == raster::hilbert) {
      const tile p = hilbert_point(um, tiles_n, u);
      m = p.m;
      n = p.n;
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
