// cuprobe/core/impl/host_buffer.cuh: the definitions of cuprobe/core/host_buffer.cuh's larger host
// functions. Not a header of its own: host_buffer.cuh includes it at its end in the header-only
// mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL const char* to_string(host_memory k) {
  return k == host_memory::pageable     ? "pageable"
         : k == host_memory::pinned     ? "pinned"
         : k == host_memory::mapped     ? "mapped"
         : k == host_memory::registered ? "registered"
                                        : "?";
}

CUPROBE_DECL std::size_t host_page_bytes() {
  const long p = sysconf(_SC_PAGESIZE);
  return p > 0 ? static_cast<std::size_t>(p) : 4096;
}

}  // namespace cuprobe
