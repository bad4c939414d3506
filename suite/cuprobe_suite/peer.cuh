// cuprobe_suite/peer.cuh: the GPUs of one node against each other: the all-pairs
// bandwidth matrix (copy engine, SM loads, SM stores; one direction and both at once), the
// latency matrix (a pointer chase in the other GPU's memory) and bandwidth against message size
// for one pair, each beside the NVLink nominal rate from NVML. examples/peer_memory calls them.
//
//   namespace ex = cuprobe::suite;
//   const auto node = ex::query_peer_node();            // GPUs, NVLinks, who can map whom
//   auto bw = ex::peer_bandwidth_matrix(node, {}, [](const std::string&) {});
//   for (const auto& c : bw.cells)
//     std::printf("%d -> %d %s %.1f GB/s\n", c.from, c.to, cuprobe::to_string(c.method),
//                 c.r.m.gb_per_s());
//   std::puts(bw.skipped.empty() ? "all pairs measured" : bw.skipped.front().c_str());
//
// Cells: every ordered pair (from, to) of different GPUs that can map each other's memory, and
// the diagonal (from == to: the same transfer within one GPU's memory, a local reference that
// is not compared with NVLink). Bidirectional cells are one per unordered pair. A pair that
// cannot be measured (one GPU, no peer path) is named in `skipped` with the reason; with one
// GPU only the diagonal is measured. Every transfer is checked (multi/peer_transfer.cuh) and a
// failed check throws. Latency: gen::chase_ring in the owner's memory (multi/peer.cuh), chased
// by one thread of the reader with ld.global.cg; working sets owner L2 / 16 (warmed in the
// kernel: the owner's L2 answers) and 4 x owner L2 (the owner's L2 is flushed after each sample
// by a write on the owner, since the reader's runner can only flush its own); each chase's end
// node is compared with a walk of the same ring on the host.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/device_info.cuh"
#include "cuprobe/core/format.cuh"
#include "cuprobe/gen/chase.cuh"
#include "cuprobe/measure/l2_flush.cuh"
#include "cuprobe/measure/nvlink.cuh"
#include "cuprobe/multi/peer.cuh"
#include "cuprobe/multi/peer_transfer.cuh"
#include "cuprobe/report/table.cuh"
#include "cuprobe_suite/copy_engine.cuh"
#include "cuprobe_suite/latency.cuh"

namespace cuprobe::suite {

/// The node the peer experiments run on: its GPUs (facts, NVML state, NVLinks) and which may
/// map which.
struct peer_node {
  std::vector<node_gpu> gpus;              ///< in ordinal order
  std::vector<std::vector<bool>> can_map;  ///< [from][to]: can_access_peer(from, to)

  int count() const { return int(gpus.size()); }  ///< GPUs visible
  /// The nominal one-direction NVLink rate between `a` and `b` (none on the diagonal).
  std::optional<double> nominal(int a, int b) const {
    if (a == b) return std::nullopt;
    return pair_nominal_bytes_per_s(gpus.at(a).nvlink, gpus.at(b).nvlink);
  }
  /// "NVLink 4.0 (18 of 18 links active)" of `a` and `b`, or "local" on the diagonal.
  std::string link(int a, int b) const {
    return a == b ? std::string("local") : gpus.at(a).nvlink.name;
  }
  /// Why the pair cannot be measured ("" when it can): peer_refusal's sentence.
  std::string refusal(int a, int b) const {
    if (a == b) return "";
    return peer_refusal(
        a, b, count(),
        a < count() && b < count() && a >= 0 && b >= 0 && can_map[a][b] && can_map[b][a]);
  }
};

/// The node as this process sees it (no exception without a GPU: no GPUs).
inline peer_node query_peer_node() {
  peer_node n;
  n.gpus = query_node();
  for (int a = 0; a < n.count(); ++a) {
    n.can_map.emplace_back();
    for (int b = 0; b < n.count(); ++b) n.can_map[a].push_back(can_access_peer(a, b));
  }
  return n;
}

/// The node as a table: each GPU's name, bus, NVLinks, nominal rate and the GPUs whose memory
/// it can map (examples/peer_memory and device_report's "GPUs of this node" print it).
inline table node_table(const peer_node& node) {
  table t({"GPU", "name", "bus id", "NVLink", "nominal GB/s (1 dir)", "maps peers"});
  for (const auto& g : node.gpus) {
    std::string peers;
    for (int o = 0; o < node.count(); ++o)
      if (node.can_map[g.info.ordinal][o]) peers += (peers.empty() ? "" : ",") + std::to_string(o);
    const auto& l = g.nvlink;
    t.add_row({std::to_string(g.info.ordinal), g.info.name, g.info.pci_bus_id,
               l.name + (l.why_unknown.empty() ? "" : " (" + l.why_unknown + ")"),
               l.nominal_bytes_per_s ? fmt(*l.nominal_bytes_per_s / 1e9, 1) : "-",
               peers.empty() ? "-" : peers});
  }
  return t;
}

/// "this node shows 1 GPU: <what> needs two" when fewer than two GPUs are visible, else "".
inline std::string one_gpu_note(int count, const std::string& what) {
  if (count >= 2) return "";
  return "this node shows " + std::to_string(count) + " GPU" + (count == 1 ? "" : "s") + ": " +
         what + " needs two, so it was skipped";
}

// ------------------------------------------------------------------------------------------
// Bandwidth.

/// What peer_bandwidth_matrix measures.
struct peer_matrix_options {
  std::size_t bytes = std::size_t(256) << 20;  ///< per transfer and direction
  std::vector<peer_method> methods = {peer_method::copy_engine, peer_method::sm_read,
                                      peer_method::sm_write};
  bool bidirectional = true;  ///< also both directions at once
  bool diagonal = true;       ///< also each GPU with itself (local reference)
  int blocks_per_sm = 4, threads = 512;
  run_options run = run_options::fixed(2, 10);

