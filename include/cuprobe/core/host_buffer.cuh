// cuprobe/core/host_buffer.cuh: RAII host memory of the four kinds a GPU program meets:
// pageable, pinned (page-locked), mapped (pinned and mapped into the device's address space)
// and registered (pageable memory pinned and mapped afterwards with cudaHostRegister).
//
//   cuprobe::host_buffer<float> h(1 << 20, cuprobe::host_memory::mapped);
//   h[0] = 1.f;                                       // the host writes ...
//   my_kernel<<<g, b>>>(h.device_data());             // ... and the GPU reads it over the bus
//   cuprobe::host_buffer<float> src(1 << 20, cuprobe::host_memory::pinned);   // for copies
//
// pageable   aligned to the page (sysconf), no CUDA call at all: usable without a GPU
// pinned     cudaHostAlloc(cudaHostAllocPortable): the copy engines read it directly
// mapped     cudaHostAlloc(cudaHostAllocMapped | cudaHostAllocPortable) and
//            cudaHostGetDevicePointer: the device pointer GPU threads load from (zero-copy)
// registered a pageable allocation, then cudaHostRegister(cudaHostRegisterMapped |
//            cudaHostRegisterPortable) and cudaHostGetDevicePointer; unregistered and freed
//            in that order on destruction
// device_data() exists for mapped and registered memory only (a sentence otherwise). Sizes that
// overflow are refused before any call; a failed allocation names the kind and the size.
// Move-only, like device_buffer.
#pragma once

#include <cuda_runtime_api.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// The kinds of host memory (see the file comment).
enum class host_memory { pageable, pinned, mapped, registered };

CUPROBE_DECL const char* to_string(host_memory k);  ///< The name of a kind, as reports print it.

/// True for the kinds GPU threads can address (mapped, registered).
constexpr bool device_accessible(host_memory k) {
  return k == host_memory::mapped || k == host_memory::registered;
}

/// The host's page size (sysconf), 4096 when it does not say.
CUPROBE_DECL std::size_t host_page_bytes();

