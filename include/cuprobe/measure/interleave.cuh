// cuprobe/measure/interleave.cuh: several launches measured in alternation, so that each sees the
// same clocks, temperature and power state: the protocol for comparing a kernel with its peer.
//
//   const auto w = cuprobe::work::flop_count(f, 1, "2 M N K");
//   auto ms = cuprobe::measure_interleaved("gemm.head_to_head",
//       {{"mine", [&](cudaStream_t s) { mine(s); }, w},
//        {"cublaslt", [&](cudaStream_t s) { peer(s); }, w}}, opts);
//   std::printf("%.3f x\n", ms[0].tflop_per_s() / ms[1].tflop_per_s());
//
// Why: measured one after the other, the second of two tensor-heavy kernels runs on a card the
// first has heated and power-capped (examples/gemm saw the first row after cuBLASLt lose 6 % at
// 8192^3, at an in-kernel clock 60 MHz below the rows after it).
//
// The protocol is measure()'s (runner.cuh), with one change: a sample is a round in which every
// contestant takes one event-timed sample of `batch` launches, and round k starts with
// contestant k mod n, so each takes each position equally often. Each contestant's measurement
// holds its own samples and the NVML clock read after each; the stopping rule decides on the
// rounds; the warm-up alternates too; flush_l2 and rest_ms apply before every contestant's
// sample. CUDA graphs are refused (every contestant is launched as it is). A contestant's
// `after` runs after each of its samples, outside the timed region (examples/gemm reads each
// launch's in-kernel clock there). Counters (run_options::counters) are collected for each
// contestant in a pass of its own after the rounds.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cuprobe/core/box.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/runner.cuh"

namespace cuprobe {

/// One of the launches measure_interleaved() alternates: what measure() takes, by name, and
/// optionally what to do after each of its samples.
struct contestant {
  std::string name;                              ///< the measurement's name
  callback<void(const launch_context&)> launch;  ///< enqueue one launch on ctx.stream
  work declared;                                 ///< the declared work, as measure() takes it
  /// Called after each timed sample (not in the warm-up), once its launches have finished and
  /// outside the timed region: to read what the kernel recorded about that sample (its clock).
  callback<void(const launch_context&)> after;
  /// A contestant named `n` that launches with `f`, does the work `w`, and calls `then` after
  /// each sample.
  contestant(std::string n, callback<void(const launch_context&)> f, work w = {},
             callback<void(const launch_context&)> then = {})
      : name(std::move(n)), launch(std::move(f)), declared(std::move(w)), after(std::move(then)) {}
  /// A callable that takes a cudaStream_t, as measure() accepts.
  CUPROBE_DECL contestant(std::string n, callback<void(cudaStream_t)> f, work w = {},
                          callback<void(const launch_context&)> then = {});
};

/// Measures every contestant in alternation (see the file comment); one measurement per
/// contestant, in their order, each with the parameters "interleaved" (how many contestants)
/// and "interleave_group" (`name`).
CUPROBE_DECL std::vector<measurement> measure_interleaved(const std::string& name,
                                                          std::vector<contestant> cs,
                                                          run_options opt = {});

/// The headline of a head-to-head: the median over the rounds (all, or those listed) of
/// mine's rate / peer's rate in the same round, a sample's rate being its declared work (bytes
/// moved when both declare bytes, else FLOP, else ops, else 1) over its time. Pairing the
/// rounds cancels what changes between them (the card's power state); empty when no round has
/// both samples.
CUPROBE_DECL std::optional<double> paired_ratio(const measurement& mine, const measurement& peer,
                                                const std::vector<std::size_t>* rounds = nullptr);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/interleave.cuh"
#endif
