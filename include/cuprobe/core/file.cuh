// cuprobe/core/file.cuh: writing result files, and checking early that they can be written.
//
//   cuprobe::require_writable("out/results.json", "--json");   // before any measurement
//   ...
//   cuprobe::write_text("out/results.json", text);             // throws naming the path
//
// require_writable() opens the path for appending (creating it if needed) and removes it again
// if it did not exist, so a typo in a directory, a path that is a directory or a read-only
// location fails in the first second of a run, not after it.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/linkage.cuh"

namespace cuprobe {

/// Writes `text` to `path` (throws cuprobe::error naming the path and the reason on failure).
CUPROBE_DECL void write_text(const std::string& path, const std::string& text);

/// Throws cuprobe::error when `path` cannot be written, naming `what` (e.g. the option that
/// gave it) and the reason. Leaves an existing file as it is; creates no file that was not
/// there.
CUPROBE_DECL void require_writable(const std::string& path, const std::string& what);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/file.cuh"
#endif
