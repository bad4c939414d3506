// cuprobe/testing/child.cuh: a test case in a child process, for faults that destroy the CUDA
// context: the binary re-executes itself with an environment variable naming the case.
//
//   int main(int argc, char** argv) {
//     if (const char* c = std::getenv("MY_DEATH_CASE")) return run_my_case(c);  // the child
//     return cuprobe::testing::run_tests(argc, argv);
//   }
//   const auto r = cuprobe::testing::run_self_child("MY_DEATH_CASE", "bad_index");  // a test
//   CHECK(r.exit_code == 3);
//   CHECK(r.output.find("illegal address") != std::string::npos);
//
// The child's stdout and stderr (device printf included) come through one pipe; the parent waits
// at most limit_s, then kills the child (its pid only). Linux only (/proc/self/exe, posix_spawn).
#pragma once

#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "cuprobe/core/error.cuh"
#include "cuprobe/core/host_time.cuh"
#include "cuprobe/core/linkage.cuh"

extern char** environ;

namespace cuprobe::testing {

/// What a child process did.
struct child_result {
  int exit_code = -1;      ///< -1: did not exit normally
  int signal = 0;          ///< the signal that ended it, if one did
  bool timed_out = false;  ///< true when it ran past limit_s and was killed
  std::string output;      ///< stdout + stderr, interleaved as written
};

/// Re-executes this binary with `variable`=`value` in its environment (replacing any earlier
/// value) and no arguments; returns what it did. Throws cuprobe::error when it cannot start.
CUPROBE_DECL child_result run_self_child(const std::string& variable, const std::string& value,
                                         int limit_s = 120);

}  // namespace cuprobe::testing

#if CUPROBE_HEADER_BODIES
#include "cuprobe/testing/impl/child.cuh"
#endif
