// host tier: the multi-GPU blocks and experiments without a GPU. The refusal sentences of peer
// access (bad ordinal, the same device twice, no peer path); the NVLink state made from NVML's
// readings (nominal rate, version names, error sums, the pair's rate); nccl-tests' bus factors,
// buffer shapes and size list; the collectives' exact inputs and expected outputs; every bad
// option of the peer and collective experiments refused with a sentence before any CUDA call.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>

#include <cuprobe_suite/collectives.cuh>
#include <cuprobe_suite/peer.cuh>
#include <cuprobe_suite/rank_threads.cuh>

#include <atomic>
#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace ex = cuprobe::suite;
using doctest::Contains;
using ex::collective;

TEST_CASE("peer_refusal: one sentence per reason, empty when the pair can be enabled") {
  CHECK(cuprobe::peer_refusal(0, 1, 2, true).empty());
  CHECK(cuprobe::peer_refusal(0, 0, 1, true) ==
        "peer access from device 0 to device 0: a device reaches its own memory without peer "
        "access; peer access needs two different devices (this process sees 1 GPU, ordinals 0 "
        ".. 0)");
  CHECK(cuprobe::peer_refusal(0, 3, 2, true) ==
        "peer access from device 0 to device 3: there is no device 3 (this process sees 2 GPUs, "
        "ordinals 0 .. 1)");
  CHECK(cuprobe::peer_refusal(-1, 0, 0, true) ==
        "peer access from device -1 to device 0: there is no device -1 (this process sees 0 "
        "GPUs)");
  const std::string no_path = cuprobe::peer_refusal(1, 0, 2, false);
  CHECK(no_path.find("cudaDeviceCanAccessPeer says device 1 cannot map device 0's memory") !=
        std::string::npos);
  // A bad ordinal is named before the same-device rule.
  CHECK(cuprobe::peer_refusal(4, 4, 2, false).find("there is no device 4") != std::string::npos);
}

TEST_CASE("can_access_peer is false, never an exception, for impossible pairs") {
  CHECK_FALSE(cuprobe::can_access_peer(0, 0));
  CHECK_FALSE(cuprobe::can_access_peer(-1, 0));
  CHECK_FALSE(cuprobe::can_access_peer(0, 4096));
}

TEST_CASE("device_buffer on a device that does not exist is refused with a sentence") {
  CHECK_THROWS_WITH_AS(cuprobe::device_buffer<float>(16, cuprobe::on_device{4096}),
                       Contains("device_buffer: there is no device 4096"), cuprobe::error);
}

namespace {
cuprobe::nvml_nvlink links(unsigned n, unsigned active, double mbps) {
  cuprobe::nvml_nvlink r;
  r.links = n;
  for (unsigned i = 0; i < n; ++i) {
    cuprobe::nvml_nvlink_link l;
    l.index = i;
    l.active = i < active;
    l.version = 6;
    l.mbytes_per_s = mbps;
    l.replay = 1;
    l.crc_flit = 2;
    r.per_link.push_back(l);
  }
  return r;
}
}  // namespace

TEST_CASE("nvlink_state: active links x the slowest link's speed, one direction") {
  const auto s = cuprobe::make_nvlink_state(links(18, 18, 25000));
  CHECK(s.links == 18);
  CHECK(s.active == 18);
  CHECK(s.name == "NVLink 4.0 (18 of 18 links active)");
  REQUIRE(s.nominal_bytes_per_s);
  CHECK(*s.nominal_bytes_per_s == doctest::Approx(18 * 25000e6));
  CHECK(*s.nominal(2) == doctest::Approx(2 * 18 * 25000e6));
  CHECK(*s.replay == 18);
  CHECK(*s.crc_flit == 36);
  CHECK_FALSE(s.recovery);
  CHECK(s.formula.find("18 active links x 25000 MB/s") != std::string::npos);
  CHECK(s.why_unknown.empty());

  auto slow = links(4, 3, 20000);
  slow.per_link[1].mbytes_per_s = 10000;  // the slowest active link sets the rate
  const auto t = cuprobe::make_nvlink_state(slow);
  CHECK(t.active == 3);
  CHECK(*t.nominal_bytes_per_s == doctest::Approx(3 * 10000e6));
  CHECK(*cuprobe::pair_nominal_bytes_per_s(s, t) == doctest::Approx(3 * 10000e6));
}

