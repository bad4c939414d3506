// gpu tier, two GPUs or more: peer access enabled and disabled between GPU 0 and GPU 1; every
// transfer method between them in both directions, checked, and beside the NVLink nominal rate
// (the copy engine at no more than the nominal rate of the directions used); a chase of GPU 1's
// memory from GPU 0 ends where a host walk does and is slower than a local one; and, where CMake
// found NCCL, every collective on every GPU, checked, with bus bandwidth above zero. With fewer
// than two GPUs the program runs nothing and exits with the skip code (77), which CTest reports
// as Skipped, never as passed.
#define DOCTEST_CONFIG_IMPLEMENT
#include <cuprobe/testing/doctest.cuh>

#include <cuprobe_suite/collectives_nccl.cuh>
#include <cuprobe_suite/peer.cuh>

#include <cstdio>
#include <string>

namespace ex = cuprobe::suite;
using cuprobe::peer_method;

namespace {
void nothing(const std::string&) {}
}  // namespace

TEST_CASE("peer access between GPU 0 and GPU 1: enabled, used, disabled") {
  REQUIRE(cuprobe::can_access_peer(0, 1));
  REQUIRE(cuprobe::can_access_peer(1, 0));
  cuprobe::enable_peer_access(0, 1);
  cuprobe::enable_peer_access(0, 1);  // already enabled: nothing changes
  CHECK(cuprobe::disable_peer_access(0, 1));
  CHECK_FALSE(cuprobe::disable_peer_access(0, 1));  // not enabled any more
  { cuprobe::peer_access both(0, 1); }
}

TEST_CASE("transfers between GPU 0 and GPU 1: every method, both directions, checked") {
  const auto node = ex::query_peer_node();
  cuprobe::peer_access both(0, 1);
  cuprobe::peer_buffers b(0, 1, std::size_t(64) << 20);
  for (peer_method m : {peer_method::copy_engine, peer_method::sm_read, peer_method::sm_write,
                        peer_method::sm_copy})
    for (int from : {0, 1})
      for (bool bidir : {false, true}) {
        cuprobe::peer_transfer_options o;
        o.method = m;
        o.bidirectional = bidir;
        o.run = cuprobe::run_options::fixed(1, 3);
        o.nominal_bytes_per_s = node.nominal(0, 1);
        o.link = node.link(0, 1);
        const auto r = cuprobe::measure_peer<>(b, from, o);
        MESSAGE(std::string(cuprobe::to_string(m))
                << " from " << from << (bidir ? " both" : " one") << ": " << r.m.gb_per_s()
                << " GB/s, " << r.check.message);
        CHECK(r.check.ok);
        if (r.fraction_of_link && m == peer_method::copy_engine)
          CUPROBE_TIMING_CHECK(*r.fraction_of_link <= 1.0);
      }
}

TEST_CASE("a chase of GPU 1's memory from GPU 0 ends where a host walk does, slower than local") {
  cuprobe::peer_access both(0, 1);
  const auto ring = cuprobe::peer_chase_ring(1, std::size_t(4) << 20);
  ex::chase_latency_options o;
  o.chase.min_steps = 1u << 10;
  o.chase.max_steps = 1u << 12;
  cuprobe::gen::chase_result last;
  cuprobe::measurement remote, local;
  {
    cuprobe::scoped_device on(0);
    remote = ex::chase_latency(ring, o, cuprobe::gen::chase_load_global_cg{}, &last);
  }
  CHECK(last.last_nodes.at(0) == ex::detail::chase_end_node(ring, last.warmup_steps + last.steps));
  {
    cuprobe::scoped_device on(1);
    local = ex::chase_latency(ring, o, cuprobe::gen::chase_load_global_cg{}, &last);
  }
  MESSAGE("remote " << remote.seconds() * 1e9 << " ns, local " << local.seconds() * 1e9 << " ns");
  CUPROBE_TIMING_CHECK(remote.seconds() > local.seconds());
}

TEST_CASE("the all-pairs matrix measures every pair that can map the other") {
  const auto node = ex::query_peer_node();
  ex::peer_matrix_options o;
  o.bytes = std::size_t(4) << 20;
  o.run = cuprobe::run_options::fixed(1, 2);
  o.methods = {peer_method::copy_engine};
  const auto bw = ex::peer_bandwidth_matrix(node, o, nothing);
  for (int a = 0; a < node.count(); ++a)
    for (int c = 0; c < node.count(); ++c)
      if (node.refusal(a, c).empty()) CHECK(bw.find(a, c, peer_method::copy_engine, false));
}

#if defined(CUPROBE_HAVE_NCCL)
TEST_CASE("NCCL on every GPU: every collective checked, bus bandwidth above zero") {
  ex::collective_options o;
  o.sizes = {std::size_t(1) << 20, std::size_t(64) << 20};
  o.run = cuprobe::run_options::fixed(2, 3);
  const auto r = ex::run_collectives(o, nothing);
  CHECK(r.points.size() == 10);
  for (const auto& p : r.points) {
    CHECK(p.check.empty());
    CHECK(p.busbw_gbps > 0);
  }
}
#endif

int main(int argc, char** argv) {
  const int n = cuprobe::device_count();
  if (n < 2) {
    std::fprintf(stderr,
                 "cuprobe: SKIPPING the two-GPU tests in this program, not passing them: this "
                 "machine shows %d GPU%s and they need two\n",
                 n, n == 1 ? "" : "s");
    return cuprobe::testing::skip_exit_code;
  }
  doctest::Context ctx;
  ctx.applyCommandLine(argc, argv);
  return ctx.run();
}
