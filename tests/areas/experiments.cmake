# cuprobe_suite/: the application layer (one implementation of each canned experiment). Host:
# every experiment function refuses bad options before any CUDA call. GPU: each runs in a small
# setting and gives plausible results.
cuprobe_host_test(experiments)
cuprobe_gpu_test(experiments)