/// Owns `size()` elements of T in host memory of one kind. Move-only.
template <class T>
class host_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "host_buffer<T> needs a trivially copyable T");

 public:
  using value_type = T;  ///< The element type.

  host_buffer() = default;
  /// Allocates `count` elements of kind `kind`. Refused with a sentence when count x sizeof(T)
  /// overflows (before any call); a failed allocation names the kind, the call and the size.
  host_buffer(std::size_t count, host_memory kind) : kind_(kind) {
    if (!count) return;
    require(count <= std::numeric_limits<std::size_t>::max() / sizeof(T) - host_page_bytes(),
            "host_buffer: " + std::to_string(count) + " elements of " + std::to_string(sizeof(T)) +
                " bytes overflow the size of an allocation");
    const std::size_t bytes = count * sizeof(T);
    if (kind == host_memory::pinned || kind == host_memory::mapped) {
      const unsigned flags =
          cudaHostAllocPortable | (kind == host_memory::mapped ? cudaHostAllocMapped : 0u);
      void* p = nullptr;
      const cudaError_t e = cudaHostAlloc(&p, bytes, flags);
      if (e != cudaSuccess) fail("cudaHostAlloc", bytes, e);
      ptr_ = static_cast<T*>(p);
      size_ = count;
      if (kind == host_memory::mapped) map_device_pointer();
      return;
    }
    const std::size_t page = host_page_bytes();
    const std::size_t rounded = (bytes + page - 1) / page * page;  // aligned_alloc needs it
    void* p = std::aligned_alloc(page, rounded);
    if (!p)
      throw error("cuprobe: host_buffer: allocating " + detail::bytes_text(double(bytes)) +
                  " of pageable host memory failed");
    ptr_ = static_cast<T*>(p);
    size_ = count;
    if (kind == host_memory::registered) {
      const cudaError_t e =
          cudaHostRegister(p, rounded, cudaHostRegisterMapped | cudaHostRegisterPortable);
      if (e != cudaSuccess) fail("cudaHostRegister", bytes, e);
      registered_ = true;
      map_device_pointer();
    }
  }
  host_buffer(const host_buffer&) = delete;
  host_buffer& operator=(const host_buffer&) = delete;
  /// Takes over `o`'s memory; `o` is left empty.
  host_buffer(host_buffer&& o) noexcept { take(o); }
  host_buffer& operator=(host_buffer&& o) noexcept {  ///< Frees this memory, takes over `o`'s.
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~host_buffer() { release(); }

  host_memory kind() const noexcept { return kind_; }  ///< The kind of memory it holds.
  /// The host pointer.
  T* data() noexcept { return ptr_; }
  const T* data() const noexcept { return ptr_; }  ///< The host pointer.
  /// The pointer GPU threads use (mapped and registered memory; a sentence for the others).
  T* device_data() const {
    require(ptr_ == nullptr || device_accessible(kind_),
            std::string("host_buffer::device_data: ") + to_string(kind_) +
                " host memory is not mapped into the device's address space; allocate it as "
                "host_memory::mapped or host_memory::registered");
    return dev_;
  }
  std::size_t size() const noexcept { return size_; }               ///< The number of elements.
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }  ///< size() x sizeof(T).
  bool empty() const noexcept { return size_ == 0; }         ///< True when it holds no element.
  T& operator[](std::size_t i) noexcept { return ptr_[i]; }  ///< Element `i`, on the host.
  /// Element `i`, on the host.
  const T& operator[](std::size_t i) const noexcept { return ptr_[i]; }

  /// Sets every byte to `byte` on the host (poison: an element nobody wrote shows).
  void poison(unsigned char byte = poison_byte) {
    if (size_) std::memset(static_cast<void*>(ptr_), byte, bytes());
  }
  /// True when every byte of `v` equals `byte`.
  static bool is_poison(const T& v, unsigned char byte = poison_byte) {
    return device_buffer<T>::is_poison(v, byte);
  }

 private:
  [[noreturn]] void fail(const char* call, std::size_t bytes, cudaError_t e) {
    (void)cudaGetLastError();
    release();
    throw error(std::string("cuprobe: host_buffer: ") + call + " of " +
                    detail::bytes_text(double(bytes)) + " of " + to_string(kind_) +
                    " host memory failed (" + cudaGetErrorName(e) + ": " + cudaGetErrorString(e) +
                    ")",
                static_cast<int>(e));
  }
  void map_device_pointer() {
    void* d = nullptr;
    const cudaError_t e = cudaHostGetDevicePointer(&d, static_cast<void*>(ptr_), 0);
    if (e != cudaSuccess) fail("cudaHostGetDevicePointer", bytes(), e);
    dev_ = static_cast<T*>(d);
  }
  void take(host_buffer& o) noexcept {
    ptr_ = std::exchange(o.ptr_, nullptr);
    dev_ = std::exchange(o.dev_, nullptr);
    size_ = std::exchange(o.size_, 0);
    kind_ = o.kind_;
    registered_ = std::exchange(o.registered_, false);
  }
  void release() noexcept {
    if (ptr_) {
      if (kind_ == host_memory::pinned || kind_ == host_memory::mapped) {
        if (!gpu_context_lost()) cudaFreeHost(ptr_);  // lost: it would wait for the stuck kernel
      } else {
        if (registered_ && !gpu_context_lost()) cudaHostUnregister(ptr_);
        std::free(ptr_);
      }
    }
    ptr_ = dev_ = nullptr;
    size_ = 0;
    registered_ = false;
  }

  T* ptr_ = nullptr;
  T* dev_ = nullptr;
  std::size_t size_ = 0;
  host_memory kind_ = host_memory::pageable;
  bool registered_ = false;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/host_buffer.cuh"
#endif
