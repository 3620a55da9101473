// Device helpers every family of kernels uses (tree, shuffle, cooperative groups, single
// pass, matrix): a block's dynamic shared memory as an array of T, a bounds-checked load, and a
// warp's place in the grid.
#pragma once
#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>

#include "algorithms.h"
#include "launch_table.cuh"
#include "probe.cuh"
#include "reduce_ops.h"

namespace rl::kernels {

// The block's dynamic shared memory, aligned for 16-byte vectors.
template <class T>
__device__ __forceinline__ T* shared_array() {
  extern __shared__ __align__(16) unsigned char smem_raw[];
  return reinterpret_cast<T*>(smem_raw);
}

// in[i] as a T (a half or bfloat16 converted to float exactly), or the identity past the end; a
// probe records the load as the thread's slot-th.
template <class T, class Op, class Probe = NoProbe, class In = T>
__device__ __forceinline__ T load_or_identity(const In* in, std::size_t n, std::size_t i, const Probe& probe = {},
                                              int slot = 0) {
  if (i >= n) return Op::template identity<T>();
  probe.load(0, slot, i);
  return static_cast<T>(in[i]);
}

// This warp's index among the grid's warps, and how many warps the grid has: for kernels whose
// blocks are whole warps (the row kernels: powers of two from 32).
__device__ __forceinline__ std::size_t grid_warp() {
  return std::size_t(blockIdx.x) * (blockDim.x / 32) + threadIdx.x / 32;
}
__device__ __forceinline__ std::size_t grid_warps() { return std::size_t(gridDim.x) * (blockDim.x / 32); }

}  // namespace rl::kernels
