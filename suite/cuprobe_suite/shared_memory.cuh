// cuprobe_suite/shared_memory.cuh: shared-memory bandwidth in bytes per clock per SM:
// ld.shared and st.shared of 4, 8 and 16 bytes per lane, the bank-conflict curve over strides
// 1..32 words, and the broadcast (every lane on one word).
//
//   namespace ex = cuprobe::suite;
//   auto r = ex::shared_memory_bandwidth(dev, ex::smem_bw_options{}, [](const std::string&) {});
//   std::printf("ld.shared.v4 %.1f B/clk/SM (limit %.0f)\n",
//               r.read[2].bytes_per_clock_per_sm, r.limit.bytes_per_clock);
//
// One block of `threads` per SM (the dynamic shared memory of kernels::smem_bw_kernel allows no
// second), `rounds` rounds of 8 accesses per thread, timed by %clock64 inside each block: a
// sample is the slowest block's cycles; unit cycles, iterations = rounds. Bytes count what the
// lanes receive or give (32 lanes x the width per access), so a broadcast's 4 useful bytes per
// lane count 128 per warp access. bytes_per_clock_per_sm = bytes of one block's round / cycles of
// a round: independent of the clock; TB/s uses the clock of the measurement (run.clock_mhz).
// The limit is model::shared_memory_bandwidth (32 banks x 4 B per clock).
#pragma once

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe/model/memory.cuh"
#include "cuprobe_suite/kernels/smem_bw.cuh"

namespace cuprobe::suite {

inline constexpr int smem_bw_unroll = 8;  ///< accesses per thread per round

struct smem_bw_options {
  unsigned threads = 1024;  ///< per block, one block per SM
  std::uint32_t rounds = 4096;
  std::vector<unsigned> conflict_strides = [] {
    std::vector<unsigned> s;
    for (unsigned i = 1; i <= 32; ++i) s.push_back(i);
    return s;
  }();
  run_options run = run_options::fixed(1, 5);

