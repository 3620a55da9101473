// CPU model of the tree reductions: the same stages, the same order of operations, the same
// recordings as the instrumented kernels. It is the sim backend and the GPU tests' oracle.
#pragma once
#include <cstddef>

#include "../reduce_api.h"

namespace rl::model {

// Same contract as kernels::gpu_reduce, computed on the CPU.
template <class T>
T tree_reduce(kernels::Algo algo, kernels::OpKind op, const T* in, std::size_t n, int block,
              kernels::RawTrace<T>* trace, int trace_block);

}  // namespace rl::model
