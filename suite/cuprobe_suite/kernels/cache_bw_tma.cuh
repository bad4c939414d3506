// cuprobe_suite/kernels/cache_bw_tma.cuh: an L2 write-bandwidth kernel that stores with the
// copy engine (cp.async.bulk shared -> global, bounded by bulk groups) instead of st.global: the
// second write path of suite::l2_bandwidth (st.global writes reach 0.42 x the L2 read on
// the H200).
//
//   namespace gen = cuprobe::gen;  namespace kernels = cuprobe::suite::kernels;
//   kernels::l2_bulk_write_args a;  a.dst = out;  a.chunks_per_cta = 3;  a.copy_bytes = 4096;
//   a.passes = 2000;  a.stores = count;         // one zeroed counter: gets the stores issued
//   kernels::l2_bulk_write_kernel<4><<<2 * sms, kernels::l2_bulk_write_threads,
//                                 gen::tma_stream_smem_bytes(4096, 4)>>>(a);
//
// The array is gridDim x chunks_per_cta chunks of copy_bytes; each CTA owns chunks_per_cta of
// them (contiguous: CTA b owns b x chunks_per_cta ...; interleaved: b, b + grid, ...), so no two
// CTAs ever store to the same line, and the array (a few MiB) stays in the L2. Every thread
// writes word j of each of the Stages shared buffers as j mod (copy_bytes / 4) and fences the
// generic writes to the async proxy; then issuer k (lane 0 of warp k, k < issuers) stores every
// issuers-th chunk of its CTA from buffer (its count mod Stages), commits one group per store and
// waits until at most Stages - 1 of its groups may still read their source (wait_group.read):
// Stages stores in flight per issuer, many passes per launch. The output check is
// tma_store_check_kernel (gen/tma.cuh): word i of the array is i mod (copy_bytes / 4); the
// counter `stores` proves every store of every pass was issued (passes x chunks per launch).
// The fill sits inside the pass loop, on the pass equal to `fill_pass` (0 at run time, unknown
// to ptxas), so the pass loop is the kernel's outermost loop and tests/sass/cache_bw.cu can check
// that the bulk store (UBLKCP.G.S) lies inside it.
#pragma once

#include <cstdint>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/gen/tma.cuh"
#include "cuprobe/ptx/bulk.cuh"
#include "cuprobe/ptx/fence.cuh"

namespace cuprobe::suite::kernels {

/// Threads of an l2_bulk_write_kernel block: one warp per possible issuer (they all fill).
inline constexpr unsigned l2_bulk_write_threads = 32 * gen::tma_max_store_issuers;

struct l2_bulk_write_args {
  void* dst = nullptr;               ///< gridDim x chunks_per_cta x copy_bytes, 16-B aligned
  std::uint64_t chunks_per_cta = 0;  ///< chunks each CTA owns (and stores once per pass)
  std::uint32_t copy_bytes = 0;      ///< bytes per bulk store: a multiple of 16
  std::uint32_t passes = 1;          ///< passes over the array per launch
  std::uint32_t issuers = 1;         ///< 1 .. gen::tma_max_store_issuers
  std::uint32_t fill_pass = 0;       ///< must be 0 (keeps the fill inside the pass loop)
  gen::tma_order order = gen::tma_order::contiguous;
  unsigned long long* stores = nullptr;  ///< += the bulk stores issued (one counter)
};

/// See the file comment. blockDim.x = l2_bulk_write_threads; dynamic shared memory
/// tma_stream_smem_bytes(copy_bytes, Stages).
template <int Stages>
__global__ void l2_bulk_write_kernel(l2_bulk_write_args a) {
  static_assert(Stages >= 1 && Stages <= int(gen::tma_max_stages), "Stages must be 1 .. 8");
  extern __shared__ unsigned char l2_bulk_raw[];
  unsigned char* buf = gen::detail::tma_aligned_smem(l2_bulk_raw);
  const std::uint32_t words = a.copy_bytes / 4;
  const unsigned k = threadIdx.x / 32;
  const bool issuer = threadIdx.x % 32 == 0 && k < a.issuers;
  // Chunk m (0 .. chunks_per_cta - 1) of this CTA is chunk first + m x stride of the array.
  const std::uint64_t first = a.order == gen::tma_order::contiguous ? blockIdx.x * a.chunks_per_cta
                                                                    : std::uint64_t(blockIdx.x);
  const std::uint64_t stride = a.order == gen::tma_order::contiguous ? 1 : gridDim.x;
  unsigned char* dst = static_cast<unsigned char*>(a.dst);
  unsigned long long issued = 0;
  int stage = 0;
  for (std::uint32_t pass = 0; pass < a.passes; ++pass) {
    if (pass == a.fill_pass) {
      auto* w = reinterpret_cast<std::uint32_t*>(buf);
      for (std::uint32_t i = threadIdx.x; i < words * Stages; i += blockDim.x) w[i] = i % words;
      ptx::fence_proxy_async<ptx::space::shared>();  // generic writes -> the async proxy's reads
      __syncthreads();
      if (!issuer) break;
    }
    if (!issuer) continue;  // (only before the fill pass, were fill_pass not 0)
    for (std::uint64_t m = k; m < a.chunks_per_cta; m += a.issuers) {
      ptx::bulk::store(dst + (first + m * stride) * a.copy_bytes,
                       buf + std::size_t(stage) * a.copy_bytes, a.copy_bytes);
      ptx::bulk::commit_group();
      ptx::bulk::wait_group_read<Stages - 1>();
      stage = stage + 1 == Stages ? 0 : stage + 1;
      ++issued;
    }
  }
  if (!issuer) return;
  ptx::bulk::wait_group<0>();
  atomicAdd(a.stores, issued);
}

/// Counts the words of a store stream's output that are not i mod period (into *bad).
template <int = 0>
__global__ void tma_store_check_kernel(const std::uint32_t* out, std::uint64_t words,
                                       std::uint32_t period, unsigned long long* bad) {
  unsigned long long n = 0;
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < words;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    n += out[i] != static_cast<std::uint32_t>(i % period);
  if (n) atomicAdd(bad, n);
}

/// The number of words of a store stream's output (`words` at `out`) that are not i mod
/// `period`: tma_store_check_kernel over `blocks` blocks of 256, read back (synchronous).
inline unsigned long long tma_store_mismatches(const std::uint32_t* out, std::uint64_t words,
                                               std::uint32_t period, unsigned blocks) {
  device_buffer<unsigned long long> bad(1);
  bad.zero();
  tma_store_check_kernel<<<blocks, 256>>>(out, words, period, bad.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::suite::kernels::tma_store_check_kernel");
  return bad.to_host()[0];
}
}  // namespace cuprobe::suite::kernels
