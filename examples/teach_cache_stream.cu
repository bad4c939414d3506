// teach_cache_stream: how to write a DRAM read stream with cuprobe's cache-operator loads, timed
// by the library's runner. It includes installed headers only: copy it into your own project.
//
//   build/hopper/examples/teach_cache_stream --json teach_cache_stream.json   (--quick: 1 GiB)
//
// The kernel below is the whole benchmark: a persistent grid (2 blocks of 1024 threads per SM)
// walks the array grid-stride with 16-byte ld.global.cs (ptx::ld<cache::cs>: "streaming, likely
// read once"), four independent loads in flight per thread before their values are used, and
// adds every 32-bit word into a per-thread sum that is folded into one word (so no load is
// dead). The array holds random words (device_buffer::fill_random), so the host knows
// the exact sum of every pass (gen::expected_read_sum). Four passes
// per launch (loop_mode::in_kernel: the runner divides each sample by them) over 4 GiB, far
// above the L2, declared as a DRAM working set (the runner flags it otherwise).
#include <cuprobe/cuprobe.cuh>

#include <cstdio>

namespace gen = cuprobe::gen;
namespace cache = cuprobe::ptx::cache;

namespace {

constexpr int unroll = 4;  // 16-byte loads in flight per thread
constexpr int threads = 1024, blocks_per_sm = 2;
constexpr std::uint32_t passes = 4;  // passes over the array per launch (loop_mode::in_kernel)
constexpr std::uint64_t seed = 7;    // the array's random words

__global__ void __launch_bounds__(threads)
    read_stream(const uint4* in, std::uint64_t n, std::uint32_t pass_count, std::uint64_t zero,
                std::uint32_t* sum) {
  const std::uint64_t step = std::uint64_t(gridDim.x) * blockDim.x;
  std::uint32_t acc = 0;
  for (std::uint32_t p = 0; p < pass_count; ++p) {
    // zero is 0 at run time, unknown to the compiler: ptxas cannot hoist a pass's loads out of
    // the pass loop (it does so even for asm volatile loads of an unchanged address)
    const uint4* a = in + p * zero;
    std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
    for (; i + (unroll - 1) * step < n; i += unroll * step) {
      uint4 v[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u) v[u] = cuprobe::ptx::ld<cache::cs>(a + i + u * step);
#pragma unroll
      for (int u = 0; u < unroll; ++u) acc += v[u].x + v[u].y + v[u].z + v[u].w;
    }
    for (; i < n; i += step) {  // the tail: fewer than `unroll` elements left for this thread
      const uint4 v = cuprobe::ptx::ld<cache::cs>(a + i);
      acc += v.x + v.y + v.z + v.w;
    }
  }
  for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, acc);
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(argc, argv, "teach_cache_stream: a .cs read stream");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const std::uint64_t bytes = std::uint64_t(cli.small ? 16 : cli.quick ? 1024 : 4096) << 20;
    cuprobe::run_options o = cli.run_options();
    o.warmup = cli.small ? 1 : 2;
    o.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));
    o.mode = cuprobe::loop_mode::in_kernel;  // each sample is divided by the passes it made
    o.iterations = passes;

    cuprobe::device_buffer<std::uint32_t> array(bytes / 4);
    array.fill_random(seed, 0u, 0xFFFFFFFFu);  // word w: gen::stream_input_word(seed, 0, w)
    cuprobe::device_buffer<std::uint32_t> sum(1);
    sum.zero();
    const auto* in = reinterpret_cast<const uint4*>(array.data());
    const cuprobe::launch_shape shape = gen::stream_shape(blocks_per_sm, threads, dev.sm_count);
    std::uint32_t launches = 0;
    auto m = cuprobe::measure(
        "teach.cache_stream",
        [&](cudaStream_t s) {
          read_stream<<<shape.grid, shape.block, 0, s>>>(in, bytes / 16, passes, 0, sum.data());
          ++launches;
        },
        cuprobe::work::bytes_moved(double(bytes), 0, "bytes read per pass (4 per launch)")
            .with_source(cuprobe::data_source::dram)
            .with_working_set(double(bytes)),
        o);
    // Validation: every pass added every word once (the wrapping sum of the random words).
    const std::uint32_t want =
        gen::expected_read_sum(seed, bytes / 4, std::uint64_t(launches) * passes);
    const std::uint32_t got = sum.to_host()[0];
    const bool ok = got == want;
    m.with_launch(shape)
        .with_kernel(cuprobe::kernel_attributes::of(read_stream, threads))
        .with_param("load", "ld.global.cs.v4.b32")
        .with_param("passes_per_launch", passes)
        .with_param("valid", ok);
    std::printf("DRAM read stream on %s over %s (median of %zu launches), nominal %.0f GB/s:\n",
                dev.name.c_str(), cuprobe::fmt_bytes(double(bytes)).c_str(), o.stop.max_samples,
                dev.nominal_dram_bytes_per_s() / 1e9);
    std::printf("  ld.global.cs x%d in flight, %dx%d, %u passes/launch: %.0f GB/s\n", unroll,
                blocks_per_sm, threads, passes, m.gb_per_s());
    std::printf("  validation: sum %u, expected %u: %s\n", got, want, ok ? "ok" : "FAILED");

    cuprobe::results res(argc, argv);
    cuprobe::json& x = res.extra("teach_cache_stream");
    x["gb_per_s"] = m.gb_per_s();
    x["valid"] = ok;
    res.add(std::move(m));
    res.print_ceilings();
    res.write(cli);
    return ok ? 0 : 1;
  });
}
