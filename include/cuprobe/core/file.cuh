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

namespace cuprobe {

/// Writes `text` to `path` (throws cuprobe::error naming the path and the reason on failure).
inline void write_text(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  require(f != nullptr, "cannot open '" + path + "' for writing: " + std::strerror(errno));
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  require(ok && closed, "could not write '" + path + "': " + std::strerror(errno));
}

/// Throws cuprobe::error when `path` cannot be written, naming `what` (e.g. the option that
/// gave it) and the reason. Leaves an existing file as it is; creates no file that was not
/// there.
inline void require_writable(const std::string& path, const std::string& what) {
  require(!path.empty(), what + ": the output path is empty");
  struct stat st {};
  const bool existed = ::stat(path.c_str(), &st) == 0;
  require(!(existed && S_ISDIR(st.st_mode)),
          what + ": '" + path + "' is a directory; give a file name");
  std::FILE* f = std::fopen(path.c_str(), "ab");
  require(f != nullptr, what + ": cannot write '" + path + "': " + std::strerror(errno));
  std::fclose(f);
  if (!existed) ::unlink(path.c_str());
}

}  // namespace cuprobe
