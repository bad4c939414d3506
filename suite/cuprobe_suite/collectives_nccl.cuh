// cuprobe_suite/collectives_nccl.cuh: NCCL's collectives on the GPUs of this node, timed
// by the runner, with nccl-tests' algorithm and bus bandwidth, every output checked. Usable only
// where NCCL is: the build defines CUPROBE_HAVE_NCCL when it links cuprobe::nccl (CMake finds
// NCCL, see docs/multi-gpu.md); elsewhere this header declares nothing but have_nccl = false.
//
//   namespace ex = cuprobe::suite;
//   ex::collective_options o;   o.sizes = ex::collective_sizes(8, 1u << 30);
//   auto r = ex::run_collectives(o, [](const std::string&) {});   // every visible GPU a rank
//   for (const auto& p : r.points)
//     std::printf("%s %zu B: %.1f GB/s bus\n", ex::to_string(p.op), p.bytes, p.busbw_gbps);
//
// One communicator per GPU from ncclCommInitAll. By default one host thread per rank issues
// that rank's collective (nccl-tests' -t N: the threads are started once, and each sample wakes
// them all); collective_options::thread_per_rank = false has one thread issue every rank's
// inside one ncclGroupStart/ncclGroupEnd (nccl-tests' -g N). Either way each rank's launch lies
// between two events on its own stream, and the sample is the longest rank's time (the
// collective ends when its last rank does).
// The samples go through measure_samples() on rank 0's device (its NVML readings, statistics
// and flags), with a fixed count so that every rank runs the same number of collectives.
// All-to-all is ncclSend/ncclRecv to and from every rank in one group. NVLink SHARP (NVLS) is
// switched off (NCCL_NVLS_ENABLE=0, unless the environment already sets it) before the
// communicators are made: its multicast objects can take a node's GPUs out of service. After
// each size the last collective's outputs are checked on every rank (collectives.cuh).
#pragma once

#include "cuprobe_suite/collectives.cuh"

#if defined(CUPROBE_HAVE_NCCL)

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/watchdog.cuh"
#include "cuprobe/measure/event_timer.cuh"
#include "cuprobe/measure/runner.cuh"
#include "cuprobe_suite/rank_threads.cuh"

