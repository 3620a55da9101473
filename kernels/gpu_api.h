// The GPU's entry points (kernels/launch.cu, baselines.cu): host code calls these and never
// needs nvcc; the CPU backend never links them.
#pragma once
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms.h"
#include "matrix_shapes.h"
#include "narrow_types.h"
#include "plan.h"
#include "raw_trace.h"
#include "shapes.h"

namespace rl::kernels {

// Thrown for any failing CUDA call, with the call, file and line in the message.
struct CudaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// True when a CUDA device can be used; otherwise *why says what is missing.
bool cuda_available(std::string* why);
std::string cuda_device_name();
// Bytes of the current device's memory in use (by every process): the soak watches it.
std::size_t cuda_memory_used();
int cuda_sm_count();
int cuda_compute_major();         // the device's compute capability, major (9 on an H100)
DeviceShape cuda_device_shape();  // the current device's SMs, threads per SM and memory peak

// Runs the plan on the GPU over host_in (plan.size() elements; a matrix row-major) and returns
// its outputs: one for an array, one a row or a column for a matrix. With trace non-null, block
// plan.trace_block of the first pass runs the instrumented instantiation. In: the elements' type;
// T: the accumulator's (float, or the element type itself, for half and bfloat16 elements).
template <class T, class In = T>
std::vector<T> gpu_run(const Plan& plan, OpKind op, const In* host_in, RawTrace<T>* trace);
// A matrix plan over several inputs, one after another through one prepared reducer, as a
// benchmark's back-to-back runs go: each one's outputs. Whatever a launch leaves for the next
// (batched-rows-vectorized's ticket counters and words) must not change the next one's results;
// `ends`, where given, gets how the runs ended their rows.
template <class T>
std::vector<std::vector<T>> gpu_run_each(const Plan& plan, OpKind op, const std::vector<const T*>& host_ins,
                                         RowEnds* ends = nullptr);
// The plan for this process's GPU (its SMs and threads an SM size the fixed grids).
Plan gpu_plan(Algo algo, Matrix shape, const Launch& launch, std::size_t elem_bytes, bool traced);

template <class T>
T cub_reduce(OpKind op, const T* host_in, std::size_t n);
template <class T>
T thrust_reduce(OpKind op, const T* host_in, std::size_t n);
// Copies host_in through the GPU with 16-byte loads and stores; true when every element
// arrived unchanged.
template <class T>
bool copy_roundtrip(const T* host_in, std::size_t n);

}  // namespace rl::kernels
