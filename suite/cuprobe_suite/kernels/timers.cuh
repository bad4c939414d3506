// cuprobe_suite/kernels/timers.cuh: the kernels of the timer experiment (cuprobe_suite/timers.cuh):
// back-to-back reads of %clock, %clock64 or %globaltimer, a loop that records each change of
// %globaltimer, and a kernel that sleeps on it.
//
//   kernels::reader_overhead_kernel<int(kernels::reader::clock64)><<<1, 32>>>(out, 256, sink);
//   kernels::globaltimer_steps_kernel<<<1, 1>>>(steps, 512, 200000000ll);
//   kernels::sleep_kernel<<<1, 1, 0, stream>>>(/*ns=*/5000);
#pragma once

#include <cstdint>

#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::suite::kernels {

/// Which register reader_overhead_kernel reads.
enum class reader { clock32 = 0, clock64 = 1, globaltimer = 2 };

/// out[i] = cycles between two back-to-back reads of reader R (globaltimer: the clock64 cycles
/// around one read), for i < repeats.
template <int R>
__global__ void reader_overhead_kernel(std::uint64_t* out, int repeats, std::uint64_t* sink) {
  std::uint64_t keep = 0;
  for (int i = 0; i < repeats; ++i) {
    std::uint64_t d;
    if constexpr (R == int(reader::clock32)) {
      const std::uint32_t a = ptx::clock32();
      const std::uint32_t b = ptx::clock32();
      d = b - a;
    } else if constexpr (R == int(reader::clock64)) {
      const std::uint64_t a = ptx::clock64();
      const std::uint64_t b = ptx::clock64();
      d = b - a;
    } else {
      const std::uint64_t a = ptx::clock64();
      keep += ptx::globaltimer();
      const std::uint64_t b = ptx::clock64();
      d = b - a;
    }
    if (threadIdx.x == 0) out[i] = d;
  }
  if (keep == 1) *sink = keep;  // never true in practice; keeps the globaltimer reads alive
}

/// steps[k] = the k-th change of %globaltimer (ns), polled at most max_polls times (0: none).
template <int = 0>
__global__ void globaltimer_steps_kernel(std::uint64_t* steps, int n, long long max_polls) {
  std::uint64_t prev = ptx::globaltimer();
  int k = 0;
  for (long long p = 0; p < max_polls && k < n; ++p) {
    const std::uint64_t g = ptx::globaltimer();
    if (g != prev) {
      steps[k++] = g - prev;
      prev = g;
    }
  }
  for (; k < n; ++k) steps[k] = 0;
}

/// Spins (with __nanosleep) until `ns` have passed on %globaltimer.
template <int = 0>
__global__ void sleep_kernel(std::uint64_t ns) {
  const std::uint64_t g0 = ptx::globaltimer();
  while (ptx::globaltimer() - g0 < ns) __nanosleep(200);
}

}  // namespace cuprobe::suite::kernels
