#include "cli.h"


#include <CLI/CLI.hpp>
#include <cerrno>
#include <cctype>
#include <cmath>
#include <charconv>
#include <cstring>
#include <cstdio>
#include <utility>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <map>
#include <optional>
#include <memory>
#include <vector>
#include <tuple>
#include <nlohmann/json.hpp>

#include "../../kernels/algorithms.h"
#include "../../kernels/race_api.h"
#include "../backend/bench_runner.h"
#include "../backend/geometry.h"
#include "../backend/ladder.h"
#include "../backend/repeat.h"
#include "../core/bench.h"
#include "../core/catalog.h"
#include "../core/run_file.h"
#include "../core/views.h"
#include "../core/facts.h"
#include "../core/file_io.h"
#include "../core/text.h"
#include "../core/glossary.h"
#include "../core/input.h"
#include "../core/race.h"
#include "../render/bench_chart.h"
#include "../render/export.h"

namespace rl::cli {
namespace {

// The views' names, for CLI11's check (core::kViewRows).
std::vector<std::string> view_list() {
  std::vector<std::string> out;
  for (const auto& r : core::kViewRows) out.emplace_back(r.name);
  return out;
}

constexpr std::size_t kMaxTraceSize = core::kMaxTracedElements;
constexpr int kMaxStage = 1 << 20;  // past any trace's stages: the last is shown

// Options shared by `trace` and `render`: everything that picks a run to record.
struct RunOptions {
  std::string algorithm;
  std::string size;
  std::string rows, cols;  // the matrix family's shape
  int block = 32;
  int trace_block = 0;
  int cluster = 0;
  std::string input = "random:1";
  std::string op = "sum";
  std::string type = "int";
  std::string accumulate = "float";
  std::string backend = "auto";
};

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
  auto* algorithm = cmd->add_option("--algorithm,-a", o.algorithm, "Algorithm id (see `list`)")
                        ->check(CLI::IsMember(core::algorithm_ids()));
  cmd->add_option("--size,-n", o.size, "Elements: N or 2^K (default: one block, or the file's count)");
  cmd->add_option("--rows", o.rows, "Matrix algorithms: rows, N or 2^K (default 8)");
  cmd->add_option("--cols", o.cols, "Matrix algorithms: columns, N or 2^K (default: one block)");
  // Which block sizes an algorithm takes is the kernels' to say (check_launch).
  cmd->add_option("--block,-b", o.block, "Threads per block: a power of two, 32..1024 (non-pow2-block: 2..1024)");
  cmd->add_option("--trace-block", o.trace_block, "Which block to record (0-based)")
      ->check(not_negative("the traced block's index"));
  cmd->add_option("--cluster", o.cluster, "cluster-dsmem: blocks a cluster, 2 | 4 | 8 (default 4)")
      ->check(CLI::IsMember({2, 4, 8}));
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

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

std::size_t size_option(const std::string& flag, const std::string& text, std::size_t fallback) {
  if (text.empty()) return fallback;
  const auto parsed = parse_size(text);
  if (!parsed) throw UsageError(flag + ": '" + text + "' is not a size (use N or 2^K)");
  if (*parsed == 0) throw UsageError(flag + ": must be at least 1");
  return *parsed;
}

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
      throw UsageError("--rows/--cols: " + std::to_string(req.rows) + " x " + std::to_string(req.cols) + " disagrees with the " +
                       std::to_string(req.input.size()) + " numbers in " + core::printable(spec->path));
    if (!o.size.empty() && req.input.size() != n)
      throw UsageError("--size " + o.size + " disagrees with the " + std::to_string(req.input.size()) +
                       " numbers in " + core::printable(spec->path));
  } else {
    req.input = core::generate_input(*spec, n, type);
  }
  return req;
}

// Runs the chosen backend (runs > 0: the race-revealing recording, that many times).
// UsageError for requests that cannot be, runtime_error otherwise.
core::Trace record(const RunOptions& o, int runs = 0) {
  const backend::TraceRequest req = request_of(o);
  if (runs > 0 && !core::has_race_recording(o.algorithm))
    throw UsageError("--runs: " + o.algorithm + " has no race-revealing recording (it takes missing-syncthreads, "
                     "legacy-warp-synchronous, and their fixes sequential and unroll-last-warp)");
  auto sel = backend::select(kBackends.at(o.backend));
  try {
    return runs > 0 ? sel.backend->race(req, runs) : sel.backend->trace(req);
  } catch (const std::invalid_argument& e) {
    throw UsageError(e.what());
  }
}

struct BenchOptions {
  std::string algorithms = "all";
  std::string sizes;
  std::string shapes;
  std::string type = "float";
  std::string op = "sum";
  std::string format = "text";
  std::string out;
  std::string backend = "auto";
  int block = 0;
  std::size_t grid = 0;
  int cluster = 0;
  double seconds = 1.0;
};

// The matrix kernels that choose their grid, for --grid: "a, b or c", from the catalog.
std::string grid_choosers() {
  std::vector<std::string> ids;
  for (const auto& r : kernels::kAlgorithms)
    if (r.family == kernels::Family::Matrix && kernels::matrix_chooses_grid(r.algo)) ids.emplace_back(r.id);
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i == 0 ? "" : i + 1 == ids.size() ? " or " : ", ") + ids[i];
  return out;
}

// --grid: only for the matrix kernels that choose their grid, each named.
void check_bench_grid(const BenchOptions& o, const std::vector<std::string>& ids) {
  if (o.grid == 0) return;
  if (o.shapes.empty()) throw UsageError("--grid applies to the matrix family: give --shapes");
  for (const auto& id : ids) {
    const auto* row = kernels::find_row(id);
    if (!row || row->family != kernels::Family::Matrix || !kernels::matrix_chooses_grid(row->algo))
      throw UsageError("--grid: " + id + " does not choose its grid; name " + grid_choosers());
  }
}

