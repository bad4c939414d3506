// cuprobe/ptx/cluster.cuh: thread block clusters on the device (sm_90): the cluster special
// registers, mapa (the address of a variable in a peer CTA), distributed shared memory (DSM)
// loads and stores, and the cluster barrier.
//
//   namespace cl = cuprobe::ptx::cluster;
//   __shared__ unsigned slot;
//   cl::sync();                                             // every CTA of the cluster started
//   const unsigned peer = (cl::ctarank() + 1) % cl::nctarank();
//   cl::st(cl::map_shared(&slot, peer), cl::ctarank());     // st.shared::cluster.b32
//   cl::sync();                                             // stores visible; peers may exit
//
// Each function's comment names its instruction; CCCL's cuda::ptx is used where it has one (the
// special registers, getctarank, the barrier), inline PTX elsewhere (mapa, isspacep, and
// ld/st.shared::cluster, asm volatile with a "memory" clobber). map() gives a generic address
// that ordinary loads and stores reach the peer through; map_shared() a 32-bit .shared::cluster
// one, for ld/st.shared::cluster, remote mbarrier arrives and cp.async.bulk (a .shared::cta
// address is a valid .shared::cluster address of the own CTA). The DSM loads and stores are weak:
// order them with the cluster barrier or an mbarrier. sync() at the start makes sure every peer
// is running before its shared memory is touched, and at the end that no CTA exits while a peer
// may still access its shared memory (undefined, PTX ISA). Every function needs sm_90 (a compile
// error with a sentence otherwise, CUPROBE_REQUIRE_SM); including the header compiles anywhere.
// Launch clusters with cuprobe/hopper/cluster.cuh. The SASS is pinned by
// tests/sass/hopper_async_*.cu (UCGABAR_ARV, UCGABAR_WAIT, LD/ST through the shared window).
#pragma once

#include "cuprobe/ptx/detail/cccl_ptx.cuh"

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/ptx/shared.cuh"

namespace cuprobe::ptx::cluster {

namespace detail {
template <class T>
inline constexpr bool dsm_width_ok = std::is_trivially_copyable_v<T> &&
                                     (sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16);

__device__ __forceinline__ void check_dsm(std::uint32_t addr, unsigned width, const char* what) {
#if CUPROBE_PTX_CHECKS
  if (addr % width != 0) {
    printf(
        "cuprobe::ptx::cluster::%s (%u bytes): shared::cluster address 0x%x is not aligned to "
        "the access width (block %u, thread %u); trapping\n",
        what, width, addr, blockIdx.x, threadIdx.x);
    __trap();
  }
#else
  (void)addr, (void)width, (void)what;
#endif
}
}  // namespace detail

#define CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, WHAT) \
  CUPROBE_REQUIRE_SM(                              \
      900, T, "cuprobe::ptx::cluster::" WHAT " needs sm_90 or newer (thread block clusters)")

/// %cluster_ctarank: this CTA's rank in its cluster, 0 .. nctarank() - 1.
template <class T = void>
__device__ __forceinline__ std::uint32_t ctarank() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "ctarank()");
  return cuda::ptx::get_sreg_cluster_ctarank();
}

/// %cluster_nctarank: the number of CTAs in the cluster (1 when launched without clusters).
template <class T = void>
__device__ __forceinline__ std::uint32_t nctarank() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "nctarank()");
  return cuda::ptx::get_sreg_cluster_nctarank();
}

/// %cluster_ctaid: this CTA's coordinates inside its cluster.
template <class T = void>
__device__ __forceinline__ dim3 ctaid() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "ctaid()");
  return dim3(cuda::ptx::get_sreg_cluster_ctaid_x(), cuda::ptx::get_sreg_cluster_ctaid_y(),
              cuda::ptx::get_sreg_cluster_ctaid_z());
}

/// %cluster_nctaid: the cluster's shape in CTAs.
template <class T = void>
__device__ __forceinline__ dim3 nctaid() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "nctaid()");
  return dim3(cuda::ptx::get_sreg_cluster_nctaid_x(), cuda::ptx::get_sreg_cluster_nctaid_y(),
              cuda::ptx::get_sreg_cluster_nctaid_z());
}

/// %clusterid: this cluster's coordinates in the grid of clusters.
template <class T = void>
__device__ __forceinline__ dim3 clusterid() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "clusterid()");
  return dim3(cuda::ptx::get_sreg_clusterid_x(), cuda::ptx::get_sreg_clusterid_y(),
              cuda::ptx::get_sreg_clusterid_z());
}

/// %nclusterid: the grid's shape in clusters.
template <class T = void>
__device__ __forceinline__ dim3 nclusterid() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "nclusterid()");
  return dim3(cuda::ptx::get_sreg_nclusterid_x(), cuda::ptx::get_sreg_nclusterid_y(),
              cuda::ptx::get_sreg_nclusterid_z());
}

