#include "child_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

extern char** environ;

namespace rl::own {
namespace {

// posix_spawn's file actions and attributes, freed however the constructor leaves. The child
// takes SIGPIPE's default back: this program ignores it (send()), and exec keeps an ignored signal.
struct Actions {
  posix_spawn_file_actions_t a;
  posix_spawnattr_t attr;
  Actions() {
    posix_spawn_file_actions_init(&a);
    posix_spawnattr_init(&attr);
    sigset_t defaults;
    sigemptyset(&defaults);
    sigaddset(&defaults, SIGPIPE);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF);
  }
  ~Actions() {
    posix_spawn_file_actions_destroy(&a);
    posix_spawnattr_destroy(&attr);
  }
  Actions(const Actions&) = delete;
  Actions& operator=(const Actions&) = delete;
};

ChildProcess::Ended ended_of(int status) {
  if (WIFSIGNALED(status)) return {0, WTERMSIG(status)};
  return {WIFEXITED(status) ? WEXITSTATUS(status) : 0, 0};
}

}  // namespace

ChildProcess::ChildProcess(const std::vector<std::string>& argv, const std::string& out_path,
                           const std::string& err_path, bool piped_input) {
  if (argv.empty()) throw std::invalid_argument("ChildProcess: no program");
  int pipe_ends[2] = {-1, -1};  // O_CLOEXEC: only the child's 0 (dup2'd) stays open in it
  if (piped_input && pipe2(pipe_ends, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("could not make a pipe for a process: ") + std::strerror(errno));
  Actions actions;
  const int flags = O_WRONLY | O_CREAT | O_TRUNC;  // not O_CLOEXEC: these are the program's own 1 and 2
  const int in_ok = piped_input ? posix_spawn_file_actions_adddup2(&actions.a, pipe_ends[0], 0)
                                : posix_spawn_file_actions_addopen(&actions.a, 0, "/dev/null", O_RDONLY, 0);
  if (in_ok != 0 || posix_spawn_file_actions_addopen(&actions.a, 1, out_path.c_str(), flags, 0600) != 0 ||
      posix_spawn_file_actions_addopen(&actions.a, 2, err_path.c_str(), flags, 0600) != 0) {
    for (int fd : pipe_ends)
      if (fd >= 0) close(fd);
    throw std::runtime_error("could not prepare a process's output files");
  }
  std::vector<char*> words;
  for (const std::string& w : argv) words.push_back(const_cast<char*>(w.c_str()));
  words.push_back(nullptr);
  const int err = posix_spawn(&pid_, argv[0].c_str(), &actions.a, &actions.attr, words.data(), environ);
  if (piped_input) close(pipe_ends[0]), input_ = pipe_ends[1];
  if (err != 0) {
    if (input_ >= 0) close(input_);
    throw std::runtime_error("could not start " + argv[0] + ": " + std::strerror(err));
  }
}

ChildProcess::~ChildProcess() {
  if (input_ >= 0) close(input_);
  if (!ended_) stop();
}

bool ChildProcess::send(const std::string& text) {
  if (input_ < 0) return false;
  // A child that has ended makes the write fail with EPIPE; the signal would end this program.
  static const bool ignored = (std::signal(SIGPIPE, SIG_IGN), true);
  (void)ignored;
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(input_, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += std::size_t(n);
  }
  close(input_);
  input_ = -1;
  return done == text.size();
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