std::vector<std::string> split_ids(const std::string& text) {
  std::vector<std::string> ids;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = std::min(text.find(',', start), text.size());
    if (comma > start) ids.push_back(text.substr(start, comma - start));
    start = comma + 1;
  }
  return ids;
}

std::string text_row(const core::BenchRow& r) {
  char line[256];
  const std::string n = r.rows ? std::to_string(r.rows) + "x" + std::to_string(r.cols) : std::to_string(r.n);
  std::snprintf(line, sizeof line, "%-28s %-6s %-4s %16s %5s %12.2f %7.2f%% %5d %10.1f %7.1f%%  %s\n", r.algorithm.c_str(),
                r.type.c_str(), r.op.c_str(), n.c_str(), r.block ? std::to_string(r.block).c_str() : "-", r.median_us, r.noise_pct, r.samples, r.gbps, r.pct_of_peak,
                r.check_ok ? "ok" : ("WRONG: " + r.check).c_str());
  return line;
}

int cmd_bench(const BenchOptions& o, std::ostream& out, std::ostream& err) {
  backend::BenchRequest req;
  req.type = *core::parse_dtype(o.type);
  req.op = *core::parse_op(o.op);
  const bool matrix = !o.shapes.empty();
  if (matrix && !o.sizes.empty()) throw UsageError("--shapes and --sizes: give one or the other");
  req.algorithms = o.algorithms != "all" ? split_ids(o.algorithms)
                   : matrix              ? backend::default_matrix_bench_algorithms(req.type, req.op)
                                         : backend::default_bench_algorithms(req.type, req.op);
  if (req.algorithms.empty()) throw UsageError("--algorithm: names no algorithm (give ids separated by commas, or all)");
  for (const auto& id : req.algorithms)
    if (!core::find_algorithm(id)) throw UsageError("--algorithm: unknown algorithm '" + core::printable(id) + "' (see `list`)");
  const auto choice = kBackends.at(o.backend);
  std::string why;
  const bool gpu = choice != backend::Choice::Sim && backend::make_cuda_backend(&why);
  if (matrix) {
    // "sweep": 2^28 elements on a GPU (2^20 on the CPU model), from 2^4 rows to 2^24 (2^16), then
    // the odd shapes (core::sweep_shapes).
    const auto shapes =
        o.shapes == "sweep" ? std::optional(core::sweep_shapes(gpu ? 28 : 20)) : core::parse_shapes(o.shapes, &why);
    if (!shapes) throw UsageError("--shapes: " + why);
    req.shapes = *shapes;
  } else {
    const std::string sizes = o.sizes.empty() ? (gpu ? "2^16..2^28" : "2^10..2^16") : o.sizes;
    auto parsed = core::parse_sizes(sizes, &why);
    if (!parsed) throw UsageError("--sizes: " + why);
    req.sizes = *parsed;
  }
  check_bench_grid(o, req.algorithms);
  req.block = o.block;
  req.grid = o.grid;
  req.cluster = o.cluster;
  req.max_seconds = o.seconds;
  // Results go to --out whole, through the one writer, once measured: a refusal, a failure or
  // Ctrl+C leaves the previous file as it was. An unwritable folder fails now, not after minutes.
  std::ostringstream file;
  if (!o.out.empty() && !core::can_write_beside(o.out, &why))
    throw std::runtime_error(why);
  std::ostream& dest = o.out.empty() ? out : file;
  bool header = false;
  // JSON or CSV to a file: FILE.partial holds the rows finished so far, so a run cut short (a
  // time limit, a lost machine) keeps what it measured; removed once FILE is whole.
  // Not beside a pipe or device (/dev/full.partial in /dev): only a regular or new file gets one.
  std::error_code kind_ec;
  const auto out_kind =
      o.out.empty() ? std::filesystem::file_type::none : std::filesystem::status(o.out, kind_ec).type();
  const bool regular_out =
      out_kind == std::filesystem::file_type::regular || out_kind == std::filesystem::file_type::not_found;
  std::string partial_path = o.out.empty() || o.format == "text" || !regular_out ? "" : o.out + ".partial";
  if (!partial_path.empty() && std::filesystem::exists(partial_path)) {  // someone's file: not ours to replace
    err << "reduction-lab: warning: '" << partial_path << "' exists: no rows will be kept there as they finish\n";
    partial_path.clear();
  }
  core::BenchReport partial;
  bool wrote_partial = false;
  const auto stream_row = [&](const core::BenchRow& r) {
    if (!partial_path.empty()) {
      partial.rows.push_back(r);
      std::string error;
      if (core::write_file(partial_path, o.format == "json" ? core::to_json(partial) + "\n" : core::to_csv(partial), &error))
        wrote_partial = true;
      else
        err << "reduction-lab: warning: the rows so far: " << core::terminal_text(error) << "\n";
    }
    if (o.format != "text") return;
    if (!std::exchange(header, true))
      dest << "algorithm                    type   op                  n block    median_us   noise  samp       GB/s  of peak  check\n";
    dest << text_row(r) << std::flush;
  };
  const auto keep_header = [&](const backend::BenchProgress& p) {
    auto rows = std::move(partial.rows);
    partial = p.header, partial.rows = std::move(rows);
  };
  const auto report = backend::run_bench(req, choice, stream_row, keep_header, nullptr);
  if (o.format == "csv") dest << core::to_csv(report);
  else if (o.format == "json") dest << core::to_json(report) << "\n";
  else
    dest << "device: " << report.device << (report.backend == "sim" ? " (times of the CPU model, not of a GPU)" : "")
         << "; peak " << report.peak_gbps << " GB/s; " << report.date << "\n";
  errno = 0;
  if (!o.out.empty() && !core::write_file(o.out, file.str(), &why))
    throw std::runtime_error("cannot write the results: " + why);
  if (!dest) throw std::runtime_error("cannot write the results" + (errno ? std::string(": ") + std::strerror(errno) : std::string()));
  if (wrote_partial) std::remove(partial_path.c_str());
  return bench_verdict(report, err);
}

