// What the perf experiments share: a CUDA check that stops the experiment, and the same L2
// eviction as the benchmark (kernels/bench.cu), so their samples are cold alike.
#pragma once
#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <type_traits>
#include <vector>

#define CK(x)                                                                                   \
  do {                                                                                          \
    cudaError_t e_ = (x);                                                                       \
    if (e_ != cudaSuccess) {                                                                    \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

__global__ void evict_l2(const int4* buf, std::size_t count, int* sink) {
  int acc = 0;
  for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < count; i += std::size_t(gridDim.x) * blockDim.x)
    acc ^= buf[i].x ^ buf[i].w;
  if (acc == 0x7fffffff) *sink = acc;  // keeps the loads; practically never taken
}

// The experiments' input: the same seeded values every run (ints in [-1000, 1000], floats in
// [-1, 1)), copied to the device.
template <class T>
void upload_random(T* in, std::size_t n) {
  std::vector<T> h(n);
  unsigned s = 12345;
  for (auto& x : h) {
    s = s * 1664525u + 1013904223u;
    x = std::is_same_v<T, int> ? T(int(s >> 8) % 2001 - 1000) : T(double(s >> 8) / double(1 << 23) - 1.0);
  }
  CK(cudaMemcpy(in, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
}

// The device's peak DRAM bandwidth (GB/s) from its memory clock and bus width, as the app counts it.
inline double peak_gbps(int dev) {
  int clk = 0, bus = 0;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrMemoryClockRate, dev));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev));
  return 2.0 * clk * 1e3 * (bus / 8) / 1e9;
}

// The current device as the experiments' headers name it: its name, SMs and peak (GB/s).
struct DeviceFacts {
  cudaDeviceProp prop{};
  int sms = 0;
  double peak = 0;
};

inline DeviceFacts device_facts() {
  DeviceFacts f;
  int dev = 0;
  CK(cudaGetDevice(&dev));
  CK(cudaGetDeviceProperties(&f.prop, dev));
  CK(cudaDeviceGetAttribute(&f.sms, cudaDevAttrMultiProcessorCount, dev));
  f.peak = peak_gbps(dev);
  return f;
}

// The median (µs) of `reps` launches back to back, after three unrecorded. `launch()` or
// `launch(k)` makes the k-th, each checked for a launch error.
template <class Launch>
double median_us(Launch launch, int reps = 25) {
  cudaEvent_t a, b;
  CK(cudaEventCreate(&a));
  CK(cudaEventCreate(&b));
  std::vector<float> t;
  for (int r = 0; r < reps + 3; ++r) {
    CK(cudaEventRecord(a));
    if constexpr (std::is_invocable_v<Launch, int>)
      launch(r);
    else
      launch();
    CK(cudaGetLastError());
    CK(cudaEventRecord(b));
    CK(cudaEventSynchronize(b));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, a, b));
    if (r >= 3) t.push_back(ms);
  }
  std::sort(t.begin(), t.end());
  CK(cudaEventDestroy(a));
  CK(cudaEventDestroy(b));
  return 1000.0 * t[t.size() / 2];
}
