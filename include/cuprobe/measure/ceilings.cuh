// cuprobe/measure/ceilings.cuh: every rate placed against what THIS card can reach (host only).
//
//   auto m = cuprobe::measure("copy", launch, cuprobe::work::bytes_moved(16.0 * n, 16.0 * n,
//       "copy").with_source(cuprobe::data_source::dram));  // m.ceiling->fraction, ->source_text
//
// Three sources, best first, chosen per metric:
//   card       this card's own record, written by ensure_ceilings (calibrate/ceilings.cuh) or
//              device_report --ceilings 1: ceilings_dir()/<GPU UUID>.json;
//   reference  the reference set of the same GPU model: reference_dir()/<model>/summary.json
//              (docs/results/h200/ for "NVIDIA H200"; installed under share/cuprobe/results);
//   nominal    the datasheet or the peak model: DRAM bus width x memory clock, 128 B/clk/SM for
//              L1 and shared memory, model/peak.cuh's instruction and tensor tables (no L2 figure).
// Matching (docs/ceilings.md): DRAM and L2 bytes -> {dram,l2}.{read,write,copy}.tbps, or a
// mix's bound ("dram.mix.5:1"), never an interpolation; L1, shared memory, FMA and tensor FLOP at
// the measurement's clock. A stale record (driver, clocks, record_max_age_days) is used but
// flagged `ceiling_stale`; one that cannot be read is ignored with one sentence
// (ceilings::notes(), printed once on stderr), never an error.
#pragma once

#include <sys/stat.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/core/file.cuh"
#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/json.cuh"
#include "cuprobe/core/json_parse.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/core/version.cuh"
#include "cuprobe/model/memory.cuh"
#include "cuprobe/model/peak.cuh"

namespace cuprobe {

/// Where a ceiling comes from, best first.
enum class ceiling_source { card, reference, nominal };

/// "card", "reference", "nominal".
CUPROBE_DECL const char* to_string(ceiling_source s);

/// A rate placed against a ceiling.
struct placement {
  std::string key;           ///< the ceiling's metric key, e.g. "dram.copy.tbps"
  std::string what;          ///< "DRAM copy", "L2 read", "fp32 FMA", "bf16 tensor", ...
  double rate_per_s = 0;     ///< the measurement's rate: bytes/s or FLOP/s
  double ceiling_per_s = 0;  ///< the ceiling in the same unit
  double fraction = 0;       ///< rate / ceiling
  ceiling_source source = ceiling_source::nominal;  ///< where the ceiling comes from
  std::string source_text;  ///< which record, reference set or nominal figure, in words
  std::string stale;        ///< why a card record is stale ("" when it is not)
};

/// A record older than this many days is used but flagged stale.
inline constexpr double record_max_age_days = 90;

/// The ceilings a record holds (the keys device_report writes).
CUPROBE_DECL const std::vector<std::string>& ceiling_keys();

namespace detail {
CUPROBE_DECL std::string env_or(const char* name, const std::string& fallback);
/// Seconds since the epoch of "YYYY-MM-DDTHH:MM:SSZ", or nullopt.
CUPROBE_DECL std::optional<double> utc_seconds(const std::string& iso);
CUPROBE_DECL std::optional<std::string> read_file(const std::string& path);
}  // namespace detail

/// Where card records live: CUPROBE_CEILINGS_DIR, else $XDG_CACHE_HOME/cuprobe/ceilings, else
/// $HOME/.cache/cuprobe/ceilings.
CUPROBE_DECL std::string ceilings_dir();

/// The record of the card with UUID `uuid`: ceilings_dir()/<uuid>.json.
inline std::string ceilings_path(const std::string& uuid) {
  return ceilings_dir() + "/" + uuid + ".json";
}

/// Where reference sets live: CUPROBE_REFERENCE_DIR (environment), else the folder the build
/// system compiled in (CMake: the source tree's docs/results, or the installed
/// share/cuprobe/results), else none.
CUPROBE_DECL std::string reference_dir();

/// The reference set's folder name of a GPU model: "NVIDIA H200" -> "h200".
CUPROBE_DECL std::string gpu_model_folder(std::string name);

/// One card record (or a reference summary read the same way).
struct ceilings_record {
  std::string path;  ///< the file it was read from
  /// The device's name, UUID and driver version, the record's date (UTC ISO 8601) and commit
  /// ("" where the file has none).
  ///@{
  std::string name, uuid, driver, date, commit;
  ///@}
  /// The device's maximum SM clock and its memory clock when recorded, in MHz (0: unknown).
  ///@{
  double sm_clock_max_mhz = 0, memory_clock_mhz = 0;
  ///@}
  json metrics = json::object();  ///< the "metrics" object: key -> number

