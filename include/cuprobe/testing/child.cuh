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
inline child_result run_self_child(const std::string& variable, const std::string& value,
                                   int limit_s = 120) {
  child_result r;
  char exe[4096] = {};
  const ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
  require(len > 0, "run_self_child: cannot read /proc/self/exe");
  int fds[2];
  require(pipe(fds) == 0, "run_self_child: pipe() failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  posix_spawn_file_actions_addclose(&fa, fds[0]);
  const std::string prefix = variable + "=";
  std::vector<std::string> env_strings;
  for (char** e = environ; *e; ++e)
    if (std::strncmp(*e, prefix.c_str(), prefix.size()) != 0) env_strings.emplace_back(*e);
  env_strings.push_back(prefix + value);
  std::vector<char*> envp;
  for (auto& s : env_strings) envp.push_back(s.data());
  envp.push_back(nullptr);
  char* argv[] = {exe, nullptr};
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe, &fa, nullptr, argv, envp.data());
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (rc != 0) close(fds[0]);
  require(rc == 0, std::string("run_self_child: posix_spawn failed: ") + std::strerror(rc));
  const double deadline = monotonic_s() + double(limit_s);
  char chunk[4096];
  for (;;) {
    const double left = 1e3 * (deadline - monotonic_s());  // ms
    if (left <= 0) {
      r.timed_out = true;
      kill(pid, SIGKILL);
      break;
    }
    pollfd pf{fds[0], POLLIN, 0};
    const int ready = poll(&pf, 1, left < 1000 ? static_cast<int>(left) + 1 : 1000);
    if (ready > 0) {
      const ssize_t got = read(fds[0], chunk, sizeof chunk);
      if (got <= 0) break;  // EOF: the child closed its output (exited)
      r.output.append(chunk, static_cast<std::size_t>(got));
    }
  }
  close(fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  return r;
}

}  // namespace cuprobe::testing
