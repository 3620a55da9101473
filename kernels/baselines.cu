// Baselines: CUB and Thrust reduce the same data as our kernels; a vectorized device copy
// is the bandwidth any single-pass reduction can hope to approach.
#include <cub/device/device_reduce.cuh>
#include <cuda_runtime.h>
#include <thrust/device_ptr.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "algorithms.h"
#include "gpu_api.h"
#include "reduce_ops.h"
#include "copy.cuh"
#include "cuda_check.cuh"

namespace rl::kernels {
namespace {


template <class T>
struct Buffer {  // one device allocation, freed on every path
  T* ptr = nullptr;
  explicit Buffer(std::size_t n) { RL_CUDA(cudaMalloc(&ptr, std::max<std::size_t>(n, 1) * sizeof(T))); }
  ~Buffer() { cudaFree(ptr); }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
};

template <class T, class Op>
T cub_with(const T* host_in, std::size_t n) {
  Buffer<T> in(n), out(1);
  RL_CUDA(cudaMemcpy(in.ptr, host_in, n * sizeof(T), cudaMemcpyHostToDevice));
  std::size_t bytes = 0;
  RL_CUDA(cub::DeviceReduce::Reduce(nullptr, bytes, in.ptr, out.ptr, n, Op{}, Op::template identity<T>()));
  Buffer<unsigned char> temp(bytes);
  RL_CUDA(cub::DeviceReduce::Reduce(temp.ptr, bytes, in.ptr, out.ptr, n, Op{}, Op::template identity<T>()));
  T result{};
  RL_CUDA(cudaMemcpy(&result, out.ptr, sizeof(T), cudaMemcpyDeviceToHost));
  return result;
}

template <class T, class Op>
T thrust_with(const T* host_in, std::size_t n) {
  Buffer<T> in(n);
  RL_CUDA(cudaMemcpy(in.ptr, host_in, n * sizeof(T), cudaMemcpyHostToDevice));
  const thrust::device_ptr<T> p(in.ptr);
  return thrust::reduce(thrust::device, p, p + n, Op::template identity<T>(), Op{});
}

template <class Fn>
auto by_op(OpKind op, Fn fn) {
  switch (op) {
    case OpKind::Min: return fn(ops::Min{});
    case OpKind::Max: return fn(ops::Max{});
    default: return fn(ops::Sum{});
  }
}

}  // namespace

template <class T>
T cub_reduce(OpKind op, const T* host_in, std::size_t n) {
  return by_op(op, [&](auto o) { return cub_with<T, decltype(o)>(host_in, n); });
}

template <class T>
T thrust_reduce(OpKind op, const T* host_in, std::size_t n) {
  return by_op(op, [&](auto o) { return thrust_with<T, decltype(o)>(host_in, n); });
}

template <class T>
bool copy_roundtrip(const T* host_in, std::size_t n) {
  Buffer<T> in(n), out(n);
  RL_CUDA(cudaMemcpy(in.ptr, host_in, n * sizeof(T), cudaMemcpyHostToDevice));
  RL_CUDA(cudaMemset(out.ptr, 0xff, n * sizeof(T)));  // poison: every element must be written
  vector_copy<T><<<unsigned(std::max<std::size_t>(1, std::min<std::size_t>((n / 2 + 255) / 256, 4 * cuda_sm_count()))), 256>>>(in.ptr, out.ptr, n);
  RL_CUDA(cudaGetLastError());
  std::vector<T> back(n);
  RL_CUDA(cudaMemcpy(back.data(), out.ptr, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (std::size_t i = 0; i < n; ++i)
    if (std::memcmp(&back[i], &host_in[i], sizeof(T)) != 0) return false;
  return true;
}

template int cub_reduce<int>(OpKind, const int*, std::size_t);
template float cub_reduce<float>(OpKind, const float*, std::size_t);
template int thrust_reduce<int>(OpKind, const int*, std::size_t);
template float thrust_reduce<float>(OpKind, const float*, std::size_t);
template bool copy_roundtrip<int>(const int*, std::size_t);
template bool copy_roundtrip<float>(const float*, std::size_t);
template double cub_reduce<double>(OpKind, const double*, std::size_t);
template double thrust_reduce<double>(OpKind, const double*, std::size_t);
template bool copy_roundtrip<double>(const double*, std::size_t);

}  // namespace rl::kernels
