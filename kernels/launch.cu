// Host launchers: how each algorithm covers the whole array (repeated passes, a fixed grid
// and a second pass, atomics, a cooperative launch), and the explicit instantiations.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>

#include "cg.cuh"
#include "reduce_api.h"
#include "shuffle.cuh"
#include "single_pass.cuh"
#include "tree.cuh"

namespace rl::kernels {
namespace {

void check(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next run starts clean
  throw CudaError(std::string(call) + " failed: " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) +
                  ") at " + file + ":" + std::to_string(line));
}
#define RL_CUDA(call) check((call), #call, __FILE__, __LINE__)

// Owns one device allocation; freed on every path, exceptions included.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count_ > 0) RL_CUDA(cudaMalloc(&ptr_, count_ * sizeof(T)));
  }
  ~DeviceArray() {
    if (ptr_) cudaFree(ptr_);
  }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return ptr_; }
  void to_host(T* dst, std::size_t count) const {
    if (count > 0) RL_CUDA(cudaMemcpy(dst, ptr_, count * sizeof(T), cudaMemcpyDeviceToHost));
  }
  void to_host(std::vector<T>& dst) const { to_host(dst.data(), dst.size()); }
  void from_host(const T* src, std::size_t count) {
    if (count > 0) RL_CUDA(cudaMemcpy(ptr_, src, count * sizeof(T), cudaMemcpyHostToDevice));
  }
  void fill_bytes(int byte) {
    if (count_ > 0) RL_CUDA(cudaMemset(ptr_, byte, count_ * sizeof(T)));
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_;
};

std::size_t ceil_div(std::size_t a, std::size_t b) { return (a + b - 1) / b; }

// Device buffers behind a TraceProbe, copied into a RawTrace afterwards.
template <class T>
struct TraceBuffers {
  TraceShape shape;
  int block;
  DeviceArray<int> tags, params;
  DeviceArray<std::uint8_t> has_shared, has_lanes, active;
  DeviceArray<T> shared, lanes;
  DeviceArray<int> access;

  TraceBuffers(TraceShape s, int b)
      : shape(s), block(b), tags(s.stages), params(s.stages), has_shared(s.stages), has_lanes(s.stages),
        active(std::size_t(s.stages) * b), shared(std::size_t(s.stages) * s.shared_size),
        lanes(std::size_t(s.stages) * b), access(std::size_t(s.stages) * b * std::max(s.slots, 1)) {
    tags.fill_bytes(0xff);  // -1: a stage the kernel never reached
    params.fill_bytes(0);
    has_shared.fill_bytes(0);
    has_lanes.fill_bytes(0);
    active.fill_bytes(0);
    access.fill_bytes(0xff);
    shared.fill_bytes(0);  // stages that record no shared memory or lanes still copy back
    lanes.fill_bytes(0);
  }
  TraceProbe<T> probe(int traced_block) const {
    return {traced_block, std::max(shape.slots, 1), shape.shared_size, tags.get(), params.get(), has_shared.get(),
            has_lanes.get(), shared.get(), lanes.get(), active.get(), access.get()};
  }
  void copy_to(RawTrace<T>& raw) const {
    raw.reset(shape, block);
    tags.to_host(raw.tags);
    params.to_host(raw.params);
    has_shared.to_host(raw.has_shared);
    has_lanes.to_host(raw.has_lanes);
    shared.to_host(raw.shared);
    lanes.to_host(raw.lanes);
    active.to_host(raw.active);
    if (shape.slots > 0) access.to_host(raw.access);
  }
};

