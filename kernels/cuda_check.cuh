// Every CUDA call is checked: a failure becomes a CudaError naming the call, file and line.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "gpu_api.h"

namespace rl::kernels {

inline void check(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next run starts clean
  throw CudaError(std::string(call) + " failed: " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ") at " +
                  file + ":" + std::to_string(line));
}

inline std::string mib(std::size_t bytes) { return std::to_string((bytes + (1u << 20) - 1) >> 20) + " MiB"; }

// cudaMalloc that says, when the GPU is out of memory, how much was asked and how much is free.
inline void* device_alloc(std::size_t bytes, const std::string& what) {
  void* p = nullptr;
  const cudaError_t err = cudaMalloc(&p, bytes);
  if (err == cudaErrorMemoryAllocation) {
    cudaGetLastError();
    std::size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    throw CudaError(what + " needs " + mib(bytes) + " of GPU memory; " + mib(free) + " of " + mib(total) +
                    " are free");
  }
  check(err, "cudaMalloc", __FILE__, __LINE__);
  return p;
}

}  // namespace rl::kernels

#define RL_CUDA(call) ::rl::kernels::check((call), #call, __FILE__, __LINE__)
