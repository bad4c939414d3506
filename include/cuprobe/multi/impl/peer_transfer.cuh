// cuprobe/multi/impl/peer_transfer.cuh: the definitions of cuprobe/multi/peer_transfer.cuh's larger
// host functions. Not a header of its own: peer_transfer.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL const char* to_string(peer_method m) {
  return m == peer_method::copy_engine ? "copy_engine"
         : m == peer_method::sm_read   ? "sm_read"
         : m == peer_method::sm_write  ? "sm_write"
                                       : "sm_copy";
}

CUPROBE_DECL void peer_transfer_options::validate(std::size_t buffer_bytes) const {
  const std::string w = "measure_peer: ";
  const std::size_t n = bytes ? bytes : buffer_bytes;
  require(n >= 16 && n % 16 == 0 && n <= buffer_bytes,
          w + "bytes is " + std::to_string(n) + "; it must be a multiple of 16 in 16 .. " +
              std::to_string(buffer_bytes) + " (the buffers' size)");
  require(blocks_per_sm >= 1 && blocks_per_sm <= 32 && threads >= 32 && threads <= 1024 &&
              threads % 32 == 0,
          w + "the grid of " + std::to_string(blocks_per_sm) + " blocks per SM x " +
              std::to_string(threads) + " threads is outside 1..32 x 32..1024 (whole warps)");
  require(run.mode == loop_mode::launches && !run.graph,
          w + "run.mode must be launches and run.graph false (one transfer a launch)");
  validate_options(run, "measure_peer");
}

}  // namespace cuprobe

namespace cuprobe::detail {

CUPROBE_DECL int peer_driver(const peer_buffers& b, peer_method m, int from) {
  return m == peer_method::copy_engine || m == peer_method::sm_write ? b.device(from)
                                                                     : b.device(1 - from);
}

}  // namespace cuprobe::detail
