// cuprobe/ptx/bulk.cuh: bulk asynchronous copies (cp.async.bulk, the "TMA" without and with a
// tensor map), their completion (mbarrier complete_tx or bulk groups) and L2 prefetches (sm_90).
//
//   namespace mb = cuprobe::ptx::mbarrier;
//   namespace bulk = cuprobe::ptx::bulk;
//   if (threadIdx.x == 0) { mb::arrive_expect_tx(&bar, bytes); bulk::load(buf, src, &bar, bytes); }
//   mb::wait(&bar, 0);                                      // global -> shared done
//   cuprobe::ptx::fence_proxy_async<cuprobe::ptx::space::shared>();  // if threads wrote buf since
//   if (threadIdx.x == 0) { bulk::store(dst, buf, bytes); bulk::commit_group(); }
//   if (threadIdx.x == 0) bulk::wait_group<0>();           // dst written
//
// One argument order for every copy: destination, source, then the barrier the copy completes
// on (if any), then the multicast mask (if any), then what is copied: a byte count, or the
// tensor coordinates (innermost first). Barriers are mbarrier::object* (ptx/mbarrier.cuh).
// How each completes (each function's comment names its instruction, PTX ISA "cp.async.bulk"):
// loads (load, load_multicast, copy_to_cluster, tensor_load, tensor_load_multicast) count their
// bytes down the tx-count of the destination CTA's barrier (multicast: each CTA of ctaMask
// announces `bytes` on its own barrier, not bytes x CTAs); stores (store, store_hinted,
// tensor_store) complete through bulk groups: commit_group(), then wait_group<N>() (the writes
// done and visible to this thread) or wait_group_read<N>() (only the sources read: the buffer may
// be rewritten), N = 0..63 checked at compile time. Prefetches have no completion.
// CCCL's cuda::ptx::cp_async_bulk* is used wherever it has the form; the prefetches and the
// hinted store are inline PTX (asm volatile, "memory" clobber). A tensor map is
// `const CUtensorMap*`: the address of a __grid_constant__ kernel parameter, or of a copy in
// global or constant memory; coordinates are int32. Tensor maps are built on the host
// (hopper/tensor_map.cuh).
//
// Issue each copy from ONE thread (if (threadIdx.x == 0) or elect_sync()): the instruction takes
// uniform operands, so ptxas wraps it in a loop that issues one copy per active thread of the
// warp (visible in the SASS as ELECT ... BRA.U.ANY around UBLKCP / UTMALDG).
//
// Debug builds (CUPROBE_PTX_CHECKS) check, with a sentence and __trap(), that sizes are positive
// multiples of 16, that shared and global addresses are 16-byte aligned and in the right state
// space (tensor copies: shared buffers 128-byte aligned, tensor maps 64-byte aligned), that a
// multicast mask is non-empty and inside the cluster, and record the bytes issued on each
// barrier for the bounded mbarrier wait's report (ptx/mbarrier.cuh). Release builds: only the
// instruction (tests/sass/hopper_async_bulk.cu checks both).
#pragma once

#include <cuda.h>
#include "cuprobe/ptx/detail/cccl_ptx.cuh"

#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/ptx/cluster.cuh"
#include "cuprobe/ptx/mbarrier.cuh"