// docs/algorithms.md's generated part (scripts/algorithms-doc.sh splices it in).
// The catalog with each lesson's numbers filled from a CPU-model run (backend::with_numbers).
std::vector<core::AlgorithmInfo> lessons_with_numbers() {
  std::vector<core::AlgorithmInfo> out;
  for (const auto& a : core::algorithms()) out.push_back(backend::with_numbers(a));
  return out;
}

void list_markdown(std::ostream& out) {
  for (const auto& a : lessons_with_numbers()) {
    out << "### `" << a.id << "`: " << a.title << "\n\n*" << a.family << "*"
        << (a.file.empty() ? "" : ", `" + a.file + "`") << ". " << a.lesson << "\n\n";
    out << "*Run to run:* " << core::run_to_run_text(a.id) << ".\n\n";
    if (!a.brief.empty()) out << a.brief << "\n\n";
    if (a.look) out << "*Where to look:* " << core::pointer_label(*a.look, nullptr) << ": " << a.look->text << "\n\n";
    if (!a.detail.empty()) out << a.detail << "\n\n";
  }
  out << "## Glossary\n\nThe window underlines these words in the lessons; hovering one shows its entry.\n\n";
  for (const auto& t : core::glossary()) out << "- **" << t.term << "**: " << t.definition << "\n";
  out << "\n";
}

// README's inventory (scripts/algorithms-doc.sh splices it in): counted from the table, never typed.
void list_summary(std::ostream& out) {
  std::vector<std::pair<std::string, int>> families;  // in the table's order
  std::vector<std::string> baselines;
  int traced = 0;
  for (const auto& a : core::algorithms()) {
    if (a.kind == core::Kind::Baseline) {
      baselines.push_back("`" + a.id + "`");
      continue;
    }
    ++traced;
    auto it = std::find_if(families.begin(), families.end(), [&](const auto& f) { return f.first == a.family; });
    if (it == families.end()) it = families.insert(it, {a.family, 0});
    ++it->second;
  }
  out << traced << " traced algorithms in " << families.size() << " families (";
  for (std::size_t i = 0; i < families.size(); ++i)
    out << (i ? ", " : "") << families[i].first << " " << families[i].second;
  out << ") and " << baselines.size() << " baselines (";
  for (std::size_t i = 0; i < baselines.size(); ++i) out << (i ? ", " : "") << baselines[i];
  out << ")\n";
}

int cmd_list(std::ostream& out, const std::string& format) {
  if (format == "markdown") return list_markdown(out), 0;
  if (format == "summary") return list_summary(out), 0;
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& a : lessons_with_numbers())
      j.push_back({{"id", a.id},
                   {"family", a.family},
                   {"title", a.title},
                   {"lesson", a.lesson},
                   {"brief", a.brief},
                   {"run_to_run", kernels::to_string(kernels::run_to_run(*kernels::find_row(a.id)))}});
    out << j.dump(2) << "\n";
    return 0;
  }
  for (const auto& a : lessons_with_numbers())
    out << a.id << "  [" << a.family << "]  " << a.title << "\n    " << a.lesson << "\n";
  return 0;
}

}  // namespace

std::optional<std::size_t> parse_size(std::string_view text) { return core::parse_size(text, 62); }

namespace {

// What a command may use: its output, its error stream, and the window (none in a build without one).
struct Io {
  std::ostream& out;
  std::ostream& err;
  const GuiEntry& gui;
};
// Runs a parsed command. Returns its exit code; a UsageError or std::invalid_argument is a
// usage error (2), any other exception a failure (1).
using Handler = std::function<int(const Io&)>;

// An export's outcome, as an exit code or the exception run_handler reports.
int exported(const render::Exported& r) {
  if (r.status == render::Exported::Status::BadRequest) throw UsageError(r.error);
  if (!r.ok()) throw std::runtime_error(r.error);
  return 0;
}

Handler list_command(CLI::App& cmd) {
  auto format = std::make_shared<std::string>("text");
  cmd.add_option("--format", *format, "text | json | markdown | summary (the counts README.md quotes)")
      ->check(CLI::IsMember({"text", "json", "markdown", "summary"}));
  return [format](const Io& io) { return cmd_list(io.out, *format); };
}

Handler trace_command(CLI::App& cmd) {
  struct Options {
    RunOptions run;
    std::string format = "json";
    int runs = 0;
  };
  auto o = std::make_shared<Options>();
  add_run_options(&cmd, o->run)->required();
  cmd.add_option("--format", o->format, "json | text")->check(CLI::IsMember({"json", "text"}));
  cmd.add_option("--runs", o->runs,
                 "A race-revealing recording, run N times on the same input (GPU only; missing-syncthreads, "
                 "legacy-warp-synchronous, sequential, unroll-last-warp): wrong runs and blocks, and the stale reads "
                 "of a block of the first run whose first pass went wrong (else of the last run)")
      ->check(CLI::Range(1, kernels::kMaxRaceRuns));
  return [o](const Io& io) {
    const core::Trace t = record(o->run, o->runs);
    io.out << (o->format == "json" ? core::to_json(t) + "\n" : core::to_text(t));
    return 0;
  };
}

// The determinism lab from the command line: one algorithm, or every array algorithm, run N
// times on one input, its row's promise beside the distinct results.
void print_lab(std::ostream& out, const std::vector<backend::LabRow>& rows, core::DType type,
               const std::string& format) {
  if (format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& r : rows) {
      nlohmann::json results = nlohmann::json::array();
      for (const auto& d : r.repeats.results) {
        // JSON has no NaN or Inf: they travel as strings, as in traces ("nan", "inf", "-inf").
        const nlohmann::json value = std::isfinite(d.result) ? nlohmann::json(d.result)
                                     : std::isnan(d.result)  ? nlohmann::json("nan")
                                                             : nlohmann::json(d.result > 0 ? "inf" : "-inf");
        results.push_back({{"value", value}, {"count", d.count}});
      }
      j.push_back({{"algorithm", r.algorithm},
                   {"run_to_run", kernels::to_string(kernels::run_to_run(*kernels::find_row(r.algorithm)))},
                   {"backend", r.repeats.backend},
                   {"device", r.repeats.device},
                   {"runs", r.repeats.runs},
                   {"results", results},
                   {"error", r.error},
                   {"note", r.note}});
    }
    out << j.dump(2) << "\n";
    return;
  }
  for (const auto& r : rows) {
    const std::string promise(kernels::to_string(kernels::run_to_run(*kernels::find_row(r.algorithm))));
    char line[160];
    if (!r.error.empty()) {
      out << r.algorithm << "  " << promise << "  not run: " << core::printable(r.error) << "\n";
      continue;
    }
    std::snprintf(line, sizeof line, "%-26s %-8s %zu distinct in %d run%s:", r.algorithm.c_str(), promise.c_str(),
                  r.repeats.results.size(), r.repeats.runs, r.repeats.runs == 1 ? "" : "s");
    out << line;
    for (const auto& d : r.repeats.results) out << " " << core::format_value(d.result, type) << " x" << d.count;
    out << (r.note.empty() ? "" : "  (" + r.note + ")") << "\n";
  }
  const auto ran = std::find_if(rows.begin(), rows.end(), [](const backend::LabRow& r) { return r.error.empty(); });
  if (ran != rows.end()) out << "device: " << ran->repeats.device << "\n";
}

