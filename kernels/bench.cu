#include <cub/device/device_reduce.cuh>
#include <cub/device/device_segmented_reduce.cuh>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>
#include <thrust/reduce.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <chrono>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

#include "algorithms.h"
#include "bench_api.h"
#include "bench_input.h"
#include "bench_libraries.h"
#include "bench_stats.h"
#include "copy.cuh"
#include "host_memory.h"
#include "matrix_launch.cuh"
#include "model/cpu_baseline.h"
#include "model/matrix_check.h"

namespace rl::kernels {
namespace {

// Evicts the L2 by reading a buffer twice its size: unlike a memset, it leaves no dirty
// lines whose write-back would overlap the next timed kernel.
__global__ void evict_l2(const int4* buf, std::size_t count, int* sink) {
  int acc = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x)
    acc ^= buf[i].x ^ buf[i].w;
  if (acc == 0x7fffffff) *sink = acc;  // keeps the loads; practically never taken
}

// Row r of a rows x cols matrix starts at element r * cols: CUB's segment offsets.
struct RowStart {
  long long cols;
  __host__ __device__ long long operator()(long long r) const { return r * cols; }
};

}  // namespace

// A half or bfloat16 to float, exactly: CUB's transform before it adds.
template <class In>
struct ToFloat {
  __device__ float operator()(In x) const { return static_cast<float>(x); }
};

struct BenchSession::Impl {
  int device_id = 0;
  DeviceInfo info;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr, evicting = nullptr, cleaned = nullptr;
  void* flush = nullptr;
  void* input = nullptr;
  void* output = nullptr;  // the copy baseline's destination
  std::size_t capacity = 0, n = 0;
  DType type = DType::Float;
  bool same_type = false;           // halves and bfloat16 add in their own type (set_values)
  std::vector<unsigned char> host;  // the same values, for the CPU baseline
  std::vector<float> wide;          // halves and bfloat16 as floats (exact), for the matrix checks
  std::unique_ptr<Nvml> nvml;
  std::unique_ptr<Cublas> cublas;  // loaded on first use

  ~Impl() {
    cudaFree(flush);
    cudaFree(input);
    cudaFree(output);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (evicting) cudaEventDestroy(evicting);
    if (cleaned) cudaEventDestroy(cleaned);
    if (stream) cudaStreamDestroy(stream);
  }

  std::size_t elem() const { return type == DType::Double ? 8 : is_narrow(type) ? 2 : 4; }
  std::size_t flush_bytes() const { return 2 * std::max<std::size_t>(info.l2_bytes, 1 << 20); }

  // Sizes the input, the copy's destination and the host copy for n elements of the type.
  void reserve(std::size_t count) {
    n = count;
    if (n > std::numeric_limits<std::size_t>::max() / (2 * elem()))  // the input and the copy's destination
      throw CudaError("n = " + std::to_string(n) + " is past what any memory holds (2^64 bytes)");
    const std::size_t bytes = n * elem();
    const std::string what = "n = " + std::to_string(n) + " (the input and the copy's destination)";
    if (const std::size_t have = host_available_bytes(); have && bytes > have)
      throw CudaError(what + " needs " + mib(bytes) + " of host memory for the values; " + mib(have) +
                      " are available");
    if (bytes > capacity) {
      std::size_t free = 0, total = 0;
      RL_CUDA(cudaMemGetInfo(&free, &total));
      if (2 * bytes > free + 2 * capacity)  // checked before the old buffers go
        throw CudaError(what + " needs " + mib(2 * bytes) + " of GPU memory; " + mib(free + 2 * capacity) + " of " +
                        mib(total) + " are free");
      cudaFree(input);
      cudaFree(output);
      input = output = nullptr;
      capacity = 0;
      input = device_alloc(bytes, what);
      output = device_alloc(bytes, what);
      capacity = bytes;
    }
    host.resize(bytes);
    expected_lines.clear();
  }