namespace cuprobe::ptx::bulk {

namespace detail {

__device__ __forceinline__ std::uint32_t linear_thread() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

__device__ __forceinline__ void check_size(const char* what, std::uint32_t bytes) {
#if CUPROBE_PTX_CHECKS
  if (bytes == 0 || bytes % 16 != 0) {
    printf(
        "cuprobe::ptx::bulk::%s: size %u bytes is not a positive multiple of 16 (bulk copies "
        "move 16-byte units) (block %u, thread %u); trapping\n",
        what, bytes, blockIdx.x, linear_thread());
    __trap();
  }
#else
  (void)what, (void)bytes;
#endif
}

enum class space { shared, cluster, global, tensor_map };

template <class T = void>
__device__ __forceinline__ void check_address(const char* what, const char* name, const void* p,
                                              space s, unsigned align) {
#if CUPROBE_PTX_CHECKS
  bool in_space = true;
  const char* where = "";
  switch (s) {
    case space::shared:
      in_space = __isShared(p) != 0;
      where = "in this CTA's shared memory";
      break;
    case space::cluster:
      in_space = cluster::is_dsm<T>(p);
      where = "in the shared memory of a CTA of the cluster";
      break;
    case space::global:
      in_space = __isGlobal(p) != 0;
      where = "in global memory";
      break;
    case space::tensor_map:
      in_space = __isGlobal(p) || __isConstant(p) || __isGridConstant(p);
      where = "a __grid_constant__ parameter or in global or constant memory";
      break;
  }
  if (!in_space) {
    printf("cuprobe::ptx::bulk::%s: %s %p is not %s (block %u, thread %u); trapping\n", what, name,
           p, where, blockIdx.x, linear_thread());
    __trap();
  }
  if (reinterpret_cast<std::uintptr_t>(p) % align != 0) {
    printf(
        "cuprobe::ptx::bulk::%s: %s %p is not aligned to %u bytes (block %u, thread %u); "
        "trapping\n",
        what, name, p, align, blockIdx.x, linear_thread());
    __trap();
  }
#else
  (void)what, (void)name, (void)p, (void)s, (void)align;
#endif
}

template <class T = void>
__device__ __forceinline__ void check_mask(const char* what, std::uint16_t mask) {
#if CUPROBE_PTX_CHECKS
  const std::uint32_t n = cuda::ptx::get_sreg_cluster_nctarank();
  if (mask == 0 || (n < 16 && (mask >> n) != 0)) {
    printf(
        "cuprobe::ptx::bulk::%s: ctaMask 0x%x is empty or names CTAs beyond the cluster's %u "
        "(block %u, thread %u); trapping\n",
        what, static_cast<unsigned>(mask), n, blockIdx.x, linear_thread());
    __trap();
  }
#else
  (void)what, (void)mask;
#endif
}

/// Debug builds: traps with a sentence when a tile-mode tensor load or store of `element_bytes`
/// elements starts dimension 0 (c0) off 16 bytes: an illegal instruction on Hopper (observed;
/// tests/gpu/hopper_tensor_copy_fault.cu). Called where the buffer's type is known, 2+ bytes.
__device__ __forceinline__ void check_start(const char* what, std::int32_t c0,
                                            unsigned element_bytes) {
#if CUPROBE_PTX_CHECKS
  if ((static_cast<long long>(c0) * element_bytes) % 16 != 0) {
    printf(
        "cuprobe::ptx::bulk::%s: the dimension-0 start coordinate %d x %u-byte elements is not a "
        "multiple of 16 bytes, which the tile-mode tensor copy does not allow (block %u, thread "
        "%u); trapping\n",
        what, static_cast<int>(c0), element_bytes, blockIdx.x, linear_thread());
    __trap();
  }
#else
  (void)what, (void)c0, (void)element_bytes;
#endif
}

template <class D>
inline constexpr unsigned typed_element_bytes =
    std::is_void_v<D>
        ? 0u
        : static_cast<unsigned>(sizeof(std::conditional_t<std::is_void_v<D>, char, D>));

/// `void`, but dependent on C... (delays the architecture guards of the variadic wrappers).
template <class... C>
struct dependent {
  using type = void;
};

/// A type dependent on N (for the architecture guard of wait_group<N>).
template <int N>
struct n_tag {};

template <class... C>
inline constexpr bool coords_ok = sizeof...(C) >= 1 && sizeof...(C) <= 5 &&
                                  (std::is_convertible_v<C, std::int32_t> && ...);

#define CUPROBE_DETAIL_BULK_COORDS(C, WHAT) \
  static_assert(detail::coords_ok<C...>,    \
                "cuprobe::ptx::bulk::" WHAT \
                ": give 1 to 5 integer coordinates (one per tensor dimension, innermost first)")

}  // namespace detail

#define CUPROBE_DETAIL_BULK_SM90(T, WHAT) \
  CUPROBE_REQUIRE_SM(                     \
      900, T, "cuprobe::ptx::bulk::" WHAT " needs sm_90 or newer (bulk asynchronous copies)")
#define CUPROBE_DETAIL_BULK_SM90A(T, WHAT)                                                    \
  CUPROBE_REQUIRE_SM90A(T, "cuprobe::ptx::bulk::" WHAT                                        \
                           " needs sm_90a (multicast is an "                                  \
                           "architecture-specific feature): build only "                      \
                           "-gencode=arch=compute_90a,code=sm_90a (nvcc's -arch=sm_90a also " \
                           "builds compute_90 PTX, which has no multicast)")

/// Global -> this CTA's shared memory; the bytes complete on `bar` (also in this CTA's shared
/// memory). dst, src 16-byte aligned, bytes a positive multiple of 16.
template <class T = void>
__device__ __forceinline__ void load(void* dst_smem, const void* src_gmem, mbarrier::object* bar,
                                     std::uint32_t bytes) {
  CUPROBE_DETAIL_BULK_SM90(T, "load");
  detail::check_size("load", bytes);
  detail::check_address("load", "destination", dst_smem, detail::space::shared, 16);
  detail::check_address("load", "source", src_gmem, detail::space::global, 16);
  detail::check_address("load", "barrier", bar, detail::space::shared, 8);
  mbarrier::detail::shadow_issued(bar, bytes);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst_smem, src_gmem,
                           bytes, &bar->word);
}

