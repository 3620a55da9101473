#include "../../kernels/algorithms.h"
#include "../../kernels/host_memory.h"
#include "bench_runner.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
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

std::size_t row_rounding_depth(const Row& r, std::size_t n, int block, kernels::DeviceShape device) {
  if (is_baseline(r, kernels::Baseline::Cpu)) return (n + 1) / 2;  // std::reduce: one addition after another
  if (kernels::is_baseline(r)) {  // cub, thrust: a few tiles a thread (at most twice an even share), trees
    const std::size_t threads = std::size_t(std::max(device.sm_count, 1)) * std::size_t(device.threads_per_sm);
    return (n + threads - 1) / threads + 64 + 2 * std::size_t(std::log2(double(std::max<std::size_t>(n, 1))) + 1);
  }
  return kernels::rounding_depth(r.algo, n, block, device);
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

void judge(const kernels::AlgorithmRow& r, core::BenchRow& row, core::DType type, core::Op op, double got,
           double expected, double abs_sum, kernels::DeviceShape device) {
  if (is_baseline(r, kernels::Baseline::Copy)) {
    row.check_ok = true;
    row.check = "copy: no result to check";
    return;
  }
  if (type == core::DType::Int || op != core::Op::Sum) {
    row.check_ok = got == expected;
    row.check = row.check_ok ? "exact" : "got " + core::format_value(got, type) + ", expected " + core::format_value(expected, type);
    return;
  }
  const double u = type == core::DType::Double ? 0x1p-53 : 0x1p-24;  // halves and bf16 add in float
  const double depth = double(row_rounding_depth(r, row.n, row.block, device));
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

namespace {

core::BenchRow base_row(const std::string& id, const BenchRequest& req, std::size_t n) {
  core::BenchRow row;
  row.algorithm = id;
  row.type = core::to_string(req.type);
  row.op = core::to_string(req.op);
  row.n = n;
  return row;
}

void finish_row(core::BenchRow& row, double median_us, std::size_t elem, double peak) {
  row.median_us = median_us;
  row.gbps = median_us > 0 ? core::bytes_moved(row.algorithm, row.n, elem) / (median_us * 1e3) : 0;
  row.pct_of_peak = peak > 0 ? 100.0 * row.gbps / peak : 0;
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

// The input in the request's type, converted once so the timed calls do no conversion.
struct Typed {
  std::vector<int> i;
  std::vector<float> f;
  std::vector<double> d;
  std::vector<narrow::Half> h;
  std::vector<narrow::Bf16> b;
  Typed(const std::vector<double>& v, core::DType t) {
    if (t == core::DType::Int) i.assign(v.begin(), v.end());
    else if (t == core::DType::Float) f.assign(v.begin(), v.end());
    else if (t == core::DType::Half)
      for (double x : v) h.push_back(narrow::Half(float(x)));
    else if (t == core::DType::Bf16)
      for (double x : v) b.push_back(narrow::Bf16(float(x)));
    else d = v;
  }
  // The CPU model (or, for "cpu", std::reduce) over the typed input.
  double reduce(const Row& r, const BenchRequest& req, int block) const {
    kernels::Launch launch{block, 0, 0};
    launch.cluster = cluster_of(r, req);
    const auto op = req.op;
    if (kernels::is_baseline(r)) {  // "cpu": the one baseline without a GPU
      if (!i.empty()) return model::cpu_reduce<int>(op, i.data(), i.size());
      if (!f.empty()) return model::cpu_reduce<float>(op, f.data(), f.size());
      return model::cpu_reduce<double>(op, d.data(), d.size());
    }
    const auto run = [&]<class T, class In>(const std::vector<In>& in) {
      const kernels::Plan plan = model::model_plan(r.algo, {1, in.size()}, launch, sizeof(In), false);
      return double(model::model_run<T, In>(plan, op, in.data(), nullptr)[0]);
    };
    if (!i.empty()) return run.template operator()<int, int>(i);
    if (!f.empty()) return run.template operator()<float, float>(f);
    if (!h.empty()) return run.template operator()<float, narrow::Half>(h);
    if (!b.empty()) return run.template operator()<float, narrow::Bf16>(b);
    return run.template operator()<double, double>(d);
  }
};

// The benchmark's input: random values, with floats and doubles in [0, 1): positive, so
// that a lost chunk of elements moves the sum by far more than rounding can (kernels/bench.cu
// draws the GPU's input the same way).
std::vector<double> bench_values(const BenchRequest& req, std::size_t n) {
  auto v = core::generate_input({core::InputSpec::Kind::Random, req.seed, {}}, n, req.type);
  if (req.type != core::DType::Int)  // [-1, 1) to [0, 1), exactly: k 2^-23 - 1 becomes k 2^-24 (then a half's)
    for (double& x : v) x = core::round_to_type((x + 1) / 2, req.type);
  return v;
}

// Refuses, naming `what` and the amounts, a run the host cannot hold: the values as doubles,
// the typed copy and the model's scratch, about 8 + 2 x 8 bytes an element.
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

// The CPU model, timed on the host: honest numbers about the model, never about a GPU.
core::BenchReport run_sim(const BenchRequest& req, const std::vector<const Row*>& algorithms, const RowSink& on_row,
                          const ProgressSink& on_progress, const std::atomic<bool>* cancel) {
  core::BenchReport report{"CPU model", "", core::utc_now(), "sim", 0, {}};
  BenchProgress p{0, req.sizes.size() * req.algorithms.size(), "", report};
  for (std::size_t n : req.sizes) {
    check_host_memory(n, "n = " + std::to_string(n));
    const auto values = bench_values(req, n);
    long double sum = 0, abs_sum = 0;
    double lo = values[0], hi = values[0];
    for (double v : values) sum += v, abs_sum += std::fabs(v), lo = std::min(lo, v), hi = std::max(hi, v);
    double expected = req.op == core::Op::Min ? lo : req.op == core::Op::Max ? hi : double(sum);
    if (req.type == core::DType::Int && req.op == core::Op::Sum)  // wrapped to 32 bits, as computed
      expected = double(std::int32_t(std::uint32_t(std::int64_t(sum))));
    const Typed typed(values, req.type);
    for (const Row* r : algorithms) {
      const std::string id(r->id);
      if (cancel && cancel->load()) return report;
      p.current = id + " n=" + std::to_string(n);
      if (on_progress) on_progress(p);
      if (kernels::is_baseline(*r) && r->gpu) {  // needs a GPU
        ++p.done;
        continue;
      }
      core::BenchRow row = base_row(id, req, n);
      if (!kernels::is_baseline(*r)) row.block = block_for(*r, req, n, model::kModelSmCount);
      if (const int c = cluster_of(*r, req); c > 1) row.cluster = c;
      std::vector<double> us;
      double got = 0;
      const auto t0 = std::chrono::steady_clock::now();
      while (us.size() < 3 || (std::chrono::steady_clock::now() - t0 < std::chrono::duration<double>(req.max_seconds) && us.size() < 10)) {
        const auto a = std::chrono::steady_clock::now();
        got = typed.reduce(*r, req, row.block);
        us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - a).count());
        if (cancel && cancel->load()) break;
      }
      std::sort(us.begin(), us.end());
      row.samples = int(us.size());
      double mean = 0;
      for (double x : us) mean += x / us.size();
      double var = 0;
      for (double x : us) var += (x - mean) * (x - mean);
      row.noise_pct = us.size() > 1 ? 100 * std::sqrt(var / (us.size() - 1)) / mean : 0;
      finish_row(row, us[us.size() / 2], core::element_bytes(req.type), 0);
      judge(*r, row, req.type, req.op, got, expected, double(abs_sum), model::kModelSmCount);
      report.rows.push_back(row);
      if (on_row) on_row(row);
      ++p.done;
    }
  }
  p.current = "done";
  if (on_progress) on_progress(p);  // the last step too: a finished run must not look stuck at n - 1
  return report;
}

// A matrix row: its shape, and bandwidth over what it reads and writes (the input and one
// value per output), the effective bandwidth of the seeds' batched reduction. The outputs are of
// the accumulator's type: floats for halves and bf16.
void finish_matrix_row(const Row& r, core::BenchRow& row, core::MatrixShape s, double median_us, core::DType type,
                       double peak) {
  const kernels::Matrix m{s.rows, s.cols};
  const auto lines = kernels::is_baseline(r) ? kernels::matrix_lines(r.baseline) : kernels::matrix_lines(r.algo);
  const std::size_t outputs = kernels::line_count(lines, m);
  row.rows = s.rows, row.cols = s.cols;
  row.median_us = median_us;
  const double bytes =
      double(row.n) * double(core::element_bytes(type)) +
      double(outputs) * double(core::element_bytes(core::accumulator_type(type, core::Accumulate::Float)));
  row.gbps = median_us > 0 ? bytes / (median_us * 1e3) : 0;
  row.pct_of_peak = peak > 0 ? 100.0 * row.gbps / peak : 0;
}

// The plan a matrix row runs: the request's block (else the kernel's own) and grid on this
// device. The row records both, the grid as the first pass's block count.
kernels::Plan matrix_plan(const Row& r, core::BenchRow& row, const BenchRequest& req, kernels::Matrix m,
                          kernels::DeviceShape device) {
  row.block = req.block > 0 ? req.block : kernels::preferred_matrix_block(r.algo, m, device);
  const kernels::Plan plan =
      kernels::make_plan(r.algo, m, {row.block, req.grid, 0}, device, core::element_bytes(req.type), false);
  row.grid = plan.grid.count();
  return plan;
}

#ifdef REDLAB_HAS_CUDA
// The GPU bench's name for an element type.
#endif

void judge_matrix(core::BenchRow& row, const model::MatrixCheck& c, bool exact) {
  row.check_ok = c.outputs > 0 && c.wrong == 0;
  const std::string all = c.outputs == 1 ? "the 1 output" : "all " + std::to_string(c.outputs) + " outputs";
  row.check = c.wrong ? std::to_string(c.wrong) + " of " + std::to_string(c.outputs) + " outputs wrong (" + c.first_wrong + ")"
              : all + (exact ? " exact" : " within rounding");
}

// The CPU model over each shape: timed on the host, checked like the GPU's; the anchors need a GPU.
// In: the elements' type (halves and bf16 add in float, T).
template <class T, class In = T>
core::BenchReport run_sim_matrix(const BenchRequest& req, const std::vector<const Row*>& algorithms,
                                 const RowSink& on_row, BenchProgress& p, const ProgressSink& on_progress,
                                 const std::atomic<bool>* cancel) {
  core::BenchReport report = p.header;
  for (const auto& s : req.shapes) {
    const kernels::Matrix m{s.rows, s.cols};
    check_host_memory(m.size(), "shape " + std::to_string(s.rows) + " x " + std::to_string(s.cols));
    const auto values = bench_values(req, m.size());
    const std::vector<T> in(values.begin(), values.end());  // exact: each value is one of In's
    std::vector<In> elements;
    if constexpr (!std::is_same_v<T, In>)
      for (double v : values) elements.push_back(In(float(v)));
    for (const Row* r : algorithms) {
      const std::string id(r->id);
      if (cancel && cancel->load()) return report;
      p.current = id + " " + std::to_string(s.rows) + "x" + std::to_string(s.cols);
      if (on_progress) on_progress(p);
      ++p.done;
      if (kernels::is_baseline(*r)) continue;  // a library on the GPU
      core::BenchRow row = base_row(id, req, m.size());
      const auto algo = r->algo;
      const kernels::Plan plan = matrix_plan(*r, row, req, m, model::kModelSmCount);
      std::vector<T> out;
      const auto t0 = std::chrono::steady_clock::now();
      if constexpr (std::is_same_v<T, In>)
        out = model::model_run<T>(plan, req.op, in.data(), nullptr);
      else
        out = model::model_run<T, In>(plan, req.op, elements.data(), nullptr);
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
      row.samples = 1;
      finish_matrix_row(*r, row, s, us, req.type, 0);
      const bool walk = plan.row->tree == kernels::Tree::None;  // a thread adds its whole line
      const auto lines = kernels::matrix_lines(algo);
      const auto c = req.op == core::Op::Sum ? model::check_matrix_outputs<T, ops::Sum>(out.data(), in.data(), m, lines, walk)
                     : req.op == core::Op::Min ? model::check_matrix_outputs<T, ops::Min>(out.data(), in.data(), m, lines, walk)
                                               : model::check_matrix_outputs<T, ops::Max>(out.data(), in.data(), m, lines, walk);
      judge_matrix(row, c, req.type == core::DType::Int || req.op != core::Op::Sum);
      report.rows.push_back(row);
      if (on_row) on_row(row);
    }
  }
  return report;
}

core::BenchReport run_matrix_bench(const BenchRequest& req, const std::vector<const Row*>& algorithms, bool gpu,
                                   const RowSink& on_row, const ProgressSink& on_progress,
                                   const std::atomic<bool>* cancel) {
  BenchProgress p{0, req.shapes.size() * req.algorithms.size(), "", {"CPU model", "", core::utc_now(), "sim", 0, {}}};
  if (!gpu) {
    core::BenchReport r =
        req.type == core::DType::Int     ? run_sim_matrix<int>(req, algorithms, on_row, p, on_progress, cancel)
        : req.type == core::DType::Float ? run_sim_matrix<float>(req, algorithms, on_row, p, on_progress, cancel)
        : req.type == core::DType::Half
            ? run_sim_matrix<float, narrow::Half>(req, algorithms, on_row, p, on_progress, cancel)
        : req.type == core::DType::Bf16
            ? run_sim_matrix<float, narrow::Bf16>(req, algorithms, on_row, p, on_progress, cancel)
            : run_sim_matrix<double>(req, algorithms, on_row, p, on_progress, cancel);
    p.current = "done";
    if (on_progress) on_progress(p);
    return r;
  }
#ifdef REDLAB_HAS_CUDA
  try {
    kernels::BenchSession session;
    const auto& dev = session.device();
    core::BenchReport report{dev.name, dev.driver, core::utc_now(), "cuda", dev.peak_gbps, {}};
    p.header = report;
    const core::DType type = req.type;
    kernels::BenchSettings settings;
    settings.max_seconds = req.max_seconds;
    for (const auto& s : req.shapes) {
      const kernels::Matrix m{s.rows, s.cols};
      session.set_input(type, req.op, m.size(), req.seed);
      for (const Row* r : algorithms) {
        const std::string id(r->id);
        if (cancel && cancel->load()) return report;
        p.current = id + " " + std::to_string(s.rows) + "x" + std::to_string(s.cols);
        if (on_progress) on_progress(p);
        core::BenchRow row = base_row(id, req, m.size());
        kernels::Timing t;
        if (kernels::is_baseline(*r)) {
          t = session.time_matrix_baseline(r->baseline, req.op, m, settings, cancel);
        } else {
          t = session.time(matrix_plan(*r, row, req, m, {dev.sm_count, dev.threads_per_sm}), req.op, settings, cancel);
        }
        row.samples = t.samples;
        row.discarded = t.discarded;
        row.noise_pct = t.noise_pct;
        finish_matrix_row(*r, row, s, t.median_us, req.type, dev.peak_gbps);
        judge_matrix(row, {t.outputs, t.wrong, t.wrong_note}, req.type == core::DType::Int || req.op != core::Op::Sum);
        report.rows.push_back(row);
        if (on_row) on_row(row);
        ++p.done;
      }
    }
    p.current = "done";
    if (on_progress) on_progress(p);
    return report;
  } catch (const kernels::CudaError& e) {
    throw std::runtime_error(std::string("benchmark failed on the GPU: ") + e.what());
  }
#else
  return run_matrix_bench(req, algorithms, false, on_row, on_progress, cancel);
#endif
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
  if (!req.shapes.empty()) {
    check_matrix_request(req, algorithms);
    std::string why;
    const bool gpu = backend != Choice::Sim && make_cuda_backend(&why) != nullptr;
    if (backend == Choice::Cuda && !gpu) throw std::runtime_error("the cuda backend cannot run: " + why);
    return run_matrix_bench(req, algorithms, gpu, on_row, on_progress, cancel);
  }
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
  std::string why;
  const bool gpu = backend != Choice::Sim && make_cuda_backend(&why) != nullptr;
  if (backend == Choice::Cuda && !gpu) throw std::runtime_error("the cuda backend cannot run: " + why);
  if (!gpu) return run_sim(req, algorithms, on_row, on_progress, cancel);
#ifdef REDLAB_HAS_CUDA
  try {
    kernels::BenchSession session;
    const auto& dev = session.device();
    core::BenchReport report{dev.name, dev.driver, core::utc_now(), "cuda", dev.peak_gbps, {}};
    const core::DType type = req.type;
    kernels::BenchSettings settings;
    settings.max_seconds = req.max_seconds;
    BenchProgress p{0, req.sizes.size() * req.algorithms.size(), "", report};
    for (std::size_t n : req.sizes) {
      const auto facts = session.set_input(type, req.op, n, req.seed);
      for (const Row* r : algorithms) {
        const std::string id(r->id);
        if (cancel && cancel->load()) return report;
        p.current = id + " n=" + std::to_string(n);
        if (on_progress) on_progress(p);
        core::BenchRow row = base_row(id, req, n);
        kernels::Timing t;
        if (kernels::is_baseline(*r)) {
          t = session.time_baseline(r->baseline, req.op, settings, cancel);
        } else if (const kernels::Needs need = kernels::needs(*r); need.major > dev.compute_major) {
          // A bench of many kernels goes on without it; the row says why it holds no time.
          row.check = std::string(core::kNotRun) + std::string(need.what) + " need a GPU of compute capability " +
                      std::to_string(need.major) + ".0 or later";
          report.rows.push_back(row);
          if (on_row) on_row(row);
          ++p.done;
          continue;
        } else {
          row.block = block_for(*r, req, n, dev.sm_count);
          kernels::Launch launch{row.block, 0, 0};
          launch.cluster = cluster_of(*r, req);
          if (launch.cluster > 1) row.cluster = launch.cluster;
          t = session.time(kernels::gpu_plan(r->algo, {1, n}, launch, core::element_bytes(type), false), req.op,
                           settings, cancel);
        }
        row.samples = t.samples;
        row.discarded = t.discarded;
        row.noise_pct = t.noise_pct;
        finish_row(row, t.median_us, core::element_bytes(req.type), dev.peak_gbps);
        judge(*r, row, req.type, req.op, t.result, facts.expected, facts.abs_sum, {dev.sm_count, dev.threads_per_sm});
        report.rows.push_back(row);
        if (on_row) on_row(row);
        ++p.done;
      }
    }
    if (on_progress) on_progress(p);
    return report;
  } catch (const kernels::CudaError& e) {
    throw std::runtime_error(std::string("benchmark failed on the GPU: ") + e.what());
  }
#else
  return run_sim(req, algorithms, on_row, on_progress, cancel);
#endif
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
