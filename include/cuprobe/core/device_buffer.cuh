// cuprobe/core/device_buffer.cuh: RAII device memory: poison, fill, random init, copies, rotation.
//
//   cuprobe::device_buffer<float> x(1 << 20);
//   x.fill_random(/*seed=*/42, -1.f, 1.f);   // counter-based: same seed, same values
//   y.poison();                               // 0xA5 bytes: an unwritten output shows up
//   my_kernel<<<g, b>>>(x.data(), y.data());
//   std::vector<float> h = y.to_host();       // y.to_host(stream) after work on another stream
//   cuprobe::device_buffer<float> z(1 << 20, cuprobe::on_device{1});  // on device 1, freed there
//
// Every call checks its CUDA result and throws cuprobe::error on failure.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/watchdog.cuh"

namespace cuprobe {

namespace detail {
/// "1.50 GiB (1610612736 bytes)": an allocation size in a message.
CUPROBE_DECL std::string bytes_text(double b);
}  // namespace detail

/// Makes `ordinal` the current device for the scope's lifetime and restores the previous one
/// after; a negative ordinal changes nothing.
class scoped_device {
 public:
  /// Switches to `ordinal` (nothing when it is negative or already current).
  CUPROBE_DECL explicit scoped_device(int ordinal);
  scoped_device(const scoped_device&) = delete;
  scoped_device& operator=(const scoped_device&) = delete;
  ~scoped_device() {
    if (previous_ >= 0) (void)cudaSetDevice(previous_);
  }

 private:
  int previous_ = -1;
};

/// Where a device_buffer is allocated: the device of CUDA ordinal `ordinal`.
struct on_device {
  int ordinal = 0;  ///< the device's CUDA ordinal
};

/// The byte written by device_buffer::poison() unless told otherwise.
inline constexpr unsigned char poison_byte = 0xA5;

namespace detail {

/// splitmix64: a counter-based hash, so element i of seed s is the same on host and device.
__host__ __device__ constexpr std::uint64_t mix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// Uniform value in [lo, hi] (integers) or [lo, hi) (floating point and float-convertible T).
template <class T>
__host__ __device__ T random_value(std::uint64_t seed, std::uint64_t index, T lo, T hi) {
  const std::uint64_t bits = mix64(seed ^ mix64(index));
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    const std::uint64_t span =
        static_cast<std::uint64_t>(static_cast<U>(hi) - static_cast<U>(lo)) + 1u;
    const std::uint64_t off = span == 0 ? bits : bits % span;  // span 0: the full range
    return static_cast<T>(static_cast<U>(static_cast<U>(lo) + static_cast<U>(off)));
  } else if constexpr (std::is_floating_point_v<T>) {
    const double u = static_cast<double>(bits >> 11) * 0x1.0p-53;
    return static_cast<T>(static_cast<double>(lo) + (static_cast<double>(hi) - lo) * u);
  } else {  // __half, __nv_bfloat16, ...: anything that converts to and from float
    const float u = static_cast<float>(bits >> 40) * 0x1.0p-24f;
    const float l = static_cast<float>(lo), h = static_cast<float>(hi);
    return T(l + (h - l) * u);
  }
}

/// The lanes of a CUDA vector type (float4: 4 floats), for lane-wise random fills.
template <class T>
struct vector_lanes {
  static constexpr int count = 0;
};
// clang-format off
template <> struct vector_lanes<float2> { static constexpr int count = 2; using lane = float; };
template <> struct vector_lanes<float4> { static constexpr int count = 4; using lane = float; };
template <> struct vector_lanes<double2> { static constexpr int count = 2; using lane = double; };
template <> struct vector_lanes<int2> { static constexpr int count = 2; using lane = int; };
template <> struct vector_lanes<int4> { static constexpr int count = 4; using lane = int; };
template <> struct vector_lanes<uint2> { static constexpr int count = 2; using lane = unsigned; };
template <> struct vector_lanes<uint4> { static constexpr int count = 4; using lane = unsigned; };
// clang-format on

/// Element `index` of a lane-wise random fill: lane j is random_value(seed, index x lanes + j).
template <class T, class S>
__host__ __device__ T random_lanes(std::uint64_t seed, std::uint64_t index, S lo, S hi) {
  using L = typename vector_lanes<T>::lane;
  constexpr int n = vector_lanes<T>::count;
  L v[n];
  for (int j = 0; j < n; ++j)
    v[j] =
        random_value<L>(seed, index * n + std::uint64_t(j), static_cast<L>(lo), static_cast<L>(hi));
  T out;
  static_assert(sizeof(v) == sizeof(T), "cuprobe: vector lanes must fill the vector");
  std::memcpy(&out, v, sizeof(T));
  return out;
}

template <class T, class S>
__global__ void fill_random_lanes_kernel(T* p, std::size_t n, std::uint64_t seed, S lo, S hi) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = random_lanes<T>(seed, i, lo, hi);
}

