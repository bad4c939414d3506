// teach_tma_stream: how to write a TMA DRAM read stream with cuprobe's blocks, timed by the
// library's runner. It includes installed headers only: copy it into your own project.
//
//   build/hopper/examples/teach_tma_stream --json teach_tma_stream.json   (--quick: 1 GiB array)
//
// The kernel below is the whole benchmark: per CTA, warp 0's lane 0 is the producer and keeps
// `stages` cp.async.bulk copies of `chunk` bytes in flight through a ring of full/empty mbarriers
// (pipeline::mbarrier_ring: acquire -> fill -> bulk::load, each copy completing on its stage's full
// barrier); four consumer warps wait for each stage, add every 32-bit word that landed into a
// per-thread sum (the bytes are used, so no copy is dead) and release the stage. The array holds
// random words (device_buffer::fill_random), so the host knows the exact sum of every launch
// (gen::expected_read_sum). The array is 4 GiB, far above the L2, and declared a DRAM working set.
#include <cuprobe/cuprobe.cuh>

#include <cstdio>

namespace bulk = cuprobe::ptx::bulk;

namespace {

constexpr int stages = 4;                   // copies in flight per CTA
constexpr std::uint32_t chunk = 16384;      // bytes per copy
constexpr std::uint64_t seed = 7;           // the array's random words
constexpr unsigned consumer_threads = 128;  // four consumer warps
constexpr unsigned ctas_per_sm = 2;         // 2 x 4 x 16 KiB = 128 KiB in flight per SM

__global__ void __launch_bounds__(32 + consumer_threads)
    tma_read_stream(const unsigned char* src, std::uint64_t chunks, std::uint32_t* sum) {
  extern __shared__ __align__(128) unsigned char buf[];  // stages x chunk bytes
  __shared__ cuprobe::pipeline::mbarrier_ring<stages> pipe;
  if (threadIdx.x == 0) pipe.init(consumer_threads);  // every consumer thread releases
  __syncthreads();
  if (threadIdx.x < 32) {  // the producer warp: one thread issues, the others have no work
    if (threadIdx.x != 0) return;
    auto p = pipe.producer_start();
    for (std::uint64_t c = blockIdx.x; c < chunks; c += gridDim.x, ++p) {
      pipe.acquire(p);  // the consumers released this stage (bounded wait in debug builds)
      bulk::load(buf + p.stage * chunk, src + c * chunk, pipe.fill(p, chunk), chunk);
    }
    return;
  }
  auto s = pipe.consumer_start();
  const unsigned t = threadIdx.x - 32;
  std::uint32_t acc = 0;
  for (std::uint64_t c = blockIdx.x; c < chunks; c += gridDim.x, ++s) {
    pipe.wait_full(s);  // the stage's bytes arrived
    const uint4* v = reinterpret_cast<const uint4*>(buf + s.stage * chunk);
#pragma unroll
    for (unsigned j = 0; j < chunk / 16 / consumer_threads; ++j) {  // 16-byte ld.shared
      const uint4 x = v[t + j * consumer_threads];
      acc += x.x + x.y + x.z + x.w;
    }
    pipe.release(s);  // this thread's reads are done: the producer may refill the stage
  }
  for (int o = 16; o > 0; o /= 2) acc += __shfl_xor_sync(0xffffffffu, acc, o);
  if (threadIdx.x % 32 == 0) atomicAdd(sum, acc);
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(argc, argv, "teach_tma_stream: a TMA read stream");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::require(dev.cc_major >= 9, "teach_tma_stream: TMA needs sm_90 or newer");
    const std::uint64_t bytes = std::uint64_t(cli.small ? 16 : cli.quick ? 1024 : 4096) << 20;
    cuprobe::run_options o = cli.run_options();
    o.warmup = cli.small ? 1 : 2;
    o.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));

    cuprobe::device_buffer<std::uint32_t> array(bytes / 4);
    array.fill_random(seed, 0u, 0xFFFFFFFFu);  // word w: gen::stream_input_word(seed, 0, w)
    cuprobe::device_buffer<std::uint32_t> sum(1);
    sum.zero();
    const std::size_t smem = std::size_t(stages) * chunk;
    CUPROBE_CHECK(cudaFuncSetAttribute(tma_read_stream, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       int(smem)));
    const cuprobe::launch_shape shape{dim3(dev.sm_count * ctas_per_sm), dim3(32 + consumer_threads),
                                      smem};
    const auto* src = reinterpret_cast<const unsigned char*>(array.data());
    std::uint32_t launches = 0;
    auto m = cuprobe::measure(
        "teach.tma_stream",
        [&](cudaStream_t st) {
          tma_read_stream<<<shape.grid, shape.block, smem, st>>>(src, bytes / chunk, sum.data());
          ++launches;
        },
        cuprobe::work::bytes_moved(double(bytes), 0, "bytes copied from DRAM to shared memory")
            .with_source(cuprobe::data_source::dram)
            .with_working_set(double(bytes)),
        o);
    // Validation: every launch added every word once (the wrapping sum of the random words).
    const std::uint32_t want = cuprobe::gen::expected_read_sum(seed, bytes / 4, launches);
    const std::uint32_t got = sum.to_host()[0];
    const bool ok = got == want;
    m.with_launch(shape)
        .with_kernel(cuprobe::kernel_attributes::of(tma_read_stream, int(shape.block.x), smem))
        .with_param("copy_bytes", chunk)
        .with_param("stages", stages)
        .with_param("ctas_per_sm", ctas_per_sm)
        .with_param("valid", ok);
    std::printf("TMA read stream on %s over %s (median of %zu launches):\n", dev.name.c_str(),
                cuprobe::fmt_bytes(double(bytes)).c_str(), o.stop.max_samples);
    std::printf("  bulk %u KiB x%d stages, %u CTA/SM: %.3f TB/s\n", chunk / 1024, stages,
                ctas_per_sm, m.gb_per_s() / 1e3);
    std::printf("  validation: sum %u, expected %u: %s\n", got, want, ok ? "ok" : "FAILED");

    cuprobe::results res(argc, argv);
    cuprobe::json& x = res.extra("teach_tma_stream");
    x["tbps"] = m.gb_per_s() / 1e3;
    x["valid"] = ok;
    res.add(std::move(m));
    res.print_ceilings();
    res.write(cli);
    return ok ? 0 : 1;
  });
}
