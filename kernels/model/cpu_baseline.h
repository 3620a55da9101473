// The CPU baseline: std::reduce on the host, for scale beside the GPU.
#pragma once
#include <cstddef>
#include <numeric>

#include "../algorithms.h"
#include "../reduce_ops.h"

namespace rl::model {

template <class T>
T cpu_reduce(kernels::OpKind op, const T* in, std::size_t n) {
  switch (op) {
    case kernels::OpKind::Min: return std::reduce(in, in + n, ops::Min::identity<T>(), ops::Min{});
    case kernels::OpKind::Max: return std::reduce(in, in + n, ops::Max::identity<T>(), ops::Max{});
    default: return std::reduce(in, in + n, ops::Sum::identity<T>(), ops::Sum{});
  }
}

}  // namespace rl::model
