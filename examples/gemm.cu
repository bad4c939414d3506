// gemm: a bf16 GEMM (fp32 accumulation, C = A B^T, A M x K and B N x K row-major) built only from
// cuprobe's Hopper blocks, beside cuBLASLt's best algorithm on the same inputs, with "copy only"
// and "compute only" variants of the same kernel to show how much of the copy the MMAs hide.
//
//   build/hopper/examples/gemm --json gemm.json     (--quick: 8192^3 only; --small: sanitizer)
//
// A persistent grid (one CTA of 384 threads per SM) of 128-row tiles. Warpgroup 0 issues the
// TMA loads into a ring of pipeline/ring.cuh (B multicast in clusters of 2 or 4); warpgroups
// 1 and 2 run the wgmma, cooperative (both on one 128 x 256 tile, optional stream-K tail) or
// ping-pong (each on its own 128 x 192 or 128 x 200 tile, one's epilogue under the other's
// MMAs), and store C through TMA (hopper/epilogue.cuh). The kernel measures its own SM clock
// (region_timer). Limits: M a multiple of 128 x cluster, N of 256 (cooperative) or 64
// (ping-pong), K of 64 (checked); sm_90a only. The GEMM itself (schedule .. gemm_launch) is
// about 220 lines; the rest is the rows. docs/hopper-gemm.md explains the kernel and has the
// results.
#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe/hopper/epilogue.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/hopper/stream_k.cuh>
#include <cuprobe/hopper/tensor_map.cuh>
#include <cuprobe/hopper/tile_scheduler.cuh>
#include <cuprobe/measure/region_timer.cuh>
#include <cuprobe/pipeline/ring.cuh>
#include <cuprobe/pipeline/roles.cuh>
#include <cuprobe/ptx/elect.cuh>
#include <cuprobe/report/cli.cuh>
#include <cuprobe_suite/gemm_report.cuh>

#include <initializer_list>
#include <memory>

namespace h = cuprobe::hopper;
namespace p = cuprobe::ptx;
namespace wg = cuprobe::ptx::wgmma;
namespace ex = cuprobe::suite;
using bf16 = __nv_bfloat16;

constexpr int BM = 128, BK = 64;  // CTA tile rows, K block
constexpr std::uint32_t a_bytes = BM * BK * 2;
using variant = ex::gemm_variant;  // what the kernel does of the GEMM

/// How the two consumers share the work. Cooperative: both on one 128 x 256 tile, 64 rows each.
/// Ping-pong: each on its own 128 x N tile (two m64 accumulators), taking turns, so that one's
/// epilogue runs under the other's MMAs (items 0, 2, 4 .. of the CTA to consumer 0, 1, 3, 5 ..
/// to consumer 1; the ring's order makes the main loops alternate).
template <int N, bool PingPong>
struct schedule {
  static constexpr int bn = N;  // CTA tile columns
  static constexpr bool pingpong = PingPong;
  static constexpr int halves = PingPong ? 2 : 1;  // m64 accumulators per consumer
};
using cooperative = schedule<256, false>;

template <int Stages, int Cluster, int EpiBuffers, class S>
struct gemm_config {
  using ring = cuprobe::pipeline::mbarrier_ring<Stages, Cluster>;
  // EpiBuffers = 0: every thread stores its own accumulator (no shared memory, no barrier).
  static constexpr bool direct = EpiBuffers == 0;
  using epilogue = std::conditional_t<direct, h::direct_store_epilogue<bf16, S::bn>,
                                      h::tma_store_epilogue<bf16, S::bn, EpiBuffers>>;
  static constexpr std::uint32_t b_bytes = S::bn * BK * 2;
  // B's tile is multicast in slices of whole 8-row groups of the 128-byte swizzle (1024 bytes,
  // so each slice starts on the pattern's repeat): CTA r of the cluster loads groups
  // [r G / C, (r + 1) G / C) of the G = BN / 8 (200 rows in clusters of 2: 96 and 104). The
  // slices have at most two heights, so two tensor maps (b_map, b_map_tall) cover them.
  static constexpr int b_groups = S::bn / 8;
  __host__ __device__ static constexpr int slice_row(int r) { return 8 * (r * b_groups / Cluster); }
  __host__ __device__ static constexpr int slice_rows(int r) {
    return slice_row(r + 1) - slice_row(r);
  }
  static constexpr int short_rows = 8 * (b_groups / Cluster), tall_rows = slice_rows(Cluster - 1);
  static constexpr std::size_t smem =
      h::dynamic_smem_bytes<1024>(Stages * (a_bytes + b_bytes) + 2 * epilogue::smem_bytes +
                                  sizeof(ring) + sizeof(cuprobe::region_token));
  // sm_90's 227 KiB per block (opt-in), less the 1 KiB of static shared memory the kernel has.
  static_assert(smem <= 227 * 1024 - 1024,
                "gemm: this configuration's shared memory exceeds "
                "what one block may have on sm_90");
};

