// cuprobe/ptx/wgmma.cuh: Hopper warpgroup MMA (wgmma, sm_90a): fences, commit/wait, the register
// fence, dense and sparse mma_async with A from shared memory or registers, the shared-memory
// descriptor, canonical layouts and fragment maps.
//
//   namespace wg = cuprobe::ptx::wgmma;
//   wg::accumulator<wg::f32, 128> acc;                     // 64 x 128 tile, 64 floats per thread
//   wg::fence_operand(acc); wg::fence();                   // wgmma.fence before the first MMA
//   wg::mma_async<wg::bf16, wg::bf16>(acc, a.encode(), b.encode(), wg::accumulate::overwrite);
//   wg::commit_group(); wg::wait_group<0>(); wg::fence_operand(acc);   // now acc may be read
//
// docs/wgmma.md has the tables. fence_operand(x) is an empty asm volatile on every register of x
// (CUTLASS's warpgroup_fence_operand), so the compiler moves no accumulator use across the
// asynchronous MMA; mma_async's d is wgmma's scale-d (accumulate::overwrite: D = A*B, add: D =
// A*B + D), A a descriptor (SS) or an a_fragment (RS); mma_async_sp is 2:4 (tf32 1:2) sparse A.
// The descriptor and layouts are detail/wgmma_desc.cuh, the fragment maps detail/wgmma_layout.cuh,
// the sparsity metadata detail/wgmma_sparse.cuh, the types detail/wgmma_types.cuh; the asm is
// generated (tools/gen_wgmma.py -> detail/wgmma_ops.cuh).
//
// Choices: an illegal combination (an unsupported D for the inputs, a transposed tf32/fp8
// operand, an M-major A in registers, N outside 8..256 or not a multiple of 8, a scale other than
// +-1, a sparsity selector the type does not have, wait_group<N> with N > 7, any use outside an
// sm_90a compile pass) is a static_assert with a sentence, and no asm is emitted for it. Build
// wgmma kernels with -gencode=arch=compute_90a,code=sm_90a only: nvcc's -arch=sm_90a (CUDA 13)
// also compiles a compute_90 pass, where wgmma does not exist, so it fails with that sentence. The
// wrappers have no device-side debug checks: a printf anywhere in the kernel makes ptxas
// serialise every wgmma in it (C7509, "presence of Extern calls"), so descriptors are checked on
// the host or at compile time (descriptor::problem, canonical_layout::problem). mma_async is asm
// volatile with a "memory" clobber (it reads shared memory no operand names); the fences and
// wait_group too. Registers are passed one by one ("+f"), never through memory: keep register
// indices compile-time constants (unrolled loops), or ptxas injects waits (C7517/C7519) or
// serialises the MMAs (C7515).
#pragma once

#include <cuda_fp16.h>

#include <cstdint>
#include <type_traits>
#include <utility>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/ptx/detail/wgmma_desc.cuh"
#include "cuprobe/ptx/detail/wgmma_layout.cuh"
#include "cuprobe/ptx/detail/wgmma_ops.cuh"
#include "cuprobe/ptx/detail/wgmma_sparse.cuh"
#include "cuprobe/ptx/detail/wgmma_types.cuh"

/// The sentence of every sm_90a guard in this header.
#define CUPROBE_DETAIL_WGMMA_SM90A                                                      \
  "cuprobe::ptx::wgmma needs sm_90a: build only -gencode=arch=compute_90a,code=sm_90a " \
  "(CMake: CUDA_ARCHITECTURES 90a); nvcc's -arch=sm_90a also builds compute_90 PTX, "   \
  "which has no wgmma"

