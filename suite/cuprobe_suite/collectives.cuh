// cuprobe_suite/collectives.cuh: what the collectives experiment computes without NCCL:
// the operations, their buffer shapes, nccl-tests' bus-bandwidth factors, the message sizes,
// the options, and the exact inputs and expected outputs with the kernels that fill and check
// them. The runs themselves need NCCL: cuprobe_suite/collectives_nccl.cuh.
//
//   namespace ex = cuprobe::suite;
//   const auto s = ex::collective_shape_of(ex::collective::all_gather, 1u << 30, 8);
//   double algbw = s.bytes / seconds, busbw = algbw * ex::bus_factor(ex::collective::all_gather,
//   8); auto sizes = ex::collective_sizes();                   // 8 B .. 4 GiB, doubling
//
// Sizes and bandwidths as nccl-tests define them (its doc/PERFORMANCE.md): the size is the
// larger of a rank's two buffers (all-gather: the gathered output; reduce-scatter: the input),
// algorithm bandwidth = size / time, and bus bandwidth = algorithm bandwidth x a factor that
// makes it comparable with the hardware's link rate whatever the rank count n: all-reduce
// 2(n-1)/n, all-gather, reduce-scatter and all-to-all (n-1)/n, broadcast 1. Elements are fp32;
// a size is rounded down to a whole number of elements per rank (sizes below 4 n bytes are
// skipped). Rank r's input element i is collective_input(r, i), a small integer, so every sum of
// up to 1024 ranks is exact in fp32 and each output element is checked for equality.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/measure/runner.cuh"

namespace cuprobe::suite {

/// The collectives measured (all through NCCL; all-to-all as ncclSend/ncclRecv pairs).
enum class collective { all_reduce, all_gather, reduce_scatter, broadcast, all_to_all };

/// "all_reduce", "all_gather", "reduce_scatter", "broadcast" or "all_to_all".
inline const char* to_string(collective c) {
  switch (c) {
    case collective::all_reduce:
      return "all_reduce";
    case collective::all_gather:
      return "all_gather";
    case collective::reduce_scatter:
      return "reduce_scatter";
    case collective::broadcast:
      return "broadcast";
    default:
      return "all_to_all";
  }
}

/// Every collective, in the order above.
inline std::vector<collective> all_collectives() {
  return {collective::all_reduce, collective::all_gather, collective::reduce_scatter,
          collective::broadcast, collective::all_to_all};
}

/// The collective named `name` (to_string's names); a sentence naming `who` otherwise.
inline collective collective_named(const std::string& name, const std::string& who) {
  for (collective c : all_collectives())
    if (name == to_string(c)) return c;
  throw error("cuprobe: " + who + ": unknown collective '" + name +
              "'; the collectives are all_reduce, all_gather, reduce_scatter, broadcast and "
              "all_to_all");
}

/// nccl-tests' bus-bandwidth factor of `c` on `ranks` ranks: all-reduce 2(n-1)/n; all-gather,
/// reduce-scatter, all-to-all (n-1)/n; broadcast 1.
constexpr double bus_factor(collective c, int ranks) {
  const double n = ranks;
  return c == collective::all_reduce  ? 2.0 * (n - 1) / n
         : c == collective::broadcast ? 1.0
                                      : (n - 1) / n;
}

/// One rank's buffers of one collective at one size (elements are fp32).
struct collective_shape {
  std::size_t bytes = 0;       ///< the size nccl-tests reports: the larger buffer, in bytes
  std::size_t send_count = 0;  ///< elements each rank sends (its input)
  std::size_t recv_count = 0;  ///< elements each rank receives (its output)
};

/// The buffers of `c` at `bytes` on `ranks` ranks (see the file comment; 0 counts when the
/// size is below one element per rank). Pure.
inline collective_shape collective_shape_of(collective c, std::size_t bytes, int ranks) {
  require(ranks >= 1, "collective_shape_of: ranks must be at least 1");
  const std::size_t n = std::size_t(ranks), total = bytes / 4, per = total / n;
  collective_shape s;
  switch (c) {
    case collective::all_reduce:
    case collective::broadcast:
      s.send_count = s.recv_count = total;
      break;
    case collective::all_gather:
      s.send_count = per;
      s.recv_count = per * n;
      break;
    case collective::reduce_scatter:
      s.send_count = per * n;
      s.recv_count = per;
      break;
    default:
      s.send_count = s.recv_count = per * n;
  }
  if (s.send_count == 0 || s.recv_count == 0) return collective_shape{};
  s.bytes = 4 * (s.send_count > s.recv_count ? s.send_count : s.recv_count);
  return s;
}

/// Sizes from min_bytes to max_bytes, each `factor` times the one before: 8 B .. 4 GiB,
/// doubling, by default (nccl-tests' -b 8 -e 4G -f 2).
inline std::vector<std::size_t> collective_sizes(std::size_t min_bytes = 8,
                                                 std::size_t max_bytes = std::size_t(4) << 30,
                                                 std::size_t factor = 2) {
  require(min_bytes >= 4 && min_bytes <= max_bytes && factor >= 2,
          "collective_sizes: need 4 <= min_bytes <= max_bytes and factor >= 2");
  std::vector<std::size_t> v;
  for (std::size_t b = min_bytes;; b *= factor) {
    v.push_back(b);
    if (b > max_bytes / factor) break;
  }
  return v;
}

/// What the collectives experiment runs.
struct collective_options {
  std::vector<collective> ops = all_collectives();      ///< which collectives
  std::vector<std::size_t> sizes = collective_sizes();  ///< message sizes, bytes
  std::vector<int> devices;  ///< the ranks' devices, one rank each; empty: every visible GPU
  int root = 0;              ///< broadcast's root rank
  /// true: one host thread per rank issues that rank's collectives (nccl-tests' -t N); false:
  /// one thread issues every rank's inside one group (nccl-tests' -g N).
  bool thread_per_rank = true;
  run_options run = run_options::fixed(5, 20);  ///< warm-up and samples, each one collective