Handler repeat_command(CLI::App& cmd) {
  struct Options {
    RunOptions run;
    int runs = backend::kDefaultRepeats;
    std::string format = "text";
  };
  auto o = std::make_shared<Options>();
  add_run_options(&cmd, o->run)->description("Algorithm id (default: every array algorithm but the pitfalls)");
  cmd.add_option("--runs", o->runs, "Runs of each algorithm (the CPU model runs each once: its order never changes)")
      ->check(CLI::Range(1, backend::kMaxRepeats));
  cmd.add_option("--format", o->format, "text | json")->check(CLI::IsMember({"text", "json"}));
  return [o](const Io& io) {
    RunOptions run = o->run;
    const bool every = run.algorithm.empty();
    if (every) run.algorithm = "sequential";  // the shape of an array run
    backend::TraceRequest req = request_of(run);
    auto sel = backend::select(kBackends.at(run.backend));
    std::vector<backend::LabRow> rows;
    if (every) {
      rows = backend::repeat_every(*sel.backend, req, o->runs);
    } else {
      backend::LabRow row;
      row.algorithm = req.algorithm;
      row.error = backend::type_refusal(req.algorithm, req.type, req.op);
      if (!row.error.empty()) throw UsageError(row.error);
      try {
        row.repeats = backend::repeat_trace(*sel.backend, req, backend::runs_on(*sel.backend, o->runs));
      } catch (const std::invalid_argument& e) {
        throw UsageError(e.what());
      }
      rows.push_back(std::move(row));
    }
    print_lab(io.out, rows, req.type, o->format);
    if (std::all_of(rows.begin(), rows.end(), [](const backend::LabRow& r) { return !r.error.empty(); })) {
      io.err << "reduction-lab: error: no algorithm ran (each says why above)\n";
      return 1;
    }
    return 0;
  };
}

// reduction-lab ladder: one input through one algorithm in half, bf16, float and double.
Handler ladder_command(CLI::App& cmd) {
  struct Options {
    std::string algorithm = "warp-shuffle-vectorized", size = "2^20", input = "random:1", backend = "auto";
    std::string format = "text";
    double seconds = 0.5;
  };
  auto o = std::make_shared<Options>();
  cmd.add_option("--algorithm,-a", o->algorithm,
                 "An algorithm that takes half and bf16 (default warp-shuffle-vectorized)")
      ->check(CLI::IsMember(core::algorithm_ids()));
  const CLI::Option* size = cmd.add_option("--size,-n", o->size, "Elements: N or 2^K, at most 2^27 (default 2^20)");
  cmd.add_option("--input", o->input, "iota | ones | random[:SEED] | PATH (numbers file): rounded to each rung's type");
  cmd.add_option("--backend", o->backend, "auto | cuda | sim (sim: the CPU model's sums, untimed)")
      ->check(CLI::IsMember({"auto", "cuda", "sim"}));
  cmd.add_option("--seconds", o->seconds, "Time for each rung's samples, at most")
      ->check(finite("--seconds"))  // CLI::Range lets NaN through
      ->check(CLI::Range(0.01, 60.0));
  cmd.add_option("--format", o->format, "text | json")->check(CLI::IsMember({"text", "json"}));
  return [o, size](const Io& io) {
    std::string why;
    const auto spec = core::parse_input_spec(o->input, &why);
    if (!spec) throw UsageError("--input: " + why);
    const std::size_t n = size_option("--size", o->size, std::size_t(1) << 20);
    if (n > kMaxTraceSize) throw UsageError("--size: the ladder takes at most 2^27 elements, got " + o->size);
    const std::vector<double> values = spec->kind == core::InputSpec::Kind::File
                                           ? core::read_input_file(spec->path, core::DType::Double, kMaxTraceSize)
                                           : core::generate_input(*spec, n, core::DType::Double);
    if (spec->kind == core::InputSpec::Kind::File && size->count() > 0 && values.size() != n)
      throw UsageError("--size " + o->size + " disagrees with the " + std::to_string(values.size()) + " numbers in " +
                       core::printable(spec->path));
    backend::LadderRun run;
    try {
      run = backend::run_ladder(o->algorithm, values, kBackends.at(o->backend), o->seconds);
    } catch (const std::invalid_argument& e) {
      throw UsageError(e.what());
    }
    if (o->format == "text") {
      io.out << backend::ladder_text(run);
      return 0;
    }
    nlohmann::ordered_json rungs = nlohmann::ordered_json::array();
    for (const auto& r : run.rungs)
      rungs.push_back({{"type", core::narrow_name(r.rung.element)},
                       {"adds_in", core::narrow_name(r.rung.accumulator)},
                       {"result", std::isfinite(r.rung.result)
                                      ? nlohmann::ordered_json(r.rung.result)
                                      : nlohmann::ordered_json(core::format_value(r.rung.result, core::DType::Double))},
                       {"reference", double(r.rung.reference)},
                       {"ulps", r.rung.ulps ? nlohmann::ordered_json(*r.rung.ulps) : nlohmann::ordered_json(nullptr)},
                       {"median_us", r.median_us},
                       {"gbps", r.gbps},
                       {"noise_pct", r.noise_pct}});
    io.out << nlohmann::ordered_json{{"algorithm", run.algorithm},
                                     {"device", run.device},
                                     {"gpu", run.gpu},
                                     {"date", run.date},
                                     {"peak_gbps", run.peak_gbps},
                                     {"n", values.size()},
                                     {"input", core::to_string(*spec)},
                                     {"rungs", rungs}}
                  .dump(2)
           << "\n";
    return 0;
  };
}