template <class T, class Op, class Probe>
void launch_block_kernel(Algo algo, std::size_t grid, int block, const T* in, T* out, std::size_t n,
                         const Probe& p) {
  const dim3 g(static_cast<unsigned>(grid));
  const std::size_t sh = std::size_t(block) * sizeof(T);
  switch (algo) {
    case Algo::NaiveSerial: naive_serial<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::InterleavedDivergent: interleaved_divergent<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::InterleavedBankConflicts: interleaved_bank_conflicts<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::Sequential: sequential<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::FirstAddOnLoad: first_add_on_load<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::UnrollLastWarp: unroll_last_warp<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::CompleteUnroll:
      switch (block) {
        case 32: complete_unroll<32, T, Op><<<g, 32, sh>>>(in, out, n, p); break;
        case 64: complete_unroll<64, T, Op><<<g, 64, sh>>>(in, out, n, p); break;
        case 128: complete_unroll<128, T, Op><<<g, 128, sh>>>(in, out, n, p); break;
        case 256: complete_unroll<256, T, Op><<<g, 256, sh>>>(in, out, n, p); break;
        case 512: complete_unroll<512, T, Op><<<g, 512, sh>>>(in, out, n, p); break;
        default: complete_unroll<1024, T, Op><<<g, 1024, sh>>>(in, out, n, p); break;
      }
      break;
    case Algo::MultiplePerThread: multiple_per_thread<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::NonPow2Block: non_pow2_block<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::WarpShuffle: warp_shuffle<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::WarpShuffleVectorized: warp_shuffle_vectorized<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::CgWarp: cg_warp<T, Op><<<g, block>>>(in, out, n, p); break;
    case Algo::CgBlock: cg_block<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::CgTwoPhase: cg_two_phase<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::CgReduceUpdateAsync: cg_reduce_update_async<T, Op><<<g, block>>>(in, out, n, p); break;
    case Algo::MissingSyncthreads: missing_syncthreads<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    case Algo::LegacyWarpSynchronous: legacy_warp_synchronous<T, Op><<<g, block, sh>>>(in, out, n, p); break;
    default: throw std::invalid_argument("no block kernel for this algorithm");
  }
  RL_CUDA(cudaGetLastError());
}

template <class T, class Op>
class Reducer {
 public:
  Reducer(Algo algo, const Launch& l, RawTrace<T>* trace) : algo_(algo), launch_(l), trace_(trace) {}

  T run(const T* host_in, std::size_t n) {
    DeviceArray<T> input(n);
    input.from_host(host_in, n);
    switch (algo_) {
      case Algo::GlobalHalving: return halving(input, n);
      case Algo::WarpShuffleVectorized:
      case Algo::CgReduceUpdateAsync: return atomic_single_pass(input.get(), n);
      case Algo::CgGridSync: return grid_sync(input.get(), n);
      case Algo::ThreadfenceSinglePass: return threadfence(input.get(), n);
      case Algo::MultiplePerThread:
      case Algo::CgTwoPhase: return fixed_grid_two_pass(input.get(), n);
      default: return repeated_passes(input.get(), n);
    }
  }

 private:
  std::size_t grid_for(std::size_t n) const {
    return launch_.grid ? launch_.grid : first_pass_grid(algo_, n, launch_.block, cuda_sm_count());
  }
  std::size_t outputs_per_block() const { return algo_ == Algo::CgWarp ? std::size_t(launch_.block / 32) : 1; }
  std::size_t per_block() const { return algo_ == Algo::FirstAddOnLoad ? 2 * std::size_t(launch_.block) : launch_.block; }

  // The first pass, traced when asked; later passes are never traced.
  template <class Kernel>
  void first_pass(std::size_t n, Kernel kernel) {
    if (!trace_) {
      kernel(NoProbe{});
      return;
    }
    TraceBuffers<T> buf(trace_shape(algo_, launch_.block, n), launch_.block);
    kernel(buf.probe(launch_.trace_block));
    RL_CUDA(cudaDeviceSynchronize());
    buf.copy_to(*trace_);
    trace_->grid = grid_for(n);
  }

  T read_result(const T* dev) const {
    T result{};
    RL_CUDA(cudaMemcpy(&result, dev, sizeof(T), cudaMemcpyDeviceToHost));
    return result;
  }

  // How many partials a pass over count elements leaves: one per block, or one per warp
  // that saw data (cg-warp).
  std::size_t next_count(std::size_t count) const {
    return algo_ == Algo::CgWarp ? ceil_div(count, 32) : ceil_div(count, per_block());
  }

