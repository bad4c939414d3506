// memory_ordering: the publish/consume pattern of the CUDA partial-sum sample in three correct
// forms, run many times against the exact sum, and the cost of a fence by scope and kind.
//
//   build/hopper/examples/memory_ordering --json ordering.json     (--quick: fewer launches)
//
// Patterns (gen/ordering.cuh): fence_then_atomic (store; __threadfence-like fence.sc.gpu;
// atomic ticket), acq_rel_atomic (ptx::atomic_fetch_add acq_rel), and
// release_atomic_acquire_load (release fetch_add, acquire load by the last block). Integer
// inputs, so "exact" means equal. Fence cost: a loop of (store; fence) minus the same loop
// without the fence, per iteration, for one warp and for a block of 1024 threads, each a
// measurement of the protocol (cuprobe_suite/ordering.cuh); then fence.sc at every scope with
// the stored rows on lines the L2 homes near to and far from SM 0 (fence_cost_by_home).
#include <cuprobe_suite/suite.cuh>

#include <cstdio>

namespace gen = cuprobe::gen;
namespace ex = cuprobe::suite;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "memory_ordering: publish/consume and fence costs",
        {cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here")});
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::results res(argc, argv);
    cuprobe::summary_file sum(argc, argv, dev);

    ex::publish_consume_options po;
    po.launches = cli.small ? 5 : cli.quick ? 50 : 300;
    if (cli.small) po.elements = 1 << 16;
    cuprobe::table t({"pattern", "launches", "exact", "grids tried"});
    for (auto p : {gen::publish_pattern::fence_then_atomic, gen::publish_pattern::acq_rel_atomic,
                   gen::publish_pattern::release_atomic_acquire_load}) {
      const auto r = ex::publish_consume(p, po);
      t.add_row({gen::to_string(p), std::to_string(r.launches),
                 std::to_string(r.exact) + "/" + std::to_string(r.launches),
                 "1.." + std::to_string(po.max_blocks) + " blocks"});
      res.extra("memory_ordering")["patterns"][gen::to_string(p)] = r.exact;
      sum.set(std::string("ordering.") + gen::to_string(p) + ".exact_fraction",
              double(r.exact) / double(r.launches));
      cuprobe::require(r.exact == r.launches, std::string("memory_ordering: ") + gen::to_string(p) +
                                                  " lost a partial sum: the pattern is broken");
    }

    cuprobe::table f({"fence", "threads", "cycles with", "cycles without", "cycles per fence"});
    ex::fence_cost_options fo;
    fo.run = cli.run_options();
    fo.run.warmup = 1;
    fo.run.stop = cuprobe::stopping_rule::fixed(cli.quick || cli.small ? 3 : 5);
    if (cli.small) fo.iterations = 128;
    for (auto& c : ex::fence_costs(fo)) {
      if (!c.supported) continue;
      const std::string name = std::string("fence.") + c.sem + "." + c.scope;
      f.add_row({name, std::to_string(c.threads), cuprobe::fmt(c.with->stats.median, 1),
                 cuprobe::fmt(c.without->stats.median, 1), cuprobe::fmt(c.cycles_per_fence, 1)});
      cuprobe::json e = cuprobe::json::object();
      e["cycles_with"] = c.with->stats.median;
      e["cycles_without"] = c.without->stats.median;
      e["cycles_per_fence"] = c.cycles_per_fence;
      res.extra("memory_ordering")["fence_cycles"][name + ".x" + std::to_string(c.threads)] = e;
      if (c.cycles_per_fence)
        sum.set("ordering." + name + ".x" + std::to_string(c.threads) + ".cycles",
                *c.cycles_per_fence);
      res.add(std::move(*c.with));
      res.add(std::move(*c.without));
    }
    // The same sc fences with the rows on lines the L2 homes near to and far from one SM:
    // the unplaced figure above lies between the two (docs/memory-latency.md).
    cuprobe::table hf({"fence", "threads", "near", "far", "far - near"});
    fo.sm = 0;
    if (cli.small) fo.run.stop = cuprobe::stopping_rule::fixed(1);  // 16 points x 2 loops
    const auto bh = ex::fence_cost_by_home(dev, fo);
    auto& hj = res.extra("memory_ordering")["fence_cycles_by_home"];
    hj["sm"] = bh.sm;
    hj["near_lines"] = bh.near_lines;
    hj["far_lines"] = bh.far_lines;
    hj["near_hop_cycles"] = bh.near_cycles;
    hj["far_hop_cycles"] = bh.far_cycles;
    for (std::size_t i = 0; i + 1 < bh.costs.size(); i += 2) {
      auto& n = bh.costs[i];
      auto& fa = bh.costs[i + 1];
      if (!n.supported || !fa.supported) continue;
      const std::string name = std::string("fence.") + n.sem + "." + n.scope;
      const std::string key = name + ".x" + std::to_string(n.threads);
      hj[key + ".near"] = n.cycles_per_fence;
      hj[key + ".far"] = fa.cycles_per_fence;
      sum.set("ordering." + key + ".near.cycles", *n.cycles_per_fence);
      sum.set("ordering." + key + ".far.cycles", *fa.cycles_per_fence);
      hf.add_row({name, std::to_string(n.threads), cuprobe::fmt(n.cycles_per_fence, 1),
                  cuprobe::fmt(fa.cycles_per_fence, 1),
                  cuprobe::fmt(*fa.cycles_per_fence - *n.cycles_per_fence, 1)});
      for (auto* c : {&n, &fa}) {
        res.add(*c->with);
        res.add(*c->without);
      }
    }
    std::printf("Memory ordering on %s\n\n", dev.name.c_str());
    t.print();
    std::printf(
        "\nFence cost (cycles per iteration of store+fence minus store alone; median of "
        "samples)\n");
    f.print();
    std::printf(
        "\nFence cost by the L2 home of the stored lines, seen from SM %u (%zu near lines at "
        "%.1f cycles per atomic hop, %zu far at %.1f)\n",
        bh.sm, bh.near_lines, bh.near_cycles, bh.far_lines, bh.far_cycles);
    if (bh.costs.empty())
      std::printf("not measured: the lines did not split into near and far from SM %u\n", bh.sm);
    else
      hf.print();
    res.print_ceilings();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    return 0;
  });
}
