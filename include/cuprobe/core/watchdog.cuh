// cuprobe/core/watchdog.cuh: no host wait on the GPU lasts forever, in any build.
//
//   my_kernel<<<grid, block, 0, s>>>(...);
//   cuprobe::wait_for(s, "my_kernel");           // cudaStreamSynchronize, bounded: throws
//   cuprobe::watchdog_guard g("my sampler", 10);  // while g lives, a blocking call that outlasts
//   buffer.to_host();                             // 10 s + 1 s ends the process with a sentence
//
// Two mechanisms, both used by the runner: wait_for() polls cudaStreamQuery / cudaEventQuery
// (spinning 200 us, then sleeping 50 us to 2 ms) and throws cuprobe::error with one sentence when
// the work has not finished in time: what was waited for, how long, the likely causes, and what
// to do. watchdog_guard arms a process-wide watchdog thread (started on first use) for calls that
// block inside CUDA where nothing can be polled (a sampler's cudaMemcpy, a full launch queue): if
// the guard lives past its limit plus 1 s, the thread writes the sentence and _exit(124)s.
// After a timeout the kernel still runs and the context cannot be used again: gpu_context_lost()
// is true, cuprobe's RAII types free nothing (a cudaFree would wait for the kernel), every later
// wait_for() throws at once, and, should the process exit normally, it ends with status 124 at
// most 1 s after exit() began if CUDA's own teardown waits for the kernel.
//
// The limit of one wait: the argument; the runner passes run_options::watchdog_s, or when that
// is 0 the default: CUPROBE_WATCHDOG_S when set (> 0), else 300 s under compute-sanitizer
// (CUPROBE_UNDER_SANITIZER set), else 10 s for the warm-up and the larger of 10 s and 100 x the
// warm-up's duration for every later wait of that measurement. Neither mechanism adds an
// instruction to a kernel; wait_for()'s poll costs the host at most 2 ms after the work ends.
#pragma once

#include <cuda_runtime_api.h>
#include <pthread.h>
#include <time.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// Blocks whose use this process has recorded (note_block_in_use), for the hang sentence.
enum class block_in_use : unsigned { tensor_copies = 1, clusters = 2 };

namespace detail {
inline unsigned& blocks_in_use_bits() {
  static unsigned bits = 0;
  return bits;
}

/// The process-wide watchdog thread behind watchdog_guard (see the file comment).
class backstop {
 public:
  CUPROBE_DECL static backstop& get();
  CUPROBE_DECL std::uint64_t arm(double deadline_s, std::string sentence);
  CUPROBE_DECL void disarm(std::uint64_t id);

 private:
  struct entry {
    std::uint64_t id;
    double deadline_s;
    std::string sentence;
  };
  CUPROBE_DECL backstop();
  CUPROBE_DECL void start();
  CUPROBE_DECL static void* run(void* self);
  pthread_mutex_t mu_ = PTHREAD_MUTEX_INITIALIZER;
  pthread_cond_t cv_;
  std::vector<entry> armed_;
  std::uint64_t next_ = 1;
  pid_t started_pid_ = 0;
};

/// The grace the backstop adds to a guard's limit, so that a polled wait throws first.
inline constexpr double backstop_grace_s = 1.0;

CUPROBE_DECL double env_seconds(const char* name);

/// Called once, at the first timeout: at exit, the process ends within the grace with status
/// 124 should CUDA's teardown wait for the stuck kernel.
CUPROBE_DECL void on_context_lost();
}  // namespace detail

/// Records that this process uses `b`, so that a hang sentence names its likely faults
/// (make_tensor_map and the cluster launch call it).
inline void note_block_in_use(block_in_use b) {
  detail::blocks_in_use_bits() |= static_cast<unsigned>(b);
}

/// The default limit of one wait in seconds: CUPROBE_WATCHDOG_S when set (> 0), else 300 under
/// compute-sanitizer (CUPROBE_UNDER_SANITIZER set), else 10.
CUPROBE_DECL double default_watchdog_s();

/// The sentence of a wait that did not end: `what` (may be empty) was waited for `waited_s`
/// seconds, the limit being `limit_s`.
CUPROBE_DECL std::string hang_sentence(const std::string& what, double waited_s, double limit_s);

namespace detail {
/// Polls `done()` (true: finished, or an error to throw) until `limit_s` passes.
template <class Query>
void poll_until(Query done, const std::string& what, double limit_s) {
  require(!gpu_context_lost(), what +
                                   ": an earlier wait timed out, so the GPU context cannot be "
                                   "used again in this process");
  const double t0 = monotonic_s();
  double nap = 50e-6;
  for (;;) {
    if (done()) return;
    const double waited = monotonic_s() - t0;
    if (waited >= limit_s) {
      on_context_lost();
      throw error(hang_sentence(what, waited, limit_s));
    }
    if (waited > 200e-6) {
      sleep_s(nap);
      nap = nap * 2 < 2e-3 ? nap * 2 : 2e-3;
    }
  }
}
CUPROBE_DECL bool finished(cudaError_t e, const char* call);
}  // namespace detail

/// Waits for everything enqueued on `s` (cudaStreamSynchronize, bounded by `limit_s`); a CUDA
/// error of the work is thrown as CUPROBE_CHECK throws it.
CUPROBE_DECL void wait_for(cudaStream_t s, const std::string& what,
                           double limit_s = default_watchdog_s());

/// Waits for `e` to complete (cudaEventSynchronize, bounded by `limit_s`).
CUPROBE_DECL void wait_for(cudaEvent_t e, const std::string& what,
                           double limit_s = default_watchdog_s());

/// While alive, ends the process (the hang sentence on stderr, status 124) should it not be
/// destroyed within `limit_s` + 1 s: for code that blocks inside CUDA calls.
class watchdog_guard {
 public:
  /// Arms the watchdog for the wait named `what`, of at most `limit_s` seconds.
  watchdog_guard(const std::string& what, double limit_s = default_watchdog_s())
      : id_(detail::backstop::get().arm(
            monotonic_s() + limit_s + detail::backstop_grace_s,
            detail::one_prefix(hang_sentence(what, limit_s + detail::backstop_grace_s, limit_s)))) {
  }
  watchdog_guard(const watchdog_guard&) = delete;
  watchdog_guard& operator=(const watchdog_guard&) = delete;
  ~watchdog_guard() { detail::backstop::get().disarm(id_); }

 private:
  std::uint64_t id_;
};

/// cudaDeviceSynchronize under a watchdog_guard (the device has no query to poll).
CUPROBE_DECL void synchronize_device(const std::string& what,
                                     double limit_s = default_watchdog_s());

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/watchdog.cuh"
#endif
