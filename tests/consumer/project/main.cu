#include <cuprobe/cuprobe.cuh>

#include <cstdio>

int main() {
  std::printf("cuprobe %s, %d GPU(s)\n", cuprobe::version_string, cuprobe::device_count());
  return 0;
}
