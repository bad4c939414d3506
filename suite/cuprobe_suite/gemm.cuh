// cuprobe_suite/gemm.cuh: what a GEMM benchmark needs around its kernel: the problem
// (inputs, outputs, seeds), the cuBLASLt peer with its best algorithm on the same inputs, the
// timing through the runner, and the check of an output against the peer and against an fp64
// host reference. examples/gemm.cu builds its kernel from cuprobe's Hopper blocks and uses this.
//
//   namespace ex = cuprobe::suite;
//   ex::gemm_problem p = ex::gemm_problem::make({8192, 8192, 8192}, /*seed=*/1);
//   ex::cublaslt_gemm peer(p);                              // links CUDA::cublasLt
//   auto ref = peer.measure_best(p, run);                   // the fastest of its heuristics
//   auto mine = ex::measure_gemm("gemm.mine", p, launch, run);  // launch(cudaStream_t)
//   auto chk = ex::check_gemm(p);                           // p.c against p.c_peer and fp64
//   std::printf("%.0f vs %.0f TFLOP/s\n", mine.tflop_per_s(), ref.m.tflop_per_s());
//
// Choices:
// - The layout is the "TN" GEMM, the one both cuBLAS and Hopper kernels run fastest: A is M x K
//   and B is N x K, both row-major (K contiguous), C = A B^T is M x N row-major; bf16 inputs
//   and output, fp32 accumulation, alpha 1, beta 0. For cuBLASLt (column-major) that is
//   C^T (N x M) = op_T(B) op_N(A) with leading dimensions K, K and N.
// - Inputs are random bf16 in [-1, 1) from core/device_buffer.cuh's counter-based generator, so
//   the host recomputes any element without copying the inputs back.
// - The peer: cublasLtMatmulAlgoGetHeuristic's first `candidates` algorithms (default 8) with a
//   32 MiB workspace, each timed through the runner on the same inputs; the fastest is the
//   reference ("best algorithm"), and its output is kept in c_peer.
// - The check: the relative Frobenius error of C against the peer's C, and `samples` entries
//   against an fp64 dot product of the exact bf16 inputs, each within
//   2^-7 |ref| + 2^-10 sqrt(K) (bf16 output rounding is 2^-9 relative; fp32 accumulation of
//   K products of size <= 1 adds far less than the second term).
#pragma once

#include <cublasLt.h>
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "cuprobe/core/device_buffer.cuh"
#include "cuprobe/core/error.cuh"
#include "cuprobe/measure/runner.cuh"

namespace cuprobe::suite {

struct gemm_shape {
  int m = 0, n = 0, k = 0;
  std::string name() const {
    return std::to_string(m) + "x" + std::to_string(n) + "x" + std::to_string(k);
  }
  double flops() const { return 2.0 * double(m) * double(n) * double(k); }
};

/// Shapes from text such as "8192x8192x2048,4096x4096x4096" (what name() writes, comma
/// separated). Throws cuprobe::error with a sentence for anything else: a missing or extra
/// dimension, a dimension that is not a positive integer below 2^20, an empty list.
inline std::vector<gemm_shape> parse_gemm_shapes(const std::string& text) {
  std::vector<gemm_shape> shapes;
  std::size_t at = 0;
  const auto bad = [&](const std::string& why) {
    return error("gemm: --shapes '" + text + "': " + why +
                 " (expected MxNxK[,MxNxK...], e.g. 8192x8192x2048)");
  };
  while (at <= text.size()) {
    const std::size_t end = std::min(text.find(',', at), text.size());
    const std::string one = text.substr(at, end - at);
    long long d[3] = {0, 0, 0};
    std::size_t i = 0;
    for (int j = 0; j < 3; ++j) {
      const std::size_t from = i;
      while (i < one.size() && one[i] >= '0' && one[i] <= '9' && d[j] < (1 << 20))
        d[j] = 10 * d[j] + (one[i++] - '0');
      if (i == from || d[j] <= 0 || d[j] >= (1 << 20))
        throw bad("'" + one + "' needs three positive integers below 1048576");
      if (j < 2 && (i >= one.size() || one[i++] != 'x')) throw bad("'" + one + "' is not MxNxK");
    }
    if (i != one.size()) throw bad("'" + one + "' is not MxNxK");
    shapes.push_back({int(d[0]), int(d[1]), int(d[2])});
    at = end + 1;
  }
  return shapes;
}

/// Inputs (A: M x K, B: N x K), this kernel's C and the peer's C (M x N), all row-major bf16.
struct gemm_problem {
  gemm_shape shape;
  std::uint64_t seed = 1;
  device_buffer<__nv_bfloat16> a, b, c, c_peer;

