// cuprobe/hopper/smem.cuh: shared-memory alignment for bulk copies, TMA and swizzled tiles
// (host and device).
//
//   namespace h = cuprobe::hopper;
//   const std::size_t smem = h::dynamic_smem_bytes<h::swizzle_128b_alignment>(bytes);  // host
//   kernel<<<grid, block, smem>>>(...);
//   auto* tile = h::aligned_dynamic_smem<h::swizzle_128b_alignment, float>();          // device
//   __shared__ h::aligned_smem<float[32][32], h::tma_alignment> stage;  // static, 128 B aligned
//
// The alignments the hardware asks for (PTX ISA, cp.async.bulk(.tensor); CUDA programming guide,
// "Tensor Memory Access"): bulk_alignment, 16 B (non-tensor bulk copies); tma_alignment, 128 B
// (the shared side of a tensor copy); swizzle_128b_alignment, 1024 B (the 128-byte swizzle
// repeats every 8 rows of 128 B and is computed from address bits; 64B / 32B: 512 / 256 B).
// CUDA only guarantees 16-byte alignment of the dynamic shared memory base, so
// dynamic_smem_bytes<A>(n) requests n + A - 16 bytes and aligned_dynamic_smem<A>() rounds the base
// up at run time; aligned_smem<T, A> is T with alignas(A) for static variables. align_up and
// is_aligned take integers or pointers; every alignment is a compile-time power of two.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace cuprobe::hopper {

inline constexpr std::size_t bulk_alignment = 16;  ///< Non-tensor bulk copies: addresses and sizes.
inline constexpr std::size_t tma_alignment = 128;  ///< The shared-memory side of a tensor copy.
inline constexpr std::size_t swizzle_32b_alignment = 256;    ///< A 32-byte-swizzled tile.
inline constexpr std::size_t swizzle_64b_alignment = 512;    ///< A 64-byte-swizzled tile.
inline constexpr std::size_t swizzle_128b_alignment = 1024;  ///< A 128-byte-swizzled tile.
/// What CUDA guarantees for the base of dynamic shared memory.
inline constexpr std::size_t dynamic_smem_base_alignment = 16;

/// True when `a` is a power of two.
__host__ __device__ constexpr bool is_power_of_two(std::size_t a) {
  return a != 0 && (a & (a - 1)) == 0;
}

/// v rounded up to a multiple of Align (a power of two). Integers: offsets, byte counts, 32-bit
/// shared addresses.
template <std::size_t Align, class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
__host__ __device__ constexpr I align_up(I v) {
  static_assert(is_power_of_two(Align),
                "cuprobe::hopper::align_up<Align>: Align must be a power of two");
  return static_cast<I>((v + static_cast<I>(Align - 1)) & ~static_cast<I>(Align - 1));
}

/// p rounded up to the next Align-byte boundary (a power of two).
template <std::size_t Align, class T>
__host__ __device__ T* align_up(T* p) {
  static_assert(is_power_of_two(Align),
                "cuprobe::hopper::align_up<Align>: Align must be a power of two");
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  return reinterpret_cast<T*>((a + (Align - 1)) & ~static_cast<std::uintptr_t>(Align - 1));
}

/// v rounded up to a multiple of a (any a > 0), for alignments known only at run time.
__host__ __device__ constexpr std::size_t align_up(std::size_t v, std::size_t a) {
  return (v + a - 1) / a * a;
}

/// True when v is a multiple of Align (a power of two).
template <std::size_t Align, class I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
__host__ __device__ constexpr bool is_aligned(I v) {
  static_assert(is_power_of_two(Align),
                "cuprobe::hopper::is_aligned<Align>: Align must be a power of two");
  return (v & static_cast<I>(Align - 1)) == 0;
}

/// True when p lies on an Align-byte boundary (a power of two).
template <std::size_t Align>
__host__ __device__ bool is_aligned(const void* p) {
  static_assert(is_power_of_two(Align),
                "cuprobe::hopper::is_aligned<Align>: Align must be a power of two");
  return (reinterpret_cast<std::uintptr_t>(p) & (Align - 1)) == 0;
}

/// Dynamic shared memory to request so that `bytes` fit after the base is rounded up to Align.
template <std::size_t Align>
__host__ __device__ constexpr std::size_t dynamic_smem_bytes(std::size_t bytes) {
  static_assert(is_power_of_two(Align) && Align >= dynamic_smem_base_alignment,
                "cuprobe::hopper::dynamic_smem_bytes<Align>: Align must be a power of two, at "
                "least 16 (the guaranteed alignment of the dynamic shared memory base)");
  return bytes + (Align - dynamic_smem_base_alignment);
}

/// The base of this CTA's dynamic shared memory rounded up to Align (see dynamic_smem_bytes).
template <std::size_t Align, class T = unsigned char>
__device__ __forceinline__ T* aligned_dynamic_smem() {
  static_assert(is_power_of_two(Align) && Align >= alignof(T),
                "cuprobe::hopper::aligned_dynamic_smem<Align, T>: Align must be a power of two, "
                "at least alignof(T)");
  extern __shared__ __align__(16) unsigned char cuprobe_dynamic_smem_base[];
  return reinterpret_cast<T*>(align_up<Align>(cuprobe_dynamic_smem_base));
}

/// T aligned to Align bytes: `__shared__ aligned_smem<float[64][64], 1024> tile;` then
/// `tile.value[r][c]`, or `tile.data()` for the address to give a copy.
template <class T, std::size_t Align>
struct alignas(Align) aligned_smem {
  static_assert(is_power_of_two(Align),
                "cuprobe::hopper::aligned_smem<T, Align>: Align must be a power of two");
  static_assert(Align >= alignof(T),
                "cuprobe::hopper::aligned_smem<T, Align>: Align must be at least alignof(T)");
  T value;  ///< the aligned object

  __host__ __device__ T* data() { return &value; }              ///< Its address.
  __host__ __device__ const T* data() const { return &value; }  ///< Its address.
  static constexpr std::size_t alignment = Align;               ///< Align.
};

}  // namespace cuprobe::hopper