  /// Throws cuprobe::error naming the field; `visible` is the number of GPUs.
  void validate(int visible) const {
    const std::string w = "collectives: ";
    require(!ops.empty(), w + "ops must not be empty");
    require(!sizes.empty(), w + "sizes must not be empty");
    for (std::size_t s : sizes)
      require(s >= 4 && s <= (std::size_t(1) << 36),
              w + "a size of " + std::to_string(s) + " bytes is outside 4 B .. 64 GiB");
    const int ranks = devices.empty() ? visible : int(devices.size());
    require(ranks >= 1, w + "there is no GPU to run on");
    for (std::size_t i = 0; i < devices.size(); ++i) {
      require(devices[i] >= 0 && devices[i] < visible, w + "device " + std::to_string(devices[i]) +
                                                           " does not exist (this process sees " +
                                                           std::to_string(visible) + " GPUs)");
      for (std::size_t k = 0; k < i; ++k)
        require(devices[k] != devices[i],
                w + "device " + std::to_string(devices[i]) + " is listed twice (one rank a GPU)");
    }
    require(root >= 0 && root < ranks, w + "root is " + std::to_string(root) +
                                           "; it must be a rank, 0 .. " +
                                           std::to_string(ranks - 1));
    require(run.batch == 1 && !run.graph,
            w + "a sample is one collective: leave run.batch = 1 and run.graph = false");
    validate_options(run, "collectives");
  }
};

/// Rank r's input element i: a small integer, exact in fp32 and in sums of up to 1024 ranks.
__host__ __device__ inline float collective_input(int rank, std::size_t i) {
  return float(i % 1021 + 1 + 3 * std::size_t(rank));
}

/// What rank `rank` of `ranks` must hold in output element i after `c` with this shape.
__host__ __device__ inline float collective_expected(collective c, int ranks, int rank, int root,
                                                     std::size_t send_count, std::size_t recv_count,
                                                     std::size_t i) {
  float s = 0;
  switch (c) {
    case collective::all_reduce:
      for (int q = 0; q < ranks; ++q) s += collective_input(q, i);
      return s;
    case collective::broadcast:
      return collective_input(root, i);
    case collective::all_gather:
      return collective_input(int(i / send_count), i % send_count);
    case collective::reduce_scatter:
      for (int q = 0; q < ranks; ++q) s += collective_input(q, std::size_t(rank) * recv_count + i);
      return s;
    default: {
      const std::size_t chunk = recv_count / std::size_t(ranks);
      return collective_input(int(i / chunk), std::size_t(rank) * chunk + i % chunk);
    }
  }
}

namespace detail {
template <class = void>
__global__ void collective_fill_kernel(float* p, std::size_t n, int rank) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = collective_input(rank, i);
}
/// result[0] += mismatches, result[1] = min(first mismatch).
template <class = void>
__global__ void collective_check_kernel(const float* p, collective c, int ranks, int rank, int root,
                                        std::size_t send_count, std::size_t recv_count,
                                        unsigned long long* result) {
  unsigned long long bad = 0, first = ~0ull;
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < recv_count;
       i += std::size_t(gridDim.x) * blockDim.x)
    if (p[i] != collective_expected(c, ranks, rank, root, send_count, recv_count, i)) {
      if (!bad) first = i;
      ++bad;
    }
  if (bad) {
    atomicAdd(&result[0], bad);
    atomicMin(&result[1], first);
  }
}
inline unsigned collective_grid(std::size_t n) {
  const std::size_t b = (n + 255) / 256;
  return unsigned(b < 4096 ? (b ? b : 1) : 4096);
}
}  // namespace detail

/// Fills `n` elements at `p` (device memory of the current device) with rank `rank`'s input.
inline void fill_collective_input(float* p, std::size_t n, int rank, cudaStream_t s = nullptr) {
  detail::collective_fill_kernel<><<<detail::collective_grid(n), 256, 0, s>>>(p, n, rank);
  CUPROBE_CHECK_LAUNCH("cuprobe::suite::fill_collective_input");
}

/// Checks rank `rank`'s output at `p` (the current device) after `c` with shape `s`: "" when
/// every element matches, else a sentence with the count and the first wrong element.
inline std::string check_collective_output(const float* p, collective c, int ranks, int rank,
                                           int root, const collective_shape& s) {
  device_buffer<unsigned long long> r(2);
  CUPROBE_CHECK(cudaMemset(r.data(), 0, 8));
  CUPROBE_CHECK(cudaMemset(r.data() + 1, 0xFF, 8));
  detail::collective_check_kernel<><<<detail::collective_grid(s.recv_count), 256>>>(
      p, c, ranks, rank, root, s.send_count, s.recv_count, r.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::suite::check_collective_output");
  const auto h = r.to_host();
  if (h[0] == 0) return "";
  float found = 0;
  CUPROBE_CHECK(cudaMemcpy(&found, p + h[1], 4, cudaMemcpyDeviceToHost));
  return std::string(to_string(c)) + ": rank " + std::to_string(rank) + " has " +
         std::to_string(h[0]) + " of " + std::to_string(s.recv_count) +
         " output elements wrong, the first at " + std::to_string(h[1]) + ": expected " +
         std::to_string(
             collective_expected(c, ranks, rank, root, s.send_count, s.recv_count, h[1])) +
         ", found " + std::to_string(found);
}

}  // namespace cuprobe::suite
