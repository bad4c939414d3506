// gemm: a bf16 GEMM (fp32 accumulation, C = A B^T, A M x K and B N x K row-major) built only from
// cuprobe's Hopper blocks, beside cuBLASLt's best algorithm on the same inputs, with "copy only"
// and "compute only" variants of the same kernel to show how much of the copy the MMAs hide.
//
//   build/h200/examples/gemm --json gemm.json     (--quick: 8192^3 only; --small: sanitizer)
//
// The kernel: a persistent grid (one CTA per SM, 384 threads), each CTA computing 128 x 256
// tiles of C in the order of hopper/tile_scheduler.cuh. Warpgroup 0 is the producer: one
// thread issues the TMA loads of each 64-deep K block (A 128 x 64, B 256 x 64, 128B swizzle)
// into a Stages-deep ring of hopper/pipeline.cuh; with clusters of 2 along M the B tile is
// multicast (each CTA loads half and sends it to both). Warpgroups 1 and 2 are consumers:
// each multiplies its 64 rows of A by B with four wgmma m64n256k16 per K block, keeps one
// K block of MMAs in flight (wait_group<1>) and releases the stage before last, then writes
// its 64 x 256 tile through hopper/epilogue.cuh (stmatrix into swizzled shared memory, TMA
// store). setmaxnreg gives the producer 40 registers and the consumers 232.
// The SM clock of each launch is measured in the kernel: lane 0 of the first consumer warp
// records %clock64 and %globaltimer at its start and after its last store (measure/
// region_timer.cuh, warp scope, one record per CTA, no block-wide barrier: the producer runs
// another loop); the median over the CTAs of cycles / ns is the clock beside NVML's, which is
// stale for launches of a few milliseconds (docs/hopper-gemm.md).
// Limits: M a multiple of 128 x cluster, N of 256, K of 64 (checked); sm_90a only.
#include <cuprobe/core/device_info.cuh>
#include <cuprobe/experiments/gemm.cuh>
#include <cuprobe/hopper/cluster.cuh>
#include <cuprobe/hopper/epilogue.cuh>
#include <cuprobe/hopper/pipeline.cuh>
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/hopper/stream_k.cuh>
#include <cuprobe/hopper/tensor_map.cuh>
#include <cuprobe/hopper/tile_scheduler.cuh>
#include <cuprobe/measure/region_timer.cuh>
#include <cuprobe/model/peak.cuh>
#include <cuprobe/ptx/elect.cuh>
#include <cuprobe/report/cli.cuh>
#include <cuprobe/report/results.cuh>
#include <cuprobe/report/summary.cuh>
#include <cuprobe/report/table.cuh>

#include <algorithm>
#include <cstdio>
#include <optional>

namespace h = cuprobe::hopper;
namespace p = cuprobe::ptx;
namespace wg = cuprobe::ptx::wgmma;
namespace ex = cuprobe::experiments;
using bf16 = __nv_bfloat16;

constexpr int BM = 128, BN = 256, BK = 64;  // CTA tile, K block
constexpr std::uint32_t a_bytes = BM * BK * 2, b_bytes = BN * BK * 2;
enum class variant { full, copy_only, compute_only };  // what the kernel does of the GEMM

template <int Stages, int Cluster, int EpiBuffers>
struct gemm_config {
  using pipeline = h::tma_pipeline<Stages, Cluster>;
  using epilogue = h::tma_store_epilogue<bf16, BN, EpiBuffers>;
  static constexpr std::size_t smem =
      h::dynamic_smem_bytes<1024>(Stages * (a_bytes + b_bytes) + 2 * epilogue::smem_bytes +
                                  sizeof(pipeline) + sizeof(cuprobe::region_token));
};

