// cuprobe/measure/impl/measurement.cuh: the definitions of cuprobe/measure/measurement.cuh's larger
// host functions. Not a header of its own: measurement.cuh includes it at its end in the
// header-only mode, and cuprobe/implementation.cuh after every header in the separate compilation
// (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL const char* to_string(sample_unit u) {
  return u == sample_unit::seconds       ? "seconds"
         : u == sample_unit::cycles      ? "cycles"
         : u == sample_unit::nanoseconds ? "nanoseconds"
         : u == sample_unit::value       ? "value"
                                         : "?";
}

CUPROBE_DECL const char* to_string(data_source s) {
  switch (s) {
    case data_source::dram:
      return "dram";
    case data_source::l2:
      return "l2";
    case data_source::l1:
      return "l1";
    case data_source::shared:
      return "shared";
    default:
      return "any";
  }
}

CUPROBE_DECL work work::bytes_moved(double read, double written, std::string accounting) {
  work w;
  w.bytes_read = read;
  w.bytes_written = written;
  w.accounting = std::move(accounting);
  return w;
}

CUPROBE_DECL work work::flop_count(double flops, double instructions, std::string accounting) {
  work w;
  w.flops = flops;
  w.ops = instructions;
  w.accounting = std::move(accounting);
  return w;
}

CUPROBE_DECL work work::op_count(double ops, std::string accounting) {
  work w;
  w.ops = ops;
  w.accounting = std::move(accounting);
  return w;
}

CUPROBE_DECL work& work::with_sector_model(std::optional<double> load,
                                           std::optional<double> store) {
  load_sectors_per_request = load;
  store_sectors_per_request = store;
  return *this;
}

CUPROBE_DECL work& work::with_dram_model(double read, double written) {
  dram_bytes_read = read;
  dram_bytes_written = written;
  return *this;
}

CUPROBE_DECL run_options run_options::fixed(std::size_t warmup, std::size_t samples) {
  run_options o;
  o.warmup = warmup;
  o.stop = stopping_rule::fixed(samples);
  return o;
}

CUPROBE_DECL double measurement::known(const std::optional<double>& v, const char* what) const {
  require(v.has_value(), "measurement '" + name + "' has no such rate: it declared no " + what);
  return *v;
}

}  // namespace cuprobe
