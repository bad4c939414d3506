// cuprobe/measure/impl/cupti.cuh: the definitions of cuprobe/measure/cupti.cuh's larger host
// functions. Not a header of its own: cupti.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::counters {

CUPROBE_DECL std::string profiler_owner() {
  const auto set = [](const char* name) {
    const char* v = std::getenv(name);
    return v && *v && std::string(v) != "0";
  };
  if (set("NV_SANITIZER_INJECTION_PORT_BASE") || set("CUPROBE_UNDER_SANITIZER"))
    return "another tool owns the profiler (compute-sanitizer)";
  if (set("NV_NSIGHT_INJECTION_PORT_BASE")) return "another tool owns the profiler (ncu or nsys)";
  if (set("CUDA_INJECTION64_PATH"))
    return std::string("another tool owns the profiler (CUDA_INJECTION64_PATH=") +
           std::getenv("CUDA_INJECTION64_PATH") + ")";
  return "";
}

CUPROBE_DECL void save_image(const result& r, const std::string& path) {
  require(!r.image.empty(), "counters: the result holds no counter data image to save");
  std::FILE* f = std::fopen(path.c_str(), "wb");
  require(f != nullptr, "counters: could not write " + path);
  const bool ok = std::fwrite(r.image.data(), 1, r.image.size(), f) == r.image.size();
  require(std::fclose(f) == 0 && ok, "counters: could not write " + path);
}

CUPROBE_DECL std::vector<std::uint8_t> load_image(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  require(f != nullptr, "counters: could not read " + path);
  std::vector<std::uint8_t> image;
  std::uint8_t buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;)
    image.insert(image.end(), buffer, buffer + n);
  std::fclose(f);
  return image;
}

}  // namespace cuprobe::counters
