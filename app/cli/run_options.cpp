// The options that pick a run (trace, render, repeat) and the request they make.
#include <cerrno>
#include <charconv>
#include <cmath>

#include "../../kernels/algorithms.h"
#include "../../kernels/collectives.h"
#include "../core/catalog.h"
#include "../core/input.h"
#include "../core/race.h"
#include "../core/text.h"
#include "../core/views.h"
#include "commands.h"

namespace rl::cli {

// The views' names, for CLI11's check (core::kViewRows).
std::vector<std::string> view_list() {
  std::vector<std::string> out;
  for (const auto& r : core::kViewRows) out.emplace_back(r.name);
  return out;
}

const std::map<std::string, backend::Choice> kBackends = {
    {"auto", backend::Choice::Auto}, {"cuda", backend::Choice::Cuda}, {"sim", backend::Choice::Sim}};

// Refuses a negative number in words (CLI11's own range check prints the double's maximum).
CLI::Validator not_negative(const std::string& what) {
  return CLI::Validator(
      [what](const std::string& v) {
        return v.rfind('-', 0) == 0 ? what + " cannot be negative, got " + v : std::string();
      },
      "N>=0");
}

// Refuses nan and inf, which pass CLI11's Range (every comparison with nan is false).
CLI::Validator finite(const std::string& flag) {
  return CLI::Validator(
      [flag](const std::string& v) {
        double d = 0;
        const auto r = std::from_chars(v.data(), v.data() + v.size(), d);
        return r.ec == std::errc() && !std::isfinite(d) ? flag + " must be a finite number, got " + v : std::string();
      },
      "FINITE");
}

CLI::Option* add_run_options(CLI::App* cmd, RunOptions& o) {
  std::vector<std::string> ids = core::algorithm_ids();
  for (const auto& r : kernels::kCollectives) ids.emplace_back(r.id);
  auto* algorithm =
      cmd->add_option("--algorithm,-a", o.algorithm, "Algorithm id (see `list`)")->check(CLI::IsMember(ids));
  cmd->add_option("--size,-n", o.size, "Elements: N or 2^K (default: one block, or the file's count)");
  cmd->add_option("--rows", o.rows, "Matrix algorithms: rows, N or 2^K (default 8)");
  cmd->add_option("--cols", o.cols, "Matrix algorithms: columns, N or 2^K (default: one block)");
  // Which block sizes an algorithm takes is the kernels' to say (check_launch).
  cmd->add_option_function<int>(
      "--block,-b", [&o](int b) { o.block = b, o.block_given = true; },
      "Threads per block: a power of two, 32..1024 (non-pow2-block: 2..1024; --kernel: 1..1024, default the file's)");
  cmd->add_option("--kernel", o.kernel,
                  "A kernel of your own (a .cu file with //! launch lines; docs/own-kernel.md), run on the GPU or its "
                  "PTX interpreted on the CPU")
      ->excludes(algorithm);
  cmd->add_flag("--no-compare", o.no_compare,
                "--kernel on a GPU: do not run the CPU path beside it to compare (the window runs it itself)");
  cmd->add_flag("--no-check", o.no_check,
                "--kernel: do not run it again at other sizes and under a second warp schedule (the window runs those "
                "once the trace is on screen)");
  cmd->add_option("--trace-block", o.trace_block, "Which block to record (0-based)")
      ->check(not_negative("the traced block's index"));
  cmd->add_option("--cluster", o.cluster, core::cluster_option_help())->check(CLI::IsMember({2, 4, 8}));
  cmd->add_option("--gpus", o.gpus,
                  "The across-GPUs family (ring-all-reduce, one-shot-all-reduce): GPUs, 2..8 (default: the CPU "
                  "model's 4)")
      ->check(CLI::Range(model::all_reduce::kMinGpus, model::all_reduce::kMaxGpus));
  cmd->add_option("--input", o.input, "iota | ones | random[:SEED] | PATH (numbers file)");
  cmd->add_option("--op", o.op, "sum | min | max")->check(CLI::IsMember({"sum", "min", "max"}));
  cmd->add_option("--type", o.type, "int | float | double | half | bf16")
      ->check(CLI::IsMember({"int", "float", "double", "half", "bf16"}));
  cmd->add_option("--accumulate", o.accumulate,
                  "half and bf16: add in float (default) or in the element type itself (same: every add rounds to its "
                  "11 or 8 bits)")
      ->check(CLI::IsMember({"float", "same"}));
  cmd->add_option("--backend", o.backend, "auto | cuda | sim")->check(CLI::IsMember({"auto", "cuda", "sim"}));
  return algorithm;
}

std::size_t size_option(const std::string& flag, const std::string& text, std::size_t fallback) {
  if (text.empty()) return fallback;
  const auto parsed = parse_size(text);
  if (!parsed) throw UsageError(flag + ": '" + text + "' is not a size (use N or 2^K)");
  if (*parsed == 0) throw UsageError(flag + ": must be at least 1");
  return *parsed;
}

namespace {

// The run's element count: --size for an array, --rows x --cols for a matrix (set in req).
std::size_t run_shape(const RunOptions& o, backend::TraceRequest& req) {
  const auto* row = kernels::find_row(o.algorithm);
  const bool matrix = row && row->shape == kernels::Shape::Matrix;
  const std::size_t block = static_cast<std::size_t>(o.block);
  if (!matrix && (!o.rows.empty() || !o.cols.empty()))
    throw UsageError("--rows/--cols: " + o.algorithm + " reduces an array; give it --size");
  if (matrix && !o.size.empty())
    throw UsageError("--size: " + o.algorithm + " reduces a matrix; give it --rows and --cols");
  if (!matrix) {
    const std::size_t n = size_option("--size", o.size, block);
    if (n > kMaxTraceSize) throw UsageError("--size: traces take at most 2^27 elements, got " + o.size);
    return n;
  }
  req.rows = size_option("--rows", o.rows, 8);
  req.cols = size_option("--cols", o.cols, block);
  if (req.cols > kMaxTraceSize / req.rows)
    throw UsageError("--rows/--cols: traces take at most 2^27 elements, got " + std::to_string(req.rows) + " x " +
                     std::to_string(req.cols));
  return req.rows * req.cols;
}

}  // namespace

// The request the run options describe (its input generated or read). UsageError for options
// that cannot be.
backend::TraceRequest request_of(const RunOptions& o) {
  const core::DType type = *core::parse_dtype(o.type);
  std::string why;
  const auto spec = core::parse_input_spec(o.input, &why);
  if (!spec) throw UsageError("--input: " + why);
  // Checked here, before the default size (one block) is taken from it; the algorithm's own
  // rule (a power of two from 32, or 2..1024) comes with the launch.
  if (o.block < 1) throw UsageError("--block: a block needs at least 1 thread, got " + std::to_string(o.block));
  backend::TraceRequest req;
  const std::size_t n = run_shape(o, req);

  req.algorithm = o.algorithm;
  req.op = *core::parse_op(o.op);
  req.type = type;
  req.accumulate = *core::parse_accumulate(o.accumulate);
  if (req.accumulate == core::Accumulate::Same && !core::is_narrow(type))
    throw UsageError("--accumulate same: " + o.type + " always adds in " + o.type +
                     "; the choice is for half and bf16");
  req.block = o.block;
  req.trace_block = o.trace_block;
  req.cluster = o.cluster;
  if (spec->kind == core::InputSpec::Kind::File) {
    req.input = core::read_input_file(spec->path, type, kMaxTraceSize);  // names file and line; stops past 2^27
    if (req.rows > 0 && req.input.size() != n)
      throw UsageError("--rows/--cols: " + std::to_string(req.rows) + " x " + std::to_string(req.cols) +
                       " disagrees with the " + std::to_string(req.input.size()) + " numbers in " +
                       core::printable(spec->path));
    if (!o.size.empty() && req.input.size() != n)
      throw UsageError("--size " + o.size + " disagrees with the " + std::to_string(req.input.size()) + " numbers in " +
                       core::printable(spec->path));
  } else {
    req.input = core::generate_input(*spec, n, type);
  }
  return req;
}

// Runs the chosen backend (runs > 0: the race-revealing recording, that many times).
// UsageError for requests that cannot be, runtime_error otherwise.
core::Trace record(const RunOptions& o, int runs, std::ostream* said) {
  if (!o.kernel.empty()) {
    if (runs > 0)
      throw UsageError("--runs: a kernel of your own has no race-revealing recording (its CPU path checks races)");
    return record_own(o, said);
  }
  if (o.algorithm.empty()) throw UsageError("give --algorithm (see `list`) or --kernel FILE");
  if (kernels::find_collective(o.algorithm)) {
    if (runs > 0) throw UsageError("--runs: " + o.algorithm + " has no race-revealing recording");
    return record_collective(o);
  }
  if (o.gpus > 0)
    throw UsageError("--gpus: " + o.algorithm + " runs on one GPU; --gpus is for the family across GPUs (" +
                     std::string(kernels::kCollectives[0].id) + ", " + std::string(kernels::kCollectives[1].id) + ")");
  const backend::TraceRequest req = request_of(o);
  if (runs > 0 && !core::has_race_recording(o.algorithm))
    throw UsageError("--runs: " + o.algorithm +
                     " has no race-revealing recording (it takes missing-syncthreads, "
                     "legacy-warp-synchronous, and their fixes sequential and unroll-last-warp)");
  auto sel = backend::select(kBackends.at(o.backend));
  try {
    return runs > 0 ? sel.backend->race(req, runs) : sel.backend->trace(req);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

// An export's outcome, as an exit code or the exception run_handler reports.
int exported(const render::Exported& r) {
  if (r.status == render::Exported::Status::BadRequest) throw UsageError(r.error);
  if (!r.ok()) throw std::runtime_error(r.error);
  return 0;
}

}  // namespace rl::cli
