// SASS probes for ptx/elect.cuh, ptx/setmaxnreg.cuh, ptx/cluster.cuh and the proxy fences of
// ptx/fence.cuh (sm_90a); tests/areas/hopper_async.cmake pins the instruction of each.
#include <cuprobe/ptx/cluster.cuh>
#include <cuprobe/ptx/elect.cuh>
#include <cuprobe/ptx/fence.cuh>
#include <cuprobe/ptx/setmaxnreg.cuh>

#include <cstdint>

namespace p = cuprobe::ptx;
namespace cl = cuprobe::ptx::cluster;

#define PROBE(NAME) extern "C" __global__ void NAME(unsigned* out, unsigned n)

PROBE(probe_elect_sync) {
  const p::elect_result e = p::elect_sync(n | 1u);
  out[threadIdx.x] = e.leader_lane + (e.is_leader ? 100u : 0u);
}
PROBE(probe_elect_one_sync) {
  if (p::elect_one_sync()) out[0] = n;
}
// setmaxnreg needs the entry register count: __launch_bounds__(threads, 1).
extern "C" __global__ void __launch_bounds__(384, 1) probe_setmaxnreg(unsigned* out, unsigned n) {
  if (threadIdx.x / 128 == 0) {
    p::setmaxnreg_dec<40>();
    out[threadIdx.x] = n;
  } else {
    p::setmaxnreg_inc<232>();
    out[threadIdx.x] = n + 1;
  }
}
PROBE(probe_cluster_sregs) {
  const dim3 a = cl::ctaid(), b = cl::nctaid(), c = cl::clusterid(), d = cl::nclusterid();
  out[0] = cl::ctarank();
  out[1] = cl::nctarank();
  out[2] = a.x + a.y + a.z;
  out[3] = b.x + b.y + b.z;
  out[4] = c.x + c.y + c.z;
  out[5] = d.x + d.y + d.z;
  out[6] = cl::is_explicit();
}
PROBE(probe_cluster_map) {
  __shared__ unsigned x[32];
  x[threadIdx.x % 32] = n;
  cl::sync();
  out[0] = *cl::map(&x[threadIdx.x % 32], n);  // generic load through the shared window
  out[1] = cl::map_shared(&x[0], n);
  out[2] = cl::rank_of(cl::map(&x[0], n));
  out[3] = cl::is_dsm(reinterpret_cast<const unsigned*>(out[4]));
}
PROBE(probe_cluster_ld_st) {
  __shared__ alignas(16) unsigned x[64];
  const std::uint32_t a = cl::map_shared(&x[0], n);
  cl::st(a, n);
  cl::st(a + 8, static_cast<unsigned long long>(n));
  cl::st(a + 16, uint4{n, n, n, n});
  const unsigned u = cl::ld<unsigned>(a + 4);
  const unsigned long long v = cl::ld<unsigned long long>(a + 24);
  const uint4 w = cl::ld<uint4>(a + 32);
  out[0] = u + static_cast<unsigned>(v) + static_cast<unsigned>(v >> 32) + w.x + w.y + w.z + w.w;
}
PROBE(probe_cluster_barrier) {
  out[0] = 1;
  cl::arrive();
  cl::wait();
  out[1] = 2;
  cl::arrive_relaxed();
  cl::wait();
  out[2] = n;
}
PROBE(probe_fence_proxy_async_shared_cta) {
  out[0] = 1;
  p::fence_proxy_async<p::space::shared>();
  out[1] = n;
}
PROBE(probe_fence_proxy_async_shared_cluster) {
  out[0] = 1;
  p::fence_proxy_async<p::space::cluster>();
  out[1] = n;
}
PROBE(probe_fence_proxy_async_global) {
  out[0] = 1;
  p::fence_proxy_async<p::space::global>();
  out[1] = n;
}
