// Runs benchmarks: on the GPU (kernels/bench_api.h) or, with the sim backend, times the CPU
// model and says so. BenchWorker runs one on a thread and streams rows to the window.
#pragma once
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "../core/bench.h"
#include "../core/types.h"
#include "../../kernels/algorithms.h"
#include "../../kernels/bench_api.h"
#include "../../kernels/shapes.h"
#include "backend.h"

namespace rl::backend {

// A kernel from elsewhere timed beside the catalog's (bench --kernel: a kernel of your own): its
// row's name and block, and how to time it over the session's current input of n elements
// (std::invalid_argument: it cannot run at that n, said in its row).
struct ExtraKernel {
  std::string name;
  int block = 0;
  std::function<kernels::Timing(kernels::BenchSession&, std::size_t n, const kernels::BenchSettings&,
                                const std::atomic<bool>* cancel)>
      time;
};

struct BenchRequest {
  std::vector<std::string> algorithms;
  std::vector<std::size_t> sizes;
  core::DType type = core::DType::Float;
  core::Op op = core::Op::Sum;
  int block = 0;  // 0: each algorithm's own (kernels::preferred_block)
  double max_seconds = 1.0;  // per point
  std::uint64_t seed = 1;
  std::vector<core::MatrixShape> shapes = {};  // the matrix family: shapes instead of sizes
  // Kernels that take an asked grid (takes_bench_grid): a matrix kernel about this many blocks, an
  // array kernel exactly this many (0: their own).
  std::size_t grid = 0;
  int cluster = 0;       // kernels of clusters: blocks a cluster (2, 4 or 8; 0: the row's own)
  std::vector<ExtraKernel> extra = {};  // timed after the algorithms at each size (arrays, GPU only)
};

// Whether a bench of matrices (else arrays) times kernel row r in the grid the request asks for:
// the matrix kernels that choose their grid, and the array kernels that stride over the array by
// grid, but cg-grid-sync, whose blocks must all be resident at once (it sizes its own).
bool takes_bench_grid(const kernels::AlgorithmRow& r, bool matrix);

// What "all" means: every algorithm that is defined on a GPU (no pitfalls) and takes the type,
// then the baselines.
std::vector<std::string> default_bench_algorithms(core::DType type, core::Op op = core::Op::Sum);
// The matrix family and its anchors, for --shapes (cuBLAS gemv only for float and double sums).
std::vector<std::string> default_matrix_bench_algorithms(core::DType type, core::Op op);

struct BenchProgress {
  std::size_t done = 0, total = 0;
  std::string current;
  core::BenchReport header;  // device, driver, date, peak; no rows
};

using RowSink = std::function<void(const core::BenchRow&)>;
using ProgressSink = std::function<void(const BenchProgress&)>;

// The check of a row's result against the exact one, within the longest chain of roundings its
// algorithm takes at n (kernels::rounding_depth; the baselines' by their structure).
void judge(core::BenchRow& row, core::DType type, core::Op op, double got, double expected, double abs_sum,
           kernels::DeviceShape device);
// The same for a row whose algorithm is already looked up (a benchmark resolves its ids once).
void judge(const kernels::AlgorithmRow& r, core::BenchRow& row, core::DType type, core::Op op, double got,
           double expected, double abs_sum, kernels::DeviceShape device);

// Runs on the calling thread. Throws std::invalid_argument for impossible requests and
// std::runtime_error when the backend cannot run (no GPU for cuda, a CUDA failure).
core::BenchReport run_bench(const BenchRequest& req, Choice backend, const RowSink& on_row,
                            const ProgressSink& on_progress, const std::atomic<bool>* cancel);

class BenchWorker {
 public:
  ~BenchWorker();
  void start(const BenchRequest& req, Choice backend);  // cancels and joins a running one first
  void cancel();
  bool running() const { return running_; }
  BenchProgress progress() const;
  core::BenchReport report() const;  // rows so far; the header once the run began
  std::string error() const;

 private:
  mutable std::mutex mutex_;
  std::thread thread_;
  std::atomic<bool> running_{false}, cancel_{false};
  BenchProgress progress_;
  core::BenchReport report_;
  std::string error_;
};

}  // namespace rl::backend
