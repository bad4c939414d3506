// cuprobe/core/linkage.cuh: header-only by default, or the host code compiled once.
//
// By default every cuprobe header is self-contained: its host functions are inline, and every
// translation unit that includes it compiles them. A program of several translation units may
// compile the larger host bodies once instead (as Boost.Asio's ASIO_SEPARATE_COMPILATION does):
//
//   // every translation unit of the program: -DCUPROBE_SEPARATE_COMPILATION
//   #include <cuprobe/cuprobe.cuh>          // declarations of the host functions
//   // exactly one translation unit of the program, besides:
//   #include <cuprobe/implementation.cuh>   // their definitions, compiled here once
//
// With CMake: cuprobe_separate_compilation(app) (cmake/cuprobeSeparate.cmake). Every translation
// unit of one program uses the same mode; scripts/compile-times.sh measures both.
//
// Which headers: those of the host layers (core, model, measure, report, calibrate, multi,
// testing/child.cuh). Such a header declares its larger non-template host functions CUPROBE_DECL
// and keeps their definitions in impl/<header>, which it includes at its end where
// CUPROBE_HEADER_BODIES; implementation.cuh includes the umbrella and then every impl/ file.
// Templates, constexpr and device functions, and one-line bodies stay in the headers.
// Header-only, only the host pass reads the bodies: the device pass (__CUDA_ARCH__ defined)
// compiles no host function. A kernel that only impl/ bodies launch is named in its header
// (CUPROBE_KEEP_KERNEL) so that the device pass compiles it (sass.header_only_keeps_kernels).
#pragma once

#if !defined(CUPROBE_SEPARATE_COMPILATION) && !defined(__CUDA_ARCH__)
#define CUPROBE_HEADER_BODIES 1  ///< header-only, host pass: headers include their impl/ parts
#define CUPROBE_DECL inline      ///< defined in every translation unit that includes its header
#else
#define CUPROBE_HEADER_BODIES 0
#define CUPROBE_DECL  ///< defined once (implementation.cuh), or read only as a declaration
#endif

#ifdef CUPROBE_SEPARATE_COMPILATION
#define CUPROBE_KEEP_KERNEL(tag, ...)  // implementation.cuh's device pass reads the bodies
#else
/// Names a kernel instance where every pass reads it; `tag` names the unused function holding it.
#define CUPROBE_KEEP_KERNEL(tag, ...) \
  inline void cuprobe_keep_##tag() { static_cast<void>(&__VA_ARGS__); }
#endif
