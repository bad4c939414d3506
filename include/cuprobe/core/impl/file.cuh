// cuprobe/core/impl/file.cuh: the definitions of cuprobe/core/file.cuh's larger host functions. Not
// a header of its own: file.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL void write_text(const std::string& path, const std::string& text) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  require(f != nullptr, "cannot open '" + path + "' for writing: " + std::strerror(errno));
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  require(ok && closed, "could not write '" + path + "': " + std::strerror(errno));
}

CUPROBE_DECL void require_writable(const std::string& path, const std::string& what) {
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
