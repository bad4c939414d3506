cuprobe_gpu_test(core)
