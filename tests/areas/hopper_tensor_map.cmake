# hopper/tensor_map.cuh, tensor_map_spec.cuh and tensor_map_rules.cuh (tiled TMA tensor maps):
# host tests (every rule, the builders, the printer; no GPU) and gpu tests (the driver encodes
# what the checker accepts and refuses what it refuses; no kernel launch).
cuprobe_host_test(hopper_tensor_map)
cuprobe_gpu_test(hopper_tensor_map)

# A C++ type without a TMA element type does not compile, and says why (nvcc at test time).
cuprobe_compile_fail_test(host.hopper_tensor_map_compile_fail
  "${CMAKE_CURRENT_SOURCE_DIR}/host/hopper_tensor_map.cu" 90a
  "this C\\+\\+ type has no TMA element type" -DCUPROBE_TENSOR_MAP_COMPILE_FAIL=1)

# TMA tensor copies through tensor maps on an sm_90a GPU (ptx/bulk.cuh's tensor_load,
# tensor_load_multicast, tensor_store): round trips for ranks 1..5 x swizzles x element types,
# the swizzled shared-memory layout against a host model, out-of-bounds fill and clipped stores,
# multicast into 2- and 4-CTA clusters.
cuprobe_gpu_test(hopper_tensor_copy)
set_tests_properties(gpu.gpu_hopper_tensor_copy PROPERTIES TIMEOUT 600
                     LABELS "gpu;hopper_tensor_map")

# The dimension-0 start rule of TMA tile mode (16-byte multiples), observed on the H200 and
# undocumented: a child process loads at an aligned and an unaligned coordinate.
cuprobe_gpu_test(hopper_tensor_copy_fault)
set_tests_properties(gpu.gpu_hopper_tensor_copy_fault PROPERTIES TIMEOUT 300
                     LABELS "gpu;hopper_tensor_map")