template <int Stages, int Cluster, int EpiBuffers, variant V, class S>
__global__ void __launch_bounds__(384, 1)
    gemm_kernel(const __grid_constant__ CUtensorMap a_map,
                const __grid_constant__ CUtensorMap b_map,
                const __grid_constant__ CUtensorMap b_map_tall,
                const __grid_constant__ CUtensorMap c_map,
                const __grid_constant__ CUtensorMap c_rest_map, bf16* c_out, int n,
                h::stream_k_schedule sched, h::split_k_fixup<S::bn> fixup,
                cuprobe::region_timer_view timer) {
  using cfg = gemm_config<Stages, Cluster, EpiBuffers, S>;
  constexpr int BN = S::bn;
  constexpr std::uint32_t b_bytes = cfg::b_bytes;
  extern __shared__ unsigned char raw[];
  // Stages x A, then Stages x B, the epilogue buffers, the ring, the clock's start.
  unsigned char* a_st = h::align_up<1024>(raw);
  unsigned char* b_st = a_st + Stages * a_bytes;
  unsigned char* epi = b_st + Stages * b_bytes;
  auto& pipe = *reinterpret_cast<typename cfg::ring*>(epi + 2 * cfg::epilogue::smem_bytes);
  auto& span = *reinterpret_cast<cuprobe::region_token*>(&pipe + 1);
  const unsigned group = cuprobe::pipeline::warpgroup_index(),
                 rank = Cluster > 1 ? p::cluster::ctarank() : 0;
  if (threadIdx.x == 0) {
    // The five maps' descriptors on their way while the ring is set up and the cluster meets
    // (the first load and the first store through each would otherwise wait for them).
    for (const CUtensorMap* m : {&a_map, &b_map, &b_map_tall, &c_map, &c_rest_map})
      p::bulk::prefetch_tensormap(m);
    pipe.init(/*consumers per CTA=*/S::pingpong ? 1 : 2);
  }
  if constexpr (Cluster > 1)
    p::cluster::sync();
  else
    __syncthreads();
  const int cl = int(blockIdx.x) / Cluster, items = sched.items(cl);
  // compute_only: the ring is filled once and the MMAs run on those resident tiles.
  const auto loads = [&](int done) { return V != variant::compute_only || done < Stages; };

  if (group == 0) {  // ---- producer: one thread issues every TMA load ----
    p::setmaxnreg_dec<cuprobe::pipeline::producer_registers>();
    if (threadIdx.x < 32 && p::elect_one_sync()) {
      auto st = pipe.producer_start();
      for (int i = 0, done = 0; i < items; ++i) {
        const h::work_item w = sched.item(cl, i);
        const h::tile t = sched.tiles.tile_of(w.unit, rank);
        for (int kb = w.k_begin; kb < w.k_end && loads(done); ++kb, ++st, ++done) {
          pipe.acquire(st);
          auto* bar = pipe.fill(st, a_bytes + b_bytes);
          p::bulk::tensor_load(a_st + st.stage * a_bytes, &a_map, bar, kb * BK, t.m * BM);
          if constexpr (Cluster == 1)
            p::bulk::tensor_load(b_st + st.stage * b_bytes, &b_map, bar, kb * BK, t.n * BN);
          else  // this CTA's slice of B, into the same place in every CTA of the cluster
            p::bulk::tensor_load_multicast(
                b_st + st.stage * b_bytes + cfg::slice_row(int(rank)) * (BK * 2),
                cfg::slice_rows(int(rank)) == cfg::short_rows ? &b_map : &b_map_tall, bar,
                (1u << Cluster) - 1, kb * BK, t.n * BN + cfg::slice_row(int(rank)));
        }
      }
    }
  } else {  // ---- consumers: 64 rows of the tile each, or (ping-pong) every other tile ----
    p::setmaxnreg_inc<cuprobe::pipeline::consumer_registers>();
    const unsigned c = group - 1;
    // The clock: the first consumer warp's span (warp scope: __syncwarp, lane 0 writes). Its
    // start waits in shared memory (`span`): held in registers across the tile loop, it would be
    // spilled. `timed` is made visibly warp-uniform: a per-lane condition before the wgmma
    // loop costs a WARPSYNC per K block and moves the loop's addresses off the uniform datapath.
    const bool timed =
        c == 0 && __shfl_sync(~0u, cuprobe::pipeline::warpgroup_thread() / 32, 0) == 0;  // uniform
    if (timed) {
      const cuprobe::region_token t0 = timer.start();
      if (cuprobe::pipeline::warpgroup_thread() == 0) span = t0;
    }
    // The operands' stage rings: the descriptor of (stage, row, K step) is one addition.
    // A's rows: this consumer's 64 (cooperative), or both halves from row 0 (ping-pong).
    const auto a_op = wg::smem_operand::of(wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128,
                                                                              wg::major::k, BM, BK),
                                           p::smem_address(a_st), a_bytes)
                          .from_row(S::pingpong ? 0 : 64 * int(c));
    const auto b_op = wg::smem_operand::of(
        wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, BN, BK),
        p::smem_address(b_st), b_bytes);
    const bool releaser = cuprobe::pipeline::warpgroup_thread() == 0;
    // The workspace slot of cluster q's partial for this CTA and warpgroup.
    const auto slot = [&](int q) { return (q * Cluster + int(rank)) * 2 + int(c); };
    wg::accumulator<wg::f32, BN> acc[S::halves];
    auto st = pipe.consumer_start();
    for (int i = 0, done = 0; i < items; ++i) {
      const h::work_item w = sched.item(cl, i);
      const h::tile t = sched.tiles.tile_of(w.unit, rank);
      if (S::pingpong && i % 2 != int(c)) {  // the other consumer's tile: skip its stages
        st.advance(w.k_end - w.k_begin);
        done += w.k_end - w.k_begin;
        continue;
      }
      // Ping-pong turns (named barriers 4 + c): this consumer waits until the other has waited
      // on every stage of the tile before, so that the full barriers it skipped have completed
      // those phases (a parity wait two phases early would pass at once, on the old data).
      if (S::pingpong && i > 0) p::named_barrier_sync(4 + c, 256);
      auto prev = st;
      for (int kb = w.k_begin; kb < w.k_end; ++kb, ++st, ++done) {
        if (loads(done)) pipe.wait_full(st);
        if constexpr (V != variant::copy_only) {
          for (auto& x : acc) wg::fence_operand(x);
          wg::fence();
#pragma unroll
          for (int j = 0; j < BK / 16; ++j)
#pragma unroll
            for (int hf = 0; hf < S::halves; ++hf)  // half hf: A rows 64 hf..
              wg::mma_async<wg::bf16, wg::bf16>(acc[hf], a_op.at(st.stage, 64 * hf, 16 * j),
                                                b_op.at(st.stage, 0, 16 * j),
                                                wg::accumulate_if(kb > w.k_begin || j > 0));
          wg::commit_group();
          wg::wait_group<1>();  // the previous K block's MMAs are done: release its stage
        }
        if (V != variant::compute_only && kb > w.k_begin && releaser) pipe.release(prev);
        prev = st;
      }
      if (S::pingpong && i + 1 < items) p::named_barrier_arrive(4 + (1 - c), 256);  // its turn
      wg::wait_group<0>();
      for (auto& x : acc) wg::fence_operand(x);
      if (V != variant::compute_only && releaser) pipe.release(prev);
      if constexpr (V != variant::copy_only) {
        if constexpr (!S::pingpong) {  // the stream-K fix-up (cooperative only)
          if (w.role == h::work_role::partial) {
            fixup.store(acc[0], slot(cl), 1 + c);
            continue;
          }
          if (w.role == h::work_role::finisher)
            for (int q = sched.first_partner(cl); q < sched.partner_end(cl, w); ++q)
              fixup.add(acc[0], slot(q), 1 + c);
        }
#pragma unroll
        for (int hf = 0; hf < S::halves; ++hf) {
          const int m0 = t.m * BM + 64 * (S::pingpong ? hf : int(c));
          if constexpr (cfg::direct)
            cfg::epilogue::store(acc[hf], c_out, std::size_t(n), m0, t.n * BN, n);
          else
            cfg::epilogue::store(acc[hf], epi + c * cfg::epilogue::smem_bytes, &c_map, m0, t.n * BN,
                                 1 + c,
                                 hf * cfg::epilogue::subtiles,  // the buffers' rotation goes on
                                 &c_rest_map);
        }
      }
    }
    if constexpr (!cfg::direct) cfg::epilogue::drain();
    if (timed) timer.stop(span);  // lane 0 writes the record, from its own start
  }
  if constexpr (Cluster > 1) p::cluster::sync();  // no CTA leaves while peers may still signal it
}

