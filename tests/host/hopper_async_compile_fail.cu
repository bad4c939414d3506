// Compile-fail probes for ptx/mbarrier.cuh, ptx/bulk.cuh, ptx/cluster.cuh, ptx/elect.cuh,
// ptx/setmaxnreg.cuh, the proxy fences and hopper/smem.cuh: each CUPROBE_CASE must NOT compile,
// and the error must be the library's sentence (tests/areas/hopper_async.cmake runs nvcc on each
// case, for the architecture it names, and matches the sentence). Not a test executable.
#include <cuprobe/hopper/smem.cuh>
#include <cuprobe/pipeline/state.cuh>
#include <cuprobe/ptx/bulk.cuh>
#include <cuprobe/ptx/cluster.cuh>
#include <cuprobe/ptx/elect.cuh>
#include <cuprobe/ptx/fence.cuh>
#include <cuprobe/ptx/mbarrier.cuh>
#include <cuprobe/ptx/setmaxnreg.cuh>

#include <cuda.h>

#include <cstdint>

namespace p = cuprobe::ptx;
namespace mb = cuprobe::ptx::mbarrier;
namespace bulk = cuprobe::ptx::bulk;

__global__ void probe(const int4* in, int4* out, unsigned n,
                      const __grid_constant__ CUtensorMap map) {
  __shared__ alignas(128) int4 buf[64];
  __shared__ cuprobe::ptx::mbarrier::object bar;
#if CUPROBE_CASE == 1  // bulk copies need sm_90 (compiled for sm_80)
  bulk::load(buf, in, &bar, n);
#elif CUPROBE_CASE == 2   // multicast needs sm_90a (compiled for sm_90)
  bulk::load_multicast(buf, in, &bar, 3, n);
#elif CUPROBE_CASE == 3   // tensor multicast needs sm_90a (compiled for sm_90)
  bulk::tensor_load_multicast(buf, &map, &bar, 3, 0, 0);
#elif CUPROBE_CASE == 4   // setmaxnreg needs sm_90a (compiled for sm_80)
  p::setmaxnreg_inc<240>();
#elif CUPROBE_CASE == 5   // setmaxnreg needs sm_90a (compiled for sm_90)
  p::setmaxnreg_dec<40>();
#elif CUPROBE_CASE == 6   // wait_group<N>: N above 63
  bulk::wait_group<64>();
#elif CUPROBE_CASE == 7   // wait_group_read<N>: N below 0
  bulk::wait_group_read<-1>();
#elif CUPROBE_CASE == 8   // setmaxnreg: below 24
  p::setmaxnreg_inc<16>();
#elif CUPROBE_CASE == 9   // setmaxnreg: above 256
  p::setmaxnreg_dec<264>();
#elif CUPROBE_CASE == 10  // setmaxnreg: not a multiple of 8
  p::setmaxnreg_inc<100>();
#elif CUPROBE_CASE == 11  // elect.sync needs sm_90 (compiled for sm_80)
  out[0].x = p::elect_one_sync();
#elif CUPROBE_CASE == 12  // try_wait needs sm_90 (compiled for sm_80)
  out[0].x = mb::try_wait(&bar, 0);
#elif CUPROBE_CASE == 13  // mbarrier.init needs sm_80 (compiled for sm_75)
  mb::init(&bar, 1);
#elif CUPROBE_CASE == 14  // cluster registers need sm_90 (compiled for sm_80)
  out[0].x = p::cluster::ctarank();
#elif CUPROBE_CASE == 15  // a tensor copy takes 1 to 5 coordinates
  bulk::tensor_load(buf, &map, &bar, 0, 1, 2, 3, 4, 5);
#elif CUPROBE_CASE == 16  // mbarrier scopes are cta and cluster only
  (void)mb::arrive<p::scope::gpu>(&bar);
#elif CUPROBE_CASE == 17  // proxy fences need sm_90 (compiled for sm_80)
  p::fence_proxy_async<p::space::global>();
#elif CUPROBE_CASE == 18  // wait_group needs sm_90 (compiled for sm_80)
  bulk::wait_group<0>();
#elif CUPROBE_CASE == 22  // multicast needs sm_90a (compiled for sm_80)
  bulk::load_multicast(buf, in, &bar, 3, n);
#elif CUPROBE_CASE == 23  // a barrier is an mbarrier::object, never a raw 64-bit word
  __shared__ std::uint64_t raw;
  mb::wait(&raw, 0);
#elif CUPROBE_CASE == 24  // the barrier comes before the byte count (one order for every copy)
  bulk::load(buf, in, n, &bar);
#elif CUPROBE_CASE == 25  // a proxy fence takes a state-space tag, not a scope
  p::fence_proxy_async<p::scope::cta>();
#else                     // nothing selected: the probe compiles for every target
  out[0] = buf[n % 64];
  out[1].x = static_cast<int>(bar.word);
#endif
  (void)in, (void)out, (void)n, (void)map;
}

#if CUPROBE_CASE == 19  // a ring needs at least one stage
constexpr auto bad_ring = cuprobe::pipeline::make_producer_start_state<0>();
#elif CUPROBE_CASE == 20  // alignments are powers of two
static_assert(cuprobe::hopper::align_up<48>(100u) == 144u);
#elif CUPROBE_CASE == 21  // an alignment below the type's own
cuprobe::hopper::aligned_smem<double, 4> too_weak;
#endif
