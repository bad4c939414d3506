// teach_ceilings: how close is my kernel to what THIS card can reach? A plain float4 copy, written
// as users write it (a grid-stride loop over 8 blocks of 256 per SM, and one thread per element
// over a covering grid), measured by the runner and placed against the card's ceilings three
// ways: this card's own record (written by `device_report --ceilings 1`), the reference set of
// its model (docs/results/<model>/summary.json) and the nominal DRAM rate.
//
//   build/hopper/examples/device_report --ceilings 1      (once per card: about 20 s)
//   build/hopper/examples/teach_ceilings --json teach_ceilings.json   (--quick: 1 GiB arrays)
//
// The work is declared as a DRAM copy (bytes_moved(N read, N written, ...).with_source(dram)),
// so measure() places it against the "dram.copy.tbps" ceiling: m.ceiling holds the fraction and
// which source it came from; results::print_table shows it in its "of ceiling" column. Each
// output is validated (every element copied). --min-card-fraction F: exit with status 1 when
// either kernel's fraction of this card's own record is below F (or it has no record);
// --max-card-fraction F: above F. --summary: ceilings.copy.* (the loop) and
// ceilings.copy_covering.* (the covering grid).
#include <cuprobe/cuprobe.cuh>

#include <cstdio>
#include <vector>

namespace {

// Two ways a user writes the copy. A grid-stride loop over 8 blocks of 256 per SM ...
__global__ void copy_loop(const float4* __restrict__ in, float4* __restrict__ out, std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x)
    out[i] = in[i];
}
// ... and one thread per element over a grid that covers the array.
__global__ void copy_covering(const float4* __restrict__ in, float4* __restrict__ out,
                              std::size_t n) {
  const std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x;
  if (i < n) out[i] = in[i];
}

/// One line: the rate against the ceiling of `key` from `source`, if it has one.
void show(const cuprobe::ceilings& c, const cuprobe::measurement& m, cuprobe::ceiling_source s) {
  const auto p = c.ceiling_from("dram.copy.tbps", m.rate.clock_mhz.value_or(0), s);
  if (!p) {
    std::printf("  %-9s  none (%s)\n", cuprobe::to_string(s),
                s == cuprobe::ceiling_source::card ? "run device_report --ceilings 1"
                                                   : "no reference set for this model");
    return;
  }
  std::printf("  %-9s  %.3f of %.2f TB/s  (%s)%s\n", cuprobe::to_string(s),
              m.gb_per_s() * 1e9 / p->ceiling_per_s, p->ceiling_per_s / 1e12,
              p->source_text.c_str(), p->stale.empty() ? "" : " STALE");
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "teach_ceilings: a user's copy kernel against this card's ceilings",
        {cuprobe::cli_option::number("--min-card-fraction",
                                     "exit 1 below this fraction of the card's own record", 0, 2,
                                     0.0),
         cuprobe::cli_option::number("--max-card-fraction",
                                     "exit 1 above this fraction of the card's own record", 0, 2,
                                     2.0),
         cuprobe::cli_option::path("--summary", "write the fractions (JSON) here")});
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const std::size_t bytes = std::size_t(cli.small ? 16 : cli.quick ? 1024 : 4096) << 20;
    const std::size_t n = bytes / sizeof(float4);
    cuprobe::device_buffer<float4> in(n), out(n);
    in.fill_random(1, 0.f, 1.f);
    const std::vector<float4> a = in.to_host();
    cuprobe::run_options o = cli.run_options();
    o.stop = cuprobe::stopping_rule::fixed(cli.samples(20, 10));
    const auto c = cuprobe::ceilings::for_device(dev, cuprobe::nvml::instance().driver_version());
    cuprobe::results res(argc, argv);
    cuprobe::summary_file sum(argc, argv, dev);
    const double lo = cli.get_number("--min-card-fraction"),
                 hi = cli.get_number("--max-card-fraction");
    int status = 0;
    // blocks: the loop's 8 x 256 per SM, or enough to cover the array
    for (const bool covering : {false, true}) {
      const unsigned blocks = covering ? unsigned((n + 255) / 256) : unsigned(dev.sm_count) * 8;
      const std::string name = covering ? "teach.copy.covering" : "teach.copy.grid_stride";
      out.poison();
      auto m = cuprobe::measure(
          name,
          [&](cudaStream_t s) {
            if (covering)
              copy_covering<<<blocks, 256, 0, s>>>(in.data(), out.data(), n);
            else
              copy_loop<<<blocks, 256, 0, s>>>(in.data(), out.data(), n);
          },
          cuprobe::work::bytes_moved(double(bytes), double(bytes), "copy: N read + N written")
              .with_source(cuprobe::data_source::dram)
              .with_working_set(2.0 * double(bytes)),
          o);
      const std::vector<float4> b = out.to_host();
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < n; ++i)
        wrong += a[i].x != b[i].x || a[i].y != b[i].y || a[i].z != b[i].z || a[i].w != b[i].w;
      m.with_param("valid", wrong == 0)
          .with_param("blocks", int(blocks))
          .with_param("threads", 256);
      std::printf("\n%s on %s: %.0f GB/s (read + written), validation: %zu wrong: %s\n",
                  name.c_str(), dev.name.c_str(), m.gb_per_s(), wrong,
                  wrong == 0 ? "ok" : "FAILED");
      const std::string key = covering ? "ceilings.copy_covering" : "ceilings.copy";
      sum.set(key + ".tbps", m.gb_per_s() / 1e3);
      for (auto src : {cuprobe::ceiling_source::card, cuprobe::ceiling_source::reference,
                       cuprobe::ceiling_source::nominal}) {
        show(c, m, src);
        if (const auto p = c.ceiling_from("dram.copy.tbps", m.rate.clock_mhz.value_or(0), src))
          sum.set(key + ".fraction_of_" + cuprobe::to_string(src),
                  m.gb_per_s() * 1e9 / p->ceiling_per_s);
      }
      const auto own = c.ceiling_from("dram.copy.tbps", m.rate.clock_mhz.value_or(0),
                                      cuprobe::ceiling_source::card);
      const double f = own ? m.gb_per_s() * 1e9 / own->ceiling_per_s : 0;
      if ((lo > 0 || hi < 2) && (!own || f < lo || f > hi)) {
        std::printf("the fraction of this card's own record, %.3f, is outside %.2f .. %.2f\n", f,
                    lo, hi);
        status = 1;
      }
      if (wrong != 0) status = 1;
      res.add(std::move(m));
    }
    res.print_table();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    return status;
  });
}
