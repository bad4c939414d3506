// cuprobe_suite/kernels/host_memory.cuh: the visibility probe of system memory. A GPU thread
// reads one word with a cache operator, tells the host it has, and keeps re-reading it with the
// same operator while the host changes the word: does a re-read see the new value?
//
//   namespace kernels = cuprobe::suite::kernels;  namespace cache = cuprobe::ptx::cache;
//   cuprobe::host_buffer<std::uint32_t> word(1, cuprobe::host_memory::mapped);
//   word[0] = 1;
//   auto r = kernels::watch_word<cache::cv>(word.device_data(), [&] {   // runs while the GPU polls
//     *static_cast<volatile std::uint32_t*>(word.data()) = 2;
//   });
//   std::printf("%s\n", r.saw_change ? "the re-read saw 2" : "the re-read kept seeing 1");
//
// The protocol (watch_word): the host clears a `ready` word and a `done` word (both mapped host
// memory), launches visibility_kernel<Op> on a stream of its own and spins on `ready` (bounded:
// `host_wait_s`). The kernel's one thread reads the watched word with ld<Op> (that read brings
// its line into whatever cache Op allows), stores ready = first | 1 (st.global.wt +
// fence.sc.sys; a store that waits for the first read's value), then re-reads with ld<Op> until the
// value differs from the first read, `max_polls` reads were made, or `timeout_ns` of %globaltimer
// passed: it always ends, and says which. Once it sees ready (and not done) the host calls
// `change()`, which must change the word (write it, or enqueue a copy on another stream and wait
// for it), then waits for the kernel. Each re-read offsets its address by poll x `zero` (a kernel
// argument that is 0) so that ptxas cannot hoist the load out of the loop (it does so for a weak
// load of an unchanged address).
#pragma once

#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdint>
#include <string>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/host_buffer.cuh"
#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/fence.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::suite::kernels {

/// The arguments of visibility_kernel.
struct visibility_args {
  const std::uint32_t* word = nullptr;  ///< the watched word (mapped host or device memory)
  std::uint32_t* ready = nullptr;       ///< mapped host word: nonzero once the first read returned
  std::uint32_t* done = nullptr;        ///< mapped host word: 1 when the kernel stops polling
  std::uint64_t max_polls = 0;
  std::uint64_t timeout_ns = 0;
  std::uint64_t zero = 0;  ///< must be 0 (see the file comment)
};

/// What the kernel saw.
struct visibility_out {
  std::uint32_t first;  ///< the first read
  std::uint32_t last;   ///< the last read
  std::uint32_t changed;
  std::uint32_t timed_out;        ///< 1: stopped by timeout_ns (not by max_polls or a change)
  unsigned long long polls;       ///< re-reads after the first
  unsigned long long elapsed_ns;  ///< %globaltimer from ready to the last read
};

/// One thread (block 0, thread 0) reads, signals, re-reads (see the file comment).
template <class Op>
__global__ void visibility_kernel(visibility_args a, visibility_out* out) {
  if (blockIdx.x != 0 || threadIdx.x != 0) return;
  const std::uint32_t first = ptx::ld<Op>(a.word);
  // ready = first | 1: never 0, and its data is the first read's, so the store cannot leave
  // the SM before that read returned. A ready store sent while the read is on its way may reach
  // host memory first (PCIe lets a posted write pass a read): the host would then change the
  // word before the read saw it.
  ptx::st<ptx::cache::wt>(a.ready, first | 1u);
  ptx::fence<ptx::sem::sc, ptx::scope::sys>();
  const std::uint64_t t0 = ptx::globaltimer();
  std::uint64_t t = t0, polls = 0;
  std::uint32_t v = first, timed_out = 0;
  while (polls < a.max_polls) {
    v = ptx::ld<Op>(a.word + polls * a.zero);
    ++polls;
    t = ptx::globaltimer();
    if (v != first) break;
    if (t - t0 > a.timeout_ns) {
      timed_out = 1;
      break;
    }
  }
  *out = {first, v, v != first ? 1u : 0u, timed_out, polls, t - t0};
  ptx::fence<ptx::sem::sc, ptx::scope::sys>();
  ptx::st<ptx::cache::wt>(a.done, 1u);
}

/// How long watch_word polls.
struct watch_options {
  std::uint64_t max_polls = 1ull << 26;
  std::uint64_t timeout_ns = 250'000'000;  ///< 250 ms of %globaltimer after the ready signal
  double host_wait_s = 20;                 ///< how long the host waits for the ready signal

  void validate(const std::string& who) const {
    require(max_polls >= 1, who + ": max_polls is 0; the kernel needs at least one re-read");
    require(timeout_ns >= 1000 && timeout_ns <= 60'000'000'000ull,
            who + ": timeout_ns is " + std::to_string(timeout_ns) + "; it must be 1 us .. 60 s");
    require(host_wait_s > 0 && host_wait_s <= 600,
            who + ": host_wait_s must be in (0, 600] seconds");
  }
};

/// What watch_word found.
struct watch_result {
  std::uint32_t first = 0, last = 0;
  bool saw_change = false;
  bool timed_out = false;
  /// The host changed the word while the kernel was polling (ready seen, done not yet): only
  /// then does saw_change == false mean "the re-reads did not see it".
  bool concurrent = false;
  std::uint64_t polls = 0;
  double elapsed_ns = 0;
  double host_wait_s = 0;  ///< how long the host waited for ready
};

/// Runs the protocol of the file comment with ld<Op> on `word` (a device-visible pointer:
/// host_buffer::device_data() of mapped memory, or device memory) and returns what the kernel
/// saw. `change()` is called once (also when the ready signal never came: then `concurrent`
/// is false).
template <class Op, class Change>
watch_result watch_word(const std::uint32_t* word, Change&& change, const watch_options& o = {}) {
  o.validate("watch_word");
  require(word != nullptr, "watch_word: the watched word is null");
  host_buffer<std::uint32_t> flags(2, host_memory::mapped);
  volatile std::uint32_t* ready = flags.data();
  volatile std::uint32_t* done = flags.data() + 1;
  *ready = 0;
  *done = 0;
  device_buffer<visibility_out> out(1);
  out.poison();
  cudaStream_t s = nullptr;
  CUPROBE_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  visibility_args a;
  a.word = word;
  a.ready = flags.device_data();
  a.done = flags.device_data() + 1;
  a.max_polls = o.max_polls;
  a.timeout_ns = o.timeout_ns;
  watch_result r;
  try {
    visibility_kernel<Op><<<1, 32, 0, s>>>(a, out.data());
    CUPROBE_CHECK_LAUNCH("cuprobe::suite::kernels::visibility_kernel");
    const auto t0 = std::chrono::steady_clock::now();
    while (*ready == 0) {
      r.host_wait_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      if (r.host_wait_s > o.host_wait_s) break;
    }
    r.concurrent = *ready != 0 && *done == 0;
    change();
    cuprobe::wait_for(s, "kernels::watch_word");
  } catch (...) {
    if (!cuprobe::gpu_context_lost()) (void)cudaStreamSynchronize(s);
    cudaStreamDestroy(s);
    throw;
  }
  CUPROBE_CHECK(cudaStreamDestroy(s));
  const visibility_out h = out.to_host()[0];
  require(!device_buffer<visibility_out>::is_poison(h), "watch_word: the kernel wrote no result");
  r.first = h.first;
  r.last = h.last;
  r.saw_change = h.changed != 0;
  r.timed_out = h.timed_out != 0;
  r.polls = h.polls;
  r.elapsed_ns = double(h.elapsed_ns);
  return r;
}

}  // namespace cuprobe::suite::kernels