// The multicast slices of B: whole 8-row groups, at most two heights.
static_assert(gemm_config<4, 2, 2, schedule<200, true>>::short_rows == 96 &&
              gemm_config<4, 2, 2, schedule<200, true>>::tall_rows == 104 &&
              gemm_config<4, 2, 2, schedule<200, true>>::slice_row(1) == 96);
static_assert(gemm_config<4, 4, 2, cooperative>::short_rows == 64 &&
              gemm_config<4, 4, 2, cooperative>::tall_rows == 64);

/// One configuration of the kernel on one problem: tensor maps, scheduler, persistent launch.
template <int Stages, int Cluster, int EpiBuffers, variant V, class S>
struct gemm_launch {
  static constexpr int BN = S::bn;
  using cfg = gemm_config<Stages, Cluster, EpiBuffers, S>;
  // b, b_tall: B with boxes of the short and the tall multicast slices (the same when they are);
  // c_rest: the last BN % 64 columns of a tile (c when there are none).
  h::tensor_map a, b, b_tall, c, c_rest;
  bf16* problem_c;  // C itself, for the direct stores (row-major, N columns)
  int problem_n;
  cuprobe::region_timer timer;  // the first consumer warp's span, one record per CTA
  h::stream_k_schedule sched;
  h::cluster_launch shape;
  cuprobe::device_buffer<float4> partials;  // the stream-K tail's workspace
  cuprobe::device_buffer<int> flags;
  gemm_launch(ex::gemm_problem& pr, const ex::gemm_options& o, int max_ctas)
      : a(h::make_tensor_map(h::tensor_map_spec::matrix(pr.a.data(), pr.shape.m, pr.shape.k, BM, BK,
                                                        h::swizzle_mode::b128)
                                 .with_l2_promotion(o.promote))),
        b(b_map(pr, o, cfg::short_rows)),
        b_tall(b_map(pr, o, cfg::tall_rows)),
        c(h::make_tensor_map(h::tensor_map_spec::matrix(pr.c.data(), pr.shape.m, pr.shape.n, 64, 64,
                                                        h::swizzle_mode::b128))),
        c_rest(h::make_tensor_map(
            BN % 64 == 0 ? h::tensor_map_spec::matrix(pr.c.data(), pr.shape.m, pr.shape.n, 64, 64,
                                                      h::swizzle_mode::b128)
                         : h::tensor_map_spec::matrix(pr.c.data(), pr.shape.m, pr.shape.n, 64,
                                                      BN % 64, h::swizzle_mode::none))),
        problem_c(pr.c.data()),
        problem_n(pr.shape.n),
        timer(cuprobe::region_scope::warp, std::size_t(max_ctas) * (384 / 32)) {
    const auto& s = pr.shape;
    // Ping-pong tiles may overhang N (TMA fills the loads with zeros and clips the stores).
    const int n_step = S::pingpong ? 64 : BN;
    cuprobe::require(s.m % (BM * Cluster) == 0 && s.n % n_step == 0 && s.k % BK == 0,
                     "gemm: " + s.name() + " is not a multiple of " + std::to_string(BM * Cluster) +
                         " x " + std::to_string(n_step) + " x " + std::to_string(BK));
    cuprobe::require(!S::pingpong || o.tail == h::tail_mode::off,
                     "gemm: the ping-pong schedule has no stream-K tail");
    const h::tile_scheduler tiles{s.m / BM, (s.n + BN - 1) / BN, o.order, o.group, Cluster};
    if (const char* why = tiles.problem()) throw cuprobe::error(std::string("gemm: ") + why);
    // Persistent: as many whole clusters as fit at once (not every GPC holds an even number
    // of free SMs), at most max_ctas CTAs and no more than there are units of work.
    shape.shape = {dim3(unsigned(Cluster)), dim3(384), cfg::smem};
    shape.cluster = dim3(Cluster);
    const int fit = h::max_active_clusters(gemm_kernel<Stages, Cluster, EpiBuffers, V, S>, shape);
    const int clusters = std::min({fit, max_ctas / Cluster, tiles.units()});
    cuprobe::require(clusters > 0, "gemm: no cluster of this configuration fits on the GPU");
    shape.shape.grid = dim3(unsigned(clusters * Cluster));
    sched = h::stream_k_schedule{tiles, s.k / BK, clusters,
                                 h::use_tail(o.tail, tiles.units(), s.k / BK, clusters)};
    // One slot per CTA and consumer warpgroup (each cluster writes at most one partial).
    const std::size_t slots = std::size_t(clusters) * Cluster * 2;
    partials = cuprobe::device_buffer<float4>(slots * h::split_k_fixup<BN>::slot_bytes / 16);
    flags = cuprobe::device_buffer<int>(slots);
    flags.zero();
  }
  static h::tensor_map b_map(ex::gemm_problem& pr, const ex::gemm_options& o, int box_rows) {
    return h::make_tensor_map(h::tensor_map_spec::matrix(pr.b.data(), pr.shape.n, pr.shape.k,
                                                         box_rows, BK, h::swizzle_mode::b128)
                                  .with_l2_promotion(o.promote));
  }
  void operator()(cudaStream_t s) {
    shape.stream = s;
    h::launch(gemm_kernel<Stages, Cluster, EpiBuffers, V, S>, shape, a.get(), b.get(), b_tall.get(),
              c.get(), c_rest.get(), problem_c, problem_n, sched,
              h::split_k_fixup<BN>{partials.data(), flags.data()}, timer.view());
  }
};

