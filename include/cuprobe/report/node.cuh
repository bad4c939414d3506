// cuprobe/report/node.cuh: the GPUs of this node as JSON, for a results file's record.
//
//   cuprobe::results res(argc, argv);
//   res.extra("node") = cuprobe::node_json(cuprobe::query_node());
//
// One object per GPU: its facts (report/meta.cuh's device object), NVML's reading and its
// NVLinks (measure/nvlink.cuh), and whether each other GPU can map its memory.
#pragma once

#include <vector>

#include "cuprobe/core/json.cuh"
#include "cuprobe/core/linkage.cuh"
#include "cuprobe/measure/nvlink.cuh"
#include "cuprobe/multi/peer.cuh"
#include "cuprobe/report/meta.cuh"

namespace cuprobe {

/// One GPU of the node as a JSON object: device, state, nvlink, and peers (the ordinals whose
/// memory it can map, cudaDeviceCanAccessPeer).
CUPROBE_DECL json to_json(const node_gpu& g);

/// Every GPU of `node` (query_node()) as a JSON array.
CUPROBE_DECL json node_json(const std::vector<node_gpu>& node);

}  // namespace cuprobe

#if CUPROBE_HEADER_BODIES
#include "cuprobe/report/impl/node.cuh"
#endif