TEST_CASE("nvlink_state: no links, none active, no speed, the common speed") {
  const auto none = cuprobe::make_nvlink_state({});
  CHECK(none.name == "no NVLink");
  CHECK_FALSE(none.nominal_bytes_per_s);
  CHECK(none.why_unknown == "NVML reports no NVLink on this GPU");
  CHECK_FALSE(cuprobe::pair_nominal_bytes_per_s(none, none));

  const auto idle = cuprobe::make_nvlink_state(links(18, 0, 25000));
  CHECK(idle.why_unknown == "no NVLink is active");
  CHECK(idle.name == "NVLink (0 of 18 links active)");

  auto common = links(2, 2, 0);
  for (auto& l : common.per_link) l.mbytes_per_s.reset();
  CHECK(cuprobe::make_nvlink_state(common).why_unknown == "NVML reported no NVLink speed");
  common.common_mbytes_per_s = 50000;
  const auto c = cuprobe::make_nvlink_state(common);
  CHECK(*c.nominal_bytes_per_s == doctest::Approx(2 * 50000e6));
  CHECK(c.formula.find("NVML_FI_DEV_NVLINK_SPEED_MBPS_COMMON") != std::string::npos);
  CHECK(cuprobe::to_json(c).find("nominal_bytes_per_s") != nullptr);
}

TEST_CASE("nvlink_version_name follows nvmlNvlinkVersion_t") {
  CHECK(cuprobe::nvlink_version_name(1) == "NVLink 1.0");
  CHECK(cuprobe::nvlink_version_name(3) == "NVLink 2.2");
  CHECK(cuprobe::nvlink_version_name(6) == "NVLink 4.0");
  CHECK(cuprobe::nvlink_version_name(7) == "NVLink 5.0");
  CHECK(cuprobe::nvlink_version_name(9) == "NVLink (version code 9)");
}

TEST_CASE("bus_factor: nccl-tests' factors") {
  CHECK(ex::bus_factor(collective::all_reduce, 8) == doctest::Approx(2.0 * 7 / 8));
  CHECK(ex::bus_factor(collective::all_reduce, 2) == doctest::Approx(1.0));
  CHECK(ex::bus_factor(collective::all_gather, 8) == doctest::Approx(7.0 / 8));
  CHECK(ex::bus_factor(collective::reduce_scatter, 4) == doctest::Approx(3.0 / 4));
  CHECK(ex::bus_factor(collective::all_to_all, 8) == doctest::Approx(7.0 / 8));
  CHECK(ex::bus_factor(collective::broadcast, 8) == 1.0);
  for (collective c : ex::all_collectives())
    if (c != collective::broadcast) CHECK(ex::bus_factor(c, 1) == 0.0);  // one rank: no link
  static_assert(ex::bus_factor(collective::broadcast, 1) == 1.0);
}

TEST_CASE("collective shapes: the larger buffer is the size, whole elements per rank") {
  const auto ar = ex::collective_shape_of(collective::all_reduce, 1024, 8);
  CHECK((ar.send_count == 256 && ar.recv_count == 256 && ar.bytes == 1024));
  const auto ag = ex::collective_shape_of(collective::all_gather, 1024, 8);
  CHECK((ag.send_count == 32 && ag.recv_count == 256 && ag.bytes == 1024));
  const auto rs = ex::collective_shape_of(collective::reduce_scatter, 1024, 8);
  CHECK((rs.send_count == 256 && rs.recv_count == 32 && rs.bytes == 1024));
  const auto a2a = ex::collective_shape_of(collective::all_to_all, 1000, 8);
  CHECK((a2a.send_count == 248 && a2a.recv_count == 248 && a2a.bytes == 992));
  const auto tiny = ex::collective_shape_of(collective::all_gather, 8, 8);  // 2 floats, 8 ranks
  CHECK(tiny.bytes == 0);
  CHECK(ex::collective_shape_of(collective::broadcast, 8, 8).bytes == 8);
  CHECK_THROWS_WITH_AS(ex::collective_shape_of(collective::broadcast, 8, 0),
                       Contains("ranks must be at least 1"), cuprobe::error);
}

TEST_CASE("collective sizes: 8 B .. 4 GiB doubling by default") {
  const auto s = ex::collective_sizes();
  REQUIRE(s.size() == 30);
  CHECK(s.front() == 8);
  CHECK(s.back() == (std::size_t(4) << 30));
  CHECK(ex::collective_sizes(8, 64, 4) == std::vector<std::size_t>{8, 32});
  CHECK_THROWS_WITH_AS(ex::collective_sizes(2, 8), Contains("4 <= min_bytes"), cuprobe::error);
}