  void validate() const {
    require(threads >= 32 && threads <= 1024 && threads % 32 == 0,
            "shared_memory_bandwidth: threads must be a multiple of 32 in 32 .. 1024");
    require(rounds >= 1 && rounds <= (1u << 24),
            "shared_memory_bandwidth: rounds must be 1 .. 2^24");
    for (unsigned s : conflict_strides)
      require(s >= 1 && s <= 32,
              "shared_memory_bandwidth: strides are 1 .. 32 words, got " + std::to_string(s));
    require(run.batch == 1 && !run.graph,
            "shared_memory_bandwidth: in-kernel samples; leave run.batch = 1 and run.graph off");
    validate_options(run, "shared_memory_bandwidth");
  }
};

/// One shared-memory point: its measurement and the figures read off it.
struct smem_bw_point {
  measurement m;  ///< unit cycles per round (the slowest block)
  double bytes_per_clock_per_sm = 0;
  unsigned stride = 1;         ///< elements between lanes (0: broadcast)
  unsigned conflict_ways = 1;  ///< 4-byte elements: gcd(stride, 32)
};

/// kernels::smem_bw_kernel<T, Store, 8> at `stride`, one block per SM; see the file comment.
template <class T, bool Store>
smem_bw_point smem_bw_measure(const device_info& dev, unsigned stride, const smem_bw_options& o) {
  o.validate();
  constexpr int U = smem_bw_unroll;
  const unsigned blocks = unsigned(dev.sm_count);
  const std::size_t smem = kernels::smem_bw_bytes(o.threads);
  CUPROBE_CHECK(cudaFuncSetAttribute(kernels::smem_bw_kernel<T, Store, U>,
                                     cudaFuncAttributeMaxDynamicSharedMemorySize, int(smem)));
  device_buffer<unsigned long long> cycles(blocks);
  device_buffer<std::uint32_t> sink(std::size_t(blocks) * o.threads);
  kernels::smem_bw_args a;
  a.rounds = o.rounds;
  a.stride = stride;
  a.cycles = cycles.data();
  a.sink = sink.data();
  auto sampler = [&](cudaStream_t s) {
    cycles.poison(poison_byte, s);
    kernels::smem_bw_kernel<T, Store, U><<<blocks, o.threads, smem, s>>>(a);
    CUPROBE_CHECK_LAUNCH("cuprobe::suite::kernels::smem_bw_kernel");
    cuprobe::wait_for(s, "suite::smem_bw_measure");
    unsigned long long worst = 0;
    for (unsigned long long c : cycles.to_host()) {
      require(!device_buffer<unsigned long long>::is_poison(c), "smem_bw: a block wrote no cycles");
      worst = std::max(worst, c);
    }
    return double(worst);
  };
  run_options ro = o.run;
  ro.mode = loop_mode::in_kernel;
  ro.iterations = o.rounds;
  const double per_round = double(blocks) * o.threads * U * sizeof(T);  // bytes, whole GPU
  const std::string what = std::string(Store ? "st.shared" : "ld.shared") + " " +
                           std::to_string(sizeof(T)) + " B per lane";
  smem_bw_point p;
  p.stride = stride;
  p.conflict_ways = sizeof(T) == 4 ? kernels::smem_conflict_ways(stride) : 1;
  p.m = measure_samples(std::string("smem.") + (Store ? "write" : "read"), sample_unit::cycles,
                        sampler,
                        Store ? work::bytes_moved(0, per_round, what + ": lanes x width per round")
                              : work::bytes_moved(per_round, 0, what + ": lanes x width per round"),
                        ro);
  p.bytes_per_clock_per_sm = per_round / blocks / p.m.stats.median;
  const auto lim = model::shared_memory_bandwidth(dev.sm());
  p.m.with_param("instruction", Store ? "st.shared" : "ld.shared")
      .with_param("bytes_per_lane", sizeof(T))
      .with_param("stride", stride)
      .with_param("conflict_ways", p.conflict_ways)
      .with_param("threads", o.threads)
      .with_param("rounds", o.rounds)
      .with_param("bytes_per_clock_per_sm", p.bytes_per_clock_per_sm)
      .with_param("limit_bytes_per_clock_per_sm", lim.bytes_per_clock)
      .with_param("limit_source", lim.source);
  return p;
}

struct smem_bw_result {
  std::vector<smem_bw_point> read;         ///< conflict-free: 4, 8, 16 bytes per lane
  std::vector<smem_bw_point> write;        ///< conflict-free: 4, 8, 16 bytes per lane
  std::vector<smem_bw_point> conflicts;    ///< 4-byte loads at each stride of conflict_strides
  std::optional<smem_bw_point> broadcast;  ///< 4-byte loads, every lane on one word
  model::bandwidth_limit limit;
};

/// Every point above; `progress(label)` before each.
template <class Progress>
smem_bw_result shared_memory_bandwidth(const device_info& dev, const smem_bw_options& o,
                                       Progress&& progress) {
  o.validate();
  smem_bw_result r;
  r.limit = model::shared_memory_bandwidth(dev.sm());
  progress("ld.shared 4/8/16 B");
  r.read.push_back(smem_bw_measure<std::uint32_t, false>(dev, 1, o));
  r.read.push_back(smem_bw_measure<uint2, false>(dev, 1, o));
  r.read.push_back(smem_bw_measure<uint4, false>(dev, 1, o));
  progress("st.shared 4/8/16 B");
  r.write.push_back(smem_bw_measure<std::uint32_t, true>(dev, 1, o));
  r.write.push_back(smem_bw_measure<uint2, true>(dev, 1, o));
  r.write.push_back(smem_bw_measure<uint4, true>(dev, 1, o));
  for (unsigned s : o.conflict_strides) {
    progress("ld.shared 4 B, stride " + std::to_string(s));
    r.conflicts.push_back(smem_bw_measure<std::uint32_t, false>(dev, s, o));
  }
  progress("ld.shared 4 B, broadcast");
  r.broadcast = smem_bw_measure<std::uint32_t, false>(dev, 0, o);
  return r;
}

}  // namespace cuprobe::suite
