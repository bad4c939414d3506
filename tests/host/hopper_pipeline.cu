// host tier: the host-side parts of the pipeline blocks: hopper/tile_scheduler.cuh (every tile
// exactly once, cluster pairs sharing n, the grouped order's bands), hopper/epilogue.cuh's
// stmatrix address map (an emulation of stmatrix.x4 puts every accumulator element of a
// warpgroup where a 128B-swizzled TMA box expects it, and the eight rows of each matrix fall in
// eight different 16-byte chunks: no bank conflicts) and the register budget of the roles.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/hopper/epilogue.cuh>
#include <cuprobe/hopper/pipeline.cuh>
#include <cuprobe/hopper/tile_scheduler.cuh>
#include <cuprobe/ptx/wgmma.cuh>

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace h = cuprobe::hopper;
namespace wg = cuprobe::ptx::wgmma;

// Compile time: the scheduler is constexpr.
constexpr h::tile_scheduler small_sched{4, 3, h::raster::grouped_m, 2, 2};
static_assert(small_sched.problem() == nullptr);
static_assert(small_sched.units() == 6 && small_sched.tiles() == 12);
static_assert(small_sched.tile_of(0, 1).m == 1 && small_sched.tile_of(0, 1).n == 0);
static_assert(h::tile_scheduler{3, 2, h::raster::along_m, 8, 2}.problem() != nullptr);
static_assert(h::swizzle128_offset_b16(0, 0) == 0 && h::swizzle128_offset_b16(1, 0) == 128 + 16);
static_assert(h::swizzle128_offset_b16(7, 63) == 7 * 128 + ((7 ^ 7) * 16) + 14);
static_assert(h::tma_store_epilogue<__nv_bfloat16, 256, 2>::smem_bytes == 16384);

TEST_CASE("tile_scheduler: every tile exactly once, for every order, cluster size and grid") {
  for (h::raster order : {h::raster::along_m, h::raster::along_n, h::raster::grouped_m})
    for (int cluster : {1, 2, 4})
      for (int group : {1, 3, 8})
        for (int grid : {cluster, 6 * cluster, 132 / cluster * cluster, 1000 * cluster}) {
          const h::tile_scheduler s{8, 5, order, group, cluster};
          CAPTURE(h::raster_name(order));
          CAPTURE(cluster);
          CAPTURE(group);
          CAPTURE(grid);
          REQUIRE(s.problem() == nullptr);
          std::set<std::pair<int, int>> seen;
          int total_units = 0;
          for (int b = 0; b < grid; ++b) {
            const int rank = b % cluster;
            int count = 0;
            for (int u = s.first_unit(b); u < s.units(); u += s.unit_stride(grid), ++count) {
              const h::tile t = s.tile_of(u, rank);
              REQUIRE(t.m >= 0);
              REQUIRE(t.m < 8);
              REQUIRE(t.n >= 0);
              REQUIRE(t.n < 5);
              CHECK(seen.insert({t.m, t.n}).second);  // no tile twice
              CHECK(t.m % cluster == rank);           // rank r takes row m0 + r of its unit
              if (rank > 0) {                         // the cluster's CTAs share n (multicast B)
                const h::tile r0 = s.tile_of(u, 0);
                CHECK(r0.n == t.n);
                CHECK(r0.m + rank == t.m);
              }
            }
            CHECK(count == s.units_of(b, grid));
            if (rank == 0) total_units += count;
          }
          CHECK(seen.size() == 40u);
          CHECK(total_units == s.units());
        }
}

TEST_CASE("tile_scheduler: the grouped order walks bands of `group` unit rows, m fastest") {
  const h::tile_scheduler s{5, 3, h::raster::grouped_m, 2, 1};
  const int want[][2] = {{0, 0}, {1, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2},  // band 0: rows 0-1
                         {2, 0}, {3, 0}, {2, 1}, {3, 1}, {2, 2}, {3, 2},  // band 1: rows 2-3
                         {4, 0}, {4, 1}, {4, 2}};                         // band 2: one row
  for (int u = 0; u < 15; ++u) {
    CAPTURE(u);
    CHECK(s.tile_of(u).m == want[u][0]);
    CHECK(s.tile_of(u).n == want[u][1]);
  }
  const h::tile_scheduler n_first{2, 3, h::raster::along_n, 0, 1};
  CHECK(n_first.tile_of(1).m == 0);
  CHECK(n_first.tile_of(1).n == 1);
  const h::tile_scheduler m_first{2, 3, h::raster::along_m, 0, 1};
  CHECK(m_first.tile_of(1).m == 1);
  CHECK(m_first.tile_of(1).n == 0);
}

TEST_CASE("tile_scheduler::problem names what is wrong") {
  CHECK(std::string(h::tile_scheduler{0, 4}.problem()).find("at least one tile") !=
        std::string::npos);
  CHECK(std::string(h::tile_scheduler{3, 4, h::raster::along_m, 1, 2}.problem())
            .find("multiple of cluster_m") != std::string::npos);
  CHECK(std::string(h::tile_scheduler{4, 4, h::raster::grouped_m, 0, 1}.problem())
            .find("group must be at least 1") != std::string::npos);
}

// stmatrix.x4, emulated: matrix i takes register i of every lane (lane l holds row l / 4,
// columns 2 (l % 4) and + 1) and stores row r of matrix i at the address lane 8 i + r gave.
TEST_CASE("epilogue: stmatrix with epilogue_row_offset puts every accumulator element in place") {
  constexpr int N = 256;
  // The byte (offset within the 64-column sub-tile buffer, sub-tile) of each (row, col).
  std::vector<int> where(64 * N, -1);
  for (int s = 0; s < N / 64; ++s)
    for (int q = 0; q < 4; ++q)
      for (int warp = 0; warp < 4; ++warp) {
        std::set<unsigned> chunks[4];
        for (int i = 0; i < 4; ++i)
          for (int r = 0; r < 8; ++r) {
            const unsigned row_addr = h::epilogue_row_offset(warp, 8 * i + r, q);
            REQUIRE(row_addr % 16 == 0);
            chunks[i].insert((row_addr / 16) % 8);  // 16-byte chunk within a 128-byte line
            for (int lane = 4 * r; lane < 4 * r + 4; ++lane)
              for (int half = 0; half < 2; ++half) {
                // register i of `lane` holds accumulator elements e, e + 1 of column block 4s+q
                const int e = 8 * (4 * s + q) + 2 * i + half;
                const wg::coord c = wg::accumulator_coord(32 * warp + lane, e);
                const int byte = int(row_addr) + 4 * (lane % 4) + 2 * half;
                REQUIRE(c.row >= 0);
                REQUIRE(c.col < N);
                CHECK(where[c.row * N + c.col] == -1);
                where[c.row * N + c.col] = s * 8192 + byte;
              }
          }
        for (const auto& ch : chunks) CHECK(ch.size() == 8u);  // conflict-free rows
      }
  for (int row = 0; row < 64; ++row)
    for (int col = 0; col < N; ++col) {
      CAPTURE(row);
      CAPTURE(col);
      CHECK(where[row * N + col] ==
            int((col / 64) * 8192 + h::swizzle128_offset_b16(row, col % 64)));
    }
}

TEST_CASE("the producer and consumer register targets fit the SM at 384 threads") {
  CHECK(h::producer_registers * 128 + 2 * h::consumer_registers * 128 <= 65536);
  CHECK(h::producer_registers % 8 == 0);
  CHECK(h::consumer_registers % 8 == 0);
  CHECK(sizeof(h::tma_pipeline<4, 2>) == 64u);
}
