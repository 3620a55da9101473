// Host launchers and explicit instantiations of the tree kernels.
#include <cuda_runtime.h>

#include <algorithm>
#include <string>
#include <utility>

#include "reduce_api.h"
#include "tree.cuh"

namespace rl::kernels {
namespace {

void check(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  throw CudaError(std::string(call) + " failed: " + cudaGetErrorString(err) + " (" +
                  cudaGetErrorName(err) + ") at " + file + ":" + std::to_string(line));
}
#define RL_CUDA(call) check((call), #call, __FILE__, __LINE__)

// Owns one device allocation; freed on every path, exceptions included.
template <class T>
class DeviceArray {
 public:
  explicit DeviceArray(std::size_t count) : count_(count) {
    if (count_ > 0) RL_CUDA(cudaMalloc(&ptr_, count_ * sizeof(T)));
  }
  ~DeviceArray() { if (ptr_) cudaFree(ptr_); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  void to_host(T* dst) const {
    if (count_ > 0) RL_CUDA(cudaMemcpy(dst, ptr_, count_ * sizeof(T), cudaMemcpyDeviceToHost));
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_;
};

template <class T, class Op, class Probe>
void launch(Algo algo, std::size_t grid, int block, const T* in, T* out, std::size_t n,
            const Probe& probe) {
  const dim3 g(static_cast<unsigned>(grid));
  const std::size_t shmem = static_cast<std::size_t>(block) * sizeof(T);
  switch (algo) {
    case Algo::InterleavedDivergent:
      interleaved_divergent<T, Op, Probe><<<g, block, shmem>>>(in, out, n, probe);
      break;
    case Algo::InterleavedBankConflicts:
      interleaved_bank_conflicts<T, Op, Probe><<<g, block, shmem>>>(in, out, n, probe);
      break;
    case Algo::Sequential:
      sequential<T, Op, Probe><<<g, block, shmem>>>(in, out, n, probe);
      break;
  }
  RL_CUDA(cudaGetLastError());
}

std::size_t blocks_for(std::size_t n, int block) {
  return (n + static_cast<std::size_t>(block) - 1) / static_cast<std::size_t>(block);
}

template <class T, class Op>
T reduce_with(Algo algo, const T* host_in, std::size_t n, int block, RawTrace<T>* trace,
              int trace_block) {
  DeviceArray<T> input(n);
  RL_CUDA(cudaMemcpy(input.get(), host_in, n * sizeof(T), cudaMemcpyHostToDevice));
  std::size_t count = blocks_for(n, block);
  DeviceArray<T> a(count), b(blocks_for(count, block));

  if (trace) {
    const int stages = tree_stage_count(block);
    const std::size_t cells = static_cast<std::size_t>(stages) * block;
    DeviceArray<T> shared(cells);
    DeviceArray<std::uint8_t> active(cells);
    DeviceArray<int> reads(2 * cells), writes(cells);
    TraceProbe<T> probe{trace_block, shared.get(), active.get(), reads.get(), writes.get()};
    launch<T, Op>(algo, count, block, input.get(), a.get(), n, probe);
    RL_CUDA(cudaDeviceSynchronize());
    trace->block = block;
    trace->stages = stages;
    trace->shared.resize(cells);
    trace->active.resize(cells);
    trace->reads.resize(2 * cells);
    trace->writes.resize(cells);
    shared.to_host(trace->shared.data());
    active.to_host(trace->active.data());
    reads.to_host(trace->reads.data());
    writes.to_host(trace->writes.data());
  } else {
    launch<T, Op>(algo, count, block, input.get(), a.get(), n, NoProbe{});
  }

  // Further passes of the same kernel over the partials until one value remains.
  T* src = a.get();
  T* dst = b.get();
  while (count > 1) {
    const std::size_t next = blocks_for(count, block);
    launch<T, Op>(algo, next, block, src, dst, count, NoProbe{});
    std::swap(src, dst);
    count = next;
  }
  T result{};
  RL_CUDA(cudaMemcpy(&result, src, sizeof(T), cudaMemcpyDeviceToHost));
  return result;
}

}  // namespace

bool cuda_available(std::string* why) {
  int count = 0;
  const cudaError_t err = cudaGetDeviceCount(&count);
  if (err != cudaSuccess) {
    cudaGetLastError();  // clear the sticky-free error so later calls start clean
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

template <class T>
T gpu_reduce(Algo algo, OpKind op, const T* host_in, std::size_t n, int block,
             RawTrace<T>* trace, int trace_block) {
  check_launch(n, block, trace != nullptr, trace_block);
  switch (op) {
    case OpKind::Sum: return reduce_with<T, ops::Sum>(algo, host_in, n, block, trace, trace_block);
    case OpKind::Min: return reduce_with<T, ops::Min>(algo, host_in, n, block, trace, trace_block);
    case OpKind::Max: return reduce_with<T, ops::Max>(algo, host_in, n, block, trace, trace_block);
  }
  throw std::invalid_argument("gpu_reduce: unknown operator");
}

template int gpu_reduce<int>(Algo, OpKind, const int*, std::size_t, int, RawTrace<int>*, int);
template float gpu_reduce<float>(Algo, OpKind, const float*, std::size_t, int, RawTrace<float>*,
                                 int);

}  // namespace rl::kernels
