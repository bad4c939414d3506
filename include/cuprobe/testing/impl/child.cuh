// cuprobe/testing/impl/child.cuh: the definitions of cuprobe/testing/child.cuh's larger host
// functions. Not a header of its own: child.cuh includes it at its end in the header-only mode, and
// cuprobe/implementation.cuh after every header in the separate compilation (core/linkage.cuh).
#pragma once

namespace cuprobe::testing {

CUPROBE_DECL child_result run_self_child(const std::string& variable, const std::string& value,
                                         int limit_s) {
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
