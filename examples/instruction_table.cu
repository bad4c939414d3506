// instruction_table: latency (cycles) and throughput (instructions per clock per SM) of every
// operation in gen/ops.cuh, plus one defined right here (dp4a) to show how a user adds theirs.
//
//   build/hopper/examples/instruction_table --json instructions.json
//
// Latency: one warp, one dependent chain, clock64 in the kernel, difference of two launches
// (suite::chain_latency). Throughput: 8 independent chains per thread, every SM filled
// with the most blocks of 256 threads that fit, ~2 ms per launch, median of the samples, at the
// SM clock NVML reported during the samples (suite::chain_throughput). Every result is
// validated against the host reference (suite::instruction_table_row).
#include <cuprobe_suite/suite.cuh>

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
void row(const cuprobe::device_info& dev, const cuprobe::cli& cli, cuprobe::table& t,
         cuprobe::results& res) {
  namespace ex = cuprobe::suite;
  ex::latency_options lo;
  lo.run = cli.run_options();
  lo.run.warmup = 0;
  lo.run.stop = cuprobe::stopping_rule::fixed(cli.quick || cli.small ? 3 : 7);
  ex::throughput_options to;
  to.run = cli.run_options();
  to.run.warmup = 2;
  to.run.stop = cuprobe::stopping_rule::fixed(cli.quick || cli.small ? 5 : 15);
  if (cli.small) to.target_ms = 0.05;
  auto r = ex::instruction_table_row<Op, throughput_chains>(dev, throughput_block, lo, to);
  const auto& thr = r.throughput;
  t.add_row({Op::name, Op::sass, cuprobe::fmt(r.latency.m.cycles_per_op(), 2),
             cuprobe::fmt(thr.instructions_per_clock_per_sm, 1),
             cuprobe::fmt(thr.peak_instructions_per_clock, 0),
             cuprobe::fmt(thr.fraction_of_peak ? std::optional<double>(100 * *thr.fraction_of_peak)
                                               : std::nullopt,
                          1),
             cuprobe::fmt(r.tera_ops_per_s, 2), cuprobe::fmt(thr.m.rate.clock_mhz, 0)});
  res.add(std::move(r.throughput.m));
  res.add(std::move(r.latency.m));
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
    row<ops::fma_f32>(dev, cli, t, res);
    row<ops::add_f32>(dev, cli, t, res);
    row<ops::mul_f32>(dev, cli, t, res);
    row<ops::hfma2_f16>(dev, cli, t, res);
    row<ops::hfma2_bf16>(dev, cli, t, res);
    row<ops::fma_f64>(dev, cli, t, res);
    row<ops::imad_u32>(dev, cli, t, res);
    row<ops::iadd3_u32>(dev, cli, t, res);
    row<ops::lop3_b32>(dev, cli, t, res);
    row<ops::rsqrt_f32>(dev, cli, t, res);
    row<ops::shfl_idx>(dev, cli, t, res);
    row<dp4a_s32>(dev, cli, t, res);
    std::printf(
        "Instruction latency and throughput on %s (%d SMs); throughput with %d chains x "
        "blocks of %u threads; Tops/s counts FLOP for floating point (FMA = 2), else "
        "instructions (dp4a: 8)\n\n",
        dev.name.c_str(), dev.sm_count, throughput_chains, throughput_block);
    t.print();
    res.extra("instruction_table")["markdown"] = t.markdown();
    res.print_ceilings();
    res.write(cli);
    return 0;
  });
}