namespace cuprobe::suite {

inline constexpr bool have_nccl = true;  ///< This build links NCCL.

/// Throws cuprobe::error naming the NCCL call, its result and NCCL's last message.
#define CUPROBE_NCCL_CHECK(call)                                                                 \
  do {                                                                                           \
    const ncclResult_t cuprobe_nccl_rc_ = (call);                                                \
    if (cuprobe_nccl_rc_ != ncclSuccess && cuprobe_nccl_rc_ != ncclInProgress)                   \
      throw ::cuprobe::error(std::string("cuprobe: ") + #call + " failed at " + __FILE__ + ":" + \
                             std::to_string(__LINE__) + ": " +                                   \
                             ncclGetErrorString(cuprobe_nccl_rc_) + " (" +                       \
                             ncclGetLastError(nullptr) + ")");                                   \
  } while (0)

/// NCCL's version as "2.27.3" (the library loaded, ncclGetVersion).
inline std::string nccl_version() {
  int v = 0;
  CUPROBE_NCCL_CHECK(ncclGetVersion(&v));
  return std::to_string(v / 10000) + "." + std::to_string(v / 100 % 100) + "." +
         std::to_string(v % 100);
}

/// One communicator per device (ncclCommInitAll), with a stream and buffers on each; NVLS off.
/// With thread_per_rank, one host thread per rank (rank_threads.cuh). What the threads
/// touch lives in `state`, on the heap: should a rank's thread stay blocked inside NCCL, the
/// GPU context is marked lost (the process then ends within a second of exit even if the
/// driver's teardown would wait) and the state is left allocated, communicators and buffers as
/// they are, for the thread left behind. After an error in a collective the communicators are
/// aborted (ncclCommAbort), not destroyed: a peer's kernel may be waiting for the rank that
/// failed, and a destroy would wait with it.
class nccl_ranks {
 public:
  /// Ranks 0 .. n-1 on `devices`; send and receive buffers of `elements` fp32 each, the send
  /// buffers filled with collective_input(rank, i).
  nccl_ranks(const std::vector<int>& devices, std::size_t elements, bool thread_per_rank = false)
      : s_(std::make_unique<state>()) {
    state& s = *s_;
    s.devices = devices;
    setenv("NCCL_NVLS_ENABLE", "0", 0);  // 0: keep what the user set
    s.comms.resize(devices.size());
    CUPROBE_NCCL_CHECK(ncclCommInitAll(s.comms.data(), int(devices.size()), devices.data()));
    for (std::size_t r = 0; r < devices.size(); ++r) {
      scoped_device on(devices[r]);
      s.streams.push_back(std::make_unique<cuda_stream>());
      s.start.push_back(std::make_unique<cuda_event>());
      s.stop.push_back(std::make_unique<cuda_event>());
      s.send.emplace_back(elements);
      s.recv.emplace_back(elements);
      fill_collective_input(s.send.back().data(), elements, int(r));
      synchronize_device("suite::nccl_ranks (filling the inputs)");
    }
    if (thread_per_rank) threads_ = std::make_unique<rank_threads>(size());
  }
  nccl_ranks(const nccl_ranks&) = delete;
  nccl_ranks& operator=(const nccl_ranks&) = delete;
  ~nccl_ranks() {
    const bool stuck = threads_ && threads_->stuck();
    threads_.reset();  // joins the idle threads, leaves a stuck one behind
    if (stuck) {       // that thread may still use the state: it stays allocated
      (void)s_.release();
      return;
    }
    if (gpu_context_lost()) return;
    for (ncclComm_t c : s_->comms)
      if (c) s_->broken ? ncclCommAbort(c) : ncclCommDestroy(c);
  }
  int size() const { return int(s_->devices.size()); }  ///< ranks
  int device(int r) const { return s_->devices[r]; }    ///< rank r's device

  /// Issues `c` of shape `sh` for every rank, each between its two events: by the rank's own
  /// thread (thread_per_rank), or by this thread for all ranks in one group. The threads are
  /// given half the watchdog's limit (so that their sentence comes before the runner's own).
  void issue(collective c, const collective_shape& sh, int root) {
    state& s = *s_;
    try {
      if (threads_) {
        try {
          threads_->run([st = &s, c, sh, root](int r) { st->issue_rank(r, c, sh, root); },
                        default_watchdog_s() / 2);
        } catch (const std::exception& e) {
          if (!threads_->stuck()) throw;
          ::cuprobe::detail::on_context_lost();  // nothing ends that thread
          throw error(std::string("collectives: ") + to_string(c) + ": " + e.what() +
                      " (a rank blocked inside NCCL: its peers may not have joined)");
        }
        return;
      }
      for (int r = 0; r < size(); ++r) {
        scoped_device on(s.devices[r]);
        s.start[r]->record(*s.streams[r]);
      }
      CUPROBE_NCCL_CHECK(ncclGroupStart());
      try {
        for (int r = 0; r < size(); ++r) s.enqueue(r, c, sh, root);
      } catch (...) {
        ncclGroupEnd();  // the group closed, so that later NCCL calls of this thread are not in it
        throw;
      }
      CUPROBE_NCCL_CHECK(ncclGroupEnd());
      for (int r = 0; r < size(); ++r) {
        scoped_device on(s.devices[r]);
        s.stop[r]->record(*s.streams[r]);
      }
    } catch (...) {
      s.broken = true;
      throw;
    }
  }
  /// Waits for every rank's last collective and returns the longest rank's time, in seconds.
  double wait_longest(double limit_s) {
    state& s = *s_;
    float longest = 0;
    for (int r = 0; r < size(); ++r) {
      wait_for(s.stop[r]->get(), "a collective of rank " + std::to_string(r), limit_s);
      float ms = 0;
      CUPROBE_CHECK(cudaEventElapsedTime(&ms, s.start[r]->get(), s.stop[r]->get()));
      longest = std::max(longest, ms);
    }
    return double(longest) * 1e-3;
  }
  /// "" when every rank's output holds what `c` must leave there, else the first sentence.
  std::string check(collective c, const collective_shape& sh, int root) {
    for (int r = 0; r < size(); ++r) {
      scoped_device on(s_->devices[r]);
      const std::string why = check_collective_output(s_->recv[r].data(), c, size(), r, root, sh);
      if (!why.empty()) return why;
    }
    return "";
  }
  /// Poisons every rank's output.
  void poison_outputs() {
    for (auto& b : s_->recv) b.poison();
  }

