// gpu tier: what one GPU can show of the multi-GPU blocks. A device_buffer on device 0 lives
// and is freed there, from whatever device is current; peer access with the same device twice
// or a device that does not exist is refused with peer_refusal's sentence; the transfers of
// multi/peer_transfer.cuh within device 0's memory (copy engine, SM loads, stores and copies,
// one direction and both) are timed and their outputs checked; a chase ring built by
// peer_chase_ring on device 0 ends where a host walk does; the node record and NVLink state
// read without error; the peer experiments run the diagonal and name what they skipped; and,
// where CMake found NCCL, an all-reduce (and every other collective) on one rank is checked.
// The cases that need two GPUs are tests/gpu/multi_gpu_pairs.cu (skipped with fewer).
#define CUPROBE_TESTING_MAIN
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe/report/node.cuh>
#include <cuprobe_suite/collectives_nccl.cuh>
#include <cuprobe_suite/peer.cuh>

#include <string>

namespace ex = cuprobe::suite;
using cuprobe::peer_method;

namespace {
void nothing(const std::string&) {}
}  // namespace

CUPROBE_GPU_TEST_CASE("device_buffer on device 0: remembers its device, fills and frees there") {
  cuprobe::device_buffer<std::uint32_t> b(1024, cuprobe::on_device{0});
  CHECK(b.device() == 0);
  b.fill(7u);
  const auto h = b.to_host();
  CHECK(h.front() == 7u);
  CHECK(h.back() == 7u);
  cuprobe::device_buffer<std::uint32_t> moved = std::move(b);
  CHECK(moved.device() == 0);
  CHECK(b.empty());
  {
    cuprobe::scoped_device on(0);  // the current device is restored after the scope
    int now = -1;
    REQUIRE(cudaGetDevice(&now) == cudaSuccess);
    CHECK(now == 0);
  }
  CHECK_THROWS_WITH_AS(
      cuprobe::device_buffer<float>(4, cuprobe::on_device{cuprobe::device_count()}),
      doctest::Contains("there is no device"), cuprobe::error);
}

CUPROBE_GPU_TEST_CASE("peer access: the same device and a missing device are refused") {
  CHECK_FALSE(cuprobe::can_access_peer(0, 0));
  const int n = cuprobe::device_count();
  CHECK_THROWS_WITH_AS(cuprobe::enable_peer_access(0, 0),
                       doctest::Contains("a device reaches its own memory without peer access"),
                       cuprobe::error);
  CHECK_THROWS_WITH_AS(cuprobe::enable_peer_access(0, n),
                       doctest::Contains(("there is no device " + std::to_string(n)).c_str()),
                       cuprobe::error);
  CHECK_THROWS_WITH_AS(cuprobe::peer_access(0, 0), doctest::Contains("two different devices"),
                       cuprobe::error);
  CHECK_FALSE(cuprobe::disable_peer_access(0, 0));
}

CUPROBE_GPU_TEST_CASE("transfers within device 0: every method, both directions, checked") {
  cuprobe::peer_buffers b(0, 0, std::size_t(4) << 20);
  for (peer_method m : {peer_method::copy_engine, peer_method::sm_read, peer_method::sm_write,
                        peer_method::sm_copy})
    for (bool both : {false, true}) {
      cuprobe::peer_transfer_options o;
      o.method = m;
      o.bidirectional = both;
      o.run = cuprobe::run_options::fixed(1, 3);
      o.nominal_bytes_per_s = 1e9;  // far below a local copy: the flag must fire
      o.link = "a made-up 1 GB/s link";
      const auto r = cuprobe::measure_peer<>(b, 0, o);
      MESSAGE(std::string(cuprobe::to_string(m)) << (both ? " both" : " one") << ": "
                                                 << r.m.gb_per_s() << " GB/s, " << r.check.message);
      CHECK(r.check.ok);
      CHECK(r.m.gb_per_s() > 0);
      REQUIRE(r.fraction_of_link);
      CHECK(r.m.params.at("method").as_string() == cuprobe::to_string(m));
      bool flagged = false;
      for (const auto& f : r.m.flags)
        flagged = flagged || f.code == cuprobe::flag_code::above_bus_rate;
      CUPROBE_TIMING_CHECK(flagged);
    }
  // A transfer of part of the buffers checks only that part.
  cuprobe::peer_transfer_options o;
  o.bytes = 4096;
  o.method = peer_method::sm_copy;
  CHECK(cuprobe::measure_peer<cuprobe::ptx::cache::cv>(b, 1, o).check.ok);
}

