// What the flat-row prototypes share (explorations for issue 53, not part of the app): the perf
// experiments' CUDA check and peak bandwidth, a seeded input, each row checked against a double
// sum, the best of 20 timed launches, and the benchmark's cold median (after an L2 eviction).
#pragma once
#include <cuda_fp16.h>

#include <algorithm>

#include "../../experiments/perf_common.cuh"

using u64 = unsigned long long;

__global__ void fill(float* x, u64 n) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n; i += u64(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i * 2654435761ull) ^ unsigned(i >> 17);
    h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
    x[i] = float(int(h % 2001u) - 1000) / 64.f;
  }
}

template <class In>
__global__ void check(const In* x, u64 rows, u64 cols, const float* got, unsigned long long* bad) {
  for (u64 r = blockIdx.x * u64(blockDim.x) + threadIdx.x; r < rows; r += u64(gridDim.x) * blockDim.x) {
    double want = 0, mag = 0;
    for (u64 c = 0; c < cols; ++c) {
      const double e = double(float(x[r * cols + c]));
      want += e, mag += fabs(e);
    }
    if (fabs(got[r] - want) > 1e-5 * mag + 1e-30) atomicAdd(bad, 1ull);
  }
}

// The best of 20 launches (ms), after one untimed launch. device_sync false: the untimed launch
// waits on the legacy stream alone, not on other streams' work (flat_rows_stages.cu's held SMs).
template <class Launch>
float best_ms(Launch&& launch, bool device_sync = true) {
  static cudaEvent_t e0 = nullptr, e1 = nullptr;
  if (!e0) {
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
  }
  float best = 1e9f, ms = 0;
  launch();
  CK(cudaGetLastError());
  if (device_sync)
    CK(cudaDeviceSynchronize());
  else
    CK(cudaStreamSynchronize(0));
  for (int i = 0; i < 20; ++i) {
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    CK(cudaEventElapsedTime(&ms, e0, e1));
    best = ms < best ? ms : best;
  }
  CK(cudaGetLastError());
  return best;
}

// The best of `batches` batches of `launches` launches back to back (ms a launch), after one
// untimed launch: the lines a launch leaves dirty in L2 are written back during the next.
template <class Launch>
float back_to_back_ms(Launch&& launch, int launches, int batches) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  launch();
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  float best = 1e9f;
  for (int b = 0; b < batches; ++b) {
    CK(cudaEventRecord(e0));
    for (int i = 0; i < launches; ++i) launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    best = std::min(best, ms / float(launches));
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  return best;
}

// A prototype's device and buffers: the input (maxn seeded floats), a row result each of up to
// max_rows rows, a counter of wrong rows; the device line printed.
struct Lab {
  double peak;
  int sms;
  float *in, *out;
  unsigned long long* bad;
  double pct(double bytes, float ms) const { return bytes / (ms * 1e-3) / 1e9 / peak * 100; }
  // Rows of out that miss a double sum of in's row (check).
  unsigned long long wrong_rows(u64 rows, u64 cols) const { return wrong_rows(in, rows, cols); }
  // The same of another input (halves: in's values, each exact in half).
  template <class In>
  unsigned long long wrong_rows(const In* x, u64 rows, u64 cols) const {
    CK(cudaMemset(bad, 0, 8));
    check<<<1024, 256>>>(x, rows, cols, out, bad);
    CK(cudaGetLastError());
    unsigned long long n = 0;
    CK(cudaMemcpy(&n, bad, 8, cudaMemcpyDeviceToHost));
    return n;
  }
};

inline Lab open_lab(u64 maxn, u64 max_rows) {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  Lab lab{peak_gbps(0), prop.multiProcessorCount, nullptr, nullptr, nullptr};
  printf("device %s, %d SMs, peak %.0f GB/s\n", prop.name, lab.sms, lab.peak);
  CK(cudaMalloc(&lab.in, maxn * 4));
  CK(cudaMalloc(&lab.out, max_rows * 4));
  CK(cudaMalloc(&lab.bad, 8));
  fill<<<1024, 256>>>(lab.in, maxn);
  CK(cudaGetLastError());
  return lab;
}

__global__ void to_half(const float* x, __half* y, u64 n) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n; i += u64(gridDim.x) * blockDim.x)
    y[i] = __float2half_rn(x[i]);  // exact: fill's values are multiples of 1/64 under 16 in size
}

// The lab's first n inputs as halves, in a new buffer (cudaFree it).
inline __half* lab_halves(const Lab& lab, u64 n) {
  __half* h = nullptr;
  CK(cudaMalloc(&h, n * sizeof(__half)));
  to_half<<<1024, 256>>>(lab.in, h, n);
  CK(cudaGetLastError());
  return h;
}

// A buffer of twice the L2 to read before each cold sample (evict_l2), as the benchmark does.
struct Cold {
  const int4* flush;
  std::size_t flush16;
  int* sink;
};

inline Cold open_cold() {
  cudaDeviceProp prop;
  CK(cudaGetDeviceProperties(&prop, 0));
  const std::size_t bytes = std::size_t(prop.l2CacheSize) * 2;
  int4* flush = nullptr;
  CK(cudaMalloc(&flush, bytes + 16));
  CK(cudaMemset(flush, 0, bytes + 16));
  return {flush, bytes / 16, reinterpret_cast<int*>(flush + bytes / 16)};
}

// Median of 21 launches (ms), each after an L2 eviction: the benchmark's cold samples.
template <class Launch>
float cold_median_ms(Launch&& launch, const Cold& c, int sms) {
  cudaEvent_t e0, e1;
  CK(cudaEventCreate(&e0));
  CK(cudaEventCreate(&e1));
  std::vector<float> v;
  for (int i = 0; i < 21; ++i) {
    evict_l2<<<sms * 4, 256>>>(c.flush, c.flush16, c.sink);
    CK(cudaGetLastError());
    CK(cudaEventRecord(e0));
    launch();
    CK(cudaEventRecord(e1));
    CK(cudaEventSynchronize(e1));
    float ms = 0;
    CK(cudaEventElapsedTime(&ms, e0, e1));
    v.push_back(ms);
  }
  CK(cudaGetLastError());
  CK(cudaEventDestroy(e0));
  CK(cudaEventDestroy(e1));
  std::sort(v.begin(), v.end());
  return v[10];
}