TEST_CASE("collective inputs and expected outputs (the host twin of the device check)") {
  CHECK(ex::collective_input(0, 0) == 1.0f);
  CHECK(ex::collective_input(2, 1021) == 7.0f);
  const int n = 4;
  const std::size_t i = 37;
  float sum = 0;
  for (int q = 0; q < n; ++q) sum += ex::collective_input(q, i);
  CHECK(ex::collective_expected(collective::all_reduce, n, 1, 0, 64, 64, i) == sum);
  CHECK(ex::collective_expected(collective::broadcast, n, 3, 2, 64, 64, i) ==
        ex::collective_input(2, i));
  // all-gather: element i of the output is rank i / send's element i % send.
  CHECK(ex::collective_expected(collective::all_gather, n, 0, 0, 16, 64, 37) ==
        ex::collective_input(2, 5));
  // reduce-scatter: rank 3 holds the sums of elements 3 x 16 + i.
  float rs = 0;
  for (int q = 0; q < n; ++q) rs += ex::collective_input(q, 48 + 5);
  CHECK(ex::collective_expected(collective::reduce_scatter, n, 3, 0, 64, 16, 5) == rs);
  // all-to-all: chunk = 16; rank 1's element 37 came from rank 2's chunk 1, element 5.
  CHECK(ex::collective_expected(collective::all_to_all, n, 1, 0, 64, 64, 37) ==
        ex::collective_input(2, 16 + 5));
}

TEST_CASE("collective options: each refusal names the field") {
  ex::collective_options o;
  CHECK_NOTHROW(o.validate(8));
  CHECK_THROWS_WITH_AS(o.validate(0), Contains("there is no GPU"), cuprobe::error);
  o.root = 8;
  CHECK_THROWS_WITH_AS(o.validate(8), Contains("root is 8; it must be a rank, 0 .. 7"),
                       cuprobe::error);
  o = {};
  o.devices = {0, 1, 0};
  CHECK_THROWS_WITH_AS(o.validate(2), Contains("device 0 is listed twice"), cuprobe::error);
  o.devices = {0, 5};
  CHECK_THROWS_WITH_AS(o.validate(2), Contains("device 5 does not exist"), cuprobe::error);
  o = {};
  o.ops.clear();
  CHECK_THROWS_WITH_AS(o.validate(1), Contains("ops must not be empty"), cuprobe::error);
  o = {};
  o.sizes = {2};
  CHECK_THROWS_WITH_AS(o.validate(1), Contains("a size of 2 bytes"), cuprobe::error);
  o = {};
  o.run.graph = true;
  CHECK_THROWS_WITH_AS(o.validate(1), Contains("a sample is one collective"), cuprobe::error);
  CHECK(ex::collective_named("all_to_all", "x") == collective::all_to_all);
  CHECK_THROWS_WITH_AS(ex::collective_named("allreduce", "collectives: --ops"),
                       Contains("collectives: --ops: unknown collective 'allreduce'"),
                       cuprobe::error);
}

TEST_CASE("peer options: each refusal names the field") {
  cuprobe::peer_transfer_options t;
  CHECK_NOTHROW(t.validate(1 << 20));
  t.bytes = 100;
  CHECK_THROWS_WITH_AS(t.validate(1 << 20), Contains("bytes is 100; it must be a multiple of 16"),
                       cuprobe::error);
  t.bytes = 2 << 20;
  CHECK_THROWS_WITH_AS(t.validate(1 << 20), Contains("(the buffers' size)"), cuprobe::error);
  t = {};
  t.threads = 100;
  CHECK_THROWS_WITH_AS(t.validate(1 << 20), Contains("threads is outside"), cuprobe::error);
  t = {};
  t.run.mode = cuprobe::loop_mode::in_kernel;
  CHECK_THROWS_WITH_AS(t.validate(1 << 20), Contains("run.mode must be launches"), cuprobe::error);

  ex::peer_matrix_options m;
  CHECK_NOTHROW(m.validate());
  m.bytes = 1000;
  CHECK_THROWS_WITH_AS(m.validate(), Contains("peer_bandwidth_matrix: bytes is 1000"),
                       cuprobe::error);
  m = {};
  m.methods.clear();
  CHECK_THROWS_WITH_AS(m.validate(), Contains("methods must not be empty"), cuprobe::error);

  ex::peer_sweep_options s;
  CHECK_NOTHROW(s.validate());
  CHECK(s.sizes.front() == 4096);
  CHECK(s.sizes.back() == (std::size_t(1) << 30));
  s.sizes = {24};
  CHECK_THROWS_WITH_AS(s.validate(), Contains("a size of 24 bytes"), cuprobe::error);
  s = {};
  s.from = -1;
  CHECK_THROWS_WITH_AS(s.validate(), Contains("from and to must be device ordinals"),
                       cuprobe::error);

  ex::peer_latency_options l;
  CHECK_NOTHROW(l.validate());
  l.sizes = {1024};
  CHECK_THROWS_WITH_AS(l.validate(), Contains("a working set of 1024 bytes is below 4 KiB"),
                       cuprobe::error);
}