struct RenderOptions {
  RunOptions run;
  int stage = 0, width = 1280, height = 720;
  std::string out, chart, shipped, video, view = "memory";
  bool all_stages = false, presenter = false;
  int warp = 0;
};

// The results file's report (--chart FILE).
core::BenchReport read_results(const std::string& path) {
  std::string text, why;
  if (!core::read_file(path, core::files::kResults, &text, &why)) throw std::runtime_error(why);
  return core::bench_from_json(text);
}

// The shipped run's report of the type and operator (--shipped RUN).
core::BenchReport shipped_results(const std::string& run, const std::string& type, const std::string& op) {
  if (const auto* r = core::shipped_report(run, type, op)) return *r;
  throw UsageError("--shipped " + run + " has no " + type + " " + op + "; it holds " + core::shipped_contents(run));
}

// render --chart FILE or --shipped RUN: a bandwidth chart. Without --type the chart is of floats.
int render_chart(const RenderOptions& o, bool type_given) {
  if (o.out.empty()) throw UsageError("--out is required");
  const std::string type = type_given ? o.run.type : "float";
  const bool shipped = !o.shipped.empty();
  const auto report = shipped ? shipped_results(o.shipped, type, o.run.op) : read_results(o.chart);
  const auto chart = render::bench_chart(report, type, o.run.op, shipped ? render::Origin::Shipped : render::Origin::ThisMachine);
  if (chart.series.empty()) {
    std::string held;  // what the file does hold, so the next try names it
    for (const auto& r : report.rows)
      if (const std::string k = r.type + " " + r.op; held.find(k) == std::string::npos)
        held += (held.empty() ? "" : ", ") + k;
    throw UsageError("the results hold no rows for " + o.run.op + " of " + type +
                     (held.empty() ? std::string(": they hold no rows at all")
                                   : "; they hold " + core::printable(held) + " (--type and --op pick)"));
  }
  return exported(render::export_chart_png(chart, o.width, o.height, o.out));
}

// An output that is one of the inputs (the same file, under any name) would replace what the
// run reads: refused before anything is read or written.
void refuse_output_over(const std::string& out, const std::vector<std::string>& inputs) {
  std::error_code ec;
  for (const auto& in : inputs)
    if (!out.empty() && !in.empty() && std::filesystem::equivalent(out, in, ec))
      throw UsageError("--out '" + core::printable(out) + "' is the input '" + core::printable(in) +
                       "': writing it would replace what this run reads; name another file");
}

int run_render(const RenderOptions& o, const CLI::App& cmd) {
  refuse_output_over(o.out.empty() ? o.video : o.out, {o.chart, o.run.input});
  // PNG bytes under another name (x.jpg) open as nothing in most viewers: the name says PNG.
  std::string ext = std::filesystem::path(o.out).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return char(std::tolower(ch)); });
  std::error_code kind_ec;  // a pipe or device (/dev/stdout) takes the bytes under its own name
  const auto kind = std::filesystem::status(o.out, kind_ec).type();
  const bool stream = kind == std::filesystem::file_type::character || kind == std::filesystem::file_type::fifo;
  if (!o.out.empty() && !o.all_stages && ext != ".png" && !stream)
    throw UsageError("--out: render writes PNG; name the file .png, got '" + core::printable(o.out) + "'");
  if (!o.chart.empty() || !o.shipped.empty()) return render_chart(o, cmd.count("--type") > 0);
  if (o.run.algorithm.empty()) throw UsageError("render needs --algorithm and --stage, --chart FILE or --shipped RUN");
  render::Look look{*render::parse_view(o.view)};
  look.warp = o.warp;
  look.presenter = o.presenter;
  if (!o.video.empty()) return exported(render::export_video(record(o.run), o.width, o.height, o.video, look));
  if (o.out.empty()) throw UsageError("--out is required");
  if (o.all_stages && (o.out.ends_with('/') || std::filesystem::is_directory(o.out)))
    throw UsageError("--out: --all-stages takes a file name prefix (PREFIX-stage00.png, ...), got the folder '" +
                     core::printable(o.out) + "'; add a name, e.g. " + core::printable(o.out) + (o.out.ends_with('/') ? "" : "/") + "run");
  if (o.all_stages) return exported(render::export_all_stages(record(o.run), o.width, o.height, o.out, look));
  if (!cmd.count("--stage")) throw UsageError("--stage is required with --algorithm");
  const core::Trace t = record(o.run);
  if (o.stage >= int(t.stages.size()))
    throw UsageError("--stage: " + std::to_string(o.stage) + " is past the last stage (" +
                     std::to_string(t.stages.size() - 1) + ")");
  return exported(render::export_stage_png(t, o.stage, o.width, o.height, o.out, look));
}

