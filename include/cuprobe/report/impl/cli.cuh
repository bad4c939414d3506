// cuprobe/report/impl/cli.cuh: the definitions of cuprobe/report/cli.cuh's larger host functions.
// Not a header of its own: cli.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL cli_option cli_option::text(std::string n, std::string h, std::string def) {
  return {std::move(n), std::move(h), kind::text, 0, 0, std::move(def)};
}

CUPROBE_DECL cli_option cli_option::path(std::string n, std::string h) {
  return {std::move(n), std::move(h), kind::path, 0, 0, ""};
}

CUPROBE_DECL cli_option cli_option::number(std::string n, std::string h, double lo, double hi,
                                           std::optional<double> def) {
  char b[64] = "";
  if (def) std::snprintf(b, sizeof b, "%g", *def);
  return {std::move(n), std::move(h), kind::number, lo, hi, b};
}

CUPROBE_DECL cli_option cli_option::integer(std::string n, std::string h, long long lo,
                                            long long hi, std::optional<long long> def) {
  return {std::move(n), std::move(h), kind::integer,
          double(lo),   double(hi),   def ? std::to_string(*def) : std::string()};
}

CUPROBE_DECL std::string cli_option::usage() const {
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

CUPROBE_DECL std::string cli::get(const std::string& name, const std::string& fallback) const {
  if (const std::string* v = given(name)) return *v;
  const cli_option* o = find(name);
  return o && !o->fallback.empty() ? o->fallback : fallback;
}

CUPROBE_DECL double cli::get_number(const std::string& name) const {
  const cli_option* o = find(name);
  require(o && (o->type == cli_option::kind::number || o->type == cli_option::kind::integer),
          "cli: " + name + " is not a declared number option");
  require(has(name) || !o->fallback.empty(), "cli: " + name + " was not given and has no default");
  return parse_number(get(name), name, o->min, o->max, o->type == cli_option::kind::integer);
}

CUPROBE_DECL cuprobe::run_options cli::run_options() const {
  cuprobe::run_options o;
  o.profile = profile;
  o.counters = counters;
  return o;
}

CUPROBE_DECL std::size_t cli::samples(std::size_t normal, std::size_t quick) const {
  return small ? std::min<std::size_t>(quick, 2) : this->quick ? quick : normal;
}

CUPROBE_DECL double cli::parse_number(const std::string& text, const std::string& what, double lo,
                                      double hi, bool integer) {
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

CUPROBE_DECL long long cli::parse_integer(const std::string& text, const std::string& what,
                                          long long lo, long long hi) {
  return static_cast<long long>(parse_number(text, what, double(lo), double(hi), true));
}

CUPROBE_DECL cli cli::parse(int argc, char** argv, const std::string& about,
                            const std::vector<cli_option>& extra_options) {
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

CUPROBE_DECL const cli_option* cli::find(const std::string& name) const {
  for (const auto& o : declared)
    if (o.name == name) return &o;
  return nullptr;
}

CUPROBE_DECL const std::string* cli::given(
    const std::string& name) const {  // its last value, or nullptr
  for (auto it = extra.rbegin(); it != extra.rend(); ++it)
    if (it->first == name) return &it->second;
  return nullptr;
}

CUPROBE_DECL std::string cli::fmt_range(double lo, double hi) {
  char b[96];
  std::snprintf(b, sizeof b, "%g .. %g", lo, hi);
  return b;
}

}  // namespace cuprobe
