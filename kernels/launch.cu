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
    int dev = 0, threads = 0, clock_khz = 0, bus_bits = 0;
    RL_CUDA(cudaGetDevice(&dev));
    RL_CUDA(cudaDeviceGetAttribute(&threads, cudaDevAttrMaxThreadsPerMultiProcessor, dev));
    RL_CUDA(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, dev));
    RL_CUDA(cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, dev));
    return DeviceShape(cuda_sm_count(), threads, memory_peak_gbps(clock_khz, bus_bits));
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

Plan gpu_plan(Algo algo, Matrix shape, const Launch& launch, std::size_t elem_bytes, bool traced) {
  return make_plan(algo, shape, launch, cuda_device_shape(), elem_bytes, traced);
}

template <class T, class In>
std::vector<T> gpu_run(const Plan& plan, OpKind op, const In* host_in, RawTrace<T>* trace) {
  if (!gpu_launchable(plan.algo()))
    throw std::invalid_argument("this algorithm is modelled only and never launched on the GPU");
  return by_op<T, In>(plan.algo(), op, [&](auto o) -> std::vector<T> {
    if (plan.matrix()) return MatrixReducer<T, decltype(o), In>(plan, trace, nullptr).run(host_in);
    return {Reducer<T, decltype(o), In>(plan, trace, nullptr).run(host_in)};
  });
}

template <class T>
std::vector<std::vector<T>> gpu_run_each(const Plan& plan, OpKind op, const std::vector<const T*>& host_ins,
                                         RowEnds* ends) {
  return by_op<T, T>(plan.algo(), op, [&](auto o) {
    return MatrixReducer<T, decltype(o)>(plan, nullptr, nullptr).run_each(host_ins, ends);
  });
}

#define RL_RUN(T, In) template std::vector<T> gpu_run<T, In>(const Plan&, OpKind, const In*, RawTrace<T>*);
#define RL_EACH(T) \
  template std::vector<std::vector<T>> gpu_run_each<T>(const Plan&, OpKind, const std::vector<const T*>&, RowEnds*);
RL_RUN(int, int)
RL_RUN(float, float)
RL_RUN(double, double)
RL_FOR_EACH_NARROW_PAIR(RL_RUN)
RL_EACH(int)
RL_EACH(float)
RL_EACH(double)
#undef RL_RUN
#undef RL_EACH

}  // namespace rl::kernels
