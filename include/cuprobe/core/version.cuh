// cuprobe: library version. CMake reads the numbers below; they are the one source of truth.
#pragma once

#define CUPROBE_VERSION_MAJOR 0
#define CUPROBE_VERSION_MINOR 1
#define CUPROBE_VERSION_PATCH 0
#define CUPROBE_VERSION_STRING "0.1.0"

namespace cuprobe {
inline constexpr const char* version_string = CUPROBE_VERSION_STRING;
}  // namespace cuprobe
