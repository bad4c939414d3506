// cuprobe/core/impl/version.cuh: the definitions of cuprobe/core/version.cuh's larger host
// functions. Not a header of its own: version.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL std::string git_commit() {
  if (const char* e = std::getenv("CUPROBE_GIT_SHA"); e && *e) return e;
#ifdef CUPROBE_GIT_SHA
  return CUPROBE_GIT_SHA;
#else
  return "unknown";
#endif
}

}  // namespace cuprobe
