// The user-operation example of docs/compute.md, shared by the compute area's tests (included
// by tests/sass/compute_ops.cu, tests/gpu/compute_chain.cu and tests/host/compute_ops.cu; it
// is not compiled on its own). An operation is five lines on top of cuprobe::gen::op_base:
// dp4a, a four-way int8 dot product accumulated into 32 bits (4 multiplies + 4 adds = 8 ops).
#pragma once

#include <cuprobe/gen/ops.cuh>

#include <cstdint>

struct dp4a_s32 : cuprobe::gen::op_base<int> {
  static constexpr const char *name = "dp4a.s32.s32", *sass = "IDP\\.4A\\.S8\\.S8";
  static constexpr double ops = 8;
  __device__ static int apply(int a, int b, int c) { return __dp4a(a, b, c); }
  static int host_apply(int a, int b, int c) {
    unsigned r = static_cast<unsigned>(c);  // wraps modulo 2^32, as the instruction does
    for (int i = 0; i < 32; i += 8) r += unsigned(std::int8_t(a >> i) * std::int8_t(b >> i));
    return static_cast<int>(r);
  }
};
