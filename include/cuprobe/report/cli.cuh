// cuprobe/report/cli.cuh: the command line every example shares.
//
//   auto cli = cuprobe::cli::parse(argc, argv, "fma_throughput: FP32 FMA throughput sweep");
//   if (cli.quick) ...;   results.write_json(cli.json_path) when !cli.json_path.empty()
//
//   --json PATH   write the results (schema cuprobe.results/1)
//   --csv PATH    write one CSV row per measurement
//   --quick       the short setting (fewer points and samples), for CI-like checks
//   --profile     run each benchmark exactly once (for ncu); same as CUPROBE_PROFILE=1
//   --help        print the usage and exit
// Options an example adds are declared in `extra` ("--name" takes one value).
#pragma once

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"

namespace cuprobe {

struct cli {
  std::string json_path, csv_path;
  bool quick = false;
  bool profile = false;
  std::map<std::string, std::string> extra;  ///< example-specific "--name value" options

  bool has(const std::string& name) const { return extra.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback) const {
    auto it = extra.find(name);
    return it == extra.end() ? fallback : it->second;
  }
  double get_number(const std::string& name, double fallback) const {
    auto it = extra.find(name);
    if (it == extra.end()) return fallback;
    char* end = nullptr;
    const double v = std::strtod(it->second.c_str(), &end);
    require(end && *end == '\0', "option " + name + " expects a number, got '" + it->second + "'");
    return v;
  }

  /// Parses argv; prints the usage and exits 0 on --help; throws cuprobe::error on a bad option.
  static cli parse(int argc, char** argv, const std::string& about,
                   const std::vector<std::pair<std::string, std::string>>& extra_options = {}) {
    cli c;
    auto usage = [&] {
      std::string u = about + "\n\nOptions:\n  --json PATH   write the results as JSON\n"
                              "  --csv PATH    write the results as CSV\n"
                              "  --quick       short setting\n"
                              "  --profile     each benchmark once (for ncu)\n";
      for (const auto& e : extra_options) u += "  " + e.first + " VALUE  " + e.second + "\n";
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
      } else if (a == "--csv") {
        c.csv_path = value();
      } else if (a == "--quick") {
        c.quick = true;
      } else if (a == "--profile") {
        c.profile = true;
      } else {
        bool known = false;
        for (const auto& e : extra_options)
          if (a == e.first) {
            c.extra[a] = value();
            known = true;
          }
        require(known, "unknown option '" + a + "'\n" + usage());
      }
    }
    if (c.profile) setenv("CUPROBE_PROFILE", "1", 1);
    return c;
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