  static gemm_problem make(gemm_shape s, std::uint64_t seed) {
    require(s.m > 0 && s.n > 0 && s.k > 0,
            "gemm_problem: every dimension must be positive, got " + s.name());
    gemm_problem p;
    p.shape = s;
    p.seed = seed;
    p.a = device_buffer<__nv_bfloat16>(std::size_t(s.m) * s.k);
    p.b = device_buffer<__nv_bfloat16>(std::size_t(s.n) * s.k);
    p.c = device_buffer<__nv_bfloat16>(std::size_t(s.m) * s.n);
    p.c_peer = device_buffer<__nv_bfloat16>(std::size_t(s.m) * s.n);
    p.a.fill_random(seed, __nv_bfloat16(-1.f), __nv_bfloat16(1.f));
    p.b.fill_random(seed + 1, __nv_bfloat16(-1.f), __nv_bfloat16(1.f));
    p.c.poison(0xFF);  // NaN: an element a kernel leaves unwritten fails the check
    p.c_peer.poison(0xFF);
    cuprobe::synchronize_device("suite::gemm_problem::make");
    return p;
  }
  /// Element (i, j) of A and B as the host sees them (the generator's exact values).
  float a_at(int i, int kk) const {
    return float(cuprobe::detail::random_value(seed, std::uint64_t(i) * shape.k + kk,
                                               __nv_bfloat16(-1.f), __nv_bfloat16(1.f)));
  }
  float b_at(int j, int kk) const {
    return float(cuprobe::detail::random_value(seed + 1, std::uint64_t(j) * shape.k + kk,
                                               __nv_bfloat16(-1.f), __nv_bfloat16(1.f)));
  }
};

/// What one GEMM of shape `s` does: 2 M N K FLOP.
inline work gemm_work(const gemm_shape& s) {
  return work::flop_count(s.flops(), 1, "2 M N K per GEMM (bf16, fp32 accumulate)");
}

/// A GEMM launch timed through the runner: 2 M N K FLOP per launch.
template <class Launch>
measurement measure_gemm(const std::string& name, const gemm_problem& p, Launch&& launch,
                         const run_options& run) {
  auto m = measure(name, std::forward<Launch>(launch), gemm_work(p.shape), run);
  m.with_param("m", p.shape.m).with_param("n", p.shape.n).with_param("k", p.shape.k);
  return m;
}

namespace gemm_detail {
inline void check_lt(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS)
    throw error(std::string("cuprobe: ") + call + " failed: cublasStatus_t " +
                std::to_string(int(s)));
}
}  // namespace gemm_detail

/// The cuBLASLt peer (bf16 in and out, fp32 compute) on one problem's buffers.
class cublaslt_gemm {
 public:
  struct result {
    measurement m;      ///< the fastest algorithm's timing
    int algorithm = 0;  ///< its index among the heuristic's candidates
    int candidates = 0;
    std::vector<double> tflops;  ///< every candidate, in heuristic order
  };