template <int Stages, int Cluster, int EpiBuffers, variant V = variant::full, class S = cooperative>
void run_config(ex::gemm_bench& bench, const ex::gemm_options& o, int max_ctas) {
  auto l = std::make_shared<gemm_launch<Stages, Cluster, EpiBuffers, V, S>>(bench.problem(), o,
                                                                            max_ctas);
  ex::gemm_kernel_config k{Stages, Cluster, EpiBuffers, S::pingpong, BM, S::bn, o};
  k.tail_used = l->sched.tail;  // what the schedule chose (tail_mode::automatic)
  // Units of work (cluster_m tiles each) over the clusters: how full the last wave is.
  const int units = l->sched.tiles.units(), clusters = l->sched.clusters;
  bench
      .add(
          k, V, [l](cudaStream_t s) { (*l)(s); }, [l] { return l->timer.read(); },
          l->shape.shape.grid.x)
      .m.with_launch(l->shape.shape)
      .with_param("tiles", units * Cluster)
      .with_param("waves", double(units) / clusters);
}

/// The rows, on every problem: clusters of 2 (B multicast), 4 stages, 2 epilogue buffers unless
/// the row says otherwise. Dropped rows, and why: docs/hopper-gemm.md.
void add_rows(ex::gemm_bench& b, const cuprobe::cli& cli) {
  // --small: 6 CTAs, so that the 512 x 512 x 1024 problem (8 tiles, 16 K blocks each) has a
  // stream-K tail (3 clusters of 2 on 4 units: 1 wave, then one unit in 3 pieces; 6 clusters of
  // 1 on 8 units: 2 units in 6).
  const int ctas = cli.small ? 6 : b.device().sm_count;
  using h::raster;
  constexpr auto tail_on = h::tail_mode::on, tail_auto = h::tail_mode::automatic;
  run_config<4, 2, 2>(b, {raster::grouped_m, 8}, ctas);
  run_config<4, 2, 2>(b, {raster::grouped_m, 16}, ctas);
  run_config<4, 2, 2>(b, {raster::grouped_m, 8, h::tail_mode::off, h::l2_promotion_mode::none},
                      ctas);
  run_config<4, 1, 2>(b, {raster::grouped_m, 16}, ctas);
  // Clusters of 4 along M: B multicast to 4 CTAs, a quarter of the L2 reads of B per CTA,
  // a higher clock under the power cap, but only 30 clusters (120 SMs) fit on the H200.
  run_config<4, 4, 2>(b, {raster::grouped_m, 8, tail_auto}, ctas);
  // Ping-pong: each consumer its own 128 x N tile, one's epilogue under the other's MMAs.
  using pp192 = schedule<192, true>;
  run_config<4, 2, 2, variant::full, pp192>(b, {raster::grouped_m, 8}, ctas);
  run_config<4, 2, 2, variant::full, pp192>(b, {raster::grouped_m, 16}, ctas);
  run_config<5, 2, 1, variant::full, pp192>(b, {raster::grouped_m, 8}, ctas);
  // 128 x 200 tiles: N = 8192 in 41 tile columns (8 columns over), 2624 tiles = 19.9 waves of
  // 132 CTAs where 128 x 192 needs 2752 = 20.8 waves, so each CTA computes at most 20 tiles
  // instead of 21 (the epilogue stores the last 8 columns of each tile through a second map).
  run_config<4, 2, 2, variant::full, schedule<200, true>>(b, {raster::grouped_m, 8}, ctas);
  // Bands of 16 tile rows: each pass over a band reads all of B, so at most half as much of B
  // comes from DRAM as with bands of 8 (less DRAM power under the card's cap).
  run_config<4, 2, 2, variant::full, schedule<200, true>>(b, {raster::grouped_m, 16}, ctas);
  run_config<5, 2, 1, variant::full, schedule<200, true>>(b, {raster::grouped_m, 8}, ctas);
  // Direct stores from registers (hopper/epilogue.cuh): no shared-memory round trip for C, no
  // barrier, and no epilogue buffer, so 5 stages fit beside 128 x 200 and 128 x 192 tiles.
  run_config<5, 2, 0, variant::full, schedule<200, true>>(b, {raster::grouped_m, 8}, ctas);
  run_config<5, 2, 0, variant::full, schedule<192, true>>(b, {raster::grouped_m, 8}, ctas);
  run_config<4, 2, 0>(b, {raster::grouped_m, 8}, ctas);  // cooperative: its epilogue is not hidden
  // The last partial wave shared out along K (hopper/stream_k.cuh): always, and only where
  // stream_k_tail_pays says so (the "on" row keeps that rule under test at every shape).
  run_config<4, 2, 2>(b, {raster::grouped_m, 8, tail_on}, ctas);
  run_config<4, 2, 2>(b, {raster::grouped_m, 8, tail_auto}, ctas);
  // Units along a generalised Hilbert curve (hopper/tile_scheduler.cuh).
  run_config<4, 2, 2>(b, {raster::hilbert, 0, tail_auto}, ctas);
  // --small (the GPU test, the sanitizer runs): the fix-up with clusters of 1 as well (its
  // auto rows have no tail: 16 K blocks).
  if (cli.small) run_config<4, 1, 2>(b, {raster::grouped_m, 16, tail_on}, ctas);
  // The copy-only and compute-only twins of the first row.
  run_config<4, 2, 2, variant::copy_only>(b, {raster::grouped_m, 8}, ctas);
  run_config<4, 2, 2, variant::compute_only>(b, {raster::grouped_m, 8}, ctas);
}

int main(int argc, char** argv) {
  // The command line, the problems, the head-to-head and the outputs:
  // cuprobe_suite/gemm_report.cuh.
  return cuprobe::guarded_main([&] {
    return ex::gemm_main(argc, argv, "gemm: bf16 GEMM from cuprobe's Hopper blocks vs cuBLASLt",
                         add_rows);
  });
}
