// What the perf experiments share: a CUDA check that stops the experiment, and the same L2
// eviction as the benchmark (kernels/bench.cu), so their samples are cold alike.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdio>
#include <cstdlib>

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