namespace cuprobe::ptx::wgmma {

/// The 64 x N accumulator tile of one warpgroup: N/2 float registers per thread (D = f32), or
/// N/4 f16x2 words (D = f16). Element e of thread t is D(accumulator_coord(t, e)).
template <class D, int N>
struct accumulator {
  static_assert(is_accumulator_v<D>,
                "cuprobe::ptx::wgmma::accumulator<D, N>: D must be wgmma::f32 or wgmma::f16 (the "
                "wgmma accumulator types of floating-point inputs)");
  static_assert(
      is_legal_n(N),
      "cuprobe::ptx::wgmma::accumulator<D, N>: N must be 8 .. 256 in steps of 8 (the N of "
      "every floating-point wgmma)");
  /// The type of one register: float (D = f32) or a 32-bit f16x2 word (D = f16).
  using register_type = std::conditional_t<std::is_same_v<D, f16>, std::uint32_t, float>;
  static constexpr int n = N;             ///< the tile's N
  static constexpr int elements = N / 2;  ///< per thread
  /// Registers per thread: N/2 (f32) or N/4 (f16).
  static constexpr int registers = is_legal_n(N) ? accumulator_registers<D>(N) : 1;
  register_type reg[registers];  ///< the thread's registers of the tile

  /// Element e (0 .. N/2-1) as a float.
  __host__ __device__ float get(int e) const {
    if constexpr (std::is_same_v<D, f16>) {
      __half_raw r;
      r.x = static_cast<unsigned short>(reg[e / 2] >> (16 * (e % 2)));
      return __half2float(__half(r));
    } else {
      return reg[e];
    }
  }
  /// Sets element e (f16: rounded to nearest).
  __host__ __device__ void set(int e, float v) {
    if constexpr (std::is_same_v<D, f16>) {
      const __half_raw r = __half_raw(__float2half_rn(v));
      const int s = 16 * (e % 2);
      reg[e / 2] = (reg[e / 2] & ~(0xFFFFu << s)) | (std::uint32_t(r.x) << s);
    } else {
      reg[e] = v;
    }
  }
};

/// A's 64 x K tile in registers (the RS form): four 32-bit registers per thread, holding the
/// elements a_fragment_coord<A>(thread, e) says, lowest bits first.
template <class A>
struct a_fragment {
  static_assert(is_input_v<A>,
                "cuprobe::ptx::wgmma::a_fragment<A>: A must be f16, bf16, tf32, e4m3 or e5m2");
  std::uint32_t reg[4];  ///< the thread's four registers of the tile

