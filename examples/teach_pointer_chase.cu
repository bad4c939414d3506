// teach_pointer_chase: how to write a pointer-chase latency kernel with cuprobe's blocks, timed
// through the library's in-kernel sample path. It includes installed headers only: copy it into
// your own project.
//
//   build/hopper/examples/teach_pointer_chase --json teach_pointer_chase.json (--quick: 2^16 hops)
//
// The ring is gen::chase_ring: one node per 128-byte line, linked in a random cyclic permutation,
// so p = *p is a dependent chain that no prefetcher or coalescing helps. The kernel below is one
// thread: `warm` untimed hops (one full pass over a ring that fits the L2, none over the DRAM
// ring, where the runner flushes the L2 before each sample instead), then `steps` hops of
// ld.global.cg (ptx/cache.cuh: L2 only, so the L1 never answers) between two %clock64 reads;
// ptx::opaque(p) at both reads keeps the whole chain between them. Each sample is one launch's
// cycles, divided by the hops (measure_samples, unit cycles, in_kernel); the node the chain ends
// on is checked against the ring's successors on the host (gen::chase_successors).
#include <cuprobe/cuprobe.cuh>

#include <cstdio>

namespace gen = cuprobe::gen;
namespace ptx = cuprobe::ptx;

namespace {

__global__ void chase(std::uint64_t p, std::uint64_t warm, std::uint64_t steps,
                      unsigned long long* out) {
  const auto hop = [](std::uint64_t a) {
    return ptx::ld<ptx::cache::cg>(reinterpret_cast<const std::uint64_t*>(a));
  };
  for (std::uint64_t i = 0; i < warm; ++i) p = hop(p);
  ptx::opaque(p);  // the timed chain starts here, not earlier
  const std::uint64_t t0 = ptx::clock64();
#pragma unroll 4
  for (std::uint64_t i = 0; i < steps; ++i) p = hop(p);
  ptx::opaque(p);  // ... and has ended here
  const std::uint64_t t1 = ptx::clock64();
  out[0] = t1 - t0;
  out[1] = p;  // where the chain ended
}

/// This kernel's chase of a ring of `bytes`; `ok` is false when a chain ended on a wrong node.
cuprobe::measurement chase_level(const char* name, std::size_t bytes, bool fits_l2,
                                 const cuprobe::cli& cli, double mhz, bool& ok) {
  const gen::chase_ring ring(bytes);  // 128-byte stride, one ring, seed 1
  gen::chase_options co;              // timed hops: clamp(4 x nodes, min_steps, max_steps)
  co.warmup = fits_l2 ? gen::chase_warmup::full_pass : gen::chase_warmup::none;
  co.max_steps = cli.small ? 1024 : cli.quick ? 1u << 16 : 1u << 19;
  co.min_steps = std::min(co.min_steps, co.max_steps);
  const std::uint64_t steps = gen::chase_timed_steps(ring.nodes_per_ring(), co);
  const std::uint64_t warm = gen::chase_warmup_steps(ring.nodes_per_ring(), co);
  std::uint64_t want = 0;  // the node after warm + steps hops from node 0
  const std::vector<std::uint32_t> next = gen::chase_successors(ring.nodes(), 1, ring.seed());
  for (std::uint64_t i = 0; i < warm + steps; ++i) want = next[want];

  cuprobe::run_options ro = cli.run_options();
  ro.warmup = 0;  // the chase warms itself (warm hops) or starts from a flushed L2
  ro.stop = cuprobe::stopping_rule::fixed(3);
  ro.clock_mhz = mhz;      // cycles -> ns at the SM clock measured first
  ro.flush_l2 = !fits_l2;  // a DRAM sample must not find the lines the last one loaded
  ro.mode = cuprobe::loop_mode::in_kernel;  // one sample covers `steps` hops
  ro.iterations = steps;
  cuprobe::device_buffer<unsigned long long> out(2);
  auto m = cuprobe::measure_samples(
      std::string("teach.chase.") + name, cuprobe::sample_unit::cycles,
      [&](cudaStream_t s) {
        out.poison(cuprobe::poison_byte, s);
        chase<<<1, 1, 0, s>>>(ring.address(0), warm, steps, out.data());
        CUPROBE_CHECK_LAUNCH("chase");
        cuprobe::wait_for(s, "");
        const auto h = out.to_host();
        ok = ok && h[1] == ring.address(want);
        return double(h[0]);
      },
      cuprobe::work::op_count(1, "one dependent load (hop); cycles_per_op = cycles per hop"), ro);
  m.with_param("load", "ld.global.cg")
      .with_param("bytes", double(ring.bytes()))
      .with_param("steps", double(steps))
      .with_param("warm_hops", double(warm));
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(argc, argv, "teach_pointer_chase: a latency kernel");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::timer_characterisation clk;
    cuprobe::measure_effective_clock(clk, 20);
    const double mhz = clk.effective_sm_clock_mhz;
    // L2: an eighth of the L2 (past the L1, inside the L2); DRAM: 16 x the L2 (past every cache).
    const std::size_t l2 = cli.small ? std::size_t(256) << 10 : dev.l2_bytes / 8;
    const std::size_t dram = (cli.small ? 2 : 16) * dev.l2_bytes;

    cuprobe::results res(argc, argv);
    cuprobe::json& x = res.extra("teach_pointer_chase");
    cuprobe::table t({"level", "working set", "cycles/hop", "ns/hop", "end node"});
    bool all_ok = true;
    for (const auto& [name, bytes] :
         {std::pair<const char*, std::size_t>{"l2", l2}, {"dram", dram}}) {
      bool ok = true;
      auto m = chase_level(name, bytes, bytes <= dev.l2_bytes, cli, mhz, ok);
      const double c = m.cycles_per_op();
      t.add_row({name, cuprobe::fmt_bytes(double(bytes)), cuprobe::fmt(c, 1),
                 cuprobe::fmt(c / mhz * 1e3, 1), ok ? "ok" : "WRONG"});
      x[name]["cycles_per_hop"] = c;
      x[name]["valid"] = ok;
      all_ok = all_ok && ok;
      res.add(std::move(m));
    }
    std::printf("Pointer chase (ld.global.cg, one thread) on %s, SM clock %.0f MHz (measured):\n",
                dev.name.c_str(), mhz);
    t.print();
    x["sm_clock_mhz"] = mhz;
    res.print_ceilings();
    res.write(cli);
    return all_ok ? 0 : 1;
  });
}