Handler render_command(CLI::App& cmd) {
  auto o = std::make_shared<RenderOptions>();
  auto* algorithm = add_run_options(&cmd, o->run);
  auto* stage = cmd.add_option("--stage", o->stage, "Stage to draw (0 = the load)")->check(CLI::Range(0, kMaxStage));
  auto* chart = cmd.add_option("--chart", o->chart, "A results file from `bench --format json`: draw its chart");
  chart->excludes(algorithm)->excludes(stage);
  auto* shipped = cmd.add_option("--shipped", o->shipped,
                                 "Draw the chart of a GPU run shipped with the program (measured there, not on this machine)")
                      ->check(CLI::IsMember(core::shipped_runs()));
  shipped->excludes(algorithm)->excludes(stage)->excludes(chart);
  cmd.add_option("--view", o->view, "Which view: " + core::view_names())->check(CLI::IsMember(view_list()));
  cmd.add_flag("--presenter", o->presenter,
               "Draw as presenter mode does: larger text, high contrast, none under 18 px");
  cmd.add_option("--warp", o->warp, "The warp a view enlarges (0-based): the lanes view, a wide block's memory view")
      ->check(CLI::Range(0, 31));  // a block holds at most 32 warps (NonNegativeNumber printed a 309-digit range)
  auto* all = cmd.add_flag("--all-stages", o->all_stages, "One PNG per stage: OUT-stage00.png, ... (--out is the prefix)");
  auto* video = cmd.add_option("--video", o->video, "The whole run as FILE.mp4 or FILE.gif (ffmpeg)");
  all->excludes(stage)->excludes(chart)->excludes(shipped);
  video->excludes(stage)->excludes(chart)->excludes(shipped)->excludes(all);
  cmd.add_option("--out,-o", o->out, "PNG file to write (with --all-stages: the files' prefix)");
  cmd.add_option("--width", o->width, "Image width in pixels")->check(CLI::Range(64, 8192));
  cmd.add_option("--height", o->height, "Image height in pixels")->check(CLI::Range(64, 8192));
  return [o, &cmd](const Io&) { return run_render(*o, cmd); };
}

Handler bench_command(CLI::App& cmd) {
  auto o = std::make_shared<BenchOptions>();
  cmd.add_option("--algorithm,-a", o->algorithms, "all, or ID,ID,...");
  cmd.add_option("--sizes", o->sizes, "2^A..2^B or N,N,... (default 2^16..2^28 on a GPU, 2^10..2^16 on the CPU model)");
  cmd.add_option(
      "--shapes", o->shapes,
      "Matrix family: ROWSxCOLS,... (each N or 2^K, e.g. 2^8x2^20), or 'sweep': 2^28 elements from 2^4 "
      "to 2^24 rows on a GPU (2^20 elements on the CPU model), then odd shapes: 2^24 x 15, 10^6 x 100, 3 x (2^20 + 1)");
  cmd.add_option("--type", o->type, "int | float | double | half | bf16 (half and bf16 add in float)")
      ->check(CLI::IsMember({"int", "float", "double", "half", "bf16"}));
  cmd.add_option("--op", o->op, "sum | min | max")->check(CLI::IsMember({"sum", "min", "max"}));
  cmd.add_option("--format", o->format, "text | csv | json")->check(CLI::IsMember({"text", "csv", "json"}));
  cmd.add_option("--out,-o", o->out,
                 "Write the results to FILE instead of stdout (csv, json: FILE.partial holds the rows finished so far "
                 "while it runs)");
  cmd.add_option("--backend", o->backend, "auto | cuda | sim")->check(CLI::IsMember({"auto", "cuda", "sim"}));
  cmd.add_option("--block", o->block, "Threads per block for every algorithm (default: 256, or an algorithm's own choice where it has one)")
      ->check(not_negative("a block size (0: each algorithm's own)"));
  cmd.add_option("--grid", o->grid,
                 "With --shapes, for " + grid_choosers() + ": about N blocks in the first pass "
                 "(default: two waves of the device; chunks of " + std::to_string(kernels::kRowChunkElements) +
                     " elements a thread for batched-rows-vectorized; a block an SM, four for rows under 128 columns, for column-sums-vectorized)")
      ->check(CLI::Range(std::size_t(1), std::size_t(2147483647)));
  cmd.add_option("--cluster", o->cluster, "cluster-dsmem: blocks a cluster, 2 | 4 | 8 (default 4)")
      ->check(CLI::IsMember({2, 4, 8}));
  cmd.add_option("--seconds", o->seconds, "Time limit per point (default 1)")->check(finite("--seconds"))->check(CLI::Range(0.01, 60.0));
  return [o](const Io& io) { return cmd_bench(*o, io.out, io.err); };
}

// --race-file is read before the window opens: a file it cannot show is a usage error naming
// the file and what is wrong with it.
void check_race_file(const GuiOptions& opts) {
  if (opts.race_file.empty()) return;
  core::Trace t;
  try {
    t = core::read_race_file(opts.race_file);
    backend::complete_geometry(t);
  } catch (const std::runtime_error& e) {
    throw UsageError("--race-file " + std::string(e.what()));
  }
  if (!opts.algorithm.empty() && opts.algorithm != t.algorithm)
    throw UsageError("--race-file " + core::printable(opts.race_file) + " records " + t.algorithm + ", but --algorithm asks for " + opts.algorithm);
}

// --open is read before the window opens, as --race-file is; a file it cannot show is named on
// standard error and the window opens anyway, saying the same in its status line.
void check_open_file(const GuiOptions& opts, std::ostream& err) {
  if (opts.open.empty()) return;
  try {
    core::OpenedRun run = core::open_run_file(opts.open);
    if (run.kind != core::RunFile::Results) backend::complete_geometry(run.trace);
  } catch (const std::runtime_error& e) {
    err << "reduction-lab: --open " << core::terminal_text(e.what()) << "; the window opens without it\n";
  }
}

