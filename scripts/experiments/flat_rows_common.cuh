// What the flat-row prototypes share (explorations for issue 53, not part of the app): the perf
// experiments' CUDA check, a seeded input, each row checked against a double sum, and the
// device's peak bandwidth from its memory clock and bus width.
#pragma once
#include "../../experiments/perf_common.cuh"

using u64 = unsigned long long;

__global__ void fill(float* x, u64 n) {
  for (u64 i = blockIdx.x * u64(blockDim.x) + threadIdx.x; i < n; i += u64(gridDim.x) * blockDim.x) {
    unsigned h = unsigned(i * 2654435761ull) ^ unsigned(i >> 17);
    h ^= h >> 13, h *= 0x5bd1e995u, h ^= h >> 15;
    x[i] = float(int(h % 2001u) - 1000) / 64.f;
  }
}

__global__ void check(const float* x, u64 rows, u64 cols, const float* got, unsigned long long* bad) {
  for (u64 r = blockIdx.x * u64(blockDim.x) + threadIdx.x; r < rows; r += u64(gridDim.x) * blockDim.x) {
    double want = 0, mag = 0;
    for (u64 c = 0; c < cols; ++c) want += x[r * cols + c], mag += fabs(double(x[r * cols + c]));
    if (fabs(got[r] - want) > 1e-5 * mag + 1e-30) atomicAdd(bad, 1ull);
  }
}

inline double peak_gbps(int dev) {
  int clk = 0, bus = 0;
  CK(cudaDeviceGetAttribute(&clk, cudaDevAttrMemoryClockRate, dev));
  CK(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev));
  return 2.0 * clk * 1e3 * (bus / 8) / 1e9;
}
