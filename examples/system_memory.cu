// system_memory: GPU threads on host memory and the copy engines. What ld.global.cv means on
// mapped host memory (a re-read sees what the host changed while the kernel polled) against
// .cg, plain and .ca loads, and the same on device memory; repeated-read bandwidth and
// pointer-chase latency with .cv against .cg in host and device memory; zero-copy read and
// write bandwidth against working set, access width and cache operator; cudaMemcpyAsync
// host->device, device->host and both at once from pinned and pageable memory, 4 KiB .. 1 GiB,
// with cudaMemcpy as the peer; every rate beside the host link's nominal rate (NVML).
//
//   build/hopper/examples/system_memory --json system_memory.json --summary system_summary.json
//   (--quick: fewer points; --small: small sizes for compute-sanitizer; --only PART)
//
// The experiments are cuprobe_suite/system_memory.cuh and cuprobe_suite/copy_engine.cuh; the
// visibility kernel cuprobe_suite/kernels/host_memory.cuh; the bus measure/bus.cuh.
// docs/system-memory.md explains each figure and what limits the copies.
#include <cuprobe_suite/suite.cuh>
#include <cuprobe_suite/system_memory.cuh>

#include <cstdio>
#include <string>

namespace ex = cuprobe::suite;
namespace gen = cuprobe::gen;
using cuprobe::fmt;