  /// Throws cuprobe::error naming the field.
  void validate() const {
    const std::string w = "peer_bandwidth_matrix: ";
    require(bytes >= 4096 && bytes % 16 == 0 && bytes <= (std::size_t(1) << 34),
            w + "bytes is " + std::to_string(bytes) +
                "; it must be a multiple of 16 in 4 KiB .. 16 GiB");
    require(!methods.empty(), w + "methods must not be empty");
    peer_transfer_options o;
    o.blocks_per_sm = blocks_per_sm;
    o.threads = threads;
    o.run = run;
    o.validate(bytes);
  }
};

/// One cell of a bandwidth matrix.
struct peer_cell {
  int from = 0, to = 0;  ///< data flows from -> to (and back, when bidirectional)
  peer_method method = peer_method::copy_engine;  ///< who moved the bytes
  bool bidirectional = false;                     ///< both directions at once
  std::size_t bytes = 0;                          ///< per direction
  peer_transfer_result r;                         ///< the measurement and its check
};

/// A bandwidth matrix, or a sweep: the cells measured and the pairs skipped, with reasons.
struct peer_bandwidth_result {
  std::vector<peer_cell> cells;      ///< in the order measured
  std::vector<std::string> skipped;  ///< one sentence per pair (or experiment) not measured
  /// The cell of (from, to, method, bidirectional[, bytes]), nullptr when not measured.
  const peer_cell* find(int from, int to, peer_method m, bool bidir, std::size_t bytes = 0) const {
    for (const auto& c : cells)
      if (c.from == from && c.to == to && c.method == m && c.bidirectional == bidir &&
          (bytes == 0 || c.bytes == bytes))
        return &c;
    return nullptr;
  }
};

namespace detail {
/// Measures `methods` x directions on one pair's buffers and appends the cells; a failed check
/// throws.
inline void peer_pair_cells(const peer_node& node, peer_buffers& b, std::size_t bytes,
                            const std::vector<peer_method>& methods, bool uni, bool bidir,
                            const peer_matrix_options& o, peer_bandwidth_result& res) {
  const int a = b.device(0), c = b.device(1);
  for (peer_method m : methods)
    for (int k = 0; k < 2; ++k) {
      const bool both = k == 1;
      if ((both && !bidir) || (!both && !uni)) continue;
      peer_transfer_options t;
      t.method = m;
      t.bidirectional = both;
      t.bytes = bytes;
      t.blocks_per_sm = o.blocks_per_sm;
      t.threads = o.threads;
      t.run = o.run;
      t.nominal_bytes_per_s = node.nominal(a, c);
      t.link = node.link(a, c);
      peer_cell cell{a, c, m, both, bytes, measure_peer<>(b, 0, t)};
      cell.r.check.require();
      res.cells.push_back(std::move(cell));
    }
}
}  // namespace detail

/// The all-pairs matrix (see the file comment). `progress(label)` is called before each pair.
template <class Progress>
peer_bandwidth_result peer_bandwidth_matrix(const peer_node& node, const peer_matrix_options& o,
                                            Progress&& progress) {
  o.validate();
  peer_bandwidth_result res;
  if (const auto note = one_gpu_note(node.count(), "the all-pairs bandwidth matrix"); !note.empty())
    res.skipped.push_back(note);
  for (int a = 0; a < node.count(); ++a)
    for (int c = 0; c < node.count(); ++c) {
      if (a == c && !o.diagonal) continue;
      if (const auto why = node.refusal(a, c); !why.empty()) {
        if (a < c) res.skipped.push_back(why);
        continue;
      }
      progress("bandwidth " + std::to_string(a) + " -> " + std::to_string(c) + " " +
               fmt_bytes(double(o.bytes)));
      std::optional<peer_access> access;
      if (a != c) access.emplace(a, c);
      peer_buffers b(a, c, o.bytes);
      detail::peer_pair_cells(node, b, o.bytes, o.methods, true, o.bidirectional && a <= c, o, res);
    }
  return res;
}

/// What peer_bandwidth_sweep measures: one pair over message sizes.
struct peer_sweep_options {
  int from = 0, to = 1;  ///< the pair (data flows from -> to)
  /// 4 KiB .. 1 GiB in powers of 4 (copy_sizes).
  std::vector<std::size_t> sizes = copy_sizes(std::size_t(4) << 10, std::size_t(1) << 30);
  std::vector<peer_method> methods = {peer_method::copy_engine, peer_method::sm_read};
  bool bidirectional = false;  ///< also both directions at once
  int blocks_per_sm = 4, threads = 512;
  run_options run = run_options::fixed(2, 10);

