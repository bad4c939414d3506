// cuprobe/hopper/cluster.cuh: launching kernels with thread block clusters (host side).
//
//   cuprobe::hopper::cluster_launch c;
//   c.shape = {dim3(64), dim3(128), 0};      // grid in CTAs, block, dynamic shared memory
//   c.cluster = dim3(4);                     // 16 clusters of 4 CTAs
//   cuprobe::hopper::launch(my_kernel, c, in, out, n);
//   int fit = cuprobe::hopper::max_active_clusters(my_kernel, c);   // clusters resident at once
//
// launch() runs cudaLaunchKernelEx with cudaLaunchAttributeClusterDimension, after
// check_cluster_launch() refused, with a sentence, a shape the hardware cannot run (a dimension
// of 0, a grid clusters do not tile, over 1024 threads per block, a cluster above 16 CTAs, or
// above the portable 8 without `allow_non_portable`), and opts into dynamic shared memory above
// 48 KiB. A launch the driver refuses throws with the CUDA error and how many such clusters
// cudaOccupancyMaxActiveClusters says fit. Device side: ptx/cluster.cuh.
#pragma once

#include <cuda_runtime.h>

#include <optional>
#include <string>
#include <utility>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/launch.cuh"
#include "cuprobe/core/watchdog.cuh"

namespace cuprobe::hopper {

/// Cluster sizes every cluster-capable GPU accepts, and what H100/H200 accept with the opt-in.
inline constexpr unsigned max_portable_cluster_size = 8;
/// H100/H200 with the opt-in (allow_non_portable).
inline constexpr unsigned max_non_portable_cluster_size = 16;
/// Dynamic shared memory a kernel may use without cudaFuncAttributeMaxDynamicSharedMemorySize.
inline constexpr std::size_t default_dynamic_smem_limit = 48 * 1024;

/// One cluster launch: the grid (in CTAs), block and dynamic shared memory, and the cluster shape.
struct cluster_launch {
  launch_shape shape;             ///< grid (in CTAs), block and dynamic shared memory
  dim3 cluster{1, 1, 1};          ///< CTAs per cluster, along x, y and z
  cudaStream_t stream = nullptr;  ///< the stream the launch goes on
  /// Allow clusters of 9..16 CTAs (cudaFuncAttributeNonPortableClusterSizeAllowed).
  bool allow_non_portable = false;

  /// CTAs per cluster.
  unsigned cluster_ctas() const { return cluster.x * cluster.y * cluster.z; }
  unsigned long long clusters() const {  ///< Clusters in the grid.
    return cluster.x && cluster.y && cluster.z
               ? 1ull * (shape.grid.x / cluster.x) * (shape.grid.y / cluster.y) *
                     (shape.grid.z / cluster.z)
               : 0ull;
  }
};

namespace detail {
inline std::string dim_text(const dim3& d) {
  return "(" + std::to_string(d.x) + ", " + std::to_string(d.y) + ", " + std::to_string(d.z) + ")";
}
inline std::string launch_text(const cluster_launch& c) {
  return "a grid of " + dim_text(c.shape.grid) + " CTAs in clusters of " + dim_text(c.cluster) +
         " = " + std::to_string(c.cluster_ctas()) + " CTAs, blocks of " + dim_text(c.shape.block) +
         " threads, " + std::to_string(c.shape.dynamic_smem) + " bytes of dynamic shared memory";
}
}  // namespace detail

/// Throws cuprobe::error with a sentence when `c` cannot be launched as given. No CUDA call.
inline void check_cluster_launch(const cluster_launch& c) {
  const dim3& g = c.shape.grid;
  const dim3& b = c.shape.block;
  const dim3& k = c.cluster;
  require(g.x && g.y && g.z && b.x && b.y && b.z && k.x && k.y && k.z,
          "cuprobe::hopper::launch: every grid, block and cluster dimension must be at least 1 "
          "(grid " +
              detail::dim_text(g) + ", block " + detail::dim_text(b) + ", cluster " +
              detail::dim_text(k) + ")");
  require(c.shape.block_threads() <= 1024, "cuprobe::hopper::launch: a block of " +
                                               std::to_string(c.shape.block_threads()) +
                                               " threads exceeds the limit of 1024");
  const char* axis[3] = {"x", "y", "z"};
  const unsigned gd[3] = {g.x, g.y, g.z}, kd[3] = {k.x, k.y, k.z};
  for (int i = 0; i < 3; ++i)
    require(gd[i] % kd[i] == 0, std::string("cuprobe::hopper::launch: grid.") + axis[i] + " = " +
                                    std::to_string(gd[i]) + " CTAs is not a multiple of cluster." +
                                    axis[i] + " = " + std::to_string(kd[i]) +
                                    " (clusters must tile the grid exactly)");
  const unsigned n = c.cluster_ctas();
  require(n <= max_non_portable_cluster_size,
          "cuprobe::hopper::launch: a cluster of " + std::to_string(n) +
              " CTAs exceeds the hardware maximum of " +
              std::to_string(max_non_portable_cluster_size) + " (H100/H200, non-portable)");
  require(n <= max_portable_cluster_size || c.allow_non_portable,
          "cuprobe::hopper::launch: a cluster of " + std::to_string(n) +
              " CTAs exceeds the portable maximum of " + std::to_string(max_portable_cluster_size) +
              "; set cluster_launch::allow_non_portable = true to opt in "
              "(cudaFuncAttributeNonPortableClusterSizeAllowed; H100/H200 accept up to 16)");
}

/// Lets `kernel` be launched with clusters of 9..16 CTAs.
template <class... P>
void allow_non_portable_cluster_size(void (*kernel)(P...)) {
  CUPROBE_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                     cudaFuncAttributeNonPortableClusterSizeAllowed, 1));
}

