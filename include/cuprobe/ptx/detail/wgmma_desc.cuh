// cuprobe/ptx/detail/wgmma_desc.cuh: the wgmma shared-memory matrix descriptor and the canonical
// operand layouts it describes. Host and device, constexpr. Part of cuprobe/ptx/wgmma.cuh.
//
//   namespace wg = cuprobe::ptx::wgmma;
//   constexpr auto a = wg::canonical_layout::of<wg::bf16>(wg::swizzle::b128, wg::major::k, 64, 64);
//   smem[a.swizzled_offset(row, k)] = value;                   // where element (row, k) goes
//   constexpr wg::descriptor d = a.descriptor_at(0x400, 16);    // the k16 step at K = 16
//   static_assert(wg::descriptor::decode(d.encode()) == d);     // 64-bit register value and back
//
// The descriptor's bits and the canonical layouts (LBO, SBO, each element's offset, the swizzle):
// docs/wgmma.md ("The matrix descriptor", "Canonical layouts").
//
// Choices: byte quantities throughout (the 16-byte units exist only inside encode/decode);
// problem() returns a sentence or nullptr so that the same check runs in constexpr, device and
// host code, and validate() turns it into a cuprobe::error on the host; encode() masks the
// fields and does not check (check first); the sparse B layouts of 32B K-major swizzle (64 bytes
// of K per instruction) are not covered by the canonical forms here.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "cuprobe/core/arch.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/ptx/detail/wgmma_types.cuh"

namespace cuprobe::ptx::wgmma {

/// The largest address or offset a 14-bit descriptor field holds: 256 KiB - 16 bytes.
inline constexpr std::uint32_t max_descriptor_bytes = (1u << 18) - 16;

/// "none", "32B", "64B", "128B".
__host__ __device__ constexpr const char* swizzle_name(swizzle s) {
  return s == swizzle::none   ? "none"
         : s == swizzle::b32  ? "32B"
         : s == swizzle::b64  ? "64B"
         : s == swizzle::b128 ? "128B"
                              : "invalid";
}

/// The width W in bytes of a swizzle atom's row: 16 (none), 32, 64 or 128.
__host__ __device__ constexpr std::uint32_t swizzle_bytes(swizzle s) {
  return s == swizzle::b32 ? 32 : s == swizzle::b64 ? 64 : s == swizzle::b128 ? 128 : 16;
}

/// The boundary the swizzle pattern repeats at: 256, 512 or 1024 bytes (16 without swizzle).
__host__ __device__ constexpr std::uint32_t swizzle_repeat_bytes(swizzle s) {
  return s == swizzle::none ? 16 : 8 * swizzle_bytes(s);
}

/// The byte address the hardware reads for logical address `address` under swizzle `s`.
__host__ __device__ constexpr std::uint32_t swizzle_address(swizzle s, std::uint32_t address) {
  const std::uint32_t mask = s == swizzle::b128  ? 0x70u
                             : s == swizzle::b64 ? 0x30u
                             : s == swizzle::b32 ? 0x10u
                                                 : 0u;
  return address ^ ((address >> 3) & mask);
}

/// The base offset for a swizzle pattern that starts at `pattern_start` (a shared address): 0
/// when it starts on the pattern's repeat boundary, otherwise (pattern_start >> 7) & 7.
__host__ __device__ constexpr std::uint32_t base_offset_for(swizzle s,
                                                            std::uint32_t pattern_start) {
  return (s == swizzle::none || pattern_start % swizzle_repeat_bytes(s) == 0)
             ? 0u
             : (pattern_start >> 7) & 7u;
}

/// The 64-bit shared-memory matrix descriptor of wgmma.mma_async, as a value type. All
/// quantities in bytes.
struct descriptor {
  std::uint32_t start_address = 0;        ///< shared-window address of the matrix
  std::uint32_t leading_byte_offset = 0;  ///< LBO
  std::uint32_t stride_byte_offset = 0;   ///< SBO
  std::uint32_t base_offset = 0;          ///< 0..7, swizzled modes only
  swizzle layout = swizzle::none;         ///< the swizzle (layout type) field