  /// Throws cuprobe::error naming the field.
  void validate() const {
    const std::string w = "peer_bandwidth_sweep: ";
    require(from >= 0 && to >= 0, w + "from and to must be device ordinals");
    require(!sizes.empty(), w + "sizes must not be empty");
    for (std::size_t s : sizes)
      require(s >= 16 && s % 16 == 0 && s <= (std::size_t(1) << 34),
              w + "a size of " + std::to_string(s) +
                  " bytes is not a multiple of 16 in 16 B .. 16 GiB");
    peer_matrix_options m;
    m.methods = methods;
    m.blocks_per_sm = blocks_per_sm;
    m.threads = threads;
    m.run = run;
    m.validate();
  }
};

/// Bandwidth against message size for one pair; skipped (with the sentence) when the pair
/// cannot be measured.
template <class Progress>
peer_bandwidth_result peer_bandwidth_sweep(const peer_node& node, const peer_sweep_options& o,
                                           Progress&& progress) {
  o.validate();
  peer_bandwidth_result res;
  const bool exists = o.from < node.count() && o.to < node.count();
  std::string why = exists ? node.refusal(o.from, o.to) : "";
  if (!exists)
    why = node.count() < 2 ? one_gpu_note(node.count(), "the bandwidth sweep")
                           : peer_refusal(o.from, o.to, node.count(), false);
  if (!why.empty()) {
    res.skipped.push_back(why);
    return res;
  }
  std::optional<peer_access> access;
  if (o.from != o.to) access.emplace(o.from, o.to);
  std::size_t largest = 0;
  for (std::size_t s : o.sizes) largest = std::max(largest, s);
  peer_buffers b(o.from, o.to, largest);
  peer_matrix_options m;
  m.blocks_per_sm = o.blocks_per_sm;
  m.threads = o.threads;
  m.run = o.run;
  for (std::size_t s : o.sizes) {
    progress("sweep " + std::to_string(o.from) + " -> " + std::to_string(o.to) + " " +
             fmt_bytes(double(s)));
    detail::peer_pair_cells(node, b, s, o.methods, true, o.bidirectional, m, res);
  }
  return res;
}

// ------------------------------------------------------------------------------------------
// Latency.

/// What peer_latency_matrix measures.
struct peer_latency_options {
  std::vector<std::size_t> sizes;  ///< working sets; empty: owner L2 / 16 and 4 x owner L2
  bool diagonal = true;            ///< also each GPU's own memory (local reference)
  chase_latency_options chase = [] {
    chase_latency_options c;
    c.chase.max_steps = 1u << 16;  // a remote hop is slow: 2^16 hops per sample
    c.chase.min_steps = 1u << 12;
    c.name = "peer.chase";
    c.load = "ld.global.cg";
    return c;
  }();