template <class T>
__global__ void fill_kernel(T* p, std::size_t n, T value) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = value;
}

template <class T>
__global__ void fill_random_kernel(T* p, std::size_t n, std::uint64_t seed, T lo, T hi) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    p[i] = random_value(seed, i, lo, hi);
}

CUPROBE_DECL unsigned fill_grid(std::size_t n);

}  // namespace detail

/// Owns `size()` elements of T in device memory (cudaMalloc) on one device (the current one at
/// allocation, or the one given), which it remembers: fills, copies and the free run there.
/// Move-only.
template <class T>
class device_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "device_buffer<T> needs a trivially copyable T");

 public:
  using value_type = T;  ///< The element type.

  device_buffer() = default;
  /// Allocates `count` elements. Refused with a sentence when count x sizeof(T) overflows; an
  /// allocation the device cannot satisfy names the size asked for and the free memory.
  explicit device_buffer(std::size_t count) : size_(count) {
    if (!count) return;
    require(count <= std::numeric_limits<std::size_t>::max() / sizeof(T),
            "device_buffer: " + std::to_string(count) + " elements of " +
                std::to_string(sizeof(T)) + " bytes overflow the size of an allocation");
    const cudaError_t e = cudaMalloc(reinterpret_cast<void**>(&ptr_), count * sizeof(T));
    if (e == cudaErrorMemoryAllocation) {
      (void)cudaGetLastError();
      ptr_ = nullptr;
      size_ = 0;
      std::size_t free_b = 0, total_b = 0;
      const bool known = cudaMemGetInfo(&free_b, &total_b) == cudaSuccess;
      (void)cudaGetLastError();
      throw error("cuprobe: device_buffer: cudaMalloc of " +
                      detail::bytes_text(double(count) * sizeof(T)) +
                      " failed (cudaErrorMemoryAllocation); the device has " +
                      (known ? detail::bytes_text(double(free_b)) + " free of " +
                                   detail::bytes_text(double(total_b))
                             : std::string("an unknown amount of memory free")),
                  static_cast<int>(e));
    }
    if (e != cudaSuccess) {
      ptr_ = nullptr;
      size_ = 0;
    }
    detail::check(e, "cudaMalloc", __FILE__, __LINE__);
    (void)cudaGetDevice(&device_);  // the device the allocation went to
  }
  /// Allocates `count` elements on device `where.ordinal` (the current device is left as it was).
  device_buffer(std::size_t count, on_device where) {
    require_ordinal(where.ordinal);
    scoped_device on(where.ordinal);
    *this = device_buffer(count);
    device_ = where.ordinal;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  /// Takes over `o`'s memory; `o` is left empty.
  device_buffer(device_buffer&& o) noexcept
      : ptr_(std::exchange(o.ptr_, nullptr)),
        size_(std::exchange(o.size_, 0)),
        device_(std::exchange(o.device_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {  ///< Frees this memory, takes over `o`'s.
    if (this != &o) {
      release();
      ptr_ = std::exchange(o.ptr_, nullptr);
      size_ = std::exchange(o.size_, 0);
      device_ = std::exchange(o.device_, 0);
    }
    return *this;
  }
  ~device_buffer() { release(); }

  T* data() noexcept { return ptr_; }                               ///< The device pointer.
  const T* data() const noexcept { return ptr_; }                   ///< The device pointer.
  std::size_t size() const noexcept { return size_; }               ///< The number of elements.
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }  ///< size() x sizeof(T).
  bool empty() const noexcept { return size_ == 0; }  ///< True when it holds no element.
  int device() const noexcept { return device_; }     ///< The ordinal of the device it lives on.

  /// Sets every byte to `byte`, so that an element the kernel never wrote can be told apart.
  void poison(unsigned char byte = poison_byte, cudaStream_t s = nullptr) {
    scoped_device on(size_ ? device_ : -1);
    if (size_) CUPROBE_CHECK(cudaMemsetAsync(ptr_, byte, bytes(), s));
    sync_if_default(s);
  }
  void zero(cudaStream_t s = nullptr) { poison(0, s); }  ///< Sets every byte to 0.

  /// Sets every element to `value`.
  void fill(const T& value, cudaStream_t s = nullptr) {
    if (!size_) return;
    scoped_device on(device_);
    detail::fill_kernel<<<detail::fill_grid(size_), 256, 0, s>>>(ptr_, size_, value);
    CUPROBE_CHECK_LAUNCH("cuprobe::device_buffer::fill");
    sync_if_default(s);
  }

  /// Element i becomes detail::random_value(seed, i, lo, hi): uniform, reproducible, and the
  /// same as host_random(seed, i, lo, hi) computes on the CPU.
  void fill_random(std::uint64_t seed, T lo, T hi, cudaStream_t s = nullptr) {
    if (!size_) return;
    scoped_device on(device_);
    detail::fill_random_kernel<<<detail::fill_grid(size_), 256, 0, s>>>(ptr_, size_, seed, lo, hi);
    CUPROBE_CHECK_LAUNCH("cuprobe::device_buffer::fill_random");
    sync_if_default(s);
  }

  /// For CUDA vector types (float2, float4, int4, uint4, double2, ...): every lane uniform in
  /// [lo, hi), lane j of element i = random_value(seed, i x lanes + j, lo, hi); host twin:
  /// host_random_lanes<T>(seed, i, lo, hi).
  template <class S, class U = T, std::enable_if_t<(detail::vector_lanes<U>::count > 0), int> = 0>
  void fill_random(std::uint64_t seed, S lo, S hi, cudaStream_t s = nullptr) {
    if (!size_) return;
    scoped_device on(device_);
    detail::fill_random_lanes_kernel<<<detail::fill_grid(size_), 256, 0, s>>>(ptr_, size_, seed, lo,
                                                                              hi);
    CUPROBE_CHECK_LAUNCH("cuprobe::device_buffer::fill_random");
    sync_if_default(s);
  }

  /// Copies the whole buffer to a new host vector (synchronous, on the legacy default stream:
  /// it does not wait for work on a non-blocking stream, such as the runner's
  /// launch_context::stream; to_host(stream) does).
  std::vector<T> to_host() const {
    std::vector<T> h(size_);
    require(!gpu_context_lost(),
            "device_buffer::to_host: an earlier wait timed out, so the GPU "
            "context cannot be used again in this process");
    scoped_device on(size_ ? device_ : -1);
    if (size_) CUPROBE_CHECK(cudaMemcpy(h.data(), ptr_, bytes(), cudaMemcpyDeviceToHost));
    return h;
  }

  /// Waits for the work on `stream` (wait_for: at most default_watchdog_s()), then copies the
  /// whole buffer to a new host vector: what a sampler reads after its kernel on
  /// launch_context::stream.
  std::vector<T> to_host(cudaStream_t stream) const {
    wait_for(stream, "device_buffer::to_host");
    return to_host();
  }

  /// Copies host data into the buffer (synchronous, on the legacy default stream, like
  /// to_host()); the sizes must match.
  void upload(const std::vector<T>& h) {
    require(h.size() == size_, "device_buffer::upload: host vector has " +
                                   std::to_string(h.size()) + " elements, buffer has " +
                                   std::to_string(size_));
    scoped_device on(size_ ? device_ : -1);
    if (size_) CUPROBE_CHECK(cudaMemcpy(ptr_, h.data(), bytes(), cudaMemcpyHostToDevice));
  }
  /// Waits for the work on `stream` (which may still read the buffer), then upload(h).
  void upload(const std::vector<T>& h, cudaStream_t stream) {
    wait_for(stream, "device_buffer::upload");
    upload(h);
  }

  /// True when every byte of `v` equals `byte` (an element left poisoned).
  static bool is_poison(const T& v, unsigned char byte = poison_byte) {
    unsigned char b[sizeof(T)];
    std::memcpy(b, &v, sizeof(T));
    for (unsigned char c : b)
      if (c != byte) return false;
    return true;
  }

 private:
  static void require_ordinal(int ordinal) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) (void)cudaGetLastError();
    require(ordinal >= 0 && ordinal < n,
            "device_buffer: there is no device " + std::to_string(ordinal) +
                " (this process sees " + std::to_string(n) + " GPU" + (n == 1 ? "" : "s") + ")");
  }
  void release() noexcept {
    if (ptr_ && !gpu_context_lost()) {  // lost: cudaFree would wait for the stuck kernel
      int current = -1;
      if (cudaGetDevice(&current) == cudaSuccess && current != device_) {
        (void)cudaSetDevice(device_);
        cudaFree(ptr_);
        (void)cudaSetDevice(current);
      } else {
        cudaFree(ptr_);
      }
    }
    ptr_ = nullptr;
    size_ = 0;
  }
  static void sync_if_default(cudaStream_t s) {
    if (s == nullptr) wait_for(cudaStream_t{}, "a copy on the default stream");
  }

  T* ptr_ = nullptr;
  std::size_t size_ = 0;
  int device_ = 0;
};