int open_window(GuiOptions opts, const std::string& backend, const Io& io) {
  opts.backend = kBackends.at(backend);
  if (opts.headless && opts.quit_after_frames == 0)
    throw UsageError("--headless needs --quit-after-frames N: there is no window to close");
  if (opts.soak && opts.quit_after_frames == 0) throw UsageError("--soak needs --quit-after-frames N");
  if (!opts.frame_report.empty() && opts.quit_after_frames == 0) throw UsageError("--frame-report needs --quit-after-frames N");
  if (std::int64_t(opts.rows) * opts.cols > core::kMaxWindowElements)
    throw UsageError("--rows/--cols: the window traces at most 2^20 elements, got " + std::to_string(opts.rows) + " x " +
                     std::to_string(opts.cols));
  check_race_file(opts);
  check_open_file(opts, io.err);
  if (!io.gui) {
    io.err << "reduction-lab: error: this build has no window; use the list, trace or render commands\n";
    return 1;
  }
  return io.gui(opts, io.err);
}

// No subcommand: the window, with its options on the program itself.
Handler window_command(CLI::App& app) {
  struct Options {
    GuiOptions gui;
    std::string backend = "auto";
  };
  auto o = std::make_shared<Options>();
  GuiOptions& g = o->gui;
  app.add_option("--backend", o->backend, "Window's backend: auto | cuda | sim")->check(CLI::IsMember({"auto", "cuda", "sim"}));
  app.add_option("--quit-after-frames", g.quit_after_frames, "Close the window after N frames (for tests)")
      ->check(CLI::Range(1, 100000000));
  app.add_option("--screenshot", g.screenshot, "Save the last frame as PNG (at --quit-after-frames, or when Ctrl+Q quits)");
  app.add_option("--tab", g.tab, "Open the window on: stages | bandwidth")->check(CLI::IsMember({"stages", "bandwidth"}));
  app.add_flag("--run-bench", g.run_bench, "Start the Bandwidth tab's benchmark at once");
  app.add_flag("--export-gif", g.export_gif,
               "Start a GIF export of the run at once (with --frame-report: the frames drawn while it runs)");
  app.add_option("--compare", g.compare, "Show a second algorithm beside the first, in lockstep")
      ->check(CLI::IsMember(core::traced_ids()));
  app.add_flag("--present", g.present, "Presenter mode: full screen, large type, high contrast (F11 or P toggles)");
  app.add_option("--bench-sizes", g.bench_sizes, "Sizes for --run-bench (2^A..2^B or N,N,...)")
      ->check(CLI::Validator(
          [](std::string& v) {  // checked here: a wrong list showed an empty chart with no message
            std::string why;
            return core::parse_sizes(v, &why) ? std::string() : why;
          },
          "SIZES"));
  app.add_option("--bench-shapes", g.bench_shapes,
                 "The Bandwidth tab on the matrix family, over these shapes (ROWSxCOLS,... or sweep)");
  app.add_option("--bench-algorithms", g.bench_algorithms, "Algorithms for --run-bench (all or ID,ID,...)");
  app.add_flag("--headless", g.headless,
               "Run the window's UI off screen through EGL, at 60 frames a second (needs --quit-after-frames)");
  app.add_flag("--play", g.play, "Start playing the stages");
  app.add_flag("--soak", g.soak,
               "Soak test: play every algorithm in every view and rerun the benchmark, sampling memory "
               "(with --quit-after-frames; the frame report holds the samples)");
  app.add_option("--export-dir", g.export_dir, "Folder for the Stages tab's exports (E, A, G, M keys)");
  app.add_option("--view", g.view, "The Stages tab's view: " + core::view_names() + " (V cycles)")
      ->check(CLI::IsMember(view_list()));
  app.add_option("--algorithm", g.algorithm, "The algorithm to open on")->check(CLI::IsMember(core::traced_ids()));
  app.add_option("--stage", g.stage, "The stage to show first (0-based; past the last shows the last)")
      ->check(CLI::Range(0, kMaxStage));
  app.add_option("--pane", g.pane, "The lesson pane's tab: lesson | work | float | glossary")
      ->check(CLI::IsMember({"lesson", "work", "float", "glossary"}));
  app.add_option_function<std::string>(
      "--window-size",
      [&g](const std::string& v) {
        int w = 0, h = 0;
        char x = 0;
        int used = 0;
        if (std::sscanf(v.c_str(), "%d%c%d%n", &w, &x, &h, &used) != 3 || used != int(v.size()) || x != 'x' ||
            w < 640 || h < 480 || w > 7680 || h > 4320)
          throw CLI::ValidationError("--window-size",
                                     "wants WxH from 640x480 to 7680x4320, got '" + core::printable(v) + "'");
        g.width = w, g.height = h, g.size_asked = true;
      },
      "The window's size, WxH (default 1600x900, scaled up to fill as much of a larger screen; off screen, the "
      "frame's)");
  for (const auto& [flag, side, what] : {std::tuple{"--rows", &g.rows, "rows"}, std::tuple{"--cols", &g.cols, "columns"}})
    app.add_option_function<std::string>(
        flag,
        [flag = std::string(flag), side = side](const std::string& v) {
          const auto n = core::parse_count(v);
          if (!n || *n < 1 || *n > core::kMaxWindowElements)
            throw CLI::ValidationError(flag, "wants N or 2^K from 1 to 2^20, got '" + v + "'");
          *side = int(*n);
        },
        std::string("A matrix algorithm's ") + what + ": N or 2^K (rows x cols at most 2^20; default as saved)");
  auto* scene = app.add_option("--scene", g.scene, "Open on a saved scene (its name, or a scene file)");
  auto* plan = app.add_option("--plan", g.plan,
                              "Open a lesson plan on its first scene; PageDown and PageUp step its scenes (shipped: "
                              "harris, coalescing; or a file)");
  app.add_option("--frame-report", g.frame_report, "Write every frame's time as JSON (with --quit-after-frames)");
  auto* open = app.add_option("--open", g.open,
                              "Open on a recorded run: a trace (`trace --format json`), a race recording or a results "
                              "file (`bench --format json`), checked before it is shown");
  auto* race = app.add_option("--race-file", g.race_file,
                              "Open on a race recording made on a GPU (`trace --runs N --format json`): its runs, and "
                              "the replay of its block");
  // Each opens the window on something of its own: two at once would drop one silently (issue 48).
  open->excludes(race)->excludes(scene)->excludes(plan)->excludes(app.get_option("--algorithm"));
  scene->excludes(plan);
  // An empty value is no value: '' was taken as "the default" where the user meant a name.
  for (auto* named : {open, race, scene, plan})
    named->check(
        CLI::Validator([](std::string& v) { return v.empty() ? std::string("is empty") : std::string(); }, "NONEMPTY"));
  return [o](const Io& io) { return open_window(o->gui, o->backend, io); };
}

