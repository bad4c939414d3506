// host tier: the host-side parts of the pipeline blocks: hopper/tile_scheduler.cuh (every tile
// exactly once, cluster pairs sharing n, the grouped order's bands, the Hilbert order's
// coverage and steps), hopper/stream_k.cuh (every K block of every unit exactly once, the
// roles, finishers last and their partners, a simulation of the waits: no schedule can
// deadlock; the rule for when the tail pays, on the measured shapes), hopper/epilogue.cuh's
// stmatrix address map (an emulation of stmatrix.x4 puts every accumulator element of a
// warpgroup where a 128B-swizzled TMA box expects it, and the eight rows of each matrix fall in
// eight different 16-byte chunks: no bank conflicts) and the register budget of the roles.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe/hopper/epilogue.cuh>
#include <cuprobe/hopper/stream_k.cuh>
#include <cuprobe/hopper/tile_scheduler.cuh>
#include <cuprobe/pipeline/ring.cuh>
#include <cuprobe/pipeline/roles.cuh>
#include <cuprobe/ptx/wgmma.cuh>

#include <cstdlib>
#include <set>
#include <string>
#include <tuple>
#include <type_traits>
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
// The Hilbert order is constexpr too: a 2 x 2 grid is the U (0,0) (0,1) (1,1) (1,0).
static_assert(h::hilbert_point(2, 2, 1).m == 0 && h::hilbert_point(2, 2, 1).n == 1);
static_assert(h::hilbert_point(2, 2, 3).m == 1 && h::hilbert_point(2, 2, 3).n == 0);
static_assert(h::tile_scheduler{4, 2, h::raster::hilbert, 0, 2}.tile_of(3, 1).m == 3);
static_assert(h::swizzle128_offset_b16(0, 0) == 0 && h::swizzle128_offset_b16(1, 0) == 128 + 16);
static_assert(h::swizzle128_offset_b16(7, 63) == 7 * 128 + ((7 ^ 7) * 16) + 14);
static_assert(h::tma_store_epilogue<__nv_bfloat16, 256, 2>::smem_bytes == 16384);