/// Global -> the shared memory of every CTA in `cta_mask` (bit r: cluster rank r), at the offset
/// of dst_smem in each; each copy completes on the barrier at bar's offset in that CTA (sm_90a).
template <class T = void>
__device__ __forceinline__ void load_multicast(void* dst_smem, const void* src_gmem,
                                               mbarrier::object* bar, std::uint16_t cta_mask,
                                               std::uint32_t bytes) {
  CUPROBE_DETAIL_BULK_SM90(T, "load_multicast");
  CUPROBE_DETAIL_BULK_SM90A(T, "load_multicast");
  detail::check_size("load_multicast", bytes);
  detail::check_address("load_multicast", "destination", dst_smem, detail::space::shared, 16);
  detail::check_address("load_multicast", "source", src_gmem, detail::space::global, 16);
  detail::check_address("load_multicast", "barrier", bar, detail::space::shared, 8);
  detail::check_mask("load_multicast", cta_mask);
#if CUPROBE_MBARRIER_DEBUG
  if ((cta_mask >> cuda::ptx::get_sreg_cluster_ctarank()) & 1u)
    mbarrier::detail::shadow_issued(bar, bytes);
#endif
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_global, dst_smem, src_gmem,
                           bytes, &bar->word, cta_mask);
}

/// This CTA's shared memory -> global, completing through the bulk-group mechanism: follow with
/// commit_group() and wait_group<N>() / wait_group_read<N>().
template <class T = void>
__device__ __forceinline__ void store(void* dst_gmem, const void* src_smem, std::uint32_t bytes) {
  CUPROBE_DETAIL_BULK_SM90(T, "store");
  detail::check_size("store", bytes);
  detail::check_address("store", "destination", dst_gmem, detail::space::global, 16);
  detail::check_address("store", "source", src_smem, detail::space::shared, 16);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_global, cuda::ptx::space_shared, dst_gmem, src_smem,
                           bytes);
}

