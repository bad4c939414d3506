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
  static cli_option text(std::string n, std::string h, std::string def = "") {
    return {std::move(n), std::move(h), kind::text, 0, 0, std::move(def)};
  }
  static cli_option path(std::string n, std::string h) {  ///< An option that names a file to write.
    return {std::move(n), std::move(h), kind::path, 0, 0, ""};
  }
  /// A number option within [lo, hi] (default `def`).
  static cli_option number(std::string n, std::string h, double lo, double hi,
                           std::optional<double> def = std::nullopt) {
    char b[64] = "";
    if (def) std::snprintf(b, sizeof b, "%g", *def);
    return {std::move(n), std::move(h), kind::number, lo, hi, b};
  }
  /// An integer option within [lo, hi] (default `def`).
  static cli_option integer(std::string n, std::string h, long long lo, long long hi,
                            std::optional<long long> def = std::nullopt) {
    return {std::move(n), std::move(h), kind::integer,
            double(lo),   double(hi),   def ? std::to_string(*def) : std::string()};
  }
  std::string usage() const {  ///< Its lines of the usage text.
    std::string u = "  " + name + (type == kind::path ? " PATH" : " VALUE") + "  " + help;
    char b[96];
    if (type == kind::integer)
      std::snprintf(b, sizeof b, " (integer %.0f .. %.0f", min, max);
    else if (type == kind::number)
      std::snprintf(b, sizeof b, " (number %g .. %g", min, max);
    if (type == kind::integer || type == kind::number)
      u += b + (fallback.empty() ? std::string(")") : ", default " + fallback + ")");
    else if (!fallback.empty())
      u += " (default " + fallback + ")";
    return u + "\n";
  }
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
  std::string get(const std::string& name, const std::string& fallback = "") const {
    if (const std::string* v = given(name)) return *v;
    const cli_option* o = find(name);
    return o && !o->fallback.empty() ? o->fallback : fallback;
  }
  /// A declared number or integer option (its default when not given); checked at parse time.
  /// An option given no value and declaring no default is an error (ask has() first).
  double get_number(const std::string& name) const {
    const cli_option* o = find(name);
    require(o && (o->type == cli_option::kind::number || o->type == cli_option::kind::integer),
            "cli: " + name + " is not a declared number option");
    require(has(name) || !o->fallback.empty(),
            "cli: " + name + " was not given and has no default");
    return parse_number(get(name), name, o->min, o->max, o->type == cli_option::kind::integer);
  }
  /// A declared integer option (its default when not given); checked at parse time.
  long long get_integer(const std::string& name) const {
    return static_cast<long long>(get_number(name));
  }
  /// The run options every measurement of the example starts from (profile mode set by
  /// --profile, the counters by --counters).
  cuprobe::run_options run_options() const {
    cuprobe::run_options o;
    o.profile = profile;
    o.counters = counters;
    return o;
  }
  /// Samples per measurement: `normal`, `quick` with --quick, and at most 2 with --small (under
  /// compute-sanitizer every launch costs milliseconds: the count of launches, not the array
  /// sizes, decides whether an example stays under a minute).
  std::size_t samples(std::size_t normal, std::size_t quick) const {
    return small ? std::min<std::size_t>(quick, 2) : this->quick ? quick : normal;
  }

  /// Strict number parsing (see the file comment); the message names `what` and the range.
  static double parse_number(const std::string& text, const std::string& what, double lo, double hi,
                             bool integer) {
    const std::string range = (integer ? "an integer in " : "a number in ") + fmt_range(lo, hi);
    bool ok = !text.empty();
    for (char c : text)
      ok = ok && ((c >= '0' && c <= '9') || c == '-' || c == '+' ||
                  (!integer && (c == '.' || c == 'e' || c == 'E')));
    char* end = nullptr;
    errno = 0;
    const double v = ok ? std::strtod(text.c_str(), &end) : 0;
    ok = ok && end && *end == '\0' && errno == 0 && std::isfinite(v);
    require(ok, what + " expects " + range + ", got '" + text + "'");
    require(!integer || v == std::floor(v), what + " expects " + range + ", got '" + text + "'");
    require(v >= lo && v <= hi, what + " is " + text + ", outside its range: " + range);
    return v;
  }
  /// Strict integer parsing (see parse_number()).
  static long long parse_integer(const std::string& text, const std::string& what, long long lo,
                                 long long hi) {
    return static_cast<long long>(parse_number(text, what, double(lo), double(hi), true));
  }

  /// Parses argv; prints the usage and exits 0 on --help; throws cuprobe::error on a bad
  /// option, a number out of range or an output path that cannot be written.
  static cli parse(int argc, char** argv, const std::string& about,
                   const std::vector<cli_option>& extra_options = {}) {
    cli c;
    c.declared = extra_options;
    auto usage = [&] {
      std::string u = about +
                      "\n\nOptions:\n  --json PATH   write the results as JSON\n"
                      "  --csv PATH    write the results as CSV\n"
                      "  --quick       short setting\n"
                      "  --full        the long sweeps too (see above for what they add)\n"
                      "  --small       small arrays (for compute-sanitizer)\n"
                      "  --profile     each benchmark once (for ncu)\n"
                      "  --counters C  hardware counters per measurement: dram, l2, l1, access,\n"
                      "                tensor, sol or metric names, comma-separated\n";
      for (const auto& e : extra_options) u += e.usage();
      return u;
    };
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> std::string {
        require(i + 1 < argc, "option " + a + " needs a value\n" + usage());
        return argv[++i];
      };
      if (a == "--help" || a == "-h") {
        std::fputs(usage().c_str(), stdout);
        std::exit(0);
      } else if (a == "--json") {
        c.json_path = value();
        require_writable(c.json_path, "--json");
      } else if (a == "--csv") {
        c.csv_path = value();
        require_writable(c.csv_path, "--csv");
      } else if (a == "--quick") {
        c.quick = true;
      } else if (a == "--full") {
        c.full = true;
      } else if (a == "--small") {
        c.small = true;
      } else if (a == "--profile") {
        c.profile = true;
      } else if (a == "--counters") {
        c.counters = value();
        (void)counters::parse(c.counters);  // one sentence for a bad name, before any launch
        // every measurement of the program, also those made with options of their own
        setenv("CUPROBE_COUNTERS", c.counters.c_str(), 1);
      } else {
        const cli_option* o = c.find(a);
        require(o != nullptr, "unknown option '" + a + "'\n" + usage());
        const std::string v = value();
        if (o->type == cli_option::kind::path) require_writable(v, a);
        if (o->type == cli_option::kind::number || o->type == cli_option::kind::integer)
          (void)parse_number(v, a, o->min, o->max, o->type == cli_option::kind::integer);
        c.extra.emplace_back(a, v);
      }
    }
    require(!(c.full && (c.quick || c.small)), std::string("--full asks for the long sweeps and ") +
                                                   (c.quick ? "--quick" : "--small") +
                                                   " for the short setting; give one of them");
    return c;
  }

 private:
  const cli_option* find(const std::string& name) const {
    for (const auto& o : declared)
      if (o.name == name) return &o;
    return nullptr;
  }
  const std::string* given(const std::string& name) const {  // its last value, or nullptr
    for (auto it = extra.rbegin(); it != extra.rend(); ++it)
      if (it->first == name) return &it->second;
    return nullptr;
  }
  static std::string fmt_range(double lo, double hi) {
    char b[96];
    std::snprintf(b, sizeof b, "%g .. %g", lo, hi);
    return b;
  }
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