TEST_CASE("one GPU: the experiments say what they skipped") {
  CHECK(ex::one_gpu_note(1, "the all-pairs bandwidth matrix") ==
        "this node shows 1 GPU: the all-pairs bandwidth matrix needs two, so it was skipped");
  CHECK(ex::one_gpu_note(2, "x").empty());
  ex::peer_node empty;  // no GPU: nothing measured, the reason given, no CUDA call
  const auto bw = ex::peer_bandwidth_matrix(empty, {}, [](const std::string&) {});
  CHECK(bw.cells.empty());
  REQUIRE(bw.skipped.size() == 1);
  CHECK(bw.skipped[0].find("this node shows 0 GPUs") == 0);
  const auto sw = ex::peer_bandwidth_sweep(empty, {}, [](const std::string&) {});
  REQUIRE(sw.skipped.size() == 1);
  CHECK(sw.skipped[0].find("the bandwidth sweep needs two") != std::string::npos);
  CHECK(ex::peer_latency_matrix(empty, {}, [](const std::string&) {}).cells.empty());
}

TEST_CASE("peer_method names") {
  CHECK(std::string(cuprobe::to_string(cuprobe::peer_method::copy_engine)) == "copy_engine");
  CHECK(std::string(cuprobe::to_string(cuprobe::peer_method::sm_read)) == "sm_read");
  CHECK(std::string(cuprobe::to_string(cuprobe::peer_method::sm_write)) == "sm_write");
  CHECK(std::string(cuprobe::to_string(cuprobe::peer_method::sm_copy)) == "sm_copy");
}

TEST_CASE("rank_threads: every rank runs every step once, the steps in order") {
  for (int n : {1, 2, 8}) {
    CAPTURE(n);
    cuprobe::suite::rank_threads threads(n);
    CHECK(threads.size() == n);
    std::vector<int> last(std::size_t(n), 0);  // each rank writes its own slot
    std::atomic<int> calls{0};
    for (int step = 1; step <= 300; ++step) {
      threads.run(
          [&, step](int r) {
            if (last[std::size_t(r)] == step - 1) last[std::size_t(r)] = step;  // in order
            calls.fetch_add(1);
          },
          10);
      for (int r = 0; r < n; ++r) REQUIRE(last[std::size_t(r)] == step);
    }
    CHECK(calls.load() == 300 * n);
    CHECK_FALSE(threads.stuck());
  }
  CHECK_THROWS_WITH_AS(cuprobe::suite::rank_threads(0), Contains("ranks must be 1 .. 1024, got 0"),
                       cuprobe::error);
}

TEST_CASE("rank_threads: a rank's exception is rethrown once every rank has finished the step") {
  cuprobe::suite::rank_threads threads(4);
  std::vector<int> done(4, 0);
  CHECK_THROWS_WITH_AS(threads.run(
                           [&](int r) {
                             if (r == 1) throw cuprobe::error("rank 1 failed");
                             std::this_thread::sleep_for(std::chrono::milliseconds(20));
                             done[std::size_t(r)] = 1;
                           },
                           10),
                       "cuprobe: rank 1 failed", cuprobe::error);
  CHECK(done == std::vector<int>{1, 0, 1, 1});  // the others finished before the rethrow
  CHECK_FALSE(threads.stuck());
  threads.run([&](int r) { done[std::size_t(r)] = 2; }, 10);  // the next step runs
  CHECK(done == std::vector<int>{2, 2, 2, 2});
}

TEST_CASE("rank_threads: a rank that does not return ends the step with a sentence") {
  auto release = std::make_shared<std::atomic<bool>>(false);
  const double t0 = cuprobe::monotonic_s();
  {
    cuprobe::suite::rank_threads threads(4);
    threads.run([](int) {}, 10);
    CHECK_THROWS_WITH_AS(threads.run(
                             [release](int r) {
                               while (r == 2 && !release->load())
                                 std::this_thread::sleep_for(std::chrono::milliseconds(1));
                             },
                             0.2),
                         "cuprobe: rank_threads: 1 of 4 ranks' threads did not finish their step "
                         "within "
                         "0.200 s",
                         cuprobe::error);
    CHECK(threads.stuck());
    CHECK_THROWS_WITH_AS(threads.run([](int) {}, 10), Contains("cannot run again"), cuprobe::error);
  }  // the destructor joins the three idle threads and leaves rank 2's behind
  CHECK(cuprobe::monotonic_s() - t0 < 5);
  release->store(true);  // rank 2's thread returns, into the state it still holds
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
}
