// The user's program. In package mode it includes the umbrella header (every installed header
// must be there); the other two modes prove only that the target and its include path work, so
// they include two small headers and leave the umbrella's compile to host.header_umbrella.*.
#ifdef CUPROBE_CONSUME_UMBRELLA
#include <cuprobe/cuprobe.cuh>
#else
#include <cuprobe/core/device_info.cuh>
#include <cuprobe/core/version.cuh>
#endif

#include <cstdio>

int main() {
  std::printf("cuprobe %s, %d GPU(s)\n", cuprobe::version_string, cuprobe::device_count());
  return 0;
}
