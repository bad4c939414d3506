// host.separate_compilation, second translation unit: the umbrella's declarations only, so that a
// host function a header still defined outside line would be defined twice and fail the link.
#include <cuprobe/cuprobe.cuh>

#include <string>

std::string second_unit() { return cuprobe::json::array({1, 2}).dump(); }