namespace {

std::string fraction(const std::optional<double>& f) {
  return f ? fmt(100 * *f, 1) + " %" : std::string("-");
}

void print_bus(const cuprobe::host_link& bus) {
  std::printf("host link: %s", bus.name.c_str());
  if (bus.nominal_bytes_per_s)
    std::printf(", nominal %.1f GB/s per direction (%s)", *bus.nominal_bytes_per_s / 1e9,
                bus.formula.c_str());
  if (bus.current_generation && bus.current_width)
    std::printf("; now Gen%u x%u", *bus.current_generation, *bus.current_width);
  if (!bus.why_unknown.empty()) std::printf(" (%s)", bus.why_unknown.c_str());
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "system_memory: host memory, zero-copy and the copy engines",
        {cuprobe::cli_option::text("--only", "run one part: visibility, latency, zerocopy, copy",
                                   "all"),
         cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here")});
    const std::string only = cli.get("--only");
    cuprobe::require(only == "all" || only == "visibility" || only == "latency" ||
                         only == "zerocopy" || only == "copy",
                     "system_memory: --only takes visibility, latency, zerocopy, copy or all, "
                     "got '" +
                         only + "'");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const auto progress = [](const std::string& what) {
      std::fprintf(stderr, "system_memory: %s\n", what.c_str());
    };
    const bool all = only == "all";
    cuprobe::results res(argc, argv);
    cuprobe::summary_file sum(argc, argv, dev);
    cuprobe::json& extra = res.extra("system_memory");
    std::printf("System memory on %s\n", dev.name.c_str());

    // The copies first: they bring the PCIe link up to its working generation before NVML is
    // read (an idle link reports a lower one).
    std::optional<ex::copy_result> copies;
    cuprobe::host_link bus = cuprobe::query_host_link(dev);
    if (all || only == "copy") {
      ex::copy_options o;
      o.run = cli.run_options();
      o.run.warmup = 2;
      o.run.stop = cuprobe::stopping_rule::fixed(cli.samples(10, 5));
      if (cli.quick) o.sizes = ex::copy_sizes(std::size_t(4) << 10, std::size_t(256) << 20, 16);
      if (cli.small) {
        o.sizes = ex::copy_sizes(std::size_t(4) << 10, std::size_t(1) << 20);
        o.run.warmup = 1;
      }
      copies = ex::copy_bandwidth(dev, bus, o, progress);
      bus = cuprobe::query_host_link(dev);  // right after the copies: the link is up
    }
    print_bus(bus);
    extra["bus"] = cuprobe::to_json(bus);
    if (bus.nominal_bytes_per_s) sum.set("bus.nominal.gbps", *bus.nominal_bytes_per_s / 1e9);
    if (bus.generation) sum.set("bus.pcie.generation", double(*bus.generation));
    if (bus.width) sum.set("bus.pcie.width", double(*bus.width));

    if (all || only == "visibility") {
      ex::visibility_options o;
      const auto vis = ex::visibility_test(o);
      cuprobe::table t({"memory", "load", "re-read saw the change", "polls", "ns", "concurrent"});
      cuprobe::json arr = cuprobe::json::array();
      for (const auto& v : vis) {
        t.add_row({gen::to_string(v.placement), v.instruction, v.seen.saw_change ? "yes" : "no",
                   std::to_string(v.seen.polls), fmt(v.seen.elapsed_ns, 0),
                   v.seen.concurrent ? "yes" : "no"});
        arr.push_back(ex::to_json(v));
        if (v.placement == gen::chase_placement::host_mapped && v.seen.concurrent)
          sum.set("zerocopy." + v.op + "_visible", v.seen.saw_change ? 1 : 0);
      }
      extra["visibility"] = arr;
      std::printf("\nvisibility (the host changes the word while one GPU thread re-reads it):\n");
      t.print();
      std::printf("ld.global.cv on mapped host memory sees the host's write: %s\n",
                  ex::cv_visible(vis) ? "yes (pass)" : "NO (fail)");
      sum.set("zerocopy.cv_visible", ex::cv_visible(vis) ? 1 : 0);
    }

    if (all || only == "latency") {
      ex::repeated_read_options ro;
      ro.run = cli.run_options();
      ro.run.stop = cuprobe::stopping_rule::fixed(cli.samples(5, 3));
      if (cli.small) {
        ro.bytes = std::size_t(256) << 10;
        ro.passes = 2;
      }
      const auto rr = ex::repeated_reads(dev, bus, ro, progress);
      ex::system_chase_options co;
      co.run = cli.run_options();
      co.run.stop = cuprobe::stopping_rule::fixed(cli.samples(3, 3));
      if (cli.quick) co.max_steps = 1u << 13;
      if (cli.small) {
        co.sizes = {std::size_t(64) << 10};
        co.max_steps = 512;
      }
      const auto ch = ex::system_chases(dev, co, progress);
      cuprobe::table t({"memory", "what", "load", "bytes", "GB/s", "x bus", "ns/hop"});
      for (const auto& p : rr) {
        t.add_row({gen::to_string(p.placement), "repeated read", p.op,
                   cuprobe::fmt_bytes(double(p.bytes)), fmt(p.m.gb_per_s(), 1),
                   fraction(p.fraction_of_bus), "-"});
        res.add(p.m);
      }
      for (const auto& p : ch) {
        t.add_row({gen::to_string(p.placement), "chase", p.op, cuprobe::fmt_bytes(double(p.bytes)),
                   "-", "-", fmt(p.m.seconds() * 1e9, 0)});
        res.add(p.m);
      }
      std::printf("\nrepeated reads (16 B loads, passes in one launch) and chases (one thread):\n");
      t.print();
      for (const auto* p : {ex::find_point(rr, gen::chase_placement::host_mapped, "cg"),
                            ex::find_point(rr, gen::chase_placement::host_mapped, "cv")})
        if (p) sum.set("host.repeated_read." + p->op + ".gbps", p->m.gb_per_s());
      std::size_t largest = 0;
      for (const auto& p : ch) largest = std::max(largest, p.bytes);
      for (const char* op : {"cg", "cv"})
        if (const auto* p = ex::find_point(ch, gen::chase_placement::host_mapped, op, largest))
          sum.set(std::string("host.chase.") + op + ".ns", p->m.seconds() * 1e9);
    }

    if (all || only == "zerocopy") {
      ex::zero_copy_options o;
      o.run = cli.run_options();
      o.run.stop = cuprobe::stopping_rule::fixed(cli.samples(5, 3));
      if (cli.quick) {
        o.widths = {4, 16};
        o.sizes = {std::size_t(4) << 20, std::size_t(256) << 20};
      }
      if (cli.small) {
        o.widths = {16};
        o.ops = {"cg", "cv"};
        o.sizes = {std::size_t(1) << 20};
      }
      const auto zc = ex::zero_copy_bandwidth(dev, bus, o, progress);
      cuprobe::table t(
          {"pattern", "B/access", "op", "instruction", "working set", "GB/s", "x bus"});
      for (const auto& p : zc.points) {
        t.add_row({gen::to_string(p.pattern), std::to_string(p.width), p.op,
                   p.m.params.at("instruction").as_string(), cuprobe::fmt_bytes(double(p.bytes)),
                   fmt(p.m.gb_per_s(), 1), fraction(p.fraction_of_bus)});
        res.add(p.m);
      }
      std::printf("\nzero-copy (GPU threads on mapped host memory, 4 x 256 threads per SM):\n");
      t.print();
      if (auto r = zc.best_read_gbps()) sum.set("zerocopy.read.gbps", *r);
      if (auto w = zc.best_gbps(gen::stream_pattern::write)) sum.set("zerocopy.write.gbps", *w);
    }

    if (copies) {
      cuprobe::table t({"call", "direction", "host", "bytes", "us", "GB/s", "x bus"});
      for (const auto& p : copies->points) {
        t.add_row({p.peer ? "cudaMemcpy" : "cudaMemcpyAsync", ex::to_string(p.direction),
                   cuprobe::to_string(p.host), cuprobe::fmt_bytes(double(p.bytes)),
                   fmt(p.m.seconds() * 1e6, 1), fmt(p.m.gb_per_s(), 2),
                   fraction(p.fraction_of_bus)});
        res.add(p.m);
      }
      std::printf("\ncopy engines (bidir: both directions at once, bytes of both):\n");
      t.print();
      const std::size_t headline = std::size_t(256) << 20;
      const auto pinned = cuprobe::host_memory::pinned;
      for (auto d : {ex::copy_direction::h2d, ex::copy_direction::d2h, ex::copy_direction::bidir}) {
        const std::string key = std::string("copy.") + ex::to_string(d);
        if (const auto* p = copies->find(d, pinned, headline)) {
          sum.set(key + ".gbps", p->m.gb_per_s());
          if (p->fraction_of_bus) sum.set(key + ".fraction_of_bus", *p->fraction_of_bus);
        }
        if (const auto* p = copies->find(d, cuprobe::host_memory::pageable, headline))
          sum.set(key + ".pageable.gbps", p->m.gb_per_s());
        if (const auto* p = copies->find(d, pinned, headline, true))
          sum.set("memcpy." + std::string(ex::to_string(d)) + ".gbps", p->m.gb_per_s());
        const std::size_t smallest = copies->points.empty() ? 0 : copies->points.front().bytes;
        if (const auto* p = copies->find(d, pinned, smallest))
          sum.set(key + ".latency_us", p->m.seconds() * 1e6);
      }
    }
    res.print_ceilings();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    return 0;
  });
}
