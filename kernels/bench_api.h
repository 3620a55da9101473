// Timing on the GPU, following nvbench's rules: cold samples (L2 evicted before each by
// reading a buffer twice its size), CUDA
// events on the session's own stream, warm-up, at least min_samples and until the relative
// standard deviation is under the target or the time runs out; samples taken while the GPU
// reported clock throttling (NVML) are discarded. Plain C++: host code needs no nvcc.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "algorithms.h"
#include "shapes.h"
#include "matrix_shapes.h"
#include "plan.h"

namespace rl::kernels {

struct DeviceInfo {
  std::string name;
  std::string driver;        // e.g. "13.0" (the CUDA version the driver supports)
  int sm_count = 0;
  int threads_per_sm = 0;    // cudaDevAttrMaxThreadsPerMultiProcessor
  int compute_major = 0;     // compute capability, major: what a row's kernel needs (kernels::needs)
  std::size_t l2_bytes = 0;
  int mem_clock_khz = 0;
  int bus_width_bits = 0;
  double peak_gbps = 0;      // 2 x memory clock x bus width / 8, from the device's attributes
  bool throttle_check = false;  // NVML available to spot throttled samples
  // What plans and grids are sized by (cuda_device_shape, read once a session).
  DeviceShape shape() const { return DeviceShape(sm_count, threads_per_sm, peak_gbps); }
};

struct BenchSettings {
  int warmup = 3;
  int min_samples = 10;
  int max_samples = 500;
  double rsd_target = 0.005;  // 0.5 %
  double max_seconds = 1.0;   // per point, samples and warm-up together
};

struct Timing {
  double median_us = 0;
  double noise_pct = 0;  // relative standard deviation of the kept samples
  int samples = 0;
  int discarded = 0;     // samples taken while the clocks were throttled
  bool converged = false;
  double result = 0;     // what the timed run computed (for the check)
  // Matrices: the write-back of what a run left dirty in L2, measured through the next eviction
  // and included in median_us.
  double write_back_us = 0;
  // Matrix timings: outputs checked against the exact row or column reductions, and how many
  // were off by more than rounding allows (the first one in `wrong_note`).
  std::size_t outputs = 0, wrong = 0;
  std::string wrong_note;
};

// Half and Bf16 are timed added in float (AlgorithmRow::narrow's kernels, and CUB's TransformReduce
// with a cast to float): what PyTorch does.

// One per worker thread: a stream, events, an L2-sized flush buffer and the input array.
class BenchSession {
 public:
  BenchSession();  // throws CudaError when no GPU can be used
  ~BenchSession();
  BenchSession(const BenchSession&) = delete;
  BenchSession& operator=(const BenchSession&) = delete;

  const DeviceInfo& device() const;
  // Fills the device input with n seeded random values of the type (ints in [-1000, 1000],
  // floats and doubles in [0, 1), halves and bfloat16 in [0, 1]: floats of [0, 1) rounded to nearest). Returns the
  // exact reduction (int sums wrapped to 32 bits, as the GPU computes them) and the sum of magnitudes, for the checks.
  struct InputFacts {
    double expected = 0;
    double abs_sum = 0;
  };
  InputFacts set_input(DType type, OpKind op, std::size_t n, std::uint64_t seed);
  // The given values (each one a value of the type) as the input instead of drawn ones. same_type:
  // halves and bfloat16 add in their own type (the pitfall: sums only) instead of float.
  void set_values(DType type, const std::vector<double>& values, bool same_type = false);
  // Times one run of the plan (gpu_plan) over the current input: the whole array, or the
  // rows x cols matrix it holds (plan.size() elements, row-major). Cancel stops between samples.
  Timing time(const Plan& plan, OpKind op, const BenchSettings& s, const std::atomic<bool>* cancel);
  // The grid a matrix row's timed kernel runs in, over the current input's type, on the device
  // shape the session read once, where its launch chooses one (lanes-per-row: lanes_timed_grid;
  // flat-rows: flat_timed_grid); 0 where it does not.
  std::size_t timed_grid(Algo algo, Matrix m, int block, OpKind op);
  Timing time_baseline(Baseline b, OpKind op, const BenchSettings& s, const std::atomic<bool>* cancel);
  // Launches made elsewhere (a kernel of your own, app/own/own_bench.h): enqueue puts them on
  // `stream` (a cudaStream_t) over `input`, the current input, and returns the device address of
  // the one result, a value of the input's type (int, float or double). Timed as the kernels are.
  using Enqueue = std::function<const void*(void* stream, const void* input)>;
  Timing time_enqueue(const Enqueue& enqueue, const BenchSettings& s, const std::atomic<bool>* cancel);
  // CUB's segmented reduce (rows), cuBLAS gemv with a ones vector (rows or columns; float and
  // double sums only: cuBLAS has no integer gemv). Throws std::invalid_argument when the
  // baseline cannot do it, CudaError when cuBLAS cannot be loaded.
  Timing time_matrix_baseline(Baseline b, OpKind op, Matrix m, const BenchSettings& s, const std::atomic<bool>* cancel);

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace rl::kernels
