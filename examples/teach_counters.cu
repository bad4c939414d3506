// teach_counters: how to see what the hardware counted for one's own kernel: the bytes DRAM moved
// against the bytes the kernel declares, the sectors per request against the sector model, and
// the unit that stops it. It includes installed headers only: copy it into your own project.
//
//   build/hopper/examples/teach_counters --json teach_counters.json
//
// The kernel is a 5-reads-1-write stream (float4, grid-stride) over arrays of 8 x the L2. The
// measurement asks for the counter sets dram, access and sol (run_options::counters): the runner
// takes its timed samples first, then re-runs one sample per replay pass under CUPTI's profiler
// (measure/cupti.cuh), so the timing carries no profiling. The work declares its bytes and its
// sector model (16 sectors per request: 32 lanes x 16 bytes); the runner flags a mismatch with
// either (declared_work_mismatch, sector_model_mismatch: docs/counters.md). A second run
// declares only one array of the five it reads, to show the flag. Where counters cannot be
// collected (no permission, compute-sanitizer, ncu), the program says why and still times.
#include <cuprobe/cuprobe.cuh>

#include <cstdio>
#include <string>

namespace {

/// out[i] = a[i] + b[i] + c[i] + d[i] + e[i] over n float4, grid-stride.
__global__ void five_read_one_write(const float4* __restrict__ a, const float4* __restrict__ b,
                                    const float4* __restrict__ c, const float4* __restrict__ d,
                                    const float4* __restrict__ e, float4* __restrict__ out,
                                    std::size_t n) {
  for (std::size_t i = blockIdx.x * std::size_t(blockDim.x) + threadIdx.x; i < n;
       i += std::size_t(gridDim.x) * blockDim.x) {
    const float4 x = a[i], y = b[i], z = c[i], u = d[i], v = e[i];
    out[i] = float4{x.x + y.x + z.x + u.x + v.x, x.y + y.y + z.y + u.y + v.y,
                    x.z + y.z + z.z + u.z + v.z, x.w + y.w + z.w + u.w + v.w};
  }
}

/// "1.07 GB declared, 1.07 GB counted (1.000 x)"; "-" for a value not counted.
std::string versus(double declared, std::optional<double> counted) {
  if (!counted) return "-";
  return cuprobe::fmt_bytes(declared) + " declared, " + cuprobe::fmt_bytes(*counted) +
         " counted (" + cuprobe::fmt(*counted / declared, 3) + " x)";
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(argc, argv, "teach_counters: declared against counted");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const std::size_t bytes = cli.small ? std::size_t(4) << 20 : 8 * dev.l2_bytes;  // per array
    const std::size_t n = bytes / sizeof(float4);
    std::vector<cuprobe::device_buffer<float4>> in;
    for (int k = 0; k < 5; ++k) {
      in.emplace_back(n);
      in.back().fill(float4{1.f, 2.f, 3.f, float(k)});
    }
    cuprobe::device_buffer<float4> out(n);
    const auto launch = [&](cudaStream_t s) {
      five_read_one_write<<<dev.sm_count * 8, 256, 0, s>>>(
          in[0].data(), in[1].data(), in[2].data(), in[3].data(), in[4].data(), out.data(), n);
    };
    const double b = double(bytes);
    cuprobe::run_options ro = cli.run_options();
    ro.stop = cuprobe::stopping_rule::fixed(cli.samples(20, 5));
    if (ro.counters.empty()) ro.counters = "dram,access,sol";  // --counters replaces them

    cuprobe::results res(argc, argv);
    const auto right = cuprobe::work::bytes_moved(5 * b, b, "5 arrays read + 1 written")
                           .with_source(cuprobe::data_source::dram)
                           .with_working_set(6 * b)
                           .with_sector_model(16.0, 16.0);  // 32 lanes x 16 bytes per request
    auto m = cuprobe::measure("teach.counters.5r1w", launch, right, ro);
    auto wrong = right;  // the same kernel, declaring one array read of the five
    wrong.bytes_read = b;
    wrong.accounting = "1 array read + 1 written (wrong on purpose)";
    auto w = cuprobe::measure("teach.counters.5r1w.declared_wrong", launch, wrong, ro);

    const auto& c = m.counters;
    std::printf("5 reads + 1 write of %s each on %s: %.0f GB/s\n", cuprobe::fmt_bytes(b).c_str(),
                dev.name.c_str(), m.gb_per_s());
    if (!c.missing.empty()) {
      std::printf("counters not collected: %s\n", c.missing.c_str());
    } else {
      std::printf("  DRAM read     %s\n", versus(5 * b, c.get("dram__bytes_read.sum")).c_str());
      std::printf("  DRAM written  %s\n", versus(b, c.get("dram__bytes_write.sum")).c_str());
      if (const auto spr = cuprobe::counters::sectors_per_request(c))
        std::printf("  sectors/load  %.3f counted, 16 in the model\n", *spr);
      for (const auto& u : cuprobe::counters::unit_shares(c))
        std::printf("  %-12s  %5.1f %% of its peak\n", u.unit.c_str(), u.percent);
      if (const auto u = cuprobe::counters::limiting_unit(c))
        std::printf("what stops it: %s (%.0f %%), over %zu replay passes\n", u->unit.c_str(),
                    u->percent, c.passes);
      for (const auto& f : w.flags)
        if (f.code == cuprobe::flag_code::declared_work_mismatch)
          std::printf("declaring one array of five: %s: %s\n", f.code.name, f.message.c_str());
    }
    res.add(std::move(m));
    res.add(std::move(w));
    res.print_table();
    res.write(cli);
    return 0;
  });
}
