# hopper/tensor_map.cuh, tensor_map_spec.cuh and tensor_map_rules.cuh (tiled TMA tensor maps):
# host tests (every rule, the builders, the printer; no GPU) and gpu tests (the driver encodes
# what the checker accepts and refuses what it refuses; no kernel launch).
cuprobe_host_test(hopper_tensor_map)
cuprobe_gpu_test(hopper_tensor_map)

# A C++ type without a TMA element type does not compile, and says why (nvcc at test time).
add_test(NAME host.hopper_tensor_map_compile_fail
  COMMAND "${CMAKE_CUDA_COMPILER}" -c -std=c++17 "-gencode=arch=compute_90a,code=sm_90a"
          -DCUPROBE_TENSOR_MAP_COMPILE_FAIL=1 "-I${PROJECT_SOURCE_DIR}/include"
          -o "${CMAKE_CURRENT_BINARY_DIR}/hopper_tensor_map_compile_fail.o"
          "${CMAKE_CURRENT_SOURCE_DIR}/host/hopper_tensor_map.cu")
set_tests_properties(host.hopper_tensor_map_compile_fail PROPERTIES LABELS host
  PASS_REGULAR_EXPRESSION "this C\\+\\+ type has no TMA element type")
