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
  // Starts argv[0] (a path) with argv's other words; its standard input is /dev/null, its output
  // and error go to the two files (created or truncated: paths of the caller's own temporaries).
  // Throws std::runtime_error naming what failed.
  ChildProcess(const std::vector<std::string>& argv, const std::string& out_path, const std::string& err_path);
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

 private:
  pid_t pid_ = -1;
  std::optional<Ended> ended_;
};

// "exit code 2", "signal 11 (Segmentation fault)".
std::string to_string(const ChildProcess::Ended& e);

}  // namespace rl::own