/// The host twin of device_buffer::fill_random: the value element `index` gets.
template <class T>
T host_random(std::uint64_t seed, std::uint64_t index, T lo, T hi) {
  return detail::random_value(seed, index, lo, hi);
}

/// The host twin of device_buffer<vector type>::fill_random: element `index`.
template <class T, class S>
T host_random_lanes(std::uint64_t seed, std::uint64_t index, S lo, S hi) {
  return detail::random_lanes<T>(seed, index, lo, hi);
}

/// Several equal input sets used in turn, so that repeated samples do not find their inputs in
/// a cache: with sets x bytes-per-set well above the L2, each sample reads cold data.
template <class T>
class rotation_set {
 public:
  /// `sets` sets of `elements_per_set` elements each.
  rotation_set(std::size_t elements_per_set, std::size_t sets) {
    require(sets >= 1, "rotation_set needs at least one set");
    for (std::size_t i = 0; i < sets; ++i) sets_.emplace_back(elements_per_set);
  }

  /// As many sets as it takes for their total to reach `min_total_bytes` (at least two).
  static rotation_set covering(std::size_t elements_per_set, std::size_t min_total_bytes) {
    require(elements_per_set > 0, "rotation_set::covering needs a non-empty set");
    const std::size_t per = elements_per_set * sizeof(T);
    std::size_t n = (min_total_bytes + per - 1) / per;
    return rotation_set(elements_per_set, n < 2 ? 2 : n);
  }

  std::size_t size() const noexcept { return sets_.size(); }  ///< The number of sets.
  /// The bytes of all sets together.
  std::size_t total_bytes() const noexcept { return sets_.empty() ? 0 : size() * sets_[0].bytes(); }
  device_buffer<T>& operator[](std::size_t i) { return sets_.at(i); }  ///< Set `i`.
  /// The next set in turn (round robin), starting with set 0.
  device_buffer<T>& next() {
    device_buffer<T>& b = sets_[cursor_];
    cursor_ = (cursor_ + 1) % sets_.size();
    return b;
  }
  std::size_t cursor() const noexcept { return cursor_; }  ///< The set next() returns.

  /// Fills set i with fill_random(seed + i, lo, hi).
  void fill_random(std::uint64_t seed, T lo, T hi) {
    for (std::size_t i = 0; i < sets_.size(); ++i) sets_[i].fill_random(seed + i, lo, hi);
  }

 private:
  std::vector<device_buffer<T>> sets_;
  std::size_t cursor_ = 0;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/device_buffer.cuh"
#endif
