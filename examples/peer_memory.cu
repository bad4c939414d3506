// peer_memory: the GPUs of this node against each other. The all-pairs bandwidth matrix (copy
// engine, SM loads, SM stores; one direction, and both at once), the latency matrix (one
// thread chasing pointers in the other GPU's memory, at a working set its L2 holds and at one
// past it), and bandwidth against message size (4 KiB .. 1 GiB) for one pair; every rate beside
// the NVLink nominal rate NVML gives. The diagonal is each GPU with its own memory, for
// reference. On a node with one GPU only the diagonal runs, and the program says what it skipped.
//
//   build/hopper/examples/peer_memory --json peer.json --summary peer_summary.json
//   (--quick: fewer samples and sizes; --small: small buffers for compute-sanitizer;
//    --only matrix|latency|sweep; --from/--to: the sweep's pair)
//
// The experiments are cuprobe_suite/peer.cuh; the blocks multi/peer.cuh (peer access, buffers,
// rings in another GPU's memory), multi/peer_transfer.cuh (the transfers, timed and checked)
// and measure/nvlink.cuh (the links). docs/multi-gpu.md explains the methods.
#include <cuprobe_suite/peer.cuh>
#include <cuprobe_suite/suite.cuh>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace ex = cuprobe::suite;
using cuprobe::fmt;
using cuprobe::peer_method;

namespace {

// One matrix of `what` per (method, direction): rows from, columns to.
template <class Cell>
void print_matrix(const std::string& title, int n, Cell&& cell) {
  std::vector<std::string> head = {"from \\ to"};
  for (int c = 0; c < n; ++c) head.push_back(std::to_string(c));
  cuprobe::table t(head);
  for (int r = 0; r < n; ++r) {
    std::vector<std::string> row = {std::to_string(r)};
    for (int c = 0; c < n; ++c) row.push_back(cell(r, c));
    t.add_row(row);
  }
  std::printf("\n%s\n", title.c_str());
  t.print();
}

std::string rate_text(const ex::peer_cell* c) {
  if (!c) return "-";
  std::string s = fmt(c->r.m.gb_per_s(), 1);
  if (c->r.fraction_of_link) s += " (" + fmt(100 * *c->r.fraction_of_link, 0) + " %)";
  return s;
}

void summarise_rates(cuprobe::summary_file& sum, const ex::peer_bandwidth_result& bw) {
  for (peer_method m : {peer_method::copy_engine, peer_method::sm_read, peer_method::sm_write,
                        peer_method::sm_copy})
    for (bool bidir : {false, true}) {
      std::vector<double> rates, fractions;
      for (const auto& c : bw.cells)
        if (c.method == m && c.bidirectional == bidir && c.from != c.to) {
          rates.push_back(c.r.m.gb_per_s());
          if (c.r.fraction_of_link) fractions.push_back(*c.r.fraction_of_link);
        }
      const std::string key =
          std::string("peer.") + cuprobe::to_string(m) + (bidir ? ".bidir" : "");
      if (!rates.empty()) {
        sum.set(key + ".gbps.median", cuprobe::median(rates));
        sum.set(key + ".gbps.min", *std::min_element(rates.begin(), rates.end()));
        sum.set(key + ".gbps.max", *std::max_element(rates.begin(), rates.end()));
      }
      if (!fractions.empty())
        sum.set(key + ".fraction_of_nvlink.median", cuprobe::median(fractions));
      if (const auto* c = bw.find(0, 0, m, bidir))
        sum.set(std::string("local.") + cuprobe::to_string(m) + (bidir ? ".bidir" : "") + ".gbps",
                c->r.m.gb_per_s());
    }
}

}  // namespace

