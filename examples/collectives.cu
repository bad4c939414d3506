// collectives: NCCL's all-reduce, all-gather, reduce-scatter, broadcast and all-to-all on the
// GPUs of this node, 8 B .. 4 GiB, with algorithm and bus bandwidth as nccl-tests defines them
// (bus bandwidth beside the NVLink nominal rate from NVML), every output checked. One rank per
// GPU; with one GPU NCCL runs one rank (bus bandwidth is then 0 by definition: nothing crosses a
// link). Built only where CMake found NCCL (cmake/cuprobeNccl.cmake).
//
//   build/hopper/examples/collectives --json collectives.json --summary collectives_summary.json
//   (--quick: 8 B .. 256 MiB, fewer samples; --small: up to 1 MiB; --ops all_reduce,broadcast;
//    --max-mib: the largest size; --gpus N: the first N GPUs; --threads 0: one host thread for
//    every rank, in one group, instead of a thread per rank)
//
// The experiment is cuprobe_suite/collectives_nccl.cuh (its pure parts, sizes and bus factors,
// cuprobe_suite/collectives.cuh); docs/multi-gpu.md compares the definitions with nccl-tests'.
#include <cuprobe_suite/collectives_nccl.cuh>
#include <cuprobe_suite/suite.cuh>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

namespace ex = cuprobe::suite;
using cuprobe::fmt;

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "collectives: NCCL collectives on this node's GPUs, nccl-tests' bandwidths",
        {cuprobe::cli_option::text("--ops", "comma-separated collectives, or all", "all"),
         cuprobe::cli_option::integer("--max-mib", "the largest size, MiB", 1, 65536, 4096),
         cuprobe::cli_option::integer("--gpus", "ranks: the first N GPUs (0: all)", 0, 1024, 0),
         cuprobe::cli_option::integer("--threads",
                                      "1: a host thread per rank (nccl-tests -t); 0: one thread "
                                      "issues every rank's in one group (-g)",
                                      0, 1, 1),
         cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here")});
    ex::collective_options o;
    if (cli.get("--ops") != "all") {
      o.ops.clear();
      std::stringstream list(cli.get("--ops"));
      for (std::string name; std::getline(list, name, ',');)
        o.ops.push_back(ex::collective_named(name, "collectives: --ops"));
    }
    std::size_t max = std::size_t(cli.get_integer("--max-mib")) << 20;
    if (cli.quick) max = std::min(max, std::size_t(256) << 20);
    if (cli.small) max = std::min(max, std::size_t(1) << 20);
    o.sizes = ex::collective_sizes(8, max, cli.quick || cli.small ? 4 : 2);
    for (int d = 0; d < int(cli.get_integer("--gpus")); ++d) o.devices.push_back(d);
    o.thread_per_rank = cli.get_integer("--threads") == 1;
    o.run = cli.run_options();
    o.run.warmup = cli.small ? 1 : 5;
    o.run.stop = cuprobe::stopping_rule::fixed(cli.samples(20, 5));
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    cuprobe::results res(argc, argv);
    cuprobe::summary_file sum(argc, argv, dev);
    const auto node = cuprobe::query_node();
    res.extra("node") = cuprobe::node_json(node);
#if defined(CUPROBE_HAVE_NCCL)
    const auto r = ex::run_collectives(o, [](const std::string& what) {
      std::fprintf(stderr, "collectives: %s\n", what.c_str());
    });
    const int n = int(r.devices.size());
    double nominal = 0;  // the slowest rank's NVLinks, one direction; 0: not known for all
    for (std::size_t k = 0; k < r.devices.size(); ++k) {
      const auto& l = node.at(r.devices[k]).nvlink.nominal_bytes_per_s;
      nominal = !l || (k > 0 && nominal == 0) ? 0 : k == 0 ? *l : std::min(nominal, *l);
    }
    std::printf("NCCL %s, %d rank%s (one per GPU); NVLink nominal %s GB/s per direction\n",
                r.nccl_version.c_str(), n, n == 1 ? "" : "s",
                nominal > 0 ? fmt(nominal / 1e9, 1).c_str() : "-");
    if (n == 1)
      std::printf(
          "one GPU: NCCL runs one rank; bus bandwidth is 0 by nccl-tests' definition "
          "(nothing crosses a link), algorithm bandwidth is a local copy\n");
    cuprobe::table t({"collective", "bytes", "us", "algbw GB/s", "busbw GB/s", "x NVLink"});
    for (const auto& p : r.points) {
      t.add_row({ex::to_string(p.op), cuprobe::fmt_bytes(double(p.bytes)),
                 fmt(p.m.seconds() * 1e6, 1), fmt(p.algbw_gbps, 2), fmt(p.busbw_gbps, 2),
                 nominal > 0 && n > 1 ? fmt(p.busbw_gbps * 1e9 / nominal, 3) : "-"});
      res.add(p.m);
    }
    t.print();
    res.extra("collectives")["nccl_version"] = r.nccl_version;
    sum.set("nccl.ranks", n);
    for (auto c : o.ops) {  // the largest size's bandwidths, the smallest size's time
      const ex::collective_point *largest = nullptr, *smallest = nullptr;
      for (const auto& p : r.points) {
        if (p.op != c) continue;
        if (!largest || p.bytes > largest->bytes) largest = &p;
        if (!smallest || p.bytes < smallest->bytes) smallest = &p;
      }
      if (!largest) continue;
      const std::string key = std::string("nccl.") + ex::to_string(c);
      sum.set(key + ".busbw.gbps", largest->busbw_gbps);
      sum.set(key + ".algbw.gbps", largest->algbw_gbps);
      sum.set(key + ".bytes", double(largest->bytes));
      sum.set(key + ".smallest.us", smallest->m.seconds() * 1e6);
    }
#else
    std::printf("this build has no NCCL (CMake did not find it): the collectives were skipped\n");
#endif
    res.print_ceilings();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    return 0;
  });
}