 private:
  struct state {
    std::vector<int> devices;
    std::vector<ncclComm_t> comms;
    std::vector<std::unique_ptr<cuda_stream>> streams;
    std::vector<std::unique_ptr<cuda_event>> start, stop;
    std::vector<device_buffer<float>> send, recv;
    bool broken = false;  // an error in a collective: abort the communicators, not destroy

    int size() const { return int(devices.size()); }

    /// Rank r's collective from its own thread, between its two events (all-to-all's sends and
    /// receives in a group of their own).
    void issue_rank(int r, collective c, const collective_shape& sh, int root) {
      CUPROBE_CHECK(cudaSetDevice(devices[r]));  // the current device is per thread
      start[r]->record(*streams[r]);
      const bool grouped = c == collective::all_to_all;
      if (grouped) CUPROBE_NCCL_CHECK(ncclGroupStart());
      try {
        enqueue(r, c, sh, root);
      } catch (...) {
        if (grouped) ncclGroupEnd();
        throw;
      }
      if (grouped) CUPROBE_NCCL_CHECK(ncclGroupEnd());
      stop[r]->record(*streams[r]);
    }

    /// Rank r's part of `c` on its stream (no group of its own).
    void enqueue(int r, collective c, const collective_shape& s, int root) {
      const float* in = send[r].data();
      float* out = recv[r].data();
      cudaStream_t st = *streams[r];
      switch (c) {
        case collective::all_reduce:
          CUPROBE_NCCL_CHECK(
              ncclAllReduce(in, out, s.send_count, ncclFloat, ncclSum, comms[r], st));
          break;
        case collective::all_gather:
          CUPROBE_NCCL_CHECK(ncclAllGather(in, out, s.send_count, ncclFloat, comms[r], st));
          break;
        case collective::reduce_scatter:
          CUPROBE_NCCL_CHECK(
              ncclReduceScatter(in, out, s.recv_count, ncclFloat, ncclSum, comms[r], st));
          break;
        case collective::broadcast:
          CUPROBE_NCCL_CHECK(ncclBroadcast(in, out, s.send_count, ncclFloat, root, comms[r], st));
          break;
        default: {
          const std::size_t chunk = s.send_count / std::size_t(size());
          for (int q = 0; q < size(); ++q) {
            CUPROBE_NCCL_CHECK(ncclSend(in + q * chunk, chunk, ncclFloat, q, comms[r], st));
            CUPROBE_NCCL_CHECK(ncclRecv(out + q * chunk, chunk, ncclFloat, q, comms[r], st));
          }
        }
      }
    }
  };