  /// Why this descriptor cannot be encoded as it stands, as a sentence; nullptr when it can.
  __host__ __device__ constexpr const char* problem() const {
    if (static_cast<unsigned>(layout) > 3) return "the swizzle mode is not none, 32B, 64B or 128B";
    if (start_address % 16 != 0) return "the start address is not a multiple of 16 bytes";
    if (start_address > max_descriptor_bytes)
      return "the start address is not below 256 KiB (the field holds address bits 4..17)";
    if (leading_byte_offset % 16 != 0)
      return "the leading dimension byte offset (LBO) is not a multiple of 16 bytes";
    if (leading_byte_offset > max_descriptor_bytes)
      return "the leading dimension byte offset (LBO) is not below 256 KiB";
    if (stride_byte_offset % 16 != 0)
      return "the stride dimension byte offset (SBO) is not a multiple of 16 bytes";
    if (stride_byte_offset > max_descriptor_bytes)
      return "the stride dimension byte offset (SBO) is not below 256 KiB";
    if (base_offset > 7) return "the base offset is not 0..7 (a 3-bit field)";
    if (layout == swizzle::none && base_offset != 0)
      return "the base offset must be 0 without swizzling (it exists for the swizzled modes)";
    return nullptr;
  }

  /// The 64-bit register value. Fields are masked to their widths, unchecked: call problem()
  /// (or validate() on the host) first.
  __host__ __device__ constexpr std::uint64_t encode() const {
    const auto f = [](std::uint32_t x) { return std::uint64_t{(x & 0x3FFFFu) >> 4}; };
    return f(start_address) | f(leading_byte_offset) << 16 | f(stride_byte_offset) << 32 |
           std::uint64_t{base_offset & 7u} << 49 |
           std::uint64_t{static_cast<std::uint8_t>(layout) & 3u} << 62;
  }

  /// The fields of a 64-bit descriptor (reserved bits ignored: see reserved_bits_clear()).
  __host__ __device__ static constexpr descriptor decode(std::uint64_t bits) {
    descriptor d;
    d.start_address = static_cast<std::uint32_t>(bits & 0x3FFF) << 4;
    d.leading_byte_offset = static_cast<std::uint32_t>((bits >> 16) & 0x3FFF) << 4;
    d.stride_byte_offset = static_cast<std::uint32_t>((bits >> 32) & 0x3FFF) << 4;
    d.base_offset = static_cast<std::uint32_t>((bits >> 49) & 7);
    d.layout = static_cast<swizzle>((bits >> 62) & 3);
    return d;
  }

  /// True when the bits no field owns (15..14, 31..30, 48..46, 61..52) are zero.
  __host__ __device__ static constexpr bool reserved_bits_clear(std::uint64_t bits) {
    return (bits & 0x3FF1C000C000C000ull) == 0;
  }

  /// Whether every field of the two descriptors is equal, or not.
  ///@{
  __host__ __device__ constexpr bool operator==(const descriptor& o) const {
    return start_address == o.start_address && leading_byte_offset == o.leading_byte_offset &&
           stride_byte_offset == o.stride_byte_offset && base_offset == o.base_offset &&
           layout == o.layout;
  }
  __host__ __device__ constexpr bool operator!=(const descriptor& o) const { return !(*this == o); }
  ///@}

  /// The same descriptor `bytes` further along (e.g. the next K step inside a swizzle atom).
  __host__ __device__ constexpr descriptor advanced(std::uint32_t bytes) const {
    descriptor d = *this;
    d.start_address += bytes;
    return d;
  }

  /// One line: "wgmma descriptor 0x...: start 0x400, LBO 16 B, SBO 1024 B, base offset 0,
  /// swizzle 128B".
  std::string to_string() const {
    char text[160];
    std::snprintf(text, sizeof text,
                  "wgmma descriptor 0x%016llx: start 0x%x, LBO %u B, SBO %u B, base offset %u, "
                  "swizzle %s",
                  static_cast<unsigned long long>(encode()), start_address, leading_byte_offset,
                  stride_byte_offset, base_offset, swizzle_name(layout));
    return text;
  }