  explicit cublaslt_gemm(const gemm_problem& p, int candidates = 8,
                         std::size_t workspace_bytes = 32u << 20)
      : workspace_(workspace_bytes) {
    using gemm_detail::check_lt;
    const auto& s = p.shape;
    check_lt(cublasLtCreate(&handle_), "cublasLtCreate");
    check_lt(cublasLtMatmulDescCreate(&op_, CUBLAS_COMPUTE_32F, CUDA_R_32F),
             "cublasLtMatmulDescCreate");
    const cublasOperation_t t = CUBLAS_OP_T, n = CUBLAS_OP_N;
    check_lt(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSA, &t, sizeof t),
             "cublasLtMatmulDescSetAttribute(TRANSA)");
    check_lt(cublasLtMatmulDescSetAttribute(op_, CUBLASLT_MATMUL_DESC_TRANSB, &n, sizeof n),
             "cublasLtMatmulDescSetAttribute(TRANSB)");
    check_lt(cublasLtMatrixLayoutCreate(&la_, CUDA_R_16BF, s.k, s.n, s.k), "layout of B");
    check_lt(cublasLtMatrixLayoutCreate(&lb_, CUDA_R_16BF, s.k, s.m, s.k), "layout of A");
    check_lt(cublasLtMatrixLayoutCreate(&lc_, CUDA_R_16BF, s.n, s.m, s.n), "layout of C");
    cublasLtMatmulPreference_t pref = nullptr;
    check_lt(cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
    const std::size_t ws = workspace_bytes;
    check_lt(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                  &ws, sizeof ws),
             "cublasLtMatmulPreferenceSetAttribute");
    algos_.resize(std::size_t(std::max(candidates, 1)));
    int found = 0;
    const auto st = cublasLtMatmulAlgoGetHeuristic(handle_, op_, la_, lb_, lc_, lc_, pref,
                                                   int(algos_.size()), algos_.data(), &found);
    cublasLtMatmulPreferenceDestroy(pref);
    gemm_detail::check_lt(st, "cublasLtMatmulAlgoGetHeuristic");
    require(found > 0, "cublaslt_gemm: cuBLASLt offers no algorithm for bf16 " + s.name());
    algos_.resize(std::size_t(found));
  }
  ~cublaslt_gemm() {
    if (lc_) cublasLtMatrixLayoutDestroy(lc_);
    if (lb_) cublasLtMatrixLayoutDestroy(lb_);
    if (la_) cublasLtMatrixLayoutDestroy(la_);
    if (op_) cublasLtMatmulDescDestroy(op_);
    if (handle_) cublasLtDestroy(handle_);
  }
  cublaslt_gemm(const cublaslt_gemm&) = delete;
  cublaslt_gemm& operator=(const cublaslt_gemm&) = delete;

  int candidates() const { return int(algos_.size()); }

  /// Enqueues C_peer = A B^T with candidate `i` on stream s.
  void run(gemm_problem& p, int i, cudaStream_t s) {
    const float alpha = 1.f, beta = 0.f;
    gemm_detail::check_lt(
        cublasLtMatmul(handle_, op_, &alpha, p.b.data(), la_, p.a.data(), lb_, &beta,
                       p.c_peer.data(), lc_, p.c_peer.data(), lc_, &algos_[std::size_t(i)].algo,
                       workspace_.data(), workspace_.size(), s),
        "cublasLtMatmul");
  }

  /// Every candidate timed through the runner; the fastest one, whose output stays in c_peer.
  result measure_best(gemm_problem& p, const run_options& opts) {
    result r;
    r.candidates = candidates();
    double best = -1;
    for (int i = 0; i < candidates(); ++i) {
      auto m = measure_gemm(
          "gemm.cublaslt.bf16." + p.shape.name() + ".algo" + std::to_string(i), p,
          [&](cudaStream_t s) { run(p, i, s); }, opts);
      m.with_param("algorithm", i);
      r.tflops.push_back(m.tflop_per_s());
      if (m.tflop_per_s() > best) {
        best = m.tflop_per_s();
        r.algorithm = i;
        r.m = std::move(m);
      }
    }
    run_once(p, r.algorithm);  // the fastest one's output in c_peer
    return r;
  }
  void run_once(gemm_problem& p, int i) {
    run(p, i, nullptr);
    cuprobe::synchronize_device("suite::gemm run_once");
  }

 private:
  cublasLtHandle_t handle_ = nullptr;
  cublasLtMatmulDesc_t op_ = nullptr;
  cublasLtMatrixLayout_t la_ = nullptr, lb_ = nullptr, lc_ = nullptr;
  std::vector<cublasLtMatmulHeuristicResult_t> algos_;
  device_buffer<unsigned char> workspace_;
};