/// This CTA's shared memory -> the shared memory of a CTA of the cluster. dst_cluster and
/// bar_cluster are generic addresses in that same CTA (cluster::map(p, rank)); the bytes
/// complete on its barrier, where that CTA announced them with expect_tx.
template <class T = void>
__device__ __forceinline__ void copy_to_cluster(void* dst_cluster, const void* src_smem,
                                                mbarrier::object* bar_cluster,
                                                std::uint32_t bytes) {
  CUPROBE_DETAIL_BULK_SM90(T, "copy_to_cluster");
  detail::check_size("copy_to_cluster", bytes);
  detail::check_address("copy_to_cluster", "destination", dst_cluster, detail::space::cluster, 16);
  detail::check_address("copy_to_cluster", "source", src_smem, detail::space::shared, 16);
  detail::check_address("copy_to_cluster", "barrier", bar_cluster, detail::space::cluster, 8);
  cuda::ptx::cp_async_bulk(cuda::ptx::space_cluster, cuda::ptx::space_shared, dst_cluster, src_smem,
                           bytes, &bar_cluster->word);
}

/// cp.async.bulk.commit_group: the bulk_group copies (store, tensor_store) this thread issued
/// since the last commit form one group.
template <class T = void>
__device__ __forceinline__ void commit_group() {
  CUPROBE_DETAIL_BULK_SM90(T, "commit_group");
  cuda::ptx::cp_async_bulk_commit_group();
}

/// cp.async.bulk.wait_group N: waits until at most N of this thread's committed groups are
/// pending; the completed groups' writes are done and visible to this thread.
template <int N>
__device__ __forceinline__ void wait_group() {
  static_assert(N >= 0 && N <= 63,
                "cuprobe::ptx::bulk::wait_group<N>: N must be in 0..63 (the hardware counter "
                "behind DEPBAR.LE SB0, N has 6 bits; ptxas silently clamps a larger N to 63)");
  CUPROBE_DETAIL_BULK_SM90(detail::n_tag<N>, "wait_group");
  if constexpr (N >= 0 && N <= 63) cuda::ptx::cp_async_bulk_wait_group(cuda::ptx::n32_t<N>{});
}

/// cp.async.bulk.wait_group.read N: waits only until the sources of all but N pending groups
/// were read, so their shared buffers may be rewritten (the writes may still be in flight).
template <int N>
__device__ __forceinline__ void wait_group_read() {
  static_assert(N >= 0 && N <= 63,
                "cuprobe::ptx::bulk::wait_group_read<N>: N must be in 0..63 (the hardware counter "
                "behind DEPBAR.LE SB0, N has 6 bits; ptxas silently clamps a larger N to 63)");
  CUPROBE_DETAIL_BULK_SM90(detail::n_tag<N>, "wait_group_read");
  if constexpr (N >= 0 && N <= 63) cuda::ptx::cp_async_bulk_wait_group_read(cuda::ptx::n32_t<N>{});
}

/// cp.async.bulk.prefetch.L2.global: brings [src, src + bytes) into L2 (no completion, no
/// destination). src 16-byte aligned, bytes a positive multiple of 16.
template <class T = void>
__device__ __forceinline__ void prefetch_l2(const void* src_gmem, std::uint32_t bytes) {
  CUPROBE_DETAIL_BULK_SM90(T, "prefetch_l2");
  detail::check_size("prefetch_l2", bytes);
  detail::check_address("prefetch_l2", "source", src_gmem, detail::space::global, 16);
  asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(
                   static_cast<std::uint64_t>(__cvta_generic_to_global(src_gmem))),
               "r"(bytes)
               : "memory");
}

/// A box of the tensor described by `map`, at coordinates c..., into this CTA's shared memory
/// (128-byte aligned); the box's bytes complete on `bar`. 1 to 5 coordinates, innermost first.
/// With a typed destination of 2-byte or larger elements (the map's element type), Debug builds
/// also check that c0 starts on 16 bytes (detail::check_start).
template <class D, class... C>
__device__ __forceinline__ void tensor_load(D* dst_smem, const CUtensorMap* map,
                                            mbarrier::object* bar, C... c) {
  CUPROBE_DETAIL_BULK_COORDS(C, "tensor_load");
  CUPROBE_DETAIL_BULK_SM90(typename detail::dependent<C...>::type, "tensor_load");
  detail::check_address("tensor_load", "destination", dst_smem, detail::space::shared, 128);
  detail::check_address("tensor_load", "tensor map", map, detail::space::tensor_map, 64);
  detail::check_address("tensor_load", "barrier", bar, detail::space::shared, 8);
  mbarrier::detail::shadow_tensor_copy(bar);
  if constexpr (detail::coords_ok<C...>) {
    const std::int32_t coords[sizeof...(C)] = {static_cast<std::int32_t>(c)...};
    if constexpr (detail::typed_element_bytes<D> >= 2)
      detail::check_start("tensor_load", coords[0], detail::typed_element_bytes<D>);
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global,
                                    static_cast<void*>(dst_smem), map, coords, &bar->word);
  }
}