  // Element i of the input, x in the type's bytes (a value of the type: converted, not rounded,
  // for the types but half and bfloat16); halves and bfloat16 also widened to float.
  void store(std::size_t i, double x) {
    if (type == DType::Int) {
      const int v = int(x);
      std::memcpy(&host[i * 4], &v, 4);
    } else if (type == DType::Float) {
      const float v = float(x);
      std::memcpy(&host[i * 4], &v, 4);
    } else if (is_narrow(type)) {
      const std::uint16_t bits = narrow_bits(type, float(x));
      std::memcpy(&host[i * 2], &bits, 2);
      wide[i] = float(x);
    } else {
      std::memcpy(&host[i * 8], &x, 8);
    }
  }

  // Cold: reads a buffer of twice the L2 so the next input is not served from cache. Two such
  // buffers: a clean eviction (measure's write_back) reads the other, so it misses as the first did.
  void evict(int which = 0) {
    const int4* buf = static_cast<const int4*>(flush) + std::size_t(which) * (flush_bytes() / 16);
    evict_l2<<<info.sm_count * 4, 256, 0, stream>>>(buf, flush_bytes() / 16, static_cast<int*>(flush));
    RL_CUDA(cudaGetLastError());
  }

  // measure's write_back: the dirty eviction's time over the clean one's, in microseconds.
  double write_back_us() const {
    float dirty_ms = 0, clean_ms = 0;
    RL_CUDA(cudaEventElapsedTime(&dirty_ms, stop, evicting));
    RL_CUDA(cudaEventElapsedTime(&clean_ms, cleaned, start));
    return (dirty_ms - clean_ms) * 1000.0;
  }

  // The sample loop shared by every kernel and baseline. Enqueue returns where the result is.
  // write_back (matrices): an eviction right after the timed run writes back what it left dirty
  // in L2 (a row kernel's sums, up to 64 MB); the eviction right before the run read the other
  // buffer with nothing dirty. Each follows other work at once: the first launch after the host's
  // wait ran 2-5 us slower, dirty or not. The median of the first's time over the second's is
  // added to the median, so a run that leaves its outputs in L2 pays for writing them as one that
  // writes them during the kernel does (docs/benchmarks.md, "Method").
  template <class T, class Enqueue>
  Timing measure(Enqueue enqueue, const BenchSettings& s, const std::atomic<bool>* cancel, bool write_back = false) {
    using clock = std::chrono::steady_clock;
    const auto t0 = clock::now();
    const T* result = nullptr;
    for (int w = 0; w < s.warmup; ++w) result = enqueue();
    RL_CUDA(cudaStreamSynchronize(stream));
    std::vector<double> us, write_backs;
    Timing t;
    for (int i = 0; !(cancel && cancel->load()); ++i) {
      evict();
      if (write_back) {  // the other buffer: the same reads, nothing dirty
        RL_CUDA(cudaEventRecord(cleaned, stream));
        evict(1);
      }
      RL_CUDA(cudaEventRecord(start, stream));
      result = enqueue();
      RL_CUDA(cudaEventRecord(stop, stream));
      if (write_back) {  // this run's dirty lines, written back
        evict();
        RL_CUDA(cudaEventRecord(evicting, stream));
      }
      RL_CUDA(cudaEventSynchronize(write_back ? evicting : stop));
      float ms = 0;
      RL_CUDA(cudaEventElapsedTime(&ms, start, stop));
      if (nvml && nvml->throttled()) {  // the sample and its write-back both go
        ++t.discarded;
      } else {
        us.push_back(ms * 1000.0);
        if (write_back) write_backs.push_back(write_back_us());
      }
      const double wall = std::chrono::duration<double>(clock::now() - t0).count();
      if (int(us.size()) >= s.min_samples && rsd(us) < s.rsd_target) {
        t.converged = true;
        break;
      }
      // The time limit ends sampling only once the minimum number of samples is in.
      if (int(us.size()) >= s.max_samples || (wall > s.max_seconds && int(us.size()) >= s.min_samples)) break;
      if (wall > 20 * s.max_seconds) break;  // every sample throttled: give up, and say so (samples < min)
    }
    summarise(us, t);
    if (write_back && !us.empty()) {
      t.write_back_us = std::max(0.0, median(write_backs));
      t.median_us += t.write_back_us;
    }
    if (result) {
      T r{};
      RL_CUDA(cudaMemcpy(&r, result, sizeof(T), cudaMemcpyDeviceToHost));
      t.result = double(r);
    }
    return t;
  }