template <int Stages, int Cluster, int EpiBuffers, variant V>
__global__ void __launch_bounds__(384, 1)
    gemm_kernel(const __grid_constant__ CUtensorMap a_map,
                const __grid_constant__ CUtensorMap b_map,
                const __grid_constant__ CUtensorMap c_map, h::stream_k_schedule sched,
                h::split_k_fixup<BN> fixup, int lag, cuprobe::region_timer_view timer) {
  using cfg = gemm_config<Stages, Cluster, EpiBuffers>;
  extern __shared__ unsigned char raw[];
  // Stages x A, then Stages x B, the epilogue buffers, the ring, the clock's start.
  unsigned char* a_st = h::align_up<1024>(raw);
  unsigned char* b_st = a_st + Stages * a_bytes;
  unsigned char* epi = b_st + Stages * b_bytes;
  auto& pipe = *reinterpret_cast<typename cfg::pipeline*>(epi + 2 * cfg::epilogue::smem_bytes);
  auto& span = *reinterpret_cast<cuprobe::region_token*>(&pipe + 1);
  const unsigned group = h::warpgroup_index(), rank = Cluster > 1 ? p::cluster::ctarank() : 0;
  if (threadIdx.x == 0) pipe.init(/*consumers per CTA=*/2);
  if constexpr (Cluster > 1)
    p::cluster::sync();
  else
    __syncthreads();
  const int cl = int(blockIdx.x) / Cluster, items = sched.items(cl);
  // compute_only: the ring is filled once and the MMAs run on those resident tiles.
  const auto loads = [&](int done) { return V != variant::compute_only || done < Stages; };

  if (group == 0) {  // ---- producer: one thread issues every TMA load ----
    p::setmaxnreg_dec<h::producer_registers>();
    if (threadIdx.x < 32 && p::elect_one_sync()) {
      auto st = pipe.producer_start();
      for (int i = 0, done = 0; i < items; ++i) {
        const h::work_item w = sched.item(cl, i);
        const h::tile t = sched.tiles.tile_of(w.unit, rank);
        for (int kb = w.k_begin; kb < w.k_end && loads(done); ++kb, ++st, ++done) {
          pipe.acquire(st);
          std::uint64_t* bar = pipe.fill(st, a_bytes + b_bytes);
          p::bulk::tensor_load(a_st + st.stage * a_bytes, &a_map, bar, kb * BK, t.m * BM);
          if constexpr (Cluster == 1)
            p::bulk::tensor_load(b_st + st.stage * b_bytes, &b_map, bar, kb * BK, t.n * BN);
          else  // this CTA's slice of B, into the same place in every CTA of the cluster
            p::bulk::tensor_load_multicast(b_st + st.stage * b_bytes + rank * (b_bytes / Cluster),
                                           &b_map, bar, (1u << Cluster) - 1, kb * BK,
                                           t.n * BN + int(rank) * (BN / Cluster));
        }
      }
    }
  } else {  // ---- consumers: 64 rows of the tile each ----
    p::setmaxnreg_inc<h::consumer_registers>();
    const unsigned c = group - 1;
    // The clock: the first consumer warp's span (warp scope: __syncwarp, lane 0 writes). Its
    // start waits in shared memory (`span`): held in registers across the tile loop, it was
    // spilled. `timed` is made visibly warp-uniform: a per-lane condition before the wgmma
    // loop cost a WARPSYNC per K block and moved the loop's addresses off the uniform datapath.
    const bool timed = c == 0 && __shfl_sync(~0u, h::warpgroup_thread() / 32, 0) == 0;  // uniform
    if (timed) {
      const cuprobe::region_token t0 = timer.start();
      if (h::warpgroup_thread() == 0) span = t0;
    }
    constexpr auto a_lay =
        wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, BK);
    constexpr auto b_lay =
        wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, BN, BK);
    // Stage s, K step j: the start address moves by s x stage bytes + 32 j (16-byte units).
    const std::uint64_t a_desc =
        a_lay.descriptor_at(p::smem_address(a_st) + c * 64 * 128, 0).encode();
    const std::uint64_t b_desc = b_lay.descriptor_at(p::smem_address(b_st), 0).encode();
    const bool releaser = h::warpgroup_thread() == 0;
    // The workspace slot of cluster q's partial for this CTA and warpgroup.
    const auto slot = [&](int q) { return (q * Cluster + int(rank)) * 2 + int(c); };
    wg::accumulator<wg::f32, BN> acc;
    auto st = pipe.consumer_start();
    // lag > 0: consumer 1 starts `lag` K blocks after consumer 0 (named barrier 3), so that
    // while one runs its epilogue the other's MMAs keep the tensor cores busy.
    int total = 0;
    for (int i = 0; i < items; ++i) total += sched.item(cl, i).k_end - sched.item(cl, i).k_begin;
    const int lag_at = lag < total ? lag : total;
    if (lag_at > 0 && c == 1) p::named_barrier_sync(3, 256);
    for (int i = 0, done = 0; i < items; ++i) {
      const h::work_item w = sched.item(cl, i);
      const h::tile t = sched.tiles.tile_of(w.unit, rank);
      auto prev = st;
      for (int kb = w.k_begin; kb < w.k_end; ++kb, ++st, ++done) {
        if (loads(done)) pipe.wait_full(st);
        if constexpr (V != variant::copy_only) {
          wg::fence_operand(acc);
          wg::fence();
#pragma unroll
          for (int j = 0; j < BK / 16; ++j)
            wg::mma_async<wg::bf16, wg::bf16>(acc, a_desc + ((st.stage * a_bytes + 32 * j) >> 4),
                                              b_desc + ((st.stage * b_bytes + 32 * j) >> 4),
                                              kb > w.k_begin || j > 0);
          wg::commit_group();
          if (c == 0 && done + 1 == lag_at) p::named_barrier_arrive(3, 256);
          wg::wait_group<1>();  // the previous K block's MMAs are done: release its stage
        } else if (c == 0 && done + 1 == lag_at) {
          p::named_barrier_arrive(3, 256);
        }
        if (V != variant::compute_only && kb > w.k_begin && releaser) pipe.release(prev);
        prev = st;
      }
      wg::wait_group<0>();
      wg::fence_operand(acc);
      if (V != variant::compute_only && releaser) pipe.release(prev);
      if constexpr (V != variant::copy_only) {
        if (w.role == h::work_role::partial) {
          fixup.store(acc, slot(cl), 1 + c);
          continue;
        }
        if (w.role == h::work_role::finisher)
          for (int q = sched.first_partner(cl); q < sched.partner_end(cl, w); ++q)
            fixup.add(acc, slot(q), 1 + c);
        cfg::epilogue::store(acc, epi + c * cfg::epilogue::smem_bytes, &c_map,
                             t.m * BM + 64 * int(c), t.n * BN, 1 + c);
      }
    }
    cfg::epilogue::drain();
    if (timed) timer.stop(span);  // lane 0 writes the record, from its own start
  }
  if constexpr (Cluster > 1) p::cluster::sync();  // no CTA leaves while peers may still signal it
}