/// tensor_load into every CTA of `cta_mask`, at dst_smem's offset, completing on the barrier at
/// bar's offset in each (sm_90a).
template <class D, class... C>
__device__ __forceinline__ void tensor_load_multicast(D* dst_smem, const CUtensorMap* map,
                                                      mbarrier::object* bar, std::uint16_t cta_mask,
                                                      C... c) {
  CUPROBE_DETAIL_BULK_COORDS(C, "tensor_load_multicast");
  CUPROBE_DETAIL_BULK_SM90(typename detail::dependent<C...>::type, "tensor_load_multicast");
  CUPROBE_DETAIL_BULK_SM90A(typename detail::dependent<C...>::type, "tensor_load_multicast");
  detail::check_address("tensor_load_multicast", "destination", dst_smem, detail::space::shared,
                        128);
  detail::check_address("tensor_load_multicast", "tensor map", map, detail::space::tensor_map, 64);
  detail::check_address("tensor_load_multicast", "barrier", bar, detail::space::shared, 8);
  detail::check_mask("tensor_load_multicast", cta_mask);
#if CUPROBE_MBARRIER_DEBUG
  if ((cta_mask >> cuda::ptx::get_sreg_cluster_ctarank()) & 1u)
    mbarrier::detail::shadow_tensor_copy(bar);
#endif
  if constexpr (detail::coords_ok<C...>) {
    const std::int32_t coords[sizeof...(C)] = {static_cast<std::int32_t>(c)...};
    if constexpr (detail::typed_element_bytes<D> >= 2)
      detail::check_start("tensor_load_multicast", coords[0], detail::typed_element_bytes<D>);
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_cluster, cuda::ptx::space_global,
                                    static_cast<void*>(dst_smem), map, coords, &bar->word,
                                    cta_mask);
  }
}

/// This CTA's shared memory (128-byte aligned) -> the box of `map` at c..., through the
/// bulk-group mechanism (commit_group(), wait_group<N>()). A typed source is checked as
/// tensor_load's destination is (c0 on 16 bytes).
template <class S, class... C>
__device__ __forceinline__ void tensor_store(const CUtensorMap* map, const S* src_smem, C... c) {
  CUPROBE_DETAIL_BULK_COORDS(C, "tensor_store");
  CUPROBE_DETAIL_BULK_SM90(typename detail::dependent<C...>::type, "tensor_store");
  detail::check_address("tensor_store", "source", src_smem, detail::space::shared, 128);
  detail::check_address("tensor_store", "tensor map", map, detail::space::tensor_map, 64);
  if constexpr (detail::coords_ok<C...>) {
    const std::int32_t coords[sizeof...(C)] = {static_cast<std::int32_t>(c)...};
    if constexpr (detail::typed_element_bytes<S> >= 2)
      detail::check_start("tensor_store", coords[0], detail::typed_element_bytes<S>);
    cuda::ptx::cp_async_bulk_tensor(cuda::ptx::space_global, cuda::ptx::space_shared, map, coords,
                                    src_smem);
  }
}