  // Block partials, then the same kernel over the partials until one value is left.
  T repeated_passes(const T* in, std::size_t n) {
    std::size_t grid = ceil_div(n, per_block());
    DeviceArray<T> a(grid * outputs_per_block()), b(grid * outputs_per_block());
    first_pass(n, [&](auto probe) { launch_block_kernel<T, Op>(algo_, grid, launch_.block, in, a.get(), n, probe); });
    T* src = a.get();
    T* dst = b.get();
    for (std::size_t count = next_count(n); count > 1; count = next_count(count)) {
      grid = ceil_div(count, per_block());
      launch_block_kernel<T, Op>(algo_, grid, launch_.block, src, dst, count, NoProbe{});
      std::swap(src, dst);
    }
    return read_result(src);
  }

  // A fixed grid strides over the array; one block then reduces the grid's partials.
  T fixed_grid_two_pass(const T* in, std::size_t n) {
    const std::size_t grid = grid_for(n);
    DeviceArray<T> partials(grid), result(1);
    first_pass(n, [&](auto probe) { launch_block_kernel<T, Op>(algo_, grid, launch_.block, in, partials.get(), n, probe); });
    launch_block_kernel<T, Op>(algo_, 1, launch_.block, partials.get(), result.get(), grid, NoProbe{});
    return read_result(result.get());
  }

  T atomic_single_pass(const T* in, std::size_t n) {
    const std::size_t grid = grid_for(n);
    DeviceArray<T> result(1);
    const T identity = Op::template identity<T>();
    result.from_host(&identity, 1);
    first_pass(n, [&](auto probe) { launch_block_kernel<T, Op>(algo_, grid, launch_.block, in, result.get(), n, probe); });
    return read_result(result.get());
  }

  T threadfence(const T* in, std::size_t n) {
    const std::size_t grid = grid_for(n);
    DeviceArray<T> partials(grid), result(1);
    DeviceArray<unsigned> retired(1);
    retired.fill_bytes(0);
    first_pass(n, [&](auto probe) {
      threadfence_single_pass<T, Op><<<unsigned(grid), launch_.block, launch_.block * sizeof(T)>>>(
          in, result.get(), n, probe, partials.get(), retired.get());
      RL_CUDA(cudaGetLastError());
    });
    return read_result(result.get());
  }

  T grid_sync(const T* in, std::size_t n) {
    // Every block must be resident at once: cap the grid by what the device holds.
    int per_sm = 0;
    const std::size_t sh = std::size_t(launch_.block) * sizeof(T);
    RL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, cg_grid_sync<T, Op, TraceProbe<T>>, launch_.block, sh));
    int per_sm_timed = 0;
    RL_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm_timed, cg_grid_sync<T, Op, NoProbe>, launch_.block, sh));
    const std::size_t resident = std::size_t(std::min(per_sm, per_sm_timed)) * cuda_sm_count();
    const std::size_t grid = std::min(grid_for(n), resident);
    if (grid == 0) throw CudaError("cg-grid-sync: no block of this size fits on the device");
    if (launch_.grid && launch_.grid > resident)
      throw std::invalid_argument("cg-grid-sync: a grid of " + std::to_string(launch_.grid) +
                                  " blocks cannot all be resident (at most " + std::to_string(resident) + ")");
    if (trace_ && std::size_t(launch_.trace_block) >= grid)
      throw std::invalid_argument("trace block " + std::to_string(launch_.trace_block) + " is outside the grid of " +
                                  std::to_string(grid) + " block(s)");
    DeviceArray<T> out(1 + grid);
    first_pass(n, [&](auto probe) {
      using P = decltype(probe);
      const T* in_arg = in;
      T* out_arg = out.get();
      std::size_t n_arg = n;
      P probe_arg = probe;
      void* args[] = {&in_arg, &out_arg, &n_arg, &probe_arg};
      RL_CUDA(cudaLaunchCooperativeKernel(reinterpret_cast<void*>(cg_grid_sync<T, Op, P>), dim3(unsigned(grid)),
                                          dim3(launch_.block), args, sh, nullptr));
      RL_CUDA(cudaGetLastError());
    });
    if (trace_) trace_->grid = grid;
    return read_result(out.get());
  }

  // global-halving: launches as the barrier; the trace holds the live part after each one.
  T halving(DeviceArray<T>& x, std::size_t n) {
    const int stages = trace_shape(algo_, launch_.block, n).stages;
    DeviceArray<std::uint8_t> active(trace_ ? n : 0);
    DeviceArray<int> access(trace_ ? 3 * n : 0);
    if (trace_) {
      trace_->reset({stages, 3, int(n)}, int(n));
      trace_->grid = 1;
      trace_->tags[0] = kTagInput;
      trace_->has_shared[0] = 1;
      x.to_host(trace_->shared.data(), n);
      for (std::size_t i = 0; i < n; ++i) trace_->active[i] = 1;
    }
    std::size_t live = n;
    for (int k = 1; live > 1; ++k) {
      const std::size_t half = (live + 1) / 2;
      HalvingProbe probe;
      if (trace_) {
        active.fill_bytes(0);
        access.fill_bytes(0xff);
        probe = {active.get(), access.get()};
      }
      global_halving<T, Op><<<unsigned(ceil_div(half, launch_.block)), launch_.block>>>(x.get(), live, half, probe);
      RL_CUDA(cudaGetLastError());
      if (trace_) {
        const std::size_t at = std::size_t(k) * n;
        trace_->tags[k] = kTagHalving;
        trace_->params[k] = int(half);
        trace_->has_shared[k] = 1;
        x.to_host(trace_->shared.data() + at, half);
        active.to_host(trace_->active.data() + at, half);
        access.to_host(trace_->access.data() + 3 * at, 3 * half);
      }
      live = half;
    }
    return read_result(x.get());
  }

  Algo algo_;
  Launch launch_;
  RawTrace<T>* trace_;
};

}  // namespace

