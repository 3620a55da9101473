// A GPU run of a kernel of your own in a process of its own: the window starts this program's
// `trace --kernel FILE --backend cuda --no-compare` and reads back the trace it writes, so a
// kernel that never ends, crashes the driver or corrupts memory ends that process only; a
// watchdog stops it after a few seconds, and the window keeps running.
#pragma once
#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "../core/bench.h"
#include "../core/trace.h"
#include "own_run.h"

namespace rl::own {

struct ProcessOptions {
  std::string program;           // this program's path (this_program())
  std::string backend = "cuda";  // the child's --backend (sim: tests without a GPU)
  double watchdog_s = 10;        // a run still going after this long is stopped
  bool check = true;             // false: --no-check, the run alone (the trace on screen sooner)
};

// The path of the running program (/proc/self/exe); empty where it cannot be read.
std::string this_program();

class ChildProcess;
class TempFolder;

// A GPU run's child started before Run is pressed (`PROGRAM --standby`): it starts CUDA and NVRTC,
// then waits for the words of one command on its standard input, runs it and ends. CUDA's start in
// a new process, most of a run's time on an H200 (docs/verification.md), is then behind it when
// the student presses Run. The window keeps one ready after each GPU run; it holds a CUDA context
// while it waits.
class Standby {
 public:
  explicit Standby(const std::string& program);  // throws std::runtime_error where it cannot start
  ~Standby();
  Standby(const Standby&) = delete;
  Standby& operator=(const Standby&) = delete;
  bool waiting();  // started, not ended, nothing sent yet
  // Its folder's file `name` (the request's files go there before send), and its output files.
  std::string at(const std::string& name) const;
  // The words of the command (without the program), once; false where it has ended.
  bool send(const std::vector<std::string>& words);
  ChildProcess& child() { return *child_; }

 private:
  std::unique_ptr<TempFolder> dir_;
  std::unique_ptr<ChildProcess> child_;
  bool sent_ = false;
};

// Runs the request in a child process (the file as request.source holds it, under its own name,
// in a temporary folder; the input as numbers) and returns the trace it wrote, checked as any
// opened trace is. Throws std::runtime_error with what the child said (a compile error as
// NAME:LINE: ...), or why it was stopped: the watchdog, *cancel, a signal. Waits for the child.
core::Trace trace_in_process(const OwnRequest& request, core::Op op, const ProcessOptions& options,
                             const std::atomic<bool>* cancel = nullptr, std::unique_ptr<Standby> ready = nullptr);

// `bench --kernel FILE --format json` and `options` (--type, --op, --sizes, -a ...) in a child
// process, as the window's Bandwidth tab times a kernel of your own: its results, read back as an
// opened results file is. Throws std::runtime_error with what the child said, or why it was
// stopped (the watchdog, *cancel).
core::BenchReport bench_in_process(const OwnRequest& request, const std::vector<std::string>& options,
                                   const ProcessOptions& options_of_process, const std::atomic<bool>* cancel = nullptr);

}  // namespace rl::own