  /// Prints to_string()'s line with printf, on the host or the device.
  __host__ __device__ void print() const {
    printf(
        "wgmma descriptor 0x%016llx: start 0x%x, LBO %u B, SBO %u B, base offset %u, swizzle %s\n",
        static_cast<unsigned long long>(encode()), start_address, leading_byte_offset,
        stride_byte_offset, base_offset, swizzle_name(layout));
  }

  /// Host check: throws cuprobe::error naming `what`, the problem and the fields.
  void validate(const std::string& what) const {
    if (const char* p = problem())
      throw error("cuprobe: " + what + ": " + p + " (" + to_string() + ")");
  }
};

namespace detail {
#if CUPROBE_PTX_CHECKS
/// Debug builds: the sentence of a descriptor that would make the MMA read the wrong elements,
/// then __trap() (not inlined: no call beside the caller's wgmma).
__device__ __noinline__ inline void descriptor_fault(const char* problem, std::uint32_t base) {
  printf(
      "cuprobe::ptx::wgmma::canonical_layout::descriptor_at: %s (tile base 0x%x, block %u, "
      "thread %u): the MMA would read the wrong elements; trapping\n",
      problem, base, blockIdx.x, threadIdx.x);
  __trap();
}
#endif
}  // namespace detail

/// A canonical wgmma operand tile in shared memory: `mn` rows of A (M) or of B (N), `k`
/// elements of K, element size `element_bytes`, stored K-major or MN-major with a swizzle. Gives
/// the byte offset of every element, LBO and SBO, and the descriptor of each K step.
struct canonical_layout {
  swizzle mode = swizzle::none;  ///< the swizzle of the tile
  major order = major::k;        ///< K-major or MN-major
  int element_bytes = 2;         ///< bytes of one element
  int mn = 64;                   ///< rows of A (M) or of B (N)
  int k = 16;                    ///< elements of K

  /// The layout of element type T (a wgmma tag: bf16, f16, tf32, e4m3, e5m2).
  template <class T>
  __host__ __device__ static constexpr canonical_layout of(swizzle s, major o, int mn, int k) {
    return canonical_layout{s, o, T::bytes, mn, k};
  }

  /// The width in bytes of a swizzle atom's row (swizzle_bytes of the mode).
  __host__ __device__ constexpr std::uint32_t width() const { return swizzle_bytes(mode); }
  /// Bytes of the K extent: k x element_bytes.
  __host__ __device__ constexpr std::uint32_t k_bytes() const {
    return std::uint32_t(k * element_bytes);
  }
  /// Bytes of the M/N extent: mn x element_bytes.
  __host__ __device__ constexpr std::uint32_t mn_bytes() const {
    return std::uint32_t(mn * element_bytes);
  }
  /// Bytes the tile occupies (it is dense: no gaps).
  __host__ __device__ constexpr std::uint32_t size_bytes() const {
    return k_bytes() * std::uint32_t(mn);
  }

  /// LBO in bytes (16, "unused", for the swizzled K-major forms).
  __host__ __device__ constexpr std::uint32_t leading_byte_offset() const {
    if (order == major::k) return mode == swizzle::none ? 128u : 16u;
    return mode == swizzle::none ? 8u * mn_bytes() : 8u * width();
  }
  /// SBO in bytes.
  __host__ __device__ constexpr std::uint32_t stride_byte_offset() const {
    if (order == major::k) return mode == swizzle::none ? 8u * k_bytes() : 8u * width();
    return mode == swizzle::none ? 128u : 8u * mn_bytes();
  }