  /// Stores the raw bits of element e (A::bytes bytes) into its register.
  __host__ __device__ constexpr void set_bits(int e, std::uint32_t bits) {
    constexpr int per = a_elements_per_register_v<A>, width = 8 * A::bytes;
    const int s = width * (e % per);
    const std::uint32_t mask = width == 32 ? 0xFFFFFFFFu : ((1u << width) - 1u) << s;
    reg[e / per] = (reg[e / per] & ~mask) | ((bits << s) & mask);
  }
};

namespace detail {

template <class T>
__device__ __forceinline__ void fence_register(T& x) {
  if constexpr (std::is_same_v<T, float>)
    asm volatile("" : "+f"(x)::"memory");
  else
    asm volatile("" : "+r"(x)::"memory");
}
template <class T, std::size_t... I>
__device__ __forceinline__ void fence_registers(T* r, std::index_sequence<I...>) {
  (fence_register(r[I]), ...);
}

/// The checks every mma_async form makes; true when the call may reach the asm.
template <class D, int N, class A, class B, major MA, major MB, int SA, int SB, bool RegistersA,
          bool Sparse, int Selector>
__device__ constexpr bool check() {
  static_assert(is_input_pair_v<A, B>,
                "cuprobe::ptx::wgmma::mma_async: A and B must be f16 x f16, bf16 x bf16, tf32 x "
                "tf32, or two fp8 types (e4m3/e5m2 in any pair); wgmma has no other floating-point "
                "combination");
  static_assert(!is_input_pair_v<A, B> || is_legal_v<D, A, B>,
                "cuprobe::ptx::wgmma::mma_async: this accumulator type is not legal for these "
                "inputs: f16 and fp8 inputs accumulate in f16 or f32, bf16 and tf32 in f32 only");
  static_assert(has_transpose_v<A> || (MA == major::k && MB == major::k),
                "cuprobe::ptx::wgmma::mma_async: major::mn (imm-trans) exists only for 16-bit "
                "inputs (f16, bf16); tf32 and fp8 operands must be K-major");
  static_assert(!RegistersA || MA == major::k,
                "cuprobe::ptx::wgmma::mma_async: A in registers (RS) is always K-major: the RS "
                "form has no imm-trans-a, so MajorA must be major::k");
  static_assert((SA == 1 || SA == -1) && (SB == 1 || SB == -1),
                "cuprobe::ptx::wgmma::mma_async: ScaleA and ScaleB (imm-scale-a/b) must be 1 or "
                "-1 (-1 negates the operand)");
  static_assert(!Sparse || is_valid_selector<A>(Selector),
                "cuprobe::ptx::wgmma::mma_async_sp: the sparsity selector must be 0 or 1 for "
                "f16, bf16 and tf32 (which thread pair of each quad holds the metadata) and 0 for "
                "fp8 (all four threads hold it)");
  CUPROBE_REQUIRE_SM90A(A, CUPROBE_DETAIL_WGMMA_SM90A);
  return is_legal_v<D, A, B> && is_legal_n(N) && (has_transpose_v<A> || MA == major::k) &&
         (has_transpose_v<A> || MB == major::k) && (!RegistersA || MA == major::k) &&
         (SA == 1 || SA == -1) && (SB == 1 || SB == -1) &&
         (!Sparse || is_valid_selector<A>(Selector)) && arch::has_sm90a_features;
}

}  // namespace detail

/// wgmma.fence.sync.aligned: orders this warpgroup's earlier register writes (accumulators, the
/// A fragment) and shared-memory accesses before the wgmma.mma_async that follow. Needed before
/// the first mma_async and whenever those registers were written since. Warpgroup-wide.
template <class T = void>
__device__ __forceinline__ void fence() {
  CUPROBE_REQUIRE_SM90A(T, CUPROBE_DETAIL_WGMMA_SM90A);
  if constexpr (arch::has_sm90a_features) asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

/// wgmma.commit_group.sync.aligned: closes the group of the mma_async issued since the last
/// commit (one group per call; an empty group is allowed).
template <class T = void>
__device__ __forceinline__ void commit_group() {
  CUPROBE_REQUIRE_SM90A(T, CUPROBE_DETAIL_WGMMA_SM90A);
  if constexpr (arch::has_sm90a_features)
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

/// wgmma.wait_group.sync.aligned N: waits until at most N committed groups are pending; then the
/// accumulators of the others may be read and their shared memory rewritten.
template <int N>
__device__ __forceinline__ void wait_group() {
  static_assert(N >= 0 && N <= 7,
                "cuprobe::ptx::wgmma::wait_group<N>: N must be 0..7 (ptxas silently turns a "
                "larger N into 7)");
  using tag = std::integral_constant<int, N>;
  CUPROBE_REQUIRE_SM90A(tag, CUPROBE_DETAIL_WGMMA_SM90A);
  if constexpr (arch::has_sm90a_features && N >= 0 && N <= 7)
    asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(N) : "memory");
}

/// Register fences: an empty asm volatile that reads and writes each register, so the compiler
/// neither moves a use of it across the asynchronous MMA nor keeps it in memory. Use on the
/// accumulators (and A fragment) before wgmma.fence and after wait_group.
///@{
__device__ __forceinline__ void fence_operand(float& x) { detail::fence_register(x); }
__device__ __forceinline__ void fence_operand(std::uint32_t& x) { detail::fence_register(x); }
template <class D, int N>
__device__ __forceinline__ void fence_operand(accumulator<D, N>& acc) {
  detail::fence_registers(acc.reg, std::make_index_sequence<accumulator<D, N>::registers>{});
}
template <class A>
__device__ __forceinline__ void fence_operand(a_fragment<A>& a) {
  detail::fence_registers(a.reg, std::make_index_sequence<4>{});
}
///@}

/// What an MMA does with the accumulator (wgmma's scale-d operand): overwrite it, D = A * B (the
/// first MMA of a tile), or add to it, D = A * B + D.
enum class accumulate : std::uint32_t { overwrite = 0, add = 1 };

/// accumulate::add when `add`, else accumulate::overwrite: `accumulate_if(k > 0)` in a K loop.
__host__ __device__ constexpr accumulate accumulate_if(bool add) {
  return add ? accumulate::add : accumulate::overwrite;
}

/// D = A * B (+ D with accumulate::add), A and B in shared memory (descriptors, SS form).
template <class A, class B, major MajorA = major::k, major MajorB = major::k, int ScaleA = 1,
          int ScaleB = 1, class D, int N>
__device__ __forceinline__ void mma_async(accumulator<D, N>& acc, std::uint64_t a_desc,
                                          std::uint64_t b_desc, accumulate d) {
  if constexpr (detail::check<D, N, A, B, MajorA, MajorB, ScaleA, ScaleB, false, false, 0>())
    detail::ops<N, D, A, B>::template ss<ScaleA, ScaleB, int(MajorA), int(MajorB)>(
        acc.reg, a_desc, b_desc, static_cast<std::uint32_t>(d));
}

/// D = A * B (+ D with accumulate::add), A in registers (RS form, K-major), B in shared memory.
template <class A, class B, major MajorA = major::k, major MajorB = major::k, int ScaleA = 1,
          int ScaleB = 1, class D, int N, class AF>
__device__ __forceinline__ void mma_async(accumulator<D, N>& acc, const a_fragment<AF>& a,
                                          std::uint64_t b_desc, accumulate d) {
  static_assert(std::is_same_v<AF, A>,
                "cuprobe::ptx::wgmma::mma_async: the a_fragment's element "
                "type is not the A type of the call");
  if constexpr (detail::check<D, N, A, B, MajorA, MajorB, ScaleA, ScaleB, true, false, 0>())
    detail::ops<N, D, A, B>::template rs<ScaleA, ScaleB, 0, int(MajorB)>(
        acc.reg, a.reg, b_desc, static_cast<std::uint32_t>(d));
}

/// Sparse A (SS): A holds 64 x K/2 stored elements, `metadata` this thread's metadata word
/// (prune_2_4 builds them), Selector which thread pair holds it (16-bit, tf32: 0 or 1; fp8: 0).
template <class A, class B, int Selector = 0, major MajorA = major::k, major MajorB = major::k,
          int ScaleA = 1, int ScaleB = 1, class D, int N>
__device__ __forceinline__ void mma_async_sp(accumulator<D, N>& acc, std::uint64_t a_desc,
                                             std::uint64_t b_desc, std::uint32_t metadata,
                                             accumulate d) {
  if constexpr (detail::check<D, N, A, B, MajorA, MajorB, ScaleA, ScaleB, false, true, Selector>())
    detail::ops<N, D, A, B>::template sp_ss<ScaleA, ScaleB, int(MajorA), int(MajorB), Selector>(
        acc.reg, a_desc, b_desc, metadata, static_cast<std::uint32_t>(d));
}

/// Sparse A in registers (RS): the fragment holds the compressed 64 x K/2 tile.
template <class A, class B, int Selector = 0, major MajorA = major::k, major MajorB = major::k,
          int ScaleA = 1, int ScaleB = 1, class D, int N, class AF>
__device__ __forceinline__ void mma_async_sp(accumulator<D, N>& acc, const a_fragment<AF>& a,
                                             std::uint64_t b_desc, std::uint32_t metadata,
                                             accumulate d) {
  static_assert(std::is_same_v<AF, A>,
                "cuprobe::ptx::wgmma::mma_async_sp: the a_fragment's "
                "element type is not the A type of the call");
  if constexpr (detail::check<D, N, A, B, MajorA, MajorB, ScaleA, ScaleB, true, true, Selector>())
    detail::ops<N, D, A, B>::template sp_rs<ScaleA, ScaleB, 0, int(MajorB), Selector>(
        acc.reg, a.reg, b_desc, metadata, static_cast<std::uint32_t>(d));
}

}  // namespace cuprobe::ptx::wgmma