TEST_CASE("tile_scheduler: every tile exactly once, for every order, cluster size and grid") {
  for (h::raster order :
       {h::raster::along_m, h::raster::along_n, h::raster::grouped_m, h::raster::hilbert})
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

namespace {
// What tile_scheduler.cuh guarantees of a Hilbert walk over a w x ht grid: every point once,
// from (0, 0); every step to an edge neighbour, except at most one diagonal step when the
// longer side is odd and the shorter even. Returns the number of diagonal steps.
int check_hilbert_walk(int w, int ht) {
  CAPTURE(w);
  CAPTURE(ht);
  std::vector<int> seen(std::size_t(w) * ht, 0);
  int diagonal = 0;
  h::tile prev{};
  for (int d = 0; d < w * ht; ++d) {
    const h::tile p = h::hilbert_point(w, ht, d);
    CAPTURE(d);
    REQUIRE(p.m >= 0);
    REQUIRE(p.m < w);
    REQUIRE(p.n >= 0);
    REQUIRE(p.n < ht);
    ++seen[std::size_t(p.m) * ht + p.n];
    if (d == 0) {
      CHECK(p.m == 0);
      CHECK(p.n == 0);
    } else {
      const int dm = std::abs(p.m - prev.m), dn = std::abs(p.n - prev.n);
      if (dm + dn != 1) {
        CHECK(dm == 1);  // not a jump: a diagonal step
        CHECK(dn == 1);
        ++diagonal;
      }
    }
    prev = p;
  }
  for (int v : seen) CHECK(v == 1);
  const int longer = w > ht ? w : ht, shorter = w > ht ? ht : w;
  if (longer % 2 == 0 || shorter % 2 == 1)
    CHECK(diagonal == 0);
  else
    CHECK(diagonal <= 1);
  return diagonal;
}
}  // namespace

TEST_CASE("tile_scheduler: the Hilbert order visits every unit once, by edge neighbours") {
  // The shapes of the brief, all of them walked by edge neighbours only (the longer side even,
  // or both odd), and in the scheduler with clusters of 1, 2 and 4 along M.
  const int shapes[][2] = {{1, 1}, {3, 5}, {32, 32}, {16, 16}, {7, 64}, {64, 7}};
  for (const auto& s : shapes) {
    CHECK(check_hilbert_walk(s[0], s[1]) == 0);
    for (int cluster : {1, 2, 4}) {
      const h::tile_scheduler t{s[0] * cluster, s[1], h::raster::hilbert, 0, cluster};
      CAPTURE(cluster);
      REQUIRE(t.problem() == nullptr);
      REQUIRE(t.units() == s[0] * s[1]);
      std::set<std::pair<int, int>> seen;
      for (int u = 0; u < t.units(); ++u) {
        const h::tile p = h::hilbert_point(s[0], s[1], u);
        for (int r = 0; r < cluster; ++r) {
          const h::tile q = t.tile_of(u, r);
          CHECK(q.m == p.m * cluster + r);  // rank r: row m0 + r of the unit, as in every order
          CHECK(q.n == p.n);
          CHECK(seen.insert({q.m, q.n}).second);
        }
      }
      CHECK(int(seen.size()) == t.tiles());
    }
  }
  // Every grid up to 40 x 40: the guarantee, and the diagonal step exists only where allowed.
  int with_diagonal = 0;
  for (int w = 1; w <= 40; ++w)
    for (int ht = 1; ht <= 40; ++ht) with_diagonal += check_hilbert_walk(w, ht);
  CHECK(with_diagonal > 0);  // the exception is real: e.g. 5 x 4
  CHECK(check_hilbert_walk(5, 4) == 1);
  CHECK(std::string(h::raster_name(h::raster::hilbert)) == "hilbert");
}

TEST_CASE("tile_scheduler::problem names what is wrong") {
  CHECK(std::string(h::tile_scheduler{0, 4}.problem()).find("at least one tile") !=
        std::string::npos);
  CHECK(std::string(h::tile_scheduler{3, 4, h::raster::along_m, 1, 2}.problem())
            .find("multiple of cluster_m") != std::string::npos);
  CHECK(std::string(h::tile_scheduler{4, 4, h::raster::grouped_m, 0, 1}.problem())
            .find("group must be at least 1") != std::string::npos);
}

// 8192^3 in 128 x 256 tiles, clusters of 2 on 132 SMs: 1024 units = 15 waves of 66 + 34.
constexpr h::stream_k_schedule big{{64, 32, h::raster::grouped_m, 8, 2}, 128, 66, true};
static_assert(big.problem() == nullptr && big.waves() == 15 && big.tail_units() == 34);
static_assert(big.items(0) == 15 + 1 && big.item(0, 15).role == h::work_role::finisher);
static_assert(big.item(0, 15).k_begin == 0 && big.item(0, 15).k_end == 65);  // 34 x 128 / 66
static_assert(big.item(1, 15).role == h::work_role::partial && big.item(1, 15).k_begin == 65);

TEST_CASE("stream_k_schedule: every K block of every unit exactly once; roles; partners") {
  for (bool tail : {false, true})
    for (int units_m : {1, 3, 8})
      for (int tiles_n : {1, 5})
        for (int k_blocks : {1, 2, 7, 64})
          for (int clusters : {1, 3, 4, 6, 66}) {
            const h::stream_k_schedule s{
                {units_m, tiles_n, h::raster::grouped_m, 2, 1}, k_blocks, clusters, tail};
            CAPTURE(tail);
            CAPTURE(units_m * tiles_n);
            CAPTURE(k_blocks);
            CAPTURE(clusters);
            REQUIRE(s.problem() == nullptr);
            const int units = s.tiles.units();
            std::vector<int> covered(std::size_t(units) * k_blocks, 0);
            std::vector<int> finishers(units, 0), wholes(units, 0), partials(units, 0);
            std::vector<int> partial_of(clusters, -1);  // the unit of cluster q's partial
            for (int c = 0; c < clusters; ++c) {
              int own_partials = 0;
              for (int i = 0; i < s.items(c); ++i) {
                const h::work_item w = s.item(c, i);
                REQUIRE(w.unit >= 0);
                REQUIRE(w.unit < units);
                REQUIRE(w.k_begin >= 0);
                REQUIRE(w.k_begin < w.k_end);
                REQUIRE(w.k_end <= k_blocks);
                for (int k = w.k_begin; k < w.k_end; ++k) ++covered[w.unit * k_blocks + k];
                if (w.role == h::work_role::whole) {
                  CHECK(w.k_begin == 0);
                  CHECK(w.k_end == k_blocks);
                  ++wholes[w.unit];
                } else if (w.role == h::work_role::partial) {
                  CHECK(w.k_begin > 0);
                  CHECK(i == s.whole_items(c));  // a partial is the first piece of a range
                  partial_of[c] = w.unit;
                  ++own_partials;
                  ++partials[w.unit];
                } else {
                  CHECK(w.k_begin == 0);
                  CHECK(w.k_end < k_blocks);
                  CHECK(i == s.items(c) - 1);  // a finisher is the last item of its cluster
                  ++finishers[w.unit];
                }
              }
              CHECK(own_partials <= 1);  // one workspace slot per cluster is enough
            }
            for (int u = 0; u < units; ++u) CHECK(partials[u] + 1 <= s.max_pieces + 1);
            for (int v : covered) CHECK(v == 1);
            for (int u = 0; u < units; ++u) {
              CHECK(wholes[u] + finishers[u] == 1);  // one epilogue per unit
              CHECK((partials[u] > 0) == (finishers[u] == 1));
              if (!tail) CHECK(wholes[u] == 1);
            }
            // A finisher's partners are exactly the clusters whose partial is of its unit.
            for (int c = 0; c < clusters; ++c) {
              if (s.items(c) == 0) continue;
              const h::work_item w = s.item(c, s.items(c) - 1);
              if (w.role != h::work_role::finisher) continue;
              std::vector<int> want;
              for (int q = 0; q < clusters; ++q)
                if (partial_of[q] == w.unit) want.push_back(q);
              std::vector<int> got;
              for (int q = s.first_partner(c); q < s.partner_end(c, w); ++q) got.push_back(q);
              CHECK(got == want);
            }
            // Simulated run: each cluster walks its items; a finisher may proceed only when
            // every partial of its unit is written. Progress must never stop (no deadlock).
            std::vector<int> next(clusters, 0);
            std::vector<int> written(units, 0);
            bool moved = true;
            while (moved) {
              moved = false;
              for (int c = 0; c < clusters; ++c) {
                if (next[c] == s.items(c)) continue;
                const h::work_item w = s.item(c, next[c]);
                if (w.role == h::work_role::finisher && written[w.unit] < partials[w.unit])
                  continue;
                if (w.role == h::work_role::partial) ++written[w.unit];
                ++next[c];
                moved = true;
              }
            }
            for (int c = 0; c < clusters; ++c) CHECK(next[c] == s.items(c));
          }
}

TEST_CASE("stream_k_schedule: the tail balances the last wave") {
  // 34 units of 128 K blocks over 66 clusters: every cluster 65 or 66 K blocks of the tail,
  // about half a tile, instead of a whole tile for 34 clusters and nothing for 32.
  for (int c = 0; c < big.clusters; ++c) {
    int tail_blocks = 0;
    for (int i = big.whole_items(c); i < big.items(c); ++i)
      tail_blocks += big.item(c, i).k_end - big.item(c, i).k_begin;
    CHECK(tail_blocks >= 65);
    CHECK(tail_blocks <= 66);
  }
  const h::stream_k_schedule plain{big.tiles, 128, 66, false};
  CHECK(plain.waves() == 16);
  CHECK(plain.items(33) == 16);
  CHECK(plain.items(34) == 15);
  CHECK(std::string(h::stream_k_schedule{big.tiles, 0, 66}.problem()).find("k_blocks") !=
        std::string::npos);
  CHECK(std::string(h::stream_k_schedule{big.tiles, 4, 0}.problem()).find("clusters") !=
        std::string::npos);
  // One tail unit over 66 clusters: 4 pieces (4 clusters), not 66 slivers.
  const h::stream_k_schedule one{{5, 1, h::raster::along_m, 1, 1}, 128, 4, true};
  CHECK(one.tail_units() == 1);
  const h::stream_k_schedule sliver{{67, 1, h::raster::along_m, 1, 1}, 128, 66, true};
  CHECK(sliver.tail_units() == 1);
  CHECK(sliver.tail_clusters() == 4);
  CHECK(sliver.items(4) == 1);  // cluster 4 has its one whole unit and no tail piece
  CHECK(sliver.item(0, 1).k_end == 32);
}

// The rule for the tail, on the three shapes it was fitted to (128 x 256 tiles, clusters of 2,
// 66 clusters on the H200): on at 8192^3, off at 4096^3 and 8192 x 8192 x 2048.
static_assert(h::stream_k_tail_pays(1024, 128, 66));  // 8192^3: 34 / 66 in the last wave
static_assert(!h::stream_k_tail_pays(256, 64, 66));   // 4096^3: 58 / 66
static_assert(!h::stream_k_tail_pays(1024, 32, 66));  // 8192 x 8192 x 2048: 32 K blocks
static_assert(big.tail_pays());

TEST_CASE("stream_k_tail_pays: a last wave at most 55 % full and at least 96 K blocks") {
  // The measured shapes, as tile_scheduler units.
  const h::tile_scheduler t8192{64, 32, h::raster::grouped_m, 8, 2},
      t4096{32, 16, h::raster::grouped_m, 8, 2};
  CHECK(t8192.units() == 1024);
  CHECK(t4096.units() == 256);
  CHECK(h::stream_k_schedule{t8192, 128, 66, false}.tail_pays());
  CHECK_FALSE(h::stream_k_schedule{t4096, 64, 66, false}.tail_pays());
  CHECK_FALSE(h::stream_k_schedule{t8192, 32, 66, false}.tail_pays());
  // The thresholds themselves.
  CHECK(h::stream_k_tail_pays(66 + 36, 96, 66));        // 36 / 66 = 54.5 %
  CHECK_FALSE(h::stream_k_tail_pays(66 + 37, 96, 66));  // 37 / 66 = 56.1 %
  CHECK_FALSE(h::stream_k_tail_pays(66 + 34, 95, 66));  // K too short
  CHECK(h::stream_k_tail_pays(100 + 55, 96, 100));      // exactly 55 %
  CHECK_FALSE(h::stream_k_tail_pays(2 * 66, 128, 66));  // no partial wave: nothing to share
  CHECK_FALSE(h::stream_k_tail_pays(34, 128, 0));       // no grid
  // The modes.
  for (const auto& [units, k, want] :
       {std::tuple{1024, 128, true}, std::tuple{256, 64, false}, std::tuple{1024, 32, false}}) {
    CHECK(h::use_tail(h::tail_mode::automatic, units, k, 66) == want);
    CHECK(h::use_tail(h::tail_mode::on, units, k, 66));
    CHECK_FALSE(h::use_tail(h::tail_mode::off, units, k, 66));
  }
  CHECK(std::string(h::tail_mode_name(h::tail_mode::automatic)) == "auto");
  CHECK(std::string(h::tail_mode_name(h::tail_mode::on)) == "on");
  CHECK(std::string(h::tail_mode_name(h::tail_mode::off)) == "off");
}

// stmatrix, emulated: matrix i takes register i of every lane (lane l holds row l / 4, columns
// 2 (l % 4) and + 1) and stores row r of matrix i at the address lane 8 i + r gave. The full
// 64-column sub-tiles go through stmatrix.x4 at epilogue_row_offset, the narrow last one (N % 64
// columns) through stmatrix.x2 at epilogue_rest_row_offset.
template <int N>
void check_epilogue_layout() {
  constexpr int rest = N % 64, full = N / 64;
  // The byte (offset within the 64-column sub-tile buffer, sub-tile) of each (row, col); the
  // narrow sub-tile is sub-tile `full`.
  std::vector<int> where(64 * N, -1);
  const auto place = [&](int warp, int lane, int e, int reg_half, int sub, int byte) {
    const wg::coord c = wg::accumulator_coord(32 * warp + lane, e);
    REQUIRE(c.row >= 0);
    REQUIRE(c.col < N);
    CHECK(where[c.row * N + c.col] == -1);
    where[c.row * N + c.col] = sub * 8192 + byte + 2 * reg_half;
  };
  for (int s = 0; s < full; ++s)
    for (int q = 0; q < 4; ++q)
      for (int warp = 0; warp < 4; ++warp) {
        std::set<unsigned> chunks[4];
        for (int i = 0; i < 4; ++i)
          for (int r = 0; r < 8; ++r) {
            const unsigned row_addr = h::epilogue_row_offset(warp, 8 * i + r, q);
            REQUIRE(row_addr % 16 == 0);
            chunks[i].insert((row_addr / 16) % 8);  // 16-byte chunk within a 128-byte line
            // register i of `lane` holds accumulator elements e, e + 1 of column block 4s+q
            for (int lane = 4 * r; lane < 4 * r + 4; ++lane)
              for (int half = 0; half < 2; ++half)
                place(warp, lane, 8 * (4 * s + q) + 2 * i + half, half, s,
                      int(row_addr) + 4 * (lane % 4));
          }
        for (const auto& ch : chunks) CHECK(ch.size() == 8u);  // conflict-free rows
      }
  for (int b = 0; b < rest / 8; ++b)
    for (int warp = 0; warp < 4; ++warp)
      for (int i = 0; i < 2; ++i) {  // .x2: matrix 0 = the warp's rows 0..7, matrix 1 rows 8..15
        std::set<unsigned> chunks;
        for (int r = 0; r < 8; ++r) {
          const unsigned row_addr = h::epilogue_rest_row_offset(warp, 8 * i + r, b, rest);
          REQUIRE(row_addr % 16 == 0);
          chunks.insert((row_addr / 16) % 8);
          for (int lane = 4 * r; lane < 4 * r + 4; ++lane)
            for (int half = 0; half < 2; ++half)
              place(warp, lane, 4 * (8 * full + b) + 2 * i + half, half, full,
                    int(row_addr) + 4 * (lane % 4));
        }
        // Conflict-free when rest / 8 is odd (rows 2 rest bytes apart), as the header says.
        CHECK(chunks.size() == ((rest / 8) % 2 == 1 ? 8u : (rest / 8) % 4 == 2 ? 4u : 2u));
      }
  for (int row = 0; row < 64; ++row)
    for (int col = 0; col < N; ++col) {
      CAPTURE(row);
      CAPTURE(col);
      const int want = col < 64 * full
                           ? int((col / 64) * 8192 + h::swizzle128_offset_b16(row, col % 64))
                           : full * 8192 + row * 2 * rest + 2 * (col - 64 * full);
      CHECK(where[row * N + col] == want);
    }
}

TEST_CASE("epilogue: stmatrix with epilogue_row_offset puts every accumulator element in place") {
  check_epilogue_layout<256>();
  check_epilogue_layout<64>();
}

TEST_CASE("epilogue: N not a multiple of 64 stores its last N % 64 columns unswizzled") {
  check_epilogue_layout<200>();  // rest 8 (the ping-pong GEMM's 128 x 200 tiles)
  check_epilogue_layout<88>();   // rest 24
  check_epilogue_layout<144>();  // rest 16: 2-way conflicts
  check_epilogue_layout<96>();   // rest 32: 4-way
  check_epilogue_layout<120>();  // rest 56
  using e200 = h::tma_store_epilogue<__nv_bfloat16, 200, 2>;
  static_assert(e200::subtiles == 3 && e200::rest == 8);
  static_assert(e200::smem_bytes == 2 * 8192 + 1024 && e200::smem_bytes % 1024 == 0);
}

// direct_store_epilogue, emulated: word b of lane l of a quad packs accumulator elements
// e = 4 (4 g + b) + 2 h, + 1 of that lane; after quad_transpose lane q holds word k = the word
// b = q of quad lane k, and stores the four at columns n0 + 8 (4 g + q) + 2 k (+ 1), row
// 16 warp + l / 4 + 8 h. Every element must land where accumulator_coord says, exactly once.
template <int N>
void check_direct_store_layout() {
  std::vector<int> hits(64 * N, 0);
  const auto put = [&](int thread, int e, int row, int col) {
    const wg::coord c = wg::accumulator_coord(thread, e);
    CHECK(c.row == row);
    CHECK(c.col == col);
    if (row >= 0 && row < 64 && col >= 0 && col < N) ++hits[row * N + col];
  };
  for (int warp = 0; warp < 4; ++warp)
    for (int lane = 0; lane < 32; ++lane)
      for (int h = 0; h < 2; ++h) {
        const int row = 16 * warp + lane / 4 + 8 * h, q = lane % 4, base = 32 * warp + lane - q;
        for (int g = 0; g < N / 32; ++g)
          for (int k = 0; k < 4; ++k)  // word k of lane q: quad lane k's word b = q
            for (int half = 0; half < 2; ++half)
              put(base + k, 4 * (4 * g + q) + 2 * h + half, row, 8 * (4 * g + q) + 2 * k + half);
        for (int j = 4 * (N / 32); j < N / 8; ++j)  // the last blocks: each lane its own word
          for (int half = 0; half < 2; ++half)
            put(base + q, 4 * j + 2 * h + half, row, 8 * j + 2 * q + half);
      }
  for (int i = 0; i < 64 * N; ++i) {
    CAPTURE(i);
    CHECK(hits[i] == 1);
  }
}

TEST_CASE("direct_store_epilogue: the quad transpose puts every accumulator element in place") {
  check_direct_store_layout<256>();
  check_direct_store_layout<200>();  // 6 groups of four blocks, then one block
  check_direct_store_layout<88>();   // 2 groups, then 3 blocks
  check_direct_store_layout<8>();    // no group
  static_assert(h::direct_store_epilogue<__nv_bfloat16, 200>::quads == 6);
  static_assert(h::direct_store_epilogue<__nv_bfloat16, 200>::smem_bytes == 0);
}

TEST_CASE("the producer and consumer register targets fit the SM at 384 threads") {
  CHECK(cuprobe::pipeline::producer_registers * 128 +
            2 * cuprobe::pipeline::consumer_registers * 128 <=
        65536);
  CHECK(cuprobe::pipeline::producer_registers % 8 == 0);
  CHECK(cuprobe::pipeline::consumer_registers % 8 == 0);
  CHECK(sizeof(cuprobe::pipeline::mbarrier_ring<4, 2>) == 64u);
}

TEST_CASE("mbarrier_ring is walked with pipeline::state") {
  // One ring for the GEMM, the pipeline test and gen/tma*.cuh.
  CHECK(std::is_same_v<cuprobe::pipeline::mbarrier_ring<8>::state, cuprobe::pipeline::state<8>>);
  using ring = cuprobe::pipeline::mbarrier_ring<8>;
  CHECK(sizeof(ring) == 2 * 8 * sizeof(std::uint64_t));
  CHECK(ring::stages == 8);
  CHECK(ring::cluster == 1);
  // The producer's first trip finds every stage free: it starts on the other parity.
  constexpr auto p = cuprobe::pipeline::make_producer_start_state<8>();
  constexpr auto c = cuprobe::pipeline::make_consumer_start_state<8>();
  CHECK(p.stage == c.stage);
  CHECK(p.phase != c.phase);
}
