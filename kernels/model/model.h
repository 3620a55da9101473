// CPU model of every algorithm: the same stages, the same order of operations, the same
// recordings as the instrumented kernels. It is the sim backend and the GPU tests' oracle.
#pragma once
#include <cstddef>
#include <vector>

#include "../algorithms.h"
#include "../raw_trace.h"
#include "../shapes.h"
#include "../matrix_shapes.h"
#include "../narrow_types.h"
#include "../plan.h"

namespace rl::model {

// The SM count the model sizes fixed grids for when no GPU says otherwise (H100/H200).
constexpr int kModelSmCount = 132;
// That device's shape: SMs of 2048 threads, no memory peak.
constexpr kernels::DeviceShape kModelDevice{kModelSmCount};

// Same contract as kernels::gpu_run, computed on the CPU: the plan's outputs (one for an
// array). In: the elements' type, T: the accumulator's (half and bfloat16 elements add in float
// or in their own type); 16-byte loads hold 16 / sizeof(In) elements.
template <class T, class In = T>
std::vector<T> model_run(const kernels::Plan& plan, kernels::OpKind op, const In* in, kernels::RawTrace<T>* trace);

// The plan the model runs when no GPU says otherwise: fixed grids sized for kModelSmCount SMs.
kernels::Plan model_plan(kernels::Algo algo, kernels::Matrix shape, const kernels::Launch& launch,
                         std::size_t elem_bytes, bool traced);

namespace detail {
template <class T, class In>
std::vector<T> run_matrix(const kernels::Plan& plan, kernels::OpKind op, const In* in, kernels::RawTrace<T>* trace);
}  // namespace detail

}  // namespace rl::model
