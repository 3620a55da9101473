// Our all-reduce across GPUs on the GPUs (kernels/all_reduce.cu), for host code that never needs
// nvcc: the ring's steps and the one-shot kernel (all_reduce.cuh) over CUDA peer access.
#pragma once
#include <cstddef>
#include <vector>

#include "model/all_reduce.h"
#include "narrow_types.h"

namespace rl::kernels {

int cuda_device_count();

// What a run kept after each step: every buffer's chunks, each cut to its first `keep` values
// (model::all_reduce::kept_values' layout), as doubles.
using AllReduceSteps = std::vector<std::vector<std::vector<double>>>;

// Runs `algorithm` over inputs, buffer g on device devices[g], and returns every buffer at the
// end. A device may be named more than once: its buffers then share one GPU, which runs the same
// kernels one after another (how the tests run them on a machine of one GPU; never a run across
// GPUs). With steps non-null, each step's kept values. Throws CudaError naming two GPUs without
// peer access, or a failing call.
template <class T>
std::vector<std::vector<T>> gpu_all_reduce(model::all_reduce::Algorithm algorithm, const std::vector<int>& devices,
                                           const std::vector<std::vector<T>>& inputs, std::size_t keep,
                                           AllReduceSteps* steps);

}  // namespace rl::kernels
