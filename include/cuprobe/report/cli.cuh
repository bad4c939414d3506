// cuprobe/report/cli.cuh: the command line every example shares.
//
//   auto cli = cuprobe::cli::parse(
//       argc, argv, "fma_throughput: FP32 FMA throughput sweep",
//       {cuprobe::cli_option::integer("--passes", "passes", 1, 4096, 4)});
//   cuprobe::run_options o = cli.run_options();          // --profile reaches every measurement
//   const long long passes = cli.get_integer("--passes");
//
//   --json PATH   write the results (schema cuprobe.results/3)
//   --csv PATH    write one CSV row per measurement
//   --quick       the short setting (fewer points and samples), for CI-like checks
//   --full        the long sweeps too (the reference set's setting; --help says which)
//   --small       arrays small enough for compute-sanitizer (every example under a minute)
//   --profile     run each benchmark exactly once (for ncu); CUPROBE_PROFILE=1 does the same
//   --counters C  hardware counters for every measurement, in a pass after its timed samples
//                 (sets and metric names: docs/counters.md); CUPROBE_COUNTERS=C does the same
//   --help        print the usage (with every option's range) and exit
//
// Numbers are parsed strictly (decimal, nothing after them, no hex, NaN or infinity, within the
// declared range that --help prints); output paths are checked for writability when parsed.
#pragma once

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/file.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/measurement.cuh"

namespace cuprobe {

/// An option an example adds to the shared ones.
struct cli_option {
  /// What the option's value is.
  enum class kind { text, path, number, integer };
  std::string name;        ///< "--passes"
  std::string help;        ///< one line of help
  kind type = kind::text;  ///< what the value is
  /// number and integer: the accepted range
  ///@{
  double min = 0, max = 0;
  ///@}
  std::string fallback;  ///< the default, as text ("" : none)

  /// An option that takes any text (default `def`).
  CUPROBE_DECL static cli_option text(std::string n, std::string h, std::string def = "");
  CUPROBE_DECL static cli_option path(std::string n,
                                      std::string h);  ///< An option that names a file to write.
  /// A number option within [lo, hi] (default `def`).
  CUPROBE_DECL static cli_option number(std::string n, std::string h, double lo, double hi,
                                        std::optional<double> def = std::nullopt);
  /// An integer option within [lo, hi] (default `def`).
  CUPROBE_DECL static cli_option integer(std::string n, std::string h, long long lo, long long hi,
                                         std::optional<long long> def = std::nullopt);
  CUPROBE_DECL std::string usage() const;  ///< Its lines of the usage text.
};

/// The parsed command line: the options every example shares and its own (parse()).
struct cli {
  /// --json PATH and --csv PATH ("" when not given).
  ///@{
  std::string json_path, csv_path;
  ///@}
  bool quick = false;    ///< --quick: the short setting
  bool full = false;     ///< --full: the long sweeps too
  bool small = false;    ///< --small: arrays small enough for compute-sanitizer
  bool profile = false;  ///< --profile: every benchmark once, for ncu
  std::string counters;  ///< --counters: the counter request ("": none)
  /// Example-specific "--name value" options as given (a repeated one: its last value).
  std::vector<std::pair<std::string, std::string>> extra;
  std::vector<cli_option> declared;  ///< the example's own options

  /// True when the option was given.
  bool has(const std::string& name) const { return given(name) != nullptr; }
  /// The option's text, or its declared default (or `fallback` when it declares none).
  CUPROBE_DECL std::string get(const std::string& name, const std::string& fallback = "") const;
  /// A declared number or integer option (its default when not given); checked at parse time.
  /// An option given no value and declaring no default is an error (ask has() first).
  CUPROBE_DECL double get_number(const std::string& name) const;
  /// A declared integer option (its default when not given); checked at parse time.
  long long get_integer(const std::string& name) const {
    return static_cast<long long>(get_number(name));
  }
  /// The run options every measurement of the example starts from (profile mode set by
  /// --profile, the counters by --counters).
  CUPROBE_DECL cuprobe::run_options run_options() const;
  /// Samples per measurement: `normal`, `quick` with --quick, and at most 2 with --small (under
  /// compute-sanitizer every launch costs milliseconds: the count of launches, not the array
  /// sizes, decides whether an example stays under a minute).
  CUPROBE_DECL std::size_t samples(std::size_t normal, std::size_t quick) const;

  /// Strict number parsing (see the file comment); the message names `what` and the range.
  CUPROBE_DECL static double parse_number(const std::string& text, const std::string& what,
                                          double lo, double hi, bool integer);
  /// Strict integer parsing (see parse_number()).
  CUPROBE_DECL static long long parse_integer(const std::string& text, const std::string& what,
                                              long long lo, long long hi);

  /// Parses argv; prints the usage and exits 0 on --help; throws cuprobe::error on a bad
  /// option, a number out of range or an output path that cannot be written.
  CUPROBE_DECL static cli parse(int argc, char** argv, const std::string& about,
                                const std::vector<cli_option>& extra_options = {});

 private:
  CUPROBE_DECL const cli_option* find(const std::string& name) const;
  CUPROBE_DECL const std::string* given(const std::string& name) const;
  CUPROBE_DECL static std::string fmt_range(double lo, double hi);
};

/// Runs an example's body and turns a cuprobe::error into one sentence on stderr and exit
/// code 1 (no GPU, a GPU the program was not built for, bad options, failed validation):
///   int main(int argc, char** argv) { return cuprobe::guarded_main([&] { ...; return 0; }); }
template <class F>
int guarded_main(F&& body) {
  try {
    return body();
  } catch (const error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/report/impl/cli.cuh"
#endif