  /// Throws cuprobe::error naming the field.
  void validate() const {
    for (std::size_t s : sizes)
      require(s >= 4096, "peer_latency_matrix: a working set of " + std::to_string(s) +
                             " bytes is below 4 KiB");
    chase.validate();
  }
};

/// One cell of the latency matrix: `reader`'s thread chases a ring in `owner`'s memory.
struct peer_latency_cell {
  int reader = 0, owner = 0;  ///< who chases, whose memory
  std::size_t bytes = 0;      ///< the ring's working set
  measurement m;              ///< cycles per hop (m.rate.cycles_per_op) and seconds per hop
  bool valid = false;         ///< the chase ended on the node a host walk reaches
};

/// The latency matrix and the pairs skipped.
struct peer_latency_result {
  std::vector<peer_latency_cell> cells;  ///< in the order measured
  std::vector<std::string> skipped;      ///< one sentence per pair not measured
};

namespace detail {
/// The node a chase from node 0 reaches after `hops` hops of `ring` (a host walk).
inline std::uint64_t chase_end_node(const gen::chase_ring& ring, std::uint64_t hops) {
  const auto next = gen::chase_successors(ring.nodes(), 1, ring.seed());
  std::uint64_t p = 0;
  for (std::uint64_t i = 0; i < hops; ++i) p = next[p];
  return p;
}
}  // namespace detail

/// The latency matrix (see the file comment).
template <class Progress>
peer_latency_result peer_latency_matrix(const peer_node& node, const peer_latency_options& o,
                                        Progress&& progress) {
  o.validate();
  peer_latency_result res;
  if (const auto note = one_gpu_note(node.count(), "the peer latency matrix"); !note.empty())
    res.skipped.push_back(note);
  for (int owner = 0; owner < node.count(); ++owner) {
    const std::size_t l2 = node.gpus[owner].info.l2_bytes;
    const std::vector<std::size_t> sizes =
        o.sizes.empty() ? std::vector<std::size_t>{l2 / 16, 4 * l2} : o.sizes;
    for (std::size_t bytes : sizes) {
      gen::chase_ring ring = peer_chase_ring(owner, bytes);
      const bool cold = bytes > l2;
      std::optional<l2_flush> flush;
      if (cold) {
        scoped_device on(owner);
        flush.emplace(l2);
      }
      for (int reader = 0; reader < node.count(); ++reader) {
        if (reader == owner && !o.diagonal) continue;
        if (const auto why = node.refusal(reader, owner); !why.empty()) {
          if (bytes == sizes.front()) res.skipped.push_back(why);
          continue;
        }
        progress("latency " + std::to_string(reader) + " reads " + std::to_string(owner) + " " +
                 fmt_bytes(double(ring.bytes())));
        std::optional<peer_access> access;
        if (reader != owner) access.emplace(reader, owner);
        chase_latency_options c = o.chase;
        const auto evict = [&] {
          if (!flush) return;
          scoped_device on(owner);
          (*flush)(nullptr);
          synchronize_device("suite::peer_latency_matrix (the owner's L2 flush)");
        };
        c.run.after_sample = [&](const launch_context&) { evict(); };
        c.run.flush_l2 = false;
        evict();
        scoped_device on(reader);
        gen::chase_result last;
        peer_latency_cell cell{reader, owner, ring.bytes(), {}, false};
        cell.m = chase_latency(ring, c, gen::chase_load_global_cg{}, &last);
        cell.valid =
            !last.last_nodes.empty() &&
            last.last_nodes[0] == detail::chase_end_node(ring, last.warmup_steps + last.steps);
        require(cell.valid, "peer_latency_matrix: the chase of device " + std::to_string(owner) +
                                "'s memory from device " + std::to_string(reader) +
                                " ended on the wrong node (the hops were not the ring's)");
        cell.m.with_param("reader", reader)
            .with_param("owner", owner)
            .with_param("link", node.link(reader, owner))
            .with_param("valid", cell.valid);
        res.cells.push_back(std::move(cell));
      }
    }
  }
  return res;
}

}  // namespace cuprobe::suite