bool cuda_available(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();
    if (why) {
      if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver)
        *why = "no NVIDIA GPU found (no CUDA driver, or one older than this build's CUDA " +
               std::to_string(CUDART_VERSION / 1000) + "." + std::to_string(CUDART_VERSION % 1000 / 10) + ")";
      else
        *why = std::string("no usable NVIDIA GPU: ") + cudaGetErrorString(err);
    }
    return false;
  }
  if (count == 0) {
    if (why) *why = "no NVIDIA GPU found";
    return false;
  }
  return true;
}

std::string cuda_device_name() {
  int dev = 0;
  RL_CUDA(cudaGetDevice(&dev));
  cudaDeviceProp prop{};
  RL_CUDA(cudaGetDeviceProperties(&prop, dev));
  return prop.name;
}

int cuda_sm_count() {
  static const int count = [] {
    int dev = 0, sms = 0;
    RL_CUDA(cudaGetDevice(&dev));
    RL_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev));
    return sms;
  }();
  return count;
}

template <class T>
T gpu_reduce(Algo algo, OpKind op, const T* host_in, std::size_t n, const Launch& launch, RawTrace<T>* trace) {
  if (!gpu_launchable(algo)) throw std::invalid_argument("this algorithm is modelled only and never launched on the GPU");
  Launch l = launch;
  // Fixed grids come from this device's SM count; cg-grid-sync's is capped by occupancy later.
  if (!l.grid && algo != Algo::CgGridSync) l.grid = first_pass_grid(algo, n, l.block, cuda_sm_count());
  Launch checked = l;
  if (!checked.grid) checked.grid = first_pass_grid(algo, n, l.block, cuda_sm_count());
  check_launch(algo, n, checked, trace != nullptr);
  switch (op) {
    case OpKind::Sum: return Reducer<T, ops::Sum>(algo, l, trace).run(host_in, n);
    case OpKind::Min: return Reducer<T, ops::Min>(algo, l, trace).run(host_in, n);
    case OpKind::Max: return Reducer<T, ops::Max>(algo, l, trace).run(host_in, n);
  }
  throw std::invalid_argument("unknown operator");
}

template int gpu_reduce<int>(Algo, OpKind, const int*, std::size_t, const Launch&, RawTrace<int>*);
template float gpu_reduce<float>(Algo, OpKind, const float*, std::size_t, const Launch&, RawTrace<float>*);
template double gpu_reduce<double>(Algo, OpKind, const double*, std::size_t, const Launch&, RawTrace<double>*);

}  // namespace rl::kernels
