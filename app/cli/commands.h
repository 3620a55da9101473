// What the subcommands share: the options that pick a run, the errors they throw, and the
// handler each returns. Each subcommand lives in its own file (list, trace and repeat, ladder,
// render, bench, the window); cli.cpp parses and dispatches.
#pragma once
#include <CLI/CLI.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "../backend/backend.h"
#include "../core/trace.h"
#include "../render/export.h"
#include "cli.h"

namespace rl::cli {

constexpr std::size_t kMaxTraceSize = core::kMaxTracedElements;
constexpr int kMaxStage = 1 << 20;  // past any trace's stages: the last is shown

// Options shared by `trace` and `render`: everything that picks a run to record.
struct RunOptions {
  std::string algorithm;
  std::string kernel;        // --kernel FILE: a kernel of your own instead of an algorithm
  bool block_given = false;  // --block was given (a kernel of your own takes its file's otherwise)
  std::string size;
  std::string rows, cols;  // the matrix family's shape
  int block = 32;
  int trace_block = 0;
  int cluster = 0;
  int gpus = 0;  // the across-GPUs family: GPUs (0: every GPU present, or kernels::kModelGpus in the model)
  std::string input = "random:1";
  std::string op = "sum";
  std::string type = "int";
  std::string accumulate = "float";
  std::string backend = "auto";
  bool no_check = false;    // --no-check: a kernel of your own's run alone, not again at other sizes
  bool no_compare = false;  // --no-compare: a kernel of your own's GPU run alone (the window compares)
};

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What a command may use: its output, its error stream, and the window (none in a build without one).
struct Io {
  std::ostream& out;
  std::ostream& err;
  const GuiEntry& gui;
};

// Runs a parsed command. Returns its exit code; a UsageError or std::invalid_argument is a
// usage error (2), any other exception a failure (1).
using Handler = std::function<int(const Io&)>;

std::vector<std::string> view_list();
extern const std::map<std::string, backend::Choice> kBackends;  // --backend's names
CLI::Validator not_negative(const std::string& what);
CLI::Validator finite(const std::string& flag);
// Adds the run options to cmd; returns --algorithm's option.
CLI::Option* add_run_options(CLI::App* cmd, RunOptions& o);
// text as a size (N or 2^K), or fallback where it is empty; UsageError naming flag otherwise.
std::size_t size_option(const std::string& flag, const std::string& text, std::size_t fallback);
backend::TraceRequest request_of(const RunOptions& o);
// said: where a kernel of your own's GPU run says how it compares with the CPU path's.
core::Trace record(const RunOptions& o, int runs = 0, std::ostream* said = nullptr);
// The across-GPUs family (kernels/collectives.h): an all-reduce's trace.
core::Trace record_collective(const RunOptions& o);
// --kernel FILE: a kernel of your own, on the GPU (cuda) or its PTX interpreted on the CPU (sim).
// A GPU run is interpreted beside (own_compare.h) and said writes the comparison's line.
core::Trace record_own(const RunOptions& o, std::ostream* said = nullptr);
// Writes a trace's findings to err; 1 when it has any (a kernel of your own's exit code), else 0.
int report_findings(const core::Trace& t, std::ostream& err);
int exported(const render::Exported& r);

// Each subcommand: adds its options to cmd and returns what runs it once parsed.
Handler list_command(CLI::App& cmd);
Handler trace_command(CLI::App& cmd);
Handler repeat_command(CLI::App& cmd);
Handler ladder_command(CLI::App& cmd);
Handler render_command(CLI::App& cmd);
Handler bench_command(CLI::App& cmd);
// No subcommand: the window, its options on the program's own App.
Handler window_command(CLI::App& app);

}  // namespace rl::cli
