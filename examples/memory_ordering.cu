// memory_ordering: the publish/consume pattern of the CUDA partial-sum sample in three correct
// forms, run many times against the exact sum, and the cost of a fence by scope and kind.
//
//   build/h200/examples/memory_ordering --json ordering.json     (--quick: fewer launches)
//
// Patterns (gen/ordering.cuh): fence_then_atomic (store; __threadfence-like fence.sc.gpu;
// atomic ticket), acq_rel_atomic (cuda::atomic_ref fetch_add acq_rel), and
// release_atomic_acquire_load (release fetch_add, acquire load by the last block). Integer
// inputs, so "exact" means equal. Fence cost: a loop of (store; fence) minus the same loop
// without the fence, per iteration, for one warp and for a block of 1024 threads.
#include <cuprobe/cuprobe.cuh>

#include <cstdio>
#include <numeric>

namespace gen = cuprobe::gen;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli =
        cuprobe::cli::parse(argc, argv, "memory_ordering: publish/consume and fence costs");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::results res(argc, argv);
    const int launches = cli.quick ? 50 : 300;
    const std::size_t n = 1 << 20;

    cuprobe::table t({"pattern", "launches", "exact", "grids tried"});
    gen::last_block_sum sum(4096);
    cuprobe::device_buffer<unsigned> in(n);
    for (auto p : {gen::publish_pattern::fence_then_atomic, gen::publish_pattern::acq_rel_atomic,
                   gen::publish_pattern::release_atomic_acquire_load}) {
      int exact = 0;
      for (int i = 0; i < launches; ++i) {
        in.fill_random(1000 + i, 0u, 1000u);
        const unsigned blocks = 1u + unsigned((i * 37) % 4096);
        unsigned long long want = 0;
        for (std::size_t j = 0; j < n; ++j)
          want += cuprobe::host_random<unsigned>(1000 + i, j, 0u, 1000u);
        exact += sum(in.data(), n, blocks, p) == want;
      }
      t.add_row({gen::to_string(p), std::to_string(launches),
                 std::to_string(exact) + "/" + std::to_string(launches), "1..4096 blocks"});
      res.extra("memory_ordering")["patterns"][gen::to_string(p)] = exact;
      cuprobe::require(exact == launches, std::string("memory_ordering: ") + gen::to_string(p) +
                                              " lost a partial sum: the pattern is broken");
    }

    cuprobe::table f({"fence", "threads", "cycles with", "cycles without", "cycles per fence"});
    gen::fence_cost_options fo;
    if (cli.quick) fo.repeats = 3;
    for (const auto& c : gen::measure_fence_costs(fo)) {
      if (!c.supported) continue;
      const std::string name = std::string("fence.") + c.sem + "." + c.scope;
      f.add_row({name, std::to_string(c.threads), cuprobe::fmt(c.cycles_with, 1),
                 cuprobe::fmt(c.cycles_without, 1), cuprobe::fmt(c.cycles_per_fence, 1)});
      cuprobe::json e = cuprobe::json::object();
      e["cycles_with"] = c.cycles_with;
      e["cycles_without"] = c.cycles_without;
      e["cycles_per_fence"] = c.cycles_per_fence;
      res.extra("memory_ordering")["fence_cycles"][name + ".x" + std::to_string(c.threads)] = e;
    }
    std::printf("Memory ordering on %s\n\n", dev.name.c_str());
    t.print();
    std::printf(
        "\nFence cost (cycles per iteration of store+fence minus store alone; median of "
        "repeats)\n");
    f.print();
    res.write(cli);
    return 0;
  });
}
