# access area: model/access.cuh, the sector model of a warp's global access (issue "Access
# patterns explained by sectors"). Host tests on hand-worked cases; the generators, their SASS
# and GPU tests and the ncu comparison are not written yet.
cuprobe_host_test(access_model)
set_tests_properties(host.access_model PROPERTIES LABELS "host;access")
