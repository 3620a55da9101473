#include "../../kernels/algorithms.h"
#include "../../kernels/bench_stats.h"
#include "../../kernels/host_memory.h"
#include "bench_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>

#include "../../kernels/model/cpu_baseline.h"
#include "../../kernels/model/matrix_check.h"
#include "../../kernels/model/model.h"
#include "../core/catalog.h"
#include "../core/text.h"
#include "../core/input.h"
#include "runner.h"
#ifdef REDLAB_HAS_CUDA
#include "../../kernels/bench_api.h"
#include "../../kernels/gpu_api.h"
#endif

namespace rl::backend {
namespace {

using Row = kernels::AlgorithmRow;

// The request's algorithms, each looked up from its id once, here at the edge; the rest of the
// run reads the rows. Throws naming an id the table does not have.
std::vector<const Row*> resolve(const std::vector<std::string>& ids) {
  std::vector<const Row*> rows;
  for (const auto& id : ids) {
    const Row* r = kernels::find_row(id);
    if (!r) throw std::invalid_argument("unknown algorithm '" + id + "'");
    rows.push_back(r);
  }
  return rows;
}

bool is_baseline(const Row& r, kernels::Baseline b) { return kernels::is_baseline(r) && r.baseline == b; }
bool is_cublas(const Row& r) {
  return is_baseline(r, kernels::Baseline::CublasRows) || is_baseline(r, kernels::Baseline::CublasColumns);
}

std::size_t row_rounding_depth(const Row& r, std::size_t n, int block, kernels::DeviceShape device, std::size_t grid) {
  if (is_baseline(r, kernels::Baseline::Cpu)) return (n + 1) / 2;  // std::reduce: one addition after another
  if (kernels::is_baseline(r)) {  // cub, thrust: a few tiles a thread (at most twice an even share), trees
    const std::size_t threads = std::size_t(std::max(device.sm_count, 1)) * std::size_t(device.threads_per_sm);
    return (n + threads - 1) / threads + 64 + 2 * std::size_t(std::log2(double(std::max<std::size_t>(n, 1))) + 1);
  }
  return kernels::rounding_depth(r.algo, n, block, device, grid);
}

}  // namespace

// Ints, min and max must match exactly. A float sum may stray from the exact one by at most
// u * sum(|x_i| * depth_i) to first order (Higham, "Accuracy and Stability of Numerical
// Algorithms", 4.2); the benchmark draws its inputs alike, so that is u * sum|x| * the mean
// depth: a bound of its own for each algorithm and n.
void judge(core::BenchRow& row, core::DType type, core::Op op, double got, double expected, double abs_sum,
           kernels::DeviceShape device) {
  judge(*resolve({row.algorithm}).front(), row, type, op, got, expected, abs_sum, device);
}

namespace {

// Exact for ints, min and max; a float or double sum against the bound of `depth` roundings
// one after another (half and bf16 add in float).
void judge_by_depth(core::BenchRow& row, core::DType type, core::Op op, double got, double expected, double abs_sum,
                    double depth) {
  if (type == core::DType::Int || op != core::Op::Sum) {
    row.check_ok = got == expected;
    row.check = row.check_ok ? "exact" : "got " + core::format_value(got, type) + ", expected " + core::format_value(expected, type);
    return;
  }
  const double u = type == core::DType::Double ? 0x1p-53 : 0x1p-24;
  const double off = std::fabs(got - expected);
  char buf[160];
  if (depth * u >= 0.5) {  // e.g. std::reduce of 2^28 floats: the bound says nothing
    row.check_ok = !std::isnan(got);
    std::snprintf(buf, sizeof buf, "off by %.3g; no bound: %.0f roundings each, one after another", off, depth);
    row.check = buf;
    return;
  }
  const double bound = depth * u / (1 - depth * u) * abs_sum;
  row.check_ok = off <= bound;  // false for NaN
  std::snprintf(buf, sizeof buf, "%s by %.3g, bound %.3g (%.0f roundings each)", row.check_ok ? "within" : "off", off, bound,
                depth);
  row.check = buf;
}

}  // namespace

void judge(const kernels::AlgorithmRow& r, core::BenchRow& row, core::DType type, core::Op op, double got,
           double expected, double abs_sum, kernels::DeviceShape device) {
  if (is_baseline(r, kernels::Baseline::Copy)) {
    row.check_ok = true;
    row.check = "copy: no result to check";
    return;
  }
  // An array row of a kernel that takes a grid records the grid it ran: its chains are that
  // grid's (a row read from a file may carry a grid its kernel never takes: not used).
  const std::size_t grid = row.rows == 0 && takes_bench_grid(r, false) ? row.grid : 0;
  judge_by_depth(row, type, op, got, expected, abs_sum, double(row_rounding_depth(r, row.n, row.block, device, grid)));
}

bool takes_bench_grid(const kernels::AlgorithmRow& r, bool matrix) {
  if (kernels::is_baseline(r)) return false;
  if (matrix) return r.family == kernels::Family::Matrix && kernels::matrix_chooses_grid(r.algo);
  return r.shape == kernels::Shape::Array && r.gpu && kernels::grid_stride(r.indexing) &&
         r.combine != kernels::Combine::GridSync;
}

namespace {

core::BenchRow base_row(const std::string& id, const BenchRequest& req, std::size_t n) {
  core::BenchRow row;
  row.algorithm = id;
  row.type = core::to_string(req.type);
  row.op = core::to_string(req.op);
  row.n = n;
  return row;
}

// The block size a row runs with: the request's, or (block 0) the algorithm's own choice.
int block_for(const Row& r, const BenchRequest& req, std::size_t n, int sm_count) {
  if (req.block > 0) return req.block;  // the user's block as given: --block 1024 runs at 1024
  const int b = kernels::preferred_block(r.algo, n, sm_count);
  // A kernel that takes any block size runs at its own default: a non-power of two.
  return r.blocks == kernels::BlockRule::Any ? std::min(b + b / 16, 1024) : b;
}

// Blocks a cluster a row runs with: the request's (or the default) for a kernel of clusters, 1
// for any other (a cluster asked of a bench of several kernels is for those that have them).
int cluster_of(const Row& r, const BenchRequest& req) {
  return kernels::is_baseline(r) || r.tree != kernels::Tree::Cluster ? 1 : kernels::cluster_blocks(r.algo, req.cluster);
}

// The benchmark's input: random values, with floats and doubles in [0, 1): positive, so
// that a lost chunk of elements moves the sum by far more than rounding can (kernels/bench.cu
// draws the GPU's input the same way).
std::vector<double> bench_values(const BenchRequest& req, std::size_t n) {
  auto v = core::generate_input({core::InputSpec::Kind::Random, req.seed, {}}, n, req.type);
  if (req.type != core::DType::Int)  // [-1, 1) to [0, 1), exactly: k 2^-23 - 1 becomes k 2^-24 (then a half's)
    for (double& x : v) x = core::round_to_type((x + 1) / 2, req.type);
  return v;
}

// The CPU model's input, the typed copy and the model's scratch, about 8 + 2 x 8 bytes an element.
void check_host_memory(std::size_t n, const std::string& what) {
  constexpr std::size_t kBytesEach = 24;
  const std::size_t have = kernels::host_available_bytes();
  if (n > std::numeric_limits<std::size_t>::max() / kBytesEach)  // n * 24 would wrap around
    throw std::runtime_error(what + ": the CPU model would need more than 2^64 bytes");
  const std::size_t need = n * kBytesEach;
  if (have && need > have)
    throw std::runtime_error(what + ": the CPU model needs about " + std::to_string(need >> 20) + " MiB of host memory; " +
                             std::to_string(have >> 20) + " MiB are available");
}

// One point of a benchmark: an array of n elements (1 x n) or a matrix, the same problem type.
struct Point {
  kernels::Matrix shape;
  bool matrix = false;
  std::size_t size() const { return shape.size(); }
  std::string name() const {
    return matrix ? std::to_string(shape.rows) + "x" + std::to_string(shape.cols) : "n=" + std::to_string(shape.cols);
  }
};

std::vector<Point> points(const BenchRequest& req) {
  std::vector<Point> out;
  for (std::size_t n : req.sizes) out.push_back({{1, n}, false});
  for (const auto& s : req.shapes) out.push_back({{s.rows, s.cols}, true});
  return out;
}

// The plan a kernel row runs at a point on a device: the request's block (else the kernel's
// own), grid and cluster. The row records them, a matrix's grid as its first pass's blocks, and
// the first pass's blocks of an array kernel that takes a grid, asked for or its own.
// timed_grid(block): the grid the timed kernel chooses on this GPU (else 0: the plan's rule), where
// the request names none (docs/benchmarks.md, "Whole waves").
kernels::Plan row_plan(const Row& r, core::BenchRow& row, const BenchRequest& req, const Point& pt,
                       kernels::DeviceShape device, const std::function<std::size_t(int)>& timed_grid = nullptr) {
  const std::size_t elem_bytes = core::element_bytes(req.type);
  row.block = pt.matrix
                  ? (req.block > 0 ? req.block : kernels::preferred_matrix_block(r.algo, pt.shape, device, req.type))
                  : block_for(r, req, pt.size(), device.sm_count);
  const int cluster = cluster_of(r, req);
  if (cluster > 1) row.cluster = cluster;
  const bool takes_grid = takes_bench_grid(r, pt.matrix);
  const std::size_t asked = takes_grid ? req.grid : 0;
  const std::size_t grid = asked ? asked : pt.matrix && timed_grid ? timed_grid(row.block) : 0;
  const kernels::Launch launch{row.block, grid, 0, nullptr, cluster};
  const kernels::Plan plan = kernels::make_plan(r.algo, pt.shape, launch, device, elem_bytes, false);
  if (pt.matrix || takes_grid) row.grid = plan.grid.count();
  return plan;
}

// Bandwidth over what a run reads and writes: an array's bytes (core::bytes_moved), or a
// matrix's input and one value an output (the seeds' effective bandwidth), of the accumulator's
// type: floats for halves and bf16.
void finish_row(const Row& r, core::BenchRow& row, const Point& pt, double median_us, core::DType type, double peak) {
  double bytes = core::bytes_moved(row.algorithm, row.n, core::element_bytes(type));
  if (pt.matrix) {
    const auto lines = kernels::is_baseline(r) ? kernels::matrix_lines(r.baseline) : kernels::matrix_lines(r.algo);
    row.rows = pt.shape.rows, row.cols = pt.shape.cols;
    bytes = double(row.n) * double(core::element_bytes(type)) +
            double(kernels::line_count(lines, pt.shape)) *
                double(core::element_bytes(core::accumulator_type(type, core::Accumulate::Float)));
  }
  row.median_us = median_us;
  row.gbps = median_us > 0 ? bytes / (median_us * 1e3) : 0;
  row.pct_of_peak = peak > 0 ? 100.0 * row.gbps / peak : 0;
}

void judge_matrix(core::BenchRow& row, const model::MatrixCheck& c, bool exact) {
  row.check_ok = c.outputs > 0 && c.wrong == 0;
  const std::string all = c.outputs == 1 ? "the 1 output" : "all " + std::to_string(c.outputs) + " outputs";
  row.check = c.wrong ? std::to_string(c.wrong) + " of " + std::to_string(c.outputs) + " outputs wrong (" + c.first_wrong + ")"
              : all + (exact ? " exact" : " within rounding");
}

// What a point's results are checked against: the exact reduction and sum of magnitudes of
// an array (int sums wrapped to 32 bits, as computed); a matrix's lines are checked row by row.
struct Expected {
  double value = 0, abs_sum = 0;
};

Expected expected_of(const std::vector<double>& values, const BenchRequest& req) {
  long double sum = 0, abs_sum = 0;
  double lo = values[0], hi = values[0];
  for (double v : values) sum += v, abs_sum += std::fabs(v), lo = std::min(lo, v), hi = std::max(hi, v);
  double expected = req.op == core::Op::Min ? lo : req.op == core::Op::Max ? hi : double(sum);
  if (req.type == core::DType::Int && req.op == core::Op::Sum) expected = core::wrap_int32(sum);
  return {expected, double(abs_sum)};
}

// Samples of f on the host, at least 3 and up to 10 within max_seconds: their median, and
// their spread in the row.
template <class F>
double host_median_us(core::BenchRow& row, double max_seconds, const std::atomic<bool>* cancel, F f) {
  std::vector<double> us;
  const auto t0 = std::chrono::steady_clock::now();
  while (us.size() < 3 ||
         (std::chrono::steady_clock::now() - t0 < std::chrono::duration<double>(max_seconds) && us.size() < 10)) {
    const auto a = std::chrono::steady_clock::now();
    f();
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
    if (cancel && cancel->load()) break;
  }
  kernels::Timing t;
  kernels::summarise(std::move(us), t);
  row.samples = t.samples;
  row.noise_pct = t.noise_pct;
  return t.median_us;
}

// Calls f.template operator()<T, In>() for the benchmark's types: int, float and double add in
// themselves, halves and bf16 in float (what the GPU times).
template <class F>
void with_bench_types(core::DType type, F f) {
  switch (type) {
    case core::DType::Int: return f.template operator()<int, int>();
    case core::DType::Float: return f.template operator()<float, float>();
    case core::DType::Double: return f.template operator()<double, double>();
    case core::DType::Half: return f.template operator()<float, narrow::Half>();
    case core::DType::Bf16: return f.template operator()<float, narrow::Bf16>();
  }
}

// A point's input on the host, in the request's type, converted once so the timed calls do no
// conversion: In the elements' type, T the accumulator's (halves and bf16 add in float).
struct HostPoint {
  Point pt;
  std::vector<double> values;
  Expected expected;
};

template <class T, class In>
void sim_kernel(const Row& r, core::BenchRow& row, const BenchRequest& req, const HostPoint& hp,
                const std::atomic<bool>* cancel) {
  const kernels::Plan plan = row_plan(r, row, req, hp.pt, model::kModelDevice);
  const std::vector<In> in = typed_as<In>(hp.values);
  std::vector<T> out;
  const double us = host_median_us(row, req.max_seconds, cancel,
                                   [&] { out = model::model_run<T, In>(plan, req.op, in.data(), nullptr); });
  finish_row(r, row, hp.pt, us, req.type, 0);
  if (!hp.pt.matrix) {
    judge(r, row, req.type, req.op, double(out[0]), hp.expected.value, hp.expected.abs_sum, model::kModelDevice);
    return;
  }
  const std::vector<T> wide(hp.values.begin(), hp.values.end());  // exact: each value is one of In's
  const bool walk = r.tree == kernels::Tree::None;                // a thread adds its whole line
  const auto lines = kernels::matrix_lines(r.algo);
  const auto c = req.op == core::Op::Sum
                     ? model::check_matrix_outputs<T, ops::Sum>(out.data(), wide.data(), hp.pt.shape, lines, walk)
                 : req.op == core::Op::Min
                     ? model::check_matrix_outputs<T, ops::Min>(out.data(), wide.data(), hp.pt.shape, lines, walk)
                     : model::check_matrix_outputs<T, ops::Max>(out.data(), wide.data(), hp.pt.shape, lines, walk);
  judge_matrix(row, c, req.type == core::DType::Int || req.op != core::Op::Sum);
}

// std::reduce over the array ("cpu", the one baseline without a GPU).
void sim_cpu(const Row& r, core::BenchRow& row, const BenchRequest& req, const HostPoint& hp,
             const std::atomic<bool>* cancel) {
  double got = 0;
  with_bench_types(req.type, [&]<class T, class In>() {
    const std::vector<T> in = typed_as<T>(hp.values);  // halves and bf16 as floats
    const double us = host_median_us(row, req.max_seconds, cancel,
                                     [&] { got = double(model::cpu_reduce<T>(req.op, in.data(), in.size())); });
    finish_row(r, row, hp.pt, us, req.type, 0);
  });
  judge(r, row, req.type, req.op, got, hp.expected.value, hp.expected.abs_sum, model::kModelDevice);
}

// The CPU model, timed on the host: honest numbers about the model, never about a GPU. The
// libraries' baselines need a GPU; std::reduce ("cpu") runs over arrays.
core::BenchReport run_sim(const BenchRequest& req, const std::vector<const Row*>& algorithms, const RowSink& on_row,
                          const ProgressSink& on_progress, const std::atomic<bool>* cancel) {
  core::BenchReport report{"CPU model", "", core::utc_now(), "sim", 0, {}};
  const std::vector<Point> pts = points(req);
  BenchProgress p{0, pts.size() * req.algorithms.size(), "", report};
  for (const Point& pt : pts) {
    check_host_memory(pt.size(), pt.matrix
                                     ? "shape " + std::to_string(pt.shape.rows) + " x " + std::to_string(pt.shape.cols)
                                     : "n = " + std::to_string(pt.size()));
    HostPoint hp{pt, bench_values(req, pt.size()), {}};
    if (!pt.matrix) hp.expected = expected_of(hp.values, req);
    for (const Row* r : algorithms) {
      if (cancel && cancel->load()) return report;
      p.current = std::string(r->id) + " " + pt.name();
      if (on_progress) on_progress(p);
      ++p.done;
      if (kernels::is_baseline(*r) && (r->gpu || pt.matrix)) continue;  // a library on the GPU
      core::BenchRow row = base_row(std::string(r->id), req, pt.size());
      if (kernels::is_baseline(*r))
        sim_cpu(*r, row, req, hp, cancel);
      else
        with_bench_types(req.type, [&]<class T, class In>() { sim_kernel<T, In>(*r, row, req, hp, cancel); });
      report.rows.push_back(row);
      if (on_row) on_row(row);
    }
  }
  p.current = "done";
  if (on_progress) on_progress(p);  // the last step too: a finished run must not look stuck at n - 1
  return report;
}

#ifdef REDLAB_HAS_CUDA
// A GPU timing's samples, noise and L2 write-back into its row (the median and bandwidth: the caller).
void take_samples(core::BenchRow& row, const kernels::Timing& t) {
  row.samples = t.samples, row.discarded = t.discarded, row.noise_pct = t.noise_pct,
  row.write_back_us = t.write_back_us;
}

// One row's timing on the GPU: a library's baseline, or the kernel's plan for this device.
kernels::Timing time_on_gpu(kernels::BenchSession& session, const Row& r, core::BenchRow& row, const BenchRequest& req,
                            const Point& pt, const kernels::BenchSettings& settings, const std::atomic<bool>* cancel) {
  const auto& dev = session.device();
  if (kernels::is_baseline(r))
    return pt.matrix ? session.time_matrix_baseline(r.baseline, req.op, pt.shape, settings, cancel)
                     : session.time_baseline(r.baseline, req.op, settings, cancel);
  const auto grid = [&](int block) { return session.timed_grid(r.algo, pt.shape, block, req.op); };
  return session.time(row_plan(r, row, req, pt, dev.shape(), grid), req.op, settings, cancel);
}

// The row of a kernel this GPU cannot run: a bench of many kernels goes on without it, and the
// row says why it holds no time. Empty when it can run.
std::string cannot_run(const Row& r, int compute_major) {
  const kernels::Needs need = kernels::needs(r);
  if (kernels::is_baseline(r) || need.major <= compute_major) return "";
  return std::string(core::kNotRun) + std::string(need.what) + " need a GPU of compute capability " +
         std::to_string(need.major) + ".0 or later";
}

// An extra kernel's row at one size: timed, its bandwidth, its value checked against any order
// of adds (n - 1 roundings), or why it did not run.
core::BenchRow extra_row(kernels::BenchSession& session, const ExtraKernel& e, const BenchRequest& req, std::size_t n,
                         const kernels::BenchSettings& settings, const kernels::BenchSession::InputFacts& facts,
                         const std::atomic<bool>* cancel) {
  core::BenchRow row = base_row(e.name, req, n);
  row.block = e.block;
  kernels::Timing t;
  try {
    t = e.time(session, n, settings, cancel);
  } catch (const std::invalid_argument& ex) {
    row.check = std::string(core::kNotRun) + ex.what();
    return row;
  }
  take_samples(row, t);
  row.median_us = t.median_us;
  const double bytes = core::bytes_moved(e.name, n, core::element_bytes(req.type)), peak = session.device().peak_gbps;
  row.gbps = t.median_us > 0 ? bytes / (t.median_us * 1e3) : 0;
  row.pct_of_peak = peak > 0 ? 100.0 * row.gbps / peak : 0;
  judge_by_depth(row, req.type, req.op, t.result, facts.expected, facts.abs_sum, double(n - 1));
  return row;
}

core::BenchReport run_gpu(const BenchRequest& req, const std::vector<const Row*>& algorithms, const RowSink& on_row,
                          const ProgressSink& on_progress, const std::atomic<bool>* cancel) {
  kernels::BenchSession session;
  const auto& dev = session.device();
  core::BenchReport report{dev.name, dev.driver, core::utc_now(), "cuda", dev.peak_gbps, {}};
  kernels::BenchSettings settings;
  settings.max_seconds = req.max_seconds;
  const std::vector<Point> pts = points(req);
  BenchProgress p{0, pts.size() * (req.algorithms.size() + req.extra.size()), "", report};
  const bool exact = req.type == core::DType::Int || req.op != core::Op::Sum;
  for (const Point& pt : pts) {
    const auto facts = session.set_input(req.type, req.op, pt.size(), req.seed);
    for (const Row* r : algorithms) {
      if (cancel && cancel->load()) return report;
      p.current = std::string(r->id) + " " + pt.name();
      if (on_progress) on_progress(p);
      ++p.done;
      core::BenchRow row = base_row(std::string(r->id), req, pt.size());
      row.check = cannot_run(*r, dev.compute_major);
      if (row.check.empty()) {
        const kernels::Timing t = time_on_gpu(session, *r, row, req, pt, settings, cancel);
        take_samples(row, t);
        finish_row(*r, row, pt, t.median_us, req.type, dev.peak_gbps);
        if (pt.matrix)
          judge_matrix(row, {t.outputs, t.wrong, t.wrong_note}, exact);
        else
          judge(*r, row, req.type, req.op, t.result, facts.expected, facts.abs_sum, dev.shape());
      }
      report.rows.push_back(row);
      if (on_row) on_row(row);
    }
    for (const ExtraKernel& e : req.extra) {
      if (cancel && cancel->load()) return report;
      p.current = e.name + " " + pt.name();
      if (on_progress) on_progress(p);
      ++p.done;
      report.rows.push_back(extra_row(session, e, req, pt.size(), settings, facts, cancel));
      if (on_row) on_row(report.rows.back());
    }
  }
  p.current = "done";
  if (on_progress) on_progress(p);
  return report;
}
#endif

void check_array_request(const BenchRequest& req, const std::vector<const Row*>& algorithms) {
  for (const Row* r : algorithms) {
    const std::string id(r->id);
    check_type(*r, req.type, req.op);
    cluster_of(*r, req);  // a cluster size the kernel cannot take, refused before any run
    if (!r->gpu && !kernels::is_baseline(*r))
      throw std::invalid_argument("'" + id + "' is never launched: it cannot be timed");
    if (r->shape == kernels::Shape::Matrix)
      throw std::invalid_argument("'" + id + "' reduces a matrix: time it with --shapes RxC");
  }
  if (req.sizes.empty()) throw std::invalid_argument("no sizes to measure");
  if (req.cluster && std::none_of(algorithms.begin(), algorithms.end(),
                                  [](const Row* r) { return r->tree == kernels::Tree::Cluster; }))
    throw std::invalid_argument("a cluster size is for cluster-dsmem, and this benchmark does not time it");
}

void check_matrix_request(const BenchRequest& req, const std::vector<const Row*>& algorithms) {
  if (!req.sizes.empty()) throw std::invalid_argument("give sizes or shapes, not both");
  if (req.cluster)
    throw std::invalid_argument("a cluster size is for cluster-dsmem, which reduces an array: time it with --sizes");
  for (const Row* r : algorithms) {
    const std::string id(r->id);
    if (r->shape != kernels::Shape::Matrix)
      throw std::invalid_argument("'" + id + "' reduces an array: time it with --sizes");
    if (is_cublas(*r) && (req.type == core::DType::Int || req.op != core::Op::Sum))
      throw std::invalid_argument("'" + id + "': cuBLAS gemv sums floats and doubles only (it has no integer gemv)");
    check_type(*r, req.type, req.op);  // halves: the rows that take them
  }
  for (const auto& s : req.shapes)
    if (s.rows == 0 || s.cols == 0) throw std::invalid_argument("a shape needs at least 1 row and 1 column");
}

}  // namespace

std::vector<std::string> default_matrix_bench_algorithms(core::DType type, core::Op op) {
  std::vector<std::string> out;
  for (const auto& a : core::algorithms())
    if (a.matrix && type_refusal(a.id, type, op).empty() &&
        (!is_cublas(*kernels::find_row(a.id)) || (type != core::DType::Int && op == core::Op::Sum)))
      out.push_back(a.id);
  return out;
}

std::vector<std::string> default_bench_algorithms(core::DType type, core::Op op) {
  std::vector<std::string> out;
  for (const auto& a : core::algorithms())
    if ((a.kind == core::Kind::Traced || a.kind == core::Kind::Baseline) && !a.matrix &&
        type_refusal(a.id, type, op).empty())
      out.push_back(a.id);
  return out;
}

core::BenchReport run_bench(const BenchRequest& req, Choice backend, const RowSink& on_row,
                            const ProgressSink& on_progress, const std::atomic<bool>* cancel) {
  const std::vector<const Row*> algorithms = resolve(req.algorithms);
  if (req.shapes.empty())
    check_array_request(req, algorithms);
  else
    check_matrix_request(req, algorithms);
  std::string why;
  const bool gpu = backend != Choice::Sim && make_cuda_backend(&why) != nullptr;
  if (backend == Choice::Cuda && !gpu) throw std::runtime_error("the cuda backend cannot run: " + why);
  if (!req.extra.empty() && (!gpu || !req.shapes.empty()))
    throw std::invalid_argument(!gpu ? "a kernel of your own is timed on a GPU only: the CPU path interprets its PTX, "
                                       "and those times say nothing of a GPU" +
                                           (why.empty() ? "" : " (" + why + ")")
                                     : "a kernel of your own reduces an array: time it with --sizes, not --shapes");
#ifdef REDLAB_HAS_CUDA
  if (gpu) try {
      return run_gpu(req, algorithms, on_row, on_progress, cancel);
    } catch (const kernels::CudaError& e) {
      throw std::runtime_error(std::string("benchmark failed on the GPU: ") + e.what());
    }
#endif
  return run_sim(req, algorithms, on_row, on_progress, cancel);
}

BenchWorker::~BenchWorker() {
  cancel();
  if (thread_.joinable()) thread_.join();
}

void BenchWorker::start(const BenchRequest& req, Choice backend) {
  cancel();
  if (thread_.joinable()) thread_.join();
  cancel_ = false;
  running_ = true;
  {
    std::lock_guard lock(mutex_);
    report_ = {};
    error_.clear();
    progress_ = {0, (req.shapes.empty() ? req.sizes.size() : req.shapes.size()) * req.algorithms.size(), "starting", {}};
  }
  thread_ = std::thread([this, req, backend] {
    try {
      const auto header = run_bench(
          req, backend,
          [this](const core::BenchRow& row) {
            std::lock_guard lock(mutex_);
            report_.rows.push_back(row);
          },
          [this](const BenchProgress& p) {
            std::lock_guard lock(mutex_);
            progress_ = p;
            auto rows = std::move(report_.rows);
            report_ = p.header;  // device and peak are known from the first point on
            report_.rows = std::move(rows);
          },
          &cancel_);
      std::lock_guard lock(mutex_);
      auto rows = std::move(report_.rows);
      report_ = header;
      report_.rows = std::move(rows);
    } catch (const std::exception& e) {
      std::lock_guard lock(mutex_);
      error_ = e.what();
    }
    running_ = false;
  });
}

void BenchWorker::cancel() { cancel_ = true; }

BenchProgress BenchWorker::progress() const {
  std::lock_guard lock(mutex_);
  return progress_;
}

core::BenchReport BenchWorker::report() const {
  std::lock_guard lock(mutex_);
  return report_;
}

std::string BenchWorker::error() const {
  std::lock_guard lock(mutex_);
  return error_;
}

}  // namespace rl::backend
