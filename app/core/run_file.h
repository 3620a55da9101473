// Any recorded run, opened from a file: a trace (`trace --format json`), a race recording
// (`trace --runs N --format json`) or a results file (`bench --format json`). What the file is
// comes from its fields; each is checked field by field by its own reader before it is shown.
#pragma once
#include <string>

#include "bench.h"
#include "trace.h"

namespace rl::core {

enum class RunFile { Trace, Race, Results };

struct OpenedRun {
  RunFile kind = RunFile::Trace;
  std::string path;
  Trace trace;           // Trace and Race
  BenchReport results;   // Results
};

// Throws std::runtime_error naming the file and what is wrong: not a regular file, over the
// limit for its kind, not JSON, none of the three, or a field the kind's reader refuses.
OpenedRun open_run_file(const std::string& path);

// "a trace", "a race recording", "a results file".
std::string to_string(RunFile kind);

// "recorded on NVIDIA H200, 2026-11-26 07:40 UTC", or for the CPU model's traces "made by the
// CPU model, not a GPU run (CPU model), date not recorded".
std::string recorded_label(const Trace& t);

}  // namespace rl::core
