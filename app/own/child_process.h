// A program run beside the window, its standard output and error into files, that can be stopped
// at any time: a kernel of your own runs on the GPU in one (own_process.h), so a kernel that
// hangs, crashes the driver or corrupts memory ends that process, not the window.
#pragma once
#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

namespace rl::own {

class ChildProcess {
 public:
  // Starts argv[0] (a path) with argv's other words; its standard input is /dev/null (or, with
  // piped_input, a pipe that send() writes), its output and error go to the two files (created or
  // truncated: paths of the caller's own temporaries). Throws std::runtime_error naming what failed.
  ChildProcess(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path,
               bool piped_input = false);
  ~ChildProcess();  // stops it (SIGKILL) where it still runs, and waits for it
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  struct Ended {
    int code = 0;    // its exit code, where it exited
    int signal = 0;  // the signal that ended it (0: it exited)
  };
  // Without waiting: how it ended, or nullopt while it runs.
  std::optional<Ended> poll();
  // Stops it (SIGKILL) and waits for it; what poll() says afterwards.
  Ended stop();
  // Writes `text` to its standard input and closes it (a piped_input child, once); false where
  // the write failed (the child has ended).
  bool send(const std::string& text);

 private:
  pid_t pid_ = -1;
  int input_ = -1;  // the pipe's end we write (piped_input)
  std::optional<Ended> ended_;
};

// "exit code 2", "signal 11 (Segmentation fault)".
std::string to_string(const ChildProcess::Ended& e);

}  // namespace rl::own