  /// Why the tile is not a canonical layout, as a sentence; nullptr when it is.
  __host__ __device__ constexpr const char* problem() const {
    if (element_bytes != 1 && element_bytes != 2 && element_bytes != 4)
      return "the element size is not 1, 2 or 4 bytes";
    if (static_cast<unsigned>(mode) > 3) return "the swizzle mode is not none, 32B, 64B or 128B";
    if (mn <= 0 || k <= 0) return "the tile is empty";
    if (order == major::k) {
      if (mn % 8 != 0) return "a K-major tile needs M/N rows in multiples of 8 (core matrices)";
      if (k_bytes() % width() != 0)
        return mode == swizzle::none
                   ? "a K-major tile without swizzle needs K in multiples of 16 bytes"
                   : "a swizzled K-major tile needs K in multiples of the swizzle width (whole "
                     "atoms)";
    } else {
      if (k % 8 != 0) return "an MN-major tile needs K in multiples of 8 (core matrices)";
      if (mn_bytes() % width() != 0)
        return mode == swizzle::none
                   ? "an MN-major tile without swizzle needs M/N in multiples of 16 bytes"
                   : "a swizzled MN-major tile needs M/N in multiples of the swizzle width";
    }
    if (leading_byte_offset() > max_descriptor_bytes ||
        stride_byte_offset() > max_descriptor_bytes || size_bytes() > max_descriptor_bytes + 16)
      return "the tile does not fit the descriptor's 256 KiB reach";
    return nullptr;
  }

  /// Byte offset of element (r, c) (r along M/N, c along K) from the tile base, before swizzle.
  __host__ __device__ constexpr std::uint32_t offset(int r, int c) const {
    const std::uint32_t W = width(), ur = std::uint32_t(r), uc = std::uint32_t(c);
    if (order == major::k) {
      const std::uint32_t kb = uc * std::uint32_t(element_bytes);
      if (mode == swizzle::none)
        return (ur / 8) * stride_byte_offset() + (kb / 16) * leading_byte_offset() + (ur % 8) * 16 +
               kb % 16;
      return (kb / W) * (std::uint32_t(mn) * W) + (ur / 8) * 8 * W + (ur % 8) * W + kb % W;
    }
    const std::uint32_t mb = ur * std::uint32_t(element_bytes);
    if (mode == swizzle::none)
      return (mb / 16) * stride_byte_offset() + (uc / 8) * leading_byte_offset() + (uc % 8) * 16 +
             mb % 16;
    return (mb / W) * leading_byte_offset() + (uc / 8) * stride_byte_offset() + (uc % 8) * W +
           mb % W;
  }

  /// Where element (r, c) lies in a tile whose base is 1024-byte aligned: offset() swizzled.
  __host__ __device__ constexpr std::uint32_t swizzled_offset(int r, int c) const {
    return swizzle_address(mode, offset(r, c));
  }

  /// The descriptor of the wgmma step whose K range starts at element k0, for a tile at shared
  /// address `base` (1024-byte aligned for the swizzled modes, so that the base offset is 0).
  /// Device code checks it in every build, because a descriptor that cannot be encoded (start,
  /// LBO or SBO not on 16 bytes) or a swizzled base off the pattern's repeat makes the MMA read
  /// the wrong elements without any error: Debug (CUPROBE_PTX_CHECKS) prints a sentence and
  /// traps; Release traps without printing (a printf would be a call, and ptxas serialises every
  /// wgmma of a function that makes one), and the runner's error says to rebuild in Debug. The
  /// Release check costs a compare and a predicated branch where descriptor_at is called: build
  /// descriptors before the timed loop and advance them there by adding (bytes >> 4), as the
  /// library's kernels do. CUPROBE_WGMMA_RELEASE_CHECKS=0 removes the Release check.
  __host__ __device__ constexpr descriptor descriptor_at(std::uint32_t base, int k0) const {
    descriptor d;
    d.start_address = base + offset(0, k0);
    d.leading_byte_offset = leading_byte_offset();
    d.stride_byte_offset = stride_byte_offset();
    d.base_offset = base_offset_for(mode, base);
    d.layout = mode;
#if defined(__CUDA_ARCH__)
#if CUPROBE_PTX_CHECKS
    if (const char* p = d.problem())
      detail::descriptor_fault(p, base);
    else if (mode != swizzle::none && base % (8 * width()) != 0)
      detail::descriptor_fault(
          "a swizzled tile's base is not a multiple of 8 x the swizzle width (1024 bytes for "
          "128B), so the hardware's pattern does not start where the tile's layout assumes",
          base);
#elif CUPROBE_WGMMA_RELEASE_CHECKS
    if (((d.start_address | d.leading_byte_offset | d.stride_byte_offset) & 15u) != 0 ||
        (mode != swizzle::none && base % (8 * width()) != 0))
      __trap();
#endif
#endif
    return d;
  }