/// What a row sets besides the template parameters (stages, cluster size, epilogue buffers).
struct options {
  h::raster order = h::raster::grouped_m;
  int group = 8;                          ///< unit rows per band (grouped_m only)
  h::tail_mode tail = h::tail_mode::off;  ///< stream-K tail: off, on, or where it pays
  int lag = 0;  ///< K blocks by which consumer 1 starts after consumer 0 (at most Stages)
  h::l2_promotion_mode promote = h::l2_promotion_mode::b256;
};

/// One configuration of the kernel on one problem: tensor maps, scheduler, persistent launch.
template <int Stages, int Cluster, int EpiBuffers, variant V>
struct gemm_launch {
  h::tensor_map a, b, c;
  cuprobe::region_timer timer;  // the first consumer warp's span, one record per CTA
  h::stream_k_schedule sched;
  h::cluster_launch shape;
  cuprobe::device_buffer<float4> partials;  // the stream-K tail's workspace
  cuprobe::device_buffer<int> flags;
  int lag;  // K blocks by which consumer 1 starts after consumer 0
  gemm_launch(ex::gemm_problem& pr, const options& o, int max_ctas)
      : a(h::make_tensor_map(h::tensor_map_spec::matrix(pr.a.data(), pr.shape.m, pr.shape.k, BM, BK,
                                                        h::swizzle_mode::b128)
                                 .with_l2_promotion(o.promote))),
        b(h::make_tensor_map(h::tensor_map_spec::matrix(pr.b.data(), pr.shape.n, pr.shape.k,
                                                        BN / Cluster, BK, h::swizzle_mode::b128)
                                 .with_l2_promotion(o.promote))),
        c(h::make_tensor_map(h::tensor_map_spec::matrix(pr.c.data(), pr.shape.m, pr.shape.n, 64, 64,
                                                        h::swizzle_mode::b128))),
        timer(cuprobe::region_scope::warp, std::size_t(max_ctas) * (384 / 32)),
        lag(o.lag) {
    const auto& s = pr.shape;
    cuprobe::require(s.m % (BM * Cluster) == 0 && s.n % BN == 0 && s.k % BK == 0,
                     "gemm: " + s.name() + " is not a multiple of the " +
                         std::to_string(BM * Cluster) + " x " + std::to_string(BN) + " x " +
                         std::to_string(BK) + " tile");
    // Consumer 0 cannot refill a stage before consumer 1 has released it, and consumer 1 waits
    // for consumer 0's `lag`-th K block: a lag above the ring's depth would never start.
    cuprobe::require(o.lag >= 0 && o.lag <= Stages,
                     "gemm: a consumer lag of " + std::to_string(o.lag) +
                         " K blocks needs a ring of at least as many stages (this one has " +
                         std::to_string(Stages) + ")");
    const h::tile_scheduler tiles{s.m / BM, s.n / BN, o.order, o.group, Cluster};
    if (const char* why = tiles.problem()) throw cuprobe::error(std::string("gemm: ") + why);
    // Persistent: as many whole clusters as fit at once (not every GPC holds an even number
    // of free SMs), at most max_ctas CTAs and no more than there are units of work.
    shape.shape = {dim3(unsigned(Cluster)), dim3(384),
                   gemm_config<Stages, Cluster, EpiBuffers>::smem};
    shape.cluster = dim3(Cluster);
    const int fit = h::max_active_clusters(gemm_kernel<Stages, Cluster, EpiBuffers, V>, shape);
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
  void operator()(cudaStream_t s) {
    shape.stream = s;
    h::launch(gemm_kernel<Stages, Cluster, EpiBuffers, V>, shape, a.get(), b.get(), c.get(), sched,
              h::split_k_fixup<BN>{partials.data(), flags.data()}, lag, timer.view());
  }
};

/// The SM clock of a launch from its region records: the median over the CTAs of %clock64
/// cycles / %globaltimer ns, in MHz (nothing without records).
std::optional<double> kernel_clock_mhz(const std::vector<cuprobe::region_record>& records) {
  std::vector<double> mhz;
  for (const auto& r : records)
    if (r.stop_ns > r.start_ns && r.stop_cycles > r.start_cycles)
      mhz.push_back(double(r.stop_cycles - r.start_cycles) / double(r.stop_ns - r.start_ns) * 1e3);
  if (mhz.empty()) return std::nullopt;
  return cuprobe::median(mhz);
}

/// One kernel configuration timed on a problem; its output checked against the peer's.
struct row {
  std::string kernel;
  cuprobe::measurement m;
  ex::gemm_check check;
  std::optional<double> kernel_mhz = std::nullopt;       ///< SM clock in the kernel (last launch)
  std::optional<double> kernel_fraction = std::nullopt;  ///< of the tensor peak at kernel_mhz
};

/// What every configuration of one run shares.
struct run_setup {
  const cuprobe::device_info& dev;
  cuprobe::run_options run;
  bool with_peer;  ///< C_peer holds cuBLASLt's output to check against
  int max_ctas;    ///< the persistent grid's limit (SMs; fewer with --small: a stream-K tail)
  double peak_flop_per_clk;  ///< dense bf16 tensor FLOP per clock per SM (model/peak.cuh)
};

/// TFLOP/s as a fraction of the tensor peak of the whole GPU at `mhz`.
double fraction_of_peak(double tflops, const run_setup& su, double mhz) {
  return tflops / (su.peak_flop_per_clk * su.dev.sm_count * mhz * 1e-6);
}

template <int Stages, int Cluster, int EpiBuffers, variant V = variant::full>
row run_config(ex::gemm_problem& pr, const run_setup& su, const options& o) {
  gemm_launch<Stages, Cluster, EpiBuffers, V> l(pr, o, su.max_ctas);
  const char* what = V == variant::full        ? ""
                     : V == variant::copy_only ? " copy only"
                                               : " compute only";
  const std::string tail =
      o.tail == h::tail_mode::on ? ", stream-K tail"
      : o.tail == h::tail_mode::automatic
          ? std::string(", stream-K tail auto (") + (l.sched.tail ? "on" : "off") + ")"
          : "";
  const std::string name =
      "cluster " + std::to_string(Cluster) + ", " + std::to_string(Stages) + " stages, " +
      std::to_string(EpiBuffers) + " epilogue buffers, " + h::raster_name(o.order) +
      (o.order == h::raster::grouped_m ? " " + std::to_string(o.group) : "") +
      (o.promote == h::l2_promotion_mode::none ? ", no L2 promotion" : "") + tail +
      (o.lag > 0 ? ", consumer lag " + std::to_string(o.lag) : "") + what;
  pr.c.poison(0xFF);
  row r{name, ex::measure_gemm("gemm.cuprobe.bf16." + pr.shape.name(), pr, l, su.run), {}};
  // The records of the last timed launch (each launch overwrites its CTAs' records).
  const auto records = l.timer.read();
  const unsigned ctas = l.shape.shape.grid.x;
  r.kernel_mhz = kernel_clock_mhz(records);
  if (r.kernel_mhz) r.kernel_fraction = fraction_of_peak(r.m.tflop_per_s(), su, *r.kernel_mhz);
  if (records.size() != ctas)
    r.m.flags.push_back({"kernel_clock_records", std::to_string(records.size()) +
                                                     " clock records for " + std::to_string(ctas) +
                                                     " CTAs: the in-kernel clock is incomplete"});
  if (r.kernel_fraction && *r.kernel_fraction > 1.01)
    r.m.flags.push_back(
        {"above_tensor_peak", cuprobe::fmt(100 * *r.kernel_fraction, 1) +
                                  " % of the tensor peak at the in-kernel clock of " +
                                  cuprobe::fmt(*r.kernel_mhz, 0) +
                                  " MHz: the FLOP or the clock are miscounted"});
  r.m.with_param("kernel", name)
      .with_param("stages", Stages)
      .with_param("cluster", Cluster)
      .with_param("ctas", int(ctas))
      .with_param("raster", h::raster_name(o.order))
      .with_param("stream_k_tail", h::tail_mode_name(o.tail))
      .with_param("stream_k_tail_used", l.sched.tail)
      .with_param("consumer_lag", o.lag)
      .with_param("kernel_clock_mhz", r.kernel_mhz)
      .with_param("fraction_of_peak_kernel_clock", r.kernel_fraction)
      .with_launch(l.shape.shape);
  if (V == variant::full) r.check = ex::check_gemm(pr, 256, su.with_peer);
  return r;
}

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "gemm: bf16 GEMM from cuprobe's Hopper blocks vs cuBLASLt",
        {cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here"),
         cuprobe::cli_option::integer("--peer",
                                      "1: run cuBLASLt beside (0: skip it; the check "
                                      "then uses the fp64 samples only)",
                                      0, 1, 1)});
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::require(dev.cc_major == 9,
                     "gemm: needs an sm_90a GPU (wgmma, TMA), found " + dev.name);
    const auto peak = cuprobe::model::find_tensor_peak(dev.sm(), "bf16");
    cuprobe::require(peak.has_value(), "gemm: no bf16 tensor peak is known for sm_" +
                                           std::to_string(dev.sm()) + " (model/peak.cuh)");
    const bool with_peer = cli.get_integer("--peer") == 1;
    std::vector<ex::gemm_shape> shapes = {
        {4096, 4096, 4096}, {8192, 8192, 8192}, {8192, 8192, 2048}};
    if (cli.quick) shapes = {{8192, 8192, 8192}};
    if (cli.small) shapes = {{512, 512, 1024}};  // compute-sanitizer: 8 tiles, 16 K blocks each
    auto run = cli.run_options();
    run.warmup = 2;
    run.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));
    // --small: 6 CTAs, so that the 512 x 512 problem has a stream-K tail (3 clusters of 2 on
    // 4 units: 1 wave, then one unit in 3 pieces; 6 clusters of 1 on 8 units: 2 units in 6).
    const run_setup su{dev, run, with_peer, cli.small ? 6 : dev.sm_count,
                       peak->flop_per_clock(false)};
    cuprobe::results res(argc, argv);
    cuprobe::summary_file sum(argc, argv, dev);
    bool all_ok = true;
    using h::raster;
    constexpr auto tail_on = h::tail_mode::on, tail_auto = h::tail_mode::automatic;
    for (const auto& s : shapes) {
      std::fprintf(stderr, "gemm: %s\n", s.name().c_str());
      auto pr = ex::gemm_problem::make(s, 1);
      std::optional<ex::cublaslt_gemm::result> ref;
      if (with_peer) ref = ex::cublaslt_gemm(pr).measure_best(pr, run);
      // Cluster 2 (B multicast), 4 stages, 2 epilogue buffers unless the row says otherwise.
      // Dropped after the runs of docs/hopper-gemm.md, where they trailed at every shape:
      // grouped_m 4, along_n, 3 stages with whole-tile epilogue buffers, cluster 1 with the
      // tail, and the lag rows at grouped_m 16.
      std::vector<row> rows;
      rows.push_back(run_config<4, 2, 2>(pr, su, {raster::grouped_m, 8}));
      rows.push_back(run_config<4, 2, 2>(pr, su, {raster::grouped_m, 16}));
      rows.push_back(run_config<4, 2, 2>(
          pr, su, {raster::grouped_m, 8, h::tail_mode::off, 0, h::l2_promotion_mode::none}));
      rows.push_back(run_config<4, 1, 2>(pr, su, {raster::grouped_m, 16}));
      // The last partial wave shared out along K (hopper/stream_k.cuh): always, and only where
      // stream_k_tail_pays says so (the "on" row keeps that rule under test at every shape).
      rows.push_back(run_config<4, 2, 2>(pr, su, {raster::grouped_m, 8, tail_on}));
      rows.push_back(run_config<4, 2, 2>(pr, su, {raster::grouped_m, 8, tail_auto}));
      // Consumer 1 2, 3 or 4 K blocks behind consumer 0 (one's epilogue under the other's
      // MMAs); 4 is the most a 4-stage ring allows (gemm_launch refuses more).
      for (int lag : {2, 3, 4})
        rows.push_back(run_config<4, 2, 2>(pr, su, {raster::grouped_m, 8, tail_auto, lag}));
      // Units along a generalised Hilbert curve (hopper/tile_scheduler.cuh).
      rows.push_back(run_config<4, 2, 2>(pr, su, {raster::hilbert, 0}));
      rows.push_back(run_config<4, 2, 2>(pr, su, {raster::hilbert, 0, tail_auto}));
      rows.push_back(run_config<4, 2, 2>(pr, su, {raster::hilbert, 0, tail_auto, 2}));
      // --small (the GPU test, the sanitizer runs): the fix-up with clusters of 1 as well (its
      // auto rows have no tail: 16 K blocks).
      if (cli.small) rows.push_back(run_config<4, 1, 2>(pr, su, {raster::grouped_m, 16, tail_on}));
      // The copy-only and compute-only twins of the first row.
      const row copy = run_config<4, 2, 2, variant::copy_only>(pr, su, {raster::grouped_m, 8});
      const row math = run_config<4, 2, 2, variant::compute_only>(pr, su, {raster::grouped_m, 8});
      const row* best = &rows[0];
      for (const auto& r : rows) {
        if (r.m.tflop_per_s() > best->m.tflop_per_s()) best = &r;
        all_ok = all_ok && r.check.ok();
      }
      // The full kernel of the twins' configuration, found by name: "<its name> copy only".
      const auto twin = std::find_if(rows.begin(), rows.end(), [&](const row& r) {
        return r.kernel + " copy only" == copy.kernel;
      });
      cuprobe::require(twin != rows.end(),
                       "gemm: no row is the full kernel of '" + copy.kernel + "'");
      const double peer = ref ? ref->m.tflop_per_s() : 0;
      std::printf(
          "\nbf16 GEMM %s (C = A B^T, fp32 accumulation) on %s; %s; x peak: of %.0f FLOP/clk/SM "
          "at the SM clock NVML saw during each measurement (stale for launches this short) and "
          "at the clock measured in the kernel (%%clock64 / %%globaltimer, median of the CTAs "
          "of the last launch; cuBLASLt cannot be instrumented)\n",
          s.name().c_str(), dev.name.c_str(),
          ref ? ("cuBLASLt: the best of " + std::to_string(ref->candidates) + " algorithms (#" +
                 std::to_string(ref->algorithm) + ")")
                    .c_str()
              : "cuBLASLt not run",
          su.peak_flop_per_clk);
      cuprobe::table t({"kernel", "CTAs", "ms", "TFLOP/s", "x cuBLASLt", "x peak (NVML clock)",
                        "NVML MHz", "x peak (kernel clock)", "kernel MHz", "output"});
      const auto add = [&](const std::string& k, const cuprobe::measurement& m,
                           const std::string& ok, const row* r) {
        const double clk = m.env.median_sm_clock_mhz().value_or(0);
        const bool in_kernel = r && r->kernel_mhz;
        t.add_row({k, m.launch ? std::to_string(m.launch->grid.x) : "-",
                   cuprobe::fmt(m.seconds() * 1e3, 3), cuprobe::fmt(m.tflop_per_s(), 1),
                   peer > 0 ? cuprobe::fmt(m.tflop_per_s() / peer, 3) : "-",
                   clk > 0 ? cuprobe::fmt(fraction_of_peak(m.tflop_per_s(), su, clk), 3) : "-",
                   clk > 0 ? cuprobe::fmt(clk, 0) : "-",
                   in_kernel ? cuprobe::fmt(*r->kernel_fraction, 3) : "-",
                   in_kernel ? cuprobe::fmt(*r->kernel_mhz, 0) : "-", ok});
        res.add(m);
      };
      if (ref) add("cuBLASLt", ref->m, "reference", nullptr);
      for (const auto& r : rows) add(r.kernel, r.m, r.check.ok() ? "ok" : "WRONG", &r);
      add(copy.kernel, copy.m, "-", &copy);
      add(math.kernel, math.m, "-", &math);
      t.print();
      const double tc = copy.m.seconds(), tm = math.m.seconds(), both = twin->m.seconds();
      std::printf(
          "best: %s; %s\noverlap (%s): copy only %.3f ms, compute only %.3f ms, both %.3f ms = "
          "%.3f x max(copy, compute)\n",
          best->kernel.c_str(), best->check.summary().c_str(), twin->kernel.c_str(), tc * 1e3,
          tm * 1e3, both * 1e3, both / std::max(tc, tm));
      const std::string key =
          "gemm.bf16." + (s.m == s.n && s.n == s.k ? std::to_string(s.m) : s.name());
      sum.set(key + ".tflops", best->m.tflop_per_s());
      sum.set(key + ".overlap_vs_max", both / std::max(tc, tm));
      if (best->kernel_mhz) {
        sum.set(key + ".kernel_clock_mhz", *best->kernel_mhz);
        sum.set(key + ".fraction_of_peak", *best->kernel_fraction);
      }
      if (ref) {
        sum.set(key + ".vs_cublas", best->m.tflop_per_s() / peer);
        sum.set(key + ".cublas_tflops", peer);
      }
      res.extra("gemm")[s.name()]["best_kernel"] = best->kernel;
      res.extra("gemm")[s.name()]["check"] = best->check.summary();
    }
    res.extra("gemm")["metrics"] = sum.metrics();
    res.write(cli);
    if (cli.has("--summary")) sum.write(cli.get("--summary"));
    if (!all_ok)
      throw cuprobe::error("gemm: an output did not match its references (see the tables)");
    return 0;
  });
}
