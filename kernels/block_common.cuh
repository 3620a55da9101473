// Device helpers every family of kernels uses (tree, shuffle, cooperative groups, single
// pass, matrix): a block's dynamic shared memory as an array of T, and a bounds-checked load.
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

}  // namespace rl::kernels