/// %is_explicit_cluster: true when the launch named a cluster shape (cudaLaunchKernelEx with
/// cudaLaunchAttributeClusterDimension, or __cluster_dims__), false for an implicit 1-CTA cluster.
template <class T = void>
__device__ __forceinline__ bool is_explicit() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "is_explicit()");
  return cuda::ptx::get_sreg_is_explicit_cluster();
}

/// mapa.u64: the generic address of the same shared variable in the CTA of rank `rank`.
/// `p` must point into this CTA's shared memory; rank < nctarank().
template <class T>
__device__ __forceinline__ T* map(T* p, std::uint32_t rank) {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "map(p, rank)");
  std::uint64_t out;
  asm("mapa.u64 %0, %1, %2;" : "=l"(out) : "l"(reinterpret_cast<std::uint64_t>(p)), "r"(rank));
  return reinterpret_cast<T*>(out);
}

/// mapa.shared::cluster.u32: the 32-bit .shared::cluster address of the variable at the
/// .shared::cta address `addr` of this CTA, in the CTA of rank `rank`.
template <class T = void>
__device__ __forceinline__ std::uint32_t map_shared(std::uint32_t addr, std::uint32_t rank) {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "map_shared(addr, rank)");
  std::uint32_t out;
  asm("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(out) : "r"(addr), "r"(rank));
  return out;
}

/// map_shared of the shared variable *p (a generic pointer into this CTA's shared memory).
template <class T>
__device__ __forceinline__ std::uint32_t map_shared(const T* p, std::uint32_t rank) {
  return map_shared<T>(static_cast<std::uint32_t>(__cvta_generic_to_shared(p)), rank);
}

/// getctarank.shared::cluster: the rank of the CTA whose shared memory the generic address p
/// (from map(), or a plain pointer to this CTA's shared memory) points into.
template <class T>
__device__ __forceinline__ std::uint32_t rank_of(const T* p) {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "rank_of(p)");
  return cuda::ptx::getctarank(cuda::ptx::space_cluster, p);
}

/// isspacep.shared::cluster: true when the generic address p lies in the distributed shared
/// memory window of the cluster (this CTA's shared memory or a peer's).
template <class T>
__device__ __forceinline__ bool is_dsm(const T* p) {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "is_dsm(p)");
  std::uint32_t r;
  asm("{\n\t.reg .pred p;\n\tisspacep.shared::cluster p, %1;\n\tselp.u32 %0, 1, 0, p;\n\t}"
      : "=r"(r)
      : "l"(reinterpret_cast<std::uint64_t>(p)));
  return r != 0;
}

/// ld.shared::cluster of sizeof(T) = 4, 8 or 16 bytes at the .shared::cluster address `addr`
/// (aligned to sizeof(T)): a load from any CTA's shared memory in the cluster.
template <class T>
__device__ __forceinline__ T ld(std::uint32_t addr) {
  static_assert(detail::dsm_width_ok<T>,
                "cuprobe::ptx::cluster::ld<T>: T must be trivially copyable and 4, 8 or 16 bytes");
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "ld<T>(addr)");
  detail::check_dsm(addr, sizeof(T), "ld");
  return ptx::detail::ld_cluster_bits<T>(addr);
}

/// st.shared::cluster of sizeof(T) = 4, 8 or 16 bytes at the .shared::cluster address `addr`
/// (aligned to sizeof(T)): a store into any CTA's shared memory in the cluster.
template <class T>
__device__ __forceinline__ void st(std::uint32_t addr, const T& v) {
  static_assert(detail::dsm_width_ok<T>,
                "cuprobe::ptx::cluster::st<T>: T must be trivially copyable and 4, 8 or 16 bytes");
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "st(addr, v)");
  detail::check_dsm(addr, sizeof(T), "st");
  ptx::detail::st_cluster_bits<T>(addr, v);
}

/// barrier.cluster.arrive.release: this thread arrives at the cluster barrier; its earlier
/// memory accesses are released to the threads that complete the matching wait().
template <class T = void>
__device__ __forceinline__ void arrive() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "arrive()");
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_release);
}

/// barrier.cluster.arrive.relaxed: arrival without ordering (e.g. after fence_init(), whose
/// own release orders the mbarrier initialisation).
template <class T = void>
__device__ __forceinline__ void arrive_relaxed() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "arrive_relaxed()");
  cuda::ptx::barrier_cluster_arrive(cuda::ptx::sem_relaxed);
}

/// barrier.cluster.wait.acquire: waits until every non-exited thread of the cluster arrived.
template <class T = void>
__device__ __forceinline__ void wait() {
  CUPROBE_DETAIL_CLUSTER_NEEDS_SM90(T, "wait()");
  cuda::ptx::barrier_cluster_wait(cuda::ptx::sem_acquire);
}

/// arrive() then wait(): a full cluster-wide barrier (cooperative_groups' cluster.sync()).
template <class T = void>
__device__ __forceinline__ void sync() {
  arrive<T>();
  wait<T>();
}

#undef CUPROBE_DETAIL_CLUSTER_NEEDS_SM90

}  // namespace cuprobe::ptx::cluster
