// cuprobe_suite/kernels/l2_home_write.cuh: an L2 write kernel in which every SM stores to
// lines that a plan assigns to it, so that a benchmark can choose on which L2 partition the lines
// written by each SM are homed (cuprobe_suite/l2_home_write.cuh builds the plans).
//
//   namespace kernels = cuprobe::suite::kernels;
//   kernels::l2_home_write_args a;      // lines, sm_first from a plan; out: the lines' memory
//   a.out = out;  a.lines = lines;  a.sm_first = first;  a.sm_ids = nsmid;
//   a.blocks_per_sm = 2;  a.passes = 1000;  a.max_lines = cap;  a.tickets = t;  a.faults = f;
//   kernels::l2_home_write_kernel<cuprobe::ptx::cache::cg>
//       <<<2 * sms, 1024, cap * 4>>>(a);     // 2 x 1024 threads: exactly 2 blocks on every SM
//
// The plan is a list of 128-byte line indices of `out` grouped by SM id: SM s owns
// lines[sm_first[s] .. sm_first[s + 1]). A block reads its %smid, takes a ticket on that SM
// (tickets[s] += 1; its rank among the SM's blocks is the ticket mod blocks_per_sm), copies its
// contiguous share of the SM's lines into shared memory, and then stores every line of its
// share once per pass: 8 lanes per line, 16 bytes each (st.global.v4 with StOp), so one warp
// store covers 4 whole lines. Element e (16-byte units of `out`) gets written_element(e, 0), the
// write pattern's value of every other cuprobe kernel: the output check is stream_check's.
//
// Choices:
// - Which SM runs a block is the hardware's choice, so the kernel asks (%smid) instead of
//   assuming; a grid of blocks_per_sm x SMs blocks whose shape lets at most blocks_per_sm of them
//   onto one SM (2 x 1024 threads: the thread limit is 2048) puts exactly blocks_per_sm on every
//   SM, and the tickets prove it after the run (each SM's count must be launches x
//   blocks_per_sm). A block that finds its share larger than max_lines or its SM id outside the
//   plan raises faults[0] and stores nothing (the check then fails; no out-of-bounds access).
// - Line indices are 32-bit (a plan covers at most 512 GiB) and live in shared memory (4 bytes
//   per line: 2 KiB for the ~500 lines an SM owns in 7.5 MiB); the store loop reads its index
//   with one LDS per 16-byte store.
// - Passes are the outer loop, not unrolled, and every store is a volatile ptx::st: no
//   pass can be merged with another although each stores the same values. The copy of the
//   share into shared memory runs on the pass equal to `fill_pass` (0 at run time, unknown to
//   ptxas), so the pass loop is the kernel's outermost loop and tests/sass/cache_bw.cu can check
//   that every store lies inside it.
#pragma once

#include <cstdint>

#include "cuprobe/gen/stream_kernels.cuh"
#include "cuprobe/ptx/cache.cuh"
#include "cuprobe/ptx/timer.cuh"

namespace cuprobe::suite::kernels {

/// Bytes of one line of a plan (the L2's line).
inline constexpr std::uint32_t l2_home_line_bytes = 128;

struct l2_home_write_args {
  float4* out = nullptr;                    ///< the memory the line indices count in
  const std::uint32_t* lines = nullptr;     ///< line indices, grouped by SM id
  const std::uint32_t* sm_first = nullptr;  ///< sm_ids + 1 offsets into lines
  std::uint32_t sm_ids = 0;                 ///< SM ids the plan covers (%nsmid)
  std::uint32_t blocks_per_sm = 1;
  std::uint32_t passes = 1;
  std::uint32_t max_lines = 0;  ///< lines a block's shared memory holds
  unsigned* tickets = nullptr;  ///< sm_ids counters: blocks started per SM id
  unsigned* faults = nullptr;   ///< one word: set when a block could not run its share
  std::uint32_t fill_pass = 0;  ///< must be 0 (keeps the copy of the share inside the pass loop)
};

/// See the file comment. Dynamic shared memory: 4 x max_lines bytes; blockDim.x a multiple of 8.
template <class StOp>
__global__ void l2_home_write_kernel(l2_home_write_args a) {
  extern __shared__ std::uint32_t l2_home_lines[];
  __shared__ std::uint32_t share[2];  // first line (index into a.lines), count
  if (threadIdx.x == 0) {
    const std::uint32_t sm = ptx::smid();
    std::uint32_t first = 0, count = 0;
    if (sm < a.sm_ids) {
      const std::uint32_t rank = atomicAdd(&a.tickets[sm], 1u) % a.blocks_per_sm;
      const std::uint64_t b = a.sm_first[sm], n = a.sm_first[sm + 1] - b;
      first = std::uint32_t(b + n * rank / a.blocks_per_sm);
      count = std::uint32_t(b + n * (rank + 1) / a.blocks_per_sm) - first;
    }
    if (sm >= a.sm_ids || count > a.max_lines) {
      atomicExch(a.faults, 1u);
      count = 0;
    }
    share[0] = first;
    share[1] = count;
  }
  __syncthreads();
  const std::uint32_t first = share[0], count = share[1];
  constexpr std::uint32_t lanes_per_line = l2_home_line_bytes / 16;
  const std::uint32_t part = threadIdx.x % lanes_per_line, slots = blockDim.x / lanes_per_line;
#pragma unroll 1
  for (std::uint32_t p = 0; p < a.passes; ++p) {
    if (p == a.fill_pass) {  // the copy of the share sits inside the pass loop (the file comment)
      for (std::uint32_t i = threadIdx.x; i < count; i += blockDim.x)
        l2_home_lines[i] = a.lines[first + i];
      __syncthreads();
    }
#pragma unroll 4
    for (std::uint32_t j = threadIdx.x / lanes_per_line; j < count; j += slots) {
      const std::uint64_t e = std::uint64_t(l2_home_lines[j]) * lanes_per_line + part;
      ptx::st<StOp>(a.out + e, gen::detail::written_element<float4>(e, 0));
    }
  }
}

/// SM ids a census counts (%smid below this; larger ids raise the census' fault).
inline constexpr std::uint32_t sm_census_ids = 1024;

/// counts[min(%smid, sm_census_ids - 1)] += 1 from thread 0 of every block, faults[0] = 1 if an
/// id was clamped: which SM ids a grid reaches (2 x SMs blocks of 1024 threads reach every SM,
/// since one SM holds at most 2 such blocks).
template <class = void>
__global__ void sm_census_kernel(unsigned* counts, unsigned* faults) {
  if (threadIdx.x != 0) return;
  const std::uint32_t sm = ptx::smid();
  if (sm >= sm_census_ids) atomicExch(faults, 1u);
  atomicAdd(&counts[sm < sm_census_ids ? sm : sm_census_ids - 1], 1u);
}

}  // namespace cuprobe::suite::kernels
