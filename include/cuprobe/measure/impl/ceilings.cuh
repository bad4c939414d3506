// cuprobe/measure/impl/ceilings.cuh: the definitions of cuprobe/measure/ceilings.cuh's larger host
// functions. Not a header of its own: ceilings.cuh includes it at its end in the header-only mode,
// and cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL const char* to_string(ceiling_source s) {
  return s == ceiling_source::card        ? "card"
         : s == ceiling_source::reference ? "reference"
                                          : "nominal";
}

CUPROBE_DECL const std::vector<std::string>& ceiling_keys() {
  // clang-format off
  static const std::vector<std::string> keys = {
      "dram.read.tbps", "dram.write.tbps", "dram.copy.tbps", "l2.read.tbps", "l2.write.tbps",
      "l2.copy.tbps", "l1.read.bytes_per_clk_sm", "smem.read.bytes_per_clk_sm",
      "smem.write.bytes_per_clk_sm", "fma.f32.fraction_of_peak", "fma.f32.tflops",
      "tensor.bf16.tflops", "tensor.f16.tflops", "tensor.tf32.tflops", "tensor.e4m3.tflops",
      "tensor.e5m2.tflops", "clock.sm.effective_mhz", "tensor.bf16.fraction_of_peak",
      "tensor.f16.fraction_of_peak", "tensor.tf32.fraction_of_peak", "tensor.e4m3.fraction_of_peak",
      "tensor.e5m2.fraction_of_peak", "pcie.h2d.gbps", "pcie.d2h.gbps"};
  // clang-format on
  return keys;
}

}  // namespace cuprobe

namespace cuprobe::detail {

CUPROBE_DECL std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

CUPROBE_DECL std::optional<double> utc_seconds(const std::string& iso) {
  std::tm t{};
  const int n = std::sscanf(iso.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d", &t.tm_year, &t.tm_mon,
                            &t.tm_mday, &t.tm_hour, &t.tm_min, &t.tm_sec);
  t.tm_year -= 1900, t.tm_mon -= 1;
  return n == 6 ? std::optional<double>(timegm(&t)) : std::nullopt;
}

CUPROBE_DECL std::optional<std::string> read_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return std::nullopt;
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  std::fclose(f);
  return s;
}

}  // namespace cuprobe::detail

