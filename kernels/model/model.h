// CPU model of every algorithm: the same stages, the same order of operations, the same
// recordings as the instrumented kernels. It is the sim backend and the GPU tests' oracle.
#pragma once
#include <cstddef>
#include <vector>

#include "../algo.h"
#include "../raw_trace.h"
#include "../shapes.h"
#include "../matrix_shapes.h"
#include "../narrow_types.h"

namespace rl::model {

// The SM count the model sizes fixed grids for when no GPU says otherwise (H100/H200).
constexpr int kModelSmCount = 132;

// Same contract as kernels::gpu_reduce, computed on the CPU. A fixed-grid algorithm uses
// launch.grid when given (to match a GPU run), else the grid for kModelSmCount SMs.
// In: the elements' type, T: the accumulator's (half and bfloat16 elements add in float or in
// their own type); 16-byte loads hold 16 / sizeof(In) elements.
template <class T, class In = T>
T model_reduce(kernels::Algo algo, kernels::OpKind op, const In* in, std::size_t n, const kernels::Launch& launch,
               kernels::RawTrace<T>* trace);

// Same contract as kernels::gpu_reduce_matrix, computed on the CPU.
template <class T, class In = T>
std::vector<T> model_reduce_matrix(kernels::Algo algo, kernels::OpKind op, const In* in, kernels::Matrix m,
                                   const kernels::Launch& launch, kernels::RawTrace<T>* trace);

}  // namespace rl::model