  std::unique_ptr<state> s_;
  std::unique_ptr<rank_threads> threads_;  // thread_per_rank: one per rank
};

/// One collective at one size.
struct collective_point {
  collective op = collective::all_reduce;  ///< which collective
  int ranks = 0;                           ///< ranks (GPUs)
  std::size_t bytes = 0;                   ///< nccl-tests' size
  measurement m;                           ///< seconds per collective (the longest rank's)
  double algbw_gbps = 0;                   ///< bytes / median time, GB/s
  double busbw_gbps = 0;                   ///< algbw x bus_factor(op, ranks)
  std::string check;                       ///< "" when every output was right
};

/// What run_collectives measured.
struct collective_result {
  std::vector<int> devices;              ///< rank r's device
  std::string nccl_version;              ///< ncclGetVersion
  std::vector<collective_point> points;  ///< every op x size (sizes too small skipped)
  /// The point of (op, bytes), nullptr when not measured.
  const collective_point* find(collective op, std::size_t bytes) const {
    for (const auto& p : points)
      if (p.op == op && p.bytes == bytes) return &p;
    return nullptr;
  }
};

/// Runs every op x size of `o` (see the file comment); a wrong output throws.
template <class Progress>
collective_result run_collectives(const collective_options& o, Progress&& progress) {
  const int visible = device_count();
  o.validate(visible);
  collective_result res;
  res.devices = o.devices;
  if (res.devices.empty())
    for (int d = 0; d < visible; ++d) res.devices.push_back(d);
  const int n = int(res.devices.size());
  std::size_t elements = 0;
  for (collective c : o.ops)
    for (std::size_t b : o.sizes) {
      const auto s = collective_shape_of(c, b, n);
      elements = std::max({elements, s.send_count, s.recv_count});
    }
  require(elements > 0, "collectives: every size is below one fp32 element per rank");
  for (int d : res.devices) {
    scoped_device on(d);
    std::size_t free_b = 0, total_b = 0;
    CUPROBE_CHECK(cudaMemGetInfo(&free_b, &total_b));
    require(2 * elements * 4 + (std::size_t(512) << 20) <= free_b,
            "collectives: two buffers of " + fmt_bytes(4.0 * elements) + " do not fit in the " +
                fmt_bytes(double(free_b)) + " free on device " + std::to_string(d) +
                "; lower the largest size");
  }
  nccl_ranks ranks(res.devices, elements, o.thread_per_rank);
  res.nccl_version = nccl_version();
  scoped_device on(res.devices[0]);
  for (collective c : o.ops)
    for (std::size_t b : o.sizes) {
      const collective_shape s = collective_shape_of(c, b, n);
      if (s.bytes == 0) continue;
      progress(std::string(to_string(c)) + " " + fmt_bytes(double(s.bytes)) + " on " +
               std::to_string(n) + " GPU" + (n == 1 ? "" : "s"));
      ranks.poison_outputs();
      collective_point p;
      p.op = c;
      p.ranks = n;
      p.bytes = s.bytes;
      const double limit = default_watchdog_s();
      p.m = measure_samples(
          std::string("nccl.") + to_string(c), sample_unit::seconds,
          [&] {
            ranks.issue(c, s, o.root);
            return ranks.wait_longest(limit);
          },
          work::bytes_moved(double(s.bytes), 0,
                            "nccl-tests' size: the larger of a rank's buffers; algbw = size / "
                            "time of the longest rank"),
          o.run);
      if (p.m.rate.seconds && *p.m.rate.seconds > 0) {
        p.algbw_gbps = double(s.bytes) / *p.m.rate.seconds / 1e9;
        p.busbw_gbps = p.algbw_gbps * bus_factor(c, n);
      }
      p.check = ranks.check(c, s, o.root);
      require(p.check.empty(), "collectives: " + p.check);
      p.m.with_param("collective", to_string(c))
          .with_param("ranks", n)
          .with_param("bytes", double(s.bytes))
          .with_param("send_count", double(s.send_count))
          .with_param("recv_count", double(s.recv_count))
          .with_param("algbw_gbps", p.algbw_gbps)
          .with_param("busbw_gbps", p.busbw_gbps)
          .with_param("bus_factor", bus_factor(c, n))
          .with_param("nccl_version", res.nccl_version)
          .with_param("threads", o.thread_per_rank ? "one per rank" : "one for all ranks")
          .with_param("valid", true);
      res.points.push_back(std::move(p));
    }
  return res;
}

}  // namespace cuprobe::suite

#else

namespace cuprobe::suite {
inline constexpr bool have_nccl = false;  ///< This build does not link NCCL.
}  // namespace cuprobe::suite

#endif
