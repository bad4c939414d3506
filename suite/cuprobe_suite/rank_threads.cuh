// cuprobe_suite/rank_threads.cuh: one host thread per rank (per GPU), started once and woken for
// each step, as nccl-tests' -t N drives its ranks.
//
//   cuprobe::suite::rank_threads threads(n);             // n threads, idle
//   threads.run([&](int r) {                             // every rank once, all at once
//     CUPROBE_CHECK(cudaSetDevice(devices[r]));          // the current device is per thread
//     start[r].record(streams[r]);  issue_rank(r);  stop[r].record(streams[r]);
//   }, /*limit_s=*/5);                                   // throws if they do not all return
//
// run(f, limit_s) wakes every thread, they meet at a spin barrier (so that no rank's time holds
// the others' wake-up, tens of microseconds), then thread r calls f(r); run returns when all
// have. The first exception of any f is rethrown once every thread finished its step. A thread
// not back within limit_s (a rank waiting for a peer that never comes) makes run throw a sentence
// naming how many; stuck() is then true and the object must not run again: the destructor joins
// the idle threads and leaves a stuck one behind with the shared state it uses, so what f
// touches must outlive it too (keep it on the heap). The meeting is bounded by limit_s as well.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/core/host_time.cuh"

namespace cuprobe::suite {

/// One host thread per rank; see the file comment.
class rank_threads {
 public:
  /// Starts `ranks` threads (1 .. 1024), idle until run().
  explicit rank_threads(int ranks) : s_(std::make_shared<shared>()) {
    require(ranks >= 1 && ranks <= 1024,
            "rank_threads: ranks must be 1 .. 1024, got " + std::to_string(ranks));
    s_->ranks = ranks;
    s_->finished.assign(std::size_t(ranks), 0);
    for (int r = 0; r < ranks; ++r) threads_.emplace_back([s = s_, r] { s->work(r); });
  }
  rank_threads(const rank_threads&) = delete;
  rank_threads& operator=(const rank_threads&) = delete;
  ~rank_threads() {
    std::vector<char> idle(threads_.size());
    {
      std::lock_guard<std::mutex> lock(s_->mu);
      s_->quit = true;
      for (std::size_t r = 0; r < threads_.size(); ++r) idle[r] = s_->finished[r] == s_->generation;
    }
    s_->go.notify_all();
    for (std::size_t r = 0; r < threads_.size(); ++r) {
      if (idle[r])
        threads_[r].join();
      else
        threads_[r].detach();  // it holds the shared state: freed when it returns, if ever
    }
  }

  int size() const { return s_->ranks; }  ///< ranks (threads)
  bool stuck() const { return stuck_; }   ///< a run timed out: threads were left behind

  /// Every rank's thread calls f(r) once, after all have woken; returns when all have returned.
  /// Throws the first exception an f threw, or a sentence when not all returned within limit_s.
  void run(std::function<void(int)> f, double limit_s) {
    require(!stuck_, "rank_threads: an earlier step did not end, so the threads cannot run again");
    require(limit_s > 0, "rank_threads: the limit must be positive");
    std::unique_lock<std::mutex> lock(s_->mu);
    s_->step = std::move(f);
    s_->limit_s = limit_s;
    s_->pending = s_->ranks;
    s_->error = nullptr;
    ++s_->generation;
    s_->go.notify_all();
    if (!s_->done.wait_for(lock, std::chrono::duration<double>(limit_s),
                           [&] { return s_->pending == 0; })) {
      stuck_ = true;
      std::string why = "rank_threads: " + std::to_string(s_->pending) + " of " +
                        std::to_string(s_->ranks) + " ranks' threads did not finish their step " +
                        "within " + fmt(limit_s, 3) + " s";
      if (s_->error) why += "; a rank failed before: " + what_of(s_->error);
      throw error(why);
    }
    if (s_->error) std::rethrow_exception(s_->error);
  }

 private:
  static std::string what_of(const std::exception_ptr& e) {
    try {
      std::rethrow_exception(e);
    } catch (const std::exception& x) {
      return x.what();
    } catch (...) {
      return "an exception that is not a std::exception";
    }
  }

  struct shared {
    int ranks = 0;
    std::mutex mu;
    std::condition_variable go, done;
    std::uint64_t generation = 0;         // the step being run (0: none yet)
    std::vector<std::uint64_t> finished;  // the last step each thread finished
    int pending = 0;
    bool quit = false;
    std::function<void(int)> step;
    double limit_s = 0;
    std::exception_ptr error;
    std::atomic<std::uint64_t> arrived{0};  // arrivals at the meeting, over every step

    void work(int r) {
      std::uint64_t seen = 0;
      for (;;) {
        std::function<void(int)> f;
        double limit = 0;
        {
          std::unique_lock<std::mutex> lock(mu);
          go.wait(lock, [&] { return quit || generation != seen; });
          if (quit) return;
          seen = generation;
          f = step;
          limit = limit_s;
        }
        std::exception_ptr e;
        try {
          meet(seen, limit);
          f(r);
        } catch (...) {
          e = std::current_exception();
        }
        std::lock_guard<std::mutex> lock(mu);
        if (e && !error) error = e;
        finished[std::size_t(r)] = seen;
        if (--pending == 0) done.notify_one();
      }
    }
    // Each thread arrives once per step; step g is complete when g x ranks have (no step starts
    // before every thread has finished the one before, so the count never runs ahead).
    void meet(std::uint64_t g, double limit) {
      const std::uint64_t all = g * std::uint64_t(ranks);
      arrived.fetch_add(1, std::memory_order_acq_rel);
      const double t0 = monotonic_s();
      for (unsigned spins = 1; arrived.load(std::memory_order_acquire) < all; ++spins) {
        if (spins % 1024 == 0) {
          require(
              monotonic_s() - t0 < limit,
              "rank_threads: the ranks' threads did not all wake within " + fmt(limit, 3) + " s");
          std::this_thread::yield();
        }
      }
    }
  };

  std::shared_ptr<shared> s_;
  std::vector<std::thread> threads_;
  bool stuck_ = false;
};

}  // namespace cuprobe::suite
