// A teaching example that includes a header of cuprobe's suite, which is not installed:
// host.consume_teaching_catches_suite proves that host.consume_teaching fails on it.
#include <cuprobe_suite/suite.cuh>

int main() { return 0; }
