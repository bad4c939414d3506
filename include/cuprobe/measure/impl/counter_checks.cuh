// cuprobe/measure/impl/counter_checks.cuh: the definitions of cuprobe/measure/counter_checks.cuh's
// larger host functions. Not a header of its own: counter_checks.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL bool declared_dram(const work& w, double l2_bytes) {
  return w.source == data_source::dram ||
         (w.source == data_source::any && w.working_set_bytes && l2_bytes > 0 &&
          *w.working_set_bytes >= dram_l2_factor * l2_bytes);
}

CUPROBE_DECL std::vector<flag> counter_flags(const work& w, const counters::result& r,
                                             double l2_bytes, const counter_tolerance& tol) {
  std::vector<flag> out;
  const auto read = r.get("dram__bytes_read.sum"), written = r.get("dram__bytes_write.sum");
  if (read && written && w.bytes() > 0 && declared_dram(w, l2_bytes)) {
    // Reads tell where the data came from; written lines reach DRAM whenever the L2 evicts or
    // writes them back, even when the L2 held them for the kernel. Write-only work: the writes.
    const bool modelled = w.dram_bytes_read || w.dram_bytes_written;
    const double want_read = w.dram_bytes_read.value_or(w.bytes_read);
    const double want_written = w.dram_bytes_written.value_or(w.bytes_written);
    const char* what = modelled ? " modelled" : " declared";
    const bool reads = w.bytes_read > 0;
    const double counted = reads ? *read : *written;
    const double declared = reads ? want_read : want_written;
    const auto bytes = [](double b) { return fmt_bytes(b); };
    if (counted < tol.resident_fraction * declared) {
      out.push_back({flag_code::cache_resident,
                     "the counters saw " + bytes(counted) + (reads ? " read" : " written") +
                         " in DRAM per iteration, " + percent(counted / declared) + " of the " +
                         bytes(declared) + what + " as DRAM" + (reads ? " reads" : " writes") +
                         ": the L2 served the rest"});
    } else {
      const double slack_l2 = l2_bytes / std::max(r.per_range, 1.0);
      const auto off = [&](double c, double d) {
        return std::fabs(c - d) > tol.dram_fraction * d + slack_l2;
      };
      if (off(*read, want_read) || off(*written, want_written))
        out.push_back({flag_code::declared_work_mismatch,
                       "the counters saw " + bytes(*read) + " read and " + bytes(*written) +
                           " written in DRAM per iteration against the" + what + " " +
                           bytes(want_read) + " and " + bytes(want_written) + " (tolerance " +
                           percent(tol.dram_fraction) + " + the L2's " + bytes(l2_bytes) +
                           " per profiled sample): the declared work" +
                           (modelled ? " or its DRAM model" : "") + " is wrong"});
    }
  }
  const auto got = r.get("l1tex__m_xbar2l1tex_read_sectors.sum"),
             looked = r.get("lts__t_sectors_srcunit_tex_op_read.sum");
  if (got && looked && w.bytes_read > 0 && *got > 1024 &&
      *got > (1 + tol.coalesced_fraction) * *looked)
    out.push_back({flag_code::l2_coalesced,
                   "the SMs received " + detail::flag_number(*got, "sectors") +
                       " from the L2 for their reads, " + fmt(*got / std::max(*looked, 1.0), 3) +
                       " x the " + detail::flag_number(*looked, "sectors") +
                       " its slices looked up: it coalesced requests of several SMs for the "
                       "same lines, so the rate is more than it serves of distinct lines"});
  for (const bool loads : {true, false}) {
    const auto& model = loads ? w.load_sectors_per_request : w.store_sectors_per_request;
    const auto counted = counters::sectors_per_request(r, loads);
    if (model && counted && std::fabs(*counted - *model) > tol.sector_fraction * *model)
      out.push_back({flag_code::sector_model_mismatch,
                     "the counters saw " + fmt(*counted, 3) + " sectors per global " +
                         (loads ? "load" : "store") + " request against the model's " +
                         fmt(*model, 3) + ": the access pattern is not the one modelled"});
  }
  return out;
}

CUPROBE_DECL void apply_counter_flags(measurement& m, double l2_bytes) {
  if (m.counters.values.empty()) return;
  for (auto& f : counter_flags(m.declared, m.counters, l2_bytes)) {
    bool joined = false;
    for (auto& g : m.flags)
      if (f.code == flag_code::cache_resident && g.code == flag_code::cache_resident) {
        g.message += "; " + f.message;
        joined = true;
      }
    if (!joined) m.flags.push_back(std::move(f));
  }
}

}  // namespace cuprobe
