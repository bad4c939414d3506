// cuprobe/multi/impl/peer.cuh: the definitions of cuprobe/multi/peer.cuh's larger host functions.
// Not a header of its own: peer.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::string peer_refusal(int from, int to, int count, bool can_access) {
  const std::string who =
      "peer access from device " + std::to_string(from) + " to device " + std::to_string(to);
  const std::string seen = "this process sees " + std::to_string(count) + " GPU" +
                           (count == 1 ? "" : "s") +
                           (count > 0 ? ", ordinals 0 .. " + std::to_string(count - 1) : "");
  for (int d : {from, to})
    if (d < 0 || d >= count)
      return who + ": there is no device " + std::to_string(d) + " (" + seen + ")";
  if (from == to)
    return who + ": a device reaches its own memory without peer access; peer access needs two " +
           "different devices (" + seen + ")";
  if (!can_access)
    return who + ": cudaDeviceCanAccessPeer says device " + std::to_string(from) +
           " cannot map device " + std::to_string(to) +
           "'s memory (no NVLink or PCIe peer path between them, or the system disables it)";
  return "";
}

CUPROBE_DECL bool can_access_peer(int from, int to) {
  const int n = device_count();
  if (from < 0 || to < 0 || from >= n || to >= n || from == to) return false;
  int ok = 0;
  if (cudaDeviceCanAccessPeer(&ok, from, to) != cudaSuccess) {
    (void)cudaGetLastError();
    return false;
  }
  return ok != 0;
}

CUPROBE_DECL void enable_peer_access(int from, int to) {
  const int n = device_count();
  const std::string why = peer_refusal(from, to, n, can_access_peer(from, to));
  if (!why.empty()) throw error("cuprobe: " + why);
  scoped_device on(from);
  const cudaError_t e = cudaDeviceEnablePeerAccess(to, 0);
  if (e == cudaErrorPeerAccessAlreadyEnabled) {
    (void)cudaGetLastError();
    return;
  }
  CUPROBE_CHECK(e);
}

CUPROBE_DECL bool disable_peer_access(int from, int to) {
  if (!peer_refusal(from, to, device_count(), can_access_peer(from, to)).empty()) return false;
  scoped_device on(from);
  const cudaError_t e = cudaDeviceDisablePeerAccess(to);
  if (e == cudaErrorPeerAccessNotEnabled) {
    (void)cudaGetLastError();
    return false;
  }
  CUPROBE_CHECK(e);
  return true;
}

CUPROBE_DECL peer_access::~peer_access() {
  if (gpu_context_lost()) return;
  try {
    disable_peer_access(a_, b_);
    disable_peer_access(b_, a_);
  } catch (const error&) {  // a destructor does not throw; the context is already in trouble
  }
}

CUPROBE_DECL peer_buffers::peer_buffers(int a, int b, std::size_t bytes, std::uint64_t seed)
    : device_{a, b}, bytes_(bytes), seed_(seed) {
  require(bytes >= 16 && bytes % 16 == 0,
          "peer_buffers: " + std::to_string(bytes) + " bytes is not a positive multiple of 16");
  for (int s = 0; s < 2; ++s) {
    in_[s] = device_buffer<std::uint32_t>(words(), on_device{device_[s]});
    out_[s] = device_buffer<std::uint32_t>(words(), on_device{device_[s]});
    scoped_device on(device_[s]);
    gen::detail::fill_input_kernel<>
        <<<gen::detail::check_grid(words()), 256>>>(in_[s].data(), words(), seed_of(s), 0);
    CUPROBE_CHECK_LAUNCH("cuprobe::peer_buffers (filling an input)");
    synchronize_device("peer_buffers");
    out_[s].poison();
  }
}

CUPROBE_DECL gen::stream_check peer_buffers::check_output(int side, gen::stream_pattern pattern,
                                                          std::size_t n) const {
  scoped_device on(device(side));
  const std::uint64_t w = n / 4;
  device_buffer<unsigned long long> r(2);
  CUPROBE_CHECK(cudaMemset(r.data(), 0, 8));
  CUPROBE_CHECK(cudaMemset(r.data() + 1, 0xFF, 8));
  const gen::detail::check_spec spec{pattern, seed_of(1 - side), 1, 0};
  gen::detail::count_mismatches_kernel<>
      <<<gen::detail::check_grid(w), 256>>>(out_[side & 1].data(), w, spec, r.data());
  CUPROBE_CHECK_LAUNCH("cuprobe::peer_buffers::check_output");
  const auto h = r.to_host();
  std::uint32_t found = 0;
  if (h[0])
    CUPROBE_CHECK(cudaMemcpy(&found, out_[side & 1].data() + h[1], 4, cudaMemcpyDeviceToHost));
  return gen::detail::make_word_check(
      pattern, w, h[0], h[1], h[0] ? gen::stream_expected_word(pattern, spec.seed, 1, h[1], 0) : 0u,
      found);
}

CUPROBE_DECL gen::chase_ring peer_chase_ring(int owner, std::size_t bytes, std::size_t stride,
                                             std::uint64_t seed) {
  require(owner >= 0 && owner < device_count(),
          "peer_chase_ring: there is no device " + std::to_string(owner));
  scoped_device on(owner);
  return gen::chase_ring(bytes, stride, 1, seed);
}

}  // namespace cuprobe