  template <class T, class Op, class In>
  Timing time_algo(const Plan& plan, const BenchSettings& s, const std::atomic<bool>* cancel) {
    if constexpr (narrow::is_narrow<In>) {
      if (!plan.row->narrow) throw std::invalid_argument(std::string(plan.row->id) + " takes no half or bfloat16");
    }
    Reducer<T, Op, In, false> r(plan, nullptr, stream);
    r.prepare();
    const In* in = static_cast<const In*>(input);
    return measure<T>([&] { return r.enqueue(in); }, s, cancel);
  }

  // CUB over halves or bfloat16, each converted to float before it is added (TransformReduce):
  // the same input and accumulator as the kernels' float-accumulating runs.
  template <class T, class Op, class In>
  Timing time_narrow_cub(const BenchSettings& s, const std::atomic<bool>* cancel) {
    const In* in = static_cast<const In*>(input);
    T* out = static_cast<T*>(output);
    const ToFloat<In> cast;
    std::size_t bytes = 0;
    RL_CUDA(
        cub::DeviceReduce::TransformReduce(nullptr, bytes, in, out, n, Op{}, cast, Op::template identity<T>(), stream));
    DeviceArray<unsigned char> temp(std::max<std::size_t>(bytes, 1));
    return measure<T>(
        [&] {
          RL_CUDA(cub::DeviceReduce::TransformReduce(temp.get(), bytes, in, out, n, Op{}, cast,
                                                     Op::template identity<T>(), stream));
          return static_cast<const T*>(out);
        },
        s, cancel);
  }

  template <class T, class Op, class In>
  Timing time_base(Baseline b, const BenchSettings& s, const std::atomic<bool>* cancel) {
    if constexpr (narrow::is_narrow<T>) {
      throw std::invalid_argument("the baselines are timed adding halves and bfloat16 in float");
    } else if constexpr (narrow::is_narrow<In>) {
      if (b != Baseline::Cub) throw std::invalid_argument("half and bfloat16 are timed against cub alone");
      return time_narrow_cub<T, Op, In>(s, cancel);
    } else {
      return time_base_same<T, Op>(b, s, cancel);
    }
  }

