// cuprobe/gen/stream.cuh: the streaming patterns, all of them: include this for the family.
//
//   namespace gen = cuprobe::gen;  namespace cache = cuprobe::ptx::cache;
//   const gen::stream_table<gen::type_list<float4>, gen::type_list<cache::cg>> kernels;
//   gen::stream_workload w(gen::stream_pattern::copy, sizeof(float4), 1 << 26);
//   w.fill_inputs(1);  w.poison_outputs();  const auto shape = gen::stream_shape(4, 256);
//   kernels.get<gen::stream_pattern::copy, float4, cache::cg>().launch(shape, w.args(shape));
//   w.check().require();
//
// The family, one job per header: stream_accounting.cuh (vocabulary, bytes per pass, working
// set), stream_kernels.cuh (device: arguments, exact values, stream_body, the kernels),
// stream_table.cuh (host: launch shapes, kernels named by their types), stream_check.cuh (exact
// validation) and stream_workload.cuh (buffers, arguments, bytes, the check of the last launch).
#pragma once

#include "cuprobe/gen/stream_accounting.cuh"
#include "cuprobe/gen/stream_check.cuh"
#include "cuprobe/gen/stream_kernels.cuh"
#include "cuprobe/gen/stream_table.cuh"
#include "cuprobe/gen/stream_workload.cuh"
