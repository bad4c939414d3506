// cuprobe: library version (CMake reads the numbers below; they are the one source of truth),
// and the git commit of the build (CUPROBE_GIT_SHA: the environment, else the macro, which the
// examples' CMake sets, "-dirty" when the tree had changes, else "unknown").
#pragma once
#include "cuprobe/core/linkage.cuh"

#include <cstdlib>
#include <string>

#define CUPROBE_VERSION_MAJOR 0         ///< The major version.
#define CUPROBE_VERSION_MINOR 2         ///< The minor version.
#define CUPROBE_VERSION_PATCH 0         ///< The patch version.
#define CUPROBE_VERSION_STRING "0.2.0"  ///< The version as text, "major.minor.patch".

namespace cuprobe {
/// The version as text, "major.minor.patch" (CUPROBE_VERSION_STRING).
inline constexpr const char* version_string = CUPROBE_VERSION_STRING;

/// The git commit of the build: CUPROBE_GIT_SHA from the environment or the compiler, or "unknown".
CUPROBE_DECL std::string git_commit();
}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/core/impl/version.cuh"
#endif