/// How an output compares with the peer's and with fp64 host dot products.
struct gemm_check {
  double rel_frobenius_vs_peer = 0;  ///< ||C - C_peer||_F / ||C_peer||_F
  double worst_sample_ratio = 0;     ///< max over samples of |C - ref| / tolerance (<= 1 passes)
  int samples = 0;
  long long non_finite = 0;  ///< NaN / inf elements of C (unwritten ones are NaN)
  double frobenius_tolerance = 1e-2;
  bool against_peer = true;  ///< false: no peer ran, the Frobenius figure is not computed
  bool ok() const {
    return non_finite == 0 && (!against_peer || rel_frobenius_vs_peer <= frobenius_tolerance) &&
           worst_sample_ratio <= 1.0;
  }
  std::string summary() const {
    char b[240];
    char peer[80] = "no peer ran";
    if (against_peer)
      std::snprintf(peer, sizeof peer, "rel. Frobenius vs cuBLASLt %.2e (limit %.0e)",
                    rel_frobenius_vs_peer, frobenius_tolerance);
    std::snprintf(b, sizeof b,
                  "%s: %s, %d fp64 samples at %.2f of their tolerance, %lld non-finite",
                  ok() ? "ok" : "WRONG", peer, samples, worst_sample_ratio, non_finite);
    return b;
  }
};

/// Compares p.c with p.c_peer (unless !against_peer: no peer ran) and `samples` entries (spread
/// over C) with fp64 references.
inline gemm_check check_gemm(const gemm_problem& p, int samples = 256, bool against_peer = true) {
  const auto c = p.c.to_host();
  const auto ref = against_peer ? p.c_peer.to_host() : std::vector<__nv_bfloat16>(c.size());
  gemm_check r;
  r.against_peer = against_peer;
  double num = 0, den = 0;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const double x = double(float(c[i])), y = double(float(ref[i]));
    if (!std::isfinite(x)) {
      ++r.non_finite;
      continue;
    }
    if (!against_peer) continue;
    num += (x - y) * (x - y);
    den += y * y;
  }
  r.rel_frobenius_vs_peer = den > 0 ? std::sqrt(num / den) : (num > 0 ? 1.0 : 0.0);
  const auto& s = p.shape;
  std::uint64_t state = p.seed * 0x9E3779B97F4A7C15ull + 7;
  for (int t = 0; t < samples; ++t) {
    state = cuprobe::detail::mix64(state + std::uint64_t(t));
    const int i = int(state % std::uint64_t(s.m)), j = int((state >> 32) % std::uint64_t(s.n));
    double dot = 0;
    for (int kk = 0; kk < s.k; ++kk) dot += double(p.a_at(i, kk)) * double(p.b_at(j, kk));
    const double got = double(float(c[std::size_t(i) * s.n + j]));
    const double tol = std::ldexp(std::fabs(dot), -7) + std::ldexp(std::sqrt(double(s.k)), -10);
    r.worst_sample_ratio =
        std::max(r.worst_sample_ratio, std::isfinite(got) ? std::fabs(got - dot) / tol : 1e30);
    ++r.samples;
  }
  return r;
}

}  // namespace cuprobe::suite