CUPROBE_GPU_TEST_CASE("a chase ring on device 0 (peer_chase_ring) ends where a host walk does") {
  const auto ring = cuprobe::peer_chase_ring(0, std::size_t(1) << 20);
  ex::chase_latency_options o;
  o.chase.min_steps = 1u << 10;
  o.chase.max_steps = 1u << 12;
  cuprobe::gen::chase_result last;
  const auto m = ex::chase_latency(ring, o, cuprobe::gen::chase_load_global_cg{}, &last);
  REQUIRE(!last.last_nodes.empty());
  CHECK(last.last_nodes[0] == ex::detail::chase_end_node(ring, last.warmup_steps + last.steps));
  CHECK(m.cycles_per_op() > 0);
}

CUPROBE_GPU_TEST_CASE("the node record: every GPU, its NVLinks read without error") {
  const auto node = cuprobe::query_node();
  REQUIRE(int(node.size()) == cuprobe::device_count());
  for (const auto& g : node) {
    MESSAGE("GPU " << g.info.ordinal << " " << g.info.name << ": " << g.nvlink.name << " "
                   << g.nvlink.why_unknown);
    CHECK(g.nvlink.active <= g.nvlink.links);
    CHECK((g.nvlink.nominal_bytes_per_s.has_value() == g.nvlink.why_unknown.empty()));
  }
  const auto j = cuprobe::node_json(node);
  CHECK(j.size() == node.size());
}

CUPROBE_GPU_TEST_CASE("peer experiments on this node: the diagonal runs, the rest is named") {
  const auto node = ex::query_peer_node();
  ex::peer_matrix_options o;
  o.bytes = std::size_t(1) << 20;
  o.run = cuprobe::run_options::fixed(1, 2);
  o.methods = {peer_method::copy_engine, peer_method::sm_read};
  const auto bw = ex::peer_bandwidth_matrix(node, o, nothing);
  for (int d = 0; d < node.count(); ++d)
    CHECK(bw.find(d, d, peer_method::sm_read, false) != nullptr);
  if (node.count() == 1) {
    CHECK(bw.cells.size() == 4);  // 2 methods x (one direction, both)
    REQUIRE(!bw.skipped.empty());
    CHECK(bw.skipped[0].find("this node shows 1 GPU") == 0);
    const auto sw = ex::peer_bandwidth_sweep(node, {}, nothing);
    CHECK(sw.cells.empty());
    REQUIRE(sw.skipped.size() == 1);
  }
  ex::peer_latency_options l;
  l.sizes = {std::size_t(256) << 10};
  l.chase.chase.min_steps = 1u << 10;
  l.chase.chase.max_steps = 1u << 11;
  const auto lat = ex::peer_latency_matrix(node, l, nothing);
  CHECK(int(lat.cells.size()) >= node.count());
  for (const auto& c : lat.cells) CHECK(c.valid);
}

#if defined(CUPROBE_HAVE_NCCL)
CUPROBE_GPU_TEST_CASE("NCCL on one rank: every collective checked, all-reduce first") {
  ex::collective_options o;
  o.devices = {0};
  o.sizes = {8, 4096, std::size_t(1) << 20};
  o.run = cuprobe::run_options::fixed(1, 3);
  o.ops = {ex::collective::all_reduce};
  auto r = ex::run_collectives(o, nothing);
  REQUIRE(r.points.size() == 3);
  for (const auto& p : r.points) {
    CHECK(p.check.empty());
    CHECK(p.busbw_gbps == 0.0);  // one rank: (n-1)/n = 0
    CHECK(p.m.seconds() > 0);
  }
  MESSAGE("NCCL " << r.nccl_version);
  o.ops = ex::all_collectives();
  o.sizes = {std::size_t(1) << 20};
  r = ex::run_collectives(o, nothing);
  CHECK(r.points.size() == 5);
  for (const auto& p : r.points)
    CHECK(p.m.params.at("threads").as_string() == "one per rank");  // the default: -t N
  o.thread_per_rank = false;  // one thread issues every rank's, in one group (-g N)
  r = ex::run_collectives(o, nothing);
  CHECK(r.points.size() == 5);
  for (const auto& p : r.points) {
    CHECK(p.check.empty());
    CHECK(p.m.params.at("threads").as_string() == "one for all ranks");
  }
  const char* nvls = std::getenv("NCCL_NVLS_ENABLE");
  REQUIRE(nvls);  // set by nccl_ranks before the communicators were made (unless already set)
}
#else
// Reported by doctest as skipped, never as passed: this build has no NCCL.
TEST_CASE("NCCL on one rank: SKIPPED, CMake did not find NCCL for this build" *
          doctest::test_suite(cuprobe::testing::gpu_suite) * doctest::skip()) {
  CHECK(ex::have_nccl);
}
#endif
