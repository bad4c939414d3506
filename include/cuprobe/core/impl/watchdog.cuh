// cuprobe/core/impl/watchdog.cuh: the definitions of cuprobe/core/watchdog.cuh's larger host
// functions. Not a header of its own: watchdog.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::detail {

CUPROBE_DECL backstop& backstop::get() {
  static backstop* b = new backstop;  // never destroyed: the thread may outlive main()
  return *b;
}

CUPROBE_DECL std::uint64_t backstop::arm(double deadline_s, std::string sentence) {
  pthread_mutex_lock(&mu_);
  if (started_pid_ != getpid()) start();  // first use, or a fork() child (no thread there)
  const std::uint64_t id = next_++;
  armed_.push_back({id, deadline_s, std::move(sentence)});
  pthread_cond_signal(&cv_);
  pthread_mutex_unlock(&mu_);
  return id;
}

CUPROBE_DECL void backstop::disarm(std::uint64_t id) {
  pthread_mutex_lock(&mu_);
  for (std::size_t i = 0; i < armed_.size(); ++i)
    if (armed_[i].id == id) {
      armed_.erase(armed_.begin() + static_cast<std::ptrdiff_t>(i));
      break;
    }
  pthread_mutex_unlock(&mu_);
}

CUPROBE_DECL backstop::backstop() {
  pthread_condattr_t a;
  pthread_condattr_init(&a);
  pthread_condattr_setclock(&a, CLOCK_MONOTONIC);  // monotonic_s()'s clock
  pthread_cond_init(&cv_, &a);
  pthread_condattr_destroy(&a);
}

CUPROBE_DECL void backstop::start() {
  pthread_t t;
  require(pthread_create(&t, nullptr, &backstop::run, this) == 0,
          "watchdog: the watchdog thread could not be started");
  pthread_detach(t);
  started_pid_ = getpid();
}

CUPROBE_DECL void* backstop::run(void* self) {
  auto& b = *static_cast<backstop*>(self);
  pthread_mutex_lock(&b.mu_);
  for (;;) {
    if (b.armed_.empty()) {
      pthread_cond_wait(&b.cv_, &b.mu_);
      continue;
    }
    const entry* first = &b.armed_[0];
    for (const auto& e : b.armed_)
      if (e.deadline_s < first->deadline_s) first = &e;
    const double now = monotonic_s();
    if (now >= first->deadline_s) {
      std::fprintf(stderr, "%s\n", first->sentence.c_str());
      std::fflush(nullptr);
      _exit(124);
    }
    const double until = first->deadline_s;
    timespec ts{static_cast<time_t>(until),
                static_cast<long>((until - double(time_t(until))) * 1e9)};
    pthread_cond_timedwait(&b.cv_, &b.mu_, &ts);
  }
  return nullptr;
}

CUPROBE_DECL double env_seconds(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return 0;
  char* end = nullptr;
  const double d = std::strtod(v, &end);
  return end && *end == '\0' && d > 0 && d < 1e7 ? d : 0;
}

CUPROBE_DECL void on_context_lost() {
  if (gpu_context_lost()) return;
  gpu_context_lost() = true;
  std::atexit([] {
    (void)backstop::get().arm(monotonic_s() + backstop_grace_s,
                              "cuprobe: the process did not end within 1 s of exit() after a GPU "
                              "wait timed out (CUDA's teardown waits for the stuck kernel); "
                              "ending it with status 124.");
  });
}

}  // namespace cuprobe::detail

namespace cuprobe {

CUPROBE_DECL double default_watchdog_s() {
  if (const double e = detail::env_seconds("CUPROBE_WATCHDOG_S")) return e;
  const char* san = std::getenv("CUPROBE_UNDER_SANITIZER");
  return san && *san && std::string(san) != "0" ? 300.0 : 10.0;
}

CUPROBE_DECL std::string hang_sentence(const std::string& what, double waited_s, double limit_s) {
  char head[160];
  std::snprintf(head, sizeof head, "the GPU work has not finished after %.1f s (the limit is %g s",
                waited_s, limit_s);
  std::string s = (what.empty() ? std::string() : what + ": ") + head +
                  ": run_options::watchdog_s or CUPROBE_WATCHDOG_S), so the wait was ended and the "
                  "GPU context cannot be used again in this process; likely causes: an mbarrier "
                  "phase that never completes (expect_tx announcing more bytes than the copies "
                  "deliver, fewer arrivals than init() expects, a wait on the wrong parity), a "
                  "bulk copy whose size or addresses are not multiples of 16 bytes";
  const unsigned used = detail::blocks_in_use_bits();
  if (used & unsigned(block_in_use::tensor_copies))
    s += ", a tensor copy whose box holds fewer bytes than its barrier expects";
  if (used & unsigned(block_in_use::clusters))
    s += ", a cluster barrier or remote arrive that not every CTA of the cluster reaches";
  return s +
         ", or a loop that never ends; rebuild without NDEBUG (CMake's Debug) for cuprobe's "
         "device checks (bounded barrier waits that name the barrier), or run the program "
         "under compute-sanitizer.";
}

}  // namespace cuprobe

namespace cuprobe::detail {

CUPROBE_DECL bool finished(cudaError_t e, const char* call) {
  if (e == cudaErrorNotReady) return false;
  (void)cudaGetLastError();
  if (e != cudaSuccess) detail::check(e, call, __FILE__, __LINE__);
  return true;
}

}  // namespace cuprobe::detail

namespace cuprobe {

CUPROBE_DECL void wait_for(cudaStream_t s, const std::string& what, double limit_s) {
  detail::poll_until([&] { return detail::finished(cudaStreamQuery(s), "cudaStreamQuery"); }, what,
                     limit_s);
}

CUPROBE_DECL void wait_for(cudaEvent_t e, const std::string& what, double limit_s) {
  detail::poll_until([&] { return detail::finished(cudaEventQuery(e), "cudaEventQuery"); }, what,
                     limit_s);
}

CUPROBE_DECL void synchronize_device(const std::string& what, double limit_s) {
  require(!gpu_context_lost(), what +
                                   ": an earlier wait timed out, so the GPU context cannot be "
                                   "used again in this process");
  watchdog_guard g(what, limit_s);
  CUPROBE_CHECK(cudaDeviceSynchronize());
}

}  // namespace cuprobe
