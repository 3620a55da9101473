// Host launchers: how each algorithm covers the whole array (repeated passes, a fixed grid
// and a second pass, atomics, a cooperative launch), and the explicit instantiations.
#include "matrix_launch.cuh"
#include "op_dispatch.h"

namespace rl::kernels {

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

std::size_t cuda_memory_used() {
  std::size_t free = 0, total = 0;
  RL_CUDA(cudaMemGetInfo(&free, &total));
  return total - free;
}

DeviceShape cuda_device_shape() {
  static const DeviceShape shape = [] {
    int dev = 0, threads = 0;
    RL_CUDA(cudaGetDevice(&dev));
    RL_CUDA(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    return DeviceShape(cuda_sm_count(), threads);
  }();
  return shape;
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

int cuda_compute_major() {
  static const int major = [] {  // the device is the process's one, as cuda_sm_count reads it
    int dev = 0, m = 0;
    RL_CUDA(cudaGetDevice(&dev));
    RL_CUDA(cudaDeviceGetAttribute(&m, cudaDevAttrComputeCapabilityMajor, dev));
    return m;
  }();
  return major;
}

template <class T, class In>
T gpu_reduce(Algo algo, OpKind op, const In* host_in, std::size_t n, const Launch& launch, RawTrace<T>* trace) {
  if (!gpu_launchable(algo)) throw std::invalid_argument("this algorithm is modelled only and never launched on the GPU");
  Launch l = launch;
  // Fixed grids come from this device's SM count; cg-grid-sync's is capped by occupancy later.
  const int cluster = cluster_blocks(algo, l.cluster);
  if (!l.grid && algo != Algo::CgGridSync) l.grid = first_pass_grid(algo, n, l.block, cuda_device_shape(), cluster);
  Launch checked = l;
  if (!checked.grid) checked.grid = first_pass_grid(algo, n, l.block, cuda_device_shape(), cluster);
  check_launch(algo, n, checked, trace != nullptr);
  return by_op<T, In>(algo, op,
                      [&](auto o) { return Reducer<T, decltype(o), In>(algo, l, trace, nullptr).run(host_in, n); });
}

template <class T, class In>
std::vector<T> gpu_reduce_matrix(Algo algo, OpKind op, const In* host_in, Matrix m, const Launch& launch,
                                 RawTrace<T>* trace) {
  return by_op<T, In>(algo, op, [&](auto o) {
    return MatrixReducer<T, decltype(o), In>(algo, launch, trace, nullptr).run(host_in, m);
  });
}

template <class T>
std::vector<std::vector<T>> gpu_reduce_matrices(Algo algo, OpKind op, const std::vector<const T*>& host_ins, Matrix m,
                                                const Launch& launch) {
  return by_op<T, T>(algo, op, [&](auto o) {
    return MatrixReducer<T, decltype(o)>(algo, launch, nullptr, nullptr).run_each(host_ins, m);
  });
}

#define RL_MATRIX(T)                                                                                  \
  template std::vector<T> gpu_reduce_matrix<T>(Algo, OpKind, const T*, Matrix, const Launch&, RawTrace<T>*); \
  template std::vector<std::vector<T>> gpu_reduce_matrices<T>(Algo, OpKind, const std::vector<const T*>&, Matrix, \
                                                              const Launch&);
RL_MATRIX(int)
RL_MATRIX(float)
RL_MATRIX(double)
#undef RL_MATRIX

template int gpu_reduce<int>(Algo, OpKind, const int*, std::size_t, const Launch&, RawTrace<int>*);
template float gpu_reduce<float>(Algo, OpKind, const float*, std::size_t, const Launch&, RawTrace<float>*);
template double gpu_reduce<double>(Algo, OpKind, const double*, std::size_t, const Launch&, RawTrace<double>*);
#define RL_NARROW(T, In) \
  template T gpu_reduce<T, In>(Algo, OpKind, const In*, std::size_t, const Launch&, RawTrace<T>*);
#define RL_NARROW_MATRIX(T, In) \
  template std::vector<T> gpu_reduce_matrix<T, In>(Algo, OpKind, const In*, Matrix, const Launch&, RawTrace<T>*);
RL_FOR_EACH_NARROW_PAIR(RL_NARROW)
RL_FOR_EACH_NARROW_PAIR(RL_NARROW_MATRIX)
#undef RL_NARROW
#undef RL_NARROW_MATRIX

}  // namespace rl::kernels
