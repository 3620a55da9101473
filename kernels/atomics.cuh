// Combines a block's total into the result with one atomic: add, min or max. Floats have no
// hardware min/max atomic, so those loop on compare-and-swap.
#pragma once
#include <type_traits>

#include "narrow_types.h"
#include "reduce_ops.h"

namespace rl::kernels {

// The result the blocks combine into starts as the operator's identity.
template <class T, class Op>
__global__ void set_identity(T* dst) {
  *dst = Op::template identity<T>();
}

template <class Op>
__device__ void atomic_combine(int* dst, int v) {
  if constexpr (std::is_same_v<Op, ops::Sum>) atomicAdd(dst, v);
  else if constexpr (std::is_same_v<Op, ops::Min>) atomicMin(dst, v);
  else atomicMax(dst, v);
}

template <class Op>
__device__ void atomic_combine(float* dst, float v) {
  if constexpr (std::is_same_v<Op, ops::Sum>) {
    atomicAdd(dst, v);
  } else {
    int* bits = reinterpret_cast<int*>(dst);
    int seen = *bits;
    for (;;) {
      const float now = __int_as_float(seen);
      const float next = Op{}(now, v);
      if (__float_as_int(next) == seen) return;  // nothing to change
      const int prev = atomicCAS(bits, seen, __float_as_int(next));
      if (prev == seen) return;
      seen = prev;
    }
  }
}

template <class Op>
__device__ void atomic_combine(double* dst, double v) {
  if constexpr (std::is_same_v<Op, ops::Sum>) {
    atomicAdd(dst, v);
  } else {
    auto* bits = reinterpret_cast<unsigned long long*>(dst);
    unsigned long long seen = *bits;
    for (;;) {
      const double next = Op{}(__longlong_as_double(static_cast<long long>(seen)), v);
      const auto want = static_cast<unsigned long long>(__double_as_longlong(next));
      if (want == seen) return;
      const unsigned long long prev = atomicCAS(bits, seen, want);
      if (prev == seen) return;
      seen = prev;
    }
  }
}

// Sums in half or bfloat16 (the pitfall accumulator, --accumulate same): CUDA's 16-bit atomicAdd
// (compute capability 7.x for __half, 8.x for __nv_bfloat16), rounding once to the type as __hadd
// does; on sm_90 it compiles to a compare-and-swap (assets/runs/h200/report/atomic_half_sass_2026-11-27.txt).
template <class Op, class Tag>
__device__ void atomic_combine(narrow::Narrow16<Tag>* dst, narrow::Narrow16<Tag> v) {
  static_assert(std::is_same_v<Op, ops::Sum>, "half and bfloat16 accumulators take sums only");
  if constexpr (narrow::Narrow16<Tag>::kHalf)
    atomicAdd(reinterpret_cast<__half*>(dst), __ushort_as_half(v.bits));
  else
    atomicAdd(reinterpret_cast<__nv_bfloat16*>(dst), __ushort_as_bfloat16(v.bits));
}

}  // namespace rl::kernels
