// SASS probes for ptx/mbarrier.cuh (sm_90a): one wrapper per extern "C" kernel, so that
// tests/areas/hopper_async.cmake can pin the instruction each becomes. Compiled twice: with
// -DNDEBUG (release: no checks, plain try_wait loop) and with -DCUPROBE_DEBUG (bounded wait).
#include <cuprobe/ptx/mbarrier.cuh>

#include <cstdint>

namespace mb = cuprobe::ptx::mbarrier;
namespace p = cuprobe::ptx;

#define PROBE(NAME) extern "C" __global__ void NAME(unsigned* out, unsigned n)

PROBE(probe_mbar_init) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  mb::init(&bar, n);
  out[0] = 1;
}
PROBE(probe_mbar_fence_init) {
  out[0] = 1;
  mb::fence_init();
  out[1] = n;
}
PROBE(probe_mbar_inval) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  out[0] = 1;
  mb::inval(&bar);
  out[1] = n;
}
PROBE(probe_mbar_arrive_cta) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  (void)mb::arrive(&bar);  // the state token is dropped: the arrive must stay
  out[0] = n;
}
PROBE(probe_mbar_arrive_cluster) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  (void)mb::arrive<p::scope::cluster>(&bar);
  out[0] = n;
}
PROBE(probe_mbar_arrive_count) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  (void)mb::arrive(&bar, n);
  out[0] = n;
}
PROBE(probe_mbar_arrive_token) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  const std::uint64_t t = mb::arrive(&bar);
  out[0] = static_cast<unsigned>(t);
  out[1] = static_cast<unsigned>(t >> 32);
}
PROBE(probe_mbar_arrive_expect_tx) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  (void)mb::arrive_expect_tx(&bar, n);
  out[0] = n;
}
PROBE(probe_mbar_expect_tx) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  mb::expect_tx(&bar, n);
  out[0] = n;
}
PROBE(probe_mbar_arrive_remote) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  mb::arrive_remote(&bar, n);
  out[0] = n;
}
PROBE(probe_mbar_try_wait) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  out[0] = mb::try_wait(&bar, n & 1);
}
PROBE(probe_mbar_try_wait_cluster) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  out[0] = mb::try_wait<p::scope::cluster>(&bar, n & 1);
}
PROBE(probe_mbar_try_wait_hint) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  out[0] = mb::try_wait(&bar, n & 1, 1000u);
}
PROBE(probe_mbar_test_wait) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  out[0] = mb::test_wait(&bar, n & 1);
}
PROBE(probe_mbar_wait) {
  __shared__ cuprobe::ptx::mbarrier::object bar;
  mb::wait(&bar, n & 1);
  out[0] = 1;
}
