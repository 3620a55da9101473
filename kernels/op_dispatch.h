// Calls f(Op{}) with the operator `op` names, for accumulator T and element type In: the one place
// that says which rows take halves and bfloat16 (their row's `narrow`) and that a half or bfloat16
// accumulator takes sums only (a min or max rounds nothing, so it is taken in float). Shared by the
// GPU's launches and the CPU model.
#pragma once
#include <stdexcept>
#include <string>

#include "algorithms.h"
#include "narrow_types.h"
#include "reduce_ops.h"

namespace rl::kernels {

template <class T, class In, class F>
auto by_op(Algo algo, OpKind op, F f) {
  if constexpr (narrow::is_narrow<T> || narrow::is_narrow<In>) {
    if (!row(algo).narrow) throw std::invalid_argument(std::string(row(algo).id) + " takes no half or bfloat16");
  }
  if constexpr (narrow::is_narrow<T>) {
    if (op != OpKind::Sum) throw std::invalid_argument("a half or bfloat16 accumulator takes sums only");
    return f(ops::Sum{});
  } else {
    switch (op) {
      case OpKind::Min: return f(ops::Min{});
      case OpKind::Max: return f(ops::Max{});
      default: return f(ops::Sum{});
    }
  }
}

}  // namespace rl::kernels
