cuprobe_host_test(core)
