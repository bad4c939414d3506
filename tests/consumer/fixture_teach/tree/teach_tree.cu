// A teaching example that reads a header of cuprobe's source tree by a relative path: it compiles,
// but not on the installed package alone; host.consume_teaching_catches_tree proves that
// host.consume_teaching fails on it.
#include "../../../../include/cuprobe/core/version.cuh"

#include <cstdio>

int main() {
  std::printf("cuprobe %s\n", cuprobe::version_string);
  return 0;
}
