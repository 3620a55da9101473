#include "child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace rl::own {
namespace {

// posix_spawn's file actions, freed however the constructor leaves.
struct Actions {
  posix_spawn_file_actions_t a;
  Actions() { posix_spawn_file_actions_init(&a); }
  ~Actions() { posix_spawn_file_actions_destroy(&a); }
  Actions(const Actions&) = delete;
  Actions& operator=(const Actions&) = delete;
};

ChildProcess::Ended ended_of(int status) {
  if (WIFSIGNALED(status)) return {0, WTERMSIG(status)};
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 0, 0};
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& out_path,
                           const std::string& err_path) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: no program");
  Actions actions;
  const int flags = O_WRONLY | O_CREAT | O_TRUNC;  // not O_CLOEXEC: these are the program's own 1 and 2
  if (posix_spawn_file_actions_addopen(&actions.a, 0, "/dev/null", O_RDONLY, 0) != 0 ||
      posix_spawn_file_actions_addopen(&actions.a, 1, out_path.c_str(), flags, 0600) != 0 ||
      posix_spawn_file_actions_addopen(&actions.a, 2, err_path.c_str(), flags, 0600) != 0)
    throw std::runtime_error("could not prepare a process's output files");
  std::vector<char*> words;
  for (const std::string& w : argv) words.push_back(const_cast<char*>(w.c_str()));
  words.push_back(nullptr);
  const int err = posix_spawn(&pid_, argv[0].c_str(), &actions.a, nullptr, words.data(), environ);
  if (err != 0) throw std::runtime_error("could not start " + argv[0] + ": " + std::strerror(err));
}

ChildProcess::~ChildProcess() {
  if (!ended_) stop();
}

std::optional<ChildProcess::Ended> ChildProcess::poll() {
  if (ended_) return ended_;
  int status = 0;
  pid_t got = waitpid(pid_, &status, WNOHANG);
  while (got < 0 && errno == EINTR) got = waitpid(pid_, &status, WNOHANG);
  if (got == pid_)
    ended_ = ended_of(status);
  else if (got < 0)
    ended_ = Ended{0, SIGKILL};  // not ours to wait for any more: count it ended
  return ended_;
}

ChildProcess::Ended ChildProcess::stop() {
  if (poll()) return *ended_;
  kill(pid_, SIGKILL);
  int status = 0;
  pid_t got = waitpid(pid_, &status, 0);
  while (got < 0 && errno == EINTR) got = waitpid(pid_, &status, 0);
  ended_ = got == pid_ ? ended_of(status) : Ended{0, SIGKILL};
  return *ended_;
}

std::string to_string(const ChildProcess::Ended& e) {
  if (e.signal == 0) return "exit code " + std::to_string(e.code);
  const char* name = strsignal(e.signal);
  return "signal " + std::to_string(e.signal) + (name ? std::string(" (") + name + ")" : std::string());
}

}  // namespace rl::own
