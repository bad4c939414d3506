// cuprobe/measure/l2_flush.cuh: evicts the L2 between samples.
//
//   cuprobe::l2_flush flush;        // a buffer of 2 x the L2 size
//   flush(stream);                  // write it once: the L2 then holds only flush data
//
// A memset of a buffer twice the L2 size replaces every line the benchmark left there (the
// L2 is physically indexed; twice its size covers both partitions' hashing). The flush runs
// on the measured stream outside the timed region.
#pragma once

#include <cuda_runtime_api.h>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// Evicts the L2 by writing a buffer of twice its size on a stream.
class l2_flush {
 public:
  /// Allocates 2 x `l2_bytes` (0: the current device's L2 size).
  explicit l2_flush(std::size_t l2_bytes = 0)
      : buf_(2 * (l2_bytes ? l2_bytes : device_info::query().l2_bytes)) {}
  /// Writes the whole buffer on `s` (a new byte value each time).
  CUPROBE_DECL void operator()(cudaStream_t s);
  std::size_t bytes() const noexcept { return buf_.bytes(); }  ///< the buffer's size in bytes

 private:
  device_buffer<unsigned char> buf_;
  unsigned char value_ = 0;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/l2_flush.cuh"
#endif