int main(int argc, char** argv) {
  return cuprobe::guarded_main([&] {
    const auto cli = cuprobe::cli::parse(
        argc, argv, "peer_memory: the GPUs of this node against each other (NVLink, PCIe)",
        {cuprobe::cli_option::text("--only", "run one part: matrix, latency, sweep", "all"),
         cuprobe::cli_option::integer("--mib", "MiB per transfer in the matrix", 1, 16384, 256),
         cuprobe::cli_option::integer("--from", "the sweep's source GPU", 0, 1023, 0),
         cuprobe::cli_option::integer("--to", "the sweep's destination GPU", 0, 1023, 1),
         cuprobe::cli_option::path("--summary", "write the headline metrics (JSON) here")});
    const std::string only = cli.get("--only");
    cuprobe::require(only == "all" || only == "matrix" || only == "latency" || only == "sweep",
                     "peer_memory: --only takes matrix, latency, sweep or all, got '" + only + "'");
    const auto dev = cuprobe::device_info::query();
    cuprobe::arch::check_kernel_image();
    const auto progress = [](const std::string& what) {
      std::fprintf(stderr, "peer_memory: %s\n", what.c_str());
    };
    cuprobe::results res(argc, argv);
    cuprobe::summary_file sum(argc, argv, dev);
    const ex::peer_node node = ex::query_peer_node();
    res.extra("node") = cuprobe::node_json(node.gpus);
    std::printf("GPUs of this node: %d\n", node.count());
    ex::node_table(node).print();
    sum.set("node.gpus", node.count());
    const auto& l0 = node.gpus.front().nvlink;
    sum.set("nvlink.links_active", l0.active);
    if (l0.nominal_bytes_per_s) sum.set("nvlink.nominal.gbps", *l0.nominal_bytes_per_s / 1e9);
    std::vector<std::string> skipped;
    const auto note = [&](const std::vector<std::string>& v) {
      skipped.insert(skipped.end(), v.begin(), v.end());
    };
    const std::size_t samples = cli.samples(10, 4);
    const int n = node.count();

    if (only == "all" || only == "matrix") {
      ex::peer_matrix_options o;
      o.bytes = std::size_t(cli.small ? 1 : cli.get_integer("--mib")) << 20;
      o.run = cli.run_options();
      o.run.warmup = 2;
      o.run.stop = cuprobe::stopping_rule::fixed(samples);
      const auto bw = ex::peer_bandwidth_matrix(node, o, progress);
      note(bw.skipped);
      for (const auto& c : bw.cells) res.add(c.r.m);
      for (peer_method m : o.methods)
        for (bool bidir : {false, true}) {
          if (bidir && !o.bidirectional) continue;
          print_matrix(std::string("bandwidth, GB/s (% of NVLink nominal, ") +
                           (bidir ? "both directions" : "one direction") + "), " +
                           cuprobe::to_string(m) + ", " + cuprobe::fmt_bytes(double(o.bytes)) +
                           (bidir ? " each way (upper triangle)" : ""),
                       n, [&](int r, int c) { return rate_text(bw.find(r, c, m, bidir)); });
        }
      summarise_rates(sum, bw);
    }

    if (only == "all" || only == "latency") {
      ex::peer_latency_options o;
      o.chase.run = cli.run_options();
      o.chase.run.warmup = 0;  // each chase warms itself in the kernel (gen::chase_warmup)
      o.chase.run.stop = cuprobe::stopping_rule::fixed(cli.samples(3, 2));
      if (cli.quick || cli.small) o.chase.chase.max_steps = 1u << 13;
      if (cli.small) o.sizes = {std::size_t(1) << 20};
      const auto lat = ex::peer_latency_matrix(node, o, progress);
      note(lat.skipped);
      std::vector<std::size_t> sizes;
      for (const auto& c : lat.cells) {
        res.add(c.m);
        if (std::find(sizes.begin(), sizes.end(), c.bytes) == sizes.end()) sizes.push_back(c.bytes);
      }
      for (std::size_t b : sizes) {
        std::vector<double> remote;
        print_matrix(
            "latency, ns per hop (reader \\ owner), working set " + cuprobe::fmt_bytes(double(b)),
            n, [&](int r, int c) -> std::string {
              for (const auto& x : lat.cells)
                if (x.reader == r && x.owner == c && x.bytes == b)
                  return fmt(x.m.seconds() * 1e9, 0);
              return "-";
            });
        const std::string level = b > dev.l2_bytes ? "dram" : "l2";
        for (const auto& x : lat.cells) {
          if (x.bytes != b) continue;
          if (x.reader != x.owner) remote.push_back(x.m.seconds() * 1e9);
          if (x.reader == 0 && x.owner == 0)
            sum.set("local.latency." + level + ".ns", x.m.seconds() * 1e9);
        }
        if (!remote.empty())
          sum.set("peer.latency." + level + ".ns.median", cuprobe::median(remote));
      }
    }

    if (only == "all" || only == "sweep") {
      ex::peer_sweep_options o;
      o.from = int(cli.get_integer("--from"));
      o.to = int(cli.get_integer("--to"));
      o.run = cli.run_options();
      o.run.warmup = 2;
      o.run.stop = cuprobe::stopping_rule::fixed(samples);
      if (cli.quick) o.sizes = ex::copy_sizes(std::size_t(4) << 10, std::size_t(256) << 20, 16);
      if (cli.small) o.sizes = ex::copy_sizes(std::size_t(4) << 10, std::size_t(1) << 20, 16);
      const auto sw = ex::peer_bandwidth_sweep(node, o, progress);
      note(sw.skipped);
      if (!sw.cells.empty()) {
        cuprobe::table t({"method", "bytes", "us", "GB/s", "x NVLink"});
        for (const auto& c : sw.cells) {
          t.add_row({cuprobe::to_string(c.method), cuprobe::fmt_bytes(double(c.bytes)),
                     fmt(c.r.m.seconds() * 1e6, 1), fmt(c.r.m.gb_per_s(), 1),
                     c.r.fraction_of_link ? fmt(*c.r.fraction_of_link, 3) : "-"});
          res.add(c.r.m);
        }
        std::printf("\nbandwidth against message size, GPU %d -> GPU %d:\n", o.from, o.to);
        t.print();
        for (peer_method m : o.methods)
          if (const auto* c = sw.find(o.from, o.to, m, false, o.sizes.front()))
            sum.set(std::string("peer.sweep.") + cuprobe::to_string(m) + ".smallest.us",
                    c->r.m.seconds() * 1e6);
      }
    }

    if (!skipped.empty()) {
      std::printf("\nskipped:\n");
      for (const auto& s : skipped) std::printf("  %s\n", s.c_str());
    }
    res.extra("peer_memory")["skipped"] = cuprobe::json::array_of(skipped);
    res.print_ceilings();
    res.write(cli);
    sum.write(cli);  // --summary, when given
    return 0;
  });
}