namespace cuprobe {

CUPROBE_DECL std::string ceilings_dir() {
  if (const char* d = std::getenv("CUPROBE_CEILINGS_DIR"); d && *d) return d;
  return detail::env_or("XDG_CACHE_HOME", detail::env_or("HOME", "/tmp") + "/.cache") +
         "/cuprobe/ceilings";
}

CUPROBE_DECL std::string reference_dir() {
  if (const char* d = std::getenv("CUPROBE_REFERENCE_DIR"); d && *d) return d;
#if defined(CUPROBE_REFERENCE_DIR)
  return CUPROBE_REFERENCE_DIR;
#else
  return "";
#endif
}

CUPROBE_DECL std::string gpu_model_folder(std::string name) {
  if (name.compare(0, 7, "NVIDIA ") == 0) name.erase(0, 7);
  std::string out;
  for (char c : name)
    out += c == ' ' ? '-' : static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  return out;
}

CUPROBE_DECL std::optional<double> ceilings_record::metric(const std::string& key) const {
  const json* v = metrics.find(key);
  const double d = v && v->is_number() ? v->as_number() : 0;
  return std::isfinite(d) && d > 0 ? std::optional<double>(d) : std::nullopt;
}

CUPROBE_DECL ceilings_record ceilings_record::load(const std::string& path) {
  const auto text = detail::read_file(path);
  require(text.has_value(), path + " cannot be read");
  json j;
  try {
    j = parse_json(*text);
  } catch (const error& e) {
    throw error(path + " is not JSON (" + std::string(e.what()).substr(9) + ")");
  }
  const auto text_of = [](const json* o, const char* k) {
    const json* v = o ? o->find(k) : nullptr;
    return v && v->is_string() ? v->as_string() : std::string();
  };
  const std::string schema = text_of(&j, "schema");
  require(schema == "cuprobe.ceilings/1" || schema == "cuprobe.summary/1",
          path + " is not a cuprobe.ceilings/1 or cuprobe.summary/1 file");
  const json* m = j.find("metrics");
  require(m && m->is_object(), path + " has no \"metrics\" object");
  ceilings_record r;
  r.path = path;
  r.metrics = *m;
  const auto number_of = [](const json* o, const char* k) {
    const json* v = o ? o->find(k) : nullptr;
    return v && v->is_number() ? v->as_number() : 0.0;
  };
  const json* d = j.find("device");
  r.name = text_of(d, "name");
  r.uuid = text_of(d, "uuid");
  r.driver = text_of(d, "driver_version");
  r.sm_clock_max_mhz = number_of(d, "sm_clock_max_mhz");
  r.memory_clock_mhz = number_of(d, "memory_clock_mhz");
  r.date = text_of(&j, "date");
  r.commit = text_of(&j, "commit");
  return r;
}

CUPROBE_DECL std::string record_staleness(const ceilings_record& r, const device_info& d,
                                          const std::string& driver, double now_s) {
  std::string why;
  const auto add = [&](const std::string& s) { why += (why.empty() ? "" : "; ") + s; };
  if (!driver.empty() && !r.driver.empty() && r.driver != driver)
    add("recorded with driver " + r.driver + ", the card now runs " + driver);
  if (r.sm_clock_max_mhz > 0 && d.sm_clock_khz > 0 &&
      std::fabs(r.sm_clock_max_mhz - d.sm_clock_khz / 1e3) > 1)
    add("recorded at a maximum SM clock of " + std::to_string(int(r.sm_clock_max_mhz)) +
        " MHz, now " + std::to_string(d.sm_clock_khz / 1000));
  if (r.memory_clock_mhz > 0 && d.memory_clock_khz > 0 &&
      std::fabs(r.memory_clock_mhz - d.memory_clock_khz / 1e3) > 1)
    add("recorded at a memory clock of " + std::to_string(int(r.memory_clock_mhz)) + " MHz, now " +
        std::to_string(d.memory_clock_khz / 1000));
  if (const auto t = detail::utc_seconds(r.date)) {
    const double days = (now_s - *t) / 86400;
    if (days > record_max_age_days)
      add("recorded " + std::to_string(int(days)) + " days ago (more than " +
          std::to_string(int(record_max_age_days)) + ")");
  } else {
    add("its date '" + r.date + "' cannot be read");
  }
  return why;
}

CUPROBE_DECL std::string write_ceilings_record(const device_info& d, const std::string& driver,
                                               const json& metrics, const json& clocks,
                                               const std::string& commit, const std::string& date,
                                               std::string path) {
  if (path.empty()) {
    path = ceilings_path(d.uuid);
    const std::string dir = ceilings_dir();
    for (std::size_t i = 1; i <= dir.size(); ++i)  // mkdir -p
      if (i == dir.size() || dir[i] == '/') mkdir(dir.substr(0, i).c_str(), 0755);
  }
  json j = json::object();
  j["schema"] = "cuprobe.ceilings/1";
  json& dev = j["device"] = json::object();
  dev["name"] = d.name;
  dev["uuid"] = d.uuid;
  dev["driver_version"] = driver;
  dev["sm_clock_max_mhz"] = d.sm_clock_khz / 1e3;
  dev["memory_clock_mhz"] = d.memory_clock_khz / 1e3;
  j["date"] = date;
  j["commit"] = commit;
  j["clocks"] = clocks;
  json& m = j["metrics"] = json::object();
  for (const auto& k : ceiling_keys())
    if (const json* v = metrics.find(k); v && v->is_number()) m[k] = *v;
  write_text(path, j.dump(2) + "\n");
  return path;
}

CUPROBE_DECL ceilings ceilings::for_device(const device_info& d, const std::string& driver) {
  ceilings c;
  c.dev_ = d;
  c.load(ceilings_record_path(d), ceiling_source::card, driver);
  if (const std::string ref = reference_dir(); !ref.empty())  // load() skips a missing file
    c.load(ref + "/" + gpu_model_folder(d.name) + "/summary.json", ceiling_source::reference,
           driver);
  return c;
}

CUPROBE_DECL std::optional<placement> ceilings::ceiling_of(const std::string& key,
                                                           double clock_mhz) const {
  if (key.find(".mix.") != std::string::npos)
    return mix_of(key, [&](const std::string& k) { return ceiling_of(k, clock_mhz); });
  for (auto s : {ceiling_source::card, ceiling_source::reference, ceiling_source::nominal})
    if (auto p = ceiling_from(key, clock_mhz, s)) return p;
  return std::nullopt;
}

CUPROBE_DECL std::optional<placement> ceilings::ceiling_from(const std::string& key,
                                                             double clock_mhz,
                                                             ceiling_source s) const {
  if (key.find(".mix.") != std::string::npos)
    return mix_of(key, [&](const std::string& k) { return ceiling_from(k, clock_mhz, s); });
  placement p;
  p.key = key;
  p.source = s;
  if (s == ceiling_source::nominal)
    return nominal(key, clock_mhz, p) ? p : std::optional<placement>();
  const bool card = s == ceiling_source::card;
  const auto& r = card ? card_ : reference_;
  const auto v = r ? r->metric(key) : std::nullopt;
  if (!v || !convert(key, *v, clock_mhz, p)) return std::nullopt;
  p.source_text = card ? "this card's record (" + r->path + ", " + r->date + ")"
                       : "the reference set for " + r->name + " (" + r->path + ", commit " +
                             r->commit.substr(0, 12) + ")";
  p.stale = card ? card_stale_ : "";
  return p;
}

CUPROBE_DECL std::string ceilings::sources_line() const {
  std::string s = "ceilings: ";
  s += card_ ? "this card's record " + card_->path + " (" + card_->date +
                   (card_stale_.empty() ? ")" : ", STALE: " + card_stale_ + ")")
             : "no record of this card (ensure_ceilings, or device_report --ceilings 1)";
  s += reference_ ? "; reference set " + reference_->path : "; no reference set for this model";
  return s + "; else nominal figures";
}

CUPROBE_DECL void ceilings::load(const std::string& path, ceiling_source s,
                                 const std::string& driver) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return;  // no file: nothing to say
  try {
    auto r = ceilings_record::load(path);
    if (s == ceiling_source::card) {
      require(r.uuid.empty() || r.uuid == dev_.uuid,
              path + " describes another card (" + r.uuid + ")");
      card_stale_ = record_staleness(r, dev_, driver, double(std::time(nullptr)));
      card_ = std::move(r);
    } else {
      if (!r.name.empty() && r.name != dev_.name) return;  // another model's set
      reference_ = std::move(r);
    }
  } catch (const error& e) {
    notes_.push_back(std::string(e.what()) + "; ignored");
  }
}

