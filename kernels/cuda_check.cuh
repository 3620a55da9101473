// Every CUDA call is checked: a failure becomes a CudaError naming the call, file and line.
#pragma once
#include <cuda_runtime.h>

#include <string>

#include "reduce_api.h"

namespace rl::kernels {

inline void check(cudaError_t err, const char* call, const char* file, int line) {
  if (err == cudaSuccess) return;
  cudaGetLastError();  // clear a non-sticky error so the next run starts clean
  throw CudaError(std::string(call) + " failed: " + cudaGetErrorString(err) + " (" + cudaGetErrorName(err) + ") at " +
                  file + ":" + std::to_string(line));
}

}  // namespace rl::kernels

#define RL_CUDA(call) ::rl::kernels::check((call), #call, __FILE__, __LINE__)
