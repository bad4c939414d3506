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
#include "cuprobe/measure/environment.cuh"
#include "cuprobe/multi/peer.cuh"
#include "cuprobe/report/meta.cuh"

namespace cuprobe {

/// One GPU of the node as a JSON object: device, state, nvlink, and peers (the ordinals whose
/// memory it can map, cudaDeviceCanAccessPeer).
inline json to_json(const node_gpu& g) {
  json j = json::object();
  j["device"] = to_json(g.info);
  j["state"] = to_json(g.state);
  j["nvlink"] = to_json(g.nvlink);
  json peers = json::array();
  for (int o = 0; o < device_count(); ++o)
    if (can_access_peer(g.info.ordinal, o)) peers.push_back(o);
  j["can_access_peers"] = peers;
  return j;
}

/// Every GPU of `node` (query_node()) as a JSON array.
inline json node_json(const std::vector<node_gpu>& node) {
  json a = json::array();
  for (const auto& g : node) a.push_back(to_json(g));
  return a;
}

}  // namespace cuprobe