CUPROBE_DECL bool ceilings::convert(const std::string& key, double v, double clock_mhz,
                                    placement& p) const {
  const auto ends = [&](const std::string& t) {
    return key.size() >= t.size() && key.compare(key.size() - t.size(), t.size(), t) == 0;
  };
  p.what = what_of(key);
  if (ends(".tbps")) {
    p.ceiling_per_s = v * 1e12;
  } else if (ends(".gbps")) {
    p.ceiling_per_s = v * 1e9;
  } else if (ends(".bytes_per_clk_sm")) {
    if (!(clock_mhz > 0)) return false;
    p.ceiling_per_s = v * dev_.sm_count * clock_mhz * 1e6;
  } else if (ends(".fraction_of_peak")) {
    placement peak;
    if (!nominal(key, clock_mhz, peak)) return false;
    p.ceiling_per_s = v * peak.ceiling_per_s;
  } else {
    return false;
  }
  return p.ceiling_per_s > 0;
}

CUPROBE_DECL std::string ceilings::what_of(const std::string& key) {
  const auto dot = key.find('.'), dot2 = key.find('.', dot + 1);
  const std::string level = key.substr(0, dot), kind = key.substr(dot + 1, dot2 - dot - 1);
  if (level == "dram") return "DRAM " + kind;
  if (level == "l2") return "L2 " + kind;
  if (level == "l1") return "L1 " + kind;
  if (level == "smem") return "shared-memory " + kind;
  if (level == "fma") return "fp32 FMA";
  if (level == "tensor") return kind + " tensor";
  if (level == "pcie") return "PCIe " + kind;
  return key;
}

CUPROBE_DECL bool ceilings::nominal(const std::string& key, double clock_mhz, placement& p) const {
  p.what = what_of(key);
  const int sm = dev_.sm();
  const double hz = clock_mhz > 0 ? clock_mhz * 1e6 : dev_.sm_clock_khz * 1e3;
  if (key.compare(0, 5, "dram.") == 0 && dev_.nominal_dram_bytes_per_s() > 0) {
    p.ceiling_per_s = dev_.nominal_dram_bytes_per_s();
    p.source_text = "nominal: the DRAM bus width x memory clock x 2";
    return true;
  }
  if ((key.compare(0, 3, "l1.") == 0 || key.compare(0, 5, "smem.") == 0) && sm >= 70 && hz > 0) {
    const auto b = key[0] == 'l' ? model::l1_bandwidth(sm) : model::shared_memory_bandwidth(sm);
    p.ceiling_per_s = b.bytes_per_clock * dev_.sm_count * hz;
    p.source_text = "nominal: " + model::describe(b);
    return true;
  }
  if (key == "fma.f32.fraction_of_peak" && hz > 0)
    if (const auto e = model::find_peak(sm, model::op_kind::fp32_fma)) {
      p.ceiling_per_s = model::peak_per_s(dev_.sm_count, e->ops_per_clock(), hz);
      p.source_text = "nominal: " + model::describe(*e);
      return true;
    }
  if (key.compare(0, 7, "tensor.") == 0 && hz > 0) {
    const std::string type = key.substr(7, key.find('.', 7) - 7);
    if (const auto e = model::find_tensor_peak(sm, type)) {
      p.ceiling_per_s = e->flop_per_s(dev_.sm_count, hz);
      p.source_text = "nominal: " + model::describe(*e);
      return true;
    }
  }
  return false;
}

}  // namespace cuprobe
