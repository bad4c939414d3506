// cuprobe/report/impl/node.cuh: the definitions of cuprobe/report/node.cuh's larger host functions.
// Not a header of its own: node.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe {

CUPROBE_DECL json to_json(const node_gpu& g) {
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

CUPROBE_DECL json node_json(const std::vector<node_gpu>& node) {
  json a = json::array();
  for (const auto& g : node) a.push_back(to_json(g));
  return a;
}

}  // namespace cuprobe