/// Lets `kernel` use `bytes` of dynamic shared memory (needed above 48 KiB).
template <class... P>
void set_max_dynamic_smem(void (*kernel)(P...), std::size_t bytes) {
  CUPROBE_CHECK(cudaFuncSetAttribute(reinterpret_cast<const void*>(kernel),
                                     cudaFuncAttributeMaxDynamicSharedMemorySize,
                                     static_cast<int>(bytes)));
}

namespace detail {
/// Checks `c`, sets the attributes it needs on `kernel` and fills `cfg` (pointing at `attr`).
template <class... P>
void prepare(void (*kernel)(P...), const cluster_launch& c, cudaLaunchConfig_t& cfg,
             cudaLaunchAttribute& attr) {
  check_cluster_launch(c);
  if (c.allow_non_portable) allow_non_portable_cluster_size(kernel);
  if (c.shape.dynamic_smem > default_dynamic_smem_limit)
    set_max_dynamic_smem(kernel, c.shape.dynamic_smem);
  attr = cudaLaunchAttribute{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = c.cluster.x;
  attr.val.clusterDim.y = c.cluster.y;
  attr.val.clusterDim.z = c.cluster.z;
  cfg = cudaLaunchConfig_t{};
  cfg.gridDim = c.shape.grid;
  cfg.blockDim = c.shape.block;
  cfg.dynamicSmemBytes = c.shape.dynamic_smem;
  cfg.stream = c.stream;
  cfg.attrs = &attr;
  cfg.numAttrs = 1;
}
}  // namespace detail

/// How many clusters of `c`'s shape can be resident at once (cudaOccupancyMaxActiveClusters);
/// 0 means the launch cannot run.
template <class... P>
int max_active_clusters(void (*kernel)(P...), const cluster_launch& c) {
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr;
  detail::prepare(kernel, c, cfg, attr);
  int n = 0;
  CUPROBE_CHECK(cudaOccupancyMaxActiveClusters(&n, reinterpret_cast<const void*>(kernel), &cfg));
  return n;
}

/// The largest cluster size the device could run `kernel` with at `c`'s block and shared memory
/// (cudaOccupancyMaxPotentialClusterSize; the cluster shape in `c` is ignored; above 8 only with
/// `allow_non_portable`).
template <class... P>
int max_potential_cluster_size(void (*kernel)(P...), cluster_launch c) {
  c.cluster = dim3(1, 1, 1);
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr;
  detail::prepare(kernel, c, cfg, attr);
  cfg.numAttrs = 0;
  int n = 0;
  CUPROBE_CHECK(
      cudaOccupancyMaxPotentialClusterSize(&n, reinterpret_cast<const void*>(kernel), &cfg));
  return n;
}

/// Launches kernel(args...) with the cluster shape of `c` (cudaLaunchKernelEx). Throws
/// cuprobe::error before the launch for a shape check_cluster_launch() refuses, and after a
/// refused launch with the CUDA error and the occupancy of such clusters.
template <class... P, class... A>
void launch(void (*kernel)(P...), const cluster_launch& c, A&&... args) {
  cudaLaunchConfig_t cfg;
  cudaLaunchAttribute attr;
  detail::prepare(kernel, c, cfg, attr);
  note_block_in_use(block_in_use::clusters);  // a hang sentence then names its faults
  const cudaError_t e = cudaLaunchKernelEx(&cfg, kernel, std::forward<A>(args)...);
  if (e == cudaSuccess) return;
  (void)cudaGetLastError();
  std::optional<int> fit;  // how many such clusters fit, when the query itself succeeds
  int n = 0;
  if (cudaOccupancyMaxActiveClusters(&n, reinterpret_cast<const void*>(kernel), &cfg) ==
      cudaSuccess)
    fit = n;
  else
    (void)cudaGetLastError();
  throw error("cuprobe::hopper::launch: cudaLaunchKernelEx refused " + detail::launch_text(c) +
                  ": " + ::cuprobe::detail::describe(e) +
                  (fit ? "; cudaOccupancyMaxActiveClusters says " + std::to_string(*fit) +
                             " such clusters fit on the device at once"
                       : std::string("")),
              static_cast<int>(e));
}

}  // namespace cuprobe::hopper
