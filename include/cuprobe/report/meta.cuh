// cuprobe/report/meta.cuh: what a results file says about where it came from: library
// version, date, command line, compile flags, git commit, and the device as JSON.
//
//   cuprobe::json meta = cuprobe::run_meta(argc, argv);
//   cuprobe::json dev  = cuprobe::to_json(cuprobe::device_info::query());
//
// The commit: git_commit() (core/version.cuh). Compile flags: CUPROBE_COMPILE_FLAGS when the
// build defines it, plus what the compiler says (nvcc, this unit's architectures, NDEBUG).
#pragma once

#include <string>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/version.cuh"
#include "cuprobe/measure/nvml.cuh"

#define CUPROBE_STRINGIFY_(x) #x  ///< Turns the tokens `x` into a string literal (no expansion).
#define CUPROBE_STRINGIFY(x) CUPROBE_STRINGIFY_(x)  ///< The macro-expanded `x` as a string literal.

namespace cuprobe {

/// How the program was compiled: CUPROBE_COMPILE_FLAGS, nvcc's version, the architectures, NDEBUG.
CUPROBE_DECL std::string compile_flags();

/// The arguments joined by spaces.
CUPROBE_DECL std::string command_line(int argc, char** argv);

/// The run's record: library version, date, command line, compile flags and commit.
CUPROBE_DECL json run_meta(int argc, char** argv);

/// The device's facts as a JSON object.
CUPROBE_DECL json to_json(const device_info& d);

/// NVML reading as JSON; unread fields are null; no NVML: {"available": false}.
CUPROBE_DECL json to_json(const nvml_sample& s);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/report/impl/meta.cuh"
#endif
