// cuprobe/measure/counter_checks.cuh: the hardware's count against the declared work, as pure
// host logic (host-testable from a recorded result).
//
//   for (const auto& f : cuprobe::counter_flags(m.declared, m.counters, l2_bytes))
//     std::printf("%s: %s\n", to_string(f.code), f.message.c_str());
//
// Four checks, each a flag with a sentence that names both numbers (docs/counters.md):
// - cache_resident: DRAM work (declared_dram) whose counted DRAM reads (per iteration) are below
//   half the declared reads (write-only work: the writes): the L2 served it. Reads decide, since
//   the lines a kernel writes reach DRAM when the L2 writes them back, even when it held them.
// - declared_work_mismatch: otherwise, DRAM bytes read or written off the declared ones by more
//   than 2 % plus the L2's size per profiled sample (what the L2 may serve from the sample before,
//   or still hold when it ends).
// Where the work declares a DRAM model (work::with_dram_model), both compare with its bytes.
// - sector_model_mismatch: counted sectors per global load (store) request that differ from the
//   declared sector model (work::with_sector_model) by more than 2 %.
// - l2_coalesced: work that reads, whose SMs received more than 1.05 x the read sectors the L2
//   looked up for them.
// The runner applies them to every measurement whose counters were collected.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/format.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/counter_sets.cuh"
#include "cuprobe/measure/flags.cuh"
#include "cuprobe/measure/measurement.cuh"

namespace cuprobe {

/// The tolerances of counter_flags (see the file comment).
struct counter_tolerance {
  double dram_fraction = 0.02;       ///< of the declared bytes, per direction
  double resident_fraction = 0.5;    ///< counted DRAM bytes below this x declared: cache_resident
  double sector_fraction = 0.02;     ///< of the modelled sectors per request
  double coalesced_fraction = 0.05;  ///< l2_coalesced: received above (1 + this) x looked up
};

/// True when `w` is declared as DRAM work: data_source::dram, or no source and a working set of
/// dram_l2_factor x `l2_bytes` or more.
CUPROBE_DECL bool declared_dram(const work& w, double l2_bytes);

/// The flags `r` raises against `w` on a card with an L2 of `l2_bytes` (see the file comment).
CUPROBE_DECL std::vector<flag> counter_flags(const work& w, const counters::result& r,
                                             double l2_bytes, const counter_tolerance& tol = {});

/// Adds counter_flags to m.flags; a counted cache_resident joins the working-set rule's flag
/// when that one was raised already (one flag, both sentences).
CUPROBE_DECL void apply_counter_flags(measurement& m, double l2_bytes);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/measure/impl/counter_checks.cuh"
#endif