/// cp.async.bulk.prefetch.tensor.<N>d.L2.global.tile: brings the box of `map` at c... into L2.
template <class... C>
__device__ __forceinline__ void tensor_prefetch_l2(const CUtensorMap* map, C... c) {
  CUPROBE_DETAIL_BULK_COORDS(C, "tensor_prefetch_l2");
  CUPROBE_DETAIL_BULK_SM90(typename detail::dependent<C...>::type, "tensor_prefetch_l2");
  detail::check_address("tensor_prefetch_l2", "tensor map", map, detail::space::tensor_map, 64);
  const auto m = reinterpret_cast<std::uint64_t>(map);
  if constexpr (detail::coords_ok<C...>) {
    const std::int32_t x[5] = {static_cast<std::int32_t>(c)...};
    constexpr int n = sizeof...(C);
    if constexpr (n == 1) {
      asm volatile("cp.async.bulk.prefetch.tensor.1d.L2.global.tile [%0, {%1}];" ::"l"(m), "r"(x[0])
                   : "memory");
    } else if constexpr (n == 2) {
      asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%0, {%1, %2}];" ::"l"(m),
                   "r"(x[0]), "r"(x[1])
                   : "memory");
    } else if constexpr (n == 3) {
      asm volatile("cp.async.bulk.prefetch.tensor.3d.L2.global.tile [%0, {%1, %2, %3}];" ::"l"(m),
                   "r"(x[0]), "r"(x[1]), "r"(x[2])
                   : "memory");
    } else if constexpr (n == 4) {
      asm volatile(
          "cp.async.bulk.prefetch.tensor.4d.L2.global.tile [%0, {%1, %2, %3, %4}];" ::"l"(m),
          "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3])
          : "memory");
    } else {
      asm volatile(
          "cp.async.bulk.prefetch.tensor.5d.L2.global.tile [%0, {%1, %2, %3, %4, %5}];" ::"l"(m),
          "r"(x[0]), "r"(x[1]), "r"(x[2]), "r"(x[3]), "r"(x[4])
          : "memory");
    }
  }
}

/// prefetch.tensormap: brings the tensor map itself (not the tensor) closer, so that the first
/// copy through it does not wait for the 128-byte descriptor.
template <class T = void>
__device__ __forceinline__ void prefetch_tensormap(const CUtensorMap* map) {
  CUPROBE_DETAIL_BULK_SM90(T, "prefetch_tensormap");
  detail::check_address("prefetch_tensormap", "tensor map", map, detail::space::tensor_map, 64);
  asm volatile("prefetch.tensormap [%0];" ::"l"(reinterpret_cast<std::uint64_t>(map)) : "memory");
}

/// createpolicy.fractional.L2::evict_first.b64 (fraction 1.0): a 64-bit L2 cache policy that
/// marks the lines a copy touches as the first to evict (data written once and not re-read, as
/// in a stream). Pass it to store_hinted().
template <class T = void>
__device__ __forceinline__ std::uint64_t l2_policy_evict_first() {
  CUPROBE_DETAIL_BULK_SM90(T, "l2_policy_evict_first");
  std::uint64_t policy;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
  return policy;
}

/// store() with an L2 cache policy (cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint;
/// inline PTX: CCCL's cp_async_bulk has no cache-hint form). Same rules and completion as store().
template <class T = void>
__device__ __forceinline__ void store_hinted(void* dst_gmem, const void* src_smem,
                                             std::uint32_t bytes, std::uint64_t policy) {
  CUPROBE_DETAIL_BULK_SM90(T, "store_hinted");
  detail::check_size("store_hinted", bytes);
  detail::check_address("store_hinted", "destination", dst_gmem, detail::space::global, 16);
  detail::check_address("store_hinted", "source", src_smem, detail::space::shared, 16);
  asm volatile(
      "cp.async.bulk.global.shared::cta.bulk_group.L2::cache_hint [%0], [%1], %2, %3;" ::"l"(
          static_cast<std::uint64_t>(__cvta_generic_to_global(dst_gmem))),
      "r"(static_cast<std::uint32_t>(__cvta_generic_to_shared(src_smem))), "r"(bytes), "l"(policy)
      : "memory");
}

#undef CUPROBE_DETAIL_BULK_SM90
#undef CUPROBE_DETAIL_BULK_SM90A
#undef CUPROBE_DETAIL_BULK_COORDS

}  // namespace cuprobe::ptx::bulk
