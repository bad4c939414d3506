// cuprobe/hopper/pipeline.cuh: the multi-stage TMA -> consumer ring of a warp-specialised
// kernel, by its Hopper name.
//
//   namespace h = cuprobe::hopper;  namespace pl = cuprobe::pipeline;
//   __shared__ h::tma_pipeline<4, 2> pipe;                   // 4 stages, clusters of 2 CTAs
//   if (threadIdx.x == 0) pipe.init(/*consumers per CTA=*/2);
//   cuprobe::ptx::cluster::sync();                           // inits visible cluster-wide
//   // producer (one thread):                 // consumer (one elected thread per warpgroup):
//   auto p = pipe.producer_start();           auto c = pipe.consumer_start();
//   pipe.acquire(p);                          pipe.wait_full(c);
//   auto* bar = pipe.fill(p, stage_bytes);    ... wgmma on stage c.stage ...
//   bulk::tensor_load(buf[p.stage], &map, bar, x, y);   pipe.release(c); ++c;
//   ++p;
//
// The ring is pipeline::mbarrier_ring (pipeline/ring.cuh has its choices), the warpgroups' roles
// pipeline/roles.cuh; this header names the ring for the Hopper blocks and brings both in.
#pragma once

#include "cuprobe/pipeline/ring.cuh"
#include "cuprobe/pipeline/roles.cuh"
#include "cuprobe/pipeline/state.cuh"

namespace cuprobe::hopper {

/// Full/empty barriers of a Stages-deep ring; Cluster CTAs share each stage's multicast operand
/// (pipeline/ring.cuh).
template <int Stages, int Cluster = 1>
using tma_pipeline = pipeline::mbarrier_ring<Stages, Cluster>;

}  // namespace cuprobe::hopper
