// instruction_table: latency (cycles) and throughput (instructions per clock per SM) of every
// operation in gen/ops.cuh, plus one defined right here (dp4a) to show how a user adds theirs.
//
//   build/h200/examples/instruction_table --json instructions.json
//
// Latency: one warp, one dependent chain, clock64 in the kernel, difference of two launches
// (suite::chain_latency). Throughput: 8 independent chains per thread, every SM filled with
// the most blocks of 256 threads that fit, ~2 ms per launch, median of the samples, at the SM
// clock NVML reported during the samples (suite::chain_throughput). Every result is validated
// against the host reference.
#include <cuprobe/cuprobe.cuh>
#include <cuprobe/suite/compute.cuh>

#include <cstdio>

// Your own operation, in five lines: a traits struct (docs/compute.md).
struct dp4a_s32 : cuprobe::gen::op_base<int> {
  static constexpr const char *name = "dp4a.s32.s32", *sass = "IDP.4A";
  static constexpr double ops = 8;  // 4 multiplies + 4 adds
  __device__ static int apply(int a, int b, int c) { return __dp4a(a, b, c); }
  static int host_apply(int a, int b, int c) {
    int s = c;
    for (int i = 0; i < 4; ++i)
      s += int(std::int8_t(a >> (8 * i))) * int(std::int8_t(b >> (8 * i)));
    return s;
  }
};

namespace {

constexpr int throughput_chains = 8;
constexpr unsigned throughput_block = 256;

template <class Op>
void row(const cuprobe::device_info& dev, cuprobe::table& t, cuprobe::results& res, bool quick) {
  const auto lat = cuprobe::suite::chain_latency<Op>(quick ? 3 : 7);
  cuprobe::require(lat.check.ok, std::string("latency validation: ") + lat.check.message);
  cuprobe::suite::throughput_options o;
  if (quick) o.run.stop = cuprobe::stopping_rule::fixed(5);
  auto thr = cuprobe::suite::chain_throughput<Op, throughput_chains>(dev, throughput_block, o);
  cuprobe::require(thr.check.ok, std::string("throughput validation: ") + thr.check.message);
  const double rate =
      Op::ops * thr.instructions_per_clock_per_sm * dev.sm_count * thr.m.rate.clock_mhz * 1e6;
  t.add_row({Op::name, Op::sass, cuprobe::fmt(lat.cycles_per_step, 2),
             cuprobe::fmt(thr.instructions_per_clock_per_sm, 1),
             cuprobe::fmt(thr.peak_instructions_per_clock, 0, true),
             thr.fraction_of_peak < 0 ? "-" : cuprobe::fmt(100 * thr.fraction_of_peak, 1),
             cuprobe::fmt(rate / 1e12, 2), cuprobe::fmt(thr.m.rate.clock_mhz, 0)});
  thr.m.with_param("latency_cycles", lat.cycles_per_step)
      .with_param("latency_min", lat.min)
      .with_param("latency_max", lat.max)
      .with_param("sass", Op::sass)
      .with_param("tera_ops_per_s", rate / 1e12);
  res.add(std::move(thr.m));
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "instruction_table: latency and throughput per instruction");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::results res(argc, argv);
    cuprobe::table t({"operation", "SASS", "latency (cycles)", "instr/clk/SM", "model",
                      "% of model", "Tops/s", "clock MHz"});
    namespace ops = cuprobe::gen::ops;
    row<ops::fma_f32>(dev, t, res, cli.quick);
    row<ops::add_f32>(dev, t, res, cli.quick);
    row<ops::mul_f32>(dev, t, res, cli.quick);
    row<ops::hfma2_f16>(dev, t, res, cli.quick);
    row<ops::hfma2_bf16>(dev, t, res, cli.quick);
    row<ops::fma_f64>(dev, t, res, cli.quick);
    row<ops::imad_u32>(dev, t, res, cli.quick);
    row<ops::iadd3_u32>(dev, t, res, cli.quick);
    row<ops::lop3_b32>(dev, t, res, cli.quick);
    row<ops::rsqrt_f32>(dev, t, res, cli.quick);
    row<ops::shfl_idx>(dev, t, res, cli.quick);
    row<dp4a_s32>(dev, t, res, cli.quick);
    std::printf(
        "Instruction latency and throughput on %s (%d SMs); throughput with %d chains x "
        "blocks of %u threads; Tops/s counts FLOP for floating point (FMA = 2), else "
        "instructions (dp4a: 8)\n\n",
        dev.name.c_str(), dev.sm_count, throughput_chains, throughput_block);
    t.print();
    res.extra("instruction_table")["markdown"] = t.markdown();
    res.write(cli);
    return 0;
  });
}
