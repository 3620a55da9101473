// `bench`: algorithms timed on large arrays or matrix shapes, checked, against the peak and CUB.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

#include "../../kernels/algorithms.h"
#include "../backend/bench_runner.h"
#include "../core/bench.h"
#include "../core/catalog.h"
#include "../core/file_io.h"
#include "../core/text.h"
#include "../own/own_bench.h"
#include "../own/own_trace.h"

#include "commands.h"

namespace rl::cli {
namespace {

struct BenchOptions {
  std::string algorithms = "all";
  bool algorithms_given = false;
  std::string kernel;  // --kernel FILE: a kernel of your own, timed beside the algorithms
  std::string sizes;
  std::string shapes;
  std::string type = "float";
  std::string op = "sum";
  std::string format = "text";
  std::string out;
  std::string backend = "auto";
  int block = 0;
  int gpus = 0;  // --gpus: the family across GPUs (refused: its timing is not built yet)
  std::size_t grid = 0;
  int cluster = 0;
  double seconds = 1.0;
};

// The kernels that take --grid over matrices (else arrays), for its help and errors: "a, b or c".
std::string grid_takers(bool matrix) {
  std::vector<std::string> ids;
  for (const auto& r : kernels::kAlgorithms)
    if (backend::takes_bench_grid(r, matrix)) ids.emplace_back(r.id);
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i == 0 ? "" : i + 1 == ids.size() ? " or " : ", ") + ids[i];
  return out;
}

// The most blocks an asked grid may have on the CPU model, which runs each block in turn and
// keeps a partial a block (the window's grid field stops there too).
constexpr std::size_t kModelMaxGrid = std::size_t(1) << 20;

// --grid: only for the kernels that take one over what is timed (--shapes: matrices, else
// arrays), each named; kernels of clusters, a whole number of them; on the CPU model, a grid it
// can run.
void check_bench_grid(const BenchOptions& o, const std::vector<std::string>& ids, bool on_gpu) {
  if (o.grid == 0) return;
  const bool matrix = !o.shapes.empty();
  if (!matrix && !on_gpu && o.grid > kModelMaxGrid)
    throw UsageError("--grid: the CPU model runs every block in turn: at most 2^20 blocks over arrays here, got " +
                     std::to_string(o.grid));
  for (const auto& id : ids) {
    const auto* row = kernels::find_row(id);
    const bool cooperative = !matrix && row && row->combine == kernels::Combine::GridSync;
    if (!row || !backend::takes_bench_grid(*row, matrix))
      throw UsageError("--grid: " + core::printable(id) + " takes no grid over " + (matrix ? "matrices" : "arrays") +
                       (cooperative ? " (a cooperative launch: its blocks must all be resident at once, so it sizes "
                                      "its own)"
                                    : "") +
                       "; name " + grid_takers(matrix) +
                       (matrix ? "" : " (with --shapes, the matrix kernels " + grid_takers(true) + ")"));
    const int cluster =
        matrix || row->tree != kernels::Tree::Cluster ? 1 : kernels::cluster_blocks(row->algo, o.cluster);
    if (o.grid % std::size_t(cluster) != 0)
      throw UsageError("--grid: " + id + " launches clusters of " + std::to_string(cluster) +
                       " blocks: give a multiple of " + std::to_string(cluster));
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
  char wb[48] = "";
  if (r.write_back_us > 0) std::snprintf(wb, sizeof wb, " (L2 write-back %.2f us in the time)", r.write_back_us);
  std::snprintf(line, sizeof line, "%-28s %-6s %-4s %16s %5s %12.2f %7.2f%% %5d %10.1f %7.1f%%  %s%s\n",
                r.algorithm.c_str(), r.type.c_str(), r.op.c_str(), n.c_str(),
                r.block ? std::to_string(r.block).c_str() : "-", r.median_us, r.noise_pct, r.samples, r.gbps,
                r.pct_of_peak, r.check_ok ? "ok" : ("WRONG: " + r.check).c_str(), wb);
  return line;
}

// The request the options ask for; whether a GPU will run it (asked only where a default needs
// it, after the usage checks) decides the default sizes and the sweep.
// --kernel FILE: the file read and its launch lines checked now (FILE:LINE: what), timed on the
// GPU at each size beside the algorithms (CUB alone unless -a names more).
backend::ExtraKernel own_kernel(const BenchOptions& o, core::DType type) {
  own::OwnRequest r;
  std::string why;
  if (!core::read_file(o.kernel, core::files::kKernel, &r.source, &why)) throw UsageError(why);
  r.file = o.kernel, r.value_type = core::to_string(type), r.block = o.block;
  own::OwnLaunch launch;
  try {
    launch = own::parse_launch(r.source, r.file);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(e.what());  // the file's fault: exit 1, as a compile error
  }
  const auto time = [r](kernels::BenchSession& session, std::size_t n, const kernels::BenchSettings& settings,
                        const std::atomic<bool>* cancel) { return own::time_own(r, n, session, settings, cancel); };
  return {own::own_algorithm(launch), o.block ? o.block : launch.block, time};
}

backend::BenchRequest bench_request(const BenchOptions& o, const std::function<bool()>& gpu) {
  backend::BenchRequest req;
  req.type = *core::parse_dtype(o.type);
  req.op = *core::parse_op(o.op);
  const bool matrix = !o.shapes.empty();
  if (matrix && !o.sizes.empty()) throw UsageError("--shapes and --sizes: give one or the other");
  if (!o.kernel.empty()) req.extra.push_back(own_kernel(o, req.type));
  req.algorithms = !o.kernel.empty() && !o.algorithms_given ? std::vector<std::string>{"cub"}
                   : o.algorithms != "all"                  ? split_ids(o.algorithms)
                   : matrix                                 ? backend::default_matrix_bench_algorithms(req.type, req.op)
                                                            : backend::default_bench_algorithms(req.type, req.op);
  if (req.algorithms.empty())
    throw UsageError("--algorithm: names no algorithm (give ids separated by commas, or all)");
  for (const auto& id : req.algorithms) {
    if (core::find_collective(id) || id.starts_with("nccl"))
      throw UsageError("--algorithm: " + core::printable(id) +
                       ": timing the all-reduce across GPUs, and NCCL beside it, is not built yet (issue 52); `trace "
                       "-a ring-all-reduce --gpus N` shows the steps");
    if (!core::find_algorithm(id))
      throw UsageError("--algorithm: unknown algorithm '" + core::printable(id) + "' (see `list`)");
  }
  if (o.gpus > 0)
    throw UsageError(
        "--gpus: timing the all-reduce across GPUs is not built yet (issue 52); `trace -a "
        "ring-all-reduce --gpus N` shows its steps");
  std::string why;
  if (matrix) {
    // "sweep": 2^28 elements on a GPU (2^20 on the CPU model), from 2^4 rows to 2^24 (2^16), then
    // the odd shapes (core::sweep_shapes).
    const auto shapes =
        o.shapes == "sweep" ? std::optional(core::sweep_shapes(gpu() ? 28 : 20)) : core::parse_shapes(o.shapes, &why);
    if (!shapes) throw UsageError("--shapes: " + why);
    req.shapes = *shapes;
  } else {
    const std::string sizes = o.sizes.empty() ? (gpu() ? "2^16..2^28" : "2^10..2^16") : o.sizes;
    auto parsed = core::parse_sizes(sizes, &why);
    if (!parsed) throw UsageError("--sizes: " + why);
    req.sizes = *parsed;
  }
  check_bench_grid(o, req.algorithms, o.grid && !matrix && gpu());
  req.block = o.block;
  req.grid = o.grid;
  req.cluster = o.cluster;
  req.max_seconds = o.seconds;
  return req;
}

// JSON or CSV to a file: FILE.partial holds the rows finished so far, so a run cut short (a time
// limit, a lost machine) keeps what it measured; removed once FILE is whole. Not beside a pipe or
// device (/dev/full.partial in /dev): only a regular or new file gets one.
class PartialRows {
 public:
  PartialRows(const BenchOptions& o, std::ostream& err) : format_(o.format), err_(err) {
    if (o.out.empty() || o.format == "text") return;
    std::error_code ec;
    const auto kind = std::filesystem::status(o.out, ec).type();
    if (kind != std::filesystem::file_type::regular && kind != std::filesystem::file_type::not_found) return;
    path_ = o.out + ".partial";
    if (std::filesystem::exists(path_)) {  // someone's file: not ours to replace
      err << "reduction-lab: warning: '" << path_ << "' exists: no rows will be kept there as they finish\n";
      path_.clear();
    }
  }
  void add(const core::BenchRow& r) {
    if (path_.empty()) return;
    rows_.rows.push_back(r);
    std::string error;
    if (core::write_file(path_, format_ == "json" ? core::to_json(rows_) + "\n" : core::to_csv(rows_), &error))
      wrote_ = true;
    else
      err_ << "reduction-lab: warning: the rows so far: " << core::terminal_text(error) << "\n";
  }
  void keep_header(const backend::BenchProgress& p) {
    auto rows = std::move(rows_.rows);
    rows_ = p.header, rows_.rows = std::move(rows);
  }
  void remove() const {
    if (wrote_) std::remove(path_.c_str());
  }

 private:
  std::string format_, path_;
  std::ostream& err_;
  core::BenchReport rows_;
  bool wrote_ = false;
};

void write_summary(const BenchOptions& o, const core::BenchReport& report, std::ostream& dest) {
  if (o.format == "csv")
    dest << core::to_csv(report);
  else if (o.format == "json")
    dest << core::to_json(report) << "\n";
  else
    dest << "device: " << report.device << (report.backend == "sim" ? " (times of the CPU model, not of a GPU)" : "")
         << "; peak " << report.peak_gbps << " GB/s; " << report.date << "\n";
}

int cmd_bench(const BenchOptions& o, std::ostream& out, std::ostream& err) {
  const auto choice = kBackends.at(o.backend);
  std::optional<bool> on_gpu;
  const auto gpu = [&] {
    std::string no_gpu;
    if (!on_gpu) on_gpu = choice != backend::Choice::Sim && backend::make_cuda_backend(&no_gpu);
    return *on_gpu;
  };
  const backend::BenchRequest req = bench_request(o, gpu);
  std::string why;
  // Results go to --out whole, through the one writer, once measured: a refusal, a failure or
  // Ctrl+C leaves the previous file as it was. An unwritable folder fails now, not after minutes.
  std::ostringstream file;
  if (!o.out.empty() && !core::can_write_beside(o.out, &why)) throw std::runtime_error(why);
  std::ostream& dest = o.out.empty() ? out : file;
  bool header = false;
  PartialRows partial(o, err);
  const auto stream_row = [&](const core::BenchRow& r) {
    partial.add(r);
    if (o.format != "text") return;
    if (!std::exchange(header, true))
      dest << "algorithm                    type   op                  n block    median_us   noise  samp       GB/s  "
              "of peak  check\n";
    dest << text_row(r) << std::flush;
  };
  const auto keep_header = [&](const backend::BenchProgress& p) { partial.keep_header(p); };
  const auto report = backend::run_bench(req, choice, stream_row, keep_header, nullptr);
  write_summary(o, report, dest);
  errno = 0;
  if (!o.out.empty() && !core::write_file(o.out, file.str(), &why))
    throw std::runtime_error("cannot write the results: " + why);
  if (!dest)
    throw std::runtime_error("cannot write the results" +
                             (errno ? std::string(": ") + std::strerror(errno) : std::string()));
  partial.remove();
  return bench_verdict(report, err);
}

}  // namespace

Handler bench_command(CLI::App& cmd) {
  auto o = std::make_shared<BenchOptions>();
  auto* algorithms = cmd.add_option("--algorithm,-a", o->algorithms, "all, or ID,ID,... (with --kernel: cub)");
  cmd.add_option("--kernel", o->kernel,
                 "A kernel of your own (a .cu file, docs/own-kernel.md), timed on the GPU after the algorithms at "
                 "each size");
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
  cmd.add_option("--gpus", o->gpus, "The family across GPUs: GPUs (its timing is not built yet: refused in words)");
  cmd.add_option("--block", o->block,
                 "Threads per block for every algorithm (default: 256, or an algorithm's own choice where it has one)")
      ->check(not_negative("a block size (0: each algorithm's own)"));
  cmd.add_option(
         "--grid", o->grid,
         "Over arrays, for " + grid_takers(false) +
             ": N blocks in the first pass, a whole number of clusters for the kernels of clusters (default: each "
             "kernel's own; at most 2^20 on the CPU model). With --shapes, "
             "for " +
             grid_takers(true) +
             ": about N blocks in the first pass "
             "(default: two waves of the device; on a GPU lanes-per-row takes a block a round of rows, the rows "
             "its warps take at once, on rows of 16-byte loads of up to " +
             std::to_string(kernels::kRoundRowBytes) +
             " bytes where those blocks fill two waves and the GPU's memory peak is at most " +
             std::to_string(kernels::kRoundMaxGbpsPerSm) +
             " GB/s an SM (an H100 SXM; two whole waves of its blocks where it is more, as on an H200), else "
             "the fewest whole waves of its "
             "timed kernel's blocks, up to two, in which it holds its row sums; flat-rows a block a run of " +
             std::to_string(kernels::kFlatRunBytes / 1024) +
             " KB where those outnumber one wave of its blocks (in blocks of up to " +
             std::to_string(kernels::kFlatRunMaxBlock) +
             " threads, not for halves and bf16 on rows of 16-byte multiples); chunks of " +
             std::to_string(kernels::kRowChunkElements) + " elements a thread for batched-rows-vectorized, " +
             std::to_string(kernels::row_chunk_elements(2)) + " of halves and bf16 (" +
             std::to_string(kernels::row_chunk_elements(2, true)) +
             " where those leave an SM without a block); a block an SM, four for rows under 128 columns, "
             "for column-sums-vectorized)")
      ->check(CLI::Range(std::size_t(1), std::size_t(2147483647)));
  cmd.add_option("--cluster", o->cluster, core::cluster_option_help())->check(CLI::IsMember({2, 4, 8}));
  cmd.add_option("--seconds", o->seconds, "Time limit per point (default 1)")
      ->check(finite("--seconds"))
      ->check(CLI::Range(0.01, 60.0));
  return [o, algorithms](const Io& io) {
    o->algorithms_given = algorithms->count() > 0;
    return cmd_bench(*o, io.out, io.err);
  };
}

int bench_verdict(const core::BenchReport& report, std::ostream& err) {
  if (report.rows.empty()) {
    err << "reduction-lab: error: nothing was measured ("
        << (report.backend == "sim" ? "the CPU model times no baseline; " : "")
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