// The subcommands, in the order --help lists them: each adds its options to its own CLI::App
// and returns what runs it once parsed.
struct Subcommand {
  const char* name;
  const char* about;
  Handler (*setup)(CLI::App& cmd);
};
const Subcommand kSubcommands[] = {
    {"list", "List the algorithms", list_command},
    {"trace", "Record every stage of one block of a run", trace_command},
    {"repeat", "Run one algorithm, or every one, N times on one input: do its results repeat bit for bit?",
     repeat_command},
    {"ladder",
     "One input in half, bf16 (added in themselves and in float), float and double: each sum's error, "
     "time and bandwidth",
     ladder_command},
    {"render", "Draw a stage's view, or a results file's or shipped run's chart, to PNG, headless (EGL)",
     render_command},
    {"bench", "Time algorithms on large arrays (GB/s against the peak and CUB)", bench_command},
};

// An option given with an empty value (`-n ''`, `--sizes ''`) would silently mean its default:
// a usage error names it instead (issue 48, item 14).
void refuse_empty_values(const CLI::App& app) {
  for (const CLI::Option* o : app.get_options()) {
    if (o->count() == 0 || o->get_type_size() == 0) continue;  // not given, or a flag
    for (const std::string& value : o->results())
      if (value.empty()) throw CLI::ValidationError(o->get_name(), "is empty (give a value, or leave the option out)");
  }
  for (const CLI::App* sub : app.get_subcommands()) refuse_empty_values(*sub);
}

// An exit code when parsing ends the run (help, version, a usage error); nullopt to go on.
std::optional<int> parse(CLI::App& app, int argc, const char* const* argv, const Io& io) {
  try {
    app.parse(argc, argv);
    refuse_empty_values(app);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e, io.out, io.err);
  } catch (const CLI::ParseError& e) {
    io.err << "reduction-lab: error: " << core::terminal_text(e.what()) << " (see --help)\n";
    return 2;
  }
  return std::nullopt;
}

int run_handler(const Handler& handler, const Io& io) {
  try {
    return handler(io);
  } catch (const UsageError& e) {
    io.err << "reduction-lab: error: " << core::terminal_text(e.what()) << "\n";
    return 2;
  } catch (const std::invalid_argument& e) {
    io.err << "reduction-lab: error: " << core::terminal_text(e.what()) << "\n";
    return 2;
  } catch (const std::exception& e) {
    io.err << "reduction-lab: error: " << core::terminal_text(e.what()) << "\n";
    return 1;
  }
}

int run_command(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const GuiEntry& gui) {
  CLI::App app{"Reduction Lab: watch GPUs reduce an array, stage by stage", "reduction-lab"};
  app.set_version_flag("--version", std::string("reduction-lab ") + REDLAB_VERSION);
  app.require_subcommand(0, 1);
  Handler chosen = window_command(app);
  std::vector<std::pair<const CLI::App*, Handler>> commands;
  for (const Subcommand& c : kSubcommands) {
    CLI::App* cmd = app.add_subcommand(c.name, c.about);
    commands.emplace_back(cmd, c.setup(*cmd));
  }
  const Io io{out, err, gui};
  if (const auto code = parse(app, argc, argv, io)) return *code;
  for (const auto& [cmd, handler] : commands)
    if (*cmd) chosen = handler;
  return run_handler(chosen, io);
}

}  // namespace

// What a command printed counts only once it is flushed: `list >/dev/full` fails, saying so.
int run(int argc, const char* const* argv, std::ostream& out, std::ostream& err, const GuiEntry& gui) {
  const int code = run_command(argc, argv, out, err, gui);
  errno = 0;
  if (out.flush()) return code;
  err << "reduction-lab: error: cannot write the output: "
      << (errno ? std::strerror(errno) : "the write failed and the system gave no reason") << "\n";
  return 1;
}

int bench_verdict(const core::BenchReport& report, std::ostream& err) {
  if (report.rows.empty()) {
    err << "reduction-lab: error: nothing was measured (" << (report.backend == "sim" ? "the CPU model times no baseline; " : "")
        << "see `list` for what each backend runs)\n";
    return 1;
  }
  if (std::none_of(report.rows.begin(), report.rows.end(), core::was_run)) {
    err << "reduction-lab: error: nothing was measured: " << core::terminal_text(report.rows.front().check) << "\n";
    return 1;
  }
  for (const auto& r : report.rows)
    if (!r.check_ok && core::was_run(r)) {  // a row not run says so in the table; it is no wrong result
      err << "reduction-lab: error: " << r.algorithm << " n=" << r.n << " computed a wrong result: " << r.check << "\n";
      return 1;
    }
  return 0;
}

}  // namespace rl::cli
