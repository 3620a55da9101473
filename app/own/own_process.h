// A GPU run of a kernel of your own in a process of its own: the window starts this program's
// `trace --kernel FILE --backend cuda --no-compare` and reads back the trace it writes, so a
// kernel that never ends, crashes the driver or corrupts memory ends that process only; a
// watchdog stops it after a few seconds, and the window keeps running.
#pragma once
#include <atomic>
#include <string>

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

// Runs the request in a child process (the file as request.source holds it, under its own name,
// in a temporary folder; the input as numbers) and returns the trace it wrote, checked as any
// opened trace is. Throws std::runtime_error with what the child said (a compile error as
// NAME:LINE: ...), or why it was stopped: the watchdog, *cancel, a signal. Waits for the child.
core::Trace trace_in_process(const OwnRequest& request, core::Op op, const ProcessOptions& options,
                             const std::atomic<bool>* cancel = nullptr);

// `bench --kernel FILE --format json` and `options` (--type, --op, --sizes, -a ...) in a child
// process, as the window's Bandwidth tab times a kernel of your own: its results, read back as an
// opened results file is. Throws std::runtime_error with what the child said, or why it was
// stopped (the watchdog, *cancel).
core::BenchReport bench_in_process(const OwnRequest& request, const std::vector<std::string>& options,
                                   const ProcessOptions& options_of_process, const std::atomic<bool>* cancel = nullptr);

}  // namespace rl::own