  /// The metric `key`, when the record has a finite positive one.
  CUPROBE_DECL std::optional<double> metric(const std::string& key) const;

  /// Reads a cuprobe.ceilings/1 or cuprobe.summary/1 file; throws cuprobe::error with the reason.
  CUPROBE_DECL static ceilings_record load(const std::string& path);
};

/// Why `r` no longer describes the card `d` runs as now (driver `driver`, at `now_s` seconds
/// since the epoch), as a sentence; "" when it still does.
CUPROBE_DECL std::string record_staleness(const ceilings_record& r, const device_info& d,
                                          const std::string& driver, double now_s);

/// Writes this card's record: `metrics` (keys of ceiling_keys(), others are dropped) with the
/// device, the date, the commit and `clocks` (what the run saw) to `path` (default:
/// ceilings_path(d.uuid)), creating the folder. Returns the path.
CUPROBE_DECL std::string write_ceilings_record(const device_info& d, const std::string& driver,
                                               const json& metrics, const json& clocks,
                                               const std::string& commit = git_commit(),
                                               const std::string& date = utc_now_iso8601(),
                                               std::string path = "");

/// The ceilings of one device from its three sources (see the file comment).
class ceilings {
 public:
  /// Loads this card's record and the reference set of its model; bad files become notes.
  CUPROBE_DECL static ceilings for_device(const device_info& d, const std::string& driver);
  /// The record path for_device() reads for `d`.
  static std::string ceilings_record_path(const device_info& d) { return ceilings_path(d.uuid); }

  /// This card's own record, when one was found and read.
  const std::optional<ceilings_record>& card() const noexcept { return card_; }
  /// The reference set of this card's model, when one was found and read.
  const std::optional<ceilings_record>& reference() const noexcept { return reference_; }
  /// Why the card's record is stale, as a sentence ("" when it is not).
  const std::string& card_stale() const noexcept { return card_stale_; }
  /// One sentence per file that was found but ignored.
  const std::vector<std::string>& notes() const noexcept { return notes_; }

  /// The ceiling of metric `key` at `clock_mhz` (for per-clock and peak-model keys), in bytes/s
  /// or FLOP/s, from the best source that has it.
  CUPROBE_DECL std::optional<placement> ceiling_of(const std::string& key, double clock_mhz) const;

  /// The ceiling of metric `key` from source `s` only (to show one rate against each source).
  CUPROBE_DECL std::optional<placement> ceiling_from(const std::string& key, double clock_mhz,
                                                     ceiling_source s) const;

  /// Which sources exist, in one line.
  CUPROBE_DECL std::string sources_line() const;

 private:
  /// A mix "<level>.mix.R:W" against the bound of the file comment, from the read and write
  /// ceilings `get` finds for the level; nullopt when either is missing.
  template <class Get>
  std::optional<placement> mix_of(const std::string& key, Get get) const {
    const auto at = key.find(".mix.");
    const std::string lv = key.substr(0, at + 1), ratio = key.substr(at + 5);
    const auto rd = get(lv + "read.tbps"), wr = get(lv + "write.tbps");
    double r = 0, w = 0;
    if (!rd || !wr || std::sscanf(ratio.c_str(), "%lf:%lf", &r, &w) != 2 || !(r > 0 && w > 0))
      return std::nullopt;
    const double tr = r / (r + w) / rd->ceiling_per_s, tw = w / (r + w) / wr->ceiling_per_s;
    const bool bus = lv == "dram.";
    placement p = rd->source >= wr->source ? *rd : *wr;  // the weaker source names it
    p.key = key;
    p.what = what_of(key) + " " + ratio;
    p.ceiling_per_s = 1 / (bus ? tr + tw : std::fmax(tr, tw));
    if (rd->source_text != wr->source_text)
      p.source_text = "read: " + rd->source_text + "; write: " + wr->source_text;
    p.source_text += "; " + ratio +
                     (bus ? " mix bound: reads then writes, each at its ceiling"
                          : " mix bound: reads beside writes, each at its ceiling");
    return p;
  }
  CUPROBE_DECL void load(const std::string& path, ceiling_source s, const std::string& driver);
  /// `v` of `key` as a rate per second in p.ceiling_per_s; false when the key is not a ceiling.
  CUPROBE_DECL bool convert(const std::string& key, double v, double clock_mhz, placement& p) const;
  CUPROBE_DECL static std::string what_of(const std::string& key);
  CUPROBE_DECL bool nominal(const std::string& key, double clock_mhz, placement& p) const;

  device_info dev_;
  std::optional<ceilings_record> card_, reference_;
  std::string card_stale_;
  std::vector<std::string> notes_;
};

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/ceilings.cuh"
#endif