  /// Host check: throws cuprobe::error naming `what` and the problem.
  void validate(const std::string& what) const {
    if (const char* p = problem())
      throw error("cuprobe: " + what + ": " + p + " (" + std::to_string(mn) + " x " +
                  std::to_string(k) + " elements of " + std::to_string(element_bytes) + " bytes, " +
                  (order == major::k ? "K" : "MN") + "-major, swizzle " + swizzle_name(mode) + ")");
  }
};

/// An operand as a pipeline holds it in shared memory: `stages` tiles of one canonical layout
/// (the whole stage tile, e.g. 128 x 64 for A of a 128-row CTA tile), `stage_bytes` apart from
/// shared address `base`. of() builds the descriptor of stage 0 once, checked as descriptor_at
/// checks it; at(stage, row, k0) is then the descriptor of any stage, starting at M/N row `row`
/// (a multiple of 8: a consumer's 64-row slice) and K element `k0` (a wgmma step), by one
/// addition: what a main loop needs, without offsets worked out by hand.
///
///   const auto a = wg::smem_operand::of(a_tile, ptx::smem_address(a_smem), a_stage_bytes)
///                      .from_row(64 * consumer);               // this consumer's 64 rows
///   wg::mma_async<wg::bf16, wg::bf16>(acc, a.at(stage, 0, 16 * j), b.at(stage, 0, 16 * j),
///                                     wg::accumulate_if(j > 0));
///
/// The stages share one descriptor layout (LBO, SBO, swizzle and base offset), so stage_bytes
/// must be a multiple of the swizzle pattern's repeat (1024 bytes for 128B; problem() says so),
/// and the last stage must end below 256 KiB of shared address.
struct smem_operand {
  canonical_layout layout;        ///< one stage's tile
  std::uint32_t stage_bytes = 0;  ///< from one stage's tile to the next
  std::uint64_t first = 0;        ///< the encoded descriptor of stage 0, row 0, K element 0

  /// Why stages `stage_bytes` apart cannot share the layout's descriptor, as a sentence; nullptr
  /// when they can.
  __host__ __device__ static constexpr const char* problem(const canonical_layout& l,
                                                           std::uint32_t stage_bytes) {
    if (stage_bytes < l.size_bytes()) return "the stages overlap (stage_bytes < the tile's size)";
    if (stage_bytes % swizzle_repeat_bytes(l.mode) != 0)
      return "stage_bytes is not a multiple of the swizzle pattern's repeat (1024 bytes for 128B, "
             "16 without swizzle), so the stages after the first would need another base offset";
    return nullptr;
  }

  /// The operand of `stages` tiles of layout `l` from shared address `base`, `stage_bytes`
  /// apart. Device code checks the first descriptor as descriptor_at does, and the stride with
  /// problem() where CUPROBE_PTX_CHECKS is on.
  __host__ __device__ static constexpr smem_operand of(const canonical_layout& l,
                                                       std::uint32_t base,
                                                       std::uint32_t stage_bytes) {
#if defined(__CUDA_ARCH__) && CUPROBE_PTX_CHECKS
    if (const char* p = problem(l, stage_bytes)) detail::descriptor_fault(p, base);
#endif
    return smem_operand{l, stage_bytes, l.descriptor_at(base, 0).encode()};
  }

  /// The same stages from M/N row `row` on (a multiple of 8): a consumer's slice of the rows.
  /// Made once before a main loop, it keeps the loop's offsets compile-time constants.
  __host__ __device__ constexpr smem_operand from_row(int row) const {
    smem_operand o = *this;
    o.first += layout.offset(row, 0) >> 4;
    return o;
  }

  /// The encoded descriptor of stage `stage` from M/N row `row` and K element `k0`.
  __host__ __device__ constexpr std::uint64_t at(int stage, int row, int k0) const {
    return first + ((std::uint32_t(stage) * stage_bytes + layout.offset(row, k0)) >> 4);
  }
};

}  // namespace cuprobe::ptx::wgmma