  template <class T, class Op>
  Timing time_base_same(Baseline b, const BenchSettings& s, const std::atomic<bool>* cancel) {
    const T* in = static_cast<const T*>(input);
    if (b == Baseline::Cub) {
      T* out = static_cast<T*>(output);
      std::size_t bytes = 0;
      RL_CUDA(cub::DeviceReduce::Reduce(nullptr, bytes, in, out, n, Op{}, Op::template identity<T>(), stream));
      DeviceArray<unsigned char> temp(std::max<std::size_t>(bytes, 1));
      return measure<T>(
          [&] {
            RL_CUDA(cub::DeviceReduce::Reduce(temp.get(), bytes, in, out, n, Op{}, Op::template identity<T>(), stream));
            return static_cast<const T*>(out);
          },
          s, cancel);
    }
    if (b == Baseline::Thrust) {
      T result{};
      const thrust::device_ptr<const T> p(in);
      Timing t = measure<T>([&] {
        result = thrust::reduce(thrust::cuda::par.on(stream), p, p + n, Op::template identity<T>(), Op{});
        return static_cast<const T*>(nullptr);
      }, s, cancel);
      t.result = double(result);
      return t;
    }
    if (b == Baseline::Copy) {
      const unsigned grid = unsigned(std::max<std::size_t>(1, std::min<std::size_t>((n / 2 + 255) / 256, 8 * info.sm_count)));
      return measure<T>([&] {
        vector_copy<T><<<grid, 256, 0, stream>>>(in, static_cast<T*>(output), n);
        RL_CUDA(cudaGetLastError());
        return static_cast<const T*>(nullptr);
      }, s, cancel);
    }
    // The CPU: host clock around std::reduce over the same values.
    const T* h = reinterpret_cast<const T*>(host.data());
    std::vector<double> us;
    Timing t;
    const auto t0 = std::chrono::steady_clock::now();
    while (!(cancel && cancel->load())) {
      const auto a = std::chrono::steady_clock::now();
      const T r = model::cpu_reduce<T>(kernel_op_of<Op>(), h, n);
      const auto z = std::chrono::steady_clock::now();
      t.result = double(r);
      us.push_back(std::chrono::duration<double, std::micro>(z - a).count());
      const double wall = std::chrono::duration<double>(z - t0).count();
      if (int(us.size()) >= s.min_samples && rsd(us) < s.rsd_target) {
        t.converged = true;
        break;
      }
      if (int(us.size()) >= s.max_samples || (wall > s.max_seconds && int(us.size()) >= s.min_samples)) break;
    }
    summarise(us, t);
    return t;
  }

