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
// With CMake: target_compile_definitions(app PRIVATE CUPROBE_SEPARATE_COMPILATION) and a source
// of the target that holds only that include. Every translation unit of one program must use
// the same mode. What it saves: each translation unit that includes measure.cuh or the umbrella
// compiles in about two thirds of the time (scripts/compile-times.sh measures both modes).
//
// Which headers: those of the host layers (core, model, measure, report, calibrate, multi,
// testing/child.cuh). Such a header declares its larger non-template host functions CUPROBE_DECL
// and keeps their definitions in impl/<header>, which it includes at its end in the header-only
// mode; implementation.cuh includes the umbrella and then every impl/ file. Templates,
// constexpr and device functions, and one-line bodies stay in the headers.
#pragma once

#ifdef CUPROBE_SEPARATE_COMPILATION
/// A host function defined once, in the translation unit that includes implementation.cuh.
#define CUPROBE_DECL
#else
/// A host function defined in every translation unit that includes its header (inline).
#define CUPROBE_DECL inline
#endif
