// cuprobe: library version. CMake reads the numbers below; they are the one source of truth.
#pragma once

#define CUPROBE_VERSION_MAJOR 0         ///< The major version.
#define CUPROBE_VERSION_MINOR 2         ///< The minor version.
#define CUPROBE_VERSION_PATCH 0         ///< The patch version.
#define CUPROBE_VERSION_STRING "0.2.0"  ///< The version as text, "major.minor.patch".

namespace cuprobe {
/// The version as text, "major.minor.patch" (CUPROBE_VERSION_STRING).
inline constexpr const char* version_string = CUPROBE_VERSION_STRING;
}  // namespace cuprobe