  template <class T, class Op>
  void check_outputs(const T* dev_out, Lines lines, Matrix m, bool walk, Timing& t) const {
    std::vector<T> got(line_count(lines, m));
    RL_CUDA(cudaMemcpy(got.data(), dev_out, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
    const auto c = model::check_matrix_outputs<T, Op>(got.data(), expected<T, Op>(lines, m), walk);
    t.outputs = c.outputs, t.wrong = c.wrong, t.wrong_note = c.first_wrong;
  }

  // The exact lines of the input as a matrix: computed once a shape and kind of line, not once an
  // algorithm (a sweep's checks read the 1 GiB input for each of its ten kernels and anchors).
  struct Expected {
    Lines lines;
    Matrix m;
    const void* op;  // the operator's identity: one tag a template instantiation
    std::shared_ptr<const void> lines_exact;
  };
  mutable std::vector<Expected> expected_lines;  // cleared with each new input
  template <class T, class Op>
  const model::MatrixExpected<T>& expected(Lines lines, Matrix m) const {
    static const char tag = 0;  // one per <T, Op>
    for (const Expected& e : expected_lines)
      if (e.lines == lines && e.m.rows == m.rows && e.m.cols == m.cols && e.op == &tag)
        return *static_cast<const model::MatrixExpected<T>*>(e.lines_exact.get());
    auto made = std::make_shared<const model::MatrixExpected<T>>(model::matrix_expected<T, Op>(values<T>(), m, lines));
    expected_lines.push_back({lines, m, &tag, made});
    return *made;
  }

  // The input's values as T: the host copy, or for halves and bfloat16 (added in float) their floats.
  template <class T>
  const T* values() const {
    if constexpr (std::is_same_v<T, float>)
      if (!wide.empty()) return wide.data();
    return reinterpret_cast<const T*>(host.data());
  }

  template <class T, class Op, class In = T>
  Timing time_matrix_algo(const Plan& plan, const BenchSettings& s, const std::atomic<bool>* cancel) {
    MatrixReducer<T, Op, In, false> r(plan, nullptr, stream);
    r.prepare();
    const In* in = static_cast<const In*>(input);
    const T* out = nullptr;
    Timing t = measure<T>([&] { return out = r.enqueue(in); }, s, cancel, true);
    if (out)  // Tree::None: a thread's own walk
      check_outputs<T, Op>(out, matrix_lines(plan.algo()), plan.shape, plan.row->tree == Tree::None, t);
    return t;
  }

  template <class T, class Op>
  Timing time_matrix_base(Baseline b, Matrix m, const BenchSettings& s, const std::atomic<bool>* cancel) {
    const T* in = static_cast<const T*>(input);
    T* out = static_cast<T*>(output);  // the copy's destination: large enough for any output
    if (b == Baseline::CubSegmented) {
      const auto starts = thrust::make_transform_iterator(thrust::make_counting_iterator<long long>(0), RowStart{(long long)m.cols});
      const auto segmented = [&](void* temp, std::size_t& bytes) {
        if constexpr (std::is_same_v<Op, ops::Sum>)
          return cub::DeviceSegmentedReduce::Sum(temp, bytes, in, out, (long long)m.rows, starts, starts + 1, stream);
        else
          return cub::DeviceSegmentedReduce::Reduce(temp, bytes, in, out, (long long)m.rows, starts, starts + 1, Op{},
                                                    Op::template identity<T>(), stream);
      };
      std::size_t bytes = 0;
      RL_CUDA(segmented(nullptr, bytes));
      DeviceArray<unsigned char> temp(std::max<std::size_t>(bytes, 1));
      Timing t = measure<T>(
          [&] {
            RL_CUDA(segmented(temp.get(), bytes));
            return static_cast<const T*>(out);
          },
          s, cancel, true);
      check_outputs<T, Op>(out, Lines::Rows, m, false, t);
      return t;
    }
    if constexpr (std::is_same_v<T, int> || !std::is_same_v<Op, ops::Sum>) {
      throw std::invalid_argument("cuBLAS gemv multiplies floats or doubles: it has no int or min/max form");
    } else {
      const bool rows = b == Baseline::CublasRows;
      const std::size_t len = rows ? m.cols : m.rows;
      if (m.rows > std::size_t(INT32_MAX) || m.cols > std::size_t(INT32_MAX))
        throw std::invalid_argument("the 32-bit cuBLAS gemv this app calls takes at most 2^31 - 1 rows and columns");
      if (!cublas) cublas = std::make_unique<Cublas>();
      Cublas::check(cublas->set_stream(cublas->handle, stream), "cublasSetStream");
      DeviceArray<T> ones(len);
      const std::vector<T> host_ones(len, T(1));
      ones.from_host(host_ones.data(), len);
      const T one = 1, zero = 0;
      // Row-major rows x cols is column-major cols x rows (lda = cols): row sums are its
      // transpose times ones, column sums it times ones.
      const int op = rows ? Cublas::kOpT : Cublas::kOpN, mm = int(m.cols), nn = int(m.rows);
      Timing t = measure<T>(
          [&] {
            if constexpr (std::is_same_v<T, float>)
              Cublas::check(cublas->sgemv(cublas->handle, op, mm, nn, &one, in, mm, ones.get(), 1, &zero, out, 1),
                            "cublasSgemv");
            else
              Cublas::check(cublas->dgemv(cublas->handle, op, mm, nn, &one, in, mm, ones.get(), 1, &zero, out, 1),
                            "cublasDgemv");
            return static_cast<const T*>(out);
          },
          s, cancel, true);
      check_outputs<T, Op>(out, rows ? Lines::Rows : Lines::Columns, m, true, t);  // cuBLAS's order is its own
      return t;
    }
  }

  template <class Op>
  static OpKind kernel_op_of() {
    if constexpr (std::is_same_v<Op, ops::Min>) return OpKind::Min;
    else if constexpr (std::is_same_v<Op, ops::Max>) return OpKind::Max;
    else return OpKind::Sum;
  }

  // Calls job.template run<T, Op, In>(*this) for the session's type and the given operator:
  // halves and bfloat16 (In) add in float (T).
  template <class Job>
  auto dispatch(OpKind op, const Job& job) {
    switch (type) {
      case DType::Int: return with_op<int, int>(op, job);
      case DType::Double: return with_op<double, double>(op, job);
      case DType::Half:
        return same_type ? with_op<narrow::Half, narrow::Half>(op, job) : with_op<float, narrow::Half>(op, job);
      case DType::Bf16:
        return same_type ? with_op<narrow::Bf16, narrow::Bf16>(op, job) : with_op<float, narrow::Bf16>(op, job);
      default: return with_op<float, float>(op, job);
    }
  }
  template <class T, class In, class Job>
  auto with_op(OpKind op, const Job& job) {
    if constexpr (narrow::is_narrow<T>) {  // a min or max of halves rounds nothing: sums only
      if (op != OpKind::Sum) throw std::invalid_argument("a half or bfloat16 accumulator takes sums only");
      return job.template run<T, ops::Sum, In>(*this);
    } else {
      switch (op) {
        case OpKind::Min: return job.template run<T, ops::Min, In>(*this);
        case OpKind::Max: return job.template run<T, ops::Max, In>(*this);
        default: return job.template run<T, ops::Sum, In>(*this);
      }
    }
  }
};

namespace {
struct PlanJob {
  const Plan& plan;
  const BenchSettings& s;
  const std::atomic<bool>* cancel;
  template <class T, class Op, class In>
  Timing run(BenchSession::Impl& i) const {
    if (!plan.matrix()) return i.time_algo<T, Op, In>(plan, s, cancel);
    if constexpr (narrow::is_narrow<T>)
      throw std::invalid_argument("matrices of halves and bfloat16 are timed adding in float");
    else
      return i.time_matrix_algo<T, Op, In>(plan, s, cancel);
  }
};
struct GridJob {
  Algo algo;
  Matrix m;
  int block;
  template <class T, class Op, class In>
  std::size_t run(BenchSession::Impl& i) const {
    if constexpr (narrow::is_narrow<T>)
      return 0;  // not timed (PlanJob)
    else
      return timed_matrix_grid<T, Op, In>(algo, m, block, i.info.shape());
  }
};
struct MatrixBaselineJob {
  Baseline b;
  Matrix m;
  const BenchSettings& s;
  const std::atomic<bool>* cancel;
  template <class T, class Op, class In>
  Timing run(BenchSession::Impl& i) const {
    if constexpr (narrow::is_narrow<In>)
      throw std::invalid_argument("no matrix baseline takes half or bfloat16 yet");
    else
      return i.time_matrix_base<T, Op>(b, m, s, cancel);
  }
};
struct BaselineJob {
  Baseline b;
  const BenchSettings& s;
  const std::atomic<bool>* cancel;
  template <class T, class Op, class In>
  Timing run(BenchSession::Impl& m) const {
    return m.time_base<T, Op, In>(b, s, cancel);
  }
};
}  // namespace

BenchSession::BenchSession() : impl_(std::make_unique<Impl>()) {
  auto& m = *impl_;
  RL_CUDA(cudaGetDevice(&m.device_id));
  cudaDeviceProp prop{};
  RL_CUDA(cudaGetDeviceProperties(&prop, m.device_id));
  m.info.name = prop.name;
  const DeviceShape shape = cuda_device_shape();  // what the grid sizing reads (info.shape()), read once
  m.info.sm_count = shape.sm_count;
  m.info.threads_per_sm = shape.threads_per_sm;
  m.info.compute_major = prop.major;
  int v = 0;
  RL_CUDA(cudaDeviceGetAttribute(&v, cudaDevAttrL2CacheSize, m.device_id));
  m.info.l2_bytes = std::size_t(v);
  RL_CUDA(cudaDeviceGetAttribute(&m.info.mem_clock_khz, cudaDevAttrMemoryClockRate, m.device_id));
  RL_CUDA(cudaDeviceGetAttribute(&m.info.bus_width_bits, cudaDevAttrGlobalMemoryBusWidth, m.device_id));
  m.info.peak_gbps = shape.peak_gbps;
  m.nvml = std::make_unique<Nvml>(m.device_id);
  m.info.throttle_check = m.nvml->reasons != nullptr;
  if (!m.nvml->driver.empty()) {
    m.info.driver = m.nvml->driver;
  } else {
    RL_CUDA(cudaDriverGetVersion(&v));
    m.info.driver = "CUDA " + std::to_string(v / 1000) + "." + std::to_string(v % 1000 / 10);
  }
  RL_CUDA(cudaStreamCreateWithFlags(&m.stream, cudaStreamNonBlocking));
  RL_CUDA(cudaEventCreate(&m.start));
  RL_CUDA(cudaEventCreate(&m.stop));
  RL_CUDA(cudaEventCreate(&m.evicting));
  RL_CUDA(cudaEventCreate(&m.cleaned));
  RL_CUDA(cudaMalloc(&m.flush, 2 * m.flush_bytes()));
  RL_CUDA(cudaMemset(m.flush, 1, 2 * m.flush_bytes()));
}

BenchSession::~BenchSession() = default;

const DeviceInfo& BenchSession::device() const { return impl_->info; }

BenchSession::InputFacts BenchSession::set_input(DType type, OpKind op, std::size_t n, std::uint64_t seed) {
  auto& m = *impl_;
  m.type = type;
  m.same_type = false;
  m.n = n;
  m.reserve(n);
  m.wide.assign(is_narrow(type) ? n : 0, 0.0f);
  const InputFacts f = draw_input(type, op, n, seed, [&m](std::size_t i, double x) { m.store(i, x); });
  RL_CUDA(cudaMemcpy(m.input, m.host.data(), n * m.elem(), cudaMemcpyHostToDevice));
  return f;
}

void BenchSession::set_values(DType type, const std::vector<double>& values, bool same_type) {
  auto& m = *impl_;
  m.type = type;
  m.same_type = same_type;
  m.reserve(values.size());
  m.wide.assign(is_narrow(type) ? values.size() : 0, 0.0f);
  for (std::size_t i = 0; i < values.size(); ++i) m.store(i, values[i]);  // each a value of the type
  if (!values.empty()) RL_CUDA(cudaMemcpy(m.input, m.host.data(), m.host.size(), cudaMemcpyHostToDevice));
}

Timing BenchSession::time(const Plan& plan, OpKind op, const BenchSettings& s, const std::atomic<bool>* cancel) {
  if (!gpu_launchable(plan.algo()))
    throw std::invalid_argument("this algorithm is modelled only and never launched on the GPU");
  if (plan.size() != impl_->n) throw std::invalid_argument("the plan's shape does not match the input's size");
  return impl_->dispatch(op, PlanJob{plan, s, cancel});
}

std::size_t BenchSession::timed_grid(Algo algo, Matrix m, int block, OpKind op) {
  return impl_->dispatch(op, GridJob{algo, m, block});
}

Timing BenchSession::time_matrix_baseline(Baseline b, OpKind op, Matrix m, const BenchSettings& s,
                                          const std::atomic<bool>* cancel) {
  if (m.size() != impl_->n) throw std::invalid_argument("the matrix shape does not match the input's size");
  return impl_->dispatch(op, MatrixBaselineJob{b, m, s, cancel});
}

Timing BenchSession::time_enqueue(const Enqueue& enqueue, const BenchSettings& s, const std::atomic<bool>* cancel) {
  auto& m = *impl_;
  const auto run = [&](auto zero) {
    using T = decltype(zero);
    return m.measure<T>([&] { return static_cast<const T*>(enqueue(m.stream, m.input)); }, s, cancel);
  };
  if (m.type == DType::Int) return run(0);
  if (m.type == DType::Float) return run(0.0f);
  if (m.type == DType::Double) return run(0.0);
  throw std::invalid_argument("launches of your own are timed over int, float or double inputs");
}

Timing BenchSession::time_baseline(Baseline b, OpKind op, const BenchSettings& s, const std::atomic<bool>* cancel) {
  return impl_->dispatch(op, BaselineJob{b, s, cancel});
}

}  // namespace rl::kernels
